"""sshare's output: a list of fields rendered over the rows, as ``print_fields`` prints
them (the table's widths, ``|``-separated parsable modes), a block of rows at a time.

The fields and one cell's format are :mod:`~fairshare_cli.render.sshare_fields`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import repeat
from operator import is_, itemgetter
from typing import Any

from fairshare_cli.render.sshare_fields import BLANK_DOUBLES, Field, format_value


def render(
    fields: Sequence[Field],
    rows: Sequence[Mapping[str, Any]],
    *,
    mode: str = "table",
    header: bool = True,
) -> str:
    """The whole sshare output: header, dash line (table mode) and rows.

    ``mode`` is ``table``, ``parsable`` (``-p``: ``|`` after every field) or ``parsable2``
    (``-P``: no ``|`` after the last).
    """
    keys = [f.key for f in fields]
    columns = dict(zip(keys, _values(rows, keys), strict=True))
    return render_columns(fields, columns, len(rows), mode=mode, header=header)


def render_columns(
    fields: Sequence[Field],
    columns: Mapping[str, Sequence[Any]],
    count: int,
    *,
    mode: str = "table",
    header: bool = True,
) -> str:
    """:func:`render` of ``count`` rows given as columns (each row key's values in row
    order; a key not in ``columns`` is blank in every row)."""
    lines: list[str] = []
    parsable = mode != "table"
    sep = " " if mode == "table" else "|"
    tail = "" if mode == "parsable2" or not fields else sep

    if header:
        if parsable:
            lines.append(sep.join(f.name for f in fields) + tail)
        else:
            cells = []
            for f in fields:
                a = abs(f.width)
                name = f.name[:a]
                cells.append(name.rjust(a) if f.width > 0 else name.ljust(a))
            lines.append(sep.join(cells) + tail)
            lines.append(sep.join("-" * abs(f.width) for f in fields) + tail)
    if not fields:
        lines.extend("" for _ in range(count))
    values = _run_mins_again([columns.get(f.key, _Blank(count)) for f in fields], fields)
    memos: list[dict[Any, str]] = [{} for _ in fields]
    if not parsable and fields and count and all(f.width for f in fields):
        head = "".join(line + "\n" for line in lines)
        body = [
            _table_block(fields, [v[start : start + _TABLE_BLOCK] for v in values], memos)
            for start in range(0, count, _TABLE_BLOCK)
        ]
        return head + "".join(body)
    # Column by column, a block of rows at a time: each field's cells in one comprehension
    # (benchmarks/run.py --rows sshare: a third of the cost of a call per cell), then the
    # block's rows joined; blocks keep the cells of only a few rows in memory at once.
    for start in range(0, count, _BLOCK):
        cells_by_field = [
            _column(f, v[start : start + _BLOCK], parsable, memo)
            for f, v, memo in zip(fields, values, memos, strict=True)
        ]
        lines.extend(sep.join(cells) + tail for cells in zip(*cells_by_field, strict=True))
    return "".join(line + "\n" for line in lines)


def _run_mins_again(values: list[Any], fields: Sequence[Field]) -> list[Any]:
    """The columns with each TRESRunMins after the first a further 60 times smaller: sshare
    turns a row's run seconds into minutes in place as it prints the field (``process.c``,
    ``PRINT_RUNMINS``: ``tres_run_secs[i] /= 60``, 22.05 and 26.05 alike), so ``-o
    TRESRunMins,tres`` prints minutes, then hours (integer division each time)."""
    seen = 0
    for k, f in enumerate(fields):
        if f.name != "TRESRunMins":
            continue
        if seen:
            values[k] = [_divided(cell, 60**seen) for cell in values[k][:]]
        seen += 1
    return values


def _divided(cell: Any, by: int) -> Any:
    """A TRES cell (``cpu=120,mem=0``) with each count divided by ``by``, integer division;
    a blank (None), or a cell that is no such list, as it is."""
    if not isinstance(cell, str) or not cell:
        return cell
    pairs = [item.partition("=") for item in cell.split(",")]
    if not all(eq and count.isascii() and count.isdigit() for _, eq, count in pairs):
        return cell
    return ",".join(f"{name}={int(count) // by}" for name, _, count in pairs)


class _Blank:
    """``count`` Nones: the column of a key the rows do not have (sliced as a list)."""

    def __init__(self, count: int) -> None:
        self.count = count

    def __getitem__(self, part: slice) -> list[None]:
        return [None] * len(range(self.count)[part])


def _values(block: Sequence[Mapping[str, Any]], keys: list[str]) -> list[Sequence[Any]]:
    """Each key's values in ``block`` (None where a row lacks the key): one ``itemgetter``
    call a row when every row has every key, as sshare's rows do."""
    if len(keys) > 1:
        try:
            return list(zip(*map(itemgetter(*keys), block), strict=True))
        except KeyError:
            pass
    return [[row.get(key) for row in block] for key in keys]


#: Rows rendered together by :func:`render`.
_BLOCK = 512
#: The most uncommon cells one column remembers.
_MEMO_SIZE = 64


_INF = float("inf")


def _column(field: Field, values: Sequence[Any], parsable: bool, memo: dict[Any, str]) -> list[str]:
    """``[format_value(field, v, parsable) for v in values]``, with the table's common
    table cells (a finite float or an int, a string that fits) made without the general
    checks, and a few others remembered in ``memo`` by type and value (blanks, and the
    TRES column's one text cut to its width)."""

    if parsable:
        return [format_value(field, v, True) for v in values]

    def slow(value: Any) -> str:
        if type(value) is float and value == 0.0:  # one key for 0.0 and -0.0, two cells
            return format_value(field, value, False)
        key = (type(value), value)
        text = memo.get(key)
        if text is None:
            text = format_value(field, value, False)
            if len(memo) < _MEMO_SIZE:
                memo[key] = text
        return text

    a = abs(field.width)
    if field.kind == "double":
        fmt = f"%{'-' if field.width < 0 else ''}{a}f"
        return [
            t if type(v) is float and v not in BLANK_DOUBLES and len(t := fmt % v) <= a else slow(v)
            for v in values
        ]
    if field.kind == "uint":
        fmt = f"%{a}d" if field.width > 0 else f"%-{a}d"
        return [
            fmt % v if type(v) is int or (type(v) is float and -_INF < v < _INF) else slow(v)
            for v in values
        ]
    pad = str.rjust if field.width > 0 else str.ljust
    return [
        pad(v, a) if type(v) is str and len(v) <= a and v.isascii() else slow(v) for v in values
    ]


#: Rows a table-mode block of :func:`_table_block` formats at once.
_TABLE_BLOCK = 2048
#: A number column with at most one ``None`` in this many rows goes into the row format
#: (its rows with a ``None`` are made cell by cell); with more, ``_column`` makes its cells.
_SPARSE = 32
#: The value types a number column may hold to go into the row format as ``%f`` or ``%d``.
_NUMBERS = frozenset((int, float, bool, type(None)))


def _table_block(
    fields: Sequence[Field], columns: list[Sequence[Any]], memos: list[dict[Any, str]]
) -> str:
    """Table-mode lines of a block of rows given as ``columns`` (each line with its
    newline), one ``%`` a row.

    A column holding one object in every row is printed once into the row format; a text
    column goes in as ``%Ns`` (``None`` as ""), a column of plain numbers as ``%Nf`` or
    ``%Nd`` (the rows of its few ``None`` made apart; with many, its cells made so, blank
    for ``None``), any other as the cells ``_column`` makes. Every cell is at least its
    width, so in a line of the full width every cell is its width, as ``format_value``
    makes a cell that fits; a longer line is made cell by cell with ``format_value``. A
    row the format refuses (a text in a number column) sends the block to the column
    path, which prints or refuses it (benchmarks/run.py --rows sshare: a third of the
    column path's cost).
    """
    parts: list[str] = []
    used: list[Sequence[Any]] = []
    odd: set[int] = set()
    for field, values, memo in zip(fields, columns, memos, strict=True):
        first = values[0]
        if all(map(is_, values, repeat(first))):
            parts.append(format_value(field, first, False).replace("%", "%%"))
        else:
            spec, cells = _row_format_column(field, values, memo, odd)
            parts.append(spec)
            used.append(cells)
    fmt = " ".join(parts) + " \n"
    if not used:
        return (fmt % ()) * len(columns[0])
    try:
        lines = [fmt % args for args in zip(*used, strict=True)]
    except (TypeError, ValueError, OverflowError):
        return _column_lines(fields, columns, memos)
    width = sum(abs(f.width) + 1 for f in fields) + 1
    text = "".join(lines)
    if not text.isascii():  # (a name's cell is its width in bytes, not letters)
        odd.update(i for i, line in enumerate(lines) if _bytes(line) != width)
    elif len(text) != width * len(lines):
        odd.update(i for i, line in enumerate(lines) if len(line) != width)
    if not odd:
        return text
    for i in odd:
        cells = [
            format_value(f, values[i], False) for f, values in zip(fields, columns, strict=True)
        ]
        lines[i] = " ".join(cells) + " \n"
    return "".join(lines)


def _bytes(line: str) -> int:
    """How many bytes ``line`` prints as (a cut letter's bytes as they are)."""
    return len(line.encode("utf-8", "surrogateescape"))


def _row_format_column(
    field: Field, values: Sequence[Any], memo: dict[Any, str], odd: set[int]
) -> tuple[str, Sequence[Any]]:
    """A column's part of the row format and the values it takes (see :func:`_table_block`);
    the rows of a number column's ``None`` are added to ``odd``, their values stand-ins."""
    a = abs(field.width)
    left = "-" if field.width < 0 else ""
    types = set(map(type, values))
    if field.kind in ("str", "tres"):
        return _text_column(field, values, types, memo)
    if types <= _NUMBERS:
        if field.kind == "uint":
            spec = f"%{left}{a}d"
            if float in types:  # "%d" of a float is int() of it, at twice the cost
                values = [v if v is None else int(v) for v in values]
        elif BLANK_DOUBLES.isdisjoint(values):
            spec = f"%{left}{a}f"
        else:
            spec = ""
        if spec and type(None) not in types:
            return spec, values
        if spec and values.count(None) * _SPARSE <= len(values):
            values = list(values)
            i = values.index(None)
            while True:
                odd.add(i)
                values[i] = 0
                try:
                    i = values.index(None, i + 1)
                except ValueError:
                    return spec, values
        if spec:  # blanks common: the cells, a number's too wide making its line too long
            blank = " " * a
            return "%s", [blank if v is None else spec % v for v in values]
    return "%s", _column(field, values, False, memo)


def _text_column(
    field: Field, values: Sequence[Any], types: set[type], memo: dict[Any, str]
) -> tuple[str, Sequence[Any]]:
    """A text column's part of the row format (``%Ns``, ``None`` as "") and its values;
    one holding a text not ASCII, its cells as ``_column`` makes them (widths in bytes)."""
    if type(None) in types:
        values = ["" if v is None else v for v in values]
    if not _ascii(values):
        return "%s", _column(field, values, False, memo)
    return f"%{'-' if field.width < 0 else ''}{abs(field.width)}s", values


def _ascii(values: Sequence[Any]) -> bool:
    """Whether every text among ``values`` is ASCII (its width in characters its width in
    bytes, which sshare's cells count)."""
    return "".join([v for v in values if type(v) is str]).isascii()


def _column_lines(
    fields: Sequence[Field], columns: list[Sequence[Any]], memos: list[dict[Any, str]]
) -> str:
    """Table-mode lines made column by column (each cell as ``_column`` makes it)."""
    cells_by_field = [
        _column(f, values, False, memo)
        for f, values, memo in zip(fields, columns, memos, strict=True)
    ]
    return "".join(" ".join(cells) + " \n" for cells in zip(*cells_by_field, strict=True))
