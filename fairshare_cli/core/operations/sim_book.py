"""The bookkeeping of ``fs simulate``'s working set: idle batches, running jobs, claims.

What a cycle costs is what changed in it, so the counts the rows and the cycle read
(slots held, CPUs, idle and running jobs, the pool's slots in use) follow each start and
end here: a job joins the idle batches or starts running, a claim is made or ended, the
matched jobs leave their batches (the rest of a batch stays one batch). What a cycle does
with them is :mod:`.sim_queue`'s.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch, matched_offsets, rest_of
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor import cycle_accounting
from fairshare_cli.core.htcondor.claims import (
    NegotiatorState,
    claim_weight,
    current_claims,
    slot_weigher,
)
from fairshare_cli.core.htcondor.job_weight import idle_weigher
from fairshare_cli.core.htcondor.negotiator import Claim
from fairshare_cli.core.htcondor.negotiator.frozen_pslots import frozen_pool
from fairshare_cli.core.htcondor.negotiator.partitionable import (
    held_claim_weigher,
    held_slot,
    held_slot_weigher,
    pool_slots,
)
from fairshare_cli.core.htcondor.negotiator.running import RunningJobs
from fairshare_cli.core.htcondor.pool import (
    group_tree,
    negotiator_knobs,
    never_preempts,
    submitter_of,
)
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.partition_nodes import PartitionNodes
from fairshare_cli.core.operations.sim_row import JobStart
from fairshare_cli.core.operations.slurm_series import SlurmSeries


class SimRunning:
    """A running job: what its end releases."""

    __slots__ = ("end", "job", "seq", "submitter", "weight")

    def __init__(self, job: Job, submitter: str, weight: float | None, end: float | None) -> None:
        self.job = job
        self.submitter = submitter
        self.weight = weight  # None: no slot was charged (removal subtracts 1.0, as before)
        self.end = end
        self.seq = 0


class SimBook:
    """The state a simulation carries from cycle to cycle, and its bookkeeping."""

    def __init__(
        self,
        config: Config,
        accountant: acct.AccountantState,
        negotiator: NegotiatorState,
        queue: Sequence[Job | JobBatch],
        workload: Sequence[Job | JobBatch],
        start: float,
        slurm: SlurmSeries | None,
    ) -> None:
        self.config = config
        self.acc = cycle_accounting.CycleAccountant(accountant, config)
        self.rr_times = dict(negotiator.rr_times)
        self.last_cycle = negotiator.last_cycle
        self.group_quotas = negotiator.group_quotas
        self.limits_seen = set(negotiator.limits_seen)
        #: the last cycle's matches no job took: charged until the next cycle's CheckMatches
        self.jobless = list(negotiator.jobless)
        self.start = start
        self.slurm = slurm
        self.name_of = submitter_of(config)
        self.weigh = slot_weigher(config)
        self.tree = group_tree(config)
        self.knobs = negotiator_knobs(config)
        self.configured, self.partitionable, self.capacity = pool_slots(config)
        self.frozen = frozen_pool(config.machines)  # the slots, built once
        self._tell = self.frozen.tell
        self.skip_when_full = self.tree is None and never_preempts(config)
        #: Slurm jobs match only the machines of their partitions, as in ``fs negotiate``
        self.nodes = PartitionNodes(config) if config.partitions else None
        batches = [b if isinstance(b, JobBatch) else JobBatch(b) for b in workload]
        self.pending = sorted(batches, key=lambda b: (self._submitted(b.job), b.job.cluster_proc))
        self.next_pending = 0
        self.idle: list[JobBatch] = []
        self.idle_jobs = 0
        self.idle_of: dict[str, int] = {}  # idle jobs per submitter
        self.running: dict[str, SimRunning] = {}
        # as a cycle reads them, each weighed by the slot its claim holds (claimed first)
        held = held_slot_weigher(config.machines, config.negotiator.slot_weight, self.start)
        self.idle_weigh = idle_weigher(config.negotiator.slot_weight)
        self.running_jobs = RunningJobs(
            self.name_of,
            lambda job_id, job: held(self._claim_of(job_id), job),
            keeps_claims=True,
            weigh_claim=held_claim_weigher(
                config.machines, config.negotiator.slot_weight, self.start
            ),
        )
        self.ends: list[tuple[float, int, str]] = []  # (end, seq, job id), a heap
        self.seq = 0
        self.claims: dict[str, Claim] = {}
        self.demand: dict[str, float] | None = None  # the last cycle's count, while true
        self.unchecked: list[str] = []  # slots of claims held at their match cost
        self.unseen: set[str] = set()  # jobs on leftovers the accountant has yet to see
        self.slot_of_job: dict[str, str] = {}
        self.held: dict[str, int] = {}  # slots held per submitter (claims)
        # CPUs of running jobs per owner and job account (the Slurm rows)
        self.cpus: dict[tuple[str, str | None], int] = {}
        self.claimed_configured = 0
        self.in_use = 0  # the pool row's: a claim's slot, or on a partitionable one its CPUs
        self.gone: list[Claim] = []  # the state's claims on slots the pool no longer has
        self.stranded: list[Job] = []  # their running jobs: idle after the first cycle
        self.seen: set[str] = set()  # submitters keep a row (0 slots) once they have appeared
        self.beside: set[str] = set()  # Slurm jobs on a node's CPUs, no claim (slurm_beside)
        self.starts: list[JobStart] = []  # jobs started here (fs sweep's waits)
        self.finished = 0  # jobs ended here
        self._load(negotiator, queue)

    def _submitted(self, job: Job) -> float:
        return job.submit_time if job.submit_time is not None else self.start

    def _load(self, negotiator: NegotiatorState, queue: Sequence[Job | JobBatch]) -> None:
        singles = [item.job if isinstance(item, JobBatch) else item for item in queue]
        for claim in current_claims(negotiator, singles, self.config, self.start):
            if self._held_slot(claim.slot) in self.configured:
                self._claim(claim)
            else:  # a slot gone from the pool: CheckMatches ends it at the first cycle
                self.gone.append(claim)
        for item in queue:
            batch = item if isinstance(item, JobBatch) else JobBatch(item)
            job = batch.job
            if job.status == "running" and job.slot and batch.count == 1 and not self._on(job):
                self.stranded.append(job)  # (its slot gone: it runs through the first cycle)
                self.running_jobs.add(job.id, job)
            elif job.status == "idle":
                self._add_idle(self._restricted(batch))
            elif job.status == "running":
                for i in range(batch.count):
                    one = job if batch.count == 1 else replace(job, id=batch.job_id(i))
                    began = job.start_time if job.start_time is not None else self.start
                    self._add_running(one, self.name_of(one), self._held(one, began), began)

    def _restricted(self, batch: JobBatch) -> JobBatch:
        """A batch coming into the queue (submitted, loaded, back from a slot gone), its
        Slurm job bounded to its partitions' machines (``PartitionNodes.restricted``); a
        job sent back by a preemption is bounded already."""
        return batch if self.nodes is None else self.nodes.restricted(batch)

    def _on(self, job: Job) -> bool:
        """Whether a running job's slot is one of the pool's."""
        return job.slot is None or self._held_slot(job.slot) in self.configured

    def _held(self, job: Job, began: float) -> float | None:
        """The weight a running job gives back: its claim's, else its slot's, else None (1)."""
        slot = self.slot_of_job.get(job.id)
        if slot is not None:
            return claim_weight(self.claims[slot], self.weigh)
        return self.weigh(job.slot, began) if job.slot else None

    # -- bookkeeping ----------------------------------------------------------------

    def _claim(self, claim: Claim) -> None:
        old = self.claims.get(claim.slot)
        if old is not None:
            if old.job_id not in self.running:  # counted by its claim: the count is off
                self.demand = None
            self._unclaim(old)
        self.claims[claim.slot] = claim
        self.running_jobs.claim(claim.job_id)
        self._tell(None, claim)
        if claim.match_cost is not None:
            self.unchecked.append(claim.slot)
        self.slot_of_job[claim.job_id] = claim.slot
        self.held[claim.submitter] = self.held.get(claim.submitter, 0) + 1
        self.seen.add(claim.submitter)
        if self._held_slot(claim.slot) in self.configured:
            self.claimed_configured += 1
            self.in_use += self._in_use(claim)

    def _unclaim(self, claim: Claim) -> None:
        del self.claims[claim.slot]
        self.running_jobs.unclaim(claim.job_id)
        self._tell(claim, None)
        if self.slot_of_job.get(claim.job_id) == claim.slot:
            del self.slot_of_job[claim.job_id]
        self.held[claim.submitter] -= 1
        if self._held_slot(claim.slot) in self.configured:
            self.claimed_configured -= 1
            self.in_use -= self._in_use(claim)

    def _claim_of(self, job_id: str) -> Claim | None:
        """The claim that runs ``job_id`` (None: none)."""
        slot = self.slot_of_job.get(job_id)
        return None if slot is None else self.claims.get(slot)

    def _held_slot(self, name: str) -> str:
        return held_slot(name, self.partitionable)

    def _in_use(self, claim: Claim) -> int:
        """What a claim takes of the pool row's capacity: a dynamic slot its CPUs (as a
        partitionable slot counts its total CPUs), any other slot 1."""
        if self._held_slot(claim.slot) == claim.slot.lower():
            return 1
        return int(dict(claim.resources).get("Cpus", 1))

    def _add_idle(self, batch: JobBatch) -> None:
        self.idle.append(batch)
        self.idle_jobs += batch.count
        name = self.name_of(batch.job)
        self.idle_of[name] = self.idle_of.get(name, 0) + batch.count
        self.seen.add(name)

    def _add_running(self, job: Job, submitter: str, weight: float | None, began: float) -> None:
        end = began + job.run_time if job.run_time is not None else None
        run = SimRunning(job, submitter, weight, end)
        self.running[job.id] = run
        self.running_jobs.add(job.id, job)
        key = (job.owner, job.account)
        self.cpus[key] = self.cpus.get(key, 0) + job.request_cpus
        if end is not None:
            self.seq += 1
            run.seq = self.seq
            heapq.heappush(self.ends, (end, self.seq, job.id))

    def _drop_running(self, job_id: str, t: float) -> SimRunning:
        run = self.running.pop(job_id)
        self.running_jobs.remove(job_id)
        self.cpus[run.job.owner, run.job.account] -= run.job.request_cpus
        slot = self.slot_of_job.get(job_id)
        if slot is not None and self.claims[slot].job_id == job_id:
            self._unclaim(self.claims[slot])
        if self.slurm is not None:
            self.slurm.end(job_id, t)
        return run

    def _take_idle(self, ids: set[str]) -> dict[str, Job]:
        """Remove the matched jobs from the idle batches (the rest of a batch stays
        batched) and return them by id, idle as they were queued."""
        taken: dict[str, Job] = {}
        if not ids:
            return taken
        by_cluster: dict[str, list[str]] = {}
        for job_id in ids:
            by_cluster.setdefault(job_id.partition(".")[0], []).append(job_id)
        kept: list[JobBatch] = []
        for batch in self.idle:
            cluster = batch.job.id.partition(".")[0]
            if cluster not in by_cluster:
                kept.append(batch)
                continue
            if batch.count == 1:
                taken_here = [0] if batch.job.id in ids else []
            else:
                taken_here = matched_offsets(batch, by_cluster[cluster])
            if not taken_here:
                kept.append(batch)
                continue
            kept.extend(rest_of(batch, taken_here))
            for i in taken_here:
                job_id = batch.job_id(i)
                taken[job_id] = batch.job if batch.count == 1 else replace(batch.job, id=job_id)
            self.idle_of[self.name_of(batch.job)] -= len(taken_here)
        self.idle = kept
        self.idle_jobs -= len(taken)
        return taken

    @property
    def accountant(self) -> acct.AccountantState:
        """The accountant as it stands (every record at the last update)."""
        return self.acc.state()

    def live_jobs(self) -> tuple[Job, ...]:
        """The queue at the end: idle batches (their first job) then running jobs."""
        return (*(b.job for b in self.idle), *(r.job for r in self.running.values()))

    def negotiator(self) -> NegotiatorState:
        """The ``negotiator`` section at the end."""
        claims, rr, seen = dict(self.claims), dict(self.rr_times), tuple(sorted(self.limits_seen))
        jobless = tuple(self.jobless)
        return NegotiatorState(claims, rr, self.last_cycle, self.group_quotas, seen, jobless)
