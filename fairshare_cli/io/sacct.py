"""Read ``sacct`` output into usage records (``fs import sacct``).

Accepts ``sacct -P`` / ``-p`` output (``|``-separated, a header line of field names) and
also sacct's fixed-width table (header, then a line of dashes giving the columns). Lines
starting with ``$ `` (a captured command line) are skipped. Needed fields: ``JobID``,
``User``, ``Account``, ``Start``, ``End``, and ``AllocCPUS`` (or ``NCPUS``/``ReqCPUS``);
``Partition`` and ``QOS`` are used when present, and ``AllocTRES`` for what a job was
allocated (billed under its partition's ``TRESBillingWeights``). Job steps (``123.batch``)
are skipped, as are jobs that never started. Times without a zone are UTC.
"""

from __future__ import annotations

from typing import IO, NamedTuple

from fairshare_cli.core.epoch import parse_time, utc_text
from fairshare_cli.core.tres import alloc_tres_counts, tres_text
from fairshare_cli.core.usage import UsageRecord, parse_record
from fairshare_cli.errors import EmptyInput, InputError
from fairshare_cli.io.importers.common import column_spans, cut_capture, refuse_bom
from fairshare_cli.io.inputs import bounded_lines, read_text

_NO_TIME = {"", "none", "unknown", "n/a"}
#: What the output should be, in refusals.
_EXPECTED = "sacct -P output (a header line, then jobs)"


def _table_rows(lines: list[str]) -> tuple[list[str], list[list[str]], int]:
    """Header and rows of a fixed-width or ``|``-separated table; returns first data line."""
    header_line = lines[0]
    if "|" in header_line:
        names = header_line.rstrip("|").split("|")
        rows = [line.rstrip("\n").split("|") for line in lines[1:]]
        for row in rows:
            if len(row) == len(names) + 1 and row[-1] == "":
                row.pop()
        return names, rows, 2
    if len(lines) < 2 or set(lines[1].strip()) - {"-", " "}:
        raise InputError(
            "sacct output: expected 'sacct -P' output (a '|'-separated header)"
            " or sacct's table (a header over a line of dashes)"
        )
    spans = column_spans(lines[1].rstrip("\n"))
    names = [header_line[a:b].strip() for a, b in spans]
    rows = [[line[a:b].strip() for a, b in spans] for line in lines[2:]]
    return names, rows, 3


class Allocated(NamedTuple):
    """A job's ``AllocTRES``: the record it made (its index), its id and its TRES counts
    by lower-case name (memory in MB; ``billing`` as slurmctld stored it, truncated)."""

    record: int
    job_id: str
    counts: dict[str, float]


class SacctJobs(NamedTuple):
    """What :func:`read_sacct` reads: the usage records, the line of the file each is on,
    how many lines gave none, and the ``AllocTRES`` of the records' jobs."""

    records: list[UsageRecord]
    lines: list[int]
    skipped: int
    allocated: list[Allocated]


def read_sacct(stream: IO[str], label: str, now: float) -> SacctJobs:
    """Usage records from sacct output as known at ``now``, with the line of the file each
    is on, how many lines gave none (job steps, jobs that never started or start after
    ``now``, jobs with no CPUs), and the ``AllocTRES`` of the records' jobs where the
    output has that column (each such record keeps its job's as its ``tres``, ``billing``
    left out: the weights bill them).

    A job that ends after ``now`` is still running at ``now``; one that starts after it
    is left out, and a dump whose every job does is refused (:func:`_refuse_all_later`).

    Raises:
        InputError: naming the file and line, for a missing field or a bad value; every
            job starting after ``now``.
    """
    text = _judged_text(stream, label)
    refuse_bom(text, label)
    every = text.splitlines()
    if every and every[-1].strip() and not text.endswith(("\n", "\r")):
        raise cut_capture(label, len(every), every[-1], "sacct output")
    numbered = [(k + 1, line) for k, line in enumerate(every) if _listed(line)]
    lines = [line for _, line in numbered]
    if not lines:  # (sacct prints its header even when no job matches)
        raise EmptyInput(f"{label}: empty; expected {_EXPECTED}")
    names, rows, first = _header(lines, label)
    index, cpu_field = _fields(names, label)
    records: list[UsageRecord] = []
    on_line: list[int] = []
    allocated: list[Allocated] = []
    for n, row in enumerate(rows):
        number = numbered[n + first - 1][0]
        where = f"{label}:{number}"  # as numbered in the file
        if len(row) != len(names):
            raise InputError(f"{where}: expected {len(names)} fields, got {len(row)}")
        line = _Row(row, index)
        record = _record(line, cpu_field, where, now)
        if record is not None:
            counts = alloc_tres_counts(line.get("alloctres"), where)
            if counts:  # (kept with the record: a partition's weights bill them)
                record = record._replace(tres=tres_text(counts))
                allocated.append(Allocated(len(records), line.get("jobid"), counts))
            records.append(record)
            on_line.append(number)
    if not records:
        _refuse_all_later(rows, index, now, label)
    return SacctJobs(records, on_line, len(rows) - len(records), allocated)


def _refuse_all_later(rows: list[list[str]], index: dict[str, int], now: float, label: str) -> None:
    """A dump whose every job that started starts after ``now`` (none before it) is read
    at the wrong ``--now`` (a ``FAIRSHARE_NOW`` left set, a time zone): refused, as ``fs
    import history`` refuses such a record, where it imported nothing with exit 0.

    Raises:
        InputError: naming the dump, ``--now`` and its first job's start.
    """
    found = (_start(_Row(row, index), label) for row in rows)
    starts = [start for start in found if start is not None]
    if starts and min(starts) > now:
        raise InputError(
            f"{label}: every job starts after --now ({utc_text(now)}), the first at "
            f"{utc_text(min(starts))}: give a --now no earlier than the dump (is "
            "FAIRSHARE_NOW set?)"
        )


def _header(lines: list[str], label: str) -> tuple[list[str], list[list[str]], int]:
    """:func:`_table_rows` of the output's ``lines`` (InputError: no header, naming ``label``)."""
    try:
        return _table_rows(lines)
    except InputError as exc:
        raise InputError(f"{label}: {exc}") from None


def _fields(names: list[str], label: str) -> tuple[dict[str, int], str]:
    """The column of each field by its lower-case name, and the field giving the CPUs.

    Raises:
        InputError: a field the records need is missing.
    """
    index = {n.strip().lower(): i for i, n in enumerate(names)}
    for need in ("jobid", "user", "account", "start", "end"):
        if need not in index:
            raise InputError(f"{label}: sacct output has no {need} field (use sacct -P -o ...)")
    cpu_field = next((f for f in ("alloccpus", "ncpus", "reqcpus") if f in index), None)
    if cpu_field is None:
        raise InputError(f"{label}: sacct output has no AllocCPUS (or NCPUS) field")
    return index, cpu_field


def _listed(line: str) -> bool:
    """Whether a line of the output is the header's or a job's: not blank, no command
    line of a transcript (``$ sacct ...``)."""
    return bool(line.strip()) and not line.startswith("$ ")


#: How much of the output :func:`_judged_text` reads before it judges its header.
HEAD = 1 << 20


def _judged_text(stream: IO[str], label: str) -> str:
    """All of ``stream``'s text, its header judged once :data:`HEAD` characters are read
    and before the rest is (``yes | fs import sacct -`` was read to its end, which never
    came): refused as the whole output is. Shorter output is not judged (it is refused
    whole, naming the first fault of all).

    Raises:
        InputError: as :func:`~fairshare_cli.io.inputs.read_text`; a header that is none,
            or lacks a field the records need.
    """
    head = read_text(stream, label, HEAD)
    if len(head) < HEAD:
        return head
    whole = head[: max(head.rfind("\n"), head.rfind("\r")) + 1].splitlines()
    lines = [line for line in whole if _listed(line)][:2]
    if len(lines) == 2 and not head.startswith("\ufeff"):
        _fields(_header(lines, label)[0], label)
    # (the rest a line at a time: one without end is refused, numbered from the head's)
    return head + "".join(bounded_lines(stream, label, _EXPECTED, head.count("\n") + 1))


class _Row:
    """One sacct line's fields by lower-cased name (``""`` for a field not listed)."""

    def __init__(self, row: list[str], index: dict[str, int]) -> None:
        self.row = row
        self.index = index

    def get(self, field: str) -> str:
        i = self.index.get(field)
        return self.row[i].strip() if i is not None else ""


def _start(row: _Row, where: str) -> float | None:
    """A job line's start (None: a job step's line, or a job that never started).

    Raises:
        InputError: a bad time, naming ``where``.
    """
    text = row.get("start")
    if "." in row.get("jobid") or text.lower() in _NO_TIME:
        return None
    return parse_time(text, f"{where}: Start")


def _record(row: _Row, cpu_field: str, where: str, now: float) -> UsageRecord | None:
    """The usage record of one sacct line, or None for a step, an unstarted or CPU-less job.

    Raises:
        InputError: a bad time, CPU count or an empty JobID, Account or User, naming
            ``where``.
    """
    get = row.get
    if "." in get("jobid"):
        return None
    for field, name in (("jobid", "JobID"), ("account", "Account")):
        if not get(field):  # sacct prints both for every job: a blank one is no job of its
            raise InputError(f"{where}: {name} is empty")
    start = _start(row, where)
    if start is None or start > now:
        return None
    end_text = get("end")
    end = None if end_text.lower() in _NO_TIME else parse_time(end_text, f"{where}: End")
    if end is not None and end > now:
        end = None
    cpus_text = get(cpu_field)
    try:
        cpus = int(cpus_text)
    except ValueError:
        raise InputError(
            f"{where}: {cpu_field}: expected a whole number, got {cpus_text!r}"
        ) from None
    if cpus < 0:
        raise InputError(f"{where}: {cpu_field}: expected 0 or more CPUs, got {cpus_text!r}")
    if cpus == 0:  # never allocated (a job cancelled while pending)
        return None
    user = get("user")
    if not user:
        raise InputError(f"{where}: User is empty")
    obj = {
        "owner": user,
        "start": start,
        "end": end,
        "account": get("account"),
        "partition": get("partition"),
        "qos": get("qos"),
        "cpus": cpus,
    }
    return parse_record(obj, where)  # the one door of every usage record
