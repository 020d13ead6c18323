"""The plain-text fast path of :mod:`fairshare_cli.render.fit` (benchmark row
``negotiate-batches``: drawing the tables through Rich cost ~0.3 s of 2 s at 1M jobs).

A table that fits its width without folding, printed where Rich would emit no colour and
no markup or emoji would change its text, is written here with ``str`` methods, byte for
byte as Rich draws it (``tests/render/test_fit_plain.py`` compares the two). Anything
else returns ``None`` and goes to Rich.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO

#: Rich's ``HEAVY_HEAD`` box, as a table with ``show_edge=False`` draws it.
_HEAD_BAR, _HEAD_RULE, _HEAD_CROSS, _ROW_BAR = "┃", "━", "╇", "│"


def plain_output(out: TextIO) -> bool:
    """Whether Rich would print to ``out`` without colour or styles, in UTF-8 (its box
    characters unchanged): not a terminal, nothing in the environment forcing one."""
    if sys.platform == "win32" or "ipykernel" in sys.modules:
        return False
    env = os.environ
    if "FORCE_COLOR" in env or "TTY_COMPATIBLE" in env:
        return False
    encoding = (getattr(out, "encoding", "utf-8") or "utf-8").lower()
    if not encoding.startswith("utf"):
        return False
    isatty = getattr(out, "isatty", None)
    try:
        return isatty is not None and not isatty()
    except ValueError:
        return False


def plain_text(text: str) -> bool:
    """Text Rich prints as it is: printable ASCII (or ``…``), no ``[`` (markup) and at
    most one ``:`` (an emoji code needs two)."""
    if not text.isprintable() or "[" in text:
        return False
    if not text.isascii() and not text.replace("…", "").isascii():
        return False
    return text.count(":") < 2


def table_lines(
    title: str,
    headers: Sequence[str],
    numeric: Sequence[bool],
    rows: Sequence[Sequence[str]],
    widths: Sequence[int],
) -> str | None:
    """The table drawn at ``widths`` (natural widths: every cell fits on one line), as
    Rich draws ``FitTable.build``'s table; ``None`` when that is not certain."""
    n = len(widths)
    if n == 0 or min(widths) < 1:
        return None
    if not all(plain_text(h) and not h.endswith(" ") for h in headers):
        return None
    if title and not plain_text(title):
        return None
    for row in rows:
        for cell in row:
            if not plain_text(cell) or (cell.endswith(" ") and cell.strip()):
                return None
    total = sum(widths) + 3 * (n - 1)
    if len(title) > total:
        return None
    last = n - 1
    just = [str.rjust if num else str.ljust for num in numeric]
    out: list[str] = []
    if title:
        out.append(title.ljust(total))
    out.append(f" {_HEAD_BAR} ".join(just[k](headers[k], widths[k]) for k in range(n)))
    out.append(
        _HEAD_CROSS.join(
            _HEAD_RULE * (w + (1 if k in (0, last) else 2)) if n > 1 else _HEAD_RULE * w
            for k, w in enumerate(widths)
        )
    )
    sep = f" {_ROW_BAR} "
    for row in rows:
        out.append(sep.join(just[k](row[k], widths[k]) for k in range(n)))
    out.append("")
    return "\n".join(out)
