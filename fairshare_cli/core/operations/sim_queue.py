"""The working set of ``fs simulate`` through one cycle: ends, arrivals, the negotiation.

The jobs that end are popped from a heap, the workload is read through a moving index,
idle jobs stay :class:`JobBatch` es until matched, and the accountant is charged as
:func:`~fairshare_cli.core.operations.negotiate.apply_matches` charges it, one match at a
time; a release gives back the weight its claim was charged. The counts each start and end
keep are :mod:`.sim_book`'s.
"""

from __future__ import annotations

import heapq
import math

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import (
    accounted_jobless,
    checked_claim,
    claim_weight,
    dynamic_slot_weigher,
    own_preemption,
    passed_on,
    unchecked_matches,
)
from fairshare_cli.core.htcondor.customer_record import as_stored
from fairshare_cli.core.htcondor.negotiator import Claim, CycleResult, negotiate_cycle
from fairshare_cli.core.htcondor.negotiator.results import JoblessMatch
from fairshare_cli.core.htcondor.placement import fill_leftovers
from fairshare_cli.core.htcondor.pool import QuotaKnown, quota_view
from fairshare_cli.core.operations import slurm_beside as beside
from fairshare_cli.core.operations.sim_book import SimBook
from fairshare_cli.core.operations.sim_row import NEVER_QUEUED, JobStart, SimRow
from fairshare_cli.core.operations.slurm_series import of_association


class SimQueue(SimBook):
    """A simulation's working set, cycle by cycle (:meth:`finish_jobs`, :meth:`submit_due`,
    :meth:`negotiate`, :meth:`rows`)."""

    # -- one cycle ------------------------------------------------------------------

    def finish_jobs(self, t: float) -> None:
        """``UpdatePriorities`` at ``t``, then ``CheckMatches`` sees the jobs whose run time is
        up: their slots were charged up to ``t`` (HTCondor sees an end at the next cycle)."""
        self.acc.update(t)
        for held in self.jobless:  # (the last cycle's matches no job took: slots unclaimed,
            self.acc.remove_match(held.submitter, held.weight or 0.0, t, held.start_time)
            holder = self.claims.get(held.slot)  # or their holder's, put back)
            if holder is not None:
                self.acc.add_match(holder.submitter, claim_weight(holder, self.weigh), t)
        self.jobless = []
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
        self.demand = result.demand
        self._commit(result, t)
        if self.demand is not None and not self._weigh_as_idle(result):
            self.demand = None  # a job started or stopped weighs otherwise running: recount
        self.rr_times.update({k: v for k, v in result.rr_times.items() if math.isfinite(v)})
        self.last_cycle = t
        self._strand()

    def _weigh_as_idle(self, result: CycleResult) -> bool:
        """Whether the cycle's count of ``result.demand`` still holds after its commit: no
        job was preempted and each matched job weighs running what it weighed idle
        (``WeightedRunningJobs`` weighs the slot a job holds, ``WeightedIdleJobs`` its
        requests)."""
        if not self.knobs.use_weighted_demand:
            return True
        for m in result.matches:
            if m.preempted_job is not None:
                return False
            run = self.running.get(m.job_id)
            held = self.running_jobs.weight_of(m.job_id)
            if run is None or held != self.idle_weigh(run.job):
                return False
        return True

    def _strand(self) -> None:
        """The jobs on slots gone from the pool go back to idle once the cycle that ended
        their claims is over (as a committed ``fs negotiate`` leaves them)."""
        for job in self.stranded:
            self.running_jobs.remove(job.id)
            back = JobBatch(replace(job, status="idle", slot=None, start_time=None))
            self._add_idle(self._restricted(back))
        self.stranded = []

    def _charge(self, result: CycleResult, t: float) -> None:
        """``UpdatePriorities`` at ``t``, then each match's ``AddMatch`` in turn (a
        preemption ``RemoveMatch``es first; a match no job takes is charged in its turn
        and kept until the next cycle's :meth:`finish_jobs`)."""
        self.acc.update(t)
        jobless = accounted_jobless(result.jobless, self.claims)
        self.jobless = [
            Claim(j.slot, j.submitter, "", t, j.weight, concurrency_limits=j.limits)
            for j in jobless
        ]
        at: dict[int, list[JoblessMatch]] = {}
        for j in jobless:  # (after the last match: charged at the end)
            at.setdefault(min(j.after, len(result.matches)), []).append(j)
        for i, m in enumerate(result.matches):
            for j in at.get(i, ()) if at else ():
                self._add_jobless(j, t)
            old = self.claims.get(m.slot)
            if old is not None and own_preemption(old, m):  # (nothing charged or released)
                continue
            if old is not None and m.preempted_job:
                self.acc.remove_match(old.submitter, claim_weight(old, self.weigh), t, t)
            if m.reason != beside.BESIDE:
                self.acc.add_match(m.submitter, m.weight if m.charge is None else m.charge, t)
        for j in at.get(len(result.matches), ()):
            self._add_jobless(j, t)

    def _add_jobless(self, j: JoblessMatch, t: float) -> None:
        """``AddMatch`` of a match no job takes; on a claimed slot it first takes the
        holder off the accountant (the claim stays: the next cycle puts it back)."""
        holder = self.claims.get(j.slot)
        if holder is not None:
            self.acc.remove_match(holder.submitter, claim_weight(holder, self.weigh), t, t)
        self.acc.add_match(j.submitter, j.weight, t)

    def _commit(self, result: CycleResult, t: float) -> None:
        """The accountant as ``apply_matches`` charges it (:meth:`_charge`); matched jobs
        leave their batches, preempted ones go back to idle."""
        self._charge(result, t)
        started = self._take_idle({m.job_id for m in result.matches})
        for m in result.matches:
            held = self.claims.get(m.slot)
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
                claim = passed_on(held, m, t)
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
        known = QuotaKnown(demand, self.tree, size)
        for r in quota_view(config, live, accountant, claims, t, self.rr_times, known):
            rec = records.get(r.group)
            eup = None
            if rec is not None:
                rec = acct.advance(rec, t, h)  # itself when updated at t
                eup = acct.effective_priority(rec, acct.priority_factor(rec, config, gtree))
            out.append(SimRow(t, "group", r.group, r.in_use, eup, r.quota))
        return out
