"""``fs userprio --json`` from column texts prints the general writer's bytes.

``userprio_json`` joins the rows of a chunk at once from each field's JSON
text: numbers from one msgspec encode of the column (kept only where no float's text can
differ from ``repr``: no exponent, no ``0.0000``, no ``null``), times from msgspec's datetimes
(whole seconds from 1970 to before the year 10000, else ``iso``), names as they are
(printable ASCII without ``"`` or ``\\``). Anything else goes the struct way or to the general
writer; the text is ``emit_rows``'s either way.
"""

from __future__ import annotations

import io
import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.cli.userprio import _json_rows
from fairshare_cli.core.htcondor.userprio import UserprioRow
from fairshare_cli.render import userprio_json as module
from fairshare_cli.render.formats import emit_rows, iso
from fairshare_cli.render.userprio_json import (
    JSON_FIELDS,
    json_texts,
    number_texts,
    quoted_times,
    userprio_json,
)
from tests.cli.test_userprio_render import view_of

NOW = 1795262400.0
#: Around each edge of msgspec's plain digits (1e-4, 1e16), zeros, NaN, infinities.
edges = st.sampled_from(
    [
        *(0.0, -0.0, 1e-4, 9.999999999999999e-05, -1e-4, 1e-5, 1e16, 9999999999999998.0),
        *(-1e16, 1e17, 5e-324, 1.7976931348623157e308, math.nan, math.inf, -math.inf, 0.5),
        10.00001,
    ]
)
floats = edges | st.floats(allow_nan=True, allow_infinity=True)
numbers = floats | st.integers(min_value=-(2**70), max_value=2**70)


@settings(max_examples=500, deadline=None)
@given(st.lists(numbers, min_size=1, max_size=6))
def test_number_texts_are_json_dumps_or_none(values: list[float]) -> None:
    texts = number_texts(values)
    if texts is not None:
        assert texts == [json.dumps(v) for v in values]


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=1e-4, max_value=1e16, exclude_max=True) | st.integers(-(10**20), 10**20))
def test_plain_numbers_are_taken(value: float) -> None:
    """The range where msgspec writes repr's digits is taken (not sent the slow way)."""
    text = number_texts([value, -value])
    if isinstance(value, float) and "0.0000" in repr(value):
        return  # 10.00001 and the like: refused, though plain (the text mark is blunt)
    assert text == [json.dumps(value), json.dumps(-value)]


times = (
    st.sampled_from([1.0, 0.0, -1.0, 253402300799.0, 253402300800.0, NOW, NOW + 0.5, math.nan])
    | st.integers(min_value=1, max_value=253402300799).map(float)
    | st.floats(min_value=-1e3, max_value=3e11)
)


@settings(max_examples=400, deadline=None)
@given(st.lists(times, min_size=1, max_size=6))
def test_times_are_quoted_iso(values: list[float]) -> None:
    """Whole seconds through msgspec's datetimes, the others (fractions, 0, NaN) by iso.
    (Times past the year 9999 make ``iso`` raise, in both writers: left out here.)"""
    values = [v for v in values if not v >= 253402300800.0]
    texts = quoted_times(values) if values else []
    assert texts == ["null" if iso(v) is None else f'"{iso(v)}"' for v in values]


def test_only_floats_are_quoted_here() -> None:
    assert quoted_times([1.0, 2]) is None
    assert quoted_times([]) is None
    assert quoted_times([NOW, NOW + 0.25, 0.0]) == [
        '"2026-11-21T12:00:00Z"',
        '"2026-11-21T12:00:00.250000Z"',
        "null",
    ]


rows = st.builds(
    UserprioRow,
    name=st.sampled_from(["a@d", "g.b@d", "%s@d", "x" * 99 + "@d", 'q"@d', "b\\@d", "é@d"]),
    is_group=st.booleans(),
    group=st.just("<none>"),
    effective_priority=floats,
    real_priority=floats,
    priority_factor=floats,
    resources_in_use=st.integers(min_value=0, max_value=10**6),
    weighted_resources_in_use=floats,
    accumulated_usage_hours=floats,
    weighted_accumulated_usage_hours=floats,
    begin_usage_time=times.filter(lambda t: not t >= 2.5e11),  # past 9999: iso raises
    last_usage_time=times.filter(lambda t: not t >= 2.5e11),
)
#: Plain numbers whose text cannot hold ``0.0000`` (at most two decimals).
quarters = st.integers(min_value=0, max_value=4 * 10**9).map(lambda i: i / 4)
plain_rows = st.builds(
    UserprioRow,
    name=st.sampled_from(["a@d", "g.b@d", "%s@d", "<none>"]),
    is_group=st.booleans(),
    group=st.just("<none>"),
    effective_priority=quarters,
    real_priority=quarters,
    priority_factor=st.sampled_from([1.0, 1000.0]),
    resources_in_use=st.integers(min_value=0, max_value=10**6),
    weighted_resources_in_use=st.sampled_from([0.0, 1.0, 2.5]),
    accumulated_usage_hours=quarters,
    weighted_accumulated_usage_hours=quarters,
    begin_usage_time=st.integers(0, 2 * 10**9).map(float),
    last_usage_time=st.integers(1, 2 * 10**9).map(float),
)


def _general(table: list[UserprioRow]) -> str:
    out = io.StringIO()
    emit_rows(_json_rows(view_of(table, False)), JSON_FIELDS, "json", out)
    return out.getvalue()


@settings(max_examples=200, deadline=None)
@given(st.lists(rows, max_size=8) | st.lists(plain_rows, max_size=8), st.sampled_from([1, 3, 2048]))
def test_the_json_is_the_general_writers(table: list[UserprioRow], chunk: int) -> None:
    saved = module.CHUNK
    module.CHUNK = chunk
    try:
        pieces = userprio_json(table)
    finally:
        module.CHUNK = saved
    if pieces is not None:
        assert "".join(pieces) + "\n" == _general(table)


@settings(max_examples=100, deadline=None)
@given(st.lists(plain_rows, min_size=1, max_size=8))
def test_plain_rows_take_the_column_texts(table: list[UserprioRow]) -> None:
    """Printable names, plain numbers, whole times: every column has its texts."""
    texts = json_texts(table)
    assert texts is not None
    assert len(texts) == len(JSON_FIELDS)


def test_names_json_would_escape_take_the_struct_way() -> None:
    base = UserprioRow("a@d", False, "<none>", 0.5, 0.5, 1.0, 0, 0.0, 0.0, 0.0, NOW, NOW)
    for name in ['q"@d', "b\\@d", "t\t@d", "é@d", "del\x7f@d"]:
        assert json_texts([base._replace(name=name)]) is None
    assert json_texts([base._replace(name="%d@d")]) is not None
