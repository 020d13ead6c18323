"""Run negotiation cycles forward in time over a workload (``fs simulate``).

Each cycle at time ``t``: the accountant is updated (``UpdatePriorities``), jobs whose
``run_time`` is up are seen to have finished (``CheckMatches``: their slots were charged up
to ``t``, as HTCondor sees an end at the next cycle), workload jobs whose ``submit_time``
has come join the queue, one negotiation cycle runs and its matches are committed
(``AddMatch``), and a row per submitter, group and Slurm user records what each holds
afterwards. Everything is a function of the inputs;
nothing reads a clock or a file.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor import cycle_accounting
from fairshare_cli.core.htcondor.negotiator import negotiate_cycle
from fairshare_cli.core.htcondor.pool import (
    NegotiatorState,
    commit_cycle,
    current_claims,
    group_tree,
    negotiator_knobs,
    priorities_at,
    quota_view,
    slot_weights,
    submitter_of,
)
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.usage import UsageRecord


@dataclass(frozen=True)
class SimRow:
    """One entity after one cycle (DESIGN §5 ``simulate`` fields)."""

    time: float
    kind: str  # "submitter" | "group" | "slurm_user"
    name: str
    slots: float
    effective_priority: float | None = None
    quota: float | None = None
    fairshare: float | None = None


@dataclass(frozen=True)
class SimResult:
    """All rows in time order, and the final queue, accountant and claims."""

    rows: tuple[SimRow, ...]
    jobs: tuple[Job, ...]
    accountant: acct.AccountantState
    negotiator: NegotiatorState
    cycles: int


def cycle_times(start: float, until: float, cycle: float) -> list[float]:
    """``start, start + cycle, …`` up to and including ``start + until``."""
    if cycle <= 0:
        raise ValueError("cycle must be positive")
    n = math.floor(until / cycle + 1e-9)
    return [start + k * cycle for k in range(n + 1)]


SlurmFairshare = Callable[[Sequence[UsageRecord], float], Mapping[str, float]]


@dataclass(frozen=True)
class SimWindow:
    """When the simulation runs: from ``start``, a cycle every ``cycle`` seconds, until
    ``start + until``."""

    start: float
    until: float
    cycle: float


def simulate(
    config: Config,
    accountant: acct.AccountantState,
    negotiator: NegotiatorState,
    queue: Sequence[Job],
    workload: Sequence[Job],
    window: SimWindow,
    *,
    slurm_fairshare: SlurmFairshare | None = None,
    progress: Callable[[float], None] | None = None,
) -> SimResult:
    """Run cycles from ``window.start`` every ``window.cycle`` seconds until the end.

    Args:
        config: the pool config.
        accountant: the accountant at the start.
        negotiator: claims and round-robin times at the start.
        queue: the jobs already in the queue (running ones keep their slots).
        workload: jobs to submit at their ``submit_time`` (none: at the start); a job with
            ``run_time`` finishes that long after it starts.
        window: start, length and cycle interval.
        slurm_fairshare: given the usage records of the work done so far and a time, the
            Slurm fair-share factor per user (None: no ``slurm_user`` rows).
        progress: called with the fraction done after each cycle.

    Returns:
        The rows of every cycle and the final state.
    """
    sim = _Simulation(config, accountant, negotiator, queue, workload, window.start)
    rows: list[SimRow] = []
    times = cycle_times(window.start, window.until, window.cycle)
    for k, t in enumerate(times):
        sim.finish_jobs(t)
        sim.submit_due(t)
        sim.negotiate(t)
        rows.extend(sim.rows(t, slurm_fairshare))
        if progress is not None:
            progress((k + 1) / len(times))
    return SimResult(tuple(rows), tuple(sim.jobs), sim.accountant, sim.negotiator, len(times))


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
        self.weight_of_slot = slot_weights(config)
        self.tree = group_tree(config)
        self.knobs = negotiator_knobs(config)
        self.jobs: list[Job] = list(queue)
        self.pending = sorted(workload, key=lambda j: (self._submitted(j), j.cluster_proc))
        #: job id -> (job, start, end): the work done, for Slurm's usage
        self.ran: dict[str, tuple[Job, float, float | None]] = {}
        #: job id -> the slot weight it was charged with
        self.weights: dict[str, float] = {}
        for job in self.jobs:
            if job.status == "running" and job.slot:
                self.weights[job.id] = self.weight_of_slot(job.slot)
        self.seen: set[str] = set()  # submitters keep a row (0 slots) once they have appeared

    def _submitted(self, job: Job) -> float:
        return job.submit_time if job.submit_time is not None else self.start

    def finish_jobs(self, t: float) -> None:
        """``UpdatePriorities`` at ``t``, then ``CheckMatches`` sees the jobs whose run time is
        up: their slots were charged up to ``t`` (HTCondor sees an end at the next cycle)."""
        self.accountant = cycle_accounting.update_priorities(self.accountant, self.config, t)
        ending = []
        for i, job in enumerate(self.jobs):
            if job.status == "running" and job.run_time is not None:
                began = job.start_time if job.start_time is not None else self.start
                if began + job.run_time <= t:
                    ending.append((began + job.run_time, i))
        for end, i in sorted(ending):
            job = self.jobs[i]
            self.accountant = cycle_accounting.remove_match_at(
                self.accountant, self.config, self.name_of(job), self.weights.pop(job.id, 1.0), t, t
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
        negotiator = NegotiatorState(
            {c.slot: c for c in claims}, self.negotiator.rr_times, self.negotiator.last_cycle
        )
        result = negotiate_cycle(
            config.machines,
            claims,
            [JobBatch(j) for j in live],
            self.name_of,
            priorities_at(self.accountant, config, t),
            self.tree,
            self.knobs,
            t,
            rr_times=negotiator.rr_times,
        )
        new_live, self.accountant, self.negotiator = commit_cycle(
            result, live, self.accountant, negotiator, config, t
        )
        by_id = {j.id: j for j in new_live}
        self.jobs = [by_id.get(j.id, j) for j in self.jobs]
        ran = self.ran
        for m in result.matches:
            self.weights[m.job_id] = m.weight
            if m.preempted_job:
                self.weights.pop(m.preempted_job, None)
                if m.preempted_job in ran:
                    old = ran[m.preempted_job]
                    ran[m.preempted_job + f"#{t}"] = (old[0], old[1], t)
                    del ran[m.preempted_job]
            ran[m.job_id] = (by_id[m.job_id], t, None)

    def rows(self, t: float, slurm_fairshare: SlurmFairshare | None) -> list[SimRow]:
        """What each submitter, group and Slurm user holds after the cycle at ``t``."""
        out = self._submitter_rows(t)
        if self.config.groups:
            out += self._group_rows(t)
        if slurm_fairshare is not None:
            out += self._slurm_rows(t, slurm_fairshare)
        return out

    def _submitter_rows(self, t: float) -> list[SimRow]:
        held: dict[str, int] = {}
        for c in self.negotiator.claims.values():
            held[c.submitter] = held.get(c.submitter, 0) + 1
        self.seen.update(held)
        self.seen.update(self.name_of(j) for j in self.jobs if j.status == "idle")
        prio = priorities_at(self.accountant, self.config, t)
        return [
            SimRow(t, "submitter", n, float(held.get(n, 0)), prio(n).effective_priority)
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

    def _slurm_rows(self, t: float, slurm_fairshare: SlurmFairshare) -> list[SimRow]:
        records_so_far = [
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
        running: dict[str, int] = {}
        for j in self.jobs:
            if j.status == "running":
                running[j.owner] = running.get(j.owner, 0) + j.request_cpus
        return [
            SimRow(t, "slurm_user", user, float(running.get(user, 0)), fairshare=factor)
            for user, factor in sorted(slurm_fairshare(records_so_far, t).items())
        ]


def simulate_rows_json(rows: Sequence[SimRow]) -> list[dict[str, Any]]:
    """Rows as DESIGN's ``simulate`` JSON objects (times still epoch seconds)."""
    return [
        {
            "time": r.time,
            "kind": r.kind,
            "name": r.name,
            "slots": r.slots,
            "effective_priority": r.effective_priority,
            "quota": r.quota,
            "fairshare": r.fairshare,
        }
        for r in rows
    ]


def slurm_fairshare_of(config: Config, section: Any) -> SlurmFairshare | None:
    """The Slurm fair-share factor of each user at ``t``, given the work done so far.

    The simulated work is charged on top of the state's ``slurm`` section exactly as
    ``fs import history`` would charge it; a user in several accounts appears as
    ``user (account)``. None when the config has no accounts.
    """
    if not config.accounts:
        return None
    from fairshare_cli.core.slurm import model as slurm
    from fairshare_cli.core.slurm.fairshare import share_rows
    from fairshare_cli.core.slurm.usage import usage_from_json

    algo = slurm.algorithm(config)

    def factors(records: Sequence[UsageRecord], t: float) -> dict[str, float]:
        sink = slurm.make_slurm_history_sink(config, section, t, False, presorted=False)
        for rec in sorted(records, key=lambda r: r.start):
            sink.add(rec)
        state = usage_from_json(sink.finish())
        _, tree = slurm.evaluate(config, state, t)
        users = [r for r in share_rows(tree, algo) if r.get("is_user")]
        counts: dict[str, int] = {}
        for r in users:
            counts[str(r["user"])] = counts.get(str(r["user"]), 0) + 1
        out: dict[str, float] = {}
        for r in users:
            user = str(r["user"])
            name = user if counts[user] == 1 else f"{user} ({r['account']})"
            value = r.get("fairshare")
            if isinstance(value, (int, float)):
                out[name] = float(value)
        return out

    return factors
