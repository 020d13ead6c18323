"""The accountant as ``condor_userprio -l`` dumped it: records, and the last cycle's quotas.

``condor_userprio -l -allusers`` prints the negotiator's one ad with numbered attributes
(``Name1``, ``Priority1``, ...; reference/htcondor.md §6.3); plain ``-l`` prints one
``Accounting`` ad per record. Either way each record carries its effective priority as
stored, its factor, resources in use, accumulated usage in seconds and usage times, and
group records carry the quotas the negotiator computed at its last cycle.

:func:`records_from_ads` turns them into accountant records valid at the ad's
``LastUpdate``. The ``htcondor_snapshot`` state section keeps the group quotas of that
cycle: ``condor_userprio`` prints them as the negotiator last computed them (for the pool
it saw then), so ``fs userprio`` shows them until a later cycle is committed.

The accountant only changes when the negotiator updates it (each cycle's
``UpdatePriorities``), so ``condor_userprio`` prints every record as of ``LastUpdate``, also
its ``Last Priority Update`` line and time since last usage, while its 24-hour activity
cut-off counts from the clock. ``fs userprio`` does the same while the dump is in force
(:func:`snapshot_in_force`): no cycle committed and no record changed since.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.state import SectionError

SECTION = "htcondor_snapshot"


@dataclass(frozen=True)
class AccountingAd:
    """One record of a ``condor_userprio -l`` dump (a numbered entry or an ad).

    ``priority`` is the effective priority as stored; ``priority_factor`` 0 means the ad
    did not say (groups in the negotiator's ad report only ``GROUP_PRIO_FACTOR_<g>``).
    """

    name: str
    is_group: bool
    priority: float
    priority_factor: float
    resources_used: int
    weighted_resources_used: float
    hier_weighted_resources_used: float | None
    accumulated_usage: float
    weighted_accumulated_usage: float
    begin_usage_time: float
    last_usage_time: float
    effective_quota: float | None = None
    subtree_quota: float | None = None
    sort_key: float | None = None
    floor: int = 0
    ceiling: int = -1


@dataclass(frozen=True)
class GroupSnapshot:
    """A group's quotas as the negotiator computed them at its last cycle."""

    effective_quota: float | None
    subtree_quota: float | None
    sort_key: float | None


@dataclass(frozen=True)
class Snapshot:
    """The ``htcondor_snapshot`` state section: when, and each group's quotas then."""

    last_update: float
    groups: Mapping[str, GroupSnapshot]
    names: tuple[str, ...] = ()


def records_from_ads(
    ads: Iterable[AccountingAd],
    state: acct.AccountantState,
    config: Config,
    last_update: float,
) -> tuple[acct.AccountantState, int]:
    """The accountant with each dumped record replacing the stored one.

    The real priority is the stored effective priority over the record's factor (the ad's,
    else the one the config gives, as ``Accountant::GetPriorityFactor`` would), and the record
    stores that factor: every record the dump shows has had its factor read, and that first
    read stored it, so later factor knobs leave it alone (:func:`acct.store_factors`). A factor
    below 1 is no record's (``SetPriorityFactor`` stores 1 in its place): the negotiator's
    ad gives a group ``GROUP_PRIO_FACTOR_<g>`` as configured (``ReportGroups``), so the
    record holds 1. Records not in the dump stay as they were.

    Returns:
        The new accountant state and the number of records taken from the dump.
    """
    tree = acct.GroupTree(config.groups)
    records = dict(state.records)
    count = 0
    for ad in ads:
        count += 1
        fresh = acct.CustomerRecord(name=ad.name, is_group=ad.is_group)
        implied = acct.priority_factor(fresh, config, tree)
        factor = max(ad.priority_factor, acct.MIN_FACTOR) if ad.priority_factor > 0 else implied
        hier = ad.hier_weighted_resources_used
        if hier is None or not ad.is_group or ad.name == acct.ROOT_GROUP:
            hier = 0.0
        records[ad.name] = replace(
            fresh,
            priority=acct.as_stored(ad.priority / factor),  # (stored with six decimals)
            last_update=last_update,
            priority_factor=factor,
            resources_used=ad.resources_used,
            weighted_resources_used=ad.weighted_resources_used,
            hier_weighted_resources_used=hier,
            accumulated_usage=ad.accumulated_usage,
            weighted_accumulated_usage=ad.weighted_accumulated_usage,
            begin_usage_time=ad.begin_usage_time,
            last_usage_time=ad.last_usage_time,
            floor=ad.floor,
            ceiling=ad.ceiling,
        )
    return acct.AccountantState(records=records), count


def snapshot_of(ads: Sequence[AccountingAd], last_update: float) -> Snapshot:
    """The group quotas the dump reports (groups with at least one quota value), and the
    names of its records."""
    groups = {
        ad.name: GroupSnapshot(ad.effective_quota, ad.subtree_quota, ad.sort_key)
        for ad in ads
        if ad.is_group and (ad.effective_quota, ad.subtree_quota, ad.sort_key) != (None, None, None)
    }
    return Snapshot(last_update, groups)


def snapshot_to_json(snap: Snapshot) -> dict[str, Any]:
    """Encode the ``htcondor_snapshot`` section."""
    return {
        "last_update": snap.last_update,
        "groups": {
            name: {
                "effective_quota": g.effective_quota,
                "subtree_quota": g.subtree_quota,
                "sort_key": g.sort_key,
            }
            for name, g in sorted(snap.groups.items())
        },
        "names": list(snap.names),
    }


def _opt_number(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SectionError(f"{where}: expected a number or null")
    return float(value)


def snapshot_from_json(raw: Any) -> Snapshot | None:
    """Decode the ``htcondor_snapshot`` section (None when absent).

    Raises:
        SectionError: naming the malformed key.
    """
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not isinstance(raw.get("groups", {}), Mapping):
        raise SectionError(f"{SECTION}: expected an object with 'last_update' and 'groups'")
    last = raw.get("last_update")
    if isinstance(last, bool) or not isinstance(last, (int, float)):
        raise SectionError(f"{SECTION}.last_update: expected epoch seconds")
    groups: dict[str, GroupSnapshot] = {}
    for name, body in raw.get("groups", {}).items():
        where = f"{SECTION}.groups.{name}"
        if not isinstance(body, Mapping):
            raise SectionError(f"{where}: expected an object")
        groups[name] = GroupSnapshot(
            _opt_number(body.get("effective_quota"), f"{where}.effective_quota"),
            _opt_number(body.get("subtree_quota"), f"{where}.subtree_quota"),
            _opt_number(body.get("sort_key"), f"{where}.sort_key"),
        )
    names = raw.get("names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise SectionError(f"{SECTION}.names: expected a list of record names")
    return Snapshot(float(last), groups, tuple(names))


def snapshot_in_force(
    snap: Snapshot | None,
    last_cycle: float | None,
    now: float,
    accountant: acct.AccountantState | None = None,
) -> bool:
    """The dump still describes the accountant: ``now`` is not before it, no cycle was
    committed after it and (when given) none of the records it brought changed after it."""
    if snap is None or now < snap.last_update:
        return False
    if last_cycle is not None and last_cycle > snap.last_update:
        return False
    if accountant is not None:
        for name in snap.names:
            rec = accountant.records.get(name)
            if rec is None or (rec.last_update is not None and rec.last_update > snap.last_update):
                return False
    return True
