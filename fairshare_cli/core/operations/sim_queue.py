"""The working set of ``fs simulate``: idle batches, running jobs, claims, kept as they change.

What a cycle costs is what changed in it: the jobs that end are popped from a heap, the
workload is read through a moving index, idle jobs stay :class:`JobBatch` es until matched
(the rest of a batch stays one batch), a finished job leaves, and the counts the rows and
the cycle read (slots held, CPUs, idle and running jobs) follow each start and end. The
accountant is charged as :func:`~fairshare_cli.core.operations.negotiate.apply_matches`
charges it, one match at a time; a release gives back the weight its claim was charged.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch, matched_offsets, rest_of
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor import cycle_accounting
from fairshare_cli.core.htcondor.claims import (
    NegotiatorState,
    checked_claim,
    claim_weight,
    current_claims,
    dynamic_slot_weigher,
    match_claim,
    slot_weigher,
    unchecked_matches,
)
from fairshare_cli.core.htcondor.customer_record import as_stored
from fairshare_cli.core.htcondor.negotiator import Claim, CycleResult, negotiate_cycle
from fairshare_cli.core.htcondor.negotiator.frozen_pslots import frozen_pool
from fairshare_cli.core.htcondor.negotiator.partitionable import held_slot, pool_slots
from fairshare_cli.core.htcondor.negotiator.running import RunningJobs
from fairshare_cli.core.htcondor.placement import fill_leftovers
from fairshare_cli.core.htcondor.pool import (
    group_tree,
    negotiator_knobs,
    never_preempts,
    quota_view,
    submitter_of,
)
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations import slurm_beside as beside
from fairshare_cli.core.operations.partition_nodes import PartitionNodes
from fairshare_cli.core.operations.sim_row import NEVER_QUEUED, JobStart, SimRow
from fairshare_cli.core.operations.slurm_series import SlurmSeries, of_association


class _Running:
    """A running job: what its end releases."""

    __slots__ = ("end", "job", "seq", "submitter", "weight")

    def __init__(self, job: Job, submitter: str, weight: float | None, end: float | None) -> None:
        self.job = job
        self.submitter = submitter
        self.weight = weight  # None: no slot was charged (removal subtracts 1.0, as before)
        self.end = end
        self.seq = 0


class SimQueue:
    """The state a simulation carries from cycle to cycle."""

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
        self.running: dict[str, _Running] = {}
        self.running_jobs = RunningJobs(self.name_of, keeps_claims=True)  # as a cycle reads
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
        run = _Running(job, submitter, weight, end)
        self.running[job.id] = run
        self.running_jobs.add(job.id, job)
        key = (job.owner, job.account)
        self.cpus[key] = self.cpus.get(key, 0) + job.request_cpus
        if end is not None:
            self.seq += 1
            run.seq = self.seq
            heapq.heappush(self.ends, (end, self.seq, job.id))

    def _drop_running(self, job_id: str, t: float) -> _Running:
        run = self.running.pop(job_id)
        self.running_jobs.remove(job_id)
        self.cpus[run.job.owner, run.job.account] -= run.job.request_cpus
        slot = self.slot_of_job.get(job_id)
        if slot is not None and self.claims[slot].job_id == job_id:
            self._unclaim(self.claims[slot])
        if self.slurm is not None:
            self.slurm.end(job_id, t)
        return run

    # -- one cycle ------------------------------------------------------------------

    def finish_jobs(self, t: float) -> None:
        """``UpdatePriorities`` at ``t``, then ``CheckMatches`` sees the jobs whose run time is
        up: their slots were charged up to ``t`` (HTCondor sees an end at the next cycle)."""
        self.acc.update(t)
        released: list[tuple[str, float]] = []  # each RemoveMatch in turn
        for claim in self.gone:  # (the first cycle's CheckMatches: their slots are gone)
            released.append((claim.submitter, claim_weight(claim, self.weigh)))
        self.gone = []
        ends = self.ends
        while ends and ends[0][0] <= t:
            end, seq, job_id = heapq.heappop(ends)
            run = self.running.get(job_id)
            if run is None or run.seq != seq:
                continue  # preempted since: this end is stale
            self._drop_running(job_id, end)
            self.finished += 1
            if job_id in self.beside:  # (never matched: nothing to give back)
                self.beside.discard(job_id)
                continue
            if job_id in self.unseen:  # started and ended between two CheckMatches
                self.unseen.discard(job_id)
                continue
            released.append((run.submitter, 1.0 if run.weight is None else as_stored(run.weight)))
        for name, weight in released:
            self.acc.remove_match(name, weight, t, t)
        if self.unchecked or self.unseen:
            self._check_matches(t)

    def _check_matches(self, t: float) -> None:
        """``CheckMatches`` at ``t``: the last cycle's partitionable-slot matches still
        claimed are held at their dynamic slot's own weight from now on, and the dynamic
        slots the schedd claimed out of their leftovers are added at theirs."""
        claims = [
            c for s in self.unchecked if (c := self.claims.get(s)) and c.match_cost is not None
        ]
        self.unchecked = []
        pending = unchecked_matches(claims, self.weigh)
        self.acc.check_matches(pending, t)
        for claim, (_, _, own) in zip(claims, pending, strict=True):
            self.claims[claim.slot] = checked = checked_claim(claim)
            self._tell(claim, checked)
            run = self.running.get(claim.job_id)
            if run is not None:
                run.weight = own
        for job_id in sorted(self.unseen):  # each AddMatch in turn
            claim = self.claims[self.slot_of_job[job_id]]
            self.acc.add_match(claim.submitter, claim.weight or 0.0, t)
        self.unseen = set()

    def submit_due(self, t: float) -> None:
        """Workload jobs whose submit time has come join the queue, idle (but held ones,
        as ``hold = true`` submits them, and completed or removed ones: never run)."""
        pending = self.pending
        k = self.next_pending
        while k < len(pending) and self._submitted(pending[k].job) <= t:
            batch = pending[k]
            if batch.job.status in NEVER_QUEUED:
                k += 1
                continue
            job = replace(
                batch.job,
                status="idle",
                slot=None,
                start_time=None,
                submit_time=self._submitted(batch.job),
            )
            self._add_idle(self._restricted(JobBatch(job, batch.count)))
            k += 1
        self.next_pending = k

    def negotiate(self, t: float) -> None:
        """One negotiation cycle at ``t``, committed (``AddMatch``, preemptions released).

        Skipped when it cannot match anything: no idle job, or (no claimed slot can be
        taken) no free slot; only without groups, whose round-robin times a cycle moves."""
        self.demand = None
        free = self.capacity - self.claimed_configured
        if self.tree is None and (not self.idle_jobs or (self.skip_when_full and free <= 0)):
            self.acc.update(t)
            self.last_cycle = t
            self._strand()
            return
        config = self.config
        result = negotiate_cycle(
            config.machines,
            self.claims.values(),  # listed once, by the snapshot
            self.idle,
            self.name_of,
            self.acc.priorities(t),
            self.tree,
            self.knobs,
            t,
            rr_times=self.rr_times,
            frozen=self.frozen,
            running=self.running_jobs,
            last_quotas=self.group_quotas,
        )
        if beside.may_start_beside(config, result):  # (Slurm jobs on a node's free CPUs)
            live = [JobBatch(r.job) for r in self.running.values()] + self.idle
            score = beside.series_scorer(config, self.slurm, t)  # (their order: priority)
            result = beside.start_beside(config, self.claims.values(), live, result, t, None, score)
        self.group_quotas = result.group_quotas or self.group_quotas
        self.limits_seen.update(result.limits_seen)
        self.demand = result.demand  # a matched job counts the same idle or running
        self._commit(result, t)
        self.rr_times.update({k: v for k, v in result.rr_times.items() if math.isfinite(v)})
        self.last_cycle = t
        self._strand()

    def _strand(self) -> None:
        """The jobs on slots gone from the pool go back to idle once the cycle that ended
        their claims is over (as a committed ``fs negotiate`` leaves them)."""
        for job in self.stranded:
            self.running_jobs.remove(job.id)
            back = JobBatch(replace(job, status="idle", slot=None, start_time=None))
            self._add_idle(self._restricted(back))
        self.stranded = []

    def _commit(self, result: CycleResult, t: float) -> None:
        """The accountant as ``apply_matches`` charges it; matched jobs leave their batches,
        preempted ones go back to idle."""
        self.acc.update(t)
        for m in result.matches:  # AddMatch, one by one (a preemption RemoveMatches first)
            old = self.claims.get(m.slot)
            if old is not None and m.preempted_job:
                self.acc.remove_match(old.submitter, claim_weight(old, self.weigh), t, t)
            if m.reason != beside.BESIDE:
                self.acc.add_match(m.submitter, m.weight if m.charge is None else m.charge, t)
        started = self._take_idle({m.job_id for m in result.matches})
        for m in result.matches:
            if m.preempted_job and m.preempted_job in self.running:
                run = self._drop_running(m.preempted_job, t)
                back = replace(run.job, status="idle", slot=None, start_time=None)
                self._add_idle(JobBatch(back))
            job = replace(started[m.job_id], status="running", slot=m.slot, start_time=t)
            if self.nodes is not None:  # (of several partitions: first, one of its node's)
                job = self.nodes.started(job, m.slot)
            self.starts.append(JobStart(m.job_id, m.submitter, self._submitted(job), t))
            if m.reason == beside.BESIDE:  # (Slurm: on the node's CPUs, with no claim)
                self.beside.add(m.job_id)
                self._add_running(replace(job, slot=None), m.submitter, None, t)
            else:
                claim = match_claim(m, t)
                self._claim(claim)
                self._add_running(job, m.submitter, claim_weight(claim, self.weigh), t)
            if self.slurm is not None:
                self.slurm.start(m.job_id, job, t)
        if self.partitionable and self.knobs.use_slot_weights:
            self._claim_leftovers(result, t)

    def _claim_leftovers(self, result: CycleResult, t: float) -> None:
        """``CLAIM_PARTITIONABLE_LEFTOVERS`` (25.0's default: ``NEGOTIATOR_USE_SLOT_WEIGHTS``):
        the schedd fills each matched partitionable slot with more of the submitter's idle
        jobs (:func:`~fairshare_cli.core.htcondor.placement.fill_leftovers`). The
        negotiator makes no match for these: the next cycle's ``CheckMatches`` finds each
        dynamic slot claimed and ``AddMatch``es it at its own weight
        (:meth:`_check_matches`); one that ends before then is never charged. The schedd
        fills only the matched slots: only the claims on them are handed over."""
        matched = [(m.slot, m.submitter) for m in result.matches if m.preempted_job is None]
        idle = [(b, self.name_of(b.job)) for b in self.idle]
        weigh = dynamic_slot_weigher(self.config, t)
        dslots = [slot for slot, _ in matched]
        held = self.frozen.claims_on(list(self.claims.values()), dslots)
        pslots = self.frozen.parents_of(dslots)
        claims = fill_leftovers(self.config.machines, held, matched, idle, t, weigh, pslots)
        started = self._take_idle({c.job_id for c in claims})
        for c in claims:
            job = replace(started[c.job_id], status="running", slot=c.slot, start_time=t)
            self._claim(c)
            self._add_running(job, c.submitter, c.weight, t)
            self.unseen.add(c.job_id)
            if self.slurm is not None:
                self.slurm.start(c.job_id, job, t)

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

    # -- rows -----------------------------------------------------------------------

    def rows(self, t: float) -> list[SimRow]:
        """What each submitter, group and Slurm user holds after the cycle at ``t``."""
        names = sorted(self.seen)
        idle, held = self.idle_of, self.held
        out = [
            SimRow(t, "submitter", n, float(held.get(n, 0)), eup, pending=idle.get(n, 0))
            for n, eup in zip(names, self.acc.effective_priorities(names, t), strict=True)
        ]
        if self.config.groups:
            out += self._group_rows(t)
        if self.slurm is not None:
            _, tree = self.slurm.tree(t)
            out += [
                SimRow(t, "slurm_user", name, float(of_association(self.cpus, name, tree)),
                       fairshare=factor)
                for name, factor in sorted(self.slurm.factors(t).items())
            ]  # fmt: skip
        capacity = float(self.capacity)
        in_use = float(self.in_use)
        out.append(SimRow(t, "pool", "pool", in_use, pending=self.idle_jobs, capacity=capacity))
        return out

    def _group_rows(self, t: float) -> list[SimRow]:
        config, accountant = self.config, self.acc.view()
        demand, live = self.demand, []
        if demand is None:  # count the queue again
            live = [*self.idle, *map(JobBatch, self.running_jobs.jobs.values())]
        records = acct.all_records(accountant, config)
        h = config.accountant.priority_halflife
        gtree = self.acc.tree
        out = []
        claims = list(self.claims.values())
        size = self.frozen.pool_size(claims, self.knobs, t)
        for r in quota_view(config, live, accountant, claims, t, demand, self.tree, size):
            rec = records.get(r.group)
            eup = None
            if rec is not None:
                rec = acct.advance(rec, t, h)  # itself when updated at t
                eup = acct.effective_priority(rec, acct.priority_factor(rec, config, gtree))
            out.append(SimRow(t, "group", r.group, r.in_use, eup, r.quota))
        return out

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
        return NegotiatorState(claims, rr, self.last_cycle, self.group_quotas, seen)
