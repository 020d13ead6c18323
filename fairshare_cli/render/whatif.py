"""``fs whatif``: the view before and after, side by side, in a table that fits.

The table follows the views' rules (:mod:`fairshare_cli.render.fit`): full width to a
pipe or a file, fitted to a terminal without cutting a number (figure columns keep their
widest cell; only names fold), and at natural width with ``--wide``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from fairshare_cli.core.operations.whatif import Compared, WhatifDiff, figure_of
from fairshare_cli.render.fit import FitTable, fit_console
from fairshare_cli.render.sshare_fields import FIELDS, Field, format_value
from fairshare_cli.render.taskqueues import percent_text, priority_text

#: Short column headings, so that the table fits a terminal.
LABELS = {
    "effective_priority": "eff. prio",
    "real_priority": "real prio",
    "priority_factor": "factor",
    "weighted_resources_in_use": "in use",
    "norm_shares": "norm shares",
    "effective_usage": "eff. usage",
    "subtree_quota": "subtree",
    "quota": "eff. quota",  # (fs quota's Effective Quota: not the config's)
    "in_use": "in use",
    "p_first": "P(first)",
    "raw_shares": "raw shares",
    "static_quota": "config quota",
    "dynamic_quota": "dyn. quota",
    "accept_surplus": "surplus",
}


@dataclass(frozen=True)
class Columns:
    """How a view's rows are named and its figures headed in the comparison table.

    ``names``: (heading, field) of the columns that name a row (empty: one column, the
    row's key, headed ``key_heading``); ``figures``: a field's heading and the scale its
    value is shown at (``fs taskqueues`` prints shares as percentages).
    """

    key_heading: str
    names: tuple[tuple[str, str], ...] = ()
    figures: tuple[tuple[str, str, float], ...] = ()
    #: a field the view's tool prints by its own rule, and that rule (each side as the
    #: tool would print it)
    texts: tuple[tuple[str, Callable[[Any], str]], ...] = ()

    def text(self, field: str) -> Callable[[Any], str] | None:
        return next((rule for name, rule in self.texts if name == field), None)

    def heading(self, field: str) -> str:
        for name, head, _ in self.figures:
            if name == field:
                return head
        return LABELS.get(field, field)

    def scale(self, field: str) -> float:
        return next((s for name, _, s in self.figures if name == field), 1.0)


#: The ``fs sshare`` field each figure of ``fs whatif ... sshare`` is.
SSHARE_FIELDS = {
    "raw_shares": "RawShares",
    "norm_shares": "NormShares",
    "raw_usage": "RawUsage",
    "effective_usage": "EffectvUsage",
    "fairshare": "FairShare",
}


def sshare_text(field: str) -> Callable[[Any], str]:
    """How ``fs sshare -P`` prints the field ``field`` (sshare's name): the sshare
    renderer's one cell rule (:func:`~fairshare_cli.render.sshare_fields.format_value`): a double
    in ``%f`` (``0.027321``), a count its whole part (``print_fields_uint64``)."""
    spec = next(Field(name, width, kind) for name, width, kind in FIELDS if name == field)
    return lambda value: format_value(spec, value, parsable=True)


#: A raw usage as ``fs sshare`` prints ``RawUsage``: its whole part.
raw_usage_text = sshare_text("RawUsage")

#: The views whose comparison uses the view's own columns and names.
VIEW_COLUMNS = {
    "sshare": Columns(
        "sshare", texts=tuple((name, sshare_text(field)) for name, field in SSHARE_FIELDS.items())
    ),
    "negotiate": Columns("submitter"),
    "quota": Columns("group"),  # (not "quota", beside "eff. quota" and "config quota")
    "taskqueues": Columns(
        "TQId",
        names=(("TQId", "tq_id"), ("Owner", "owner"), ("Group", "group")),
        figures=(
            ("priority", "Priority", 1.0),
            ("share", "Share%", 1.0),
            ("correction", "Correction", 1.0),
            ("p_first", "First%", 1.0),
            ("requirements.cpu_time", "CPUTime", 1.0),
        ),
        texts=(  # (each as fs taskqueues prints its column)
            ("priority", priority_text),
            ("share", percent_text),
            ("correction", priority_text),
            ("p_first", percent_text),
        ),
    ),
}


def figure_text(value: Any, other: Any = None) -> str:
    """A figure as text: as short as it can be while still telling it from ``other``."""
    if value is None:
        return "-"
    if isinstance(value, bool):  # (as the views print a flag: fs quota's Surplus)
        return "yes" if value else "no"
    if not isinstance(value, float):
        return str(value)
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    for digits in (6, 9, 12, 17):
        text = f"{value:.{digits}g}"
        if not isinstance(other, float) or text != f"{other:.{digits}g}":
            return text
    return repr(value)


def rank_text(row: Compared) -> str:
    """``3`` unchanged, ``5 -> 3 (+2)`` moved, ``new (2)`` appeared, ``gone (was 4)`` left."""
    if row.rank_before is None:
        return f"new ({row.rank_after})"
    if row.rank_after is None:
        return f"gone (was {row.rank_before})"
    move = row.rank_move or 0
    if move == 0:
        return str(row.rank_after)
    return f"{row.rank_before} -> {row.rank_after} ({move:+d})"


def _scaled(value: Any, scale: float) -> Any:
    if scale == 1.0 or isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    return float(value) * scale


def cell(
    row: Compared, name: str, scale: float = 1.0, text: Callable[[Any], str] | None = None
) -> str:
    """``before -> after`` when the figure changed, else the value (times ``scale``);
    with ``text``, each side as it prints (one value where both print alike; ``-`` for
    none, or one the tool prints blank)."""
    before = None if row.before is None else _scaled(figure_of(row.before, name), scale)
    after = None if row.after is None else _scaled(figure_of(row.after, name), scale)
    if text is not None:
        shown = ["-" if v is None else text(v) or "-" for v in (before, after)]
        if name not in row.changed or shown[0] == shown[1]:
            return shown[1] if row.after is not None else shown[0]
        return " -> ".join(shown)
    if name not in row.changed:
        return figure_text(after if row.after is not None else before)
    return f"{figure_text(before, after)} -> {figure_text(after, before)}"


def summary(diff: WhatifDiff) -> str:
    """The footer: ``no differences``, or what moved."""
    if diff.no_differences:
        return "no differences"
    c = diff.counts()
    differ = diff.matches_differ()
    matches = f", {differ} match{'es differ' if differ > 1 else ' differs'}" if differ else ""
    rows = "row" if c["changed"] == 1 else "rows"
    changes = "change" if len(diff.changes) == 1 else "changes"
    return (
        f"{c['changed']} {rows} changed, {c['moved']} moved, {c['appeared']} appeared, "
        f"{c['left']} left{matches} ({len(diff.changes)} {changes})"
    )


def _namer(columns: Columns) -> Callable[[Compared], list[str]]:
    if not columns.names:
        return lambda row: [row.key]

    def names(row: Compared) -> list[str]:
        source = row.after if row.after is not None else row.before
        return ["" if source is None else str(source.get(f, "")) for _, f in columns.names]

    return names


def diff_table(diff: WhatifDiff, title: str) -> FitTable:
    """The comparison as a :class:`FitTable`: the row's names, its rank, and the figures
    that moved somewhere (the first one when only ranks moved)."""
    columns = VIEW_COLUMNS.get(diff.view, Columns(diff.view))
    shown: Sequence[str] = [n for n in diff.figures if any(n in r.changed for r in diff.rows)]
    shown = shown or list(diff.figures[:1])
    names = columns.names or ((columns.key_heading, ""),)
    heads = [(head, field == "tq_id") for head, field in names]
    heads += [("rank", True), *((columns.heading(n), True) for n in shown)]
    table = FitTable(title, heads)
    namer = _namer(columns)
    for row in diff.rows:
        figures = (cell(row, n, columns.scale(n), columns.text(n)) for n in shown)
        table.add_row(*namer(row), rank_text(row), *figures)
    return table


def render_diff(
    diff: WhatifDiff,
    title: str,
    out: TextIO | None = None,
    wide: bool = False,
    notes: Sequence[str] = (),
) -> None:
    """Print the comparison: every row, its rank and main figures, the footer, then a
    ``Note:`` line for each of ``notes`` (what the after side could not revalue)."""
    console = fit_console(out or sys.stdout, wide)
    if diff.no_differences:
        console.print(f"{title}: no differences")
    else:
        console.print(diff_table(diff, title))
        console.print(summary(diff))
    for text in notes:  # (a line of text, never wrapped: a path in it stays whole)
        console.file.write(f"Note: {text}\n")
