"""``fs whatif``: the view before and after, side by side, changes highlighted."""

from __future__ import annotations

import math
import sys
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from fairshare_cli.core.operations.whatif import Compared, WhatifDiff

CHANGED = "bold yellow"

#: Short column headings, so that the table fits a terminal.
LABELS = {
    "effective_priority": "eff. prio",
    "real_priority": "real prio",
    "priority_factor": "factor",
    "weighted_resources_in_use": "in use",
    "norm_shares": "norm shares",
    "effective_usage": "eff. usage",
    "subtree_quota": "subtree",
    "in_use": "in use",
    "p_first": "P(first)",
}


def figure_text(value: Any, other: Any = None) -> str:
    """A figure as text: as short as it can be while still telling it from ``other``."""
    if value is None:
        return "-"
    if isinstance(value, bool) or not isinstance(value, float):
        return str(value)
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    for digits in (6, 9, 12, 17):
        text = f"{value:.{digits}g}"
        if not isinstance(other, float) or text != f"{other:.{digits}g}":
            return text
    return repr(value)


def rank_text(row: Compared) -> Text:
    """``3`` unchanged, ``5 -> 3 (+2)`` moved, ``new (2)`` appeared, ``gone (was 4)`` left."""
    if row.rank_before is None:
        return Text(f"new ({row.rank_after})", style=CHANGED)
    if row.rank_after is None:
        return Text(f"gone (was {row.rank_before})", style=CHANGED)
    move = row.rank_move or 0
    if move == 0:
        return Text(str(row.rank_after))
    return Text(f"{row.rank_before} -> {row.rank_after} ({move:+d})", style=CHANGED)


def cell(row: Compared, name: str) -> Text:
    """``before -> after`` (highlighted) when the figure changed, else the value."""
    before = None if row.before is None else row.before.get(name)
    after = None if row.after is None else row.after.get(name)
    if name not in row.changed:
        return Text(figure_text(after if row.after is not None else before))
    return Text(f"{figure_text(before, after)} -> {figure_text(after, before)}", style=CHANGED)


def summary(diff: WhatifDiff) -> str:
    """The footer: ``no differences``, or what moved."""
    if diff.no_differences:
        return "no differences"
    c = diff.counts()
    return (
        f"{c['changed']} rows changed, {c['moved']} moved, {c['appeared']} appeared, "
        f"{c['left']} left ({len(diff.changes)} changes)"
    )


def render_diff(
    diff: WhatifDiff, title: str, out: TextIO | None = None, wide: bool = False
) -> None:
    """Print the comparison: every row, its rank and main figures, then the footer."""
    console = Console(
        file=out or sys.stdout,
        highlight=False,
        markup=False,  # names are text: "a[/]b" is not markup, "x:smile:y" not an emoji
        emoji=False,
        width=1000 if wide else None,
    )
    if diff.no_differences:
        console.print(f"{title}: no differences", markup=False)
        return
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column(
        diff.view if diff.view != "negotiate" else "submitter", overflow="fold", min_width=12
    )
    table.add_column("rank", no_wrap=True, justify="right")
    # Only the figures that moved somewhere (the first one when only ranks moved): the
    # table stays narrow enough for a terminal, and numbers are never cut.
    shown = [n for n in diff.figures if any(n in r.changed for r in diff.rows)]
    shown = shown or list(diff.figures[:1])
    for name in shown:
        table.add_column(LABELS.get(name, name), no_wrap=True, justify="right")
    for row in diff.rows:
        table.add_row(Text(row.key), rank_text(row), *(cell(row, n) for n in shown))
    console.print(table)
    console.print(summary(diff), markup=False)
