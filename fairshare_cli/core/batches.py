"""Batches of identical idle jobs: the queue as the negotiator and the simulator see it."""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from fairshare_cli.core.jobs import Job


class JobBatch(Struct, frozen=True, gc=False):
    """``count`` identical jobs ``C.P`` … ``C.(P+count-1)`` (HTCondor's ``queue N``).

    ``job`` is the first of them (its id is ``C.P``); with ``count`` 1 the batch is just
    ``job``. Batches keep a million-job queue to a few thousand objects: the negotiator only
    names jobs, it never needs one object per job.
    """

    job: Job
    count: int = 1

    def _cluster_first(self) -> tuple[str, int]:
        cluster, _, proc = self.job.id.partition(".")
        return cluster, int(proc) if proc.isdigit() else 0

    def job_id(self, i: int) -> str:
        """The id of the ``i``-th job of the batch."""
        if self.count == 1:
            return self.job.id
        cluster, first = self._cluster_first()
        return f"{cluster}.{first + i}"

    def holds(self, job_id: str, start: int = 0) -> bool:
        """Whether ``job_id`` is one of the batch's jobs from the ``start``-th on."""
        if self.count == 1:
            return start == 0 and job_id == self.job.id
        cluster, _, proc = job_id.partition(".")
        mine, first = self._cluster_first()
        return (
            cluster == mine and proc.isdigit() and first + start <= int(proc) < first + self.count
        )


class IdBatch(JobBatch, frozen=True, gc=False):
    """Jobs identical but for their ids, ``ids`` in queue order (``count`` of them): one
    submitter's jobs of one cluster and one autocluster, which a jobs file need not list
    together nor number consecutively (``job`` is the first of them)."""

    ids: list[str] = []

    def job_id(self, i: int) -> str:
        """The id of the ``i``-th job of the batch."""
        return self.ids[i]

    def holds(self, job_id: str, start: int = 0) -> bool:
        """Whether ``job_id`` is one of the batch's jobs from the ``start``-th on."""
        return job_id in self.ids[start:]


def matched_offsets(batch: JobBatch, ids: list[str]) -> list[int]:
    """Offsets in a batch of the matched ids of its cluster (by proc number, no scan),
    the proc read as the batch numbers its jobs (:meth:`JobBatch.job_id`): after the
    first dot, whatever the cluster (``abc.1``, ``-1.2``: jobs a workload's ``"count"``
    makes of any id; a numeric-only reading took each for the batch's first job)."""
    _, first = batch._cluster_first()
    out = []
    for job_id in ids:
        proc = job_id.partition(".")[2]
        if not proc.isdigit():
            continue
        at = int(proc) - first
        if 0 <= at < batch.count and batch.job_id(at) == job_id:
            out.append(at)
    return sorted(out)


def rest_of(batch: JobBatch, taken: list[int]) -> list[JobBatch]:
    """What is left of a batch once the jobs at ``taken`` (sorted offsets) are gone."""
    out = []
    lo = 0
    for i in [*taken, batch.count]:
        if i > lo:
            job = batch.job if lo == 0 else replace(batch.job, id=batch.job_id(lo))
            out.append(JobBatch(job, i - lo))
        lo = i + 1
    return out
