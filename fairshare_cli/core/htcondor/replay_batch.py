"""A batch of the history replay's events applied record by record (``fs import history``).

:meth:`~.replay.AccountantReplay.add_batch` puts a batch's events in the order the
accountant applies them (by time, then place) and applies each to the records of its
submitter's plan: ``UpdateOnePriority`` to the event's time, then ``AddMatch`` or
``RemoveMatch``. A record's numbers change only at the events of the plans it is in, and
each change reads only that record's numbers: so each record can run through its own
events, in the same order, on local variables, to the very same floats
(:func:`replay_record`, the measured hot loop of ``benchmarks/run.py --rows import``).

One rule reads the pool rather than the record: a record awaiting its ``BeginUsageTime``
gets it at the first event after, any submitter's (``decay.begin_at_update``). A batch
goes record by record only when no record can get its begin time in it
(:func:`events_by_record`); the others go event by event (``add_batch``'s in-order loop).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from itertools import chain
from operator import itemgetter

from fairshare_cli.core.htcondor.customer_record import MIN_PRIORITY
from fairshare_cli.core.htcondor.decay import ReplayedRecord

#: The customer records one submitter's event touches (the replay's own copies), whether
#: the event changes each one's own usage, and whether its hierarchical usage.
Plan = list[tuple[ReplayedRecord, bool, bool]]
#: An event: (its time, the number of its submitter's plan, slots, weight); an end's slots
#: and weight are negative.
Move = tuple[float, int, int, float]
#: A record's events in a batch: the record, the numbers of its events (in order), and by
#: plan number whether the plan's events change its own usage and its hierarchical usage.
RecordEvents = tuple[ReplayedRecord, list[int], list[bool], list[bool]]

_PLAN = itemgetter(1)


def events_by_record(moves: list[Move], plans: list[Plan]) -> list[RecordEvents] | None:
    """Each record's own events among ``moves`` (their numbers, in order), with its plans'
    flags; None when a record touched may get its ``BeginUsageTime`` in the batch or was
    never updated (the batch then goes event by event).

    A record gets no begin time when it has one, or when it has no slots in use, no
    accumulated usage and no event that adds slots (it is only an ancestor group of the
    submitters whose events touch it).
    """
    plan_of = list(map(_PLAN, moves))
    by_plan = sorted(range(len(moves)), key=plan_of.__getitem__)  # (stable: in order)
    ranked = list(map(plan_of.__getitem__, by_plan))
    found: dict[int, tuple[ReplayedRecord, list[list[int]], list[bool], list[bool]]] = {}
    blank = [False] * len(plans)
    for number in set(plan_of):
        events = by_plan[bisect_left(ranked, number) : bisect_right(ranked, number)]
        for rec, own, in_hier in plans[number]:
            entry = found.get(id(rec))
            if entry is None:
                entry = found[id(rec)] = (rec, [], blank[:], blank[:])
            entry[1].append(events)
            entry[2][number] = own
            entry[3][number] = in_hier
    for rec, _, owns, _ in found.values():
        if rec.last_update is None:
            return None
        if rec.begin_usage_time == 0 and (
            rec.resources_used != 0 or not rec.accumulated_usage <= 0 or any(owns)
        ):
            return None
    return [
        (rec, runs[0] if len(runs) == 1 else sorted(chain.from_iterable(runs)), owns, hiers)
        for rec, runs, owns, hiers in found.values()
    ]


def replay_record(
    events: RecordEvents,
    moves: list[Move],
    betas: dict[float, float],
    beta_of: Callable[[float], float],
) -> None:
    # A measured hot loop: benchmarks/run.py --rows import (and whatif-replay).
    """Apply a record's events (:func:`events_by_record`) to it, in order, on local
    variables: at each, ``decay.update_one_priority`` inline (a replay's record: no
    uncharged time, its RUP at least 0.5, a last update, and no begin time to set), then
    its own usage and its hierarchical usage changed as the event's plan says.
    ``betas`` holds the decay factors by Δt, ``beta_of`` makes one not held
    (``test_record_by_record_is_event_by_event_to_the_bit`` pins this copy to ``add``)."""
    rec, numbers, owns, hiers = events
    floor = MIN_PRIORITY
    p, last, lut = rec.priority, rec.last_update, rec.last_usage_time
    res, rw, hw = rec.resources_used, rec.weighted_resources_used, rec.hier_weighted_resources_used
    acc, wacc = rec.accumulated_usage, rec.weighted_accumulated_usage
    assert last is not None  # (events_by_record)
    for i in numbers:
        t, plan, ds, dw = moves[i]
        if t > last:
            dt = t - last
            uw = hw if hw > 0.0 else rw  # (0.0: a float compared in place, not an int)
            if uw or p > floor:  # else the RUP stays at 0.5
                try:
                    beta = betas[dt]  # (Δt repeats)
                except KeyError:
                    beta = beta_of(dt)
                p = p * beta + uw * (1.0 - beta)
                if not p > floor:
                    p = floor
            acc = acc + res * dt
            wacc += rw * dt
            if res > 0:
                lut = t
            last = t
        if owns[plan]:
            n = res + ds
            res = n if n > 0 else 0
            nw = rw + dw
            rw = nw if nw > 1e-9 else 0.0
        if hiers[plan]:
            nh = hw + dw
            hw = nh if nh > 1e-9 else 0.0
    rec.priority, rec.last_update, rec.last_usage_time = p, last, lut
    rec.resources_used, rec.weighted_resources_used, rec.hier_weighted_resources_used = res, rw, hw
    rec.accumulated_usage, rec.weighted_accumulated_usage = acc, wacc
