"""A JSON list of objects cut in two at a boundary between two of its elements: two JSON
lists, read by two processes (``fs sprio``, ``fs taskqueues``).

The cut is at a comma between a ``}`` and a ``{"`` (JSON's blanks between). Inside a
string, the ``"`` after the ``{`` would end it: a cut there puts the comma in the string,
and the first part's string is left unclosed (an error when it is decoded); a cut in a
nested list leaves an object unclosed. So where both parts decode, they are the list's
elements, cut between two of them. The first part ends at the comma, made a ``]``; the
second starts there, made a ``[``: in a process's own copy of the bytes, never in the file.
"""

from __future__ import annotations

import os
import re
from typing import Any

#: Where one object of a list ends and the next starts (the group: the comma).
BOUNDARY = re.compile(rb"\}[ \t\r\n]*(,)[ \t\r\n]*\{[ \t\r\n]*\"")

#: Bytes read after the cut's place to find a boundary there (an element longer than
#: this is not cut).
WINDOW = 1 << 20


def comma_in(data: Any, start: int) -> int | None:
    """The offset of the first boundary comma in ``data`` (bytes, or a mapping) at or past
    ``start``; None when there is none."""
    found = BOUNDARY.search(data, start)
    return None if found is None else found.start(1)


def comma_in_file(fd: int, size: int, share: float) -> int | None:
    """The offset of the first boundary comma past ``share`` of the file ``fd`` (of
    ``size`` bytes), found within :data:`WINDOW` bytes; None when there is none."""
    start = int(size * share)
    window = os.pread(fd, WINDOW, start)
    found = BOUNDARY.search(window)
    return None if found is None else start + found.start(1)


class HalfReader:
    """A binary reader of one part of a file cut at ``comma``: the ``first`` part (the
    bytes up to the comma, which reads ``]``) or the second (from the comma, which reads
    ``[``, to the end). Reads with ``pread``, so it shares the descriptor's file with
    nothing (a forked process may read the other part from the same descriptor)."""

    def __init__(self, fd: int, size: int, comma: int, first: bool) -> None:
        self.fd = fd
        self.comma = comma
        self.byte = ord("]" if first else "[")
        self.pos, self.end = (0, comma + 1) if first else (comma, size)

    def readinto(self, buffer: Any) -> int:
        """Fill ``buffer`` with the next bytes of the part; 0 at its end."""
        view = memoryview(buffer)
        wanted = min(len(view), self.end - self.pos)
        if wanted <= 0:
            return 0
        data = os.pread(self.fd, wanted, self.pos)
        got = len(data)
        view[:got] = data
        if self.pos <= self.comma < self.pos + got:
            view[self.comma - self.pos] = self.byte
        self.pos += got
        return got
