"""The reader of usage history: CSV or JSON-lines files (or stdin), streamed into
:class:`~fairshare_cli.core.usage.UsageRecord` a batch at a time (``condor_history``
output: :mod:`fairshare_cli.io.condor_history`).

Every record is made by :func:`~fairshare_cli.core.usage.parse_record` (the exact parser,
which words every error) or, for JSON lines it surely accepts, by the typed decoder and the
per-column check of :func:`~fairshare_cli.core.usage_lines.records_of_columns` (the same
records, read once).
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from collections.abc import Generator, Iterator, Sequence
from functools import partial
from itertools import chain, compress, islice
from pathlib import Path
from typing import IO, Any

import msgspec
from msgspec import UNSET, UnsetType
from msgspec.structs import astuple

from fairshare_cli.core.limits import MAX_LINE
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
from fairshare_cli.io.inputs import fast_loads, long_line, not_utf8, open_input
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

        def readline(self, size: int = -1) -> str:
            while self.parts:
                line = str(self.parts[0].readline(size))
                if line:
                    if not line.endswith("\n") and self.parts[0] is rest and len(self.parts) > 1:
                        line += self.parts[1].readline(size - len(line) if size >= 0 else -1)
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
        kind, whole = _sniff(fh, path, fmt)
        stream = _cut_lines(whole, name)
        if kind == "csv":
            yield from batches_of(_csv_records(stream, name))
        else:
            yield from _jsonl_batches(_not_blank(stream, name), name)
    except UnicodeDecodeError as exc:
        raise not_utf8(name, exc) from None
    finally:
        if fh is not sys.stdin:
            fh.close()


def _cut_lines(stream: IO[str], name: str) -> Iterator[str]:
    """``stream``'s lines; one longer than :data:`~fairshare_cli.core.limits.MAX_LINE` is
    refused once that much of it is read, not held whole (``head -3 h.csv > x; truncate -s
    2G x`` reached 4 GB of memory before its NUL bytes were refused)."""
    lines = iter(partial(stream.readline, MAX_LINE + 1), "")
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            raise long_line(name, number, HISTORY_TEXT)
        yield line


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
    if lineno == 1 and (text.startswith("[") or text == "{"):
        raise InputError(
            f"{path}: expected a usage history in JSON lines (one record per line), not "
            f"{'a JSON array' if text.startswith('[') else 'one JSON object over several lines'}"
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
