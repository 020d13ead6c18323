"""The state file's JSON text is ``json.dumps(value, indent=2, sort_keys=True,
allow_nan=False)``'s, byte for byte, or the same refusal (:mod:`fairshare_cli.core.jsonstate`).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core import jsonstate
from fairshare_cli.core.jsonstate import _rows_of_numbers, dumps_sorted
from fairshare_cli.core.jsontext import LARGE as _LARGE
from fairshare_cli.core.jsontext import SMALL as _SMALL

_LEAVES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_same_text_as_the_standard_library(value: Any) -> None:
    try:
        want = json.dumps(value, indent=2, sort_keys=True, allow_nan=False)
    except ValueError:  # an infinity: both refuse it
        with pytest.raises(ValueError, match="Out of range float"):
            dumps_sorted(value)
        return
    assert dumps_sorted(value) == want


def test_tuples_and_extreme_floats() -> None:
    value: dict[str, Any] = {"b": (1, 1e-05, 1e16, -0.0), "a": [[]], "c": {}}
    assert dumps_sorted(value) == json.dumps(value, indent=2, sort_keys=True)


def test_nan_is_refused_as_json_refuses_it() -> None:
    with pytest.raises(ValueError, match="Out of range float"):
        dumps_sorted({"x": [float("nan")]})


_NUMBERS = (
    st.integers()
    | st.sampled_from([10**400, -(10**16), 10**16 - 1, 0, 0.0, -0.0, 1e-4, 1e16])
    | st.floats(allow_nan=True, allow_infinity=True)
)


def _as_the_standard_library(value: Any) -> None:
    """``dumps_sorted(value)`` is ``json.dumps``'s text, or refuses what it refuses."""
    try:
        want = json.dumps(value, indent=2, sort_keys=True, allow_nan=False)
    except ValueError:
        with pytest.raises(ValueError, match="Out of range float"):
            dumps_sorted(value)
        return
    assert dumps_sorted(value) == want


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_NUMBERS, max_size=3), min_size=1, max_size=6))
def test_rows_of_numbers_as_the_standard_library(rows: list[list[Any]]) -> None:
    """Lists of number lists (the DIRAC history's steps) take a fast check for the floats
    msgspec prints as ``repr`` does; any other (NaN, infinities, 1e-05, 1e16, huge
    integers) the long way: the text or the refusal is the standard library's either way."""
    _as_the_standard_library({"steps": rows})


_EDGES = st.sampled_from(
    [
        0,
        0.0,
        -0.0,
        1e-4,
        -1e-4,
        math.nextafter(1e-4, 0),
        math.nextafter(1e16, 0),
        -math.nextafter(1e16, 0),
        1e16,
        10**16 - 1,
        10**16,
        -(10**400),
        1.7946576e9,
    ]
)
_COLUMN_KINDS = st.sampled_from(["ints", "floats", "edges", "mixed", "odd"])


def _column(kind: str) -> st.SearchStrategy[Any]:
    """Values of one column of steps: one kind, as the DIRAC history's times and deltas."""
    return {
        "ints": st.integers(),
        "floats": st.floats(1e-4, 1e16, exclude_max=True) | st.floats(-1e16, -1e-4),
        "edges": _EDGES,
        "mixed": st.integers(-5, 5) | st.floats(allow_nan=False, allow_infinity=False),
        "odd": st.booleans() | st.none() | st.just(float("nan")) | st.just(-math.inf) | _EDGES,
    }[kind]


@st.composite
def _steps(draw: st.DrawFn) -> list[list[Any]]:
    """Rows of one width whose columns each hold one kind of value (sometimes a ragged or
    odd row among them)."""
    kinds = draw(st.lists(_COLUMN_KINDS, min_size=1, max_size=3))
    row = st.tuples(*(_column(k) for k in kinds)).map(list)
    rows = draw(st.lists(row, min_size=1, max_size=8))
    if draw(st.booleans()):
        rows.insert(draw(st.integers(0, len(rows))), draw(st.lists(_NUMBERS, max_size=3)))
    return rows


def _kept_as_is(value: Any) -> bool:
    """Whether the item-by-item walk leaves every number as it is (none printed as repr
    text, none refused)."""
    return type(value) is int or (
        type(value) is float
        and math.isfinite(value)
        and (value == 0.0 or _SMALL <= abs(value) < _LARGE)
    )


@settings(max_examples=200, deadline=None)
@given(_steps())
def test_steps_as_the_standard_library(rows: list[list[Any]]) -> None:
    """Rows of numbers (the fast column check) and rows it must leave to the walk (ragged,
    bools, None, NaN, infinities, floats just outside 1e-4..1e16, huge integers): the same
    text or the same refusal as ``json.dumps``."""
    _as_the_standard_library({"steps": rows})


@settings(max_examples=200, deadline=None)
@given(_steps())
def test_the_column_check_keeps_only_what_the_walk_keeps(rows: list[list[Any]]) -> None:
    """The fast check says yes only when the rows are of one width and every item is one
    the walk would keep as it is; and it does say yes then when each column is all ints or
    all floats (a column mixing both may be left to the walk: integers from 1e16 on)."""
    whole = len({len(r) for r in rows}) == 1 and all(_kept_as_is(v) for r in rows for v in r)
    fast = _rows_of_numbers(rows)
    if fast:
        assert whole
    if whole and all(len({type(v) for v in column}) == 1 for column in zip(*rows, strict=True)):
        assert fast


def test_the_column_check_takes_the_dirac_steps() -> None:
    """Times (floats of today's epoch) and deltas (ints, zero and negative among them)."""
    steps = [[1794657600.0, 962], [1794657608.0, 0], [1794657636.5, -8]]
    assert _rows_of_numbers(steps)
    assert not _rows_of_numbers([*steps, [1794657640.0, True]])
    assert not _rows_of_numbers([*steps, [1e-5, 1]])
    assert not _rows_of_numbers([*steps, [1794657640.0]])


#: Job objects as the state's queue holds them (docs/jobs.md): a few keys each, text, whole
#: numbers, epoch times; now and then a value the walk must print or refuse itself.
_JOB_VALUES = (
    st.text(max_size=6)
    | st.integers()
    | st.floats(1.7e9, 1.8e9)
    | st.none()
    | st.booleans()
    | _NUMBERS
    | st.dictionaries(st.text(max_size=3), _NUMBERS, max_size=2)
    | st.lists(_NUMBERS, max_size=2)
)
_JOBS = st.lists(
    st.dictionaries(st.sampled_from(["id", "owner", "submit_time", "nice", "é"]), _JOB_VALUES),
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(_JOBS)
def test_job_lists_as_the_standard_library(jobs: list[dict[str, Any]]) -> None:
    """A queue of job objects: each job whose values are all kept is written as it is, any
    other (a nested value, NaN, an infinity, 1e-05, a key that is no string) is walked: the
    text or the refusal is ``json.dumps``'s either way."""
    _as_the_standard_library({"jobs": jobs})
    _as_the_standard_library([*jobs, {1: 2.5}, (1e-05, 3)])


def test_a_job_of_plain_values_is_written_as_it_is() -> None:
    """A job of text, ints, epoch times, None, bools and zeros is not copied; one holding a
    float msgspec prints unlike ``repr`` (1e-05) is, with that float as ``repr`` text."""
    job = {"id": "10_3", "owner": "alice", "submit_time": 1794657600.5, "nice": -5, "x": -0.0}
    job |= {"admin_priority": None, "nice_user": True, "time_limit": "INFINITE"}
    queue = [job, {**job, "run_time": 1e-05}]
    assert jsonstate._plain(job) is job
    assert jsonstate._plain(queue)[1] is not queue[1]
    assert dumps_sorted({"jobs": queue}) == json.dumps({"jobs": queue}, indent=2, sort_keys=True)
    assert '"run_time": 1e-05' in dumps_sorted(queue)
