"""``fs taskqueues`` output: a fixed-width table and the ``--json`` records.

The table is plain text laid out here rather than a Rich table: Rich needs seconds to lay
out the thousands of rows a real TaskQueueDB holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fairshare_cli.core.dirac.taskqueues import TaskQueueRow

JSON_FIELDS = (
    "tq_id",
    "owner",
    "group",
    "requirements",
    "jobs",
    "priority",
    "share",
    "correction",
    "p_first",
)


def taskqueue_records(rows: Sequence[TaskQueueRow]) -> list[dict[str, Any]]:
    """One JSON object per task queue (DESIGN §5), full precision."""
    out = []
    for row in rows:
        d = row.queue.definition
        out.append(
            {
                "tq_id": row.queue.tq_id,
                "owner": d.owner,
                "group": d.group,
                "requirements": {
                    "cpu_time": d.cpu_time,
                    "sites": list(d.sites),
                    "banned_sites": list(d.banned_sites),
                    "platforms": list(d.platforms),
                    "job_types": list(d.job_types),
                    "tags": list(d.tags),
                    "grid_ces": list(d.grid_ces),
                    "min_ram": d.min_ram,
                    "max_ram": d.max_ram,
                },
                "jobs": row.queue.jobs,
                "priority": row.priority,
                "share": row.share,
                "correction": row.correction,
                "p_first": row.p_first,
            }
        )
    return out


def _names(values: tuple[str, ...]) -> str:
    return ",".join(values) if values else "-"


Column = tuple[str, bool, Callable[[TaskQueueRow], str]]

#: (header, right-aligned, cell) per column.
COLUMNS: tuple[Column, ...] = (
    ("TQId", True, lambda r: str(r.queue.tq_id)),
    ("Owner", False, lambda r: r.queue.definition.owner),
    ("Group", False, lambda r: r.queue.definition.group),
    ("CPUTime", True, lambda r: str(r.queue.definition.cpu_time)),
    ("Sites", False, lambda r: _names(r.queue.definition.sites)),
    ("BannedSites", False, lambda r: _names(r.queue.definition.banned_sites)),
    ("Platforms", False, lambda r: _names(r.queue.definition.platforms)),
    ("JobTypes", False, lambda r: _names(r.queue.definition.job_types)),
    ("Tags", False, lambda r: _names(r.queue.definition.tags)),
    ("Jobs", True, lambda r: str(r.queue.jobs)),
    ("Priority", True, lambda r: f"{r.priority:.4f}"),
    ("Share%", True, lambda r: f"{100 * r.share:.3f}"),
    ("Correction", True, lambda r: f"{r.correction:.4f}"),
    ("First%", True, lambda r: f"{100 * r.p_first:.3f}"),
)

GRID_CES: Column = ("GridCEs", False, lambda r: _names(r.queue.definition.grid_ces))
RAM: tuple[Column, ...] = (
    ("MinRAM", True, lambda r: str(r.queue.definition.min_ram)),
    ("MaxRAM", True, lambda r: str(r.queue.definition.max_ram)),
)


def columns_for(rows: Sequence[TaskQueueRow]) -> tuple[Column, ...]:
    """The columns: GridCEs (after BannedSites) and MinRAM/MaxRAM (after Tags) when used."""
    out = list(COLUMNS)
    if any(r.queue.definition.min_ram or r.queue.definition.max_ram for r in rows):
        at = [head for head, _, _ in out].index("Tags") + 1
        out[at:at] = RAM
    if any(r.queue.definition.grid_ces for r in rows):
        at = [head for head, _, _ in out].index("BannedSites") + 1
        out.insert(at, GRID_CES)
    return tuple(out)


def render_taskqueues(rows: Sequence[TaskQueueRow]) -> str:
    """The task-queue table: one line per queue, columns two spaces apart."""
    columns = columns_for(rows)
    cells = [[cell(row) for _, _, cell in columns] for row in rows]
    widths = [len(head) for head, _, _ in columns]
    for line in cells:
        for k, text in enumerate(line):
            if len(text) > widths[k]:
                widths[k] = len(text)

    def fmt(line: Sequence[str]) -> str:
        parts = [
            text.rjust(w) if right else text.ljust(w)
            for text, w, (_, right, _) in zip(line, widths, columns, strict=True)
        ]
        return "  ".join(parts).rstrip()

    out = [fmt([head for head, _, _ in columns])]
    out.extend(fmt(line) for line in cells)
    if not rows:
        out.append("(no waiting DIRAC jobs)")
    return "\n".join(out) + "\n"
