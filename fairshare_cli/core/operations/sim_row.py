"""One row of ``fs simulate``: what one submitter, group, Slurm user or the pool holds
after one cycle (shared by :mod:`.simulate`, :mod:`.sim_queue` and :mod:`.sim_slurm`), and
which workload jobs never join the queue."""

from __future__ import annotations

import msgspec

#: The statuses of workload jobs that never join a simulated queue: a held job waits for a
#: release the run never makes; a completed or removed one is gone.
NEVER_QUEUED = frozenset(("held", "completed", "removed"))


class SimRow(msgspec.Struct, frozen=True, gc=False):
    """One entity after one cycle (docs/json.md ``simulate`` fields)."""

    time: float
    kind: str  # "submitter" | "group" | "slurm_user" | "pool"
    name: str
    slots: float
    effective_priority: float | None = None
    quota: float | None = None
    fairshare: float | None = None
    #: idle jobs (submitters and the pool; pending jobs for Slurm users)
    pending: int | None = None
    #: the pool's slots (pool rows)
    capacity: float | None = None


class JobStart(msgspec.Struct, frozen=True, gc=False):
    """A job that started during a simulation (a preempted job that starts again has a
    second record): ``submitter`` is the accountant's submitter name (HTCondor) or the
    job's user (Slurm)."""

    job_id: str
    submitter: str
    submit_time: float
    start_time: float
