"""What a file given to ``fs import slurm-conf`` is, told from its head: a slurm.conf, or
``scontrol show config`` or ``scontrol show partition`` output; the lines read to tell it
kept for the reading of a slurm.conf that goes on (one reading of the file, not three)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from fairshare_cli.io.importers.common import HEAD_LINES

#: How ``scontrol show config`` output starts (after the command line of a transcript).
SHOW_CONFIG = ("$ scontrol show config", "$ scontrol show conf", "Configuration data as of")


class Head:
    """The lines of a file (``read``: its :func:`~fairshare_cli.io.importers.common.
    text_lines`) read so far to tell what it is, ``kept`` for the reading that goes on: a
    run of blank lines is kept as its first, all a slurm.conf reader makes of one (the
    end of a continued line), so that a file of a million blank lines is not held."""

    def __init__(self, read: Iterator[tuple[int, str]]) -> None:
        self.read = read
        self.kept: list[tuple[int, str]] = []
        self.shown: list[str] = []  # (the lines read that are not blank)

    def upto(self, count: int) -> list[str]:
        """The first ``count`` lines that are not blank (fewer: the file has no more), the
        file read on to the last of them."""
        while len(self.shown) < count and self._take():
            pass
        return self.shown[:count]

    def more(self, count: int) -> None:
        """Read ``count`` more lines (fewer: the file has no more)."""
        for _ in range(count):
            if not self._take():
                return

    def _take(self) -> bool:
        """Read the next line (False: the file has ended)."""
        line = next(self.read, None)
        if line is None:
            return False
        if line[1].strip():
            self.shown.append(line[1])
        elif self.kept and not self.kept[-1][1].strip():
            return True
        self.kept.append(line)
        return True


def told(head: Head) -> str:
    """What the file is: ``"config"`` (its first line that is not blank says it is
    ``scontrol show config`` output; a slurm.conf says nothing before its first
    ``Key=Value`` line), ``"partition"`` (``scontrol show partition`` output: its command
    line, or a ``PartitionName=NAME`` line alone with the partition's fields on indented
    lines after) or ``"conf"``; ``head`` read as far as each needs."""
    first = head.upto(1)
    if first and first[0].startswith(SHOW_CONFIG):
        return "config"
    lines = head.upto(2)
    head.more(HEAD_LINES)  # (binary data further on named first, as before)
    if lines and lines[0].startswith("$ scontrol show part"):
        return "partition"
    named = re.fullmatch(r"PartitionName=\S+\s*", lines[0]) if lines else None
    return "partition" if named and len(lines) > 1 and lines[1][:1].isspace() else "conf"
