"""Run negotiation cycles forward in time over a workload (``fs simulate``).

Each cycle at time ``t``: jobs whose ``run_time`` is up finish (``RemoveMatch`` at their
exact end), workload jobs whose ``submit_time`` has come join the queue, one negotiation
cycle runs and its matches are committed (``AddMatch``), and a row per submitter, group
and Slurm user records what each holds afterwards. Everything is a function of the inputs;
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
    """One entity after one cycle (docs/json.md ``simulate`` fields)."""

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


def simulate(
    config: Config,
    accountant: acct.AccountantState,
    negotiator: NegotiatorState,
    queue: Sequence[Job],
    workload: Sequence[Job],
    start: float,
    until: float,
    cycle: float,
    *,
    slurm_fairshare: Callable[[Sequence[UsageRecord], float], Mapping[str, float]] | None = None,
    progress: Callable[[float], None] | None = None,
) -> SimResult:
    """Run cycles from ``start`` every ``cycle`` seconds until ``start + until``.

    Args:
        queue: the jobs already in the queue (running ones keep their slots).
        workload: jobs to submit at their ``submit_time`` (none: at ``start``); a job with
            ``run_time`` finishes that long after it starts.
        slurm_fairshare: given the usage records of the work done so far and a time, the
            Slurm fair-share factor per user (None: no ``slurm_user`` rows).
        progress: called with the fraction done after each cycle.

    Returns:
        The rows of every cycle and the final state.
    """
    name_of = submitter_of(config)
    weight_of_slot = slot_weights(config)
    tree = group_tree(config)
    knobs = negotiator_knobs(config)
    weights: dict[str, float] = {}
    jobs: list[Job] = list(queue)
    pending = sorted(
        workload,
        key=lambda j: (j.submit_time if j.submit_time is not None else start, j.cluster_proc),
    )
    ran: dict[str, tuple[Job, float, float | None]] = {}
    for job in jobs:
        if job.status == "running" and job.slot:
            weights[job.id] = weight_of_slot(job.slot)
    rows: list[SimRow] = []
    seen: set[str] = set()  # submitters keep a row (0 slots) once they have appeared
    times = cycle_times(start, until, cycle)
    for k, t in enumerate(times):
        # 1. jobs whose run time is up leave their slots at their exact end
        ending = []
        for i, job in enumerate(jobs):
            if job.status == "running" and job.run_time is not None:
                began = job.start_time if job.start_time is not None else start
                if began + job.run_time <= t:
                    ending.append((began + job.run_time, i))
        for end, i in sorted(ending):
            job = jobs[i]
            accountant = acct.remove_match(
                accountant, config, name_of(job), weights.pop(job.id, 1.0), end
            )
            jobs[i] = replace(job, status="completed")
            if job.id in ran:
                ran[job.id] = (ran[job.id][0], ran[job.id][1], end)
        # 2. new submissions
        while (
            pending
            and (pending[0].submit_time if pending[0].submit_time is not None else start) <= t
        ):
            job = pending.pop(0)
            jobs.append(
                replace(
                    job,
                    status="idle",
                    slot=None,
                    start_time=None,
                    submit_time=job.submit_time if job.submit_time is not None else start,
                )
            )
        # 3. one negotiation cycle, committed
        live = [j for j in jobs if j.status in ("idle", "running")]
        claims = current_claims(negotiator, jobs, config, t)  # finished jobs drop claims
        negotiator = NegotiatorState(
            {c.slot: c for c in claims}, negotiator.rr_times, negotiator.last_cycle
        )
        result = negotiate_cycle(
            config.machines,
            claims,
            [JobBatch(j) for j in live],
            name_of,
            priorities_at(accountant, config, t),
            tree,
            knobs,
            t,
            rr_times=negotiator.rr_times,
        )
        new_live, accountant, negotiator = commit_cycle(
            result, live, accountant, negotiator, config, t
        )
        by_id = {j.id: j for j in new_live}
        jobs = [by_id.get(j.id, j) for j in jobs]
        for m in result.matches:
            weights[m.job_id] = m.weight
            if m.preempted_job:
                weights.pop(m.preempted_job, None)
                if m.preempted_job in ran:
                    old = ran[m.preempted_job]
                    ran[m.preempted_job + f"#{t}"] = (old[0], old[1], t)
                    del ran[m.preempted_job]
            ran[m.job_id] = (by_id[m.job_id], t, None)
        rows.extend(
            _rows(t, config, jobs, accountant, negotiator, name_of, slurm_fairshare, ran, seen)
        )
        if progress is not None:
            progress((k + 1) / len(times))
    return SimResult(tuple(rows), tuple(jobs), accountant, negotiator, len(times))


def _rows(
    t: float,
    config: Config,
    jobs: Sequence[Job],
    accountant: acct.AccountantState,
    negotiator: NegotiatorState,
    name_of: Callable[[Job], str],
    slurm_fairshare: Callable[[Sequence[UsageRecord], float], Mapping[str, float]] | None,
    ran: Mapping[str, tuple[Job, float, float | None]],
    seen: set[str],
) -> list[SimRow]:
    held: dict[str, int] = {}
    for c in negotiator.claims.values():
        held[c.submitter] = held.get(c.submitter, 0) + 1
    names = set(held)
    names.update(name_of(j) for j in jobs if j.status == "idle")
    seen.update(names)
    names = seen
    prio = priorities_at(accountant, config, t)
    out = [
        SimRow(t, "submitter", n, float(held.get(n, 0)), prio(n).effective_priority)
        for n in sorted(names)
    ]
    if config.groups:
        live = [JobBatch(j) for j in jobs if j.status in ("idle", "running")]
        claims = list(negotiator.claims.values())
        records = acct.view(accountant, config, t)
        gtree = acct.GroupTree(config.groups)
        for r in quota_view(config, live, accountant, claims, t):
            rec = records.get(r.group)
            eup = None
            if rec is not None:
                eup = acct.effective_priority(rec, acct.priority_factor(rec, config, gtree))
            out.append(SimRow(t, "group", r.group, r.in_use, eup, r.quota))
    if slurm_fairshare is not None:
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
            for job, began, end in ran.values()
        ]
        running: dict[str, int] = {}
        for j in jobs:
            if j.status == "running":
                running[j.owner] = running.get(j.owner, 0) + j.request_cpus
        for user, factor in sorted(slurm_fairshare(records_so_far, t).items()):
            out.append(SimRow(t, "slurm_user", user, float(running.get(user, 0)), fairshare=factor))
    return out


def simulate_rows_json(rows: Sequence[SimRow]) -> list[dict[str, Any]]:
    """Rows as the ``simulate`` JSON objects of docs/json.md (times still epoch seconds)."""
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


def slurm_fairshare_of(
    config: Config, section: Any
) -> Callable[[Sequence[UsageRecord], float], Mapping[str, float]] | None:
    """The Slurm fair-share factor of each user at ``t``, given the work done so far.

    The simulated work is charged on top of the state's ``slurm`` section exactly as
    ``fs import history`` would charge it; a user in several accounts appears as
    ``user (account)``. None when the config has no accounts.
    """
    if not config.accounts:
        return None
    from fairshare_cli.core.slurm import model as slurm
    from fairshare_cli.core.slurm.assoc_tree import share_rows
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
