"""The HTCondor pool as the negotiator sees it: knobs, groups, submitters, claims.

Glue between the config / accountant / job queue and the pure negotiation code in
:mod:`fairshare_cli.core.htcondor.negotiator`
and :mod:`fairshare_cli.core.htcondor.quotas`, plus the
``negotiator`` state section (slot claims and group round-robin times) and committing a
cycle's matches (``AddMatch`` / ``RemoveMatch`` through the accountant).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor import cycle_accounting
from fairshare_cli.core.htcondor.classads import check_expression, evaluate_alone
from fairshare_cli.core.htcondor.groups import (
    GroupConfig,
    GroupTree,
    QuotaKnobs,
    assigned_group,
    build_group_tree,
)
from fairshare_cli.core.htcondor.negotiator import (
    Claim,
    CycleResult,
    NegotiatorKnobs,
    SubmitterPrio,
    machine_names,
    pool_size,
)
from fairshare_cli.core.htcondor.quotas import QuotaRow, quota_rows
from fairshare_cli.core.htcondor.replay import slot_weigher
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.limits import TIME_MAX, TIME_MIN
from fairshare_cli.core.state import SectionError
from fairshare_cli.errors import InputError


def negotiator_knobs(config: Config) -> NegotiatorKnobs:
    """The negotiator settings of a config (profile defaults already applied)."""
    n = config.negotiator
    return NegotiatorKnobs(
        profile=config.pool.defaults,
        use_slot_weights=n.use_slot_weights,
        slot_weight=n.slot_weight,
        preemption_requirements=n.preemption_requirements,
        preemption_rank=n.preemption_rank,
        pre_job_rank=n.pre_job_rank,
        post_job_rank=n.post_job_rank,
        use_weighted_demand=n.use_weighted_demand,
        quotas=QuotaKnobs(
            allow_quota_oversubscription=n.allow_quota_oversubscription,
            use_slot_weights=n.use_slot_weights,
            strict_enforce_quota=n.strict_enforce_quota,
            group_quota_max_allocation_rounds=n.group_quota_max_allocation_rounds,
            group_quota_round_robin_rate=n.group_quota_round_robin_rate,
            group_sort_expr=n.group_sort_expr,
        ),
    )


def group_tree(config: Config) -> GroupTree | None:
    """The HGQ tree of the configured groups, or None when no group is configured.

    Raises:
        ConfigError: a quota out of range or a group whose parent is missing.
    """
    if not config.groups:
        return None
    n = config.negotiator
    configs = [
        GroupConfig(
            name=g.name,
            quota=g.quota,
            dynamic_quota=g.dynamic_quota,
            accept_surplus=n.accept_surplus if g.accept_surplus is None else g.accept_surplus,
            autoregroup=n.autoregroup if g.autoregroup is None else g.autoregroup,
        )
        for g in config.groups.values()
    ]
    return build_group_tree(
        configs,
        source=config.path,
        global_accept_surplus=n.accept_surplus,
        global_autoregroup=n.autoregroup,
    )


def submitter_of(config: Config) -> Callable[[Job], str]:
    """The accountant's name for a job's submitter (``owner@uid_domain`` and friends)."""
    domain = config.pool.uid_domain
    cache: dict[tuple[str, str | None, bool], str] = {}

    def name(job: Job) -> str:
        key = (job.owner, job.accounting_group, job.nice_user)
        found = cache.get(key)
        if found is None:
            found = acct.submitter_name(job.owner, job.accounting_group, job.nice_user, domain)
            cache[key] = found
        return found

    return name


def check_jobs(jobs: Iterable[Job], config: Config, source: str) -> None:
    """Job expressions must parse and dotted accounting groups must name configured groups.

    HTCondor quietly negotiates a job whose group path is unknown in the deepest known
    ancestor; here a job whose accounting group's parent is not configured is an input
    error (when groups are configured at all).

    Raises:
        InputError: naming ``source``, the job and the expression or group.
    """
    known = {g.lower() for g in config.groups}
    checked: set[tuple[str, str]] = set()
    for job in jobs:
        for what, text in (("requirements", job.requirements), ("rank", job.rank)):
            if text is not None and (what, text) not in checked:
                checked.add((what, text))
                check_expression(text, f"{source}: job {job.id} {what}", InputError)
        group = job.accounting_group
        if not known or not group or "." not in group or ("group", group) in checked:
            continue
        checked.add(("group", group))
        path = group.rsplit(".", 1)[0]
        if path.lower() not in known:
            raise InputError(
                f'{source}: job {job.id}: accounting_group "{group}" has no configured '
                f'parent group "{path}"; add [groups."{path}"] or fix the job'
            )


def priorities_at(
    state: acct.AccountantState, config: Config, now: float
) -> Callable[[str], SubmitterPrio]:
    """The accountant's EUP and weighted usage of each submitter at ``now``.

    EUP = max(RUP, 0.5) × factor with the factor chosen as the accountant does (explicit,
    nice user, group factor, remote domain, default); a submitter with no record yet starts
    at RUP 0.5.
    """
    tree = acct.GroupTree(config.groups)
    half_life = config.accountant.priority_halflife
    cache: dict[str, SubmitterPrio] = {}

    def prio(name: str) -> SubmitterPrio:
        found = cache.get(name)
        if found is None:
            rec = state.get(name)
            rec = (
                acct.advance(rec, now, half_life)
                if rec is not None
                else acct.CustomerRecord(name=name)
            )
            factor = acct.priority_factor(rec, config, tree)
            found = SubmitterPrio(acct.effective_priority(rec, factor), rec.weighted_resources_used)
            cache[name] = found
        return found

    return prio


# --------------------------------------------------------------------------- state section


@dataclass(frozen=True)
class NegotiatorState:
    """The ``negotiator`` state section: claims by slot and group round-robin times."""

    claims: Mapping[str, Claim] = field(default_factory=dict)
    rr_times: Mapping[str, float] = field(default_factory=dict)
    last_cycle: float | None = None


def _is_time(value: Any) -> bool:
    """Epoch seconds within the years 1 to 9999 (what ``parse_time`` accepts)."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and TIME_MIN <= value <= TIME_MAX
    )


def negotiator_from_json(raw: Any) -> NegotiatorState:
    """Decode the ``negotiator`` section.

    Raises:
        SectionError: naming the malformed key.
    """
    if raw is None:
        return NegotiatorState()
    if not isinstance(raw, Mapping):
        raise SectionError("negotiator: expected an object")
    claims: dict[str, Claim] = {}
    raw_claims = raw.get("claims", {})
    if not isinstance(raw_claims, Mapping):
        raise SectionError("negotiator.claims: expected an object keyed by slot name")
    for slot, body in raw_claims.items():
        where = f"negotiator.claims.{slot}"
        if not isinstance(body, Mapping):
            raise SectionError(f"{where}: expected an object")
        submitter, job_id, start = body.get("submitter"), body.get("job_id"), body.get("start_time")
        if not isinstance(submitter, str) or not isinstance(job_id, str):
            raise SectionError(f"{where}: expected string 'submitter' and 'job_id'")
        if not isinstance(start, (int, float)) or not _is_time(start):
            raise SectionError(f"{where}.start_time: expected epoch seconds")
        claims[slot] = Claim(slot, submitter, job_id, float(start))
    rr = raw.get("rr_times", {})
    if not isinstance(rr, Mapping) or not all(_is_time(v) for v in rr.values()):
        raise SectionError("negotiator.rr_times: expected group name -> epoch seconds")
    last = raw.get("last_cycle")
    if last is not None and not _is_time(last):
        raise SectionError("negotiator.last_cycle: expected epoch seconds or null")
    return NegotiatorState(claims, {k: float(v) for k, v in rr.items()}, last)


def negotiator_to_json(state: NegotiatorState) -> dict[str, Any]:
    """Encode the ``negotiator`` section."""
    return {
        "claims": {
            slot: {"submitter": c.submitter, "job_id": c.job_id, "start_time": c.start_time}
            for slot, c in sorted(state.claims.items())
        },
        "rr_times": dict(sorted(state.rr_times.items())),
        "last_cycle": state.last_cycle,
    }


def current_claims(
    state: NegotiatorState, jobs: Sequence[Job], config: Config, now: float
) -> list[Claim]:
    """Claims from the state section, plus running jobs that name a slot the section lacks.

    A claim whose job is in the queue but no longer running is dropped.
    """
    status = {job.id: job.status for job in jobs}
    claims = {
        slot: c for slot, c in state.claims.items() if status.get(c.job_id, "running") == "running"
    }
    name = submitter_of(config)
    for job in jobs:
        if job.status == "running" and job.slot and job.slot not in claims:
            start = job.start_time if job.start_time is not None else now
            claims[job.slot] = Claim(job.slot, name(job), job.id, start)
    return list(claims.values())


# --------------------------------------------------------------------------- commit


def commit_cycle(
    result: CycleResult,
    jobs: Sequence[Job],
    accountant: acct.AccountantState,
    negotiator: NegotiatorState,
    config: Config,
    now: float,
) -> tuple[list[Job], acct.AccountantState, NegotiatorState]:
    """Apply a cycle's matches: jobs start, claims change hands, the accountant charges.

    The accountant is updated to ``now`` (``UpdatePriorities``, every record); claims whose
    job is in the queue but no longer running are removed (``CheckMatches``: charged up to
    now); each match is then ``AddMatch`` for its submitter; a preemption first
    ``RemoveMatch``es the slot's previous holder, whose job goes back to idle (see
    :mod:`cycle_accounting`).

    Returns:
        The new job list, accountant state and negotiator section.
    """
    claims = dict(negotiator.claims)
    # CheckMatches: a claim whose job is in the queue but no longer running has ended
    status = {job.id: job.status for job in jobs}
    ended = [c for c in claims.values() if status.get(c.job_id, "running") != "running"]
    for c in ended:
        del claims[c.slot]
    by_id = {m.job_id: m for m in result.matches}
    preempted = {m.preempted_job for m in result.matches if m.preempted_job}
    new_jobs: list[Job] = []
    for job in jobs:
        m = by_id.get(job.id)
        if m is not None:
            new_jobs.append(replace(job, status="running", slot=m.slot, start_time=now))
        elif job.id in preempted and job.status == "running":
            new_jobs.append(replace(job, status="idle", slot=None, start_time=None))
        else:
            new_jobs.append(job)
    add: dict[str, list[float]] = {}
    remove: dict[str, list[float]] = {}
    for m in result.matches:
        old = claims.get(m.slot)
        if old is not None and m.preempted_job:
            entry = remove.setdefault(old.submitter, [0.0, 0])
            entry[0] += m.weight
            entry[1] += 1
        claims[m.slot] = Claim(m.slot, m.submitter, m.job_id, now)
        entry = add.setdefault(m.submitter, [0.0, 0])
        entry[0] += m.weight
        entry[1] += 1
    # UpdatePriorities at the cycle's time, then each match (and preemption) at that time.
    state = cycle_accounting.update_priorities(accountant, config, now)
    weight_of = slot_weights(config)
    for c in ended:  # seen now: charged up to now by the update
        state = cycle_accounting.remove_match_at(
            state, config, c.submitter, weight_of(c.slot), now, c.start_time
        )
    for name, (weight, count) in sorted(remove.items()):
        state = cycle_accounting.remove_match_at(state, config, name, weight, now, now, int(count))
    for name, (weight, count) in sorted(add.items()):
        state = cycle_accounting.add_match_at(state, config, name, weight, now, int(count))
    rr = dict(negotiator.rr_times)
    rr.update({k: v for k, v in result.rr_times.items() if math.isfinite(v)})
    return new_jobs, state, NegotiatorState(claims, rr, now)


def slot_weights(config: Config) -> Callable[[str], float]:
    """A slot name's weight (1 without slot weights, else ``SLOT_WEIGHT`` of its Cpus)."""
    weigh = slot_weigher(config)
    by_machine: dict[str, float] = {}
    for spec in config.machines:
        cpus = spec.attributes.get("Cpus", 1)
        w = weigh(int(cpus) if isinstance(cpus, (int, float)) else 1)
        for machine in machine_names(spec):
            by_machine[machine] = w

    def weight(slot: str) -> float:
        machine = slot.split("@", 1)[1] if "@" in slot else slot
        return by_machine.get(machine, 1.0)

    return weight


def release_jobs(
    removed: Iterable[Job],
    accountant: acct.AccountantState,
    negotiator: NegotiatorState,
    config: Config,
    now: float,
) -> tuple[acct.AccountantState, NegotiatorState]:
    """Running jobs leave the pool (``condor_rm``): ``RemoveMatch`` and their claims go.

    Returns:
        The accountant and negotiator section after the jobs released their slots.
    """
    name_of = submitter_of(config)
    weight_of = slot_weights(config)
    claims = dict(negotiator.claims)
    by_job = {c.job_id: c for c in claims.values()}
    for job in removed:
        if job.status != "running":
            continue
        claim = by_job.get(job.id)
        slot = claim.slot if claim is not None else job.slot
        if claim is not None:
            del claims[claim.slot]
        submitter = claim.submitter if claim is not None else name_of(job)
        weight = weight_of(slot) if slot else 1.0
        accountant = acct.remove_match(accountant, config, submitter, weight, now)
    return accountant, NegotiatorState(claims, negotiator.rr_times, negotiator.last_cycle)


def group_demand(
    batches: Iterable[JobBatch], config: Config, tree: GroupTree, weighted: bool
) -> tuple[dict[str, float], dict[str, list[str]]]:
    """Demand (running + idle jobs, weighted by CPUs when asked) and submitters per group.

    Mirrors the submitter ads' ``WeightedRunningJobs + WeightedIdleJobs`` summed per group
    (reference §4.3).
    """
    name = submitter_of(config)
    demand: dict[str, float] = {}
    members: dict[str, list[str]] = {}
    seen: set[str] = set()
    for batch in batches:
        job = batch.job
        if job.status not in ("idle", "running"):
            continue
        sub = name(job)
        group = assigned_group(tree, sub).name
        weight = job.request_cpus if weighted else 1.0
        demand[group] = demand.get(group, 0.0) + weight * batch.count
        if sub not in seen:
            seen.add(sub)
            members.setdefault(group, []).append(sub)
    return demand, members


def quota_view(
    config: Config,
    batches: Sequence[JobBatch],
    accountant: acct.AccountantState,
    claims: Iterable[Claim],
    now: float,
) -> list[QuotaRow]:
    """The rows of ``fs quota``: every group's quotas, limit, use and demand at ``now``.

    Raises:
        ConfigError: bad groups or expressions in the config.
    """
    tree = group_tree(config) or build_group_tree([])
    knobs = negotiator_knobs(config)
    size = pool_size(config.machines, claims, knobs, now)
    demand, members = group_demand(batches, config, tree, knobs.use_weighted_demand)
    records = acct.view(accountant, config, now)
    usage = {
        g.name: records[g.name].weighted_resources_used for g in tree.groups if g.name in records
    }
    rows = quota_rows(
        tree,
        size,
        demand,
        members,
        usage,
        knobs.quotas,
        lambda expr, values: evaluate_alone(expr, values, "[negotiator] group_sort_expr"),
    )
    # the root first, then depth-first (each group followed by its subgroups)
    return sorted(rows, key=lambda r: (r.parent is not None, r.group.lower()))
