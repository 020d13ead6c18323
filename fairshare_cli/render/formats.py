"""Machine-readable output: json, ndjson and csv with the same columns as the table.

JSON numbers keep full precision, infinities become ``"inf"``, blanks ``null``; times are
passed in as :class:`Time` and come out as ISO-8601 UTC strings.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO


class Time(float):
    """An epoch time that serializes as ISO-8601 UTC (0 or less ⇒ null)."""


def iso(t: float | None) -> str | None:
    """ISO-8601 UTC (``2026-11-21T12:00:00Z``); None for missing or non-positive times."""
    if t is None or t <= 0 or not math.isfinite(t):
        return None
    stamp = _dt.datetime.fromtimestamp(t, tz=_dt.timezone.utc)
    text = stamp.isoformat(timespec="microseconds" if t % 1 else "seconds")
    return text.replace("+00:00", "Z")


def jsonable(value: Any) -> Any:
    """Convert a row value to its JSON form."""
    if isinstance(value, Time):
        return iso(float(value))
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, Mapping):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def emit_rows(
    rows: Sequence[Mapping[str, Any]] | Mapping[str, Any],
    columns: Sequence[str] | None,
    fmt: str,
    out: TextIO | None = None,
) -> None:
    """Write ``rows`` (or one object for json) as json, ndjson or csv to stdout."""
    from fairshare_cli.render import fastjson

    out = out or sys.stdout
    if isinstance(rows, Mapping):
        out.write(fastjson.dumps_indented(rows) + "\n")
        return
    cols = list(columns) if columns is not None else (list(rows[0]) if rows else [])
    if fmt == "json":
        out.write(fastjson.dumps_rows(rows, cols))
        out.write("\n")
        return
    picked = [{c: jsonable(r.get(c)) for c in cols} for r in rows]
    if fmt == "ndjson":
        for r in picked:
            out.write(json.dumps(r) + "\n")
    elif fmt == "csv":
        import csv  # (only for --format csv)

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(cols)
        for r in picked:
            writer.writerow(["" if v is None else _csv_cell(v) for v in r.values()])
    else:  # pragma: no cover - guarded by click.Choice
        raise ValueError(fmt)


def _csv_cell(value: Any) -> Any:
    if isinstance(value, (Mapping, list)):
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
