"""The HTCondor pool as the negotiator sees it: knobs, groups, submitters, quotas.

Glue between the config / accountant / job queue and the pure negotiation code in
:mod:`fairshare_cli.core.htcondor.negotiator` and :mod:`fairshare_cli.core.htcondor.quotas`.
The ``negotiator`` state section (claims) is :mod:`fairshare_cli.core.htcondor.claims`;
committing a cycle is :mod:`fairshare_cli.core.operations.negotiate`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.classads import check_expression
from fairshare_cli.core.htcondor.cycle_accounting import submitter_prio
from fairshare_cli.core.htcondor.groups import (
    GroupConfig,
    GroupTree,
    QuotaKnobs,
    assigned_group,
    build_group_tree,
)
from fairshare_cli.core.htcondor.job_weight import idle_weigher
from fairshare_cli.core.htcondor.negotiator import (
    Claim,
    NegotiatorKnobs,
    SubmitterPrio,
    pool_size,
)
from fairshare_cli.core.htcondor.negotiator.partitionable import (
    claims_weigher,
    held_claim_weigher,
)
from fairshare_cli.core.htcondor.negotiator.queue import add_running_demand, scan_jobs
from fairshare_cli.core.htcondor.negotiator.running import RunningJobs
from fairshare_cli.core.htcondor.quotas import QuotaRow, group_sort_value, quota_rows
from fairshare_cli.core.jobs import Job
from fairshare_cli.errors import InputError, did_you_mean


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
        consider_preemption=n.consider_preemption,
        depth_first=n.depth_first,
        matchlist_caching=n.matchlist_caching,
        ignore_user_priorities=n.ignore_user_priorities,
        slot_constraint=(n.slot_constraint or "").strip() or None,
        slot_poolsize_constraint=(n.slot_poolsize_constraint or "").strip() or None,
        submitter_constraint=(n.submitter_constraint or "").strip() or None,
        job_constraint=(n.job_constraint or "").strip() or None,
        concurrency_limits=n.concurrency_limits,
        concurrency_limit_default=n.concurrency_limit_default,
        concurrency_limit_scope_defaults=n.concurrency_limit_scope_defaults,
        quotas=QuotaKnobs(
            allow_quota_oversubscription=n.allow_quota_oversubscription,
            use_slot_weights=n.use_slot_weights,
            strict_enforce_quota=n.strict_enforce_quota,
            group_quota_max_allocation_rounds=n.group_quota_max_allocation_rounds,
            group_quota_round_robin_rate=n.group_quota_round_robin_rate,
            group_sort_expr=n.group_sort_expr,
            consider_preemption=n.consider_preemption,
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


_CHECKED_FIELDS = attrgetter(
    "requirements", "rank", "concurrency_limits_expr", "concurrency_limits", "accounting_group"
)


def check_jobs(jobs: Sequence[Job], config: Config, source: str) -> None:
    """Job expressions must parse and dotted accounting groups must name configured groups.

    HTCondor quietly negotiates a job whose group path is unknown in the deepest known
    ancestor; here a job whose accounting group's parent is not configured is an input
    error (when groups are configured at all).

    Raises:
        InputError: naming ``source``, the job and the expression or group.
    """
    known = {g.lower() for g in config.groups}
    checked: set[tuple[str, str]] = set()
    kinds: dict[tuple[Any, ...], Job] = {}  # the first job of each kind the checks tell apart
    deque(map(kinds.setdefault, map(_CHECKED_FIELDS, jobs), jobs), 0)  # (in C: a million jobs)
    for job in kinds.values():
        limits_expr = job.concurrency_limits_expr
        if limits_expr is not None and job.concurrency_limits is not None:
            raise InputError(
                f"{source}: job {job.id}: concurrency_limits and concurrency_limits_expr are "
                "both set; HTCondor's job has one ConcurrencyLimits: keep one"
            )
        for what, text in (
            ("requirements", job.requirements),
            ("rank", job.rank),
            ("concurrency_limits_expr", limits_expr),
        ):
            if text is not None and (what, text) not in checked:
                checked.add((what, text))
                check_expression(text, f"{source}: job {job.id} {what}", InputError)
        group = job.accounting_group
        if not known or not group or "." not in group or ("group", group) in checked:
            continue
        checked.add(("group", group))
        path = group.rsplit(".", 1)[0]
        if path.lower() not in known:
            close = did_you_mean(path, config.groups)  # (a typo: group_phyiscs)
            raise InputError(
                f'{source}: job {job.id}: accounting_group "{group}" has no configured '
                f'parent group "{path}"{close}; add [groups."{path}"] or fix the job'
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
    cache: dict[str, SubmitterPrio] = {}

    def prio(name: str) -> SubmitterPrio:
        found = cache.get(name)
        if found is None:
            found = cache[name] = submitter_prio(state.get(name), name, now, config, tree)
        return found

    return prio


def submitter_demand(
    batches: Iterable[JobBatch],
    claims: Iterable[Claim],
    config: Config,
    weighted: bool,
    now: float,
) -> dict[str, float]:
    """Demand per submitter at ``now``: idle jobs and running work, weighted when asked.

    Mirrors a submitter ad's ``WeightedRunningJobs + WeightedIdleJobs``: an idle job weighs
    what :func:`~fairshare_cli.core.htcondor.job_weight.idle_weigher` says, a running one
    the slot weight of the slot its claim holds (``claims_weigher``); running work is
    :func:`~fairshare_cli.core.htcondor.negotiator.queue.add_running_demand`'s, a claim
    with no job in the queue included (at the slot weight of the slot it holds too). A
    negotiation cycle counts the same at its start (``CycleResult.demand``).
    """
    name = submitter_of(config)
    per_submitter: dict[str, float] = {}
    claims = list(claims)
    slot_weight = config.negotiator.slot_weight
    running = RunningJobs(
        name,
        claims_weigher(claims, config.machines, slot_weight, now),
        weigh_claim=held_claim_weigher(config.machines, slot_weight, now),
    )
    idle, _ = scan_jobs(batches, running)
    weigh = idle_weigher(config.negotiator.slot_weight)
    for batch in idle:
        sub = name(batch.job)
        weight = weigh(batch.job) if weighted else 1.0
        per_submitter[sub] = per_submitter.get(sub, 0.0) + weight * batch.count
    add_running_demand(per_submitter, running, claims, weighted)
    return per_submitter


def group_demand(
    per_submitter: Mapping[str, float], tree: GroupTree
) -> tuple[dict[str, float], dict[str, list[str]]]:
    """Demand and submitters per group: each submitter's demand summed in its group
    (``hgq_prepare_for_matchmaking``, reference §4.3), submitters in name order."""
    demand: dict[str, float] = {}
    members: dict[str, list[str]] = {}
    for sub in sorted(per_submitter):
        group = assigned_group(tree, sub).name
        demand[group] = demand.get(group, 0.0) + per_submitter[sub]
        members.setdefault(group, []).append(sub)
    return demand, members


@dataclass(frozen=True)
class QuotaKnown:
    """What a caller of :func:`quota_view` has already worked out (None: worked out there).

    Attributes:
        demand: each submitter's demand over the batches and claims (``fs simulate`` hands
            over its cycle's ``CycleResult.demand``).
        tree: the config's group tree to reuse (it is reset there).
        size: the pool size of the claims (``fs simulate``'s frozen pool).
    """

    demand: Mapping[str, float] | None = None
    tree: GroupTree | None = None
    size: float | None = None


def quota_view(
    config: Config,
    batches: Sequence[JobBatch],
    accountant: acct.AccountantState,
    claims: Iterable[Claim],
    now: float,
    rr_times: Mapping[str, float] | None = None,
    known: QuotaKnown | None = None,
) -> list[QuotaRow]:
    """The rows of ``fs quota``: every group's quotas, limit, use and demand at ``now``.

    ``rr_times``: when each group was last served by the remainders' round robin (the
    ``negotiator`` section's, as the last committed cycle left them), which decides who
    gets a whole slot of the fractions (``ord_by_rr_time``); None: never. ``known``: what
    the caller has already counted (:class:`QuotaKnown`).

    Raises:
        ConfigError: bad groups or expressions in the config.
    """
    known = known or QuotaKnown()
    tree = known.tree or group_tree(config) or build_group_tree([])
    knobs = negotiator_knobs(config)
    claims = list(claims)
    size = known.size
    if size is None:  # (a running job's request is what its dynamic slot holds)
        running = {
            b.job_id(i): b.job for b in batches if b.job.status == "running" for i in range(b.count)
        }
        size = pool_size(config.machines, claims, knobs, now, running)
    demand = known.demand
    if demand is None:
        demand = submitter_demand(batches, claims, config, knobs.use_weighted_demand, now)
    demand_of, members = group_demand(demand, tree)
    records = acct.view(accountant, config, now)
    usage = {
        g.name: records[g.name].weighted_resources_used for g in tree.groups if g.name in records
    }
    rows = quota_rows(
        tree, size, demand_of, members, usage, knobs.quotas, group_sort_value, rr_times
    )
    # the root first, then depth-first (each group followed by its subgroups)
    return sorted(rows, key=lambda r: (r.parent is not None, r.group.lower()))


def never_preempts(config: Config) -> bool:
    """Whether no claimed slot can ever be matched: ``PREEMPTION_REQUIREMENTS`` the constant
    false and every machine ``RANK`` a constant (only these literal forms count)."""
    preq = (config.negotiator.preemption_requirements or "").strip().lower()
    ranks = {(spec.rank or "0").strip() for spec in config.machines}
    return preq in ("false", "0") and ranks <= {"0", "0.0", ""}
