"""The plain ``fs simulate`` loop, kept as the reference the fast one is tested against.

Every cycle re-reads every job ever queued, ``count`` batches are single jobs, and the
Slurm series recharges all the work done so far: slow (quadratic in the run's length),
but each step is the obvious one. :func:`simulate_reference` must give the rows of
:func:`fairshare_cli.core.operations.simulate.simulate` (a property test compares them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor import cycle_accounting
from fairshare_cli.core.htcondor.claims import (
    NegotiatorState,
    checked_claim,
    claim_weight,
    current_claims,
    dynamic_slot_weigher,
    slot_weigher,
    unchecked_matches,
)
from fairshare_cli.core.htcondor.negotiator import Claim, CycleResult, negotiate_cycle
from fairshare_cli.core.htcondor.negotiator.partitionable import held_slot, pool_slots
from fairshare_cli.core.htcondor.placement import fill_leftovers
from fairshare_cli.core.htcondor.pool import (
    group_tree,
    negotiator_knobs,
    priorities_at,
    quota_view,
    submitter_of,
)
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.negotiate import apply_matches
from fairshare_cli.core.operations.partition_nodes import restrict_batches
from fairshare_cli.core.operations.sim_row import SimRow
from fairshare_cli.core.operations.simulate import SimResult, SimWindow, cycle_times
from fairshare_cli.core.operations.slurm_beside import BESIDE, start_beside, tree_scorer
from fairshare_cli.core.usage import UsageRecord

#: The last decay pass before a time and the association tree then, given the work so far.
SlurmTree = Callable[[Sequence[UsageRecord], float], tuple[float, Any]]


def simulate_reference(
    config: Config,
    accountant: acct.AccountantState,
    negotiator: NegotiatorState,
    queue: Sequence[Job],
    workload: Sequence[Job | JobBatch],
    window: SimWindow,
    *,
    slurm_tree: SlurmTree | None = None,
    progress: Callable[[float], None] | None = None,
) -> SimResult:
    """The plain simulation: every cycle re-reads every job ever queued (for tests).

    Args:
        config: the pool config.
        accountant: the accountant at the start.
        negotiator: claims and round-robin times at the start.
        queue: the jobs already in the queue (running ones keep their slots).
        workload: jobs to submit at their ``submit_time`` (none: at the start); a job with
            ``run_time`` finishes that long after it starts.
        window: start, length and cycle interval.
        slurm_tree: given the usage records of the work done so far and a time, the last
            decay pass before it and the association tree then: its fair-share factor per
            user (``slurm_user`` rows) and the priorities that order the Slurm jobs
            started beside the work on a node (None: no such rows, the cycle's order).
        progress: called with the fraction done after each cycle.

    Returns:
        The rows of every cycle and the final state.
    """
    singles = [
        replace(item.job, id=item.job_id(i)) if isinstance(item, JobBatch) else item
        for item in workload
        for i in range(item.count if isinstance(item, JobBatch) else 1)
    ]
    sim = _Simulation(config, accountant, negotiator, queue, singles, window.start)
    sim.slurm_tree = slurm_tree
    rows: list[SimRow] = []
    times = cycle_times(window.start, window.until, window.cycle)
    for k, t in enumerate(times):
        sim.finish_jobs(t)
        sim.submit_due(t)
        sim.negotiate(t)
        rows.extend(sim.rows(t, slurm_tree))
        if progress is not None:
            progress((k + 1) / len(times))
    return SimResult(tuple(rows), tuple(sim.jobs), sim.accountant, sim.negotiator, len(times))


def _held_weight(
    job: Job, held: Mapping[str, Claim], weigh: Callable[[str, float], float], start: float
) -> float:
    """The weight a finishing job gives back: its claim's, else its slot's, else 1.0."""
    claim = held.get(job.id)
    if claim is not None:
        return claim_weight(claim, weigh)
    if job.slot:
        return weigh(job.slot, job.start_time if job.start_time is not None else start)
    return 1.0


class _Simulation:
    """The state a simulation carries from cycle to cycle."""

    def __init__(
        self,
        config: Config,
        accountant: acct.AccountantState,
        negotiator: NegotiatorState,
        queue: Sequence[Job],
        workload: Sequence[Job],
        start: float,
    ) -> None:
        self.config = config
        self.accountant = accountant
        self.negotiator = negotiator
        self.start = start
        self.name_of = submitter_of(config)
        self.weigh = slot_weigher(config)
        self.tree = group_tree(config)
        self.knobs = negotiator_knobs(config)
        self.jobs: list[Job] = list(queue)
        self.pending = sorted(workload, key=lambda j: (self._submitted(j), j.cluster_proc))
        #: job id -> (job, start, end): the work done, for Slurm's usage
        self.ran: dict[str, tuple[Job, float, float | None]] = {}
        self.seen: set[str] = set()  # submitters keep a row (0 slots) once they have appeared
        self.leftovers: list[str] = []  # jobs the schedd started on leftovers this cycle
        self.unseen: dict[str, Claim] = {}  # their claims, until the next CheckMatches
        self.beside: set[str] = set()  # Slurm jobs started on a node's CPUs: no claim
        self.slurm_tree: SlurmTree | None = None

    def _submitted(self, job: Job) -> float:
        return job.submit_time if job.submit_time is not None else self.start

    def finish_jobs(self, t: float) -> None:
        """``UpdatePriorities`` at ``t``, then ``CheckMatches`` sees the jobs whose run time is
        up: their slots were charged up to ``t`` (HTCondor sees an end at the next cycle),
        and each gives back the weight its claim was charged."""
        self.accountant = cycle_accounting.update_priorities(self.accountant, self.config, t)
        ending = []
        for i, job in enumerate(self.jobs):
            if job.status == "running" and job.run_time is not None:
                began = job.start_time if job.start_time is not None else self.start
                if began + job.run_time <= t:
                    ending.append((began + job.run_time, i))
        held = {c.job_id: c for c in self.negotiator.claims.values()} if ending else {}
        for end, i in sorted(ending):
            job = self.jobs[i]
            if job.id in self.beside:  # never matched: nothing to give back
                self.beside.discard(job.id)
            elif self.unseen.pop(job.id, None) is None:  # a leftover never seen: never charged
                weight = _held_weight(job, held, self.weigh, self.start)
                self.accountant = cycle_accounting.remove_match_at(
                    self.accountant, self.config, self.name_of(job), weight, t, t
                )
            self.jobs[i] = replace(job, status="completed")
            if job.id in self.ran:
                self.ran[job.id] = (self.ran[job.id][0], self.ran[job.id][1], end)

    def submit_due(self, t: float) -> None:
        """Workload jobs whose submit time has come join the queue."""
        pending = self.pending
        while pending and self._submitted(pending[0]) <= t:
            job = pending.pop(0)
            self.jobs.append(
                replace(
                    job, status="idle", slot=None, start_time=None, submit_time=self._submitted(job)
                )
            )

    def negotiate(self, t: float) -> None:
        """One negotiation cycle at ``t``, committed (``AddMatch``, preemptions released)."""
        config = self.config
        live = [j for j in self.jobs if j.status in ("idle", "running")]
        claims = current_claims(self.negotiator, self.jobs, config, t)  # finished: no claim
        # CheckMatches: the last cycle's partitionable-slot matches at their own weight
        pending = unchecked_matches(claims, self.weigh)
        self.accountant = cycle_accounting.check_partitionable_matches(
            self.accountant, config, pending, t
        )
        claims = [checked_claim(c) for c in claims]
        # ... and adds the dynamic slots the schedd claimed out of leftovers (own weight)
        add: dict[str, list[float]] = {}
        for _, c in sorted(self.unseen.items()):
            entry = add.setdefault(c.submitter, [0.0, 0])
            entry[0] += c.weight or 0.0
            entry[1] += 1
        self.unseen = {}
        for name, (weight, count) in sorted(add.items()):
            self.accountant = cycle_accounting.add_match_at(
                self.accountant, config, name, weight, t, int(count)
            )
        negotiator = NegotiatorState(
            {c.slot: c for c in claims}, self.negotiator.rr_times, self.negotiator.last_cycle
        )
        result = negotiate_cycle(
            config.machines,
            claims,
            restrict_batches(config, [JobBatch(j) for j in live]),  # (Slurm: partitions)
            self.name_of,
            priorities_at(self.accountant, config, t),
            self.tree,
            self.knobs,
            t,
            rr_times=negotiator.rr_times,
        )
        live_batches = [JobBatch(j) for j in live]
        score = None  # (Slurm: node CPUs, jobs by priority)
        if self.slurm_tree is not None:
            tree_at, so_far = self.slurm_tree, self._records_so_far()
            score = tree_scorer(config, lambda: tree_at(so_far, t))
        result = start_beside(config, claims, live_batches, result, t, None, score)
        self.beside.update(m.job_id for m in result.matches if m.reason == BESIDE)
        new_live, self.accountant, self.negotiator = apply_matches(
            result, live, self.accountant, negotiator, config, t
        )
        if config.negotiator.use_slot_weights:  # CLAIM_PARTITIONABLE_LEFTOVERS
            new_live = self._claim_leftovers(result, new_live, t)
        by_id = {j.id: j for j in new_live}
        self.jobs = [by_id.get(j.id, j) for j in self.jobs]
        ran = self.ran
        for m in result.matches:
            if m.preempted_job and m.preempted_job in ran:
                old = ran[m.preempted_job]
                ran[m.preempted_job + f"#{t}"] = (old[0], old[1], t)
                del ran[m.preempted_job]
            ran[m.job_id] = (by_id[m.job_id], t, None)
        for job_id in self.leftovers:  # after the matches, in start order (as the fast loop)
            ran[job_id] = (by_id[job_id], t, None)
        self.leftovers = []

    def _claim_leftovers(self, result: CycleResult, live: list[Job], t: float) -> list[Job]:
        """The schedd fills each matched partitionable slot with more of the submitter's
        idle jobs; the accountant sees each new claim at the next cycle's CheckMatches."""
        config = self.config
        matched = [(m.slot, m.submitter) for m in result.matches if m.preempted_job is None]
        idle = [(JobBatch(j), self.name_of(j)) for j in live if j.status == "idle"]
        weigh = dynamic_slot_weigher(config, t)
        new = fill_leftovers(config.machines, self.negotiator.claims, matched, idle, t, weigh)
        claims = dict(self.negotiator.claims)
        for c in new:
            claims[c.slot] = c
            self.unseen[c.job_id] = c
        neg = self.negotiator
        self.negotiator = NegotiatorState(claims, neg.rr_times, neg.last_cycle)
        slot_of = {c.job_id: c.slot for c in new}
        self.leftovers = list(slot_of)
        return [
            replace(j, status="running", slot=slot_of[j.id], start_time=t) if j.id in slot_of else j
            for j in live
        ]

    def rows(self, t: float, slurm_tree: SlurmTree | None) -> list[SimRow]:
        """What each submitter, group and Slurm user holds after the cycle at ``t``."""
        out = self._submitter_rows(t)
        if self.config.groups:
            out += self._group_rows(t)
        if slurm_tree is not None:
            out += self._slurm_rows(t, slurm_tree)
        slots, partitionable, capacity = pool_slots(self.config)
        in_use = sum(  # a dynamic slot takes its CPUs of the pool's (a pslot's total CPUs)
            1 if held_slot(s, partitionable) == s.lower() else int(dict(c.resources)["Cpus"])
            for s, c in self.negotiator.claims.items()
            if held_slot(s, partitionable) in slots
        )
        idle = sum(1 for j in self.jobs if j.status == "idle")
        out.append(SimRow(t, "pool", "pool", float(in_use), pending=idle, capacity=capacity))
        return out

    def _submitter_rows(self, t: float) -> list[SimRow]:
        held: dict[str, int] = {}
        for c in self.negotiator.claims.values():
            held[c.submitter] = held.get(c.submitter, 0) + 1
        self.seen.update(held)
        self.seen.update(self.name_of(j) for j in self.jobs if j.status == "idle")
        prio = priorities_at(self.accountant, self.config, t)
        idle: dict[str, int] = {}
        for j in self.jobs:
            if j.status == "idle":
                idle[self.name_of(j)] = idle.get(self.name_of(j), 0) + 1
        return [
            SimRow(
                t,
                "submitter",
                n,
                float(held.get(n, 0)),
                prio(n).effective_priority,
                pending=idle.get(n, 0),
            )
            for n in sorted(self.seen)
        ]

    def _group_rows(self, t: float) -> list[SimRow]:
        config, accountant = self.config, self.accountant
        live = [JobBatch(j) for j in self.jobs if j.status in ("idle", "running")]
        claims = list(self.negotiator.claims.values())
        records = acct.view(accountant, config, t)
        gtree = acct.GroupTree(config.groups)
        out = []
        for r in quota_view(config, live, accountant, claims, t):
            rec = records.get(r.group)
            eup = None
            if rec is not None:
                eup = acct.effective_priority(rec, acct.priority_factor(rec, config, gtree))
            out.append(SimRow(t, "group", r.group, r.in_use, eup, r.quota))
        return out

    def _records_so_far(self) -> list[UsageRecord]:
        return [
            UsageRecord(
                owner=job.owner,
                start=began,
                end=end,
                account=job.account,
                partition=job.partition.split(",")[0] if job.partition else None,
                qos=job.qos,
                cpus=job.request_cpus,
            )
            for job, began, end in self.ran.values()
        ]

    def _slurm_rows(self, t: float, slurm_tree: SlurmTree) -> list[SimRow]:
        from fairshare_cli.core.slurm.fairshare import user_fairshare_factors
        from fairshare_cli.core.slurm.tree_usage import algorithm

        tree = slurm_tree(self._records_so_far(), t)[1]
        factors = user_fairshare_factors(tree, algorithm(self.config))
        running: dict[str, int] = {}
        for j in self.jobs:
            if j.status == "running":
                running[j.owner] = running.get(j.owner, 0) + j.request_cpus
        return [
            SimRow(t, "slurm_user", user, float(running.get(user, 0)), fairshare=factor)
            for user, factor in sorted(factors.items())
        ]


def slurm_tree_of(config: Config, section: object) -> SlurmTree | None:
    """The last decay pass before ``t`` and the association tree then, all the work done
    so far recharged: charged on top of the state's ``slurm`` section exactly as ``fs
    import history`` would charge it. None when the config has no accounts."""
    if not config.accounts:
        return None
    from fairshare_cli.core.slurm import model as slurm
    from fairshare_cli.core.slurm import tree_usage
    from fairshare_cli.core.slurm.usage import usage_from_json

    def tree(records: Sequence[UsageRecord], t: float) -> tuple[float, Any]:
        sink = slurm.make_slurm_history_sink(config, section, t, False, presorted=False)
        for rec in sorted(records, key=lambda r: r.start):
            sink.add(rec)
        state = usage_from_json(sink.finish())
        return tree_usage.evaluate(config, state, t)

    return tree
