"""``std::sort`` as GCC's libstdc++ runs it: the order an unstable C++ sort leaves ties in.

HTCondor's daemons are built with GCC on Linux, and where they ``std::sort`` a list whose
order is fixed before the sort (the negotiator's groups, breadth-first; a group's children
by name; condor_userprio's rows, in the negotiator's ad order) the order of equal keys
afterwards is fixed too: up to 16 items it is an insertion sort, which keeps them as they
were; above that the introsort's partitions move them. :func:`cpp_sort` follows that
algorithm (``bits/stl_algo.h``: ``__introsort_loop`` with a depth limit of
``2·⌊log2 n⌋``, the median of three moved to the front, ``__unguarded_partition``, a heap
sort past the depth limit, then ``__final_insertion_sort``), so a Python list sorted by
the same comparison ends in the same order as the C++ vector.

It compares keys with ``<`` (``std::sort`` needs a strict weak order; equal keys tie:
numbers, or tuples of them), and leaves every item where the step-by-step sort does (the
tests hold it to a plain replay) while doing less of it in Python:

- Where no two keys tie (or at most 16 items: the insertion sort alone) there is one
  order, Python's sort's.
- Each item is one int, its key's rank among the distinct keys above its place, so a
  partition compares and swaps ints in one list.
- In a range whose items all tie a partition is a known move (:func:`_ties_loop`): it
  is made with slices, comparing nothing.
- The final insertion sort is a stable sort: no item crosses a cut (everything left of it
  is at most the pivot, everything right of it at least), and an insertion sort moves an
  item only past greater ones. Python's stable sort gives the same order.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from operator import and_, lshift, or_
from typing import Any, TypeVar

T = TypeVar("T")
Less = Callable[[T, T], bool]

#: ``_S_threshold``: ranges this short are left to the final insertion sort.
THRESHOLD = 16


def cpp_sort(items: list[T], key: Callable[[T], Any]) -> None:
    """Sort ``items`` in place as ``std::sort(begin, end, less)`` does with libstdc++, where
    ``less(a, b)`` is ``key(a) < key(b)`` (a strict weak order, as ``std::sort`` needs)."""
    n = len(items)
    if n <= THRESHOLD:  # (the insertion sort alone, which is stable)
        items.sort(key=key)
        return
    keys = list(map(key, items))
    distinct = set(keys)
    if len(distinct) == n:  # (no two tie: one sorted order)
        items.sort(key=key)
        return
    shift = n.bit_length()
    codes = _codes(keys, distinct, shift)
    _introsort_loop(codes, 0, n, 2 * (n.bit_length() - 1), shift)
    # __final_insertion_sort, a stable sort by rank: by rank, then place in ``codes``
    mask = (1 << shift) - 1
    final = sorted(map(or_, map(and_, codes, repeat(~mask)), range(n)))
    places = map(and_, map(codes.__getitem__, map(and_, final, repeat(mask))), repeat(mask))
    items[:] = map(items.__getitem__, places)


def _codes(keys: list[Any], distinct: set[Any], shift: int) -> list[int]:
    """Each item as one int: its key's rank among the ``distinct`` keys (equal keys share
    it), then its place, in ``shift`` bits."""
    rank = {k: r for r, k in enumerate(sorted(distinct))}
    places = range(len(keys))
    return list(map(or_, map(lshift, map(rank.__getitem__, keys), repeat(shift)), places))


def _introsort_loop(a: list[int], first: int, last: int, depth: int, shift: int) -> None:
    """``__introsort_loop``: partition until ranges are short, heap sort past the depth."""
    while last - first > THRESHOLD:
        if depth == 0:
            _heap_sort(a, first, last, lambda x, y: x >> shift < y >> shift)
            return
        low = (a[first] >> shift) << shift
        if min(a[first:last]) >= low and max(a[first:last]) >> shift == low >> shift:
            _ties_loop(a, first, last, depth, shift)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, shift)
        _introsort_loop(a, cut, last, depth, shift)
        last = cut


def _ties_loop(a: list[int], first: int, last: int, depth: int, shift: int) -> None:
    """``__introsort_loop`` over a range whose items all tie. No comparison holds, so
    ``__move_median_to_first`` takes the middle item (its last case) and the unguarded
    partition stops at every item: it swaps the 2nd and the last, the 3rd and the one
    before, and so on (it reverses all but the first) and cuts after ``(n - 1) // 2`` of
    them, n the range's length."""
    while last - first > THRESHOLD:
        if depth == 0:
            _heap_sort(a, first, last, lambda x, y: x >> shift < y >> shift)
            return
        depth -= 1
        mid = first + (last - first) // 2
        a[first], a[mid] = a[mid], a[first]
        a[first + 1 : last] = a[last - 1 : first : -1]
        cut = first + 1 + (last - first - 1) // 2
        _ties_loop(a, cut, last, depth, shift)
        last = cut


def _partition_pivot(a: list[int], first: int, last: int, shift: int) -> int:
    """``__unguarded_partition_pivot``: the median of the second, middle and last items
    moved to the front, then the rest partitioned around it (by rank: ``x < pivot`` is
    ``x < below``, ``pivot < x`` is ``x >= above``)."""
    _move_median_to_first(a, first, first + 1, first + (last - first) // 2, last - 1, shift)
    below = (a[first] >> shift) << shift
    above = below + (1 << shift)
    lo, hi = first + 1, last
    while True:
        while a[lo] < below:
            lo += 1
        hi -= 1
        while a[hi] >= above:
            hi -= 1
        if not lo < hi:
            return lo
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1


def _move_median_to_first(a: list[int], result: int, x: int, y: int, z: int, shift: int) -> None:
    """``__move_median_to_first``: swap the median of ``a[x]``, ``a[y]``, ``a[z]`` (by
    rank) into ``a[result]``."""
    rx, ry, rz = a[x] >> shift, a[y] >> shift, a[z] >> shift
    if rx < ry:
        if ry < rz:
            pick = y
        elif rx < rz:
            pick = z
        else:
            pick = x
    elif rx < rz:
        pick = x
    elif ry < rz:
        pick = z
    else:
        pick = y
    a[result], a[pick] = a[pick], a[result]


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
