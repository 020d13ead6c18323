"""``fs import squeue``: ``squeue --json`` or ``scontrol show jobs`` as job objects.

Pending and running jobs become job objects (docs/jobs.md) with the fields sprio and the
usage model read; job ids as Slurm prints them (``12``, an array task ``10_3``, a pending
array ``10_[4-9]``). Times without a zone are read as UTC. Finished jobs are not queued;
those that ran are kept apart (their charges can make imported usage exact).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from fairshare_cli.core.epoch import parse_time
from fairshare_cli.core.jobs import Job, parse_job
from fairshare_cli.core.timestr import TimeStringError, time_str2secs
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.common import is_prompt, text_lines
from fairshare_cli.io.inputs import loads

#: Slurm's NO_VAL (an unset uint32): at or above it a number means "not set".
NO_VAL = 0xFFFFFFFE

#: What the dump is, for the errors that say what was expected.
EXPECTED = "squeue --json or scontrol show jobs output"
#: What ``scontrol show jobs`` prints for an empty queue.
NO_JOBS = "No jobs in the system"

#: Slurm job states that stay in the queue, and ours.
STATES = {"PENDING": "idle", "RUNNING": "running", "SUSPENDED": "running", "CONFIGURING": "running"}


@dataclass
class ImportedJob:
    """A job object, where it came from, and what Slurm printed as its priority."""

    obj: dict[str, Any]
    where: str
    printed_priority: int | None = None
    billing: float = 0.0
    parsed: Job | None = field(default=None, repr=False, compare=False)

    def job(self) -> Job:
        """The job its object reads as (read once: :meth:`set_field` forgets it).

        Raises:
            InputError: the object is not a job every view can read.
        """
        if self.parsed is None:
            self.parsed = parse_job(self.obj, self.where)[0]
        return self.parsed

    def set_field(self, key: str, value: Any) -> None:
        """Set one field of the object (the job is read again when next asked for)."""
        self.obj[key] = value
        self.parsed = None


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


def read_jobs(path: str, label: str | None = None) -> JobDump:
    """Jobs of a ``squeue --json`` or ``scontrol show jobs`` dump (``-`` is stdin).

    A dump of no job is one that says the queue is empty: ``squeue --json``'s object with
    ``"jobs": []``, or scontrol's ``No jobs in the system``.

    Raises:
        InputError: truncated JSON, a record without its fields, a bad value or binary
            data, naming ``FILE:LINE``; or no job record at all (an empty file).
    """
    label = label or path
    lines = text_lines(path, label, EXPECTED)
    first = next(((n, line) for n, line in lines if line.strip() and not is_prompt(line)), None)
    out = JobDump()
    if first is None:
        raise InputError(f"{label}: no job records; expected {EXPECTED}")
    if first[1].lstrip().startswith(("{", "[")):
        text = "\n" * (first[0] - 1) + first[1] + "\n" + "\n".join(line for _, line in lines)
        _read_json(text, label, out)
    elif first[1].strip() != NO_JOBS:
        _read_scontrol(_chain(first, lines), label, out)
    return out


def _chain(first: tuple[int, str], rest: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    yield first
    yield from rest


# scontrol show jobs ------------------------------------------------------------------


class _Record(dict[str, str]):
    """One ``scontrol show jobs`` record; ``where(key)`` names the line a key is on."""

    def __init__(self, label: str, start: int) -> None:
        super().__init__()
        self.label = label
        self.start = start
        self.lines: dict[str, int] = {}

    def where(self, key: str | None = None) -> str:
        return f"{self.label}:{self.lines.get(key or '', self.start)}"


#: One ``Key=Value`` field of a record line.
_FIELD = re.compile(r"([\w/:]+)=(\S*)")


def _read_scontrol(lines: Iterator[tuple[int, str]], label: str, out: JobDump) -> None:
    record: _Record | None = None
    for number, line in lines:
        if is_prompt(line) or not line.strip():
            continue
        if line.startswith("JobId="):
            if record is not None:
                _scontrol_job(record, out)
            record = _Record(label, number)
        elif record is None:
            raise InputError(f'{label}:{number}: expected "JobId=..." (scontrol show jobs)')
        if "=" not in line:
            raise InputError(f"{label}:{number}: expected Key=Value fields")
        for key, value in _FIELD.findall(line):
            if key not in record:
                record[key] = value
                record.lines[key] = number
    if record is not None:
        _scontrol_job(record, out)


def _need(record: Mapping[str, str], key: str, where: str) -> str:
    value = record.get(key)
    if value is None:
        raise InputError(f"{where}: the job record has no {key}=")
    return value


def _time(value: str, where: str, key: str) -> float | None:
    if value in ("", "Unknown", "None", "N/A", "(null)"):
        return None
    return parse_time(value, f"{where}: {key}")


def _int(value: str, where: str, key: str) -> int:
    if not re.fullmatch(r"-?\d+", value):
        raise InputError(f'{where}: {key}: expected a whole number, got "{value}"')
    return int(value)


def _tres(text: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in text.split(",") if "=" in item)


def _memory_mb(text: str | None) -> int:
    """``1000M`` / ``4G`` / ``1T`` as MB (Slurm prints TRES memory with a unit)."""
    if not text:
        return 0
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGTP]?)", text)
    if m is None:
        return 0
    scale = {"K": 1 / 1024, "": 1, "M": 1, "G": 1024, "T": 1024**2, "P": 1024**3}[m.group(2)]
    return int(float(m.group(1)) * scale)


def _time_limit(value: str, where: str) -> float | str | None:
    if value in ("", "N/A", "(null)"):
        return None
    if value.upper() in ("UNLIMITED", "INFINITE"):
        return "INFINITE"
    try:
        return time_str2secs(value)
    except TimeStringError as exc:
        raise InputError(f"{where}: TimeLimit: {exc}") from None


def _scontrol_job(record: _Record, out: JobDump) -> None:
    where = record.where()
    state = _need(record, "JobState", where)
    job_id = _need(record, "JobId", where)
    if record.get("ArrayJobId") and record.get("ArrayTaskId"):
        task = record["ArrayTaskId"]
        task = task if re.fullmatch(r"\d+", task) else f"[{task}]"
        job_id = f"{record['ArrayJobId']}_{task}"
    status = STATES.get(state)
    user = re.sub(r"\(\d+\)\Z", "", _need(record, "UserId", where))
    tres = _tres(record.get("TRES", "") or record.get("ReqTRES", ""))
    if status is None:
        out.skipped.append(job_id)
        start = _time(record.get("StartTime", ""), record.where("StartTime"), "StartTime")
        end = _time(record.get("EndTime", ""), record.where("EndTime"), "EndTime")
        _finished(out, record.get("Account"), user, tres, record.get("QOS"), start, end)
        return

    def num(key: str, default: str | None = None) -> int:
        value = record.get(key, default)
        if value is None:
            raise InputError(f"{where}: the job record has no {key}=")
        return _int(value.split("-")[0] if key == "NumNodes" else value, record.where(key), key)

    def when(key: str) -> float | None:
        return _time(record.get(key, ""), record.where(key), key)

    obj: dict[str, Any] = {
        "id": job_id,
        "owner": user,
        "status": status,
        "account": record.get("Account") or None,
        "qos": record.get("QOS") or None,
        "partition": record.get("Partition") or None,
        "nice": num("Nice", "0"),
        "request_cpus": num("NumCPUs"),
        "num_nodes": num("NumNodes", "1"),
        "request_memory": _memory_mb(tres.get("mem")),
        "submit_time": when("SubmitTime"),
        "eligible_time": when("EligibleTime"),
        "accrue_time": when("AccrueTime"),
        "time_limit": _time_limit(record.get("TimeLimit", ""), record.where("TimeLimit")),
    }
    if status == "running":
        obj["start_time"] = when("StartTime")
    printed = num("Priority") if record.get("Priority") else None
    _add(out, obj, where, printed, tres)


def _finished(
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


def _add(
    out: JobDump, obj: dict[str, Any], where: str, printed: int | None, tres: Mapping[str, str]
) -> None:
    clean = {k: v for k, v in obj.items() if v is not None}
    item = ImportedJob(clean, where)
    item.job()  # the job must be one every view can read
    try:
        item.billing = float(tres.get("billing", clean.get("request_cpus", 1)))
    except ValueError:
        item.billing = float(clean.get("request_cpus", 1))
    item.printed_priority = printed
    out.jobs.append(item)


# squeue --json -----------------------------------------------------------------------


def _read_json(text: str, label: str, out: JobDump) -> None:
    try:
        doc = loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{label}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise InputError(f"{label}: JSON nested too deeply") from None
    jobs = doc.get("jobs") if isinstance(doc, dict) else doc
    if not isinstance(jobs, list) or not (jobs or isinstance(doc, dict)):
        raise InputError(f'{label}: expected squeue --json output (an object with "jobs")')
    for i, job in enumerate(jobs):
        where = f"{label}: jobs[{i}]"
        if not isinstance(job, dict):
            raise InputError(f"{where}: expected a job object")
        _json_job(job, where, out)


def _json_value(job: Mapping[str, Any], key: str) -> Any:
    """A field of a 0.0.38 job, or the ``{"set": .., "number": ..}`` form of later ones."""
    value = job.get(key)
    if isinstance(value, dict) and "number" in value:
        if not value.get("set", True) or value.get("infinite"):
            return None
        return value["number"]
    if isinstance(value, list) and key == "job_state":
        return value[0] if value else None
    return value


def _json_job(job: Mapping[str, Any], where: str, out: JobDump) -> None:
    state = _json_value(job, "job_state")
    if not isinstance(state, str) or "job_id" not in job:
        raise InputError(f"{where}: expected job_id and job_state")
    job_id = str(_json_value(job, "job_id"))
    array_id = _json_value(job, "array_job_id")
    task = _json_value(job, "array_task_id")
    task_string = job.get("array_task_string") or ""
    if array_id:
        job_id = f"{array_id}_{task}" if task is not None else f"{array_id}_[{task_string}]"
    status = STATES.get(state.upper())
    tres = _tres(str(job.get("tres_alloc_str") or job.get("tres_req_str") or ""))
    limit = _json_value(job, "time_limit")

    def epoch(key: str) -> float | None:
        value = _json_value(job, key)
        return float(value) if isinstance(value, (int, float)) and value > 0 else None

    if status is None:
        out.skipped.append(job_id)
        user = job.get("user_name")
        if isinstance(user, str):
            _finished(
                out,
                job.get("account"),
                user,
                tres,
                job.get("qos"),
                epoch("start_time"),
                epoch("end_time"),
            )
        return

    obj: dict[str, Any] = {
        "id": job_id,
        "owner": job.get("user_name"),
        "status": status,
        "account": job.get("account") or None,
        "qos": job.get("qos") or None,
        "partition": job.get("partition") or None,
        "nice": _json_value(job, "nice") or 0,
        "request_cpus": _json_value(job, "cpus") or 1,
        "num_nodes": _json_value(job, "node_count") or 1,
        "request_memory": _memory_mb(tres.get("mem")),
        "submit_time": epoch("submit_time"),
        "eligible_time": epoch("eligible_time"),
        "accrue_time": epoch("accrue_time"),
        "time_limit": limit * 60.0
        if isinstance(limit, (int, float)) and 0 <= limit < NO_VAL
        else "INFINITE",
    }
    if status == "running":
        obj["start_time"] = epoch("start_time")
    if isinstance(obj["time_limit"], float) and math.isinf(obj["time_limit"]):
        obj["time_limit"] = "INFINITE"
    printed = _json_value(job, "priority")
    _add(out, obj, where, int(printed) if isinstance(printed, int) else None, tres)
