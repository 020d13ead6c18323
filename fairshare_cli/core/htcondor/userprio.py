"""The rows ``condor_userprio`` shows, computed from the accountant at ``now``.

Row selection and order follow ``user_prio.cpp`` (reference/htcondor.md §6.7): the 24-hour
activity filter, hierarchical mode when a user inside a group is among the ads read, flat
order by effective priority.
HTCondor sorts with an unstable sort; equal keys here are ordered by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import itemgetter, not_
from typing import TYPE_CHECKING

from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.customer_record import CustomerRecord
from fairshare_cli.core.htcondor.decay import advanced_values
from fairshare_cli.core.htcondor.userprio_order import (
    hierarchical_order,
    sort_key,
    sort_order,
    sorted_rows,
    with_rows,
    without_leading_root,
)
from fairshare_cli.core.htcondor.userprio_rollup import breadth_first, rolled_up
from fairshare_cli.core.htcondor.userprio_row import GroupQuotaInfo as GroupQuotaInfo
from fairshare_cli.core.htcondor.userprio_row import UserprioRow as UserprioRow

if TYPE_CHECKING:
    from fairshare_cli.core.jobs import Job

ACTIVITY_WINDOW = 86400.0
SORT_KEYS = ("priority", "name", "usage", "factor", "in-use", "last-usage")


@dataclass(frozen=True)
class UserprioView:
    """All rows to print, in order, and what the header and footer need."""

    rows: tuple[UserprioRow, ...]
    hierarchical: bool
    total_records: int  # the ads condor_userprio read (its name column fits "Number of users: N")
    cutoff: float | None
    surplus_policy: str
    has_groups: bool
    any_real_group: bool = False
    hidden: int = 0
    named: tuple[str, ...] = field(default_factory=tuple)
    active: tuple[UserprioRow, ...] = ()  # every record past the activity filter, shown or not
    listed: tuple[UserprioRow, ...] = ()  # --long and --json: every row, <none> included


def requested_by_submitter(jobs: Iterable[Job], config: Config) -> dict[str, float]:
    """Demand per submitter: idle plus running jobs, weighted by their CPUs when
    ``use_weighted_demand`` is on (``WeightedIdleJobs + WeightedRunningJobs``), as ``fs
    quota`` counts it; else counted."""
    weighted = config.negotiator.use_weighted_demand
    out: dict[str, float] = {}
    dom = config.pool.uid_domain
    for job in jobs:
        if job.status not in ("idle", "running"):
            continue
        name = acct.submitter_name(job.owner, job.accounting_group, job.nice_user, dom)
        out[name] = out.get(name, 0.0) + (float(job.request_cpus) if weighted else 1.0)
    return out


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


@dataclass(frozen=True)
class UserprioQuery:
    """What ``condor_userprio``'s options ask for.

    Attributes:
        names: named submitters or groups: ``user@domain`` exactly, a bare name any record
            whose name before the ``@`` is that; only those show, and only when active
            (``user_prio.cpp`` adds names to the collector query, and its activity filter,
            ``MinLastUsageTime``, still drops the ads older than the cutoff).
        all_users: ``-allusers``: no activity filter.
        hierarchical: ``-hier`` (True: hierarchical when a shown row has a group number,
            else flat; group rows shown under ``-priority`` too) or ``-flat`` (False);
            None = HTCondor's choice.
        sort: flat order key (see :data:`SORT_KEYS`); HTCondor's own is ``priority``.
        show_priority / show_usage: which column families show (for the default order).
        priority_only: only the priority columns show (``-priority``): flat by default.
        group_rollup: ``-grouprollup``: the negotiator's rollup ad (every record, past the
            activity filter unless ``all_users``), each group's usage summed over its
            subgroups (:mod:`~fairshare_cli.core.htcondor.userprio_rollup`).
        group_order: ``-grouporder``: in the flat table the groups first, breadth-first.
        active_from: ``-activefrom``: the activity filter's cutoff (epoch seconds), in
            place of 24 hours before the clock.
        from_negotiator: ``-negotiator``: the negotiator's one ad (every record, each
            group's factor its ``GROUP_PRIO_FACTOR_<g>``), past the activity filter.
    """

    names: Sequence[str] = ()
    all_users: bool = False
    hierarchical: bool | None = None
    sort: str = "priority"
    show_priority: bool = True
    show_usage: bool = True
    priority_only: bool = False
    group_rollup: bool = False
    group_order: bool = False
    active_from: float | None = None
    from_negotiator: bool = False

    @property
    def negotiator_ad(self) -> bool:
        """Whether the rows are the negotiator's one ad (``-allusers``, ``-grouprollup``,
        ``-negotiator``), not the collector's Accounting ads (plain ``condor_userprio``)."""
        return self.all_users or self.group_rollup or self.from_negotiator

    def wanted(self, name: str) -> bool:
        """Like condor_userprio: ``user@domain`` and ``<none>`` match exactly, a bare name
        matches the part before the ``@`` (any domain; a group record's whole name)."""
        if not self.names:
            return True
        if name in self.names:
            return True
        short = name.split("@", 1)[0]
        return any(short == n for n in self.names if "@" not in n and n != acct.ROOT_GROUP)


def userprio_view(
    stored: Mapping[str, CustomerRecord],
    config: Config,
    now: float,
    query: UserprioQuery | None = None,
    *,
    jobs: Sequence[Job] = (),
    group_info: Mapping[str, GroupQuotaInfo] | None = None,
    activity_now: float | None = None,
) -> UserprioView:
    """Compute the rows of ``condor_userprio`` at ``now``.

    Args:
        stored: the accountant's records as stored, by name (``AccountantState.records``,
            or ``accountant_decode.stored_records``).
        config: the pool config (groups, quotas, surplus policy).
        now: the time the view is for.
        query: the options: names, filters, order and columns (HTCondor's defaults if None).
        jobs: the queue, for each submitter's and group's demand.
        group_info: effective and subtree quotas and sort keys from the quota computation.
        activity_now: the time the 24-hour activity filter counts back from (default
            ``now``); condor_userprio counts from the clock while it shows the accountant
            as of its last update.
    """
    query = query or UserprioQuery()
    records = dict(stored)  # as acct.all_records: a fresh record for each group not stored
    for name in [acct.ROOT_GROUP, *config.groups]:
        if name not in records:
            records[name] = acct.CustomerRecord(name=name, is_group=True)
    since = now if activity_now is None else activity_now
    cutoff: float | None = since - ACTIVITY_WINDOW
    if query.all_users:  # names do not lift it: user_prio.cpp keeps MinLastUsageTime
        cutoff = None
    elif query.active_from is not None:
        cutoff = query.active_from
    rows = _view_rows(records, config, now, query, cutoff, jobs, group_info or {})
    flags = list(map(itemgetter(1), rows))  # is_group (by position: faster)
    users = list(compress(rows, map(not_, flags)))
    groups = list(compress(rows, flags))
    has_group_data = bool(config.groups)
    any_real_group = _groups_numbered(users, groups, records, config, query, jobs)
    # ProcessInfo: flat when no shown row has a group number, -hier or not; else
    # hierarchical unless -flat, or only the priority columns show without -hier.
    hide_groups = query.priority_only and not query.hierarchical  # (HideGroups)
    hier = has_group_data and any_real_group and query.hierarchical is not False
    hier = hier and not hide_groups
    ordered: list[UserprioRow]
    listed: list[UserprioRow]
    field_name, descending = sort_order(query.sort, query.show_priority, query.show_usage)
    at = None if field_name is None else UserprioRow._fields.index(field_name)
    key = sort_key(at, descending)
    if hier:
        none_last = global_surplus_policy(config) == "Regroup"
        ordered = listed = hierarchical_order(
            users, groups, key, query.show_priority, query.show_usage, none_last
        )
    else:
        with_groups = has_group_data and not hide_groups
        ordered, listed = _flat_order(users, groups, with_groups, query, config, at, descending)
        ordered = ordered if any_real_group else without_leading_root(ordered)
    if not query.negotiator_ad:  # the collector's Accounting ads
        matched = collector_ads(records, config, query, queued_submitters(jobs, config))
    else:
        matched = sum(1 for n in records if query.wanted(n)) if query.names else len(records)
    return UserprioView(
        rows=tuple(ordered),
        listed=tuple(listed),
        hierarchical=hier,
        total_records=matched,
        active=tuple(rows),
        cutoff=cutoff,
        surplus_policy=global_surplus_policy(config),
        has_groups=has_group_data,
        any_real_group=any_real_group,
        named=tuple(sorted(query.names)),
    )


def _active_rows(
    records: Mapping[str, CustomerRecord],
    config: Config,
    now: float,
    query: UserprioQuery,
    cutoff: float | None,
    jobs: Sequence[Job],
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

    A measured hot loop (``benchmarks/run.py --rows userprio``): one positional row a user.
    """
    tree = acct.GroupTree(config.groups)
    group_of = tree.group_of if config.groups else None  # no groups: every user in <none>
    group_req, queued = _demand(jobs, config, tree)
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
                        None,
                        None,
                        None,
                        None,
                        None,
                        "",
                        rec.floor,
                        rec.ceiling,
                        factor,
                        acc,
                        wacc,
                    ),
                )
            )
            continue
        measured = (eup, factor, acc, wacc, begin, last_usage)
        rows.append(_full_row(name, rec, measured, config, query, tree, group_req, group_info))
    return rows


def _flat_order(
    users: list[UserprioRow],
    groups: list[UserprioRow],
    with_groups: bool,
    query: UserprioQuery,
    config: Config,
    at: int | None,
    descending: bool,
) -> tuple[list[UserprioRow], list[UserprioRow]]:
    """The flat table's rows, and every row past the filter (``-long``, ``--json``).

    Groups sort among the users by the same key; with ``-grouporder`` they come first
    instead, breadth-first from ``<none>`` as the negotiator numbers them
    (``SortGroupsFirstByIndex``: the order the ads arrived in, which for the collector's
    ads no one fixes), then the users.
    """
    if query.group_order:
        place = {name: i for i, name in enumerate(breadth_first(config.groups))}
        firsts = sorted(groups, key=lambda g: (place.get(g.name, len(place)), g.name))
        ordered = sorted_rows(users, at, descending)
        return ([*firsts, *ordered] if with_groups else ordered), [*firsts, *ordered]
    ordered = sorted_rows(users + groups if with_groups else users, at, descending)
    # condor_userprio -long prints every ad past the filter: the groups (<none>) too.
    # (Keys end with the unique name: sorting the sorted users again with the groups
    # gives the order of sorting all at once, in a pass.)
    return ordered, (ordered if with_groups else with_rows(ordered, groups, at, descending))


def _view_rows(
    records: Mapping[str, CustomerRecord],
    config: Config,
    now: float,
    query: UserprioQuery,
    cutoff: float | None,
    jobs: Sequence[Job],
    group_info: Mapping[str, GroupQuotaInfo],
) -> list[UserprioRow]:
    """The rows past the filters: the collector's ads (:func:`_active_rows`), or the
    negotiator's whole ad (rolled up with ``-grouprollup``) filtered after."""
    if not (query.group_rollup or query.from_negotiator):
        return _active_rows(records, config, now, query, cutoff, jobs, group_info)
    every = _active_rows(records, config, now, query, None, jobs, group_info)
    if query.group_rollup:
        every = rolled_up(every, config.groups)
    return [r for r in every if _active_since(r, cutoff)]


def _active_since(row: UserprioRow, cutoff: float | None) -> bool:
    """``user_prio.cpp``'s activity filter: a last usage of 0 (never) counts as -1."""
    last = row.last_usage_time
    return cutoff is None or (last if last > 0 else -1.0) >= cutoff


def _demand(
    jobs: Sequence[Job], config: Config, tree: acct.GroupTree
) -> tuple[dict[str, float], set[str]]:
    """Each group's demand (its submitters' :func:`requested_by_submitter`) and the
    submitters with jobs in the queue."""
    group_req: dict[str, float] = {}
    for sub, amount in requested_by_submitter(jobs, config).items():
        g = tree.group_of(sub)
        group_req[g] = group_req.get(g, 0.0) + amount
    return group_req, queued_submitters(jobs, config)


def queued_submitters(jobs: Sequence[Job], config: Config) -> set[str]:
    """The submitters with jobs in the queue: those a schedd sends a submitter ad for."""
    dom = config.pool.uid_domain
    return {acct.submitter_name(j.owner, j.accounting_group, j.nice_user, dom) for j in jobs}


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


def _groups_numbered(
    users: list[UserprioRow], groups: list[UserprioRow], records: Mapping[str, CustomerRecord],
    config: Config, query: UserprioQuery, jobs: Sequence[Job],
) -> bool:  # fmt: skip
    """Whether a shown row has a group number (``GroupId > 0``), which keeps the table
    hierarchical and its ``<none>`` row: ``CollectInfo`` numbers the groups only when it
    reads the ad of a user inside one (``fNeedGroupIdFixup``), shown or not (any record of
    the negotiator's ad, else a collector ad); such a row is a group, or a user of a group
    whose ad is read too (a user named without its group keeps no number: flat table)."""
    read_groups = {g for g in config.groups if query.wanted(g)}
    if set(map(itemgetter(2), users)) & read_groups:
        return True
    group_of, known = acct.GroupTree(config.groups).group_of, {acct.ROOT_GROUP, *config.groups}
    queued = queued_submitters(jobs, config)
    return any(g.name != acct.ROOT_GROUP for g in groups) and any(
        not rec.is_group
        and query.wanted(name)
        and (query.negotiator_ad or in_collector(name, rec, known, queued))
        and group_of(name) != acct.ROOT_GROUP
        for name, rec in records.items()
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


def global_surplus_policy(config: Config) -> str:
    """The footer's surplus word: the last group ad, breadth-first, that accepts surplus.

    The root ``<none>`` always accepts surplus, so with groups it is at least ``ByQuota``;
    ``Regroup`` when a later group autoregroups. No groups: blank.
    """
    if not config.groups:
        return ""
    auto_any = config.negotiator.autoregroup or any(g.autoregroup for g in config.groups.values())
    policy = "Regroup" if auto_any else "ByQuota"
    by_depth = sorted(config.groups, key=lambda n: (n.count("."), n.lower()))
    for name in by_depth:
        word = surplus_policy(config, name)
        if word in ("Regroup", "ByQuota"):
            policy = word
    return policy
