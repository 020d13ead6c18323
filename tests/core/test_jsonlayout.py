"""The JSON writer's rows laid out from columns with shared values (``core/jsonlayout``,
through ``jsontext.dumps_columns``): ``json.dumps(jsonable(rows), indent=2)`` byte for
byte, for any values, shared or not, nested objects, any chunk size; and ``fs sprio
--json`` of a :class:`PriorityTable` against the reference's text."""

from __future__ import annotations

import enum
import json
import math
from array import array
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core import jsonlayout
from fairshare_cli.core.jsonlayout import Shared, column_values
from fairshare_cli.core.jsontext import Time, dumps_columns, jsonable
from fairshare_cli.core.limits import NICE_LIMIT
from fairshare_cli.core.slurm.priority import PriorityContext
from fairshare_cli.core.slurm.priority_table import PriorityTable, compute_table
from fairshare_cli.errors import InputError
from fairshare_cli.render.sprio import json_columns
from tests.core.slurm.priority_reference import reference_json
from tests.core.slurm.test_priority_table import NOW, _both_kinds, contexts, sited_queues


def _shared(column: list[Any], by_key: dict[Any, Any]) -> Shared:
    """A :class:`Shared` column of these rows' keys and each key's value."""
    return Shared(column, list(by_key), list(by_key.values()))


#: Floats whose texts differ between writers (tiny, huge, signed zeros, non-finite).
EDGES = [0.0, -0.0, 1e-4, 9.99e-5, 1e-5, 5e-324, 1e16, -1e16, 1.5e300, 10.00001, 1.25e17]
leaves = (
    st.sampled_from(EDGES)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.integers(-(2**70), 2**70)
    | st.booleans()
    | st.none()
    | st.text(max_size=6)
    | st.sampled_from(["%s", "a%%b", 'q"uote', "é", "\x7f", "\\"])
)
values = leaves | st.dictionaries(st.text(max_size=3), leaves, max_size=3)


def _reference(columns: dict[str, Any], count: int) -> str:
    rows: list[dict[str, Any]] = [{} for _ in range(count)]

    def put(target: list[dict[str, Any]], cols: dict[str, Any]) -> None:
        for key, column in cols.items():
            if isinstance(column, dict):
                inner: list[dict[str, Any]] = [{} for _ in range(count)]
                put(inner, column)
                column = inner
            elif isinstance(column, Shared):
                by_key = dict(zip(column.keys, column.values, strict=True))
                column = [by_key[k] for k in column.column]
            for row, value in zip(target, column, strict=True):
                row[key] = value

    put(rows, columns)
    return json.dumps(jsonable(rows), indent=2)


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    """Columns of ``count`` rows: plain ones (few or many distinct values), shared ones
    over one or two key lists, a nested object of such columns."""
    count = draw(st.integers(0, 40))
    picks = [draw(st.lists(st.integers(0, 3), min_size=count, max_size=count)) for _ in "ab"]

    def column() -> Any:
        kind = draw(st.sampled_from(["plain", "few", "shared0", "shared1"]))
        if kind == "plain":
            return draw(st.lists(values, min_size=count, max_size=count))
        if kind == "few":
            value = draw(leaves)
            return [value] * count
        keys = picks[int(kind[-1])]
        return _shared(keys, {k: draw(values) for k in range(4)})

    names = draw(st.lists(st.text(max_size=4), min_size=0, max_size=5, unique=True))
    cols: dict[str, Any] = {name: column() for name in names}
    if draw(st.booleans()):
        inner = draw(st.lists(st.sampled_from(["x", "y", "%"]), max_size=3, unique=True))
        cols["nested"] = {name: column() for name in inner}
    return cols, count


@settings(max_examples=300, deadline=None)
@given(tables(), st.sampled_from([1, 2, 3, 1024]))
def test_layout_is_json_dumps_of_the_rows(table: tuple[dict[str, Any], int], chunk: int) -> None:
    columns, count = table
    if not any(isinstance(c, (Shared, dict)) for c in columns.values()):
        columns["shared"] = _shared([0] * count, {0: 1.5})  # (the layout's path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jsonlayout, "CHUNK", chunk)
        text = dumps_columns(columns, count)
    assert text == _reference(columns, count)


class _Level(enum.IntEnum):
    HIGH = 1


#: Numbers that are equal but print apart (1, 1.0 and True; 0, 0.0 and -0.0), an int
#: subclass, a big int and None: a set of them forgets which was which.
MIXED = [0, 0.0, -0.0, 1, 1.0, True, False, _Level.HIGH, 2**70, 1.5, None]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(MIXED), min_size=1, max_size=3), st.data())
def test_a_column_of_equal_numbers_of_several_types(pool: list[Any], data: st.DataObject) -> None:
    """A long column of few distinct values of several types (the few-values, int and
    float paths each see it): each value prints as itself."""
    count = data.draw(st.integers(32, 80))
    column = data.draw(st.lists(st.sampled_from(pool), min_size=count, max_size=count))
    columns = {"n": column, "s": _shared([0] * count, {0: 1.5})}
    assert dumps_columns(columns, count) == _reference(columns, count)


@pytest.mark.parametrize(
    "column",
    [
        [1.5, 2.5, 10**308, 10**308, 0.5, 7],  # (a sum beyond a float's range)
        [1.5, 2.5, 10**400, 3.5, 1, 2],  # (an int beyond a float's range)
        [1, 2, 3, True, 5, 6],
        [0.5, 1.5, 2.5, math.inf, 4.5, math.nan],
        [0.5, 1.5, 2.5, Time(0.0), 4.5, 5.5],
        [1, 2, 3, 4, 5, None],
        [10**400, 1, _Level.HIGH, -(2**64), 3, 4],  # (chunks of ints only: made text at once)
    ],
)
def test_a_chunk_of_numbers_with_another_value(column: list[Any]) -> None:
    """A column of numbers with, in one chunk, a value the numbers' path does not print:
    that chunk is printed a value at a time, the others at once."""
    columns = {"n": column, "s": _shared([0] * len(column), {0: 1.5})}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jsonlayout, "CHUNK", 2)
        assert dumps_columns(columns, len(column)) == _reference(columns, len(column))


def test_layout_shares_texts_and_keeps_percent_signs() -> None:
    keys = [0, 1, 0]
    columns = {
        "id%d": ["1", "2", "3"],
        "user": _shared(keys, {0: "alice", 1: "b%sob"}),
        "acct": _shared(keys, {0: "a", 1: "b"}),
        "n": [7, 2**70, -1],
        "age": [1.0, 1.0, 1.0],
        "f": {"tres": _shared(keys, {0: {"cpu": 0.5}, 1: {}})},
    }
    assert dumps_columns(columns, 3) == _reference(columns, 3)
    empty: dict[str, Any] = {"s": _shared([], {})}
    assert dumps_columns(empty, 0) == "[]"
    uneven: dict[str, Any] = {"s": _shared([0], {0: 1}), "n": [1, 2]}
    with pytest.raises(ValueError, match="different lengths"):
        dumps_columns(uneven, 2)
    assert column_values(columns["f"]) == [
        {"tres": {"cpu": 0.5}},
        {"tres": {}},
        {"tres": {"cpu": 0.5}},
    ]


def _table(jobs: list[Any], ctx: PriorityContext) -> PriorityTable | None:
    try:
        return compute_table(jobs, ctx, NOW, listed_at=NOW + 60)
    except InputError:
        return None


#: Queues of up to 40 jobs whose sites and nices take one value or several.
sited = sited_queues(1, 40, [[0], [7], [0, 7], [-3, NICE_LIMIT]])


@settings(max_examples=50, deadline=None)
@given(sited, contexts, st.sampled_from([1, 2, 3, 1024]))
def test_table_json_in_pieces_is_the_references(
    objs: list[dict[str, Any]], ctx: PriorityContext, chunk: int
) -> None:
    """``fs sprio --json``'s text of a table, in chunks of any number of rows."""
    (jobs,) = _both_kinds(objs)[:1]
    table = _table(jobs, ctx)
    if table is None:
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jsonlayout, "CHUNK", chunk)
        text = dumps_columns(json_columns(table), len(table))
    assert text == reference_json(table.rows())


@settings(max_examples=30, deadline=None)
@given(
    sited,
    contexts,
    st.sampled_from(["age_factors", "weighted_ages"]),
    st.sampled_from([math.inf, math.nan]),
)
def test_a_table_with_an_age_not_finite(
    objs: list[dict[str, Any]], ctx: PriorityContext, column: str, bad: float
) -> None:
    """An infinite or NaN age factor prints as ``jsonable`` says (``"inf"``, ``null``)."""
    (jobs,) = _both_kinds(objs)[:1]
    table = _table(jobs, ctx)
    if table is None or not len(table):
        return
    values = list(getattr(table, column))
    values[-1] = bad
    table = msgspec.structs.replace(table, **{column: values})
    assert dumps_columns(json_columns(table), len(table)) == reference_json(table.rows())


@pytest.mark.parametrize(
    ("values", "as_is"),
    [
        (["1", "12.3", " ~a_Z"], True),  # printable ASCII: the text between quotes
        (["1", 'a"b'], False),  # a quote, a backslash: escaped
        (["1", "a\\b"], False),
        (["1", "\x7f"], False),  # DEL and control characters: escaped
        (["\x1f"], False),
        (["\t"], False),
        (["é"], False),  # non-ASCII: escaped
        (["1", 2], False),  # not text
    ],
)
def test_plain_text_is_what_json_prints_as_it_is(values: list[Any], as_is: bool) -> None:
    """A column printed as it is between quotes holds only the characters ``json.dumps``
    leaves alone (printable ASCII but ``"`` and ``\\``)."""
    assert jsonlayout._plain_text(values) is as_is
    if as_is:
        assert all(json.dumps(v) == f'"{v}"' for v in values)


@pytest.mark.parametrize(
    "column",
    [
        [1.0] * 40 + [1] + [1.0] * 40,  # (equal to the few values, another type)
        [float("nan"), 2.5] * 20 + [float("nan")],  # (NaNs: each a value of its own)
        [0, 10] * 20 + [11],  # (one value the first rows do not hold)
        [-0.0] * 33 + [0.0],  # (a zero's sign, which a count forgets)
        [True, 1] * 20,
    ],
)
def test_few_values_counted_print_as_themselves(column: list[Any]) -> None:
    """A column whose first rows hold few values is checked by counting those values in
    it: every value still prints as itself."""
    columns = {"n": column, "s": _shared([0] * len(column), {0: 1.5})}
    assert dumps_columns(columns, len(column)) == _reference(columns, len(column))


@pytest.mark.parametrize(
    "column",
    [
        array("q", [1, -(2**63), 2**63 - 1, 0, 86290, 7]),
        array("d", [1.5, -0.0, 0.0, 1e-5, 1e16, math.nan, math.inf, 2.0]),
        array("i", []),
    ],
)
def test_an_array_column_prints_as_its_numbers(column: array[Any]) -> None:
    """An ``array.array`` column (sprio's PRIORITY: machine ints) prints as the list of its
    values would, its values made a chunk at a time."""
    count = len(column)
    columns = {"n": column, "s": _shared([0] * count, {0: 1.5})}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jsonlayout, "CHUNK", 3)
        text = dumps_columns(columns, count)
    assert text == _reference({"n": column.tolist(), "s": columns["s"]}, count)
