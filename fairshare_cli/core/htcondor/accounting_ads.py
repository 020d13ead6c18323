"""The accounting ads ``condor_userprio -long`` prints, attribute for attribute.

Plain ``condor_userprio -l`` prints the collector's Accounting ads, one per record:
``Matchmaker::forwardAccountingData`` sends a submitter's stored record with its
``Name``, ``Priority`` (effective), ``Ceiling``, ``Floor``, ``IsAccountingGroup``,
``AccountingGroup`` (its group), ``LastUpdate`` and ``MyType``;
``Matchmaker::forwardGroupAccounting`` builds a group's ad afresh: its parent as
``AccountingGroup`` (the root its own), its quotas, ``GroupSortKey``, ``SurplusPolicy``
and ``Requested``, and the record's usage fields. ``-l -allusers`` prints the negotiator's
one ad (``Accountant::ReportState``): ``LastUpdate``, the groups numbered breadth-first
from ``<none>`` (``ReportGroups``: a group's factor is its ``GROUP_PRIO_FACTOR_<g>``, else
0), then every submitter record, then ``NumSubmittors`` and the concurrency limits
(``ReportLimits``).

What ``fs`` does not hold is left out: the collector's and the daemon's own attributes
(``AuthenticatedIdentity``, ``DaemonStartTime``, ``LastHeardFrom``, ``NegotiatorName``,
``UpdateSequenceNumber`` ...), and ``SubmitterLimit``/``SubmitterShare``, which the
negotiator stores in a record (in memory only) on the first pie spin of each group round
that reaches it during its last cycle, the last such round winning, and which an
accountant update zeroes (docs/htcondor.md says why ``fs`` cannot print them exactly).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.acctlog_order import table_order
from fairshare_cli.core.htcondor.customer_record import CustomerRecord
from fairshare_cli.core.htcondor.userprio_row import UserprioRow

#: Attributes the real ads carry that fs does not hold (lower case): the collector's and
#: the daemon's own, and the last cycle's shares (see the module docstring).
NOT_HELD = frozenset(
    name.lower()
    for name in (
        "AuthenticatedIdentity",
        "AuthenticationMethod",
        "DaemonLastReconfigTime",
        "DaemonStartTime",
        "LastHeardFrom",
        "NegotiatorName",
        "UpdateSequenceNumber",
        "SubmitterLimit",
        "SubmitterShare",
    )
)

#: An ad's value: text (printed quoted), a boolean, an integer or a real.
AdValue = str | bool | int | float
Ad = dict[str, AdValue]


def ad_surplus_policy(config: Config, group: str) -> str:
    """A group's ``SurplusPolicy``: ``regroup`` (autoregroup), ``byquota`` (accepts
    surplus) or ``no``. The root accepts surplus, and autoregroups when the pool's
    ``GROUP_AUTOREGROUP`` or any group's is on (``hgq_construct_tree``)."""
    neg = config.negotiator
    if group == acct.ROOT_GROUP:
        auto = neg.autoregroup or any(g.autoregroup for g in config.groups.values())
        return "regroup" if auto else "byquota"
    spec = config.groups[group]
    if spec.autoregroup if spec.autoregroup is not None else neg.autoregroup:
        return "regroup"
    accept = spec.accept_surplus if spec.accept_surplus is not None else neg.accept_surplus
    return "byquota" if accept else "no"


def group_order(config: Config) -> list[str]:
    """The configured groups breadth-first from ``<none>``, each group's children sorted
    without regard to case (``hgq_construct_tree``): the negotiator's group numbers."""
    children: dict[str, list[str]] = {}
    lower = {name.lower(): name for name in config.groups}
    for name in sorted(config.groups, key=str.lower):
        parent, dot, _ = name.rpartition(".")
        children.setdefault(
            lower.get(parent.lower(), acct.ROOT_GROUP) if dot else acct.ROOT_GROUP, []
        ).append(name)
    order = [acct.ROOT_GROUP]
    for name in order:  # (grows as it goes: breadth-first)
        order.extend(children.get(name, ()))
    return order


def _parent(config: Config, group: str) -> str:
    """A group's ``AccountingGroup`` in its ad: its parent, the root's its own name."""
    parent, dot, _ = group.rpartition(".")
    if group == acct.ROOT_GROUP or not dot:
        return acct.ROOT_GROUP
    lower = {name.lower(): name for name in config.groups}
    return lower.get(parent.lower(), acct.ROOT_GROUP)


def _usage(row: UserprioRow) -> Ad:
    return {
        "ResourcesUsed": row.resources_in_use,
        "WeightedResourcesUsed": float(row.weighted_resources_in_use),
        "AccumulatedUsage": float(row.accumulated_usage),
        "WeightedAccumulatedUsage": float(row.weighted_accumulated_usage),
        "BeginUsageTime": int(row.begin_usage_time),
        "LastUsageTime": int(row.last_usage_time),
    }


def _quotas(row: UserprioRow, config: Config) -> Ad:
    """A group's quota attributes; with no groups configured the negotiator skips its
    quota computation (``hgq_prepare_for_matchmaking``): <none>'s stay 0, Requested too."""
    if not config.groups:
        zeros: Ad = dict.fromkeys(("EffectiveQuota", "ConfigQuota", "SubtreeQuota"), 0.0)
        return {**zeros, "GroupSortKey": 0.0, "SurplusPolicy": ad_surplus_policy(config, row.name),
                "Requested": 0.0}  # fmt: skip
    return {
        "EffectiveQuota": float(row.effective_quota or 0.0),
        "ConfigQuota": float(row.config_quota or 0.0),
        "SubtreeQuota": float(row.subtree_quota or 0.0),
        "GroupSortKey": float(row.sort_key or 0.0),
        "SurplusPolicy": ad_surplus_policy(config, row.name),
        "Requested": float(row.requested or 0.0),
    }


def _uncharged(rec: CustomerRecord | None, now: float) -> tuple[int, float]:
    """The record's ``UnchargedTime`` and weighted twin at ``now`` (an update folds them in)."""
    if rec is None or (rec.last_update is not None and now > rec.last_update):
        return 0, 0.0
    return int(rec.uncharged_time), float(rec.weighted_uncharged_time)


def collector_ads_of(
    rows: Iterable[UserprioRow],
    records: Mapping[str, CustomerRecord],
    config: Config,
    now: float,
) -> list[Ad]:
    """The collector's Accounting ad of each row (``forwardAccountingData`` for a
    submitter, ``forwardGroupAccounting`` for a configured group; a group no longer
    configured has none)."""
    groups = {acct.ROOT_GROUP, *config.groups}
    out: list[Ad] = []
    for row in rows:
        ad: Ad = {"MyType": "Accounting", "Name": row.name, "LastUpdate": int(now)}
        ad["IsAccountingGroup"] = row.is_group
        ad["Priority"] = float(row.effective_priority)
        ad["PriorityFactor"] = float(row.priority_factor)
        if row.is_group:
            if row.name not in groups:
                continue
            ad["AccountingGroup"] = _parent(config, row.name)
            ad.update(_quotas(row, config))
        else:
            ad["AccountingGroup"] = row.group
            ad["Ceiling"] = int(row.ceiling)
            ad["Floor"] = int(row.floor)
            uncharged, weighted = _uncharged(records.get(row.name), now)
            ad["UnchargedTime"] = uncharged
            ad["WeightedUnchargedTime"] = weighted
        ad.update(_usage(row))
        out.append(ad)
    return out


def numbered_ad(
    rows: Sequence[UserprioRow],
    records: Mapping[str, CustomerRecord],
    config: Config,
    now: float,
    entries: int,
    limits: Mapping[str, float] | None = None,
) -> Ad:
    """The negotiator's one ad (``Accountant::ReportState``): each record's attributes
    with its number appended, groups first (breadth-first), then the submitters of
    ``rows`` in the order its table of ``entries`` entries iterates them
    (:mod:`~fairshare_cli.core.htcondor.acctlog_order`), and ``limits``: its
    ``ConcurrencyLimit_<name>`` attributes (``concurrency.reported_limits``)."""
    ad: Ad = {"LastUpdate": int(now)}
    order = group_order(config)
    numbers = {name: i for i, name in enumerate(order, 1)}
    by_name = {row.name: row for row in rows}
    for name in order:
        row = by_name.get(name)
        if row is None:  # no record: its number stays unused
            continue
        rec = records.get(name)
        attrs: Ad = {"Name": name, "IsAccountingGroup": True}
        attrs["AccountingGroup"] = _parent(config, name)
        attrs["Priority"] = float(row.effective_priority)
        attrs["PriorityFactor"] = float(row.table_factor or 0.0)
        attrs.update(_quotas(row, config))
        attrs.update(_usage(row))
        attrs["HierWeightedResourcesUsed"] = float(rec.hier_weighted_resources_used if rec else 0.0)
        ad.update({f"{k}{numbers[name]}": v for k, v in attrs.items()})
    number = len(order)
    users = {row.name: row for row in rows if not row.is_group}
    for name in table_order(users, entries):
        row = users[name]
        number += 1
        attrs = {"Name": row.name, "IsAccountingGroup": False, "AccountingGroup": row.group}
        attrs["Priority"] = float(row.effective_priority)
        attrs["Ceiling"] = int(row.ceiling)
        attrs["Floor"] = int(row.floor)
        attrs["PriorityFactor"] = float(row.priority_factor)
        attrs.update(_usage(row))
        ad.update({f"{k}{number}": v for k, v in attrs.items()})
    ad["NumSubmittors"] = number
    ad.update({name: float(count) for name, count in (limits or {}).items()})
    return ad


def ads_matching(ads: Sequence[Ad], constraints: Sequence[str]) -> list[Ad]:
    """The ads ``-constraint`` keeps (``PrintModularAds`` in ``user_prio.cpp``).

    condor_userprio joins its ``-constraint`` expressions with ``&&`` (``GenericQuery``'s
    custom ANDs) and keeps an ad when the whole evaluates, in that ad alone, to true or a
    non-zero number (``EvalExprBool``); undefined, an error or a string drops it. No
    expression keeps every ad.

    Raises:
        InputError: naming the expression when it does not parse.
    """
    if not constraints:
        return list(ads)
    from fairshare_cli.core.htcondor.classads import Compiled, evaluate_alone

    text = " && ".join(f"({c})" for c in constraints)
    cache: dict[Any, Compiled] = {}
    kept = []
    for ad in ads:
        value = evaluate_alone(text, ad, f"-constraint {text}", cache)
        if value is True or (type(value) in (int, float) and value != 0):
            kept.append(ad)
    return kept
