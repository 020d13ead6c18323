"""Where a ``scontrol show jobs`` record's fields are: its lines before the node layout and
free text, its first line without the job's name (free text), in the usual dump and in
``scontrol -o show jobs`` (one line a job, each field after a blank: info_job.c's
``one_liner``); and a record's fields read from them: matched by the pattern of its kind of
record (:class:`RecordKinds`, learnt from the first of a kind), else split into tokens
(:func:`fast_fields`), else read line by line (:func:`exact_fields`, which words a fault).
:mod:`~fairshare_cli.io.importers.scontrol_jobs` builds the jobs from these fields."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import repeat
from operator import itemgetter
from typing import cast

from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.common import given_twice, is_prompt


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


#: One ``Key=Value`` field of a record line.
_FIELD = re.compile(r"([\w/:]+)=(\S*)")
#: The lines whose value is free text (spaces, ``=``): not fields (``src/scontrol/info_job.c``).
_FREE_TEXT = re.compile(
    r"[ \t]*(Command|SubmitLine|WorkDir|AdminComment|SystemComment|Comment|Extra|"
    r"StdErr|StdIn|StdOut)="
)


#: The fields a job is read from (:func:`_scontrol_job`), in the order their values are
#: handed to it; a record's others are not kept.
WANTED = (
    "JobId",
    "UserId",
    "Priority",
    "Nice",
    "Account",
    "QOS",
    "JobState",
    "TimeLimit",
    "SubmitTime",
    "EligibleTime",
    "AccrueTime",
    "StartTime",
    "EndTime",
    "Partition",
    "NumNodes",
    "NumCPUs",
    "SiteFactor",
    "SLUID",
    "TRES",
    "ReqTRES",
    "AllocTRES",
)
#: Where a record's fields end: its node layout.
LAYOUT = "\n   Socks/Node="
#: At most this many kinds of record are learnt from a dump; others are read one by one.
_KINDS = 8
#: Records of no kind learnt, once the kinds are all learnt, that stop the matching.
_MISSES = 256


class RecordKinds:
    """The patterns of the kinds of record of a dump, by the number of lines before the
    node layout (a kind's pattern matches its blanks, newlines too; a free text job name
    has none), in the order learnt. Once :data:`_KINDS` are learnt, :data:`_MISSES`
    records of no kind stop the matching (such a record is read as the first of a kind
    is)."""

    __slots__ = ("count", "misses", "patterns")

    def __init__(self) -> None:
        #: Each kind's pattern, and what picks the :data:`WANTED` values from its groups.
        self.patterns: dict[int, list[tuple[re.Pattern[str], _Picker]]] = {}
        self.count = self.misses = 0

    def values(self, text: str, start: int, cut: int, lines: int) -> tuple[str | None, ...] | None:
        """The :data:`WANTED` values of the record at ``start`` (its node layout at ``cut``,
        after ``lines`` newlines) if it is of a kind learnt."""
        for pattern, pick in self.patterns.get(lines, ()):
            match = pattern.match(text, start, cut)
            if match is not None:
                return pick(match.groups())
        if self.count == _KINDS:
            self.misses += 1
            if self.misses == _MISSES:
                self.patterns.clear()
        return None

    def learn(self, fields: dict[str, str], chunk: str, lines: int) -> None:
        """The kind of a record read from its tokens (``fields``, :func:`fast_fields`),
        its node layout after ``lines`` newlines."""
        if self.count < _KINDS and self.misses < _MISSES:
            pattern = _pattern(fields, chunk)
            if pattern is not None:
                # (a key the kind has not: the group that never takes part, last)
                places = [pattern.groupindex.get(key, pattern.groups) - 1 for key in WANTED]
                pick = cast("_Picker", itemgetter(*places))
                self.patterns.setdefault(lines, []).append((pattern, pick))
                self.count += 1


#: A kind's groups (a match's) -> the :data:`WANTED` values.
_Picker = Callable[[tuple[str | None, ...]], tuple[str | None, ...]]


def _pattern(fields: dict[str, str], chunk: str) -> re.Pattern[str] | None:
    """What a record of the same kind as ``chunk`` matches up to its node layout, read as
    :func:`fast_fields` reads it: the keys of its ``fields`` in order, each token ``Key=``
    and a value (the :data:`WANTED` ones named), the blanks of ``chunk`` between them (the
    same text: a literal matches faster than any blank, and a record spaced otherwise is
    read as one of no kind is); the first line's tokens, then the ``JobName=`` that ends it
    (free text, dropped) if ``chunk``'s has one; last, a group that never takes part. None
    if ``chunk`` itself does not match it. A value never gives back what it took (a
    possessive ``*+``: the blank or the end that follows could not match it)."""
    first = chunk[: chunk.find("\n")]
    name = first.find(" JobName=")
    on_first = len((first[:name] if name >= 0 else first).split())
    line_end = (r" JobName=[^\n]*+" if name >= 0 else "") + r"(?=\n|\Z)"
    head = (first[:name] if name >= 0 else first) + chunk[len(first) : chunk.find(LAYOUT)]
    blanks = re.findall(r"(\s*)\S+", head)  # (the blanks before each token: "" first)
    if len(blanks) != len(fields):
        return None
    parts = []
    for i, key in enumerate(fields):
        if i == on_first:
            parts.append(line_end)
        value = rf"(?P<{key}>\S*+)" if key in WANTED else r"\S*+"
        parts.append(rf"{re.escape(blanks[i])}{re.escape(key)}={value}")
    if on_first == len(fields):
        parts.append(line_end)
    pattern = re.compile("".join(parts) + r"((?!))?\s*\Z")
    return pattern if pattern.match(chunk, 0, chunk.find(LAYOUT)) else None


def fast_fields(chunk: str) -> dict[str, str] | None:
    """The fields of a plain record (each token ``Key=Value``, no key twice), or None."""
    head = job_lines(chunk)
    newline = head.find("\n")
    first = head if newline < 0 else head[:newline]
    if " JobName=" in first:
        head = without_name(first) + ("" if newline < 0 else head[newline:])
    tokens = head.split()
    try:  # a command line's "$", or any token that is not Key=Value, raises
        # str.split itself, not a methodcaller (which looks "split" up on each token: twice
        # the time, a fifth of the reader's at benchmarks/run.py --rows import-squeue)
        fields = dict(map(str.split, tokens, repeat("="), repeat(1)))
    except ValueError:
        return None
    return fields if len(fields) == len(tokens) else None


def exact_fields(chunk: str, start: int, label: str) -> dict[str, str]:
    """The fields of a record read line by line (each once, as ``info_job.c`` prints them).

    Raises:
        InputError: a line without ``Key=Value`` fields, or a key twice, at ``FILE:LINE``.
    """
    fields: dict[str, str] = {}
    for number, line in enumerate(job_lines(chunk).split("\n"), start):
        if is_prompt(line) or not line.strip() or _FREE_TEXT.match(line):
            continue
        if number == start:
            line = without_name(line)
        if "=" not in line:
            raise InputError(f"{label}:{number}: expected Key=Value fields (scontrol show jobs)")
        for key, value in _FIELD.findall(line):
            if key in fields:  # (the record starts JobId=: fields has it)
                raise given_twice(f"{label}:{number}", key, f"job {fields['JobId']}")
            fields[key] = value
    return fields
