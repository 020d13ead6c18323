"""``fs submit``'s checks of the jobs it queues against the queue, the config, ``--now``
and the slots held; a single ``--count`` object's made once, at its first job, which stands
for all (they differ only in their ids), before the others are made: a refusal of
``--count 1000000`` is said at once."""

from __future__ import annotations

from typing import Any

from fairshare_cli.cli.context import Env, refuse_going_back
from fairshare_cli.cli.submit_objects import each_job
from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.validate import check_jobs_against_config
from fairshare_cli.errors import InputError


def checked_new(
    env: Env, queue: list[Job], objs: list[Any], source: str
) -> tuple[list[Job], list[JobBatch], dict[str, str]]:
    """The jobs of ``objs`` (numbered), checked; the same jobs in batches of jobs alike but
    for their ids (one for a ``count`` object); and why each that will never start waits,
    by id (a batch's by its first job's).

    Raises:
        InputError: a job refused (naming ``source`` and the job: the first refused).
    """
    from msgspec.structs import replace

    from fairshare_cli.core.operations.queue import checked_jobs, new_jobs
    from fairshare_cli.core.operations.submit_batch import batch_ids, first_of_count

    where = str(env.state_path)
    first = first_of_count(objs, source)
    if first is None:
        new, held = new_jobs(env.config, queue, objs, env.now, source=source, where=where)
        pairs = zip(each_job(objs), new, strict=True)
    else:
        new, held = checked_jobs(env.config, queue, [first], source=source, where=where)
        pairs = zip(objs, new, strict=True)
    check_jobs_against_config(pairs, env.config, source)
    _refuse_later_starts(env, new, source)
    _refuse_taken_slots(env, new, queue, source)
    if first is None:
        return new, [JobBatch(job) for job in new], held
    batch = JobBatch(new[0], objs[0]["count"])
    new += [replace(new[0], id=i) for i in batch_ids(batch)[1:]]
    return new, [batch], held


def _refuse_later_starts(env: Env, jobs: list[Job], source: str) -> None:
    """Refuse jobs queued after ``--now`` and running jobs started after it (the latest
    named), as the HTCondor dump imports refuse a QDate, a claim or a job started after it
    and ``fs import history`` work that starts after it: the state would hold a wait or a
    use of less than nothing until then; and running jobs (charged from ``--now``) at a
    time before the state's last update.

    Raises:
        InputError: naming the job, its ``submit_time`` or ``start_time`` and ``--now``;
            or the state.
    """
    from fairshare_cli.cli.imports._dump_time import latest, refuse_later_dump

    queued = latest(
        [(job.submit_time, f"{source}: job {job.id}'s submit_time") for job in jobs
         if job.submit_time is not None]
    )  # fmt: skip
    if queued is not None:  # (as fs import condor-q refuses a QDate after it)
        refuse_later_dump(queued[1], queued[0], env.now, "the job was queued at a later time")
    if not any(job.status == "running" for job in jobs):
        return

    found = latest(
        [
            (job.start_time, f"{source}: job {job.id}'s start_time")
            for job in jobs
            if job.status == "running" and job.start_time is not None
        ]
    )
    if found is not None:
        refuse_later_dump(found[1], found[0], env.now, "the job started at a later time")
    refuse_going_back(env.state, env.now, env.state_path)


def _refuse_taken_slots(env: Env, jobs: list[Job], queue: list[Job], source: str) -> None:
    """Refuse a running job that names a slot a running job of the queue holds: the new
    claim took the slot over, and the queued job, still running, held none (its submitter
    used a slot less), as condor_q never shows.

    Raises:
        InputError: naming the job, the slot and the job that holds it.
    """
    named = [job for job in jobs if job.status == "running" and job.slot is not None]
    if not named or not env.config.machines:
        return
    from fairshare_cli.core.htcondor.claims import negotiator_from_json

    claims = env.decode("negotiator", negotiator_from_json).claims
    running = {job.id for job in queue if job.status == "running"}
    for job in named:
        claim = claims.get(job.slot or "")
        if claim is not None and claim.job_id in running:
            raise InputError(
                f"{source}: job {job.id}: slot '{job.slot}' already runs job {claim.job_id}"
                f" of the queue; name another slot, or fs rm {claim.job_id} first"
            )
