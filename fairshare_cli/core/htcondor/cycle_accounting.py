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
from collections.abc import Callable, Iterable
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.negotiator.results import SubmitterPrio


def update_priorities(
    state: acct.AccountantState, config: Config, t: float
) -> acct.AccountantState:
    """``UpdatePriorities`` at ``t``: every record brought up to ``t`` (factors stored)."""
    return acct.bring_up_to_date(state, config, t)


def _charged(config: Config, submitter: str) -> list[tuple[str, bool, bool]]:
    return acct.charged_records(submitter, acct.GroupTree(config.groups))


def charge_record(
    rec: acct.CustomerRecord, slots: int, weight: float, held: float, own: bool, in_hier: bool
) -> acct.CustomerRecord:
    """One record's share of a match change: ``slots``/``weight`` (negative to remove) and
    ``held`` seconds of uncharged time (``−(t − L)`` for a new match, ``t − max(start, L)``
    for a removed one); the weighted numbers as the accountant stores them."""
    fields: dict[str, Any] = {}
    if own:
        fields["resources_used"] = max(rec.resources_used + slots, 0)
        used = max(rec.weighted_resources_used + weight, 0.0)
        fields["weighted_resources_used"] = acct.as_stored(used)
        fields["uncharged_time"] = rec.uncharged_time + held * abs(slots)
        uncharged = rec.weighted_uncharged_time + held * abs(weight)
        fields["weighted_uncharged_time"] = acct.as_stored(uncharged)
    if in_hier:
        hier = max(rec.hier_weighted_resources_used + weight, 0.0)
        fields["hier_weighted_resources_used"] = acct.as_stored(hier)
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
    records = acct.all_records(state, config)
    for n, own, in_hier in _charged(config, submitter):
        rec = records.get(n) or acct.new_record(n, state, t)
        records[n] = charge_record(rec, slots, weight, added_held(rec, t), own, in_hier)
    return acct.AccountantState(records=acct.store_factors(records, config))


def added_held(rec: acct.CustomerRecord, t: float) -> float:
    """The uncharged time per slot ``AddMatch`` at ``t`` records: ``−(t − LastUpdateTime)``."""
    return -(t - rec.last_update) if rec.last_update is not None else -0.0


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
    records = acct.all_records(state, config)
    for n, own, in_hier in _charged(config, submitter):
        rec = records.get(n) or acct.new_record(n, state, t)
        held = removed_held(rec, t, start)
        records[n] = charge_record(rec, -slots, -weight, held, own, in_hier)
    return acct.AccountantState(records=acct.store_factors(records, config))


def removed_held(rec: acct.CustomerRecord, t: float, start: float) -> float:
    """The uncharged time per slot ``RemoveMatch`` at ``t`` records for a match made at
    ``start``: ``t − max(start, LastUpdateTime)``."""
    last = rec.last_update if rec.last_update is not None else t
    return t - max(start, last)


#: One ``AddMatch`` (start None) or ``RemoveMatch`` (start: when the match was made) of
#: :func:`change_matches_at`: (submitter, slot weight, start).
MatchChange = tuple[str, float, float | None]


def change_matches_at(
    state: acct.AccountantState, config: Config, changes: Iterable[MatchChange], t: float
) -> acct.AccountantState:
    """Each of ``changes`` in turn at ``t``, with no update: one slot added
    (:func:`add_match_at`) or removed (:func:`remove_match_at`), on one copy of the records.

    Each ``AddMatch`` and ``RemoveMatch`` writes its sums with six decimals, so three
    matches of weight 1/3 leave 0.333333, 0.666666, then 0.999999 in use, not 1.0: matches
    are charged one by one, in the order the negotiator makes them.
    """
    records = acct.all_records(state, config)
    tree = acct.GroupTree(config.groups)
    targets: dict[str, list[tuple[str, bool, bool]]] = {}
    for submitter, weight, start in changes:
        charged = targets.get(submitter)
        if charged is None:
            charged = targets[submitter] = acct.charged_records(submitter, tree)
        for n, own, in_hier in charged:
            rec = records.get(n) or acct.new_record(n, state, t)
            if start is None:
                records[n] = charge_record(rec, 1, weight, added_held(rec, t), own, in_hier)
            else:
                held = removed_held(rec, t, start)
                records[n] = charge_record(rec, -1, -weight, held, own, in_hier)
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
    as ``CheckMatches`` does it: every match cost removed, then every dynamic slot added,
    one match at a time (:func:`checked_changes`)."""
    changes = checked_changes(matches, t)
    return change_matches_at(state, config, changes, t) if changes else state


def checked_changes(matches: Iterable[tuple[str, float, float]], t: float) -> list[MatchChange]:
    """The ``RemoveMatch`` of each match cost, then the ``AddMatch`` of each dynamic slot,
    of the (submitter, match cost, own weight) ``matches``, in their order."""
    matches = list(matches)
    removed: list[MatchChange] = [(name, cost, t) for name, cost, _ in matches]
    return removed + [(name, weight, None) for name, _, weight in matches]


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
        # (each AddMatch and RemoveMatch stores six decimals: a few 1e-6 apart, not a slot)
        residue = 2e-6 * (count + 1)
        same_weight = math.isclose(rec.weighted_resources_used, weight, abs_tol=residue)
        if rec.resources_used != count or not same_weight:
            weight = acct.as_stored(weight)
            records[n] = replace(rec, resources_used=count, weighted_resources_used=weight)
            changed = True
    if not changed:
        return state
    return acct.AccountantState(records=acct.store_factors(records, config))


def stays_put(rec: acct.CustomerRecord) -> bool:
    """Whether every later ``UpdateOnePriority`` leaves ``rec`` as it is but for its
    ``LastUpdateTime``: a record just updated (no uncharged time) at the floor, holding
    nothing. ``P·β + 0·(1 − β)`` is at most 0.5 and clamps back to 0.5; the accumulated
    usages gain ``0·Δt + 0.0`` (exact, unless one is −0.0, which the sum makes 0.0); no
    usage, so ``LastUsageTime`` stays; ``BeginUsageTime`` stays unless the next update
    would set it (accumulated usage above 0 and no begin yet)."""
    return (
        rec.priority == acct.MIN_PRIORITY
        and rec.last_update is not None
        and rec.resources_used == 0
        and rec.weighted_resources_used == 0.0
        and rec.hier_weighted_resources_used == 0.0
        and rec.uncharged_time == 0.0
        and rec.weighted_uncharged_time == 0.0
        and math.copysign(1.0, rec.accumulated_usage) > 0
        and math.copysign(1.0, rec.weighted_accumulated_usage) > 0
        and not (rec.accumulated_usage > 0 and rec.begin_usage_time == 0)
    )


def submitter_prio(
    rec: acct.CustomerRecord | None, name: str, t: float, config: Config, tree: acct.GroupTree
) -> SubmitterPrio:
    """What the negotiator reads of ``name``'s record ``rec`` at ``t``: the record brought
    to ``t`` (none yet: RUP 0.5), its EUP = max(RUP, 0.5) × the factor the accountant
    chooses (explicit, nice user, group factor, remote domain, default), weighted usage,
    ceiling and floor.

    A factor the record does not store yet is read as ``GetPriorityFactor`` stores it, with
    six decimals (``GROUP_PRIO_FACTOR`` 1.2345678 as 1.234568): the cycle's first read
    returns it unrounded, but that read is ``calculateNormalizationFactor``'s search for the
    largest EUP, which cancels out of every share; the EUPs, shares, limits and order come
    from later reads of the stored value.
    """
    h = config.accountant.priority_halflife
    now = acct.CustomerRecord(name=name) if rec is None else acct.advance(rec, t, h)
    factor = acct.priority_factor(now, config, tree)
    if now.priority_factor is None:
        factor = acct.as_stored(max(factor, acct.MIN_FACTOR))
    return SubmitterPrio(
        acct.effective_priority(now, factor), now.weighted_resources_used, now.ceiling, now.floor
    )


class CycleAccountant:
    """The accountant ``fs simulate`` carries from cycle to cycle, changed in place.

    The same records as :func:`update_priorities`, :func:`add_match_at`,
    :func:`remove_match_at` and :func:`check_partitionable_matches` applied to an
    :class:`~fairshare_cli.core.htcondor.accountant.AccountantState` (:meth:`state`), with
    two savings. A charge touches only its submitter's records (no copy of every record, no
    factor pass). ``UpdatePriorities`` updates every record that may change and skips those
    that :func:`stays_put` (a record idle at the floor): they keep the time of the update
    that left them there, and are brought to the accountant's last update (one step, the
    same numbers as many) before a charge or when :meth:`state` is read. A record whose
    priority still decays is updated every cycle: ``P·β + U·(1 − β)`` rounded at each step
    is not ``P·β^k + U·(1 − β^k)`` rounded once (nor is ``β^k`` the ``0.5 ** (kΔt/h)`` of one
    step), so no record that moves is brought forward in one step.

    :meth:`view` is the accountant for reads at the last update (priorities, usage): a
    skipped record read at a later time gives the same numbers as its updated copy.
    """

    def __init__(self, state: acct.AccountantState, config: Config) -> None:
        self.config = config
        self.half_life = config.accountant.priority_halflife
        self.tree = acct.GroupTree(config.groups)
        self._initial: acct.AccountantState | None = state
        self.records: dict[str, acct.CustomerRecord] = {}
        self.last = acct.last_update_of(state)  # the accountant's LastUpdateTime
        self.still: set[str] = set()  # records that stay put, as of their own last update
        self._targets: dict[str, list[tuple[str, bool, bool]]] = {}
        #: name -> (the record read, when, what :meth:`priorities` read of it)
        self._read: dict[str, tuple[acct.CustomerRecord | None, float, SubmitterPrio]] = {}

    def _ready(self) -> dict[str, acct.CustomerRecord]:
        """Every record (configured groups included), factors stored, as the first eager
        update or charge leaves them."""
        if self._initial is not None:
            all_records = acct.all_records(self._initial, self.config)
            self.records = acct.store_factors(all_records, self.config)
            self._initial = None
        return self.records

    def view(self) -> acct.AccountantState:
        """The records as they stand (skipped ones at an earlier update), not copied."""
        if self._initial is not None:
            return self._initial
        return acct.AccountantState(records=self.records)

    def priorities(self, t: float) -> Callable[[str], SubmitterPrio]:
        """Each submitter's EUP, weighted usage, ceiling and floor at ``t``, as
        :func:`~fairshare_cli.core.htcondor.pool.priorities_at` reads them (a record brought
        to ``t``; a name with no record at RUP 0.5 with the factor it would get). What was
        read of a record is kept while the record is the same and reads the same at ``t``:
        it was read at ``t``, it stays put, or there is none."""
        records, config, tree = self.view().records, self.config, self.tree
        kept, still = self._read, self.still

        def prio(name: str) -> SubmitterPrio:
            rec = records.get(name)
            found = kept.get(name)
            if (
                found is not None
                and found[0] is rec
                and (found[1] == t or rec is None or name in still)
            ):
                return found[2]
            read = submitter_prio(rec, name, t, config, tree)
            kept[name] = (rec, t, read)
            return read

        return prio

    def effective_priorities(self, names: Iterable[str], t: float) -> list[float]:
        """Each name's EUP at ``t`` (:meth:`priorities`)."""
        prio = self.priorities(t)
        return [prio(n).effective_priority for n in names]

    def state(self) -> acct.AccountantState:
        """The accountant as the eager functions leave it: every record at its last update."""
        if self._initial is not None:
            return self._initial
        h, last, still = self.half_life, self.last, self.still
        return acct.AccountantState(
            records={
                n: acct.advance(r, last, h) if n in still and last is not None else r
                for n, r in self.records.items()
            }
        )

    def update(self, t: float) -> None:
        """``UpdatePriorities`` at ``t`` (:func:`update_priorities`)."""
        records = self._ready()
        h, still = self.half_life, self.still
        for n, rec in records.items():
            if n in still:
                continue
            new = acct.advance(rec, t, h)
            records[n] = new
            if stays_put(new):
                still.add(n)
        self.last = t

    def _record(self, name: str, t: float) -> acct.CustomerRecord:
        """``name``'s record to charge: at the last update (created there if new)."""
        records = self._ready()
        rec = records.get(name)
        if rec is None:
            when = t if self.last is None else self.last
            rec = acct.CustomerRecord(name=name, is_group="@" not in name, last_update=when)
            rec = acct.store_factors({name: rec}, self.config)[name]
        elif name in self.still:
            self.still.discard(name)
            if self.last is not None:
                rec = acct.advance(rec, self.last, self.half_life)
        return rec

    def _charged(self, submitter: str) -> list[tuple[str, bool, bool]]:
        """The records a match of ``submitter`` changes: (name, own counts, subtree usage)."""
        found = self._targets.get(submitter)
        if found is None:
            found = self._targets[submitter] = acct.charged_records(submitter, self.tree)
        return found

    def add_match(self, submitter: str, weight: float, t: float, slots: int = 1) -> None:
        """:func:`add_match_at`."""
        for n, own, in_hier in self._charged(submitter):
            rec = self._record(n, t)
            self.records[n] = charge_record(rec, slots, weight, added_held(rec, t), own, in_hier)

    def remove_match(
        self, submitter: str, weight: float, t: float, start: float, slots: int = 1
    ) -> None:
        """:func:`remove_match_at`."""
        for n, own, in_hier in self._charged(submitter):
            rec = self._record(n, t)
            held = removed_held(rec, t, start)
            self.records[n] = charge_record(rec, -slots, -weight, held, own, in_hier)

    def check_matches(self, matches: Iterable[tuple[str, float, float]], t: float) -> None:
        """:func:`check_partitionable_matches`."""
        for name, weight, start in checked_changes(matches, t):
            if start is None:
                self.add_match(name, weight, t)
            else:
                self.remove_match(name, weight, t, start)
