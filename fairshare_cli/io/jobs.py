"""Read a ``--jobs-file``: a JSON list of job objects (DESIGN §4), fast for big queues."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.jobs import parse_job
from fairshare_cli.core.limits import MAX_JOB_COUNT
from fairshare_cli.errors import InputError
from fairshare_cli.io.inputs import JSONFault, read_json


def load_job_objects(path: str, name: str | None = None) -> list[Any]:
    """The raw job objects of a jobs file (``-`` is stdin).

    ``name`` names the file in errors (default: ``path``). Call it inside
    :func:`gc_paused` for big files.

    Raises:
        InputError: the file cannot be read, is not JSON, or is not a list.
    """
    label = name or path
    try:
        objs = read_json(path, label)
    except JSONFault as fault:
        at = (
            fault.reason
            if fault.line is None
            else (f"line {fault.line}, column {fault.column}: {fault.reason}")
        )
        raise InputError(
            f"{label}: not valid JSON ({at}); expected a list of job objects"
        ) from None
    if not isinstance(objs, list):
        raise InputError(f"{label}: expected a JSON list of job objects, got {type(objs).__name__}")
    return objs


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (reference counting still frees memory).

    A million job objects are a million new containers; collecting among them while they
    are built and grouped triples the time, and none of them forms a cycle.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_job_batches(path: str) -> list[JobBatch]:
    """Jobs from a JSON file holding a list of job objects (DESIGN §4); ``-`` is stdin.

    A ``"count": N`` object stays one batch of N identical jobs ``C.0`` … ``C.(N-1)``, and
    consecutive objects that differ only by the next job id of one cluster join a batch, so
    very large queues load quickly.

    Raises:
        InputError: the file is missing, not JSON, not a list, a job is malformed, or two
            jobs share an id.
    """
    with gc_paused():
        objs = load_job_objects(path)
        return batches_from_objects(objs, f"jobs file {path}")


def batches_from_objects(objs: list[Any], source: str) -> list[JobBatch]:
    """Job batches from job objects, validated as :func:`parse_job` does.

    Raises:
        InputError: a malformed job or a duplicate id, naming ``source`` and the job.
    """
    batches: list[JobBatch] = []
    singles: set[str] = set()
    stanzas: dict[str, int] = {}
    prev_rest: dict[str, Any] | None = None  # the previous single job's object minus its id
    prev_next = ""  # the id that would extend the last batch
    for i, obj in enumerate(objs):
        where = f"{source}: job {i}"
        if isinstance(obj, dict) and obj.get("count", 1) == 1 and isinstance(obj.get("id"), str):
            job_id = obj.pop("id")
            same = prev_rest is not None and job_id == prev_next and obj == prev_rest
            obj["id"] = job_id
            if same:
                _check_single(job_id, singles, stanzas, where)
                last = batches[-1]
                batches[-1] = JobBatch(last.job, last.count + 1)
                prev_next = _next_id(job_id)
                continue
        count = obj.get("count", 1) if isinstance(obj, dict) else 1
        if count == 1 or not isinstance(obj, dict):
            for job in parse_job(obj, where):
                _check_single(job.id, singles, stanzas, where)
                batches.append(JobBatch(job))
                prev_rest = {k: v for k, v in obj.items() if k != "id"}
                prev_next = _next_id(job.id)
            continue
        prev_rest = None
        proto = parse_job({**obj, "count": 1}, where)[0]  # validates every field
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InputError(f"{where}.count: expected a whole number of at least 1, got {count!r}")
        if count > MAX_JOB_COUNT:
            raise InputError(f"{where}.count: expected at most {MAX_JOB_COUNT:,} jobs, got {count}")
        cluster = proto.id.split(".", 1)[0]
        if cluster in stanzas or any(s.split(".", 1)[0] == cluster for s in singles):
            raise InputError(f"{where}: duplicate job id '{cluster}.0'")
        stanzas[cluster] = count
        batches.append(JobBatch(replace(proto, id=f"{cluster}.0"), count))
    return batches


def _next_id(job_id: str) -> str:
    cluster, _, proc = job_id.partition(".")
    return f"{cluster}.{int(proc) + 1}" if proc.isdigit() else ""


def _check_single(job_id: str, singles: set[str], stanzas: dict[str, int], where: str) -> None:
    cluster, _, proc = job_id.partition(".")
    taken = job_id in singles or (
        cluster in stanzas and proc.isdigit() and int(proc) < stanzas[cluster]
    )
    if taken:
        raise InputError(f"{where}: duplicate job id '{job_id}'")
    singles.add(job_id)
