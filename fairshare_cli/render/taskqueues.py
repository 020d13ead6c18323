"""``fs taskqueues`` output: a fixed-width table and the ``--json`` records.

The table is plain text laid out here rather than a Rich table: Rich needs seconds to lay
out the thousands of rows a real TaskQueueDB holds. In a narrow terminal the requirements
go on a line under each queue (:func:`render_stacked`): the numbers keep their columns and
are never cut; Owner and Group shorten (with ``…``) only when the numbers alone leave them
too little room.
"""

from __future__ import annotations

import textwrap
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
    """One JSON object per task queue (docs/json.md), full precision."""
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


#: The line under the header when there is no queue.
NO_JOBS = "(no waiting DIRAC jobs)"
#: ... when queues exist but ``--pilot``'s matches none of them.
NO_MATCH = "(no task queue matches the pilot)"


def _names(values: tuple[str, ...]) -> str:
    return ",".join(values) if values else "-"


Column = tuple[str, bool, Callable[[TaskQueueRow], str]]


def priority_text(value: float) -> str:
    """A queue's priority, or its correction, as the table prints it (``3842.1400``)."""
    return f"{value:.4f}"


def percent_text(fraction: float) -> str:
    """A share or a first-try chance as the table prints it: a percentage (``24.470``)."""
    return f"{100 * fraction:.3f}"


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
    ("Priority", True, lambda r: priority_text(r.priority)),
    ("Share%", True, lambda r: percent_text(r.share)),
    ("Correction", True, lambda r: priority_text(r.correction)),
    ("First%", True, lambda r: percent_text(r.p_first)),
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


def render_taskqueues(
    rows: Sequence[TaskQueueRow], width: int | None = None, empty: str = NO_JOBS
) -> str:
    """The task-queue table: one line per queue, columns two spaces apart.

    Wider than ``width``, the requirement columns move to a line of their own under each
    queue (:func:`render_stacked`). Without rows, ``empty`` says why.
    """
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

    if width is not None and sum(widths) + 2 * (len(widths) - 1) > width:
        return render_stacked(rows, width, columns, empty)
    out = [fmt([head for head, _, _ in columns])]
    out.extend(fmt(line) for line in cells)
    if not rows:
        out.append(empty)
    return "\n".join(out) + "\n"


#: The requirement columns that move to the line below, with their labels there.
REQUIREMENTS = {
    "Sites": "sites",
    "BannedSites": "banned",
    "GridCEs": "CEs",
    "Platforms": "platforms",
    "JobTypes": "job\xa0types",
    "Tags": "tags",
}
_SHORTEST = 6  # Owner and Group shorten no further


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def render_stacked(
    rows: Sequence[TaskQueueRow],
    width: int,
    columns: Sequence[Column] = COLUMNS,
    empty: str = NO_JOBS,
) -> str:
    """One line of numbers per queue, then its requirements (those set), wrapped."""
    main = [c for c in columns if c[0] not in REQUIREMENTS]
    side = [c for c in columns if c[0] in REQUIREMENTS]
    cells = [[cell(row) for _, _, cell in main] for row in rows]
    widths = [
        max([len(head)] + [len(line[k]) for line in cells]) for k, (head, _, _) in enumerate(main)
    ]
    text = [k for k, (_, right, _) in enumerate(main) if not right]
    excess = sum(widths) + 2 * (len(widths) - 1) - width
    while excess > 0:
        movable = [k for k in text if widths[k] > _SHORTEST]
        if not movable:
            break
        k = max(movable, key=lambda i: widths[i])
        widths[k] -= 1
        excess -= 1

    def fmt(line: Sequence[str]) -> str:
        parts = [
            _shorten(t, w).rjust(w) if right else _shorten(t, w).ljust(w)
            for t, w, (_, right, _) in zip(line, widths, main, strict=True)
        ]
        return "  ".join(parts).rstrip()

    indent = " " * (widths[0] + 2)
    out = [fmt([head for head, _, _ in main])]
    for row, line in zip(rows, cells, strict=True):
        out.append(fmt(line))
        wanted = [(REQUIREMENTS[head], cell(row)) for head, _, cell in side]
        # A no-break space keeps each label with its value when the line wraps.
        words = "  ".join(f"{label}:\xa0{value}" for label, value in wanted if value != "-")
        if words and len(indent) + len(words) <= width:  # the common case: one line
            out.append((indent + words).replace("\xa0", " "))
        elif words:
            wrapped = textwrap.wrap(
                words,
                max(width, len(indent) + 20),
                initial_indent=indent,
                subsequent_indent=indent + "  ",
                break_on_hyphens=False,
            )
            out.extend(line.replace("\xa0", " ") for line in wrapped)
    if not rows:
        out.append(empty)
    return "\n".join(out) + "\n"
