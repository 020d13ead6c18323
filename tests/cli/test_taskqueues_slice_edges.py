"""``fs taskqueues`` with a slice of weight 0 and an instance with no slices, by hand.

``BaseHistoryCorrector._fillSlices`` divides each slice's ``Weight`` by the sum of all
weights, so a slice of weight 0 weighs 0 for an entity present in its history; but
``applyCorrection`` gives an entity absent from a slice (with usage T > 0 there) that
slice's ``MaxCorrection`` without multiplying it by the weight, so the weightless slice
still adds its whole maximum to an absent entity. With the documented formula
(``absent_entities = "weighted"``) it adds ``MaxCorrection × 0``. The history is the average
number of running jobs over ``[now − TimeSpan, now]`` (``history_report = "average"``).
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
{absent}
[[dirac.correction.instances]]
name = "Groups"
max_global_correction = 5
slices = [ {{ time_span = 7200, weight = 0, max_correction = 4 }},
           {{ time_span = 86400, weight = 1, max_correction = 2 }} ]
"""
# u1 (g1) runs 2 jobs from 10:00 on; u2 (g2) ran 1 job from 12:00 the day before to 10:00.
HISTORY = "u1,g1,2026-11-21T10:00:00Z,,2\nu2,g2,2026-11-20T12:00:00Z,2026-11-21T10:00:00Z,1\n"
JOBS = [
    {"id": "1.0", "owner": "u1", "dirac_group": "g1", "user_priority": 1, "count": 1},
    {"id": "2.0", "owner": "u2", "dirac_group": "g2", "user_priority": 1, "count": 1},
]


@pytest.mark.parametrize(
    ("absent", "g2_priority", "g2_factor", "g2_row"),
    [
        pytest.param(
            "",
            4590.91,
            4 + 13 / 22,
            "   2  u2     g2       86400  -      -            -          -         -        1"
            "  4590.9100  69.655      4.5909  78.218",
            id="code-max-correction",
        ),
        pytest.param(
            'absent_entities = "weighted"',
            590.909,
            13 / 22,
            "   2  u2     g2       86400  -      -            -          -         -        1"
            "   590.9090  22.807      0.5909  14.773",
            id="docs-weighted",
        ),
    ],
)
def test_a_weightless_slice_still_gives_an_absent_group_its_maximum(
    history_taskqueues: Callable[..., HistoryTaskQueues],
    absent: str,
    g2_priority: float,
    g2_factor: float,
    g2_row: str,
) -> None:
    """Shares 1000 each, normalised 0.5 each.

    Slice 1 (7200 s, weight 0/1, max 4): g1 2 running, g2 none (absent), T = 2.
      g1: clamp(0.5 / (2/2) = 0.5, 1/4, 4) × 0 = 0;  g2 absent: 4 (code), 4 × 0 = 0 (docs).
    Slice 2 (86400 s, weight 1/1, max 2): g1 2 · 7200/86400 = 1/6, g2 79200/86400 = 11/12,
      T = 13/12. g1: 0.5 / (2/13) = 3.25 -> 2;  g2: 0.5 / (11/13) = 13/22 = 0.590909.
    Sums, clamped to [1/5, 5]: g1 2 (priority 2000); g2 4 + 13/22 = 4.590909 (share
    4590.909091, '%.4f' 4590.9091, single precision 4590.9091796875, read back 4590.91), or
    with the documented rule 13/22 (590.909091 -> 590.9091 -> 590.909).
    """
    rows, _, table = history_taskqueues(CONFIG.format(absent=absent), HISTORY, JOBS, table=True)
    assert [(r["owner"], r["priority"]) for r in rows] == [("u1", 2000.0), ("u2", g2_priority)]
    assert rows[0]["correction"] == 2.0
    assert rows[1]["correction"] == pytest.approx(g2_factor, rel=1e-15)
    lines = [line.rstrip() for line in table.splitlines()]
    assert lines[2] == g2_row


NO_SLICES = """
[dirac.groups.ga]
job_share = 0
[dirac.groups.gz]
job_share = 500
[dirac.correction]
enabled = true
[[dirac.correction.instances]]
name = "InA"
group = "ga"
"""


def test_an_instance_without_slices_still_divides_by_the_shares(
    history_taskqueues: Callable[..., HistoryTaskQueues],
) -> None:
    """An in-group instance of ``ga`` (JobShare 0) with no time slices: DIRAC starts it,
    and ``applyCorrection`` normalises the owners' shares (0 / 0) before it finds no history,
    so every TaskQueuesAgent cycle fails at ``ga``, the first group in the ``TQOwner`` index
    (owner ``a``). Queues keep what ``insertJob``'s recalculation set (default share 1000,
    uncorrected): b's queue in gz 1000, then a's in ga 1000, then c's in gz splits gz's
    1000 over b and c, 500 each. Without the instance ``ga`` would sit at 0.001 and gz's
    two queues at 250. fs refused the config: "the slice weights sum to zero"."""
    jobs = [
        {"id": "1.0", "owner": "b", "dirac_group": "gz", "user_priority": 1, "count": 1},
        {"id": "2.0", "owner": "a", "dirac_group": "ga", "user_priority": 1, "count": 1},
        {"id": "3.0", "owner": "c", "dirac_group": "gz", "user_priority": 1, "count": 1},
    ]
    rows, err, table = history_taskqueues(NO_SLICES, "", jobs, table=True)
    assert [(r["owner"], r["group"], r["priority"]) for r in rows] == [
        ("b", "gz", 500.0),
        ("a", "ga", 1000.0),
        ("c", "gz", 500.0),
    ]
    assert (
        "fs: warning: dirac_group 'ga': DIRAC's share correction of group 'ga' divides by zero "
        "(the shares it corrects sum to 0), so each TaskQueuesAgent cycle fails before it "
        "sets this group's priorities; its 1 queue keeps what insertJob's recalculation set "
        "when a queue of the group was made (the default share 1000, uncorrected, over the "
        "jobs queued so far), as shown\n"
    ) in err
    assert table.splitlines()[2].rstrip().endswith("1  1000.0000  50.000      1.0000  58.333")
