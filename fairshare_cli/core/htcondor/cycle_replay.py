"""``fs import history --cycle``: usage records replayed on a grid of negotiation cycles.

Cycles run at ``cycle_start + k·cycle`` (k any integer). A record starting at ``s`` is a
match made ``s − C`` seconds into the cycle ``C`` at or before ``s`` (``AddMatch`` after
that cycle's update, with its uncharged time); its end is seen by the first cycle at or
after the end, and never before the cycle after the match (``CheckMatches`` after that
cycle's update, so the slot is charged up to it); an end not yet seen by ``--now`` is seen
there. Records are updated lazily: between two cycles that touch a record its usage is
constant and has no uncharged time, so one update over the whole gap is exact; a match's
records are updated at the cycle after it, which sets their ``BeginUsageTime`` as every
cycle's ``UpdatePriorities`` would. As the default replay, it keeps every number it
charges whole, where the accountant stores six decimals at each cycle (a decaying
record's at every cycle, which this replay does not visit); the update at ``--now`` stores
them (:func:`~.customer_record.as_stored`).
Every event is buffered and sorted (this is not the streaming path of the default replay);
the replay changes its own copies of the records in place.
"""

from __future__ import annotations

import math
from typing import Any

from msgspec.structs import replace

from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.customer_record import CustomerRecord
from fairshare_cli.core.htcondor.decay import (
    awaits_begin,
    begin_at_update,
    stored_record,
    update_one_priority,
)
from fairshare_cli.core.htcondor.replay import admit_record, record_weigher
from fairshare_cli.core.usage import HistorySink, UsageRecord
from fairshare_cli.errors import InputError

#: The shortest cycle: the grid's cycle numbers over the years 1 to 9999 (3.2e11 seconds)
#: stay whole numbers a float holds exactly (below 2**53) from 3.6e-5 s; a millisecond is
#: the round number above (the negotiator's NEGOTIATOR_INTERVAL is whole seconds).
MIN_CYCLE = 0.001


def cycle_problem(cycle: float, typed: str | None = None) -> str | None:
    """What is wrong with ``--cycle`` seconds as a grid of cycles (None: nothing), naming
    the value as ``typed`` (else as the number); "finite" for ``--cycle 1e400``, which is
    at least a millisecond."""
    if not (cycle >= MIN_CYCLE and math.isfinite(cycle)):
        typed = typed if typed is not None else repr(cycle).removesuffix(".0")
        return f"--cycle {typed}: expected a finite number of seconds of at least {MIN_CYCLE}"
    return None


# Order of events at one cycle time: the update, then ends seen, then new matches.
_UPDATE, _END, _START = 0, 1, 2


class CycleReplay:
    """Replays usage records as a negotiator on a grid of cycles would account them."""

    def __init__(
        self,
        config: Config,
        section: Any,
        now: float,
        rebuild: bool,
        cycle: float,
        cycle_start: float = 0.0,
    ) -> None:
        problem = cycle_problem(cycle)
        if problem is not None:
            raise InputError(problem)
        self.config, self.now, self.cycle, self.phase = config, now, cycle, cycle_start
        state = acct.replay_start(section, rebuild)
        self.stored = state
        self.records = acct.all_records(state, config)
        self.tree = acct.GroupTree(config.groups)
        self.weigh = record_weigher(config)
        self.events: list[tuple[float, int, int, str, int, float, float]] = []
        self.plans: dict[str, list[tuple[str, bool, bool]]] = {}
        self.replayed: dict[str, CustomerRecord] = {}
        self.count = 0

    def cycle_at_or_before(self, t: float) -> float:
        """The last cycle time ≤ ``t``."""
        return self.phase + math.floor((t - self.phase) / self.cycle) * self.cycle

    def cycle_at_or_after(self, t: float) -> float:
        """The first cycle time ≥ ``t``."""
        return self.phase + math.ceil((t - self.phase) / self.cycle) * self.cycle

    def add(self, record: UsageRecord) -> None:
        self.count += 1
        submitter = admit_record(record, f"record {self.count}", self.now, self.config, self.stored)
        if record.slots == 0:
            return
        charged = record.charged_cpus  # (a partitionable slot's whole-slot charge)
        w = record.slots * self.weigh(record.cpus if charged is None else charged)
        c = self.cycle_at_or_before(record.start)
        nxt = c + self.cycle
        seen = None
        if record.end is not None:
            seen = min(max(self.cycle_at_or_after(record.end), nxt), self.now)
            if seen <= c:  # starts and ends at --now, on a cycle: nothing to charge yet
                return
        k = self.count
        self.events.append((c, _START, k, submitter, record.slots, w, record.start))
        if nxt <= self.now:  # the next update charges the uncharged part
            self.events.append((nxt, _UPDATE, k, submitter, 0, 0.0, nxt))
        if seen is not None:
            self.events.append((seen, _END, k, submitter, record.slots, w, record.start))

    def _targets(self, submitter: str) -> list[tuple[str, bool, bool]]:
        """The records a match of ``submitter`` changes: (name, own counts, subtree usage)."""
        found = self.plans.get(submitter)
        if found is None:
            found = self.plans[submitter] = acct.charged_records(submitter, self.tree)
        return found

    def _record(self, name: str) -> CustomerRecord:
        """The replay's own copy of a record, changed in place."""
        rec = self.replayed.get(name)
        if rec is None:
            stored = self.records.get(name)
            rec = (
                CustomerRecord(name=name, is_group="@" not in name)
                if stored is None
                else replace(stored)
            )
            self.replayed[name] = rec
        return rec

    def _stored_begins(self) -> None:
        """A stored record matched after its last update (a committed cycle's ``AddMatch``)
        gets its ``BeginUsageTime`` from the first cycle after that update, by ``--now``
        (``decay.begin_at_update``): every cycle updates every record."""
        for name, rec in self.records.items():
            last = rec.last_update
            if last is None or not awaits_begin(rec):
                continue
            t = self.cycle_at_or_after(last)
            t = t + self.cycle if t <= last else t
            if t <= self.now:
                self._record(name).begin_usage_time = begin_at_update(rec, t)

    def finish(self) -> Any:
        """Replay the events in time order (the cycle's update, then ends, then matches)."""
        self._stored_begins()
        self.events.sort(key=lambda e: (e[0], e[1], e[2]))
        h = self.config.accountant.priority_halflife
        for t, kind, _, submitter, slots, w, start in self.events:
            for name, own, in_hier in self._targets(submitter):
                rec = self._record(name)
                update_one_priority(rec, t, h, rounded=False)  # UpdatePriorities
                if kind == _UPDATE:
                    continue
                if kind == _START:  # AddMatch `start - t` seconds into the cycle
                    last = rec.last_update
                    held = -max(start - (last if last is not None else t), 0.0)
                    ds, dw = slots, w
                else:  # CheckMatches: RemoveMatch right after the update, nothing uncharged
                    held, ds, dw = 0.0, -slots, -w
                if own:
                    rec.resources_used = max(rec.resources_used + ds, 0)
                    rec.weighted_resources_used = max(rec.weighted_resources_used + dw, 0.0)
                    rec.uncharged_time += held * slots
                    rec.weighted_uncharged_time += held * w
                if in_hier:
                    rec.hier_weighted_resources_used = max(
                        rec.hier_weighted_resources_used + dw, 0.0
                    )
        records = {**self.records, **self.replayed}
        records = {n: stored_record(acct.advance(r, self.now, h)) for n, r in records.items()}
        state = acct.AccountantState(records=acct.store_factors(records, self.config))
        return acct.accountant_to_json(state)


def make_cycle_history_sink(cycle: float, cycle_start: float) -> Any:
    """A sink factory (``fs import history --cycle``) for the accountant's section."""

    def make(
        config: Config, section: Any, now: float, rebuild: bool, presorted: bool = True
    ) -> HistorySink:
        return CycleReplay(config, section, now, rebuild, cycle, cycle_start)

    return make
