"""HTCondor's accountant replay of usage records (the ``fs import history`` sink)."""

from __future__ import annotations

import heapq
import math
from array import array
from bisect import bisect_right
from collections.abc import Callable, Mapping
from itertools import count as counter
from operator import itemgetter
from typing import Any

from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.classads import evaluate_slot_weight, slot_weight
from fairshare_cli.core.htcondor.customer_record import MIN_PRIORITY, CustomerRecord
from fairshare_cli.core.htcondor.decay import (
    ReplayedRecord,
    awaits_begin,
    begin_at_update,
    decay_factor,
    stored_record,
    update_one_priority,
)
from fairshare_cli.core.htcondor.replay_batch import Move, Plan, events_by_record, replay_record
from fairshare_cli.core.usage import HistorySink, UnsortedHistory, UsageRecord, parse_record
from fairshare_cli.errors import InputError


def record_weigher(config: Config) -> Callable[[int], float]:
    """Weight of one slot of ``cpus`` CPUs: 1 without slot weights, else ``SLOT_WEIGHT``.

    A usage record names no machine: ``SLOT_WEIGHT`` is evaluated over ``Cpus`` alone,
    through the ClassAd bridge; what does not evaluate to a number of 0 or more (``Memory``
    is undefined here) falls back to 1.0, as the negotiator does. A record's weight is
    charged at its start and the same weight is taken back at its end. A record with
    ``charged_cpus`` (a partitionable slot's match until the next cycle) is weighed by
    those CPUs instead.
    """
    neg = config.negotiator
    if not neg.use_slot_weights:
        return lambda cpus: 1.0
    expr = neg.slot_weight.strip()
    if expr.lower() == "cpus":
        return slot_weight
    cache: dict[int, float] = {}

    def weigh(cpus: int) -> float:
        found = cache.get(cpus)
        if found is None:
            found = evaluate_slot_weight(expr, {"Cpus": cpus}, "[negotiator] slot_weight")
            cache[cpus] = found
        return found

    return weigh


def admit_record(record: UsageRecord, where: str, now: float, config: Config, stored: Any) -> str:
    """The submitter a record charges, once its times pass the checks every replay makes.

    ``stored`` is the accountant state the import starts from.

    Raises:
        InputError: the record starts or ends after ``now``, or starts before its
            submitter's last update (the accountant already counts that time).
    """
    if record.start > now:
        raise InputError(f"{where}: starts after --now")
    if record.end is not None and record.end > now:
        raise InputError(
            f"{where}: ends after --now (give a later --now, or end = null for work still running)"
        )
    submitter = acct.submitter_name(
        record.owner, record.accounting_group, record.nice_user, config.pool.uid_domain
    )
    rec = stored.records.get(submitter)
    if rec is not None and rec.last_update is not None and record.start < rec.last_update:
        raise InputError(
            f"{where}: starts before {submitter}'s last update; the accountant already "
            "counts that time (use --rebuild to replay the whole history afresh)"
        )
    return str(submitter)


#: How many decay factors (by Δt) :meth:`AccountantReplay.add_batch` keeps before it
#: forgets them all (memory stays flat whatever the times).
BETAS_KEPT = 100_000

#: The events of the records still running that end at one time, in record order:
#: (plan, -slots, -weight).
_Ends = list[tuple[Plan, int, float]]
_TIME = itemgetter(0)  # (a move's time)


class AccountantReplay:
    """Replays records into the accountant exactly, in time order (see :mod:`accountant`).

    Between two events usage is constant, so each step of the decay is exact. With
    ``presorted`` (records in start-time order, as accounting dumps are) events stream:
    memory grows with the jobs running at once, not with the file (:meth:`add` keeps a heap
    of the distinct end times, the ends at each in record order; :meth:`add_batch` sorts a
    batch's events and the ends pending from before into place). Otherwise events go to
    compact arrays and are replayed after one sort.

    Every event is an accountant update of the whole pool, as if ``UpdatePriorities`` ran:
    a record is updated at its own events only (the rest composes exactly), but one that
    awaits its ``BeginUsageTime`` gets it at the first event after, any submitter's
    (``decay.begin_at_update``; :attr:`begins` holds them).
    """

    def __init__(
        self, config: Config, section: Any, now: float, rebuild: bool, presorted: bool = True
    ) -> None:
        self.config = config
        self.now = now
        self.half_life = config.accountant.priority_halflife
        self.tree = acct.GroupTree(config.groups)
        state = acct.replay_start(section, rebuild)
        self.state = state
        self.records = acct.all_records(state, config)
        self.weigh = record_weigher(config)
        self.presorted = presorted
        self.last_start = -math.inf
        #: the end times of the records still running (a heap) and their events by time
        self.ends: list[float] = []
        self.due: dict[float, _Ends] = {}
        #: the ends :meth:`add_batch` left pending, in order
        self.later: list[Move] = []
        self._last_start_event = 0  # (add_batch: the number of its last start's event)
        self.times = array("d")
        self.targets = array("l")
        self.dslots = array("l")
        self.dweight = array("d")
        self._target_ids: dict[str, int] = {}
        self._plans: list[Plan] = []
        self._replayed: dict[str, ReplayedRecord] = {}
        self._admitted: dict[tuple[str, str | None, bool], tuple[str, float]] = {}
        self._weights: dict[int, float] = {}  # one slot's weight by CPUs
        self._betas: dict[float, float] = {}  # decay_factor(Δt, half-life) by Δt (add_batch)
        self.count = 0
        #: (since, n, record read, replay's record) of the records that await their begin
        #: time: the first event after ``since`` sets it (:meth:`_begin`).
        self.begins: list[tuple[float, int, CustomerRecord | ReplayedRecord, ReplayedRecord]] = []
        self._seq = counter()
        for name, rec in self.records.items():  # stored, matched since the last update
            if rec.last_update is not None and awaits_begin(rec):
                entry = (rec.last_update, next(self._seq), rec, self._record(name))
                heapq.heappush(self.begins, entry)

    def _record(self, name: str) -> ReplayedRecord:
        """The replay's own copy of a record, changed in place: its RUP at least 0.5 and no
        uncharged time (the stored uncharged time is charged at the end, by :meth:`finish`).
        """
        rec = self._replayed.get(name)
        if rec is None:
            stored = self.records.get(name)
            rec = ReplayedRecord(stored or CustomerRecord(name=name, is_group="@" not in name))
            rec.uncharged_time = rec.weighted_uncharged_time = 0.0
            rec.priority = max(rec.priority, MIN_PRIORITY)
            self._replayed[name] = rec
        return rec

    def _target(self, submitter: str) -> int:
        tid = self._target_ids.get(submitter)
        if tid is None:
            group, hier = acct.charge_targets(submitter, self.tree)
            names = [submitter, group, *[g for g in hier if g != group]]
            own = {submitter, group}
            tid = len(self._plans)
            self._target_ids[submitter] = tid
            plan = [(self._record(n), n in own, n in hier) for n in names]
            self._plans.append(plan)
        return tid

    def _apply(self, t: float, plan: Plan, dslots: int, dweight: float) -> None:
        """Update every record the event touches (``plan``: :meth:`_target`'s) to ``t``
        (``UpdateOnePriority``), then change its usage (``AddMatch``/``RemoveMatch``).
        :meth:`add_batch` does the same inline.
        """
        h = self.half_life
        if self.begins and self.begins[0][0] < t:
            self._begin(t)
        for rec, own, in_hier in plan:
            update_one_priority(rec, t, h, rounded=False)
            if own:
                n = rec.resources_used + dslots
                rec.resources_used = n if n > 0 else 0
                nw = rec.weighted_resources_used + dweight
                rec.weighted_resources_used = nw if nw > 1e-9 else 0.0
                if n > 0 and rec.begin_usage_time == 0:
                    heapq.heappush(self.begins, (t, next(self._seq), rec, rec))
            if in_hier:
                nh = rec.hier_weighted_resources_used + dweight
                rec.hier_weighted_resources_used = nh if nh > 1e-9 else 0.0

    def _begin(self, t: float) -> None:
        """The event at ``t`` updates the pool: each record awaiting its begin time since
        before ``t`` gets it (``decay.begin_at_update``), unless its own update did."""
        begins = self.begins
        while begins and begins[0][0] < t:
            _, _, read, rec = heapq.heappop(begins)
            if rec.begin_usage_time == 0:
                rec.begin_usage_time = begin_at_update(read, t)

    def add(self, record: UsageRecord) -> None:
        # one record (add_batch is the hot path; this is its reference, and the path of an
        # import read again record by record after a refusal; admissions cached)
        if self.later:
            self._pend_later()
        self.count += 1
        key = (record.owner, record.accounting_group, record.nice_user)
        known = self._admitted.get(key)
        start, end = record.start, record.end
        if (
            known is None
            or start < known[1]
            or start > self.now
            or (end is not None and end > self.now)
        ):
            known = self._admit(record)
        submitter = known[0]
        if record.slots == 0:
            return
        tid = self._target(submitter)
        charged = record.charged_cpus  # (a partitionable slot's whole-slot charge)
        w = record.slots * self.weigh(record.cpus if charged is None else charged)
        if self.presorted:
            if record.start < self.last_start:
                raise UnsortedHistory(f"record {self.count}")
            self.last_start = record.start
            self._drain(record.start)
            plan = self._plans[tid]
            self._apply(record.start, plan, record.slots, w)
            if record.end is not None:
                self._pend(record.end, plan, -record.slots, -w)
            return
        self.times.append(record.start)
        self.targets.append(tid)
        self.dslots.append(record.slots)
        self.dweight.append(w)
        if record.end is not None:
            self.times.append(record.end)
            self.targets.append(tid)
            self.dslots.append(-record.slots)
            self.dweight.append(-w)

    def add_batch(self, batch: list[UsageRecord]) -> None:
        """:meth:`add` for each record, in order: the batch's events (and the ends pending
        from before) put in the order :meth:`add` applies them by one sort, then applied
        (``test_add_batch_is_add_record_by_record_to_the_bit``).

        :meth:`add` applies a record's start after the ends up to it, each end after the
        start of its own record: the events in order of (time, place), where a record's
        start has the place of the record and its end the place just after. A list in
        place order (the pending ends first) sorted by time alone, stably, is in that
        order; the ends after the last start (its own, if at its start) stay pending
        (:attr:`later`). The others are applied record by record when no record may get
        its begin time among them (:mod:`.replay_batch`), else event by event."""
        if not self.presorted:
            for record in batch:
                self.add(record)
            return
        moves, self.later = self.later, []
        self._last_start_event = len(moves)  # (none yet)
        try:
            self._sequence(batch, moves)
        finally:  # (the records before one refused are charged, as add charges them)
            last, cut = self._last_start_event, 0
            if last < len(moves):
                t = moves[last][0]
                at_once = last + 1 < len(moves) and moves[last + 1][0] == t  # (its end)
                moves.sort(key=_TIME)
                cut = bisect_right(moves, t, key=_TIME) - at_once
            head, self.later = moves[:cut], moves[cut:]
            if not self._apply_by_record(head):
                self._apply_in_order(head)

    def _sequence(self, batch: list[UsageRecord], moves: list[Move]) -> None:
        # A measured hot loop: benchmarks/run.py --rows import (and whatif-replay).
        """:meth:`add`'s checks for each record of ``batch``: its start and its end, in
        place order, appended to ``moves``; the number of the last start in
        :attr:`_last_start_event`."""
        admitted, ids, weights, now = self._admitted, self._target_ids, self._weights, self.now
        add_move = moves.append
        count, last_start, last = self.count, self.last_start, self._last_start_event
        try:
            for record in batch:
                count += 1
                owner, start, end, group, nice, _, _, _, _, slots, cpus, _, charged = record
                if charged is not None:  # (a partitionable slot's whole-slot charge)
                    cpus = charged
                known = admitted.get((owner, group, nice))
                if (
                    known is None
                    or start < known[1]
                    or start > now
                    or (end is not None and end > now)
                ):
                    self.count = count
                    known = self._admit(record)
                if slots == 0:
                    continue
                tid = ids.get(known[0])
                if tid is None:
                    tid = self._target(known[0])
                w = slots * (weights.get(cpus) or self._weight(cpus))
                if start < last_start:
                    self.count = count
                    raise UnsortedHistory(f"record {count}")
                last_start = start
                last = len(moves)
                add_move((start, tid, slots, w))
                if end is not None:
                    add_move((end, tid, -slots, -w))
        finally:
            self.count, self.last_start, self._last_start_event = count, last_start, last

    def _apply_in_order(  # noqa: C901 - _apply inline (hot)
        self, moves: list[Move]
    ) -> None:
        # A measured hot loop: benchmarks/run.py --rows import (and whatif-replay).
        """:meth:`_apply` for the events numbered ``order``, in that order, inline: the one
        inlined copy of ``decay.update_one_priority`` (records without uncharged time, as a
        replay's; ``test_add_batch_inline_update_is_update_one_priority`` pins it)."""
        begins, seq, betas, push = self.begins, self._seq, self._betas, heapq.heappush
        floor = MIN_PRIORITY
        plans = self._plans
        for t, tid, ds, dw in moves:
            plan = plans[tid]
            if begins and begins[0][0] < t:
                self._begin(t)
            for rec, own, in_hier in plan:
                res = rec.resources_used
                rw = rec.weighted_resources_used
                hw = rec.hier_weighted_resources_used
                last = rec.last_update
                if last is None:  # the record's first update: it starts at t
                    rec.last_update = t
                elif t > last:
                    dt = t - last
                    uw = hw if hw > 0.0 else rw
                    p = rec.priority
                    if uw or p > floor:  # else the RUP stays at 0.5
                        try:
                            beta = betas[dt]  # (Δt repeats)
                        except KeyError:
                            beta = self._beta(dt)
                        p = p * beta + uw * (1.0 - beta)
                        rec.priority = p if p > floor else floor
                    acc = rec.accumulated_usage + res * dt
                    rec.accumulated_usage = acc
                    rec.weighted_accumulated_usage += rw * dt
                    if res > 0:
                        rec.last_usage_time = t
                    if acc > 0 and rec.begin_usage_time == 0:
                        rec.begin_usage_time = t
                    rec.last_update = t
                if own:
                    n = res + ds
                    rec.resources_used = n if n > 0 else 0
                    nw = rw + dw
                    rec.weighted_resources_used = nw if nw > 1e-9 else 0.0
                    if n > 0 and rec.begin_usage_time == 0:
                        push(begins, (t, next(seq), rec, rec))
                if in_hier:
                    nh = hw + dw
                    rec.hier_weighted_resources_used = nh if nh > 1e-9 else 0.0

    def _apply_by_record(self, moves: list[Move]) -> bool:
        """``moves`` (in order) applied record by record (:mod:`.replay_batch`), when no
        record awaits or may get its begin time in them; whether they were."""
        found = None if self.begins else events_by_record(moves, self._plans)
        if found is None:
            return False
        for events in found:
            replay_record(events, moves, self._betas, self._beta)
        return True

    def _pend_later(self) -> None:
        """The ends :meth:`add_batch` left pending, pending for :meth:`add` and
        :meth:`finish` (in their order)."""
        moves, self.later = self.later, []
        plans = self._plans
        for t, tid, ds, dw in moves:
            self._pend(t, plans[tid], ds, dw)

    def _weight(self, cpus: int) -> float:
        """The weight of one slot of ``cpus`` CPUs (:attr:`weigh`), remembered by ``cpus``."""
        weight = self._weights[cpus] = self.weigh(cpus)
        return weight

    def _beta(self, dt: float) -> float:
        """``decay_factor(dt, half_life)``, remembered by ``dt`` for :meth:`add_batch` (the
        first :data:`BETAS_KEPT` factors; then it forgets them all and starts again)."""
        betas = self._betas
        if len(betas) >= BETAS_KEPT:
            betas.clear()
        beta = betas[dt] = decay_factor(dt, self.half_life)
        return beta

    def _admit(self, record: UsageRecord) -> tuple[str, float]:
        """The checks, and the message naming the record (number ``count``), as every
        replay makes them; the submitter and its last update, cached for the next records.

        Raises:
            InputError: see :func:`admit_record`.
        """
        where = f"record {self.count}"
        submitter = admit_record(record, where, self.now, self.config, self.state)
        stored = self.state.records.get(submitter)
        last = stored.last_update if stored is not None else None
        known = (submitter, -math.inf if last is None else last)
        self._admitted[(record.owner, record.accounting_group, record.nice_user)] = known
        return known

    def _pend(self, end: float, plan: Plan, dslots: int, dweight: float) -> None:
        """A running record's end, applied (:meth:`_drain`) before the first start at or
        after it, after the ends before it and those at the same time of earlier records."""
        found = self.due.get(end)
        if found is None:
            self.due[end] = [(plan, dslots, dweight)]
            heapq.heappush(self.ends, end)
        else:
            found.append((plan, dslots, dweight))

    def _drain(self, upto: float) -> None:
        ends, due = self.ends, self.due
        while ends and ends[0] <= upto:
            t = heapq.heappop(ends)
            for plan, ds, dw in due.pop(t):
                self._apply(t, plan, ds, dw)

    def finish(self) -> Any:
        self._pend_later()
        if self.presorted:
            self._drain(math.inf)
        else:
            times, targets, dslots, dweight = self.times, self.targets, self.dslots, self.dweight
            plans = self._plans
            for k in sorted(range(len(times)), key=times.__getitem__):
                self._apply(times[k], plans[targets[k]], dslots[k], dweight[k])
        records = dict(self.records)
        for name, rec in self._replayed.items():
            stored = records.get(name)
            if stored is not None:  # the stored uncharged time, charged now
                rec.uncharged_time = stored.uncharged_time
                rec.weighted_uncharged_time = stored.weighted_uncharged_time
            records[name] = stored_record(acct.advance(rec.record(), self.now, self.half_life))
        records = acct.store_factors(records, self.config)  # written: factors are stored
        return acct.accountant_to_json(acct.AccountantState(records=records))


def make_accountant_history_sink(
    config: Config, section: Any, now: float, rebuild: bool, presorted: bool = True
) -> HistorySink:
    """The accountant's sink for ``fs import history``."""
    return AccountantReplay(config, section, now, rebuild, presorted)


def record_from_condor_ad(ad: Mapping[str, Any], where: str) -> UsageRecord | None:
    """A usage record from one ``condor_history -json`` job ad; None if it never ran.

    The submitter is ``AccountingGroup`` (with the user's domain) or ``User``/``Owner``;
    the job held one slot of ``RequestCpus`` from ``JobCurrentStartDate`` (else
    ``JobStartDate``) to ``CompletionDate`` (else ``EnteredCurrentStatus``).

    Raises:
        InputError: a time or count that is not a number.
    """
    start = ad.get("JobCurrentStartDate") or ad.get("JobStartDate")
    if not start:
        return None
    end = ad.get("CompletionDate") or ad.get("EnteredCurrentStatus")
    numbers = isinstance(start, (int, float)) and isinstance(end, (int, float))
    if numbers and end < start and ad.get("JobStatus") != 2:
        return None  # left its state before this start (evicted): nothing to charge
    owner = ad.get("User") or ad.get("Owner")
    if not isinstance(owner, str) or not owner:
        raise InputError(f"{where}: the job ad has neither User nor Owner")
    obj: dict[str, Any] = {
        "owner": owner,
        "accounting_group": ad.get("AccountingGroup"),
        "nice_user": bool(ad.get("NiceUser", False)),
        "start": start,
        "end": end if end and ad.get("JobStatus") != 2 else None,
        "cpus": ad.get("RequestCpus", 1),
        "slots": 1,
    }
    rec = parse_record(obj, where)
    if rec.end is not None and rec.end < rec.start:
        return None
    return rec
