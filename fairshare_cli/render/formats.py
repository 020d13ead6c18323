"""Machine-readable output: json, ndjson and csv with the same columns as the table.

JSON numbers keep full precision, infinities become ``"inf"``, blanks ``null``; times are
passed in as :class:`Time` and come out as ISO-8601 UTC strings. The text is
:mod:`fairshare_cli.core.jsontext`'s, the one JSON writer.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from fairshare_cli.core.jsonlayout import column_values
from fairshare_cli.core.jsontext import Time as Time  # (views name these here)
from fairshare_cli.core.jsontext import columns_text, dumps_indented, dumps_line, dumps_rows
from fairshare_cli.core.jsontext import iso as iso
from fairshare_cli.core.jsontext import jsonable as jsonable


def emit_rows(
    rows: Sequence[Mapping[str, Any]] | Mapping[str, Any],
    columns: Sequence[str] | None,
    fmt: str,
    out: TextIO | None = None,
) -> None:
    """Write ``rows`` (or one object for json) as json, ndjson or csv to stdout."""
    out = out or sys.stdout
    if isinstance(rows, Mapping):
        out.write(dumps_indented(rows) + "\n")
        return
    cols = list(columns) if columns is not None else (list(rows[0]) if rows else [])
    if fmt == "json":
        out.write(dumps_rows(rows, cols))
        out.write("\n")
        return
    picked = [{c: jsonable(r.get(c)) for c in cols} for r in rows]
    if fmt == "ndjson":
        for r in picked:
            out.write(dumps_line(r) + "\n")
    elif fmt == "csv":
        import csv  # (only for --format csv)

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(cols)
        for r in picked:
            writer.writerow(["" if v is None else _csv_cell(v) for v in r.values()])
    else:  # pragma: no cover - guarded by click.Choice
        raise ValueError(fmt)


def emit_columns(
    columns: Mapping[str, Sequence[Any]],
    count: int,
    fmt: str,
    times: Sequence[str] = (),
    out: TextIO | None = None,
) -> None:
    """:func:`emit_rows` of ``count`` rows handed over a column at a time (row ``i`` holds
    each column's ``i``-th value; the columns named in ``times`` hold epoch times, printed
    as :class:`Time` is): json is written from the columns as they are."""
    out = out or sys.stdout
    if fmt == "json":
        out.writelines(columns_text(columns, count, times))
        out.write("\n")
        return
    keys = list(columns)
    picked = [
        [Time(t) for t in column] if key in times else column_values(column)
        for key, column in columns.items()
    ]
    rows = [dict(zip(keys, row, strict=True)) for row in zip(*picked, strict=True)]
    emit_rows(rows, keys, fmt, out)


def _csv_cell(value: Any) -> Any:
    if isinstance(value, (Mapping, list)):
        return dumps_line(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
