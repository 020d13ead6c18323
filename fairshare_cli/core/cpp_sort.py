"""``std::sort`` as GCC's libstdc++ runs it: the order an unstable C++ sort leaves ties in.

HTCondor's daemons are built with GCC on Linux, and where they ``std::sort`` a list whose
order is fixed before the sort (the negotiator's groups, breadth-first; a group's children
by name; condor_userprio's rows, in the negotiator's ad order) the order of equal keys
afterwards is fixed too: up to 16 items it is an insertion sort, which keeps them as they
were; above that the introsort's partitions move them. :func:`cpp_sort` is that algorithm
step by step (``bits/stl_algo.h``: ``__introsort_loop`` with a depth limit of
``2·⌊log2 n⌋``, the median of three moved to the front, ``__unguarded_partition``, a heap
sort past the depth limit, then ``__final_insertion_sort``), so a Python list sorted by
the same comparison ends in the same order as the C++ vector.

The comparison is ``key(a) < key(b)``, the keys computed once and the items sorted as
their places (ints), so each comparison is a list lookup (``benchmarks/run.py --rows
userprio``). Where no two keys tie there is one order, and Python's sort gives it; the
step-by-step replay is kept for ties, and for keys that are no strict weak order (a NaN,
which ``<`` finds neither below nor above anything: C++ then leaves the items where its
steps do, and so does the replay).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice
from operator import lt
from typing import Any, TypeVar

T = TypeVar("T")
Less = Callable[[T, T], bool]

#: ``_S_threshold``: ranges this short are left to the final insertion sort.
THRESHOLD = 16


def cpp_sort(items: list[T], key: Callable[[T], Any]) -> None:
    """Sort ``items`` in place as ``std::sort(begin, end, less)`` does with libstdc++, where
    ``less(a, b)`` is ``key(a) < key(b)``."""
    n = len(items)
    keys = list(map(key, items))
    order = sorted(range(n), key=keys.__getitem__)
    ranked = list(map(keys.__getitem__, order))
    if all(map(lt, ranked, islice(ranked, 1, None))):  # (each below the next: one order)
        items[:] = list(map(items.__getitem__, order))
        return
    places = list(range(n))
    less: Less[int] = lambda a, b: keys[a] < keys[b]  # noqa: E731
    _introsort_loop(places, 0, n, 2 * (n.bit_length() - 1), less)
    _final_insertion_sort(places, 0, n, less)
    items[:] = list(map(items.__getitem__, places))


def _introsort_loop(a: list[T], first: int, last: int, depth: int, less: Less[T]) -> None:
    """``__introsort_loop``: partition until ranges are short, heap sort past the depth."""
    while last - first > THRESHOLD:
        if depth == 0:
            _heap_sort(a, first, last, less)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def _partition_pivot(a: list[T], first: int, last: int, less: Less[T]) -> int:
    """``__unguarded_partition_pivot``: the median of the second, middle and last items
    moved to the front, then the rest partitioned around it."""
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, less)
    pivot = a[first]
    lo, hi = first + 1, last
    while True:
        while less(a[lo], pivot):
            lo += 1
        hi -= 1
        while less(pivot, a[hi]):
            hi -= 1
        if not lo < hi:
            return lo
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1


def _move_median_to_first(a: list[T], result: int, x: int, y: int, z: int, less: Less[T]) -> None:
    """``__move_median_to_first``: swap the median of ``a[x]``, ``a[y]``, ``a[z]`` into
    ``a[result]``."""
    if less(a[x], a[y]):
        if less(a[y], a[z]):
            pick = y
        elif less(a[x], a[z]):
            pick = z
        else:
            pick = x
    elif less(a[x], a[z]):
        pick = x
    elif less(a[y], a[z]):
        pick = z
    else:
        pick = y
    a[result], a[pick] = a[pick], a[result]


def _final_insertion_sort(a: list[T], first: int, last: int, less: Less[T]) -> None:
    """``__final_insertion_sort``: the first 16 by insertion, the rest unguarded."""
    if last - first > THRESHOLD:
        _insertion_sort(a, first, first + THRESHOLD, less)
        for i in range(first + THRESHOLD, last):
            _linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


def _insertion_sort(a: list[T], first: int, last: int, less: Less[T]) -> None:
    """``__insertion_sort``: an item below the first goes to the front at once."""
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            value = a[i]
            a[first + 1 : i + 1] = a[first:i]
            a[first] = value
        else:
            _linear_insert(a, i, less)


def _linear_insert(a: list[T], last: int, less: Less[T]) -> None:
    """``__unguarded_linear_insert``: move ``a[last]`` down past the items above it."""
    value = a[last]
    nxt = last - 1
    while less(value, a[nxt]):
        a[last] = a[nxt]
        last = nxt
        nxt -= 1
    a[last] = value


def _heap_sort(a: list[T], first: int, last: int, less: Less[T]) -> None:
    """``__partial_sort(first, last, last)``: ``__make_heap``, then ``__sort_heap``."""
    n = last - first
    if n >= 2:
        parent = (n - 2) // 2
        while True:
            _adjust_heap(a, first, parent, n, a[first + parent], less)
            if parent == 0:
                break
            parent -= 1
    while last - first > 1:
        last -= 1
        value = a[last]
        a[last] = a[first]
        _adjust_heap(a, first, 0, last - first, value, less)


def _adjust_heap(a: list[T], first: int, hole: int, length: int, value: T, less: Less[T]) -> None:
    """``__adjust_heap`` and its ``__push_heap``: sift the hole down, then ``value`` up."""
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value
