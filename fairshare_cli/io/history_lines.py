"""A usage history's records refused by the import's time (``--now``) or by a model, named
by their line."""

from __future__ import annotations

import contextlib
import csv
from collections.abc import Callable, Iterable, Iterator
from operator import attrgetter

from fairshare_cli.core.operations.import_usage import RefusedRecord
from fairshare_cli.core.usage import UsageRecord
from fairshare_cli.errors import InputError
from fairshare_cli.io.condor_history import read_condor_history
from fairshare_cli.io.history import _exact_record, _sniff, read_records
from fairshare_cli.io.inputs import open_input

_START = attrgetter("start")
_END = attrgetter("end")


def refuse_after_now(
    batches: Iterable[list[UsageRecord]], now: float, path: str, fmt: str, label: str
) -> Iterator[list[UsageRecord]]:
    """``batches`` (a history file's records in file order) as they are, refusing the first
    record that starts or ends after ``now``, by its line as every other error of the file
    is named (``history.csv:5: ends after --now ...``), not by its place in the replay;
    the records before it are charged first, so that an earlier record's refusal wins.

    Raises:
        InputError: naming the line (the file at ``path`` read again to find it).
    """
    done = 0
    for batch in batches:
        ends = [end for end in map(_END, batch) if end is not None]
        if max(map(_START, batch)) > now or (ends and max(ends) > now):
            for number, record in enumerate(batch, done + 1):
                problem = _after(record, now)
                if problem is not None:
                    if number > done + 1:  # the records before it first (their refusals win)
                        yield batch[: number - done - 1]
                    line = _line_of_record(path, fmt, number)
                    raise InputError(f"{label}:{line}: {problem}")
        done += len(batch)
        yield batch


@contextlib.contextmanager
def by_line(line_of: Callable[[UsageRecord], int | None] | None, label: str) -> Iterator[None]:
    """A record a model refuses (an unknown QOS, a start before its submitter's last
    update) named by the line of its file (``line_of``: the line a record is on), as the
    reader names its own errors (``history.csv:5: unknown QOS "x"``), not by its place in
    the replay (``record 1``, counted in start order); as it is when ``line_of`` is None
    (or finds none).

    Raises:
        InputError: naming the line.
    """
    try:
        yield
    except RefusedRecord as exc:
        line = None if line_of is None else line_of(exc.record)
        if line is None:
            raise
        raise InputError(f"{label}:{line}: {exc.problem}") from None


def history_line(path: str, fmt: str) -> Callable[[UsageRecord], int]:
    """The line a record of the history file at ``path`` (format ``fmt``) is on: the file
    read again to find it (a refusal's, once)."""

    def line_of(record: UsageRecord) -> int:
        number = next((n for n, r in enumerate(read_records(path, fmt), 1) if r == record), 1)
        return _line_of_record(path, fmt, number)

    return line_of


def condor_history_line(path: str) -> Callable[[UsageRecord], int | None]:
    """The line a record's ad starts on in the ``condor_history`` output at ``path``: the
    file read again to find it (a refusal's, once)."""

    def line_of(record: UsageRecord) -> int | None:
        lines: list[int] = []
        for number, found in enumerate(read_condor_history(path, lines=lines)):
            if found == record:
                return lines[number]
        return None

    return line_of


def _after(record: UsageRecord, now: float) -> str | None:
    """What of ``record`` lies after ``now`` (None: nothing), as the accountant's replay
    words it (:func:`~fairshare_cli.core.htcondor.replay.admit_record`)."""
    if record.start > now:
        return "starts after --now"
    if record.end is not None and record.end > now:
        return "ends after --now (give a later --now, or end = null for work still running)"
    return None


def _line_of_record(path: str, fmt: str, number: int) -> int:
    """The line the ``number``-th record (from 1) of the history file at ``path`` ends on:
    a CSV row's last line; a JSON line past the blank and comment lines the reader skips."""
    fh = open_input(path)
    try:
        kind, stream = _sniff(fh, path, fmt)
        if kind == "csv":
            reader = csv.DictReader(stream)
            for _ in zip(range(number), reader, strict=False):
                pass
            return reader.line_num
        count = 0
        for line, text in enumerate(stream, 1):
            count += _exact_record(text, path, line) is not None
            if count == number:
                return line
        return line  # (not reached: the record was read from this file)
    finally:
        fh.close()
