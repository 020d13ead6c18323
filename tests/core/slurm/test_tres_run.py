"""TRESRunMins under ``AccountingStorageEnforce=limits``: the TRES-seconds a running job
still holds, by the rules of ``acct_policy.c`` (``ACCT_POLICY_JOB_BEGIN``: count × limit
seconds × usage factor, truncated) and ``priority_multifactor.c`` (``_apply_new_usage``:
each pass takes off the seconds since the pass before, up to the planned end, × usage
factor, truncated), 22.05 and 26.05 alike. Every number below is worked by hand from those
rules."""

from __future__ import annotations

import pytest

from fairshare_cli.core.slurm.assoc_tree import AccountDef, AssocTree, build_tree
from fairshare_cli.core.slurm.partition import YEAR
from fairshare_cli.core.slurm.tres_run import (
    INFINITE_MINUTES,
    RunningTres,
    run_seconds,
    tres_run_cells,
)

COUNTS = {"cpu": 4, "mem": 100, "node": 1, "billing": 4}


@pytest.mark.parametrize(
    ("job", "last_pass", "held"),
    [
        # started at 30, limit 600 s, passes every 60 s: no pass yet holds all 600
        pytest.param(RunningTres(30, 600, 1.0, COUNTS), 0, 600, id="before-first-pass"),
        pytest.param(RunningTres(30, 600, 1.0, COUNTS), None, 600, id="no-pass-at-all"),
        # passes at 60 (30 s), 120, 180 (60 s each): 150 taken, 450 left
        pytest.param(RunningTres(30, 600, 1.0, COUNTS), 180, 450, id="three-passes"),
        # the planned end is 630: the passes up to 600 take 570, 30 left, which the pass
        # at 660 takes (630 - 600); later passes take nothing
        pytest.param(RunningTres(30, 600, 1.0, COUNTS), 600, 30, id="last-pass-before-end"),
        pytest.param(RunningTres(30, 600, 1.0, COUNTS), 660, 0, id="past-the-end"),
        pytest.param(RunningTres(30, 600, 1.0, COUNTS), 6000, 0, id="long-past-the-end"),
        # usage factor 0.5: trunc(600 × 0.5) = 300 held; passes take trunc(30 × 0.5) = 15,
        # then trunc(60 × 0.5) = 30 twice: 225 left
        pytest.param(RunningTres(30, 600, 0.5, COUNTS), 180, 225, id="usage-factor-half"),
        # usage factor 0.3, limit 100 s, start 7, passes every 60: held trunc(100 × 0.3)
        # = 30; the pass at 60 takes trunc(53 × 0.3) = 15; the planned end is 107, so the
        # pass at 120 takes trunc((107 - 60) × 0.3) = 14: 1 left, never taken off
        pytest.param(RunningTres(7, 100, 0.3, COUNTS), 120, 1, id="truncations-leave-one"),
        # the first pass (60) is after the planned end (57): it takes 50 of 50
        pytest.param(RunningTres(7, 50, 1.0, COUNTS), 60, 0, id="ends-before-first-pass"),
        # UNLIMITED: INFINITE minutes held; the passes take 150 s as for any job
        pytest.param(
            RunningTres(30, None, 1.0, COUNTS), 180, INFINITE_MINUTES * 60 - 150, id="unlimited"
        ),
        # UNLIMITED is planned to end a year after its start: passes stop taking there
        pytest.param(
            RunningTres(0, None, 1.0, COUNTS),
            YEAR + 120,
            INFINITE_MINUTES * 60 - YEAR,
            id="unlimited-past-a-year",
        ),
    ],
)
def test_run_seconds(job: RunningTres, last_pass: float | None, held: int) -> None:
    assert run_seconds(job, last_pass, 60) == held


def _tree() -> AssocTree:
    return build_tree(
        [
            AccountDef("a", "root", 1, {"u1": 1, "u2": 1}),
            AccountDef("b", "root", 1, {"u3": 1}),
        ]
    )


def test_cells_sum_seconds_up_to_root_then_divide() -> None:
    """u1: 4 CPUs, 100 MB, 1 node, 450 s left: cpu=1800 s (30 min), mem=45000 s (750),
    node=450 s (7); u2: 2 CPUs, 100 MB, 1 node, 225 s left (usage factor 0.5): cpu=450 s
    (7), mem=22500 s (375), node=225 s (3). Account a and root add the seconds before
    dividing: cpu=2250 s (37), node=675 s (11, where 7 + 3 would be 10)."""
    running = {
        ("a", "u1"): [RunningTres(30, 600, 1.0, COUNTS)],
        ("a", "u2"): [RunningTres(30, 600, 0.5, {"cpu": 2, "mem": 100, "node": 1, "billing": 2})],
    }
    cells = tres_run_cells(_tree(), running, 180, 60)
    tail = "energy=0,{},fs/disk=0,vmem=0,pages=0"
    u1 = "cpu=30,mem=750," + tail.format("node=7,billing=30")
    u2 = "cpu=7,mem=375," + tail.format("node=3,billing=7")
    both = "cpu=37,mem=1125," + tail.format("node=11,billing=37")
    zeros = "cpu=0,mem=0," + tail.format("node=0,billing=0")
    # lineage order: root, a, a/u1, a/u2, b, b/u3
    assert cells == [both, both, u1, u2, zeros, zeros]


def test_a_running_record_no_job_stands_for_blanks_the_chain_to_root() -> None:
    """A usage history record still running: fs knows neither its limit nor its TRES."""
    running: dict[tuple[str, str], list[RunningTres | None]] = {("a", "u1"): [None]}
    cells = tres_run_cells(_tree(), running, 180, 60)
    assert cells[:3] == [None, None, None]
    assert cells[3] is not None and cells[3].startswith("cpu=0,")  # u2
    assert cells[4:] == [cells[3], cells[3]]  # b, b/u3
