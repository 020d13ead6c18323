"""The one JSON writer's ``--json`` text is ``json.dumps``'s, byte for byte.

(The state file's form: tests/core/test_jsonstate.py; both forms meet below on big
integers and awkward values.) ``--json``: ``json.dumps(jsonable(value), indent=2)``
(:func:`dumps_indented`, and :func:`dumps_rows`/:func:`dumps_columns` for rows picked by
column), the code every ``--json`` view used before msgspec; ndjson: ``json.dumps(jsonable(v))``.
"""

from __future__ import annotations

import datetime
import json
import math
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core import jsontext
from fairshare_cli.core.jsonstate import dumps_sorted
from fairshare_cli.core.jsontext import (
    Time,
    dumps_columns,
    dumps_indented,
    dumps_line,
    dumps_rows,
    iso,
    jsonable,
)

# -- the --json form ---------------------------------------------------------------------

#: Around each edge of msgspec's plain digits (1e-4, 1e16), zeros, NaN and the infinities.
AWKWARD_FLOATS = st.sampled_from(
    [
        *(0.0, -0.0, 1e-4, math.nextafter(1e-4, 0), -1e-4, 1e-5, 1e16, math.nextafter(1e16, 0)),
        *(-1e16, 1e17, 5e-324, 1.7976931348623157e308, math.nan, math.inf, -math.inf, 10.00001),
    ]
)
leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.floats(min_value=-1e-3, max_value=1e-3)
    | st.floats(min_value=1e15, max_value=1e17)
    | AWKWARD_FLOATS
    | st.text(max_size=8)  # non-ASCII, control characters, DEL, lone surrogates
    | st.builds(Time, st.floats(min_value=-10.0, max_value=4e9))
)
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


def _reference(value: Any) -> str:
    return json.dumps(jsonable(value), indent=2)


@settings(max_examples=200, deadline=None)
@given(values)
def test_dumps_indented_is_the_standard_librarys_text(value: Any) -> None:
    assert dumps_indented(value) == _reference(value)


@settings(max_examples=300, deadline=None)
@given(values)
def test_dumps_line_is_one_ndjson_line(value: Any) -> None:
    assert dumps_line(value) == json.dumps(jsonable(value))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from("abcd"), values, max_size=4), max_size=4))
def test_dumps_rows_picks_columns_like_the_standard_library(rows: list[dict[str, Any]]) -> None:
    cols = ["b", "a", "z"]
    want = json.dumps([{c: jsonable(r.get(c)) for c in cols} for r in rows], indent=2)
    assert dumps_rows(rows, cols) == want
    full = [{c: r.get(c) for c in "abcd"} for r in rows]  # every key: transposed at once
    assert dumps_rows(full, ["d", "a"]) == json.dumps(
        [{c: jsonable(r[c]) for c in "da"} for r in full], indent=2
    )


def _in_iso(t: float) -> bool:
    """Not past the year 9999 (where ``iso`` raises, as ``datetime`` does)."""
    return not abs(t) >= 2.5e11


#: One column's values: all of one kind (kept, checked or converted a column at a time),
#: or mixed (each value on its own).
_COLUMN_VALUES = st.sampled_from(["floats", "awkward", "times", "text", "mixed"]).flatmap(
    lambda kind: st.lists(
        {
            "floats": st.floats(-1e6, 1e6) | st.floats(1e-4, 1e15),
            "awkward": AWKWARD_FLOATS | st.integers(-(2**70), 2**70) | st.none(),
            "times": st.builds(Time, st.floats(-10.0, 2.5e11) | AWKWARD_FLOATS.filter(_in_iso))
            | st.builds(Time, st.integers(1, 253402300799).map(float))
            | st.none(),
            "text": st.text(max_size=4) | st.booleans(),
            "mixed": leaves,
        }[kind],
        min_size=3,
        max_size=3,
    )
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["name", "x", "is-group", "é"]), _COLUMN_VALUES))
def test_dumps_columns_is_the_rows_text(columns: dict[str, list[Any]]) -> None:
    """Rows handed over a column at a time print as the rows themselves (keys that are not
    identifiers included)."""
    rows = [{k: column[i] for k, column in columns.items()} for i in range(3)]
    want = json.dumps([jsonable(r) for r in rows], indent=2)
    assert dumps_columns(columns, 3) == want


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=253402300799).map(float), max_size=8),
    st.lists(st.floats(min_value=-5.0, max_value=2.5e11) | AWKWARD_FLOATS, max_size=3),
)
def test_a_column_of_times_is_iso(whole: list[float], other: list[float]) -> None:
    """Whole seconds to the year 9999 (msgspec's datetimes) beside fractional, zero,
    negative and non-finite ones (``iso`` each): the text of ``iso`` either way."""
    times = [Time(t) for t in [*whole, *other] if not abs(t) >= 2.5e11]  # past 9999: iso raises
    want = json.dumps([{"t": iso(t)} for t in times], indent=2)
    assert dumps_columns({"t": times}, len(times)) == want
    with_none = json.dumps([{"t": iso(t)} for t in times] + [{"t": None}], indent=2)
    assert dumps_columns({"t": [*times, None]}, len(times) + 1) == with_none
    epochs = [float(t) for t in times]  # a column named as times: plain floats
    assert dumps_columns({"t": epochs}, len(times), times=["t"]) == want
    assert dumps_columns({"t": [*epochs, None]}, len(times) + 1, times=["t"]) == with_none
    named = {"t": [*epochs, None], "é": ["é"] * (len(times) + 1)}  # the standard library's
    assert dumps_columns(named, len(times) + 1, times=["t"]) == json.dumps(
        [{"t": iso(t), "é": "é"} for t in [*epochs, None]], indent=2
    )


def test_the_last_whole_second_before_the_year_10000() -> None:
    last = Time(253402300799.0)
    assert dumps_columns({"t": [last, Time(1.0), Time(math.pi)]}, 3) == json.dumps(
        [{"t": "9999-12-31T23:59:59Z"}, {"t": iso(1.0)}, {"t": iso(math.pi)}], indent=2
    )


def test_the_cases_msgspec_prints_differently() -> None:
    """Each case where msgspec alone differs from ``json.dumps``: tiny and huge floats
    (``0.00001`` against ``1e-05``, ``1e16`` against ``1e+16``; the edges 1e-4 and just
    below 1e16 print alike), NaN/inf (``jsonable`` gives null and "inf"), non-ASCII and DEL
    (escaped by ``ensure_ascii``), integers beyond 64 bits, non-string keys (msgspec would
    print ``None`` as ``"None"``), and types ``json.dumps`` refuses."""
    cases: list[Any] = [
        {"f": 1e-05, "g": -7.5e-09, "h": 1e16, "i": 0.0001, "j": -0.0, "k": -1e22},
        [9999999999999998.0, 1.7976931348623157e308, 5e-324, 1e-4 * (1 - 2**-52)],
        [math.nan, math.inf, -math.inf],
        {"s": "é\x7f\x1f\u2028"},
        [2**64, -(2**63) - 1, 10**400],
        {1: "a", None: 2},
        {True: 1, 2.5: [3]},
        {"t": Time(1795262400.5), "u": Time(0.0)},
    ]
    for value in cases:
        assert dumps_indented(value) == _reference(value)
        if not isinstance(value, dict) or all(isinstance(k, str) for k in value):
            assert dumps_columns({"v": [value]}, 1) == _reference([{"v": value}])
    for refused in (datetime.date(2026, 11, 21), {"d": Decimal("1.5")}, [{1, 2}]):
        with pytest.raises(TypeError):
            dumps_indented(refused)  # as json.dumps refuses it
        with pytest.raises(TypeError):
            dumps_rows([{"d": refused}], ["d"])


def test_columns_of_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="lengths"):
        dumps_columns({"a": [1, 2], "b": [1]}, 2)
    assert dumps_columns({}, 2) == json.dumps([{}, {}], indent=2)
    assert dumps_rows([{"a": 1}], []) == json.dumps([{}], indent=2)


def test_big_integers_both_forms() -> None:
    """Integers past 64 bits: msgspec refuses them, the standard library prints them."""
    value = {"b": [2**64, -(2**64)], "a": 10**30}
    assert dumps_sorted(value) == json.dumps(value, indent=2, sort_keys=True)
    assert dumps_indented(value) == json.dumps(value, indent=2)


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5])
def test_rows_laid_out_in_chunks_are_the_whole_text(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows are laid out ``_CHUNK`` at a time (here 2, so counts on and off a multiple),
    and a chunk the standard library must print (non-ASCII) sends the whole to it."""
    monkeypatch.setattr(jsontext, "_CHUNK", 2)
    for names in ([f"u{i}" for i in range(count)], [*(f"u{i}" for i in range(count - 1)), "é"]):
        times = [Time(1795262400.0 + i) for i in range(count)]
        columns: dict[str, list[Any]] = {"name": names, "t": times}
        rows = [{"name": n, "t": iso(t)} for n, t in zip(names, times, strict=True)]
        assert dumps_columns(columns, count) == json.dumps(rows, indent=2)
        assert "".join(jsontext.rows_text(rows, ["t", "name"], chunk=2)) == json.dumps(
            [{"t": r["t"], "name": r["name"]} for r in rows], indent=2
        )


@settings(max_examples=200, deadline=None)
@given(values)
def test_dumps_sorted_is_the_standard_librarys_text_on_awkward_values(value: Any) -> None:
    """The state form on the same values as the ``--json`` form: awkward floats (1e-05,
    1e+16, -0.0; NaN and the infinities refused), non-ASCII and control characters, big
    integers, tuples, and ``Time`` (a float subclass: printed as its number)."""
    try:
        want = json.dumps(value, indent=2, sort_keys=True, allow_nan=False)
    except ValueError:
        with pytest.raises(ValueError, match="Out of range float"):
            dumps_sorted(value)
        return
    assert dumps_sorted(value) == want


#: Magnitudes where msgspec's digits and ``repr``'s part (below 1e-4, from 1e16), their
#: neighbours, and values whose msgspec text holds ``0.0000`` though ``repr`` prints them alike.
FLOAT_EDGES = [0.0, -0.0, 1e-4, 9.99e-5, -9.99e-5, 1e-5, 5e-324, 1e16, -1e16, 9.999e15,
               math.nextafter(1e16, 0), 1.5e300, 10.00001, -20.000003, 1e-300, 1.25e17]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(FLOAT_EDGES)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.integers(-(2**70), 2**70)
    )
)
def test_float_texts_are_json_dumps_texts(values: list[float]) -> None:
    """A column of finite floats (ints among them), printed at once: each text is
    ``json.dumps``'s."""
    assert jsontext.float_texts(values) == [json.dumps(v) for v in values]
