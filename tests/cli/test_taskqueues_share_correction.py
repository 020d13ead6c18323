"""``fs taskqueues`` with share correction: two groups, two slices, numbers derived by hand.

Every expected number below is derived by hand from DIRAC's code, not from ``fs``:
``BaseHistoryCorrector.applyCorrection`` (each entity's share over the sum of the shares
passed in; per slice, T = the usage of those entities alone, a slice with T = 0 skipped;
a present entity gets ``clamp(s / (h / T), 1/MaxCorrection, MaxCorrection) × weight`` with
the weight over the sum of all weights, an absent one the slice's MaxCorrection unweighted;
the sum clamped to ``[1/MaxGlobalCorrection, MaxGlobalCorrection]``),
``TaskQueueDB.__updateGlobalShares`` (the groups in queues that the registry lists),
``recalculateTQSharesForEntity`` (the corrected group share split evenly over the owners,
then the group's in-group instance; a JobSharing group is one entity) and
``calculate_priority`` with ``Priority=%.4f`` into a FLOAT read back with six digits. The
history is the average number of running jobs over ``[now − TimeSpan, now]``
(``history_report = "average"``, the documented reading; the accounting report DIRAC's
code reads is derived in the tests that leave that key out).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import HistoryTaskQueues

NOW = "2026-11-21T12:00:00Z"
TWO_GROUPS = """
[dirac.groups.g1]
job_share = 1000
[dirac.groups.g2]
job_share = 1000
[dirac.correction]
enabled = true
history_report = "average"
[[dirac.correction.instances]]
name = "Groups"
max_global_correction = 3
slices = [ { time_span = 7200, weight = 3, max_correction = 2 },
           { time_span = 3600, weight = 1, max_correction = 4 } ]
"""
ONE_OWNER_EACH = [
    {"id": "1.0", "owner": "u1", "dirac_group": "g1", "user_priority": 1, "count": 2},
    {"id": "2.0", "owner": "u2", "dirac_group": "g2", "user_priority": 1, "count": 2},
]


@pytest.fixture
def corrected(
    history_taskqueues: Callable[..., HistoryTaskQueues],
) -> Callable[..., tuple[list[dict[str, Any]], str]]:
    """``fs import history H.csv --rebuild`` then ``fs taskqueues --json`` and the table."""

    def go(
        config: str, history: str, jobs: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], str]:
        rows, _, table = history_taskqueues(config, history, jobs, table=True)
        return rows, table

    return go


def test_both_groups_in_both_slices(corrected: Callable[..., Any]) -> None:
    """g1 runs 3 jobs for the last two hours, g2 1 job for the last hour; shares 0.5 each.

    Slice 1 (7200 s, weight 3/4, max 2): g1 3, g2 0.5, T = 3.5.
      g1: 0.5 / (3/3.5) = 0.58333 (inside [0.5, 2]) × 0.75 = 0.4375
      g2: 0.5 / (0.5/3.5) = 3.5 -> 2, × 0.75 = 1.5
    Slice 2 (3600 s, weight 1/4, max 4): g1 3, g2 1, T = 4.
      g1: 0.5 / 0.75 = 0.66667 × 0.25 = 0.166667;  g2: 0.5 / 0.25 = 2 × 0.25 = 0.5
    Sums: g1 0.604167, g2 2.0 (inside [1/3, 3]): shares 604.1667 and 2000; one owner and one
    queue each, so those are the priorities: '%.4f' 604.1667, read back as 604.167.
    """
    history = "u1,g1,2026-11-21T10:00:00Z,,3\nu2,g2,2026-11-21T11:00:00Z,,1\n"
    rows, table = corrected(TWO_GROUPS, history, ONE_OWNER_EACH)
    assert [(r["owner"], r["priority"]) for r in rows] == [("u1", 604.167), ("u2", 2000.0)]
    assert rows[0]["correction"] == pytest.approx(0.4375 + 1 / 6, rel=1e-15)
    assert rows[1]["correction"] == 2.0
    # First%: two queues, 1 − P2 / (2·P1) with P1 = 2000, P2 = float32(604.1667)
    assert rows[1]["p_first"] == pytest.approx(1 - 604.16668701171875 / 4000, rel=1e-12)
    lines = [line.rstrip() for line in table.splitlines()]
    assert lines[1].endswith("2   604.1670  23.200      0.6042  15.104")
    assert lines[2].endswith("2  2000.0000  76.800      2.0000  84.896")


def test_two_corrector_types_apply_in_turn(corrected: Callable[..., Any]) -> None:
    """A ``MonitoringHistory`` instance between groups beside the ``WMSHistory`` one: DIRAC's
    ``SharesCorrector.correctShares`` runs each started type in turn, the second on the
    shares the first corrected. Same history as above; the first gives g1 604.1667 and g2
    2000 (factors 0.604167 and 2). The second (one slice of 3600 s, weight 1, max 3, global
    max 5) normalises those: g1 604.1667 / 2604.1667 = 0.232, g2 0.768; usage g1 3/4, g2
    1/4: g1 0.232 / 0.75 = 0.309 -> 1/3, g2 0.768 / 0.25 = 3.07 -> 3. g1 604.1667 / 3 =
    201.3889 (read back 201.389), g2 2000 × 3 = 6000; factors 0.604167 / 3 and 6. DIRAC
    9.1.22's TaskQueueDB on MariaDB 10.11 (both corrector types fed these averages) stored
    201.389 and 6000. fs applied the first instance only (604.167 and 2000)."""
    config = TWO_GROUPS + (
        "[[dirac.correction.instances]]\n"
        'name = "Again"\ncorrector = "MonitoringHistory"\nslices = [ { time_span = 3600 } ]\n'
    )
    history = "u1,g1,2026-11-21T10:00:00Z,,3\nu2,g2,2026-11-21T11:00:00Z,,1\n"
    rows, _ = corrected(config, history, ONE_OWNER_EACH)
    assert [(r["owner"], r["priority"]) for r in rows] == [("u1", 201.389), ("u2", 6000.0)]
    assert rows[0]["correction"] == pytest.approx((0.4375 + 1 / 6) / 3, rel=1e-15)
    assert rows[1]["correction"] == 6.0


def test_a_group_absent_from_the_last_hour(corrected: Callable[..., Any]) -> None:
    """g1 ran 2 jobs from 10:00 to 11:00, g2 runs 2 from 11:00 on.

    Slice 1 (7200 s): g1 1, g2 1, T = 2: both 0.5 / 0.5 = 1 × 0.75 = 0.75.
    Slice 2 (3600 s): g1 absent: MaxCorrection 4, not weighted; g2 2 of T = 2:
      0.5 / 1 = 0.5 (inside [0.25, 4]) × 0.25 = 0.125.
    Sums: g1 4.75 -> MaxGlobalCorrection 3: 3000; g2 0.875: 875.
    """
    history = "u1,g1,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z,2\nu2,g2,2026-11-21T11:00:00Z,,2\n"
    rows, _ = corrected(TWO_GROUPS, history, ONE_OWNER_EACH)
    assert [(r["priority"], r["correction"]) for r in rows] == [(3000.0, 3.0), (875.0, 0.875)]


IN_GROUP = """
[dirac.groups.g1]
job_share = 1000
[dirac.groups.g2]
job_share = 3000
job_sharing = true
[dirac.correction]
enabled = true
in_group_history = "user"
history_report = "average"
[[dirac.correction.instances]]
name = "Groups"
slices = [ { time_span = 7200, weight = 1, max_correction = 3 },
           { time_span = 3600, weight = 1, max_correction = 3 } ]
[[dirac.correction.instances]]
name = "InG1"
group = "g1"
max_global_correction = 2
slices = [ { time_span = 7200, weight = 1, max_correction = 2 },
           { time_span = 3600, weight = 3, max_correction = 10 } ]
"""
IN_GROUP_HISTORY = (
    "u1,g1,2026-11-21T10:00:00Z,,4\n"
    "u2,g1,2026-11-21T11:30:00Z,,1\n"
    "u3,g2,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z,2\n"
    "u9,g3,2026-11-21T10:00:00Z,,10\n"
)
FOUR_OWNERS = [
    {"id": f"{n}.0", "owner": f"u{n}", "dirac_group": group, "user_priority": 1, "count": 2}
    for n, group in ((1, "g1"), (2, "g1"), (3, "g2"), (4, "g2"))
]


def test_groups_then_owners_in_a_group(corrected: Callable[..., Any]) -> None:
    """g1 (1000, owners u1, u2) and the JobSharing g2 (3000, u3, u4); g3, which has no
    queue, ran 10 jobs: it is no entity, so it is in no slice's T. Shares 0.25 and 0.75.

    Between groups, max_global_correction 5 (DIRAC's default):
      slice 1 (7200 s, ½, max 3): g1 4 + 1·1800/7200 = 4.25, g2 2·3600/7200 = 1, T = 5.25;
        g1 0.25 / (4.25/5.25) = 0.3088 -> 1/3, × ½ = 1/6; g2 3.9375 -> 3, × ½ = 1.5
      slice 2 (3600 s, ½, max 3): g1 4.5, g2 absent (ended at 11:00), T = 4.5;
        g1 0.25 -> 1/3, × ½ = 1/6; g2 3 (unweighted)
      g1 1/3: 333.333; g2 4.5: 13500, one entity: its two queues 6750 each.
    In g1 (the instance's max_global_correction 2), 333.333 / 2 = 166.667 each, 0.5 each:
      slice 1 (7200 s, ¼, max 2): u1 4, u2 0.25, T = 4.25;
        u1 0.5 / (4/4.25) = 0.53125 × ¼ = 0.1328125; u2 8.5 -> 2, × ¼ = 0.5
      slice 2 (3600 s, ¾, max 10): u1 4, u2 0.5, T = 4.5;
        u1 0.5625 × ¾ = 0.421875; u2 4.5 × ¾ = 3.375
      u1 0.5546875: 166.667 × 0.5546875 = 92.44792 ('%.4f' 92.4479);
      u2 3.875 -> 2: 333.3333 (read back 333.333).
    The correction shown is the group's factor times the owner's.
    """
    rows, _ = corrected(IN_GROUP, IN_GROUP_HISTORY, FOUR_OWNERS)
    assert [(r["owner"], r["priority"]) for r in rows] == [
        ("u1", 92.4479),
        ("u2", 333.333),
        ("u3", 6750.0),
        ("u4", 6750.0),
    ]
    corrections = [r["correction"] for r in rows]
    assert corrections == pytest.approx([0.5546875 / 3, 2 / 3, 4.5, 4.5], rel=1e-15)


def test_in_group_history_by_dn_leaves_the_owners_even(corrected: Callable[..., Any]) -> None:
    """DIRAC's own code (``in_group_history = "dn"``): the in-group history is keyed by DN,
    no owner is found in any slice, every slice has T = 0 and is skipped: u1 and u2 keep
    333.333 / 2 = 166.6667 each (read back 166.667), corrected between groups only."""
    config = IN_GROUP.replace('in_group_history = "user"\n', "")
    rows, _ = corrected(config, IN_GROUP_HISTORY, FOUR_OWNERS)
    assert [r["priority"] for r in rows[:2]] == [166.667, 166.667]
    assert [r["correction"] for r in rows[:2]] == pytest.approx([1 / 3, 1 / 3], rel=1e-15)


def test_history_of_other_groups_only_corrects_nothing(corrected: Callable[..., Any]) -> None:
    """Only g3, which has no queue, ran: the history is not empty (the instance stays on),
    but in every slice T over g1 and g2 is 0, so every slice is skipped and both keep 1000."""
    rows, _ = corrected(TWO_GROUPS, "u9,g3,2026-11-21T10:00:00Z,,10\n", ONE_OWNER_EACH)
    assert [(r["priority"], r["correction"]) for r in rows] == [(1000.0, 1.0), (1000.0, 1.0)]


def test_no_running_history_is_said_under_the_table(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """``fs taskqueues`` with the correction on and a state that holds no running history
    (a config just made with ``fs import dirac-cfg``) printed a Correction of 1.0000 on every
    queue without a word: each slice without data is skipped (``applyCorrection``), so both
    groups keep 1000. A note under the table says why; json is left as it is."""
    cfg = write_config(TWO_GROUPS)
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps(ONE_OWNER_EACH), encoding="utf-8")
    state = tmp_path / "s.json"
    line = ["taskqueues", "--config", str(cfg), "--state", str(state), "--now", NOW,
            "--jobs-file", str(jobs)]  # fmt: skip
    table = run(*line, env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.stderr
    assert [r.split()[-4:] for r in table.stdout.splitlines()[1:]] == [
        ["1000.0000", "50.000", "1.0000", "50.000"], ["1000.0000", "50.000", "1.0000", "50.000"]
    ]  # fmt: skip
    assert table.stderr == (
        f"fs: note: share correction is on, but state file {state} holds no running history, "
        "so no correction applies (as in DIRAC with no accounting data); 'fs import history "
        "FILE' or committed 'fs negotiate' cycles record it\n"
    )
    res = run(*line, "--json")
    assert res.exit_code == 0 and res.stderr == "", res.stderr


def test_whatif_turning_the_correction_on_without_history_says_why_nothing_moves(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """``fs whatif --set dirac.correction.enabled=true taskqueues`` on a state that holds no
    running history printed "no differences" alone: each side's corrections are 1, as fs
    taskqueues says under its table, and whatif, which reads the view's JSON, dropped that
    note. It is a ``Note:`` under the comparison, once (both sides find it), and in
    ``--json``'s notes."""
    cfg = write_config(TWO_GROUPS.replace("enabled = true", "enabled = false"))
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps(ONE_OWNER_EACH), encoding="utf-8")
    state = tmp_path / "s.json"
    line = ["whatif", "--set", "dirac.correction.enabled=true", "taskqueues", "--config",
            str(cfg), "--state", str(state), "--now", NOW, "--jobs-file", str(jobs)]  # fmt: skip
    note = (
        f"share correction is on, but state file {state} holds no running history, so no "
        "correction applies (as in DIRAC with no accounting data); 'fs import history FILE' "
        "or committed 'fs negotiate' cycles record it"
    )
    table = run(*line, env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.stderr
    assert table.stdout.splitlines() == [
        "fs taskqueues with dirac.correction.enabled=true: before -> after: no differences",
        f"Note: {note}",
    ]
    assert table.stderr == ""
    doc = run(*line, "--json")
    assert doc.exit_code == 0, doc.stderr
    assert json.loads(doc.stdout)["notes"] == [note]


ZERO_SHARES = """
[dirac.groups.g1]
job_share = 0
[dirac.groups.g2]
job_share = {g2}
[dirac.correction]
enabled = true
[[dirac.correction.instances]]
name = "Groups"
slices = [ {{}} ]
[[dirac.correction.instances]]
name = "InG1"
group = "g1"
slices = [ {{}} ]
"""


@pytest.mark.parametrize(
    ("g2", "stopped", "expected"),
    [
        pytest.param(500, "group 'g1'", [("a", 500.0), ("b", 500.0), ("c", 500.0)], id="in-g1"),
        pytest.param(0, "the groups", [("a", 1000.0), ("b", 500.0), ("c", 500.0)], id="global"),
    ],
)
def test_a_correction_dividing_by_zero_stops_the_agent(
    run: Callable[..., Any],
    write_config: Callable[..., Path],
    tmp_path: Path,
    g2: int,
    stopped: str,
    expected: list[tuple[str, float]],
) -> None:
    """``BaseHistoryCorrector.applyCorrection`` divides each share by their sum before it
    looks at the history, so shares summing to 0 raise ZeroDivisionError and the
    TaskQueuesAgent's ``recalculateTQSharesForAll`` stops there, each cycle; the queues it
    has not set keep what ``insertJob`` set (the default 1000 split over the owners queued
    so far: a's queue 1000, then b's 1000, then c's makes b and c 500 each). The groups in
    ``SELECT DISTINCT(OwnerGroup)`` order: g2 (owner a) before g1.

    g2 500: between groups {g1: 0, g2: 500} sums to 500; g2 is set to 500 (no history, so
    uncorrected); g1's owners {b: 0, c: 0}, corrected by InG1, sum to 0: the agent stops,
    b and c keep 500. g2 0: between groups {g1: 0, g2: 0} sums to 0: the agent sets nothing,
    a keeps 1000. DIRAC 9.1.22's TaskQueueDB on MariaDB 10.11 (the jobs inserted in order,
    then recalculateTQSharesForAll, which raised) held 500, 500, 500 and 1000, 500, 500.
    fs gave the shares uncorrected: 500, 0.001, 0.001 and 0.001 each."""
    jobs = [
        {"id": "1.0", "owner": "a", "dirac_group": "g2", "count": 2},
        {"id": "2.0", "owner": "b", "dirac_group": "g1"},
        {"id": "3.0", "owner": "c", "dirac_group": "g1"},
    ]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs), encoding="utf-8")
    result = run(
        "taskqueues", "--config", str(write_config(ZERO_SHARES.format(g2=g2))),
        "--state", str(tmp_path / "s.json"), "--now", NOW, "--jobs-file", str(path), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert [(r["owner"], r["priority"]) for r in json.loads(result.stdout)] == expected
    assert (
        f"fs: warning: dirac_group 'g1': DIRAC's share correction of {stopped} divides by "
        "zero (the shares it corrects sum to 0), so each TaskQueuesAgent cycle fails before "
        "it sets this group's priorities; its 2 queues keep what insertJob's recalculation "
        "set when a queue of the group was made"
    ) in result.stderr
    assert ("dirac_group 'g2'" in result.stderr) is (g2 == 0)


OWNER_IN_TWO_GROUPS = """
[dirac.groups.aaa]
job_share = 100
[dirac.groups.user]
job_share = 0
[dirac.groups.zzz]
job_share = 300
[dirac.correction]
enabled = true
history_report = "average"
[[dirac.correction.instances]]
name = "Groups"
slices = [ { time_span = 86400 } ]
[[dirac.correction.instances]]
name = "InUser"
group = "user"
slices = [ { time_span = 86400 } ]
"""


def test_the_agent_reaches_groups_in_the_order_of_the_owner_index(
    corrected: Callable[..., Any],
) -> None:
    """``SELECT DISTINCT(OwnerGroup)`` reads the ``TQOwner`` index (Owner, OwnerGroup,
    CPUTime): (a, zzz), (b, aaa), (b, user), (c, user), so the agent takes zzz, aaa, user,
    and fails only at user, after setting aaa.

    Between groups {zzz: 300, aaa: 100, user: 0}: 0.75, 0.25, 0. One slice (86400 s,
    weight 1, max 3; global max 5), zzz running 1 job and aaa 2 all day: T = 3.
      zzz 0.75 / (1/3) = 2.25: 300 × 2.25 = 675, a alone: 675.
      aaa 0.25 / (2/3) = 0.375: 100 × 0.375 = 37.5, b alone: 37.5.
      user (absent: 3) 0 × 3 = 0, split over b and c: {b: 0, c: 0}; InUser divides by 0,
      the agent stops. b's and c's user queues keep insertJob's: the default 1000 over b,
      then over b and c: 500 each.
    DIRAC 9.1.22's TaskQueueDB on MariaDB 10.11 held 675, 500, 37.5, 500. fs took the
    groups by owner, CPU time and id alone (zzz, user, aaa), so it stopped before aaa and
    showed aaa's queue at insertJob's 1000, with a warning for aaa too."""
    history = "x,aaa,2026-11-20T00:00:00Z,,2\ny,zzz,2026-11-20T00:00:00Z,,1\n"
    jobs = [
        {"id": "1.0", "owner": "a", "dirac_group": "zzz"},
        {"id": "2.0", "owner": "b", "dirac_group": "user"},
        {"id": "3.0", "owner": "b", "dirac_group": "aaa"},
        {"id": "4.0", "owner": "c", "dirac_group": "user"},
    ]
    rows, _ = corrected(OWNER_IN_TWO_GROUPS, history, jobs)
    assert [(r["owner"], r["group"], r["priority"]) for r in rows] == [
        ("a", "zzz", 675.0),
        ("b", "user", 500.0),
        ("b", "aaa", 37.5),
        ("c", "user", 500.0),
    ]
    assert [r["correction"] for r in rows] == [2.25, 1.0, 0.375, 1.0]


UNLISTED_GROUP = """
[dirac.groups.g1]
job_share = 1000
[dirac.correction]
enabled = true
in_group_history = "user"
[[dirac.correction.instances]]
name = "InGhost"
group = "ghost"
max_global_correction = 3
slices = [ { time_span = 86400, weight = 1, max_correction = 3 } ]
"""


def test_a_group_the_registry_does_not_list_keeps_its_in_group_corrector(
    corrected: Callable[..., Any],
) -> None:
    """``SharesCorrector`` keys an instance by its ``Group`` option alone (``gr:ghost``), and
    ``recalculateTQSharesForEntity`` calls ``correctShares(..., group="ghost")`` for a group
    ``/Registry/Groups`` does not list as for any other; only its share is the default.

    ghost: ``float(DEFAULT_GROUP_SHARE)`` = 1000 over u1 and u2: 500 each, 0.5 each.
    The slice (86400 s, weight 1, max 3), u1 running 3 jobs and u2 1 throughout: T = 4;
      u1 0.5 / (3/4) = 2/3 (inside [1/3, 3]); u2 0.5 / (1/4) = 2.
    Global clamp [1/3, 3] leaves both: u1 500 × 2/3 = 333.3333 ('%.4f', read back 333.333),
    u2 1000. fs refused the instance ("'ghost' is not in [dirac.groups]", exit 2), and
    ``fs import dirac-cfg`` left it out, so both kept 500.
    """
    history = "u1,ghost,2026-11-19T00:00:00Z,,3\nu2,ghost,2026-11-19T00:00:00Z,,1\n"
    jobs = [
        {"id": "1.0", "owner": "u1", "dirac_group": "ghost"},
        {"id": "2.0", "owner": "u2", "dirac_group": "ghost"},
    ]
    rows, _ = corrected(UNLISTED_GROUP, history, jobs)
    assert [(r["owner"], r["priority"]) for r in rows] == [("u1", 333.333), ("u2", 1000.0)]
    assert [r["correction"] for r in rows] == pytest.approx([2 / 3, 2.0], rel=1e-15)


def test_slice_clamp_then_weight_then_global_clamp(corrected: Callable[..., Any]) -> None:
    """The order ``applyCorrection`` takes: each slice's factor clamped to [1/Max, Max],
    then weighted, the sum clamped to [1/MaxGlobal, MaxGlobal], as the TaskQueuesAgent
    stores it. Shares g1 200, g2 1800 (0.1 and 0.9); g1 runs 9 jobs and g2 1 all along, so
    either report reads 0.9 and 0.1 in both slices (weights 1 and 1: 0.5 each, max 3).
    g1: 0.1 / 0.9 = 0.111 -> 1/3, × 0.5 = 1/6; two slices 1/3, below 1/2 (MaxGlobal 2):
    0.5, 200 × 0.5 = 100. g2: 0.9 / 0.1 = 9 -> 3, × 0.5 = 1.5; 3 -> 2: 3600. Weighting
    before the slice clamp would give g1 2/3 (133.333); no clamp at all 22.222."""
    config = """
[dirac.groups.g1]
job_share = 200
[dirac.groups.g2]
job_share = 1800
[dirac.correction]
enabled = true
[[dirac.correction.instances]]
name = "Groups"
max_global_correction = 2
slices = [ { time_span = 7200 }, { time_span = 86400 } ]
"""
    history = "u1,g1,2026-11-20T00:00:00Z,,9\nu2,g2,2026-11-20T00:00:00Z,,1\n"
    rows, table = corrected(config, history, ONE_OWNER_EACH)
    assert [(r["priority"], r["correction"]) for r in rows] == [(100.0, 0.5), (3600.0, 2.0)]
    # Share% 100 / 3700; First% 100 / (2 · 3600) = 1.389 and the rest
    lines = [line.rstrip() for line in table.splitlines()]
    assert lines[1].endswith("2   100.0000   2.703      0.5000   1.389")
    assert lines[2].endswith("2  3600.0000  97.297      2.0000  98.611")
