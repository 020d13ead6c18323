"""``std::sort`` as GCC's libstdc++ runs it (``core/cpp_sort.py``)."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.cpp_sort import (
    THRESHOLD,
    _final_insertion_sort,
    _heap_sort,
    _introsort_loop,
    cpp_sort,
)


def _sorted_ids(keys: list[Any]) -> list[int]:
    items = list(enumerate(keys))
    cpp_sort(items, itemgetter(1))
    return [i for i, _ in items]


def _replayed_ids(keys: list[Any]) -> list[int]:
    """The step-by-step replay alone, whatever the keys (no shortcut for keys that all
    differ)."""
    items = list(range(len(keys)))
    less = lambda a, b: keys[a] < keys[b]  # noqa: E731
    _introsort_loop(items, 0, len(items), 2 * (len(items).bit_length() - 1), less)
    _final_insertion_sort(items, 0, len(items), less)
    return items


def test_up_to_sixteen_ties_stay_in_order() -> None:
    """``__introsort_loop`` leaves a range of 16 or fewer to ``__insertion_sort``, which
    moves an item only past items strictly greater: ties keep their order."""
    assert _sorted_ids([0] * THRESHOLD) == list(range(THRESHOLD))
    assert _sorted_ids([1, 0, 1, 0, 1, 0]) == [1, 3, 5, 0, 2, 4]


def test_seventeen_ties_are_moved_by_the_partition() -> None:
    """Traced by hand through ``bits/stl_algo.h``: n = 17 > 16, so one partition. The
    median of items 1, 8 and 16 (all equal: ``__move_median_to_first`` picks the middle
    one, 8) is swapped to the front (item 0 goes to place 8); ``__unguarded_partition``
    stops at every equal item, so it swaps places 1↔16, 2↔15, ..., 7↔10, 8↔9 and cuts at
    9. Both halves are at most 16 long; the final insertion sort moves nothing."""
    assert _sorted_ids([0] * 17) == [8, 16, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize(
    ("keys", "ids"),
    [
        # Printed by std::sort of (key, index) pairs by key, g++ 12.2 (libstdc++), -O2.
        pytest.param(
            [2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0],
            [10, 19, 16, 13, 7, 4, 1, 5, 8, 11, 14, 2, 17, 6, 9, 0, 12, 3, 15, 18],
            id="three-keys-twenty",
        ),
        pytest.param(
            [1] * 9 + [0] * 9,
            [9, 17, 16, 15, 14, 13, 12, 11, 10, 0, 8, 7, 6, 5, 4, 3, 2, 1],
            id="two-runs-eighteen",
        ),
    ],
)
def test_matches_libstdcxx(keys: list[int], ids: list[int]) -> None:
    assert _sorted_ids(keys) == ids


@given(st.lists(st.integers(0, 4), max_size=200))
def test_sorts(keys: list[int]) -> None:
    """Whatever the ties, the keys come out in order and every item once."""
    ids = _sorted_ids(keys)
    assert sorted(ids) == list(range(len(keys)))
    assert [keys[i] for i in ids] == sorted(keys)


def test_heap_sort_matches_libstdcxx() -> None:
    """Past the depth limit ``__introsort_loop`` calls ``__partial_sort(first, last,
    last)``; printed by ``std::partial_sort(begin, end, end)``, g++ 12.2, which runs the
    same ``__heap_select`` and ``__sort_heap``."""
    keys = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4]
    items = list(enumerate(keys))
    _heap_sort(items, 0, len(items), lambda a, b: a[1] < b[1])
    assert [i for i, _ in items] == [
        1,
        3,
        16,
        6,
        15,
        9,
        0,
        17,
        19,
        2,
        8,
        4,
        10,
        7,
        13,
        18,
        11,
        5,
        12,
        14,
    ]


@given(st.lists(st.integers(0, 4), max_size=60))
def test_heap_sort_past_the_depth_limit_sorts(keys: list[int]) -> None:
    items = list(enumerate(keys))
    _heap_sort(items, 0, len(items), lambda a, b: a[1] < b[1])
    assert [k for _, k in items] == sorted(keys)


# Keys with many ties: runs of equal keys (ranges that all tie), a floor most items sit
# at, sorted and reversed runs; numbers, and tuples as the negotiator's groups use; and
# keys that all differ (the shortcut: Python's sort).
_KEYS = st.one_of(
    st.lists(st.integers(0, 3), max_size=400),
    st.lists(st.integers(0, 400), max_size=400),
    st.lists(st.sampled_from([0.5, 0.5, 0.5, 0.75, 1.0, 2.5]), max_size=400),
    st.lists(st.tuples(st.booleans(), st.integers(0, 2)), max_size=120),
    st.lists(st.floats(allow_nan=False), unique=True, max_size=200),
    st.builds(
        lambda n, head, rev: sorted([0] * n + head, reverse=rev),
        st.integers(0, 300),
        st.lists(st.integers(0, 9), max_size=60),
        st.booleans(),
    ),
)


@given(_KEYS)
def test_shortcut_leaves_the_replays_order(keys: list[Any]) -> None:
    """Where no two keys tie, Python's sort gives the one order the replay gives."""
    assert _sorted_ids(keys) == _replayed_ids(keys)


@pytest.mark.parametrize("n", [17, 18, 33, 100])
def test_all_differing_keys_take_the_shortcut(n: int) -> None:
    assert _sorted_ids(list(range(n, 0, -1))) == list(range(n - 1, -1, -1))


def test_nan_keys_go_where_the_steps_leave_them() -> None:
    """``NaN < x`` and ``x < NaN`` are both false (a ``GROUP_SORT_EXPR`` of
    ``real("NaN")``), so the keys are no order and no shortcut applies. [NaN, 1, 0] by hand
    through ``__insertion_sort``: 1 is not below NaN (the first), and NaN is not above it,
    so it stays; 0 is not below NaN either, and is below 1, so ``__unguarded_linear_insert``
    moves it down one place and stops at NaN: [NaN, 0, 1] (a sort by value would put NaN
    anywhere, 0 and 1 apart from it)."""
    nan = float("nan")
    assert _sorted_ids([nan, 1, 0]) == [0, 2, 1]
    # [1, NaN, 0]: NaN is not below 1 and stays; 0 is below the first (1), so it goes to
    # the front at once, past NaN, though 0 < NaN is false: [0, 1, NaN]
    assert _sorted_ids([1, nan, 0]) == [2, 0, 1]
