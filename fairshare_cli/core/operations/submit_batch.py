"""A ``count`` object of ``fs submit`` (``--count N``) as one batch: its first job, which
stands for all (they differ only in their ids) in every check, and the JSON of its jobs,
made once for all."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.job_fields import job_label
from fairshare_cli.core.jobs import Job, job_to_json, parse_stanza
from fairshare_cli.errors import InputError


def batch_json(batch: JobBatch, ids: Sequence[str]) -> list[dict[str, Any]]:
    """The JSON form of each job of ``batch``, as
    :func:`~fairshare_cli.core.jobs.job_to_json` makes each (its values copied where they
    are no plain values; else one form, its id changed); ``ids``: its jobs' ids (the
    strings the jobs hold, shared)."""
    obj = job_to_json(batch.job)
    if batch.count == 1:
        return [obj]
    if not all(type(v) in (str, int, float, bool, type(None)) for v in obj.values()):
        return [job_to_json(replace(batch.job, id=i)) for i in ids]
    return [{**obj, "id": i} for i in ids]


def batch_ids(batch: JobBatch) -> list[str]:
    """The id of each job of ``batch`` (:meth:`JobBatch.job_id` of each, the cluster read
    once)."""
    if batch.count == 1:
        return [batch.job.id]
    cluster, _, proc = batch.job.id.partition(".")
    first = int(proc) if proc.isdigit() else 0
    return [f"{cluster}.{first + i}" for i in range(batch.count)]


def first_of_count(objects: Sequence[Any], source: str) -> Job | None:
    """The first job of a single ``count`` object (numbered), parsed as
    :func:`~fairshare_cli.core.operations.queue.new_jobs` parses it: the jobs it stands for
    are that job but for their ids, so it is checked for all of them (before they are
    made); None for any other list.

    Raises:
        InputError: a malformed object, or a running one of a slot and a count (its second
            job runs on the first's slot).
    """
    obj = objects[0] if len(objects) == 1 else None
    if not isinstance(obj, dict) or type(obj.get("count")) is not int or obj["count"] < 2:
        return None
    job = parse_stanza(obj, job_label(source, obj, 0))
    first = JobBatch(replace(job, id=f"{job.id.split('.', 1)[0]}.0", count=1), job.count)
    if job.status == "running" and job.slot is not None:  # (as parse_jobs refuses it)
        raise InputError(
            f"{source}: job {first.job_id(1)}: slot '{job.slot}' already runs another job"
        )
    return first.job
