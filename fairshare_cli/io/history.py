"""Stream usage-history records from CSV or JSON-lines files (or stdin), one at a time."""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from fairshare_cli.core.usage import UsageRecord, parse_record
from fairshare_cli.errors import InputError
from fairshare_cli.io.inputs import JSONFault, loads_line, not_utf8, open_input, read_json

FORMATS = ("auto", "csv", "jsonl")


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
    name = label or path
    fh = open_input(path)
    try:
        kind, stream = _sniff(fh, path, fmt)
        if kind == "csv":
            yield from _csv_records(stream, name)
        else:
            yield from _jsonl_records(stream, name)
    except UnicodeDecodeError as exc:
        raise not_utf8(name, exc) from None
    finally:
        if fh is not sys.stdin:
            fh.close()


def _csv_records(stream: Any, path: str) -> Iterator[UsageRecord]:
    reader = csv.DictReader(stream)
    try:
        for row in reader:
            yield parse_record(row, f"{path} line {reader.line_num}")
    except csv.Error as exc:
        raise InputError(f"{path} line {reader.line_num}: not valid CSV: {exc}") from None


def _jsonl_records(stream: Any, path: str) -> Iterator[UsageRecord]:
    lineno = 0
    for line in stream:
        lineno += 1
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if lineno == 1 and text.startswith("["):
            raise InputError(
                f"{path}: expected JSON lines (one record object per line), not a JSON array"
            )
        try:
            obj = loads_line(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path} line {lineno}: not valid JSON: {exc.msg}") from None
        except (ValueError, RecursionError) as exc:  # a huge integer, too deep a nesting
            raise InputError(f"{path} line {lineno}: not valid JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise InputError(f"{path} line {lineno}: expected a record object")
        yield parse_record(obj, f"{path} line {lineno}")


def read_condor_history(path: str, label: str | None = None) -> Iterator[UsageRecord]:
    """Records from ``condor_history -json`` output (a JSON array of job ads).

    Raises:
        InputError: not a JSON array of objects.
    """
    from fairshare_cli.core.htcondor.replay import record_from_condor_ad

    name = label or path
    try:
        ads = read_json(path, name)
    except JSONFault as fault:
        at = name if fault.line is None else f"{name} line {fault.line}"
        raise InputError(f"{at}: not valid JSON: {fault.reason}") from None
    if isinstance(ads, dict):
        ads = [ads]
    if not isinstance(ads, list):
        raise InputError(f"{name}: expected the JSON array that condor_history -json prints")
    for i, ad in enumerate(ads):
        if not isinstance(ad, dict):
            raise InputError(f"{name}: ad {i + 1}: expected a job ad object")
        rec = record_from_condor_ad(ad, f"{name}: ad {i + 1}")
        if rec is not None:
            yield rec
