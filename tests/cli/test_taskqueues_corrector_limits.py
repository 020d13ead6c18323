"""``fs taskqueues`` with slice weights and maximum corrections below 1, as DIRAC takes them.

DIRAC reads ``Weight``, ``MaxCorrection`` and ``MaxGlobalCorrection`` as any integers
(``BaseHistoryCorrector._fillSlices``) and computes with them; fs refused a negative weight
and a maximum below 1. g1's owner ran 3 jobs for the last two hours, g2's 1 job for the
last hour (``history_report = "average"``); shares 1000 each (0.5 normalised). Raw slice
factors, derived by hand: the 7200-s slice g1 0.5 / (3/3.5) = 7/12, g2 0.5 / (0.5/3.5) =
3.5; the 3600-s slice g1 0.5 / 0.75 = 2/3, g2 0.5 / 0.25 = 2.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.cli.conftest import HistoryTaskQueues

CONFIG = """
[dirac.groups.g1]
job_share = 1000
[dirac.groups.g2]
job_share = 1000
[dirac.correction]
enabled = true
history_report = "average"
[[dirac.correction.instances]]
name = "Groups"
max_global_correction = {top}
slices = [ {{ time_span = 7200, weight = 3, max_correction = {first} }},
           {{ time_span = 3600, weight = {weight}, max_correction = 4 }} ]
"""
JOBS = [
    {"id": "1.0", "owner": "u1", "dirac_group": "g1", "user_priority": 1, "count": 2},
    {"id": "2.0", "owner": "u2", "dirac_group": "g2", "user_priority": 1, "count": 2},
]
HISTORY = "u1,g1,2026-11-21T10:00:00Z,,3\nu2,g2,2026-11-21T11:00:00Z,,1\n"
HEAD = (
    "TQId  Owner  Group  CPUTime  Sites  BannedSites  Platforms  JobTypes  Tags  Jobs"
    "   Priority  Share%  Correction  First%"
)


def lines(table: str) -> list[str]:
    return [line.rstrip() for line in table.splitlines()]


def test_a_negative_weight_is_taken_as_dirac_takes_it(
    history_taskqueues: Callable[..., HistoryTaskQueues],
) -> None:
    """Weights 3 and -1 over their sum 2: 1.5 and -0.5.
    g1: 7/12 (inside [1/2, 2]) × 1.5 = 0.875, plus 2/3 × -0.5 = -1/3: 0.541667 (inside
    [1/3, 3]), share 541.6667, stored '%.4f' and read back with six digits: 541.667.
    g2: 3.5 -> 2, × 1.5 = 3, plus 2 × -0.5 = -1: 2, share 2000.
    Share%: 541.667 / 2541.667 = 21.311 %. First% of two queues: g2 1 − P1/(2·P2) =
    1 − 541.667/4000 = 86.458 %, g1 541.667/4000 = 13.542 %.
    fs refused the config: "weight: expected a whole number of at least 0"."""
    rows, err, table = history_taskqueues(
        CONFIG.format(top=3, first=2, weight=-1), HISTORY, JOBS, table=True
    )
    assert [(r["owner"], r["priority"]) for r in rows] == [("u1", 541.667), ("u2", 2000.0)]
    assert rows[0]["correction"] == pytest.approx(0.875 - 1 / 3, rel=1e-15)
    assert lines(table) == [
        HEAD,
        "   1  u1     g1       86400  -      -            -          -         -        2"
        "   541.6670  21.311      0.5417  13.542",
        "   2  u2     g2       86400  -      -            -          -         -        2"
        "  2000.0000  78.689      2.0000  86.458",
    ]
    assert err == ""


def test_a_negative_global_maximum_floors_every_corrected_queue(
    history_taskqueues: Callable[..., HistoryTaskQueues],
) -> None:
    """MaxGlobalCorrection -2: max(min(sum, -2), 1 / -2) = -0.5 for every entity with a
    slice factor; shares 1000 × -0.5 = -500, so each queue sits at the floor 0.001
    (``calculate_priority``: max(share / T × a, 0.001)). fs refused the config."""
    rows, err, table = history_taskqueues(
        CONFIG.format(top=-2, first=2, weight=1), HISTORY, JOBS, table=True
    )
    assert [(r["priority"], r["correction"]) for r in rows] == [(0.001, -0.5), (0.001, -0.5)]
    assert lines(table)[1].endswith("  2    0.0010  50.000     -0.5000  50.000")
    assert err == ""


@pytest.mark.parametrize(
    ("top", "first", "why"),
    [
        pytest.param(3, 0, "1 over a slice's MaxCorrection 0", id="slice"),
        pytest.param(0, 2, "1 over its MaxGlobalCorrection 0", id="global"),
    ],
)
def test_a_max_correction_of_0_stops_the_agent_once_there_is_history(
    history_taskqueues: Callable[..., HistoryTaskQueues], top: int, first: int, why: str
) -> None:
    """``1.0 / maxSliceCorrection`` (the slice's groups ran) or ``1.0 /
    maxGlobalCorrectionFactor`` raises ZeroDivisionError in ``__updateGlobalShares``,
    before ``recalculateTQSharesForAll`` sets any queue, each cycle: the queues keep what
    ``insertJob`` set, the default 1000 over each group's one owner. fs refused the
    config: "max_correction: expected a whole number of at least 1"."""
    rows, err, _ = history_taskqueues(CONFIG.format(top=top, first=first, weight=1), HISTORY, JOBS)
    assert [(r["priority"], r["correction"]) for r in rows] == [(1000.0, 1.0), (1000.0, 1.0)]
    assert err == "".join(
        f"fs: warning: dirac_group '{g}': DIRAC's share correction of the groups divides by "
        f"zero ({why}), so each TaskQueuesAgent cycle fails before it sets this group's "
        "priorities; its 1 queue keeps what insertJob's recalculation set when a queue of "
        "the group was made (the default share 1000, uncorrected, over the jobs queued so "
        "far), as shown\n"
        for g in ("g1", "g2")
    )


def test_a_max_correction_of_0_without_history_corrects_nothing(
    history_taskqueues: Callable[..., HistoryTaskQueues],
) -> None:
    """No running history: ``applyCorrection`` returns before it divides by any maximum;
    the shares stand, 1000 each, and a note says the state has no history."""
    rows, err, _ = history_taskqueues(CONFIG.format(top=0, first=0, weight=1), "", JOBS)
    assert [(r["priority"], r["correction"]) for r in rows] == [(1000.0, 1.0), (1000.0, 1.0)]
    assert "divides by zero" not in err


STARTED = """
[dirac.groups.g1]
job_share = 1000
[dirac.groups.g2]
job_share = 1000
[dirac.correction]
enabled = true
history_report = "average"
in_group_history = "user"
[[dirac.correction.instances]]
name = "A"
slices = [ { time_span = 7200, weight = 1 }, { time_span = 3600, weight = -1 } ]
[[dirac.correction.instances]]
name = "B"
group = "g1"
slices = [ { time_span = 7200 } ]
[[dirac.correction.instances]]
name = "C"
corrector = "MonitoringHistory"
max_global_correction = 3
slices = [ { time_span = 7200, weight = 3, max_correction = 2 },
           { time_span = 3600, weight = 1, max_correction = 4 } ]
"""


def test_weights_summing_to_zero_leave_the_instance_and_its_types_later_ones_out(
    history_taskqueues: Callable[..., HistoryTaskQueues],
) -> None:
    """WMSHistory instance A's weights 1 and -1 sum to 0: ``_fillSlices`` divides by 0 in
    ``initialize``, the TaskQueuesAgent's first cycle fails, and the WMSHistory type, already
    registered, never starts A or B (after A) again; MonitoringHistory's C starts in the next
    cycle. So g1 and g2 are corrected by C alone: g1 7/12 × 3/4 + 2/3 × 1/4 = 0.604167,
    g2 2 × 3/4 + 2 × 1/4 = 2 (the raw factors of this module's docstring): shares 604.1667
    and 2000. g1's 604.1667 is split over u1 and u3, 302.0833 each, uncorrected (B never
    runs; it would give u1, present alone, 0.5 / 1 = 0.5, and u3, absent, 3: 151.04 and
    906.25): stored as 302.0833, read back as 302.083. fs refused the config ("the slice
    weights sum to zero")."""
    jobs = [*JOBS, {"id": "3.0", "owner": "u3", "dirac_group": "g1", "user_priority": 1}]
    rows, err, _ = history_taskqueues(STARTED, HISTORY, jobs)
    assert [(r["owner"], r["priority"]) for r in rows] == [
        ("u1", 302.083),
        ("u2", 2000.0),
        ("u3", 302.083),
    ]
    assert rows[0]["correction"] == pytest.approx(7 / 16 + 1 / 6, rel=1e-15)
    assert err == ""


@pytest.mark.parametrize("span", [0, -7200])
def test_a_time_span_of_0_or_less_never_corrects(
    history_taskqueues: Callable[..., HistoryTaskQueues], span: int
) -> None:
    """The instance's report asks for ``lastSeconds`` under 3600, which DIRAC's report
    services refuse: the instance has no history and corrects nothing (a MaxCorrection of 0
    is then never divided by either): 1000 each. fs refused the config ("expected a whole
    number of seconds above 0")."""
    config = CONFIG.format(top=3, first=0, weight=1).replace(
        "time_span = 7200", f"time_span = {span}"
    )
    rows, err, _ = history_taskqueues(config, HISTORY, JOBS)
    assert [(r["priority"], r["correction"]) for r in rows] == [(1000.0, 1.0), (1000.0, 1.0)]
    assert err == ""


IN_GROUP = """
[dirac.groups.user]
job_share = 1000
[dirac.groups.prod]
job_share = 3000
job_sharing = true
[dirac.correction]
enabled = true
in_group_history = "user"
history_report = "average"
[[dirac.correction.instances]]
name = "Users"
group = "user"
slices = [ { time_span = 7200, max_correction = 0 } ]
"""


def test_an_in_group_max_correction_of_0_stops_the_agent_at_that_group(
    history_taskqueues: Callable[..., HistoryTaskQueues],
) -> None:
    """``SELECT DISTINCT(OwnerGroup)`` by the ``TQOwner`` index: prod (owner p1) before user
    (u1, u2). prod, JobSharing, is set to 3000; user's 1000 split 500 each goes to the
    in-group instance, whose slice saw u1 and u2 run (T 3.5): ``1.0 / 0`` raises, and the
    cycle ends there. user's queues keep insertJob's: u1's queue 1000, then u2's makes the
    group's two owners 500 each."""
    jobs = [
        {"id": "1.0", "owner": "u1", "dirac_group": "user", "user_priority": 1},
        {"id": "2.0", "owner": "u2", "dirac_group": "user", "user_priority": 1},
        {"id": "3.0", "owner": "p1", "dirac_group": "prod", "user_priority": 1},
    ]
    history = "u1,user,2026-11-21T10:00:00Z,,3\nu2,user,2026-11-21T11:00:00Z,,1\n"
    rows, err, _ = history_taskqueues(IN_GROUP, history, jobs)
    assert [(r["owner"], r["priority"]) for r in rows] == [
        ("u1", 500.0),
        ("u2", 500.0),
        ("p1", 3000.0),
    ]
    assert err == (
        "fs: warning: dirac_group 'user': DIRAC's share correction of group 'user' divides "
        "by zero (1 over a slice's MaxCorrection 0), so each TaskQueuesAgent cycle fails "
        "before it sets this group's priorities; its 2 queues keep what insertJob's "
        "recalculation set when a queue of the group was made (the default share 1000, "
        "uncorrected, over the jobs queued so far), as shown\n"
    )
