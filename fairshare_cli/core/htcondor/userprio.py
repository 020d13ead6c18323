"""The rows ``condor_userprio`` shows, computed from the accountant at ``now``.

Row selection and order follow ``user_prio.cpp`` (reference/htcondor.md §6.7): the 24-hour
activity filter, hierarchical mode when a user inside a group is among the ads read, flat
order by effective priority.
HTCondor sorts with an unstable sort: equal keys go where it leaves them from the
negotiator's ad order (``-allusers``; :func:`ties_keep_ad_order`), else by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import itemgetter, not_
from typing import Any

from fairshare_cli.core.config import Config
from fairshare_cli.core.cpp_sort import cpp_sort
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.acctlog_order import table_order
from fairshare_cli.core.htcondor.customer_record import CustomerRecord
from fairshare_cli.core.htcondor.userprio_numbers import numbered_rows
from fairshare_cli.core.htcondor.userprio_order import (
    Row,
    hierarchical_order,
    sort_key,
    sort_order,
    sorted_rows,
    with_rows,
    without_leading_root,
)
from fairshare_cli.core.htcondor.userprio_query import UserprioQuery
from fairshare_cli.core.htcondor.userprio_rollup import breadth_first, rolled_up
from fairshare_cli.core.htcondor.userprio_row import GroupQuotaInfo as GroupQuotaInfo
from fairshare_cli.core.htcondor.userprio_row import UserprioRow as UserprioRow
from fairshare_cli.core.htcondor.userprio_rows import (
    NO_QUEUE,
    QueueDemand,
    active_rows,
    collector_ads,
    in_collector,
    surplus_policy,
)

ACTIVITY_WINDOW = 86400.0


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
    unread: frozenset[str] = frozenset()  # groups (<none> too) whose ad was not read


def userprio_view(
    stored: Mapping[str, CustomerRecord],
    config: Config,
    now: float,
    query: UserprioQuery | None = None,
    *,
    queue: QueueDemand = NO_QUEUE,
    group_info: Mapping[str, GroupQuotaInfo] | None = None,
    activity_now: float | None = None,
    table_entries: int | None = None,
) -> UserprioView:
    """Compute the rows of ``condor_userprio`` at ``now``.

    Args:
        stored: the accountant's records as stored, by name (``AccountantState.records``).
        config: the pool config (groups, quotas, surplus policy).
        now: the time the view is for.
        query: the options: names, filters, order and columns (HTCondor's defaults if None).
        queue: the queue's submitters and each group's demand (``Requested``), as ``fs
            quota`` counts it (:func:`~.userprio_rows.queue_demand`; default: none).
        group_info: effective and subtree quotas and sort keys from the quota computation.
        activity_now: the time the 24-hour activity filter counts back from (default
            ``now``: condor_userprio counts from the clock, the accountant as last updated).
        table_entries: the entries of the negotiator's accountant table, which order its
            ad's submitters (:mod:`~fairshare_cli.core.htcondor.acctlog_order`), if known.
    """
    query = query or UserprioQuery()
    records = _with_group_records(stored, config)
    cutoff = _cutoff(query, now if activity_now is None else activity_now)
    rows = _view_rows(records, config, now, query, cutoff, queue, group_info or {})
    if query.group_numbers:
        rows = _numbered(rows, records, config, now, query, queue, group_info or {})
    flags = list(map(itemgetter(1), rows))  # is_group (by position: faster)
    users = list(compress(rows, map(not_, flags)))
    groups = list(compress(rows, flags))
    has_group_data = bool(config.groups)
    any_real_group = _groups_numbered(users, groups, records, config, query, queue.queued)
    # ProcessInfo: flat when no shown row has a group number, -hier or not; else
    # hierarchical unless -flat, or only the priority columns show without -hier.
    hide_groups = query.priority_only and not query.hierarchical  # (HideGroups)
    hier = has_group_data and any_real_group and query.hierarchical is not False and not hide_groups
    field_name, descending = sort_order(query.sort, query.show_priority, query.show_usage)
    at = None if field_name is None else UserprioRow._fields.index(field_name)
    ranks = _ad_ranks(records, config, query, table_entries, at)
    introsort = ranks is not None and len(records) > _STABLE_SORT_MAX
    ranked = None if introsort else ranks  # (past 16 rows ties go where the sort leaves them)
    key = sort_key(at, descending) if ranked is None else _ranked_key(at, descending, ranked)
    unread = _unread_groups(config, query)
    if hier:
        none_last = global_surplus_policy(config) == "Regroup"
        ordered = listed = hierarchical_order(
            users, groups, key, query.show_priority, query.show_usage, none_last, unread
        )
        if introsort and len(rows) == len(records):  # (every ad shown: each in its block)
            ordered = listed = _introsorted_blocks(ordered, ranks, at)
    else:
        with_groups = has_group_data and not hide_groups
        if introsort:  # (every ad read is sorted, those the filter leaves out too)
            every = _every_row(rows, records, config, now, query, cutoff, queue, group_info or {})
            ordered, listed = _introsorted(rows, every, ranks, at, query.group_order, with_groups)
        else:
            ordered, listed = (
                _flat_order(users, groups, with_groups, query, config, at, descending)
                if ranks is None  # (else a few rows: one plain sort)
                else _ranked_flat_order(users, groups, with_groups, query, ranks, key)
            )
        ordered = ordered if any_real_group else without_leading_root(ordered)
    return UserprioView(
        rows=tuple(ordered),
        listed=tuple(listed),
        hierarchical=hier,
        total_records=_ads_read(records, config, query, queue.queued),
        active=tuple(rows),
        cutoff=cutoff,
        surplus_policy=global_surplus_policy(config),
        has_groups=has_group_data,
        any_real_group=any_real_group,
        named=tuple(sorted(query.names)),
        unread=unread,
    )


def _introsorted_blocks(
    ordered: list[UserprioRow], ranks: Mapping[str, int] | None, at: int | None
) -> list[UserprioRow]:
    """The hierarchical table's rows (``ordered``: each group row, then its users) in the
    order ``std::sort`` with ``LineRecLT`` (``SortHierByDisplayOrder``) leaves them from
    the ad's order: a row's group block first (as ``ordered`` places the blocks), the
    group row before its users, then the users by the field at ``at`` alone."""
    assert ranks is not None  # (only past _STABLE_SORT_MAX ranked rows)
    assert at is not None
    blocks: dict[str, int] = {}
    n, group = -1, None
    for row in ordered:  # (a user whose group row is not shown: a block of its own)
        if row.is_group or row.group != group:
            n, group = n + 1, (row.name if row.is_group else row.group)
        blocks[row.name] = n
    get = itemgetter(at)

    def key(row: UserprioRow) -> tuple[int, int, Any]:
        # (a block holds one group row: two rows equal in the first two are users)
        return (blocks[row.name], 0, 0) if row.is_group else (blocks[row.name], 1, get(row))

    rows = _in_ad_order(ordered, ranks)
    cpp_sort(rows, key)
    return rows


def _with_group_records(
    stored: Mapping[str, CustomerRecord], config: Config
) -> dict[str, CustomerRecord]:
    """``stored`` with a fresh record for each group not stored (as ``acct.all_records``)."""
    records = dict(stored)
    for name in [acct.ROOT_GROUP, *config.groups]:
        if name not in records:
            records[name] = acct.CustomerRecord(name=name, is_group=True)
    return records


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


#: ``std::sort`` sorts this many elements or fewer by insertion alone (libstdc++'s
#: ``_S_threshold``): a stable sort, so rows that tie keep the order of the ads.
_STABLE_SORT_MAX = 16
#: The most records whose ties ``fs`` orders as the negotiator's ad and ``std::sort`` leave
#: them; a larger table lists them by name. Hashing each name as the accountant's table
#: does and replaying the sort (:func:`~fairshare_cli.core.cpp_sort.cpp_sort`) cost some
#: 0.02 s of CPU at this size and 0.05 s at 20,000 submitters (2-core machine, in-process
#: ``userprio_view`` with and without), where ``fs userprio --allusers`` has a 0.3 s target
#: (``benchmarks/run.py --rows userprio``).
AD_ORDER_MAX = 10_000


def _cutoff(query: UserprioQuery, since: float) -> float | None:
    """The activity filter's cutoff (``MinLastUsageTime``): 24 hours before ``since``,
    ``-activefrom``'s day, or none with ``-allusers`` (names do not lift it: 25.0's
    ``user_prio.cpp`` keeps it)."""
    if query.all_users:
        return None
    return query.active_from if query.active_from is not None else since - ACTIVITY_WINDOW


def _unread_groups(config: Config, query: UserprioQuery) -> frozenset[str]:
    """The groups, ``<none>`` among them, whose ad condor_userprio does not read: those
    the names leave out of the collector's query (the negotiator's ad holds every one)."""
    if query.negotiator_ad or not query.names:
        return frozenset()
    return frozenset(g for g in (acct.ROOT_GROUP, *config.groups) if not query.wanted(g))


def _ads_read(
    records: Mapping[str, CustomerRecord], config: Config, query: UserprioQuery, queued: set[str]
) -> int:
    """How many ads condor_userprio reads: the collector's Accounting ads the query names
    (all without names), or every record of the negotiator's one ad."""
    if not query.negotiator_ad:
        return collector_ads(records, config, query, queued)
    return sum(1 for n in records if query.wanted(n)) if query.names else len(records)


def _ad_ranks(
    records: Mapping[str, CustomerRecord],
    config: Config,
    query: UserprioQuery,
    table_entries: int | None,
    at: int | None,
) -> dict[str, int] | None:
    """Each row's place in the negotiator's one ad (groups breadth-first, then the
    submitters as the accountant's table iterates), the order ``user_prio.cpp``'s
    ``std::sort`` starts from, when rows are sorted by condor_userprio's own key. None
    elsewhere (ties then go by name: the collector's order is no one's)."""
    if table_entries is None or at is None or not ties_keep_ad_order(len(records), query):
        return None
    order = breadth_first(config.groups)
    users = [n for n, rec in records.items() if not rec.is_group and n != acct.ROOT_GROUP]
    order.extend(table_order(users, table_entries))
    return dict(zip(order, range(len(order)), strict=True))


def ties_keep_ad_order(records: int, query: UserprioQuery) -> bool:
    """Whether rows that tie go in the order ``std::sort`` leaves them from the negotiator's
    ad order (:func:`_ad_ranks`), which needs the accountant table's size: the negotiator's
    one ad, sorted by priority. Up to :data:`_STABLE_SORT_MAX` rows they keep that order;
    above it the sort's partitions move them (:func:`_introsorted`, and
    :func:`_introsorted_blocks` when every ad is shown; else by name). Past
    :data:`AD_ORDER_MAX` records ties go by name."""
    return query.negotiator_ad and query.sort == "priority" and records <= AD_ORDER_MAX


def _introsorted(
    rows: list[UserprioRow],
    every: list[UserprioRow],
    ranks: Mapping[str, int] | None,
    at: int | None,
    group_order: bool,
    with_groups: bool,
) -> tuple[list[UserprioRow], list[UserprioRow]]:
    """The flat table's ``rows`` (and the ``-l`` listing's, groups included) in the order
    ``std::sort`` with ``LineRecLT`` leaves ``every`` row of the ads read (filtered or
    not: ``user_prio.cpp`` sorts them all and filters as it prints), from the ad's order:
    by the field at ``at`` alone, and with ``-grouporder`` a group before any other row by
    its place (``SortGroupsFirstByIndex``)."""
    assert ranks is not None  # (only past _STABLE_SORT_MAX ranked rows)
    assert at is not None
    ordered = _in_ad_order(every, ranks)
    key: Callable[[UserprioRow], Any] = itemgetter(at)
    if group_order:
        key = _groups_first_key(ranks, at)
    cpp_sort(ordered, key)
    listed = ordered
    if rows is not every:
        shown = {r.name: r for r in rows}
        listed = [shown[r.name] for r in ordered if r.name in shown]
    return (listed if with_groups else [r for r in listed if not r.is_group]), listed


def _in_ad_order(rows: list[UserprioRow], ranks: Mapping[str, int]) -> list[UserprioRow]:
    """``rows`` by their place in the ad (one not in it after the rest, in its order)."""
    places = list(map(ranks.get, map(itemgetter(0), rows), repeat(len(ranks))))
    return list(map(rows.__getitem__, sorted(range(len(rows)), key=places.__getitem__)))


def _groups_first_key(ranks: Mapping[str, int], at: int) -> Callable[[UserprioRow], Any]:
    """The key of ``LineRecLT`` with ``-grouporder``: a group and another row go by their
    places in the ad, two users by the field at ``at``. The ad places the groups first
    (every user's place is after theirs), and a group it does not hold (place: past the
    end) comes after every other row, ties among such groups: so groups by place, then
    users by the field, then groups the ad does not hold."""
    last = len(ranks)
    get = itemgetter(at)

    def key(row: UserprioRow) -> tuple[int, Any]:
        if not row.is_group:
            return (1, get(row))
        place = ranks.get(row.name, last)
        return (0, place) if place < last else (2, 0)

    return key


def _ranked_key(at: int | None, descending: bool, ranks: Mapping[str, int]) -> Callable[[Row], Any]:
    """The sort key with ties by :func:`_ad_ranks`' place (an unplaced row last, by name)."""
    last = len(ranks)
    get = itemgetter(0 if at is None else at)  # (ranks come with a field only)
    sign = -1.0 if descending else 1.0
    return lambda r: (sign * get(r), ranks.get(r[0], last), r[0])


def _ranked_flat_order(
    users: list[UserprioRow],
    groups: list[UserprioRow],
    with_groups: bool,
    query: UserprioQuery,
    ranks: Mapping[str, int],
    key: Callable[[Row], Any],
) -> tuple[list[UserprioRow], list[UserprioRow]]:
    """:func:`_flat_order` with ties in the ad's order (``-grouporder``: groups first in
    their places, ``SortGroupsFirstByIndex``)."""
    if query.group_order:
        firsts = sorted(groups, key=lambda g: ranks.get(g.name, len(ranks)))
        ordered = sorted(users, key=key)
        return ([*firsts, *ordered] if with_groups else ordered), [*firsts, *ordered]
    every = sorted(users + groups, key=key)
    return (every if with_groups else sorted(users, key=key)), every


def _view_rows(
    records: Mapping[str, CustomerRecord],
    config: Config,
    now: float,
    query: UserprioQuery,
    cutoff: float | None,
    queue: QueueDemand,
    group_info: Mapping[str, GroupQuotaInfo],
) -> list[UserprioRow]:
    """The rows past the filters: the collector's ads (:func:`active_rows`), or the
    negotiator's whole ad (rolled up with ``-grouprollup``) filtered after."""
    if not (query.group_rollup or query.from_negotiator):
        return active_rows(records, config, now, query, cutoff, queue, group_info)
    every = active_rows(records, config, now, query, None, queue, group_info)
    if query.group_rollup:
        every = rolled_up(every, config.groups)
    return [r for r in every if _active_since(r, cutoff)]


def _every_row(
    rows: list[UserprioRow],
    records: Mapping[str, CustomerRecord],
    config: Config,
    now: float,
    query: UserprioQuery,
    cutoff: float | None,
    queue: QueueDemand,
    group_info: Mapping[str, GroupQuotaInfo],
) -> list[UserprioRow]:
    """Every row of the ads read, past the activity filter or not (``rows``, the rows past
    it, when there is none)."""
    if cutoff is None:
        return rows
    return _view_rows(records, config, now, query, None, queue, group_info)


def _active_since(row: UserprioRow, cutoff: float | None) -> bool:
    """``user_prio.cpp``'s activity filter: a last usage of 0 (never) counts as -1."""
    last = row.last_usage_time
    return cutoff is None or (last if last > 0 else -1.0) >= cutoff


def _groups_numbered(
    users: list[UserprioRow], groups: list[UserprioRow], records: Mapping[str, CustomerRecord],
    config: Config, query: UserprioQuery, queued: set[str],
) -> bool:  # fmt: skip
    """Whether a shown row has a group number (``GroupId > 0``), which keeps the table
    hierarchical and its ``<none>`` row: ``CollectInfo`` numbers the groups only when it
    reads the ad of a user inside one (:func:`_renumbered`); such a row is a group, or a
    user of a group whose ad is read too (a user named without its group keeps no number:
    flat table)."""
    read_groups = {g for g in config.groups if query.wanted(g)}
    if set(map(itemgetter(2), users)) & read_groups:
        return True
    return any(g.name != acct.ROOT_GROUP for g in groups) and _renumbered(
        records, config, query, queued
    )


def _renumbered(
    records: Mapping[str, CustomerRecord], config: Config, query: UserprioQuery, queued: set[str]
) -> bool:
    """Whether ``CollectInfo`` renumbers the groups (``fNeedGroupIdFixup``): it read the ad
    of a user inside a group, shown or not (any record of the negotiator's ad, else a
    collector ad)."""
    group_of, known = acct.GroupTree(config.groups).group_of, {acct.ROOT_GROUP, *config.groups}
    return any(
        not rec.is_group
        and query.wanted(name)
        and (query.negotiator_ad or in_collector(name, rec, known, queued))
        and group_of(name) != acct.ROOT_GROUP
        for name, rec in records.items()
    )


def _numbered(
    rows: list[UserprioRow],
    records: Mapping[str, CustomerRecord],
    config: Config,
    now: float,
    query: UserprioQuery,
    queue: QueueDemand,
    group_info: Mapping[str, GroupQuotaInfo],
) -> list[UserprioRow]:
    """``rows`` with the group numbers and display order ``-groupid`` and ``-order``
    print, worked out over every group ad read, active or not."""
    every = _view_rows(records, config, now, query, None, queue, group_info)
    known = {acct.ROOT_GROUP, *config.groups}
    groups = [r for r in every if r.is_group and r.name in known]
    return numbered_rows(
        rows,
        groups,
        renumbered=_renumbered(records, config, query, queue.queued),
        ads_read=_ads_read(records, config, query, queue.queued),
        configured=config.groups if query.negotiator_ad else None,
        show_priority=query.show_priority,
        show_usage=query.show_usage,
    )


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
