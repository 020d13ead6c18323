"""The queue's running jobs as a cycle reads them, with their sums kept as they change.

A cycle counts each submitter's running jobs into its demand (``Scheduler::count_jobs``)
and reads the concurrency limits they hold (``Accountant::LoadLimits``). A cycle built from
a queue fills a :class:`RunningJobs` from it (:func:`~.queue.scan_jobs`); ``fs simulate``
keeps one from cycle to cycle, adding a job when it starts and removing it when it ends, so
that a cycle's cost does not grow with the jobs that keep running.
"""

from __future__ import annotations

from collections.abc import Callable

from fairshare_cli.core.jobs import Job


class RunningJobs:
    """Running jobs by id, and per submitter their count and Σ ``RequestCpus``.

    Attributes:
        jobs: job id -> job, in the order they were added.
        count: submitter -> its running jobs (a submitter with none is absent).
        cpus: submitter -> Σ ``RequestCpus`` of its running jobs (whole numbers: the sum
            is the same in any order).
        limited: ids of the jobs that have concurrency limits (a string or an expression).
    """

    __slots__ = ("_submitter", "count", "cpus", "jobs", "limited", "submitter_of")

    def __init__(self, submitter_of: Callable[[Job], str]) -> None:
        self.submitter_of = submitter_of
        self.jobs: dict[str, Job] = {}
        self.count: dict[str, int] = {}
        self.cpus: dict[str, int] = {}
        self.limited: set[str] = set()
        self._submitter: dict[str, str] = {}

    def add(self, job_id: str, job: Job) -> None:
        """A job that runs (another under the same id replaces it)."""
        if job_id in self.jobs:
            self.remove(job_id)
        name = self.submitter_of(job)
        self.jobs[job_id] = job
        self._submitter[job_id] = name
        self.count[name] = self.count.get(name, 0) + 1
        self.cpus[name] = self.cpus.get(name, 0) + job.request_cpus
        if job.concurrency_limits or job.concurrency_limits_expr:
            self.limited.add(job_id)

    def remove(self, job_id: str) -> None:
        """A job that no longer runs."""
        job = self.jobs.pop(job_id)
        name = self._submitter.pop(job_id)
        left = self.count[name] - 1
        if left:
            self.count[name] = left
            self.cpus[name] -= job.request_cpus
        else:
            del self.count[name]
            del self.cpus[name]
        self.limited.discard(job_id)
