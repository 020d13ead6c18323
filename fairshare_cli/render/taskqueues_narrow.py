"""``fs taskqueues`` in a narrow terminal: requirements on a line under each queue.

The numbers keep their columns and are never cut; Owner and Group shorten (with ``…``)
only when the numbers alone leave them too little room.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from fairshare_cli.core.dirac.taskqueues import TaskQueueRow
from fairshare_cli.render.taskqueues import COLUMNS, Column

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
    rows: Sequence[TaskQueueRow], width: int, columns: Sequence[Column] = COLUMNS
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
        out.append("(no waiting DIRAC jobs)")
    return "\n".join(out) + "\n"
