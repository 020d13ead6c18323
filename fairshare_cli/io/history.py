"""The reader of usage history: CSV or JSON-lines files (or stdin) and ``condor_history``
output, streamed into :class:`~fairshare_cli.core.usage.UsageRecord` a batch at a time.

Every record is made by :func:`~fairshare_cli.core.usage.parse_record` (the exact parser,
which words every error) or, for JSON lines it surely accepts, by the typed decoder and the
per-column check of :func:`~fairshare_cli.core.usage_lines.records_of_columns` (the same
records, read once).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from itertools import chain, compress, islice
from pathlib import Path
from typing import IO, Any

import msgspec
from msgspec import UNSET, UnsetType
from msgspec.structs import astuple

from fairshare_cli.core.limits import TIME_MAX
from fairshare_cli.core.usage import (
    BATCH,
    Batches,
    UsageRecord,
    batches_of,
    check_header,
    parse_record,
    refuse_byte_order_mark,
)
from fairshare_cli.core.usage_lines import records_of_columns
from fairshare_cli.errors import EmptyInput, InputError, decoder_fault
from fairshare_cli.io.importers.classad_dumps import (
    Expr,
    iter_ads,
    open_dump,
    other_dump,
    refuse_nonfinite,
)
from fairshare_cli.io.inputs import fast_loads, not_utf8, open_input
from fairshare_cli.io.json_keys import DuplicateKey, RepeatedKeys, surely_distinct

FORMATS = ("auto", "csv", "jsonl")
#: What a usage history holds, as a refusal of another input names it.
HISTORY_TEXT = "a usage history: CSV with a header line, or JSON lines"
#: What a usage history file holds, as its refusals say.
_EXPECTED = "expected a usage history (CSV with a header line, or JSON lines)"
#: How the first line of another tool's dump begins, and the import that reads it: such a
#: dump handed to ``fs import history`` is named (its header is no usage history's).
_OTHER_DUMPS = (
    (re.compile(r"\s*JobID(Raw)?(\||\s|$)"), "sacct output, which fs import sacct charges"),
    (re.compile(r"JobId=\d"), "scontrol show jobs output, which fs import squeue reads"),
    (
        re.compile(r"\s*Account(\||\s+)User(\||\s+)RawShares"),
        "sshare output, which fs import sshare reads",
    ),
    (
        re.compile(r"[A-Za-z_][A-Za-z0-9_]* = \S"),
        "HTCondor's -long output (Attr = value lines): condor_history's is charged by fs "
        "import condor-history",
    ),
)


def _refuse_other_dump(names: Sequence[str], path: str) -> None:
    """Refuse a CSV header line that begins as another tool's dump does, naming its import.

    Raises:
        InputError: ``names`` (the first line, split at commas) is such a line.
    """
    line = ",".join(names)
    for start, dump in _OTHER_DUMPS:
        if start.match(line):
            raise InputError(f"{path}:1: this is {dump}; {_EXPECTED}")


def _sniff(fh: IO[str], path: str, fmt: str) -> tuple[str, IO[str]]:
    if fmt != "auto":
        return fmt, fh
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        return "csv", fh
    if suffix in (".json", ".jsonl", ".ndjson"):
        return "jsonl", fh
    head = fh.read(4096)
    rest = io.StringIO(head)
    first = head.lstrip()[:1]

    class Chained:
        """The sniffed head, then the rest of the stream, line by line."""

        def __init__(self) -> None:
            self.parts: list[Any] = [rest, fh]

        def readline(self) -> str:
            while self.parts:
                line = str(self.parts[0].readline())
                if line:
                    if not line.endswith("\n") and self.parts[0] is rest and len(self.parts) > 1:
                        line += self.parts[1].readline()
                    return line
                self.parts.pop(0)
            return ""

        def __iter__(self) -> Chained:
            return self

        def __next__(self) -> str:
            line = self.readline()
            if not line:
                raise StopIteration
            return line

    return ("jsonl" if first in ("{", "[") else "csv"), Chained()  # type: ignore[return-value]


def read_records(path: str, fmt: str = "auto", label: str | None = None) -> Iterator[UsageRecord]:
    """Yield records one by one; memory stays flat however long the file.

    ``label`` names the input in errors (default: ``path``; ``-`` when spooled from stdin).

    Raises:
        InputError: naming the file and line of the first bad record.
    """
    for batch in read_record_batches(path, fmt, label):
        yield from batch


def read_records_batched(path: str, fmt: str = "auto", label: str | None = None) -> Batches:
    """:func:`read_records` a list at a time (:class:`~fairshare_cli.core.usage.Batches`)."""
    return Batches(read_record_batches(path, fmt, label))


def read_record_batches(
    path: str, fmt: str = "auto", label: str | None = None
) -> Generator[list[UsageRecord], None, None]:
    """The records of :func:`read_records` in lists (each non-empty, in file order).

    Raises:
        InputError: naming the file and line of the first bad record.
    """
    name = label or path
    fh = open_input(path)
    try:
        kind, stream = _sniff(fh, path, fmt)
        if kind == "csv":
            yield from batches_of(_csv_records(stream, name))
        else:
            yield from _jsonl_batches(_not_blank(stream, name), name)
    except UnicodeDecodeError as exc:
        raise not_utf8(name, exc) from None
    finally:
        if fh is not sys.stdin:
            fh.close()


def _not_blank(stream: Any, path: str) -> Iterator[str]:
    """The lines of ``stream`` (JSON lines), read on to the first that is not blank.

    Raises:
        InputError: none is (an empty file).
    """
    head: list[str] = []
    for line in stream:
        head.append(line)
        if not line.isspace():
            return chain(head, stream)
    raise EmptyInput(f"{path}: empty; {_EXPECTED}")


def _csv_records(stream: Any, path: str) -> Iterator[UsageRecord]:
    reader = csv.DictReader(stream)
    try:
        if reader.fieldnames is None:  # (reads the header) no line at all
            raise EmptyInput(f"{path}: empty; {_EXPECTED}")
        if not "".join(reader.fieldnames).strip():  # (no field, or blanks only: '   ')
            raise InputError(f"{path}:1: blank; expected the header line (field names)")
        _refuse_other_dump(reader.fieldnames, path)
        check_header(reader.fieldnames, f"{path}:{reader.line_num}")
        width = len(reader.fieldnames)
        for row in reader:
            if None in row.values():  # (DictReader's value of a column the line lacks)
                raise InputError(_short_line(path, reader.line_num, row, width))
            yield parse_record(row, f"{path}:{reader.line_num}")
    except csv.Error as exc:  # (the csv reader's count: DictReader's lags the bad line)
        raise InputError(f"{path}:{reader.reader.line_num}: not valid CSV: {exc}") from None


def _short_line(path: str, line: int, row: dict[Any, Any], width: int) -> str:
    """What is wrong with a CSV line of fewer values than the header has columns: a line
    cut short (a copy stopped, a full disk), whose missing ``end`` would read as work still
    running at ``--now``."""
    got = sum(value is not None for value in row.values())
    return (
        f"{path}:{line}: fewer values than header columns ({got} of {width}); a line "
        "cut short? (a missing end would be work still running); fix or remove the line"
    )


class _Line(msgspec.Struct, forbid_unknown_fields=True, gc=False, kw_only=True):
    """A record line as most are: names and times as strings, counts as integers (the
    fields in :data:`~fairshare_cli.core.usage_lines.LINE_FIELDS`' order: msgspec looks for a
    key first at the field after the last one found, so keys in this order are found at
    once, as ``benchmarks/run.py --rows import``'s are). A field whose key the line does
    not give is ``UNSET``, so that the keys it gives are known (:func:`_records_of_rows`)."""

    owner: str
    accounting_group: str | UnsetType | None = UNSET
    account: str | UnsetType | None = UNSET
    partition: str | UnsetType | None = UNSET
    qos: str | UnsetType | None = UNSET
    dirac_group: str | UnsetType | None = UNSET
    start: str
    end: str | UnsetType | None = UNSET
    slots: int | UnsetType = UNSET
    cpus: int | UnsetType = UNSET
    nice_user: bool | UnsetType = UNSET
    tres: str | UnsetType | None = UNSET


_decode_line = msgspec.json.Decoder(_Line).decode

#: Lines of a refused piece of a batch that the exact parser reads (below this, the fast
#: check does not cut the piece in two again).
_PIECE = 256


def _records_of_rows(
    rows: Sequence[tuple[Any, ...]], lines: Sequence[str]
) -> list[UsageRecord] | None:
    """:func:`~fairshare_cli.core.usage_lines.records_of_columns` of the typed ``rows`` of
    ``lines``, given their quotes: None also when a line may give a key twice (msgspec kept
    its last value; the exact parser refuses it). One count of the lines' quotes: some 1 %
    of ``benchmarks/run.py --rows import``'s CPU."""
    if not rows:
        return []
    columns = list(zip(*rows, strict=True))
    return records_of_columns(columns, UNSET, "".join(lines).count('"'))


def _jsonl_batches(stream: Any, path: str) -> Iterator[list[UsageRecord]]:
    """Records of JSON lines, :data:`~fairshare_cli.core.usage.BATCH` lines at a time.

    Each line is read once. The typed decoder (:class:`_Line`) reads every line and
    :func:`_records_of_rows` checks the batch per column; a line the decoder refuses (a comment, a
    blank line, another type) and a piece of the batch the check refuses (a time or a name
    to check in full, a line that may give a key twice) go to the exact parser
    (:func:`_exact_record`), which gives the record or words the error, naming its line.
    Records come in file order; those before a bad line first. A measured hot path
    (``benchmarks/run.py --rows import``).
    """
    done = 0
    while lines := list(islice(stream, BATCH)):
        rows: list[tuple[Any, ...] | None] = []
        more = map(astuple, map(_decode_line, lines))  # (in LINE_FIELDS' order)
        refused = False
        while True:
            try:
                rows.extend(more)  # (keeps the rows before a line the decoder refuses)
                break
            except msgspec.DecodeError:
                rows.append(None)
                refused = True
        if not refused:
            made = _records_of_rows(rows, lines)  # type: ignore[arg-type]
            if made is not None:
                done += len(lines)
                yield made
                continue
        batch: list[UsageRecord] = []
        try:
            for k, record in enumerate(_checked(rows, lines, tried=not refused)):
                if record is None:
                    record = _exact_record(lines[k], path, done + k + 1)
                if record is not None:
                    batch.append(record)
        except InputError:
            if batch:  # the records before the bad line first
                yield batch
            raise
        done += len(lines)
        if batch:
            yield batch


def _checked(
    rows: list[tuple[Any, ...] | None], lines: list[str], tried: bool = False
) -> list[UsageRecord | None]:
    """The record of each decoded row the fast check accepts, None for the others (and for
    the lines the decoder refused): a piece refused is cut in two and each half checked
    again, down to :data:`_PIECE` rows. ``tried``: the check refused ``rows`` whole."""
    if None in rows:  # (lines the decoder refused: the others checked without them)
        given = [row is not None for row in rows]
        made = iter(_checked(list(compress(rows, given)), list(compress(lines, given))))
        return [None if row is None else next(made) for row in rows]
    records = None if tried else _records_of_rows(rows, lines)  # type: ignore[arg-type]
    if records is not None:
        return list(records)
    if len(rows) <= _PIECE:
        return [None] * len(rows)
    half = len(rows) // 2
    return _checked(rows[:half], lines[:half]) + _checked(rows[half:], lines[half:])


def _exact_record(line: str, path: str, lineno: int) -> UsageRecord | None:
    """The record of one JSON line by :func:`~fairshare_cli.core.usage.parse_record` (None:
    a blank or comment line).

    Raises:
        InputError: naming the line and what is wrong with it.
    """
    if lineno == 1:
        refuse_byte_order_mark(line, f"{path}:1")
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    if lineno == 1 and text.startswith("["):
        raise InputError(
            f"{path}: expected a usage history in JSON lines (one record per line), "
            "not a JSON array"
        )
    try:
        obj = fast_loads(text, None)  # (never None for a record: msgspec refused it)
        if obj is None or not surely_distinct(text, obj):  # (then a key twice, maybe)
            repeats = RepeatedKeys()
            obj = json.loads(text, object_pairs_hook=repeats)
            repeats.refuse(obj)
    except DuplicateKey as exc:
        raise InputError(f"{path}:{lineno}: {exc}; give each key once") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{lineno}: not valid JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:  # a huge integer, too deep a nesting
        raise InputError(f"{path}:{lineno}: not valid JSON: {decoder_fault(exc)}") from None
    if not isinstance(obj, dict):
        raise InputError(f"{path}:{lineno}: expected a record object")
    return parse_record(obj, f"{path}:{lineno}")


#: The job attributes a usage record is made of (``record_from_condor_ad``).
HISTORY_ATTRS = (
    "JobCurrentStartDate",
    "JobStartDate",
    "CompletionDate",
    "EnteredCurrentStatus",
    "User",
    "Owner",
    "AccountingGroup",
    "NiceUser",
    "JobStatus",
    "RequestCpus",
)


#: The time attributes of :data:`HISTORY_ATTRS`: epoch seconds (``time_t``), 0 when unset.
_TIMES = ("JobCurrentStartDate", "JobStartDate", "CompletionDate", "EnteredCurrentStatus")
_TIMES_SET = frozenset(_TIMES)
#: The ``JobStatus`` values of a job still in the queue, which a history never holds.
_QUEUED_NAMES = {1: "idle", 2: "running", 5: "held", 6: "transferring output", 7: "suspended"}
_QUEUED = frozenset(_QUEUED_NAMES)
_NUMBERS = (int, float)


class _Counted:
    """A text stream that reports the fraction of ``size`` read so far."""

    def __init__(self, fh: IO[str], size: int, report: Callable[[float], None]) -> None:
        self.fh, self.size, self.report, self.done = fh, max(size, 1), report, 0

    def read(self, n: int = -1) -> str:
        data = self.fh.read(n)
        self.done += len(data)
        self.report(self.done / self.size)
        return data

    def readline(self) -> str:
        line = self.fh.readline()
        self.done += len(line)
        return line

    def __iter__(self) -> Iterator[str]:
        for line in self.fh:
            self.done += len(line)
            yield line


def read_condor_history(
    path: str, label: str | None = None, progress: Callable[[float], None] | None = None
) -> Iterator[UsageRecord]:
    """Records from ``condor_history -json`` or ``-long`` output, streamed ad by ad.

    Memory stays flat however long the file: ads are read one at a time (JSON in chunks).
    An attribute that is an expression rather than a value counts as absent, except a real
    that is not finite (``real("INF")``): refused.

    Raises:
        InputError: ``FILE:LINE`` of the first malformed line or ad, or no ad at all.
    """
    from fairshare_cli.core.htcondor.replay import record_from_condor_ad

    name = label or path
    line = 0
    with open_dump(path) as fh:
        stream: Any = fh if progress is None else _Counted(fh, _size(path), progress)
        for line, ad in iter_ads(stream, name, False, "condor_history -json or -long output"):
            # (the hot loop of benchmarks/make_condor_history.py's 1 GB file: no calls)
            get = ad.get
            if "Owner" not in ad and "User" not in ad:  # (a slot ad, a jobs file)
                raise InputError(
                    f"{name}:{line}: expected a job ad (with Owner or User)"
                    + (other_dump(ad, "job") or "; is this condor_history -json or -long output?")
                )
            picked = {}
            for key in HISTORY_ATTRS:
                v = get(key)
                if v is None:
                    continue
                if v.__class__ is Expr or (v.__class__ is str and v.startswith("/Expr(")):
                    _refuse_nonfinite(ad, key, v, f"{name}:{line}")
                    continue
                picked[key] = v
            for key in _TIMES:  # epoch seconds of a real date, or 0 (not yet)
                v = picked.get(key)
                if v is not None and v.__class__ in _NUMBERS and not 0 <= v <= TIME_MAX:
                    raise InputError(
                        f"{name}:{line}: {key}: expected epoch seconds between 0 and "
                        f"{TIME_MAX:.0f} (the year 9999), got {v!r}"
                    )
            if "JobStatus" not in picked and not picked.keys() & _TIMES_SET:
                raise InputError(  # (an ad of another kind that names an Owner)
                    f"{name}:{line}: expected a job ad (with JobStatus, JobCurrentStartDate, "
                    "CompletionDate or EnteredCurrentStatus); is this condor_history -json "
                    "or -long output?"
                )
            status = picked.get("JobStatus")
            if status.__class__ is int and status in _QUEUED:  # (a list: no status, unhashed)
                _refuse_a_queued_ad(ad, name, line)
            rec = record_from_condor_ad(picked, f"{name}:{line}")
            if rec is not None:
                yield rec
    if not line and not _json_list(path):  # (no ad: a capture that failed)
        raise EmptyInput(f"{name}: no job ads; expected condor_history -json or -long output")


def _refuse_nonfinite(ad: Any, key: str, value: Any, where: str) -> None:
    """Refuse ``real("NaN")``, ``real("INF")`` or ``real("-INF")`` as ``key``: a number
    HTCondor holds but no usage can be counted from; any other expression counts as absent.

    Raises:
        InputError: naming ``where``, the job and ``key``.
    """
    job = f"job {ad.get('ClusterId')}.{ad.get('ProcId')}" if "ClusterId" in ad else "the job"
    refuse_nonfinite(where, job, key, value)


def _json_list(path: str) -> bool:
    """Whether ``path``, read whole and holding no ad, is a JSON list: ``condor_history
    -json`` prints ``[`` and ``]`` round its ads even when no job matched (``printHeader``,
    ``printFooter``), a history of no work; an empty file is a capture that failed."""
    if path == "-":  # (read once; fs import condor-history spools stdin to a file first)
        return False
    with open_dump(path) as fh:
        return fh.read(4096).lstrip()[:1] == "["


def _refuse_a_queued_ad(ad: Any, name: str, line: int) -> None:
    """Refuse a job ad still in the queue: a history holds none.

    A job leaves the schedd's queue for its history only as completed (4) or removed (3)
    (``DestroyProc`` refuses any other ``JobStatus``), and the startd's history records the
    same two; ``condor_q`` lists idle, running, held, ... jobs (and, with ``leave_in_queue``,
    completed ones that have not left yet), whose running ones ``fs import condor-q`` brings
    in as claims. Charged here as open usage as well, they would count twice; and a
    completed job still in the queue would count again when it reaches the history.
    """
    status = ad.get("JobStatus")
    job = f"job {ad.get('ClusterId')}.{ad.get('ProcId')}" if "ClusterId" in ad else "the job"
    raise InputError(
        f"{name}:{line}: {job} is still in the queue (JobStatus {status}, "
        f"{_QUEUED_NAMES[status]}); a history holds only jobs that left it, completed (4) or "
        "removed (3); is this condor_q output? use fs import condor-q for the queue"
    )


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
