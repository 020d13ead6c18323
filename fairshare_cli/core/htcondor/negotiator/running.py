"""The queue's running jobs as a cycle reads them, with their sums kept as they change.

A cycle counts each submitter's running jobs into its demand (``Scheduler::count_jobs``)
and reads the concurrency limits they hold (``Accountant::LoadLimits``). A cycle built from
a queue fills a :class:`RunningJobs` from it (:func:`~.queue.scan_jobs`); ``fs simulate``
keeps one from cycle to cycle, adding a job when it starts and removing it when it ends, so
that a cycle's cost does not grow with the jobs that keep running.
"""

from __future__ import annotations

from collections.abc import Callable

from fairshare_cli.core.htcondor.negotiator.results import Claim
from fairshare_cli.core.jobs import Job


class RunningJobs:
    """Running jobs by id, and per submitter their count and Σ of their weights.

    Attributes:
        jobs: job id -> job, in the order they were added.
        count: submitter -> its running jobs (a submitter with none is absent).
        weights: submitter -> Σ of its running jobs' ``weigh(job_id, job)``, each taken
            when the job is added (its ``WeightedRunningJobs``).
        limited: ids of the jobs that have concurrency limits (a string or an expression).
        keeps_claims: the caller also gives each claim as it starts and ends
            (:meth:`claim`, :meth:`unclaim`; ``fs simulate``), so that ``orphans`` is known.
        orphans: the job ids of those claims that run no job here (a claim of a job the
            queue does not hold counts in the demand too).
        weigh_claim: what such a claim adds to its submitter's ``WeightedRunningJobs``: the
            slot weight of the slot it holds (``held_claim_weigher``); None: the weight it
            was charged (1 when it records none).
    """

    __slots__ = (
        "_claimed",
        "_submitter",
        "_weight",
        "count",
        "jobs",
        "keeps_claims",
        "limited",
        "orphans",
        "submitter_of",
        "weigh",
        "weigh_claim",
        "weights",
    )

    def __init__(
        self,
        submitter_of: Callable[[Job], str],
        weigh: Callable[[str, Job], float],
        keeps_claims: bool = False,
        weigh_claim: Callable[[Claim], float] | None = None,
    ) -> None:
        self.submitter_of = submitter_of
        self.weigh_claim = weigh_claim
        #: a running job's weight by its id: the slot weight of the claim that runs it
        #: (``held_slot_weigher``); a job's claim is known before the job is added
        self.weigh = weigh
        self.keeps_claims = keeps_claims
        self.orphans: set[str] = set()
        self._claimed: dict[str, int] = {}  # job id -> the claims that run it
        self.jobs: dict[str, Job] = {}
        self.count: dict[str, int] = {}
        self.weights: dict[str, float] = {}
        self._weight: dict[str, float] = {}  # job id -> the weight it was added with
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
        weight = self._weight[job_id] = self.weigh(job_id, job)
        self.weights[name] = self.weights.get(name, 0.0) + weight
        if job.concurrency_limits or job.concurrency_limits_expr:
            self.limited.add(job_id)
        self.orphans.discard(job_id)

    def weight_of(self, job_id: str) -> float | None:
        """The weight ``job_id`` was added with (None: it does not run)."""
        return self._weight.get(job_id)

    def remove(self, job_id: str) -> None:
        """A job that no longer runs."""
        del self.jobs[job_id]
        name = self._submitter.pop(job_id)
        weight = self._weight.pop(job_id)
        left = self.count[name] - 1
        if left:
            self.count[name] = left
            self.weights[name] -= weight
        else:
            del self.count[name]
            del self.weights[name]
        self.limited.discard(job_id)
        if job_id in self._claimed:
            self.orphans.add(job_id)

    def claim(self, job_id: str) -> None:
        """A claim that runs ``job_id`` (empty: no job) started."""
        if job_id:
            self._claimed[job_id] = self._claimed.get(job_id, 0) + 1
            if job_id not in self.jobs:
                self.orphans.add(job_id)

    def unclaim(self, job_id: str) -> None:
        """A claim that runs ``job_id`` ended."""
        if job_id:
            left = self._claimed[job_id] - 1
            if left:
                self._claimed[job_id] = left
            else:
                del self._claimed[job_id]
                self.orphans.discard(job_id)
