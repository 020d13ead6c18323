"""``fs import squeue``: ``squeue --json`` or ``scontrol show jobs`` as job objects.

Pending and running jobs become job objects (docs/jobs.md) with the fields sprio and the
usage model read; job ids are Slurm's job ids, as sprio prints them (``%u`` of the record's
``job_id``): an array's tasks still pending are one record, whose id is the array's
(``10``, squeue's ``10_[4-9]``), and a task split off from it has its own (``13``, squeue's
``10_3``). Times without a zone are read as UTC. Finished jobs are not queued;
those that ran are kept apart (their charges can make imported usage exact).
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from functools import partial
from typing import Any

from fairshare_cli.core.jobs import parse_job, parse_jobs
from fairshare_cli.core.names import shown
from fairshare_cli.core.operations.submit_ids import ID_FORMS, scheduler_id
from fairshare_cli.errors import InputError
from fairshare_cli.io.gc_pause import gc_paused
from fairshare_cli.io.importers.common import as_float, is_prompt, json_document, text_pieces
from fairshare_cli.io.importers.scontrol_jobs import read_scontrol
from fairshare_cli.io.importers.slurm_jobs import (
    STATES,
    ImportedJob,
    JobDump,
    add_finished,
    add_job,
    gres_attributes,
    held,
    memory_of,
    read_tres,
)

__all__ = ["EXPECTED", "ImportedJob", "JobDump", "read_jobs"]

#: Slurm's NO_VAL (an unset uint32): at or above it a number means "not set".
NO_VAL = 0xFFFFFFFE

#: What the dump is, for the errors that say what was expected.
EXPECTED = "squeue --json or scontrol show jobs output"
#: What ``scontrol show jobs`` prints for an empty queue.
NO_JOBS = "No jobs in the system"


def read_jobs(path: str, label: str | None = None) -> JobDump:
    """Jobs of a ``squeue --json`` or ``scontrol show jobs`` dump (``-`` is stdin).

    A dump of no job is one that says the queue is empty: ``squeue --json``'s object with
    ``"jobs": []``, or scontrol's ``No jobs in the system``.

    Raises:
        InputError: truncated JSON, a record without its fields, a bad value or binary
            data, naming ``FILE:LINE``; or no job record at all (an empty file).
    """
    label = label or path
    with gc_paused():  # 100,000 jobs are a million containers and no cycle
        judge = partial(_judge_head, label=label)
        return _read(text_pieces(path, label, EXPECTED, b"\nJobId=", judge), label)


def _judge_head(head: str, label: str) -> None:
    """Refuse the head of a long dump (whole lines, no ``JobId=`` record after its
    first line) as :func:`_read` refuses the whole: its first line that is neither blank
    nor a command line starts no record, no JSON and says no "No jobs in the system".

    Raises:
        InputError: naming that line, as for the whole dump.
    """
    for number, line in enumerate(io.StringIO(head, newline="\n"), 1):
        if line.strip() and not is_prompt(line):
            json = line.lstrip()[:1] in ("{", "[")
            if not (line.startswith("JobId=") or json or line.strip() == NO_JOBS):
                raise InputError(
                    f'{label}:{number}: expected "JobId=..." (scontrol show jobs) '
                    "or squeue --json output"
                )
            return


def _read(pieces: Iterator[str], label: str) -> JobDump:
    """The jobs of a dump read in ``pieces`` (each cut before a record): scontrol's
    records a piece at a time, JSON whole."""
    out = JobDump()
    number = 1
    for text in pieces:
        pos = 0
        while pos < len(text):  # the first line that is neither blank nor a command line
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            line = text[pos:end]
            if line.strip() and not is_prompt(line):
                break
            pos, number = end + 1, number + 1
        else:
            continue
        try:
            if line.lstrip().startswith(("{", "[")):
                rest = "".join(pieces)
                _read_json("\n" * (number - 1) + text[pos:] + rest, label, out)
            elif line.strip() != NO_JOBS:
                read_scontrol(text[pos:], number, label, out, pieces)
        except InputError:
            for _ in pieces:  # binary data further on is named first, as a whole read names it
                pass
            raise
        for _ in pieces:  # (what follows "No jobs in the system" is read, not used)
            pass
        _parse_all(out, label)
        return out
    raise InputError(f"{label}: no job records; expected {EXPECTED}")


def _parse_all(out: JobDump, label: str) -> None:
    """Every job read from its object at once (:func:`parse_jobs`, in C); what it
    refuses, the exact reader words for the record's ``FILE:LINE``.

    A job id no Slurm hands out (``0``, ``-5``, ``007``: a damaged dump) is refused, as
    ``fs submit --id`` refuses it, before it can reach the state.

    Raises:
        InputError: a job no view could read.
    """
    for item in out.jobs:
        if not scheduler_id(item.obj["id"]):
            raise InputError(f'{item.where}: job id "{shown(item.obj["id"])}": {ID_FORMS}')
    try:
        jobs = parse_jobs([item.obj for item in out.jobs], label)
    except InputError:
        for item in out.jobs:
            parse_job(item.obj, item.where)
        raise
    for item, job in zip(out.jobs, jobs, strict=True):
        item.job = job
    _refuse_shared_sluids(out)


def _refuse_shared_sluids(out: JobDump) -> None:
    """Refuse two jobs of one dump with one SLUID: slurmctld gives each job record its own
    (``job_record_set_sluid`` with a new job id, ``generate_sluid``'s milliseconds and
    sequence), and finds a job by it (``find_job_by_sluid``). A job listed twice (a
    federation's sibling keeps its origin's id and SLUID) is one job.

    Raises:
        InputError: naming the second record and both job ids.
    """
    first: dict[str, str] = {}
    for item in out.jobs:
        sluid = item.obj.get("sluid")
        if sluid is None:
            continue
        job_id = item.obj["id"]
        other = first.setdefault(sluid, job_id)
        if other != job_id:
            raise InputError(
                f"{item.where}: job {shown(job_id)} has the SLUID {sluid} of job "
                f"{shown(other)}; slurmctld gives every job its own (an edited dump?)"
            )


# squeue --json -----------------------------------------------------------------------


def _read_json(text: str, label: str, out: JobDump) -> None:
    doc = json_document(text, label)
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
        raise InputError(f"{where}: expected job_id and job_state (squeue --json output)")
    job_id = str(_json_value(job, "job_id"))
    status = STATES.get(state.upper())
    field = "tres_alloc_str" if job.get("tres_alloc_str") else "tres_req_str"
    tres = read_tres(str(job.get(field) or ""), where, field, "squeue")

    def epoch(key: str) -> float | None:
        value = _json_value(job, key)
        return as_float(value) if isinstance(value, (int, float)) and value > 0 else None

    if status is None:
        out.skipped.append(job_id)
        user = job.get("user_name")
        if isinstance(user, str):
            add_finished(
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
        "num_nodes": _nodes(_json_value(job, "node_count")),
        "request_memory": memory_of(tres),
        "submit_time": epoch("submit_time"),
        "eligible_time": epoch("eligible_time"),
        "accrue_time": epoch("accrue_time"),
        "time_limit": _json_time_limit(job.get("time_limit")),
    }
    if status == "running":
        obj["start_time"] = epoch("start_time")
    obj.update(gres_attributes(tres))
    site = _json_value(job, "site_factor")
    if site is not None:
        obj["site_factor"] = site
    sluid = _sluid(job.get("step_id"), where)
    if sluid is not None:
        obj["sluid"] = sluid
    by_partition = _by_partition(job.get("priority_by_partition"), where)
    printed = _json_value(job, "priority")
    if not isinstance(printed, int) and by_partition:
        printed = next(iter(by_partition.values()))
    printed = held(obj, printed if isinstance(printed, int) else None)
    item = add_job(out, obj, where, printed, tres)
    item.printed_by_partition = by_partition


def _sluid(step_id: Any, where: str) -> Any:
    """A job's SLUID: its ``step_id``'s ``sluid`` (data_parser v0.0.44 on, Slurm 25.11's
    ``SLURM_STEP_ID`` parser); None where it has none (``""`` or null: the SLUID 0, as
    ``DUMP_FUNC(SLUID)`` dumps it; no ``step_id``: an older dump).

    Raises:
        InputError: a ``step_id`` that is no object (its SLUID would be lost unsaid).
    """
    if step_id is None:
        return None
    if not isinstance(step_id, dict):
        kind = "an array" if isinstance(step_id, list) else f"{shown(repr(step_id))}"
        raise InputError(f"{where}: step_id: expected an object (holding sluid), got {kind}")
    sluid = step_id.get("sluid")
    return None if sluid == "" else sluid


def _json_time_limit(value: Any) -> Any:
    """A job's ``time_limit`` (minutes) as a job object's: seconds, ``"INFINITE"``, or
    None for ``NO_VAL``, no limit. slurmctld sends a pending job of no limit with its
    partition's ``MaxTime`` (``pack_job`` in ``job_mgr.c``, 22.05 and 26.05 alike), so
    only one with no partition comes as ``NO_VAL``: 26.05's ``{"set": false, "infinite":
    false}`` (``UINT32_NO_VAL``; ``infinite`` true is INFINITE), 22.05's number
    4294967294 (its ``null`` is INFINITE)."""
    if isinstance(value, dict) and "number" in value:
        if value.get("infinite"):
            return "INFINITE"
        value = value["number"] if value.get("set", True) else NO_VAL
    if value == NO_VAL:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < NO_VAL:
        return value * 60.0
    return "INFINITE"


def _nodes(count: Any) -> Any:
    """``node_count`` as a job's ``num_nodes``: one node (or none) left out, as the
    ``scontrol show jobs`` reader does (a dump cannot say whether ``-N`` was given, and
    one node is the least a job asks either way)."""
    return None if count in (None, 0, 1) and not isinstance(count, bool) else count


def _by_partition(value: Any, where: str) -> dict[str, int]:
    """``priority_by_partition`` (data_parser v0.0.42 on): ``[{"partition", "priority"}]``.

    Raises:
        InputError: not a list of those.
    """
    if value is None:
        return {}
    out: dict[str, int] = {}
    for entry in value if isinstance(value, list) else [None]:
        name = entry.get("partition") if isinstance(entry, dict) else None
        prio = entry.get("priority") if isinstance(entry, dict) else None
        if isinstance(prio, dict):
            prio = prio.get("number") if prio.get("set", True) else None
        if not isinstance(name, str) or not isinstance(prio, int) or isinstance(prio, bool):
            raise InputError(
                f"{where}: priority_by_partition: expected a list of "
                '{"partition": NAME, "priority": NUMBER}'
            )
        out[name] = prio
    return out
