"""``fs sweep``'s point table: one row per point, best first, in every output format.

The columns are the point's index (``base`` for the config as it is), its axis values
(one column per axis key) and the metrics. json and ndjson objects carry ``index``,
``base``, ``point`` (the overrides), the metrics and ``groups`` (each group's share,
entitled share and waits).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from fairshare_cli.core.operations.sweep import METRICS, rank_points

#: Metric columns: header, number format.
_FORMATS = {
    "share_error": ("ShareError", ".4f"),
    "jain": ("Jain", ".4f"),
    "wait_mean": ("WaitMean(s)", ".0f"),  # seconds, as the json keys hold them
    "wait_p95": ("WaitP95(s)", ".0f"),
    "utilization": ("Utilization", ".4f"),
    "jobs_finished": ("Finished", "d"),
}


def ranked(
    results: Sequence[Mapping[str, Any]], objective: str, base_index: int | None
) -> list[Mapping[str, Any]]:
    """The points best first by ``objective``, the base point last."""
    points = rank_points([r for r in results if r["index"] != base_index], objective)
    return points + [r for r in results if r["index"] == base_index]


def show_points(
    results: Sequence[Mapping[str, Any]],
    keys: Sequence[str],
    objective: str,
    fmt: str,
    base_index: int | None,
    out: TextIO | None = None,
) -> None:
    """The point table in ``fmt`` (table, json, ndjson or csv)."""
    from fairshare_cli.render.formats import emit_rows

    out = out or sys.stdout
    rows = ranked(results, objective, base_index)
    if fmt == "table":
        out.write(table_text(rows, keys, base_index))
    elif fmt == "csv":
        emit_rows([_flat(r, keys, base_index) for r in rows], ["index", *keys, *METRICS], fmt, out)
    else:
        objects = [point_json(r, base_index) for r in rows]
        emit_rows(objects, ["index", "base", "point", *METRICS, "groups"], fmt, out)


def point_json(result: Mapping[str, Any], base_index: int | None) -> dict[str, Any]:
    """A point as its json/ndjson object (docs/sweep.md)."""
    return {
        "index": result["index"],
        "base": result["index"] == base_index,
        "point": dict(result["point"]),
        **{m: result.get(m) for m in METRICS},
        "groups": list(result["groups"]),
    }


def _flat(result: Mapping[str, Any], keys: Sequence[str], base_index: int | None) -> dict[str, Any]:
    point = result["point"]
    label = "base" if result["index"] == base_index else result["index"]
    return {
        "index": label,
        **{k: point.get(k) for k in keys},
        **{m: result.get(m) for m in METRICS},
    }


def table_text(
    rows: Sequence[Mapping[str, Any]], keys: Sequence[str], base_index: int | None
) -> str:
    """A fixed-width table, numbers right-aligned, never cut."""
    header = ["Index", *keys, *(_FORMATS[m][0] for m in METRICS)]
    body = []
    for r in rows:
        flat = _flat(r, keys, base_index)
        cells = [str(flat["index"]), *(_cell(flat[k]) for k in keys)]
        for m in METRICS:
            value = flat[m]
            cells.append("" if value is None else format(value, _FORMATS[m][1]))
        body.append(cells)
    widths = [max(len(row[k]) for row in [header, *body]) for k in range(len(header))]
    lead = 1 + len(keys)  # point and axis columns are left-aligned

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.ljust(w) if k < lead else c.rjust(w)
            for k, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return "\n".join(line(c) for c in [header, *body]) + "\n"


def _cell(value: Any) -> str:
    """An axis value as the spec writes it: a string that reads as a number quoted
    (``"3600"``, 3600 minutes as a Slurm time string, beside the number ``3600``, seconds:
    two rows printed alike)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and _reads_as_number(value):
        return f'"{value}"'
    return str(value)


def _reads_as_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
