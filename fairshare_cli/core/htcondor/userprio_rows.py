"""The rows of ``condor_userprio``: one per accounting ad it reads, each record brought
up to ``now``, with a group's quotas, demand and surplus policy; and which ads the
collector holds (``forwardAccountingData``, ``forwardGroupAccounting``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.customer_record import CustomerRecord
from fairshare_cli.core.htcondor.decay import advanced_values
from fairshare_cli.core.htcondor.pool import group_demand, group_tree
from fairshare_cli.core.htcondor.userprio_query import UserprioQuery
from fairshare_cli.core.htcondor.userprio_row import GroupQuotaInfo, UserprioRow

if TYPE_CHECKING:
    from fairshare_cli.core.jobs import Job


class QueueDemand(NamedTuple):
    """What the queue and the claims tell the rows (:func:`queue_demand`)."""

    #: the submitters with jobs in the queue: those a schedd sends a submitter ad for
    queued: set[str]
    #: each group's ``Requested`` (a group of no demand: absent)
    requested: dict[str, float]


#: No queue and no claims: no submitter ad, no demand.
NO_QUEUE = QueueDemand(set(), {})


def queue_demand(jobs: Sequence[Job], demand: Mapping[str, float], config: Config) -> QueueDemand:
    """The submitters with jobs in the queue, and each group's ``Requested``.

    A group's ``Requested`` is the negotiator's ``currently_requested`` of its last cycle
    (``hgq_prepare_for_matchmaking``): the idle and running jobs of the submitter ads it
    assigns to the group (``GetAssignedGroup``), weighted with ``use_weighted_demand``
    (``WeightedIdleJobs + WeightedRunningJobs``), summed from ``demand`` as ``fs quota``
    sums it (:func:`~fairshare_cli.core.htcondor.pool.group_demand`): each submitter's,
    which :func:`~fairshare_cli.core.htcondor.pool.submitter_demand` counts over the queue
    and the claims for ``fs quota`` too (a claim whose job the queue does not hold
    included). With no groups configured the negotiator runs no quota computation and
    ``<none>``'s stays 0 (as :mod:`~fairshare_cli.core.htcondor.accounting_ads` prints
    it): ``demand`` is not read.
    """
    tree = group_tree(config)
    requested = group_demand(demand, tree)[0] if tree is not None else {}
    return QueueDemand(queued_submitters(jobs, config), requested)


def surplus_policy(config: Config, group: str) -> str:
    """``regroup`` / ``byquota`` / ``no`` for a group (the root always accepts surplus)."""
    if group == acct.ROOT_GROUP:
        return "yes"
    spec = config.groups[group]
    auto = spec.autoregroup if spec.autoregroup is not None else config.negotiator.autoregroup
    if auto:
        return "Regroup"
    accept = (
        spec.accept_surplus if spec.accept_surplus is not None else config.negotiator.accept_surplus
    )
    return "ByQuota" if accept else "no"


#: A user row's requested, quotas, sort key and surplus (a group's only) ...
_NO_GROUP_FIELDS = (None, None, None, None, None, "")
#: ... and its group number and display order (set when asked for, after).
_UNNUMBERED = (None, None)


def active_rows(
    records: Mapping[str, CustomerRecord],
    config: Config,
    now: float,
    query: UserprioQuery,
    cutoff: float | None,
    queue: QueueDemand,
    group_info: Mapping[str, GroupQuotaInfo],
) -> list[UserprioRow]:
    """A row for every record that is named (if any are) and active since ``cutoff``,
    each brought up to ``now``. With the activity filter on (plain ``condor_userprio``),
    the tool reads the collector's Accounting ads: ``forwardAccountingData`` sends one per
    submitter with a submitter ad (jobs in a schedd's queue), ``forwardGroupAccounting``
    one per group. So while ``fs`` holds a queue, a user record none of whose jobs is in it
    (a remote submitter of claims only, a user whose jobs all left) is not listed; with no
    queue ``fs`` cannot tell, and lists every active record (``-allusers`` records are
    never filtered so; named ones are, as the collector answers for them).

    ``queue``: the submitters with jobs in the queue and each group's demand
    (:func:`queue_demand`).

    A measured hot loop (``benchmarks/run.py --rows userprio``): one positional row a user.
    """
    tree = acct.GroupTree(config.groups)
    group_of = tree.group_of if config.groups else None  # no groups: every user in <none>
    group_req, queued = queue.requested, queue.queued
    half_life = config.accountant.priority_halflife
    betas: dict[float, float] = {}
    root = acct.ROOT_GROUP
    least_factor, least_priority = acct.MIN_FACTOR, acct.MIN_PRIORITY
    named = bool(query.names)
    new_row = tuple.__new__
    rows: list[UserprioRow] = []
    for name, rec in records.items():
        if named and not query.wanted(name):
            continue
        if cutoff is not None and queued and not rec.is_group and name not in queued:
            continue  # no submitter ad: no Accounting ad in the collector
        prio, acc, wacc, begin, last_usage = advanced_values(rec, now, half_life, betas)
        if cutoff is not None and (last_usage if last_usage > 0 else -1.0) < cutoff:
            continue
        # max(x, least) as ``least if x < least else x`` (the same for NaN)
        factor = rec.priority_factor
        if factor is None:
            factor = acct.derived_factor(name, config, tree)
        elif factor < least_factor:
            factor = least_factor
        eup = (least_priority if prio < least_priority else prio) * factor  # effective_priority
        if not rec.is_group and name != root:
            rows.append(
                new_row(  # UserprioRow(...) positionally, without its Python __new__
                    UserprioRow,
                    (
                        name,
                        False,
                        root if group_of is None else group_of(name),
                        eup,
                        eup / factor,
                        factor,
                        rec.resources_used,
                        rec.weighted_resources_used,
                        acc / 3600.0,
                        wacc / 3600.0,
                        begin,
                        last_usage,
                        *_NO_GROUP_FIELDS,
                        rec.floor,
                        rec.ceiling,
                        factor,
                        acc,
                        wacc,
                        *_UNNUMBERED,
                    ),
                )
            )
            continue
        measured = (eup, factor, acc, wacc, begin, last_usage)
        rows.append(_full_row(name, rec, measured, config, query, tree, group_req, group_info))
    return rows


def queued_submitters(jobs: Sequence[Job], config: Config) -> set[str]:
    """The submitters with jobs in the queue: those a schedd sends a submitter ad for (each
    kind of job named once: a million jobs have a few thousand)."""
    dom = config.pool.uid_domain
    kinds = set(map(_SUBMITTER_FIELDS, jobs))
    return {acct.submitter_name(owner, group, nice, dom) for owner, group, nice in kinds}


_SUBMITTER_FIELDS = attrgetter("owner", "accounting_group", "nice_user")


def collector_ads(
    records: Mapping[str, CustomerRecord],
    config: Config,
    query: UserprioQuery,
    queued: set[str],
) -> int:
    """How many Accounting ads the collector holds that ``query`` names (all without
    names): plain ``condor_userprio`` counts them (``Number of users: N`` sizes its name
    column).

    ``forwardGroupAccounting`` sends one per configured group and ``<none>``;
    ``forwardAccountingData`` one per submitter of the cycle (a submitter ad: jobs in the
    queue; every record while ``fs`` holds no queue) whose record has ``ResourcesUsed``,
    which only ``AddMatch``/``RemoveMatch`` write: a record ever matched (slots in use,
    accumulated usage or a last usage time), not one an edit or a first priority read made.
    """
    groups = {acct.ROOT_GROUP, *config.groups}
    return sum(
        1
        for name, rec in records.items()
        if query.wanted(name) and in_collector(name, rec, groups, queued)
    )


def in_collector(name: str, rec: CustomerRecord, groups: set[str], queued: set[str]) -> bool:
    """Whether the collector holds an Accounting ad for the record (:func:`collector_ads`'
    rule; ``groups``: the configured ones and ``<none>``)."""
    if rec.is_group:
        return name in groups
    return (not queued or name in queued) and (
        rec.resources_used > 0 or rec.accumulated_usage > 0 or rec.last_usage_time > 0
    )


def _full_row(
    name: str,
    rec: CustomerRecord,
    measured: tuple[float, float, float, float, float, float],
    config: Config,
    query: UserprioQuery,
    tree: acct.GroupTree,
    group_req: Mapping[str, float],
    group_info: Mapping[str, GroupQuotaInfo],
) -> UserprioRow:
    """A row with every field worked out: a group's quotas, demand and surplus policy."""
    eup, factor, acc, wacc, begin, last_usage = measured
    is_group = rec.is_group
    info = group_info.get(name) if is_group else None
    # The root's configured quota is 0 (condor_userprio prints 0.00 for <none>).
    cq: float | None = 0.0 if name == acct.ROOT_GROUP else None
    if is_group and name in config.groups:
        spec = config.groups[name]
        cq = spec.quota if spec.quota is not None else spec.dynamic_quota
    known = is_group and (name == acct.ROOT_GROUP or name in config.groups)
    return UserprioRow(
        name=name,
        is_group=is_group,
        group=name if is_group else tree.group_of(name),
        effective_priority=eup,
        real_priority=eup / factor,
        priority_factor=factor,
        table_factor=_group_factor(config, name) if query.negotiator_ad and is_group else factor,
        resources_in_use=rec.resources_used,
        weighted_resources_in_use=rec.weighted_resources_used,
        accumulated_usage_hours=acc / 3600.0,
        weighted_accumulated_usage_hours=wacc / 3600.0,
        begin_usage_time=begin,
        last_usage_time=last_usage,
        # Only group records carry Requested (the negotiator's ads, 25.0).
        requested=group_req.get(name, 0.0) if is_group else None,
        config_quota=cq,
        effective_quota=info.effective_quota if info else None,
        subtree_quota=info.subtree_quota if info else None,
        sort_key=info.sort_key if info else None,
        surplus=surplus_policy(config, name) if known else "",
        floor=rec.floor,
        ceiling=rec.ceiling,
        accumulated_usage=acc,
        weighted_accumulated_usage=wacc,
    )


def _group_factor(config: Config, group: str) -> float:
    """A group's factor in the negotiator's ad (``-allusers``): ``GROUP_PRIO_FACTOR_<g>``,
    0 when unset (printed blank), whatever factor the group's record holds."""
    spec = config.groups.get(group)
    return (spec.prio_factor or 0.0) if spec is not None else 0.0
