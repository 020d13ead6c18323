"""Where a ``scontrol show jobs`` record's fields are: its lines before the node layout and
free text, its first line without the job's name (free text), in the usual dump and in
``scontrol -o show jobs`` (one line a job, each field after a blank: info_job.c's
``one_liner``)."""

from __future__ import annotations


def job_lines(chunk: str) -> str:
    """A record up to its node layout and free text (all of it when it has neither); of
    ``scontrol -o show jobs`` (one line a job, each field after a blank), the same part of
    its line."""
    for mark in ("\n   Socks/Node=", "\n   Command="):
        cut = chunk.find(mark)
        if cut >= 0:
            return chunk[:cut]
    if "\n" not in chunk:
        after = _name_end(chunk)
        for mark in (" Socks/Node=", " Command="):
            cut = chunk.find(mark, after)
            if cut >= 0:
                return chunk[:cut]
    return chunk


#: What follows the job's name, the free text that ends the first line: the next line's
#: first field (``src/scontrol/info_job.c``), on the same line with ``scontrol -o``.
_AFTER_NAME = (" UserId=", " SLUID=", " HetJobIdSet=")


def _name_end(first: str) -> int:
    """Where the ``JobName=`` of a record's first line ends: the line's end, or with
    ``scontrol -o`` the field after it (0 when the line names no job)."""
    name = first.find(" JobName=")
    if name < 0:
        return 0
    ends = [at for at in (first.find(mark, name) for mark in _AFTER_NAME) if at >= 0]
    return min(ends, default=len(first))


def without_name(first: str) -> str:
    """A record's first line without its ``JobName=`` (free text: blanks, ``=``)."""
    name = first.find(" JobName=")
    return first if name < 0 else first[:name] + first[_name_end(first) :]
