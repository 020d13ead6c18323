"""Tables that fit the terminal: text columns wrap, numbers are never cut or wrapped.

A :class:`FitTable` collects its rows, then lays itself out for the width it is printed in:
at its natural width when that fits (one line per row), else numeric headers wrap onto
more lines (never their words) and the text columns, widest first, give up width and
fold their cells between words (never inside one). When even that cannot fit, the first
column goes on a line of its own above the rest of its row (stacked); what still cannot
fit is printed wider than the terminal. ``--wide`` prints at natural width.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import sys
import textwrap
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from fairshare_cli.render.fit_plain import plain_output, plain_text, table_lines

#: The narrowest a text column is squeezed to (unless it is narrower already).
MIN_TEXT_WIDTH = 8
#: Between two columns: padding, the rule, padding (Rich, ``show_edge=False``).
SEPARATOR = 3
#: Between two columns of a table squeezed to fit: the rule is dropped, one space is kept.
COMPACT_SEPARATOR = 2
#: A number inside text (a job id, a count, a time): never folded.
_NUMBER = re.compile(r"[-+]?[0-9][0-9.,:+eE-]*")
#: ``--wide``: as wide as the table wants.
UNLIMITED = 100_000


def terminal_width(wide: bool = False) -> int:
    """``$COLUMNS``, else the terminal's width; :data:`UNLIMITED` with ``--wide``.

    Output that goes to a pipe or a file, with no ``$COLUMNS``, is not cut to any width:
    ``grep`` and ``awk`` keep one line per row.
    """
    if wide:
        return UNLIMITED
    if not os.environ.get("COLUMNS", "").strip().isdigit() and not sys.stdout.isatty():
        return UNLIMITED
    return max(shutil.get_terminal_size((80, 24)).columns, 20)


def _rich_console(out: TextIO, width: int) -> Any:
    """A Rich console ``width`` wide that never crops a line it prints, and prints text as
    it is: a name like ``a[/]b`` or ``x:smile:y`` is neither markup nor an emoji code."""
    from rich.console import Console

    class _Uncropped(Console):
        def print(self, *objects: Any, **kwargs: Any) -> None:
            kwargs.setdefault("crop", False)
            super().print(*objects, **kwargs)

        def on_broken_pipe(self) -> None:
            """The reader left (``| head -1``): the closed pipe goes to fs's own handling
            (a view ends with 0), not Rich's, which ends the program with 1."""
            raise BrokenPipeError(errno.EPIPE, "the reader left")

    return _Uncropped(file=out, width=width, highlight=False, markup=False, emoji=False)


class FitConsole:
    """A console as wide as the terminal that never crops a line it prints: plain tables
    and lines are written straight (:mod:`fairshare_cli.render.fit_plain`, byte for byte as
    Rich prints them), anything else goes to a Rich console made when first needed."""

    def __init__(self, out: TextIO, wide: bool = False) -> None:
        self.file = out
        self.width = terminal_width(wide)
        self._plain = plain_output(out)
        self._rich: Any = None

    def print(self, *objects: Any, **kwargs: Any) -> None:
        """``rich.console.Console.print`` (no cropping)."""
        if self._plain and not kwargs:
            text = printed(objects, self.width)
            if text is not None:
                self.file.write(text)
                return
        if self._rich is None:
            self._rich = _rich_console(self.file, self.width)
        self._rich.print(*objects, **kwargs)


def fit_console(out: TextIO, wide: bool = False) -> FitConsole:
    """A console as wide as the terminal that never crops a line it prints."""
    return FitConsole(out, wide)


@dataclass(frozen=True)
class Layout:
    """Column widths (without padding), each column's header (maybe on lines), and whether
    the columns are squeezed together (no rule between them)."""

    widths: list[int]
    headers: list[str]
    compact: bool = False
    #: The first column's cells on lines of their own, above the rest of their row.
    stacked: bool = False

    @property
    def width(self) -> int:
        """The table's width in characters."""
        sep = COMPACT_SEPARATOR if self.compact else SEPARATOR
        grid = self.widths[1:] if self.stacked else self.widths
        return sum(grid) + sep * (len(grid) - 1)


def _longest_number(texts: Sequence[str]) -> int:
    return max((len(m) for t in texts for m in _NUMBER.findall(t)), default=0)


#: After these a name may be folded: a domain, a group path, a list. Not after "_": a
#: scheduler word (`group_physics`, `no_preemption`, `lhcb_user`) stays whole.
_BREAK_AFTER = ".@-/,"


def fold_cell(text: str, width: int) -> str:
    """``text`` on lines of at most ``width``: broken at a space, else after one of
    ``.@-/,`` (never inside a number), else anywhere; continuations indented two more
    than the first line (a hierarchy's indentation stays visible)."""
    if len(text) <= width or width < 4:
        return text
    body = text.lstrip(" ")
    indent = len(text) - len(body)
    lines: list[str] = []
    prefix = " " * indent
    while body:
        room = max(width - len(prefix), 2)
        if len(body) <= room:
            lines.append(prefix + body)
            break
        cut = body.rfind(" ", 1, room + 1)
        if cut > 0:
            lines.append(prefix + body[:cut])
            body = body[cut + 1 :]
        else:
            cut = max(
                (
                    i + 1
                    for i in range(1, room)
                    if body[i] in _BREAK_AFTER
                    and not (body[i - 1].isdigit() and body[i + 1 : i + 2].isdigit())
                ),
                default=room,
            )
            lines.append(prefix + body[:cut])
            body = body[cut:]
        prefix = " " * min(indent + 2, max(width - 4, 0))
    return "\n".join(lines)


def _longest_piece(body: str) -> int:
    """The longest part of ``body`` that :func:`fold_cell` never breaks: between spaces
    and after one of ``.@-/,`` (a number's dot is not a break)."""
    longest = start = 0
    for i, char in enumerate(body):
        if char == " ":
            longest, start = max(longest, i - start), i + 1
        elif (
            char in _BREAK_AFTER
            and i > start
            and not (body[i - 1].isdigit() and body[i + 1 : i + 2].isdigit())
        ):
            longest, start = max(longest, i + 1 - start), i + 1
    return max(longest, len(body) - start)


def _unbroken_width(cell: str) -> int:
    """The narrowest column that folds ``cell`` between words only: its indentation, two
    more on a continuation line, and its longest piece (or the whole cell, if shorter)."""
    body = cell.lstrip(" ")
    return min(len(cell), len(cell) - len(body) + 2 + _longest_piece(body))


def _wrap_header(header: str, width: int) -> str:
    return "\n".join(textwrap.wrap(header, width, break_long_words=False)) or header


def plan(
    headers: Sequence[str],
    numeric: Sequence[bool],
    rows: Sequence[Sequence[str]],
    width: int,
    stack: bool = True,
) -> Layout:
    """Widths that fit ``width`` if anything can, cutting neither a number nor a word.

    At natural width when that fits; else compact (no rule between columns): text columns
    give width up widest first, down to :data:`MIN_TEXT_WIDTH` but never below the width
    that folds their cells between words (nor below a word of their heading), and numeric
    columns keep their widest cell and wrap only their header. When that is still too
    wide and the first column is text (``stack``), it is stacked (see :class:`Layout`),
    if that is narrower.
    """
    n = len(headers)
    cells = [max((len(r[k]) for r in rows), default=0) for k in range(n)]
    natural = [max(len(headers[k]), cells[k]) for k in range(n)]
    if sum(natural) + SEPARATOR * (n - 1) <= width:
        return Layout(natural, list(headers))
    widths = list(natural)
    heads = list(headers)
    sep = COMPACT_SEPARATOR
    for k in range(n):
        if numeric[k]:
            longest_word = max(len(w) for w in headers[k].split() or [""])
            widths[k] = max(cells[k], longest_word)
            heads[k] = _wrap_header(headers[k], widths[k])
            widths[k] = max(widths[k], *(len(line) for line in heads[k].splitlines()))
    excess = sum(widths) + sep * (n - 1) - width
    text = [k for k in range(n) if not numeric[k]]
    floor = {
        k: min(
            natural[k],
            max(
                MIN_TEXT_WIDTH,
                _longest_number([r[k] for r in rows]),
                max((len(w) for w in headers[k].split()), default=0),  # a heading's word
                max((_unbroken_width(r[k]) for r in rows), default=0),
            ),
        )
        for k in text
    }
    while excess > 0:
        movable = [k for k in text if widths[k] > floor[k]]
        if not movable:
            break
        top = max(widths[k] for k in movable)
        widest = [k for k in movable if widths[k] == top]
        below = max([widths[k] for k in movable if widths[k] < top] + [floor[widest[0]]])
        step = min(top - below, -(-excess // len(widest)))
        for k in widest:
            cut = min(step, excess, widths[k] - floor[k])
            widths[k] -= cut
            excess -= cut
    compact = Layout(widths, heads, compact=True)
    if excess <= 0 or not stack or n < 2 or numeric[0]:
        return compact
    grid = plan(headers[1:], numeric[1:], [r[1:] for r in rows], width, stack=False)
    if grid.width >= compact.width:
        return compact
    return Layout([0, *grid.widths], [headers[0], *grid.headers], compact=True, stacked=True)


def stacked_lines(
    headers: Sequence[str],
    numeric: Sequence[bool],
    rows: Sequence[Sequence[str]],
    layout: Layout,
) -> tuple[list[str], list[str]]:
    """A stacked table's heading lines and body lines: the first column's header on a line
    of its own, as its cells are, then the other columns' headers (bottom-aligned); a rule,
    and per row its first cell on lines of its own (folded between words at the table's
    width; none when it is empty), then the rest of the row."""
    total = layout.width
    cols = range(1, len(headers))
    sep = " " * COMPACT_SEPARATOR

    def line(cells: Sequence[str]) -> str:
        return sep.join(
            cell.rjust(layout.widths[k]) if numeric[k] else cell.ljust(layout.widths[k])
            for k, cell in zip(cols, cells, strict=True)
        ).rstrip()

    heads = [layout.headers[k].splitlines() for k in cols]
    high = max(len(h) for h in heads)
    top = [
        line([h[i - high + len(h)] if i >= high - len(h) else "" for h in heads])
        for i in range(high)
    ]
    out = ["━" * total]
    for row in rows:
        if row[0]:
            out += fold_cell(row[0], total).splitlines()
        cells = [row[k] if numeric[k] else fold_cell(row[k], layout.widths[k]) for k in cols]
        parts = [cell.splitlines() or [""] for cell in cells]
        for i in range(max(len(p) for p in parts)):
            out.append(line([p[i] if i < len(p) else "" for p in parts]))
    return [headers[0], *top], out


class FitTable:
    """A table of strings that fits the console it is printed on (see :func:`plan`)."""

    def __init__(self, title: str, columns: Sequence[tuple[str, bool]]) -> None:
        self.title = title
        self.columns = list(columns)
        self.rows: list[list[str]] = []

    def add_row(self, *cells: str) -> None:
        """Append one row; every cell is already formatted text."""
        self.rows.append(list(cells))

    def build(self, width: int, titled: bool = True) -> Any:
        """The Rich table laid out for ``width`` columns (without its title: ``titled``)."""
        from rich.table import Table

        headers = [name for name, _ in self.columns]
        numeric = [num for _, num in self.columns]
        layout = plan(headers, numeric, self.rows, width)
        title = self.title if titled else None
        table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
        if layout.compact:
            from rich import box

            table.box = box.SIMPLE_HEAVY  # the header rule stays, the column rules go
            table.padding = (0, 1, 0, 0)
        for head, num, w in zip(layout.headers, numeric, layout.widths, strict=True):
            table.add_column(
                head,
                justify="right" if num else "left",
                no_wrap=num,
                overflow="ellipsis" if num else "fold",
                width=w,
            )
        for row in self.rows:
            if layout.compact:
                row = [
                    cell if num else fold_cell(cell, w)
                    for cell, num, w in zip(row, numeric, layout.widths, strict=True)
                ]
            table.add_row(*row)
        return table

    def plain(self, width: int) -> str | None:
        """The table as Rich prints it ``width`` wide, when it fits at natural width and
        :func:`~fairshare_cli.render.fit_plain.table_lines` can draw it; else ``None``."""
        headers = [name for name, _ in self.columns]
        numeric = [num for _, num in self.columns]
        layout = plan(headers, numeric, self.rows, width)
        if layout.compact:
            return None
        if len(self.title) <= layout.width:
            return table_lines(self.title, layout.headers, numeric, self.rows, layout.widths)
        lines = table_lines("", layout.headers, numeric, self.rows, layout.widths)
        return None if lines is None or not plain_text(self.title) else f"{self.title}\n{lines}"

    def __rich_console__(self, console: Any, options: Any) -> Iterator[Any]:
        headers = [name for name, _ in self.columns]
        numeric = [num for _, num in self.columns]
        layout = plan(headers, numeric, self.rows, options.max_width)
        if layout.stacked:
            from rich.text import Text

            head, body = stacked_lines(headers, numeric, self.rows, layout)
            if self.title:  # (styled as Rich styles a table's title and heading)
                yield Text(self.title, style="table.title", no_wrap=True, overflow="ignore")
            yield Text("\n".join(head), style="table.header", no_wrap=True, overflow="ignore")
            yield Text("\n".join(body), no_wrap=True, overflow="ignore")
            return
        need = layout.width
        titled = len(self.title) <= need  # (a longer title is a line of its own: not folded)
        if not titled:
            from rich.text import Text

            yield Text(self.title, no_wrap=True, overflow="ignore")
        table = self.build(options.max_width, titled)
        yield from console.render(table, options.update_width(max(need, options.max_width)))


def printed(objects: Sequence[Any], width: int) -> str | None:
    """What ``Console.print(*objects)`` writes, for a ``FitTable`` or plain strings that
    fit ``width``; ``None`` for anything else."""
    if not objects:
        return "\n"
    if len(objects) == 1 and isinstance(objects[0], FitTable):
        return objects[0].plain(width)
    if len(objects) == 1 and type(objects[0]) is str:
        line = objects[0]
        if len(line) <= width and plain_text(line) and not line.endswith(" "):
            return line + "\n"
    return None
