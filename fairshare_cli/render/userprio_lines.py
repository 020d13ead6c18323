"""The rows of ``fs userprio``'s table, a chunk of rows a column at a time, in one join.

:func:`fairshare_cli.render.userprio.column_cells` makes each cell as a ``str`` and the
table joined them row by row: over 20,000 submitters, half the rendering went to checking,
making and joining 140,000 cells (``benchmarks/run.py --rows userprio``). Here each column
of a chunk of user rows is a piece: ``%{w}.{d}f`` of its values where every value's text
fits its width (:func:`plain_format`; repeated values formatted once), a blank all the way
down, or else the text ``column_cells`` makes (a number too wide for ``%f``, a mix of blanks
and numbers, the times); then the chunk is one ``str.join`` of the columns with the blanks
and spaces between as literals (a ``%`` template of the chunk was five times slower). A
chunk holding a group row is ``column_cells``'s throughout. The text is the cell-by-cell
table's (``tests/render/test_userprio_lines.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain, filterfalse, repeat
from math import copysign
from operator import add, floordiv, gt, itemgetter, mod
from typing import Any

from fairshare_cli.core.htcondor.userprio import UserprioRow

#: A column's piece of a chunk: a format and the values it takes (None: the text is literal).
Piece = tuple[str, "list[Any] | None"]


def plain_format(values: Sequence[Any], width: int, decimals: int) -> bool:
    """Whether ``"%{width}.{decimals}f" % v`` is ``fmt_number(v, width, decimals)`` for
    each value: numbers (ints or floats) whose ``%f`` text fits the width.

    Both format through the same ``'f'`` conversion, so they differ only where that text is
    wider than the column (then ``fmt_number`` prints ``%g``). A value under
    ``10 ** k - 1`` in magnitude, with ``k`` digits left once the sign, the point and the
    decimals have their room, rounds to at most ``k`` digits; NaN and the infinities print
    as 3 or 4 letters either way (``min`` and ``max`` skip a NaN unless it comes first, and
    then neither bound holds).
    """
    if not values:
        return True
    digits = width - (decimals + 1 if decimals else 0) - 1
    bound = 10**digits - 1
    try:
        return bool(min(values) > -bound and max(values) < bound) and _numbers(values)
    except TypeError:  # None, text: not numbers
        return False


def _numbers(values: Sequence[Any]) -> bool:
    """Every value is an int or a float (a bool is an int; ``%f`` and ``format`` agree)."""
    return set(map(type, values)) <= {float, int, bool}


def _get(field: str) -> Callable[[UserprioRow], Any]:
    """A row's field by position (faster than the named attribute)."""
    return itemgetter(UserprioRow._fields.index(field))


def number_piece(values: list[Any], width: int, decimals: int) -> Piece | None:
    """``%{width}.{decimals}f`` of each value (:func:`plain_format`), or None. Where values
    repeat (a factor of 1.0, whole CPUs in use), each distinct one is formatted once and
    goes in as text; equal numbers print alike, but for the sign of a zero: zeros of both
    signs are formatted one by one."""
    distinct = set(values)
    if not (_numbers(values) and plain_format(list(distinct), width, decimals)):
        return None
    spec = f"%{width}.{decimals}f"
    if 2 * len(distinct) > len(values) or (
        0 in distinct and len(set(map(copysign, repeat(1.0), filterfalse(None, values)))) > 1
    ):
        return spec, values
    made = dict(zip(distinct, map(spec.__mod__, distinct), strict=True))
    return "%s", list(map(made.__getitem__, values))


def _factor_values(rows: Sequence[UserprioRow]) -> list[Any]:
    """The factor the table prints (``_table_factor``'s value, before its blank test)."""
    factors = list(map(_get("table_factor"), rows))
    if None in factors:
        factors = [r.priority_factor if r.table_factor is None else r.table_factor for r in rows]
    return factors


def _above(values: list[Any], least: float, width: int) -> Piece | None:
    """A column printed ``%{width}.2f`` when above ``least``, else blank: one piece when
    all are blank or all are plain numbers above it; None when they mix (the cells then)."""
    try:
        above = list(map(gt, values, repeat(least)))  # NaN is not above: blank
    except TypeError:  # None, text
        return None
    if not any(above):
        return " " * width, None
    return number_piece(values, width, 2) if all(above) else None


#: Columns of user rows printed ``%{w}.{d}f`` from a field: (field, width, decimals), the
#: same for the cells one by one (``render/userprio.py``) and for whole pieces here.
NUMBER_COLUMNS = {
    "priority": ("effective_priority", 12, 2),
    "real_priority": ("real_priority", 8, 2),
    "in_use": ("weighted_resources_in_use", 6, 0),
    "total_usage": ("weighted_accumulated_usage_hours", 12, 2),
}
#: Columns a user row leaves blank while its field is falsy (quotas: always).
_BLANK_UNLESS: dict[str, Callable[[UserprioRow], Any]] = {
    "effective_quota": _get("is_group"),
    "config_quota": _get("is_group"),
    "subtree_quota": _get("is_group"),
    "surplus": _get("surplus"),
    "requested": lambda r: r.requested is not None,
}


def user_piece(key: str, width: int, rows: Sequence[UserprioRow]) -> Piece | None:
    """Column ``key``'s piece of the chunk for these user rows, or None when its cells
    must be made one by one (``column_cells``)."""
    spec = NUMBER_COLUMNS.get(key)
    if spec is not None:
        field, w, decimals = spec
        return number_piece(list(map(_get(field), rows)), w, decimals)
    blank_unless = _BLANK_UNLESS.get(key)
    if blank_unless is not None:
        return (" " * width, None) if not any(map(blank_unless, rows)) else None
    if key == "factor":
        return _above(_factor_values(rows), 0, 9)
    if key == "floor":
        return _above(list(map(_get("floor"), rows)), 0, 9)
    if key == "ceiling":
        return _above(list(map(_get("ceiling"), rows)), -1, 9)
    return None


def chunk_text(
    name: str,
    pieces: Sequence[Piece | None],
    cells: Callable[[int], list[str]],
    names: Sequence[str],
) -> str:
    """The chunk's lines joined by newlines: ``names`` through the ``name`` format, then
    each column's piece, or its ``cells(column index)`` where the piece is None.

    A measured hot loop (``benchmarks/run.py --rows userprio``): the texts of each column
    made at once, then the chunk in one join, blank columns and spaces between as literals.
    """
    parts: list[Iterable[str]] = [names if name == "%s" else list(map(name.__mod__, names))]
    between = ""
    for i, piece in enumerate(pieces):
        between += " "
        texts: Sequence[Any]
        if piece is None:
            texts = cells(i)
        else:
            spec, values = piece
            if values is None:  # blank all the way down
                between += spec
                continue
            texts = values if spec == "%s" else list(map(spec.__mod__, values))
        parts.extend((repeat(between), texts))
        between = ""
    parts.append(repeat(between + "\n"))
    return "".join(chain.from_iterable(zip(*parts, strict=False)))[:-1]


#: ``+HH:MM`` by minute of the day (made on first use).
_DAY_MINUTES: list[str] = []


def minute_texts(minutes: Sequence[int]) -> list[str]:
    """``format_time_nosecs(60 * m).rjust(10)`` of each whole minute ``m`` >= 0: its days
    as ``%3d``, then ``+HH:MM`` from a table (the text depends on the minute alone)."""
    if not _DAY_MINUTES:
        _DAY_MINUTES.extend(f"+{h:02d}:{m:02d}" for h in range(24) for m in range(60))
    days = map("%3d".__mod__, map(floordiv, minutes, repeat(1440)))
    of_day = map(_DAY_MINUTES.__getitem__, map(mod, minutes, repeat(1440)))
    return list(map(str.rjust, map(add, days, of_day), repeat(10)))
