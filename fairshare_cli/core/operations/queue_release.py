"""Held jobs released (``fs release``): pending again, as ``scontrol release`` and
``condor_release`` release them, a Slurm job's begin and accrue times as the hold left them."""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from fairshare_cli.core.config import Config
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.node_fit import NodeFit
from fairshare_cli.core.operations.queue import (
    ENDED,
    is_held,
    matches,
    named_in_queue,
    store_queue,
)
from fairshare_cli.core.slurm.factors import parse_flags
from fairshare_cli.core.state import State


def release(
    config: Config, state: State, now: float, job_ids: Sequence[str], *, where: str
) -> tuple[State, list[Job]]:
    """Release the held jobs named (``scontrol release``, ``condor_release``): pending again,
    their admin priority cleared (``_release_job_rec``); a job not held is left as it is,
    and so is a completed or removed one (``_update_job``: ``ESLURM_JOB_FINISHED``). A
    running job of admin priority 0 (a hold leaves it running) runs on, its priority cleared.

    A Slurm job is eligible from ``now`` (its begin time cleared, then set by the scheduler
    when it finds it runnable: ``job_independent``) and ages from the accrue time its hold
    kept: the same (no ``AccountingStorageEnforce=limits``, and with ``ACCRUE_ALWAYS`` its
    submit time), else ``now`` (the hold removed it: ``acct_policy_remove_accrue_time``).

    Returns:
        The new state and the jobs released.

    Raises:
        InputError: an id that names no job.
        SectionError: a malformed state section.
    """
    queue, named = named_in_queue(state, where, job_ids)
    fit = NodeFit(config)
    out, freed = [], []
    for job in queue:
        if is_held(job) and job.status not in ENDED and named(job):
            freed.append(job)
            status = "running" if job.status == "running" else "idle"  # (a hold runs on)
            job = replace(job, status=status, admin_priority=None)
            if status == "idle" and fit.is_slurm_job(job):
                job = _released_times(job, now, config)
        out.append(job)
    return store_queue(state, out), freed


def not_released(job_ids: Sequence[str], freed: Sequence[Job]) -> list[str]:
    """The ids on the line (each once, in their order) that named no job :func:`release`
    released: a job not held, as condor_release reports one ("Job 12.0 not held to be
    released", ``AR_BAD_STATUS`` in ``DCSchedd::getResultString``)."""
    return [w for w in dict.fromkeys(job_ids) if not any(matches(j, w) for j in freed)]


def _released_times(job: Job, now: float, config: Config) -> Job:
    """A released Slurm job's begin and accrue times: a begin time still to come is kept,
    a past one becomes ``now``; the accrue time is kept (``ACCRUE_ALWAYS``: the submit
    time; without limits: the begin time it accrued from), or with limits the hold removed
    it: ``now``, or none while the begin time is to come (it then accrues from that)."""
    begin = job.eligible_time if job.eligible_time is not None else job.submit_time
    later = begin is not None and begin >= now  # (_release_job_rec: "begin_time < now")
    accrue = job.accrue_time
    if "ACCRUE_ALWAYS" in parse_flags(config.priority.flags):  # (found in any word)
        pass
    elif config.priority.enforce_limits:
        accrue = None if later else now
    elif accrue is None:
        accrue = begin
    return replace(job, eligible_time=begin if later else now, accrue_time=accrue)
