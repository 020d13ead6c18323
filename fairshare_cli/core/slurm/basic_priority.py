"""Job priorities under ``PriorityType=priority/basic``: first in, first out.

slurmctld gives each job at submission one less than the lowest priority it has given so
far (``set_job_prio`` over ``priority_p_set``), starting below ``TOP_PRIORITY``; a
job's nice is taken off its own priority but not off the count, and an admin-set priority
is the admin's and moves the count not at all. After a restart the count goes on below the
lowest priority of the jobs it reloads. Nothing is recomputed later: no factors, no decay
pass, and the queue is sorted by partition tier, then this priority.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.names import cluster_proc

#: slurmctld's first count (``TOP_PRIORITY``: large, with headroom above it).
TOP_PRIORITY = 0xFFFF0000


def first_in_first_out(last: int, nice: int) -> tuple[int, int]:
    """A new job's priority under ``priority/basic`` after ``last`` (the lowest given so
    far) and the new lowest: one less, less its nice (a positive nice only while the
    priority stays above it), at least 1 (0 is a hold)."""
    prio = last - 1 if last >= 2 else 1
    if nice <= 0 or prio > nice + 1:
        prio -= nice
    prio = max(prio, 1)
    return prio, min(prio + nice, last)


class BasicPriorities:
    """The count slurmctld keeps under ``priority/basic``, and each queued job's priority
    (carried in its ``slurm_priority``)."""

    def __init__(self, queue: Iterable[Job]) -> None:
        """Start from the pending jobs a simulation starts from: those that carry a
        priority (a dump's) keep it and set the count below them, as slurmctld's restart
        does; the others take theirs in job id order (their order of submission). The jobs
        of a batch (``C.0`` to ``C.N``, an array's tasks) share their first's priority."""
        jobs = list(queue)
        kept = [j.slurm_priority for j in jobs if j.slurm_priority and j.admin_priority is None]
        self.lowest = min((p for p in kept if p > 1), default=TOP_PRIORITY)
        self.given: dict[str, int] = {}
        for job in sorted(jobs, key=lambda j: cluster_proc(j.id)):
            if job.slurm_priority is None and job.admin_priority is None:
                self.given[job.id] = self._next(job.nice)

    def _next(self, nice: int) -> int:
        prio, self.lowest = first_in_first_out(self.lowest, nice)
        return prio

    def queued(self, job: Job) -> Job:
        """``job`` as the queue takes it, with its priority: a job of the starting queue
        its own, a new one the next; an admin-set one the admin's."""
        if job.admin_priority is not None:
            return replace(job, slurm_priority=max(job.admin_priority, 1))
        if job.slurm_priority is not None and job.id not in self.given:
            return job
        prio = self.given.pop(job.id, None)
        if prio is None:
            prio = self._next(job.nice)
        return replace(job, slurm_priority=prio)


def basic_priorities(config: Config, queue: Sequence[Job | JobBatch]) -> BasicPriorities | None:
    """The count of a simulation starting from ``queue`` under ``priority/basic`` (None
    under any other ``PriorityType``): its pending jobs, a batch by its first."""
    if config.priority.type != "basic":
        return None
    jobs = (item.job if isinstance(item, JobBatch) else item for item in queue)
    return BasicPriorities(j for j in jobs if j.status == "idle")
