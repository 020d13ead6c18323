"""Per-cycle accounting: what HTCondor's negotiator does to the accountant each cycle.

A cycle at ``T`` first runs ``Accountant::UpdatePriorities`` (every record, groups
included, is updated over the interval since the last update), then ``CheckMatches``
(claims that ended since are removed: their usage was charged up to ``T``), then
negotiates; each match it makes ``s`` seconds into the cycle is an ``AddMatch`` that
records ``−s`` of uncharged time, so the next update charges exactly the time the slot was
held. A group's priority follows its subtree's weighted usage
(``HierWeightedResourcesUsed``), which has no such correction. This is HTCondor 25.0's
``Accountant.cpp`` and ``matchmaker.cpp`` (phase 2).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct


def update_priorities(
    state: acct.AccountantState, config: Config, t: float
) -> acct.AccountantState:
    """``UpdatePriorities`` at ``t``: every record brought up to ``t`` (factors stored)."""
    return acct.bring_up_to_date(state, config, t)


def _targets(config: Config, submitter: str) -> tuple[str, list[str]]:
    return acct.charge_targets(submitter, acct.GroupTree(config.groups))


def charge_record(
    rec: acct.CustomerRecord, slots: int, weight: float, held: float, own: bool, in_hier: bool
) -> acct.CustomerRecord:
    """One record's share of a match change: ``slots``/``weight`` (negative to remove) and
    ``held`` seconds of uncharged time (``−(t − L)`` for a new match, ``t − max(start, L)``
    for a removed one)."""
    fields: dict[str, Any] = {}
    if own:
        fields["resources_used"] = max(rec.resources_used + slots, 0)
        fields["weighted_resources_used"] = max(rec.weighted_resources_used + weight, 0.0)
        fields["uncharged_time"] = rec.uncharged_time + held * abs(slots)
        fields["weighted_uncharged_time"] = rec.weighted_uncharged_time + held * abs(weight)
    if in_hier:
        hier = max(rec.hier_weighted_resources_used + weight, 0.0)
        fields["hier_weighted_resources_used"] = hier
    return replace(rec, **fields) if fields else rec


def add_match_at(
    state: acct.AccountantState,
    config: Config,
    submitter: str,
    weight: float,
    t: float,
    slots: int = 1,
) -> acct.AccountantState:
    """``AddMatch`` at ``t`` with no update: ``UnchargedTime −= t − LastUpdateTime``.

    On the submitter and its assigned group: +slots, +weight, and the uncharged times
    −(t − L)·slots and −(t − L)·weight; on the group and its dotted prefixes (``<none>``
    for an ungrouped submitter) +weight of subtree usage.
    """
    group, hier = _targets(config, submitter)
    records = acct.all_records(state, config)
    for n in dict.fromkeys([submitter, group, *hier]):
        rec = records.get(n) or acct.new_record(n, state, t)
        since = t - rec.last_update if rec.last_update is not None else 0.0
        records[n] = charge_record(rec, slots, weight, -since, n in (submitter, group), n in hier)
    return acct.AccountantState(records=acct.store_factors(records, config))


def remove_match_at(
    state: acct.AccountantState,
    config: Config,
    submitter: str,
    weight: float,
    t: float,
    start: float,
    slots: int = 1,
) -> acct.AccountantState:
    """``RemoveMatch`` at ``t`` with no update: ``UnchargedTime += t − max(start, L)``.

    Counts drop (never below 0) on the submitter and its assigned group, subtree usage on
    the group and its prefixes. Right after an update at ``t`` (an end seen by
    ``CheckMatches``) the uncharged time added is 0: the slot was charged up to ``t``.
    """
    group, hier = _targets(config, submitter)
    records = acct.all_records(state, config)
    for n in dict.fromkeys([submitter, group, *hier]):
        rec = records.get(n) or acct.new_record(n, state, t)
        last = rec.last_update if rec.last_update is not None else t
        held = t - max(start, last)
        records[n] = charge_record(rec, -slots, -weight, held, n in (submitter, group), n in hier)
    return acct.AccountantState(records=acct.store_factors(records, config))


def check_match_at(
    state: acct.AccountantState,
    config: Config,
    submitter: str,
    match_cost: float,
    weight: float,
    t: float,
    slots: int = 1,
) -> acct.AccountantState:
    """``CheckMatches`` at ``t`` (right after ``UpdatePriorities`` at ``t``) for ``slots``
    partitionable-slot matches of ``submitter`` that the previous cycle made.

    ``AddMatch`` charged each the partitionable slot's ``SlotWeight`` (or, with a
    consumption policy, the cost it deducted): ``match_cost`` in all. The next cycle's
    ``CheckMatches`` finds that resource record on a slot no longer claimed (or, for a
    consumption policy's ``_cp_match_NNN`` record, on no slot at all) and
    ``RemoveMatch``es it, then ``AddMatch``es the claimed dynamic slot with its own
    ``SlotWeight`` (``weight`` in all). Both happen at the last update, so no uncharged
    time is added: the match cost was charged over the whole interval between the two
    cycles, the dynamic slot's weight from this cycle on.
    """
    state = remove_match_at(state, config, submitter, match_cost, t, t, slots)
    return add_match_at(state, config, submitter, weight, t, slots)


def check_partitionable_matches(
    state: acct.AccountantState,
    config: Config,
    matches: Iterable[tuple[str, float, float]],
    t: float,
) -> acct.AccountantState:
    """:func:`check_match_at` for each (submitter, match cost, own weight) of ``matches``,
    one call per submitter (in name order)."""
    totals: dict[str, list[float]] = {}
    for submitter, cost, weight in matches:
        entry = totals.setdefault(submitter, [0.0, 0.0, 0])
        entry[0] += cost
        entry[1] += weight
        entry[2] += 1
    for name, (cost, weight, count) in sorted(totals.items()):
        state = check_match_at(state, config, name, cost, weight, t, int(count))
    return state


def check_matches(
    state: acct.AccountantState, config: Config, held: Iterable[tuple[str, float]], t: float
) -> acct.AccountantState:
    """Every customer's ``ResourcesUsed`` and ``WeightedResourcesUsed`` made those of the
    claims ``held`` (submitter, charged slot weight), as ``CheckMatches`` leaves them.

    HTCondor's accountant keeps one resource record per claimed slot, and
    ``Accountant::CheckMatches`` makes those records the claimed slots of the cycle's
    startd ads; a customer's counts are the sum of its records (``CheckResources``: a
    submitter's own claims, a group's the claims of the submitters assigned to it; the
    negotiator's start-up check in ``Accountant::Initialize`` sets a record that
    disagrees). An imported accountant whose counts disagree with the claims is therefore
    corrected, with no usage charged for the change (``UnchargedTime`` and the subtree usage
    ``HierWeightedResourcesUsed`` are left alone). Returns ``state`` itself when every
    count already agrees.
    """
    tree = acct.GroupTree(config.groups)
    counts: dict[str, int] = {}
    weights: dict[str, float] = {}
    for submitter, weight in held:
        group, _ = acct.charge_targets(submitter, tree)
        for n in dict.fromkeys([submitter, group]):
            counts[n] = counts.get(n, 0) + 1
            weights[n] = weights.get(n, 0.0) + weight
    records = acct.all_records(state, config)
    changed = False
    for n in counts.keys() - records.keys():
        records[n] = acct.new_record(n, state, t)
    for n, rec in records.items():
        count, weight = counts.get(n, 0), weights.get(n, 0.0)
        same_weight = math.isclose(rec.weighted_resources_used, weight, abs_tol=1e-9)
        if rec.resources_used != count or not same_weight:
            records[n] = replace(rec, resources_used=count, weighted_resources_used=weight)
            changed = True
    if not changed:
        return state
    return acct.AccountantState(records=acct.store_factors(records, config))
