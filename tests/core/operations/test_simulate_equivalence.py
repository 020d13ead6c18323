"""The fast simulation gives the reference loop's rows on small random workloads.

:func:`simulate_reference` re-reads every job each cycle, expands batches and recharges all
the Slurm work done so far; :func:`simulate` keeps batches, a heap of ends and counts kept
as they change, skips cycles that cannot match, and charges Slurm usage once per cycle. The
slot counts must be equal; priorities and fair-share factors equal to rounding (the Slurm
series folds the passes of each cycle in, the reference all passes since the start). Equal
work charged at the same passes gets bit-identical usage in both, so Fair Tree ties stay
ties (``tests/cli/test_slurm_equal_work_ties.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import NegotiatorState
from fairshare_cli.core.jobs import parse_job
from fairshare_cli.core.operations.simulate import SimWindow, simulate
from fairshare_cli.core.operations.slurm_series import slurm_series_of
from fairshare_cli.io.config import build_config
from tests.core.operations.simulate_reference import (
    simulate_reference,
    slurm_tree_of,
)

START = 1_795_262_400.0


def _config(
    slots: int,
    profile: str,
    preempt: bool,
    slurm: bool,
    groups: bool = False,
    partitionable: bool = False,
    ranked: bool = False,
) -> Any:
    machine: dict[str, Any] = {"name": "m", "count": 1, "slots": slots}
    if ranked:  # the machine prefers JobPrio 1: such a job preempts a 0, its owner's too
        machine["rank"] = "TARGET.JobPrio"
    if partitionable:  # 4-CPU partitionable slots that jobs of 1-3 CPUs carve
        machine |= {"partitionable": True, "attributes": {"Cpus": 4, "Memory": 8192}}
    raw: dict[str, Any] = {
        "pool": {"uid_domain": "d", "defaults": profile},
        "accountant": {"priority_halflife": 3600},
        "machines": [machine],
    }
    if preempt:
        raw["negotiator"] = {"preemption_requirements": "true"}
    if groups:
        raw["groups"] = {"group_x": {"quota": 2, "accept_surplus": True}}
    if slurm:
        raw["priority"] = {"calc_period": 300, "decay_halflife": 7200}
        raw["accounts"] = {"hep": {"shares": 1, "users": {"a": 1, "b": 2, "c": 1}}}
    return build_config(raw, "test.toml")


def _near(got: float | None, want: float | None) -> bool:
    if got is None or want is None:
        return got is want
    return got == pytest.approx(want, rel=1e-9, abs=1e-12)


job = st.fixed_dictionaries(
    {
        "owner": st.sampled_from(["a", "b", "c"]),
        "count": st.integers(1, 5),
        "run_time": st.sampled_from([300, 900, 1200, 3600, None]),
        "submit_time": st.sampled_from([0, 0, 600, 1500, 3000]),
        "job_prio": st.integers(0, 1),
        "request_cpus": st.integers(1, 3),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    jobs=st.lists(job, min_size=1, max_size=6),
    slots=st.integers(1, 5),
    profile=st.sampled_from(["current", "legacy"]),
    preempt=st.booleans(),
    slurm=st.booleans(),
    cycle=st.sampled_from([300, 600, 700]),
    groups=st.booleans(),
    partitionable=st.booleans(),
)
def test_fast_simulation_equals_the_reference(
    jobs: list[dict[str, Any]],
    slots: int,
    profile: str,
    preempt: bool,
    slurm: bool,
    cycle: int,
    groups: bool,
    partitionable: bool,
) -> None:
    config = _config(slots, profile, preempt, slurm, groups, partitionable)
    objs = [
        {**j, "id": f"{k + 1}.0", "submit_time": START + j["submit_time"], "account": "hep"}
        | ({"accounting_group": f"group_x.{j['owner']}"} if groups and j["owner"] != "c" else {})
        for k, j in enumerate(jobs)
    ]
    singles = [one for k, o in enumerate(objs) for one in parse_job(o, f"job {k}")]
    batches = [JobBatch(parse_job({**o, "count": 1}, "b")[0], o["count"]) for o in objs]
    window = SimWindow(START, 3 * 3600, cycle)
    empty = acct.AccountantState(records={})
    ref = simulate_reference(
        config,
        empty,
        NegotiatorState(),
        [],
        singles,
        window,
        slurm_tree=slurm_tree_of(config, None),
    )
    fast = simulate(
        config, empty, NegotiatorState(), [], batches, window, slurm=slurm_series_of(config, None)
    )
    assert [(r.time, r.kind, r.name, r.slots, r.pending, r.capacity) for r in fast.rows] == [
        (r.time, r.kind, r.name, r.slots, r.pending, r.capacity) for r in ref.rows
    ]
    for got, want in zip(fast.rows, ref.rows, strict=True):
        assert _near(got.effective_priority, want.effective_priority)
        assert _near(got.fairshare, want.fairshare)
    assert {c.job_id for c in fast.negotiator.claims.values()} == {
        c.job_id for c in ref.negotiator.claims.values()
    }


@pytest.mark.parametrize("profile", ["current", "legacy"])
def test_a_job_the_machine_prefers_preempts_its_owners_own_claim(profile: str) -> None:
    """One slot that ranks by ``JobPrio``: a's 1.0 (JobPrio 0) runs from the start; a's
    2.0 (JobPrio 1), queued at 600 s, preempts it at the 600 s cycle (rank 1 above
    CurrentRank 0: machine-rank preemption spares no submitter's own claim), so a holds
    the one slot with 1.0 pending, and 2.0 holds the claim. Both loops agree."""
    config = _config(1, profile, False, False, ranked=True)
    objs = [
        {"id": "1.0", "owner": "a", "job_prio": 0, "submit_time": START, "run_time": 3600},
        {"id": "2.0", "owner": "a", "job_prio": 1, "submit_time": START + 600, "run_time": 3600},
    ]
    singles = [one for k, o in enumerate(objs) for one in parse_job(o, f"job {k}")]
    window = SimWindow(START, 1200, 300)
    empty = acct.AccountantState(records={})
    ref = simulate_reference(
        config,
        empty,
        NegotiatorState(),
        [],
        singles,
        window,
        slurm_tree=slurm_tree_of(config, None),
    )
    batches = [JobBatch(job, 1) for job in singles]
    fast = simulate(config, empty, NegotiatorState(), [], batches, window, slurm=None)
    for result in (fast, ref):
        rows = [(r.time - START, r.slots, r.pending) for r in result.rows if r.kind == "submitter"]
        assert rows == [(0, 1, 0), (300, 1, 0), (600, 1, 1), (900, 1, 1), (1200, 1, 1)]
        assert [(c.submitter, c.job_id) for c in result.negotiator.claims.values()] == [
            ("a@d", "2.0")
        ]
    for got, want in zip(fast.rows, ref.rows, strict=True):
        assert _near(got.effective_priority, want.effective_priority)


def test_a_simulation_hands_over_simulates_rows_a_cycle_at_a_time() -> None:
    """Iterating a :class:`Simulation` gives one list of rows per cycle (the cycle's time
    on each), together :func:`simulate`'s rows; its result is simulate's final state."""
    from dataclasses import replace

    from fairshare_cli.core.operations.simulate import Simulation

    config = _config(3, "current", False, True)
    objs = [
        {"id": "1.0", "owner": "a", "count": 4, "run_time": 1200, "account": "hep"},
        {"id": "2.0", "owner": "b", "count": 2, "run_time": 3000, "account": "hep"},
    ]
    batches = [JobBatch(parse_job({**o, "count": 1}, "b")[0], o["count"]) for o in objs]
    window = SimWindow(START, 3600, 600)
    empty = acct.AccountantState(records={})
    slurm = slurm_series_of(config, None)
    whole = simulate(config, empty, NegotiatorState(), [], batches, window, slurm=slurm)
    run = Simulation(
        config,
        (empty, NegotiatorState()),
        ([], batches),
        window,
        slurm=slurm_series_of(config, None),
    )
    cycles = list(run)
    assert [{r.time for r in c} for c in cycles] == [{START + 600 * k} for k in range(7)]
    assert [r for c in cycles for r in c] == list(whole.rows)
    assert run.result() == replace(whole, rows=())
    assert whole.finished == 4  # a's four jobs of 20 minutes end by 13:00 on 3 slots
    forgetful = Simulation(
        config,
        (empty, NegotiatorState()),
        ([], batches),
        window,
        slurm=slurm_series_of(config, None),
        starts=False,
    )
    assert [r for c in forgetful for r in c] == list(whole.rows)
    assert forgetful.result() == replace(whole, rows=(), starts=())
    assert len(whole.starts) == 6  # every job started: a's 4 and b's 2
