"""One update of an accountant record: ``Accountant::UpdateOnePriority``.

The real user priority decays towards the weighted resources in use,
``P' = max(P·β + Uw·(1 − β), 0.5)`` with ``β = 0.5 ** (Δt / half_life)``, and the accountant
stores each number it changes with six decimals (:func:`~.customer_record.as_stored`). The
rule is :func:`advanced_values`; :func:`update_one_priority` applies it to a record in place
(a replay's own copies: a :class:`CustomerRecord` or a :class:`ReplayedRecord`),
:func:`advance` to a copy (every other caller). The history replay charges its events
without the six decimals (``rounded=False``: an event is not a negotiator cycle, and the
replay stands for the many cycles between two events in one step); its two hot loops hold
the only inlined copies, each pinned to :func:`update_one_priority`: event by event
(``replay.AccountantReplay._apply_in_order``, by ``tests/core/htcondor/test_replay.py``) and
record by record (``replay_batch.replay_record``, by
``tests/core/htcondor/test_replay_batch.py``).
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.htcondor.customer_record import MIN_PRIORITY, CustomerRecord, as_stored

#: The fields of a customer record a replay changes (:class:`ReplayedRecord`'s own).
_REPLAYED = (
    "priority",
    "last_update",
    "resources_used",
    "weighted_resources_used",
    "hier_weighted_resources_used",
    "accumulated_usage",
    "weighted_accumulated_usage",
    "begin_usage_time",
    "last_usage_time",
    "uncharged_time",
    "weighted_uncharged_time",
)


class ReplayedRecord:
    """A replay's own copy of a :class:`CustomerRecord`, changed in place: the numbers an
    accountant update or a match changes, as plain ``__slots__`` attributes (a replay of a
    million records sets them some ten million times; a ``msgspec.Struct``'s are slower to
    set), and the record it copies (``base``: name, factor, floor, ceiling).
    :meth:`record` gives the customer record back."""

    __slots__ = ("base", *_REPLAYED)
    base: CustomerRecord
    priority: float
    last_update: float | None
    resources_used: int
    weighted_resources_used: float
    hier_weighted_resources_used: float
    accumulated_usage: float
    weighted_accumulated_usage: float
    begin_usage_time: float
    last_usage_time: float
    uncharged_time: float
    weighted_uncharged_time: float

    def __init__(self, base: CustomerRecord) -> None:
        self.base = base
        for name in _REPLAYED:
            setattr(self, name, getattr(base, name))

    def record(self) -> CustomerRecord:
        """The customer record with this copy's numbers."""
        return replace(self.base, **{name: getattr(self, name) for name in _REPLAYED})


#: A record :func:`update_one_priority` changes in place.
InPlaceRecord = CustomerRecord | ReplayedRecord


#: The float numbers of a record that an update or a match changes (each written ``%f``).
_STORED_FLOATS = (
    "priority",
    "weighted_resources_used",
    "hier_weighted_resources_used",
    "accumulated_usage",
    "weighted_accumulated_usage",
    "weighted_uncharged_time",
)


def stored_record(rec: CustomerRecord) -> CustomerRecord:
    """``rec`` with each number an update or a match changes as the accountant stores it
    (:func:`~.customer_record.as_stored`): a history replay's record once the import's
    update at ``--now`` has written it."""
    return replace(rec, **{name: as_stored(getattr(rec, name)) for name in _STORED_FLOATS})


def decay_factor(dt: float, half_life: float) -> float:
    """β = 0.5 ** (Δt / half-life); a half-life of 0 forgets at once (β = 0)."""
    if half_life <= 0:
        return 0.0
    return float(0.5 ** (dt / half_life))


def advance(rec: CustomerRecord, now: float, half_life: float) -> CustomerRecord:
    """The record brought up to ``now`` (:func:`update_one_priority` on a copy); the record
    itself when it is already as of ``now``. A clock that went back (``now`` before
    ``last_update``) only moves ``last_update``."""
    last = rec.last_update
    if last is not None and now <= last:
        return rec if now == last else replace(rec, last_update=now)
    new = replace(rec)
    update_one_priority(new, now, half_life)
    return new


def update_one_priority(
    rec: InPlaceRecord, now: float, half_life: float, *, rounded: bool = True
) -> None:
    """``Accountant::UpdateOnePriority`` on ``rec`` in place: its numbers brought up to
    ``now`` (:func:`advanced_values`, stored with six decimals unless not ``rounded``),
    ``last_update`` set to ``now`` and the uncharged times back to 0. A record never updated
    starts at ``now`` (its RUP at least 0.5); one already updated at or past ``now`` stays
    as it is."""
    last = rec.last_update
    if last is None:
        if rec.priority < MIN_PRIORITY:
            rec.priority = MIN_PRIORITY
        rec.last_update = now
        return
    if now <= last:
        return
    (
        rec.priority,
        rec.accumulated_usage,
        rec.weighted_accumulated_usage,
        rec.begin_usage_time,
        rec.last_usage_time,
    ) = advanced_values(rec, now, half_life, rounded=rounded)
    rec.last_update = now
    rec.uncharged_time = 0.0
    rec.weighted_uncharged_time = 0.0


def begin_at_update(rec: Any, t: float) -> float:
    """The ``BeginUsageTime`` an accountant update at ``t`` leaves ``rec`` with
    (``Accountant::UpdateOnePriority``): its own when set; else ``t`` when the accumulated
    usage that update finds, ``AccumulatedUsage + ResourcesUsed·Δt + UnchargedTime``, is
    above 0 (Δt = t − last update > 0); else 0.

    ``UpdatePriorities`` updates every record at every cycle, so a record's begin time is
    the first accountant update after its first match, whichever submitter's event (or
    cycle) that update is for. ``fs`` updates a record lazily, at its own events: where
    the pool moves on (another record's event), this rule alone is applied to the records
    that :func:`awaits_begin` names, their other numbers left to their next own update
    (decay and accumulation compose exactly; the begin time does not).
    :func:`advanced_values` applies the same rule inline.
    """
    begin = rec.begin_usage_time
    last = rec.last_update
    if begin != 0 or last is None or t <= last:
        return float(begin)
    acc = rec.accumulated_usage + rec.resources_used * (t - last) + rec.uncharged_time
    return t if acc > 0 else float(begin)


def awaits_begin(rec: Any) -> bool:
    """Whether the accountant's next update may set ``rec``'s ``BeginUsageTime``
    (:func:`begin_at_update`): none yet, and slots in use or accumulated usage to find."""
    return bool(
        rec.begin_usage_time == 0
        and (rec.resources_used > 0 or rec.accumulated_usage + rec.uncharged_time > 0)
    )


def advanced_values(
    rec: Any,
    now: float,
    half_life: float,
    betas: dict[float, float] | None = None,
    *,
    rounded: bool = True,
) -> tuple[float, float, float, float, float]:
    """The priority, (weighted) accumulated usage, begin and last usage time of ``rec``
    brought up to ``now``, without changing or building a record (``fs userprio`` reads
    20,000 this way); ``betas`` caches the decay factor per Δt, as most records were last
    updated together.

    Over Δt = now − last_update the recent usage is ``ResourcesUsed + UnchargedTime/Δt``
    (weighted likewise; a group with subtree usage takes ``HierWeightedResourcesUsed``
    instead, without the uncharged correction); the accumulated usages grow by
    ``ResourcesUsed·Δt + UnchargedTime``; ``BeginUsageTime`` becomes ``now`` when it is 0
    and the accumulated usage is above 0 (:func:`begin_at_update`, inline);
    ``LastUsageTime`` becomes ``now`` when the recent (unweighted) usage is above 0.
    ``rounded``: each of the three numbers that changed is as the accountant stores it
    (:func:`~.customer_record.as_stored`; one that did not change is not written, and stays
    as it was). Δt ≤ 0 changes nothing (a record never updated has its RUP at least 0.5).
    ``max(x, least)`` is written ``least if x < least else x``.
    """
    least = MIN_PRIORITY
    last_update = rec.last_update
    prio = rec.priority
    if last_update is None or now - last_update <= 0:
        if last_update is None and prio < least:
            prio = least
        return (prio, rec.accumulated_usage, rec.weighted_accumulated_usage,
                rec.begin_usage_time, rec.last_usage_time)  # fmt: skip
    dt = now - last_update
    beta = None if betas is None else betas.get(dt)
    if beta is None:
        beta = decay_factor(dt, half_life)
        if betas is not None:
            betas[dt] = beta
    p = least if prio < least else prio
    used = rec.resources_used
    weighted = rec.weighted_resources_used
    recent = used + rec.uncharged_time / dt
    weighted_recent = weighted + rec.weighted_uncharged_time / dt
    if rec.hier_weighted_resources_used > 0:
        weighted_recent = rec.hier_weighted_resources_used
    new_p = p * beta + weighted_recent * (1.0 - beta)
    if new_p < least:
        new_p = least
    acc = rec.accumulated_usage + used * dt + rec.uncharged_time
    wacc = rec.weighted_accumulated_usage + weighted * dt + rec.weighted_uncharged_time
    begin = rec.begin_usage_time
    if acc > 0 and begin == 0:
        begin = now
    if rounded:  # (what changed is written: `OldPrio != Priority` and the like)
        new_p = as_stored(new_p) if new_p != p else new_p
        acc = as_stored(acc) if acc != rec.accumulated_usage else acc
        wacc = as_stored(wacc) if wacc != rec.weighted_accumulated_usage else wacc
    return new_p, acc, wacc, begin, now if recent > 0 else rec.last_usage_time
