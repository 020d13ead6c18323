"""``scontrol show jobs`` records as job objects, and what both job dumps read into.

A record starts at its ``JobId=`` line; its fields are the ``Key=Value`` pairs of the lines
before its node layout (``Socks/Node=``) and free text (``Command=``, ``SubmitLine=``, ...,
``src/scontrol/info_job.c``). 22.05 prints the job's TRES as ``TRES=``; 23.02 on print
``ReqTRES=`` and ``AllocTRES=``. Times without a zone are read as UTC.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, cast

from fairshare_cli.core.epoch import cached_utc, parse_time
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.timestr import TimeStringError, time_str2secs
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.common import is_prompt

#: Slurm job states that stay in the queue, and ours.
STATES = {"PENDING": "idle", "RUNNING": "running", "SUSPENDED": "running", "CONFIGURING": "running"}


#: :attr:`ImportedJob.job` until the job is read.
_UNREAD = Job(id="", owner="")


@dataclass
class ImportedJob:
    """A job, the object it was read from, where, and what Slurm printed as its priority.

    ``job`` is read once, from ``obj``; a command that changes a field replaces ``job``.
    ``printed_by_partition`` is squeue --json's ``priority_by_partition`` (since 24.11).
    """

    obj: dict[str, Any]
    where: str
    job: Job = field(default=_UNREAD, repr=False)
    printed_priority: int | None = None
    printed_by_partition: dict[str, int] = field(default_factory=dict)
    billing: float = 0.0


@dataclass(frozen=True)
class FinishedJob:
    """A job that ran and ended: what it was charged for, from its start to its end."""

    account: str
    user: str
    billing: float
    qos: str | None
    start: float
    end: float


@dataclass
class JobDump:
    """Jobs that stay in the queue, finished ones that ran, and the ids left out."""

    jobs: list[ImportedJob] = field(default_factory=list)
    finished: list[FinishedJob] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


class _Record:
    """One ``scontrol show jobs`` record: its fields, and where each is (found when asked)."""

    __slots__ = ("fields", "label", "start", "text")

    def __init__(self, fields: dict[str, str], label: str, start: int, text: str) -> None:
        self.fields = fields
        self.label = label
        self.start = start
        self.text = text

    def where(self, key: str | None = None) -> str:
        line = self.start
        found = None if key is None else re.search(rf"(?<![\w/:]){key}=", self.text)
        if found is not None:
            line += self.text.count("\n", 0, found.start())
        return f"{self.label}:{line}"


#: One ``Key=Value`` field of a record line.
_FIELD = re.compile(r"([\w/:]+)=(\S*)")
#: The lines whose value is free text (spaces, ``=``): not fields (``src/scontrol/info_job.c``).
_FREE_TEXT = re.compile(
    r"[ \t]*(Command|SubmitLine|WorkDir|AdminComment|SystemComment|Comment|Extra|"
    r"StdErr|StdIn|StdOut)="
)


def read_scontrol(text: str, first_line: int, label: str, out: JobDump) -> None:
    """Records split at each ``JobId=`` line. A record's fields are those of the lines
    before its node layout (``Socks/Node=``, then free text from ``Command=`` on): split in
    C; a record that is not plain ``Key=Value`` there is read line by line
    (:func:`_exact_fields`), which words what is wrong with it."""
    if not text.startswith("JobId="):
        raise InputError(f'{label}:{first_line}: expected "JobId=..." (scontrol show jobs)')
    times: dict[str, float | None] = dict.fromkeys(_NO_TIME)
    number = first_line
    for chunk in text.split("\nJobId="):
        chunk = chunk if number == first_line else "JobId=" + chunk
        fields = _fast_fields(chunk)
        if fields is None:
            fields = _exact_fields(chunk, number, label)
        _scontrol_job(_Record(fields, label, number, chunk), out, times)
        number += chunk.count("\n") + 1


def _fast_fields(chunk: str) -> dict[str, str] | None:
    """The fields of a plain record (each token ``Key=Value``, no key twice), or None."""
    head = _job_lines(chunk)
    newline = head.find("\n")
    first = head if newline < 0 else head[:newline]
    name = first.find(" JobName=")  # the last field of the first line: free text
    if name >= 0:
        head = first[:name] + ("" if newline < 0 else head[newline:])
    tokens = head.split()
    try:  # a command line's "$", or any token that is not Key=Value, raises
        # str.split itself, not a methodcaller (which looks "split" up on each token: twice
        # the time, a fifth of the reader's at benchmarks/run.py --rows import-squeue)
        fields = dict(map(str.split, tokens, repeat("="), repeat(1)))
    except ValueError:
        return None
    return fields if len(fields) == len(tokens) else None


def _job_lines(chunk: str) -> str:
    """A record up to its node layout and free text (all of it when it has neither)."""
    for mark in ("\n   Socks/Node=", "\n   Command="):
        cut = chunk.find(mark)
        if cut >= 0:
            return chunk[:cut]
    return chunk


def _exact_fields(chunk: str, start: int, label: str) -> dict[str, str]:
    """The fields of a record read line by line (the first of a repeated key wins).

    Raises:
        InputError: a line without ``Key=Value`` fields, naming ``FILE:LINE``.
    """
    fields: dict[str, str] = {}
    for number, line in enumerate(_job_lines(chunk).split("\n"), start):
        if is_prompt(line) or not line.strip() or _FREE_TEXT.match(line):
            continue
        if number == start and " JobName=" in line:
            line = line[: line.index(" JobName=")]
        if "=" not in line:
            raise InputError(f"{label}:{number}: expected Key=Value fields")
        for key, value in _FIELD.findall(line):
            fields.setdefault(key, value)
    return fields


def _need(record: _Record, key: str) -> str:
    value = record.fields.get(key)
    if value is None:
        raise InputError(f"{record.where()}: the job record has no {key}=")
    return value


#: A time text not read yet.
_UNSEEN: Any = object()
#: What Slurm prints for a time that is not set.
_NO_TIME = ("", "Unknown", "None", "N/A", "(null)")


def _time(record: _Record, key: str, times: dict[str, float | None]) -> float | None:
    """Field ``key`` as epoch seconds (``times``: the texts read so far, and the unset)."""
    value = record.fields.get(key, "")
    seen = times.get(value, _UNSEEN)
    if seen is not _UNSEEN:
        return cast("float | None", seen)
    # Slurm prints local time without a zone; read as UTC (the Z form is the fast one).
    naive = len(value) == 19 and value[10] == "T"
    text = value + "Z" if naive else value
    seconds = cached_utc(text) if naive else None
    if seconds is None:
        seconds = parse_time(text, f"{record.where(key)}: {key}")
    times[value] = seconds
    return seconds


def _int(value: str, where: str, key: str) -> int:
    if not re.fullmatch(r"-?\d+", value):
        raise InputError(f'{where}: {key}: expected a whole number, got "{value}"')
    return int(value)


@functools.lru_cache(maxsize=4096)
def parse_tres(text: str) -> dict[str, str]:
    """``cpu=4,mem=1000M,...`` as a mapping (shared between the jobs that print it alike:
    read only)."""
    return dict(item.split("=", 1) for item in text.split(",") if "=" in item)


@functools.lru_cache(maxsize=4096)
def memory_mb(text: str | None) -> int:
    """``1000M`` / ``4G`` / ``1T`` as MB (Slurm prints TRES memory with a unit)."""
    if not text:
        return 0
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGTP]?)", text)
    if m is None:
        return 0
    scale = {"K": 1 / 1024, "": 1, "M": 1, "G": 1024, "T": 1024**2, "P": 1024**3}[m.group(2)]
    return int(float(m.group(1)) * scale)


def _time_limit(record: _Record) -> float | str | None:
    try:
        return _limit(record.fields.get("TimeLimit", ""))
    except TimeStringError as exc:
        raise InputError(f"{record.where('TimeLimit')}: TimeLimit: {exc}") from None


@functools.lru_cache(maxsize=4096)
def _limit(value: str) -> float | str | None:
    """A ``TimeLimit`` as seconds, ``INFINITE`` or None (a dump repeats a few limits).

    Raises:
        TimeStringError: not a Slurm time string.
    """
    if value in ("", "N/A", "(null)"):
        return None
    if value.upper() in ("UNLIMITED", "INFINITE"):
        return "INFINITE"
    return time_str2secs(value)


@functools.lru_cache(maxsize=4096)
def _charged(alloc: str, requested: str) -> tuple[dict[str, str], int]:
    """The TRES a job is charged for, and its memory in MB, from its ``AllocTRES=`` and its
    requested TRES: 22.05's ``TRES=`` is both; 23.02 on split it into ``ReqTRES=`` and
    ``AllocTRES=`` (``(null)`` until the job runs). A dump repeats a few of these."""
    req = parse_tres(requested)
    tres = parse_tres(alloc) if "=" in alloc else req
    return tres, memory_mb(tres.get("mem") or req.get("mem"))


def _num(record: _Record, key: str, default: str | None = None) -> int:
    """A whole-number field (``NumNodes=1-2``: its first number)."""
    value = record.fields.get(key, default)
    if value is None:
        raise InputError(f"{record.where()}: the job record has no {key}=")
    if value.isdecimal():
        return int(value)
    if key == "NumNodes":
        value = value.split("-")[0]
    return _int(value, record.where(key), key)


def _scontrol_job(  # noqa: C901 - the common fields read inline (hot)
    record: _Record, out: JobDump, times: dict[str, float | None]
) -> None:
    """One record's job (or its finished job). A measured hot loop (``benchmarks/run.py
    --rows import-squeue``): the common fields read inline, no loop over them, each time
    text looked up in ``times`` before :func:`_time` parses it, the TRES of a dump's few
    kinds of job read once (:func:`_charged`)."""
    fields = record.fields
    get = fields.get
    state = get("JobState") or _need(record, "JobState")
    job_id = get("JobId") or _need(record, "JobId")
    if get("ArrayJobId") and get("ArrayTaskId"):
        task = fields["ArrayTaskId"]
        task = task if task.isdecimal() else f"[{task}]"
        job_id = f"{fields['ArrayJobId']}_{task}"
    status = STATES.get(state)
    user = get("UserId") or _need(record, "UserId")
    user = user[: user.index("(")] if user.endswith(")") and "(" in user else user
    tres, memory = _charged(get("AllocTRES") or "", get("ReqTRES") or get("TRES") or "")
    if status is None:
        out.skipped.append(job_id)
        start = _time(record, "StartTime", times)
        end = _time(record, "EndTime", times)
        add_finished(out, get("Account"), user, tres, get("QOS"), start, end)
        return
    cpus, nodes, nice = get("NumCPUs", ""), get("NumNodes", "1"), get("Nice", "0")
    obj: dict[str, Any] = {
        "id": job_id,
        "owner": user,
        "status": status,
        "nice": int(nice) if nice.isdecimal() else _num(record, "Nice", "0"),
        "request_cpus": int(cpus) if cpus.isdecimal() else _num(record, "NumCPUs"),
        "num_nodes": int(nodes) if nodes.isdecimal() else _num(record, "NumNodes", "1"),
        "request_memory": memory,
    }
    account, qos, partition = get("Account"), get("QOS"), get("Partition")
    if account:
        obj["account"] = account
    if qos:
        obj["qos"] = qos
    if partition:
        obj["partition"] = partition
    text = get("SubmitTime", "")
    submit = times[text] if text in times else _time(record, "SubmitTime", times)
    text = get("EligibleTime", "")
    eligible = times[text] if text in times else _time(record, "EligibleTime", times)
    text = get("AccrueTime", "")
    accrue = times[text] if text in times else _time(record, "AccrueTime", times)
    if submit is not None:
        obj["submit_time"] = submit
    if eligible is not None:
        obj["eligible_time"] = eligible
    if accrue is not None:
        obj["accrue_time"] = accrue
    try:
        limit = _limit(get("TimeLimit", ""))
    except TimeStringError:
        limit = _time_limit(record)  # raises, naming the line
    if limit is not None:
        obj["time_limit"] = limit
    if "SiteFactor" in fields:
        obj["site_factor"] = _num(record, "SiteFactor")
    if status == "running":
        start = _time(record, "StartTime", times)
        if start is not None:
            obj["start_time"] = start
    prio = get("Priority")
    printed = None if not prio else int(prio) if prio.isdecimal() else _num(record, "Priority")
    add_job(out, obj, record.where(), printed, tres)


def add_finished(
    out: JobDump,
    account: Any,
    user: str,
    tres: Mapping[str, str],
    qos: Any,
    start: float | None,
    end: float | None,
) -> None:
    """Keep a finished job that ran (its charges may explain imported usage)."""
    if not isinstance(account, str) or not account or start is None or end is None:
        return
    try:
        billing = float(tres.get("billing", tres.get("cpu", "0")))
    except ValueError:
        return
    if end > start and billing > 0:
        out.finished.append(
            FinishedJob(account, user, billing, qos if isinstance(qos, str) else None, start, end)
        )


def add_job(
    out: JobDump, obj: dict[str, Any], where: str, printed: int | None, tres: Mapping[str, str]
) -> ImportedJob:
    clean = obj if None not in obj.values() else {k: v for k, v in obj.items() if v is not None}
    item = ImportedJob(clean, where, printed_priority=printed)
    billing = tres.get("billing")
    try:
        item.billing = float(billing) if billing is not None else float(clean["request_cpus"])
    except ValueError:
        item.billing = float(clean["request_cpus"])
    out.jobs.append(item)
    return item
