"""The formulas of ``fs sweep``'s metrics (docs/sweep.md), on numbers worked by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.sweep import metrics


def test_shares_are_fractions_of_the_total() -> None:
    assert metrics.shares({"a": 3.0, "b": 1.0}) == {"a": 0.75, "b": 0.25}
    assert metrics.shares({"a": 0.0, "b": 0.0}) == {"a": 0.0, "b": 0.0}


def test_share_error_is_the_mean_absolute_difference() -> None:
    # |0.75 - 0.5| and |0.25 - 0.5|, over two entities: 0.25
    assert metrics.share_error({"a": 0.75, "b": 0.25}, {"a": 0.5, "b": 0.5}) == 0.25
    # an entity in one map only counts 0 in the other: (|0.6-0.5| + |0.4-0.5| + |0-0|) / 3
    assert metrics.share_error({"a": 0.6, "b": 0.4}, {"a": 0.5, "b": 0.5, "c": 0.0}) == (
        pytest.approx(0.2 / 3, rel=1e-15)
    )
    assert metrics.share_error({}, {}) == 0.0


@pytest.mark.parametrize(
    ("achieved", "entitled", "index"),
    [
        # x = 0.75/0.5 = 1.5 and 0.25/0.5 = 0.5: (1.5 + 0.5)^2 / (2 * (2.25 + 0.25)) = 4/5
        pytest.param({"a": 0.75, "b": 0.25}, {"a": 0.5, "b": 0.5}, 0.8, id="three to one"),
        pytest.param({"a": 0.3, "b": 0.7}, {"a": 0.3, "b": 0.7}, 1.0, id="as entitled"),
        # one of four takes everything: x = (4, 0, 0, 0): 16 / (4 * 16) = 1/n
        pytest.param(
            {"a": 1.0}, {"a": 0.25, "b": 0.25, "c": 0.25, "d": 0.25}, 0.25, id="one has all"
        ),
    ],
)
def test_jain_index_by_hand(
    achieved: dict[str, float], entitled: dict[str, float], index: float
) -> None:
    assert metrics.jain_index(achieved, entitled) == pytest.approx(index, rel=1e-15)


def test_jain_index_needs_something_to_measure() -> None:
    assert metrics.jain_index({}, {}) is None
    assert metrics.jain_index({"a": 0.0}, {"a": 1.0}) is None


@pytest.mark.parametrize(
    ("values", "p95"),
    [
        pytest.param([float(v) for v in range(1, 21)], 19.0, id="20 values: the 19th"),
        pytest.param([float(v) for v in range(10, 0, -1)], 10.0, id="10 values: the 10th"),
        pytest.param([5.0], 5.0, id="one value"),
        pytest.param([], None, id="none"),
    ],
)
def test_percentile_is_the_nearest_rank(values: list[float], p95: float | None) -> None:
    assert metrics.percentile(values, 0.95) == p95


def test_mean_and_utilization() -> None:
    assert metrics.mean([600.0, 1200.0, 0.0]) == 600.0
    assert metrics.mean([]) is None
    # (2 + 4) slots in use of (10 + 10): 0.3
    assert metrics.utilization([2.0, 4.0], [10.0, 10.0]) == pytest.approx(0.3, rel=1e-15)
    assert metrics.utilization([], []) is None


_weights = st.dictionaries(
    st.sampled_from("abcdefgh"), st.floats(0.0, 1e6, allow_nan=False), min_size=1
)


@given(_weights, _weights)
def test_shares_sum_to_one_and_the_indices_stay_in_range(
    held: dict[str, float], weights: dict[str, float]
) -> None:
    names = sorted(set(held) | set(weights))
    achieved = metrics.shares({n: held.get(n, 0.0) for n in names})
    entitled = metrics.shares({n: weights.get(n, 0.0) for n in names})
    for found in (achieved, entitled):
        total = math.fsum(found.values())
        assert total == pytest.approx(1.0) or total == 0.0
    n = len(names)
    assert 0.0 <= metrics.share_error(achieved, entitled) <= 2.0 / n + 1e-12
    index = metrics.jain_index(achieved, entitled)
    if index is not None:
        counted = sum(1 for e in entitled.values() if e > 0)
        assert 1.0 / counted - 1e-12 <= index <= 1.0 + 1e-12


@given(st.lists(st.floats(0, 1e7, allow_nan=False), min_size=1), st.floats(0.01, 1.0))
def test_percentile_is_a_value_with_that_fraction_at_or_below(
    values: list[float], fraction: float
) -> None:
    found = metrics.percentile(values, fraction)
    assert found in values
    assert sum(1 for v in values if v <= found) >= fraction * len(values) - 1e-9
    assert sum(1 for v in values if v < found) < fraction * len(values) + 1e-9
