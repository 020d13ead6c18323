"""A point's metrics from a simulation's rows and starts (``core/operations/sweep``)."""

from __future__ import annotations

import pytest

from fairshare_cli.core.operations.sim_row import JobStart, SimRow
from fairshare_cli.core.operations.sweep import Measured, entity_series, measure, rank_points


def _group_of(submitter: str) -> str:
    return submitter.split(".", 1)[0]


GROUPS = Measured(
    "group",
    lambda name: name,
    _group_of,
    lambda rows: {n: sum(r.quota or 0.0 for r in rows if r.name == n) for n in ("A", "B")},
)

ROWS = [
    # cycle 0: A holds 20 of quota 30, B 20 of quota 10; cycle 600: A 30, B 10
    SimRow(0.0, "submitter", "A.alice@x", 20.0, pending=5),
    SimRow(0.0, "group", "A", 20.0, quota=30.0),
    SimRow(0.0, "group", "B", 20.0, quota=10.0),
    SimRow(0.0, "pool", "pool", 40.0, pending=5, capacity=50.0),
    SimRow(600.0, "submitter", "A.alice@x", 30.0, pending=0),
    SimRow(600.0, "group", "A", 30.0, quota=30.0),
    SimRow(600.0, "group", "B", 10.0, quota=10.0),
    SimRow(600.0, "pool", "pool", 40.0, pending=0, capacity=50.0),
]
STARTS = [
    JobStart("1.0", "A.alice@x", 0.0, 0.0),
    JobStart("1.1", "A.alice@x", 0.0, 600.0),
    JobStart("1.1", "A.alice@x", 0.0, 1200.0),  # started again after a preemption
    JobStart("2.0", "B.bob@x", 300.0, 1500.0),
]


def test_groups_measured_by_hand() -> None:
    found = measure(ROWS, STARTS, 3, GROUPS)
    # achieved: A (20 + 30) / 80 = 5/8, B 30/80 = 3/8; entitled: A 60/80 = 3/4, B 1/4
    a, b = found.groups
    assert (a.name, a.share, a.entitled) == ("A", 5 / 8, 3 / 4)
    assert (b.name, b.share, b.entitled) == ("B", 3 / 8, 1 / 4)
    # share error: (|5/8 - 3/4| + |3/8 - 1/4|) / 2 = 1/8
    assert found.share_error == 1 / 8
    # Jain of x = (5/8)/(3/4) = 5/6 and (3/8)/(1/4) = 3/2: (5/6 + 3/2)^2 / (2 (25/36 + 9/4))
    assert found.jain == pytest.approx((5 / 6 + 3 / 2) ** 2 / (2 * (25 / 36 + 9 / 4)), rel=1e-15)
    # waits at the first start: A 0 and 600, B 1200 (the restart of 1.1 does not count)
    assert (a.wait_mean, a.wait_p95, a.jobs_started) == (300.0, 600.0, 2)
    assert (b.wait_mean, b.wait_p95, b.jobs_started) == (1200.0, 1200.0, 1)
    assert found.wait_mean == 600.0
    assert found.wait_p95 == 1200.0  # the 3rd smallest of 3 (⌈0.95 * 3⌉ = 3)
    # utilisation: (40 + 40) / (50 + 50)
    assert found.utilization == 0.8
    assert found.jobs_finished == 3


def test_an_entity_that_never_wanted_slots_is_not_measured() -> None:
    rows = [*ROWS, SimRow(0.0, "group", "C", 0.0, quota=50.0)]
    measured = Measured("group", lambda n: n, _group_of, GROUPS.weights)
    assert [g.name for g in measure(rows, STARTS, 0, measured).groups] == ["A", "B"]


def test_series_holds_each_entitys_slots_per_cycle() -> None:
    assert entity_series(ROWS, GROUPS) == {
        "time": [0.0, 600.0],
        "slots": {"A": [20.0, 30.0], "B": [20.0, 10.0]},
    }


def test_points_rank_best_first_missing_last() -> None:
    results = [
        {"index": 0, "share_error": 0.2, "jain": 0.5},
        {"index": 1, "share_error": 0.1, "jain": None},
        {"index": 2, "share_error": 0.1, "jain": 0.9},
    ]
    assert [r["index"] for r in rank_points(results, "share_error")] == [1, 2, 0]
    assert [r["index"] for r in rank_points(results, "jain")] == [2, 0, 1]
