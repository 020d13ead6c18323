"""``fs import history --cycle``: usage records replayed on a grid of negotiation cycles.

Cycles run at ``cycle_start + k·cycle`` (k any integer). A record starting at ``s`` is a
match made ``s − C`` seconds into the cycle ``C`` at or before ``s`` (``AddMatch`` after
that cycle's update, with its uncharged time); its end is seen by the first cycle at or
after the end, and never before the cycle after the match (``CheckMatches`` after that
cycle's update, so the slot is charged up to it); an end not yet seen by ``--now`` is seen
there. Records are updated lazily: between two cycles that touch a record its usage is
constant and has no uncharged time, so one update over the whole gap is exact.
Every event is buffered and sorted (this is not the streaming path of the default replay).
"""

from __future__ import annotations

import math
from typing import Any

from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.cycle_accounting import charge_record
from fairshare_cli.core.htcondor.replay import slot_weigher
from fairshare_cli.core.usage import HistorySink, UsageRecord
from fairshare_cli.errors import InputError

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
        if not (cycle > 0 and math.isfinite(cycle)):
            raise InputError(f"--cycle {cycle}: expected a positive number of seconds")
        self.config, self.now, self.cycle, self.phase = config, now, cycle, cycle_start
        state = acct.accountant_from_json(section)
        if rebuild:
            state = acct.AccountantState(
                records={
                    n: acct.CustomerRecord(
                        name=n, is_group=r.is_group, priority_factor=r.priority_factor
                    )
                    for n, r in state.records.items()
                }
            )
        self.stored = state
        self.records = acct.all_records(state, config)
        self.tree = acct.GroupTree(config.groups)
        self.weigh = slot_weigher(config)
        self.events: list[tuple[float, int, int, str, int, float, float]] = []
        self.count = 0

    def cycle_at_or_before(self, t: float) -> float:
        """The last cycle time ≤ ``t``."""
        return self.phase + math.floor((t - self.phase) / self.cycle) * self.cycle

    def cycle_at_or_after(self, t: float) -> float:
        """The first cycle time ≥ ``t``."""
        return self.phase + math.ceil((t - self.phase) / self.cycle) * self.cycle

    def add(self, record: UsageRecord) -> None:
        self.count += 1
        where = f"record {self.count}"
        if record.start > self.now:
            raise InputError(f"{where}: starts after --now")
        if record.end is not None and record.end > self.now:
            raise InputError(
                f"{where}: ends after --now (give a later --now, or end = null "
                "for work still running)"
            )
        submitter = acct.submitter_name(
            record.owner, record.accounting_group, record.nice_user, self.config.pool.uid_domain
        )
        stored = self.stored.records.get(submitter)
        last = stored.last_update if stored is not None else None
        if last is not None and record.start < last:
            raise InputError(
                f"{where}: starts before {submitter}'s last update; the accountant "
                "already counts that time (use --rebuild to replay the whole history afresh)"
            )
        if record.slots == 0:
            return
        w = record.slots * self.weigh(record.cpus)
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
        group, hier = acct.charge_targets(submitter, self.tree)
        names = dict.fromkeys([submitter, group, *hier])
        return [(n, n in (submitter, group), n in hier) for n in names]

    def _record(self, name: str, t: float) -> acct.CustomerRecord:
        """The record updated to the cycle at ``t`` (a record already past it stays)."""
        rec = self.records.get(name) or acct.CustomerRecord(name=name, is_group="@" not in name)
        if rec.last_update is None or t > rec.last_update:
            rec = acct.advance(rec, t, self.config.accountant.priority_halflife)
        return rec

    def finish(self) -> Any:
        self.events.sort(key=lambda e: (e[0], e[1], e[2]))
        for t, kind, _, submitter, slots, w, start in self.events:
            for name, own, in_hier in self._targets(submitter):
                rec = self._record(name, t)  # the cycle's update (UpdatePriorities)
                if kind == _START:  # AddMatch `start - t` seconds into the cycle
                    since = max(start - (rec.last_update or t), 0.0)
                    rec = charge_record(rec, slots, w, -since, own, in_hier)
                elif kind == _END:  # CheckMatches: RemoveMatch right after the update
                    rec = charge_record(rec, -slots, -w, 0.0, own, in_hier)
                self.records[name] = rec
        h = self.config.accountant.priority_halflife
        records = {n: acct.advance(r, self.now, h) for n, r in self.records.items()}
        state = acct.AccountantState(records=acct.store_factors(records, self.config))
        return acct.accountant_to_json(state)


def make_cycle_history_sink(cycle: float, cycle_start: float) -> Any:
    """A sink factory (``fs import history --cycle``) for the accountant's section."""

    def make(
        config: Config, section: Any, now: float, rebuild: bool, presorted: bool = True
    ) -> HistorySink:
        return CycleReplay(config, section, now, rebuild, cycle, cycle_start)

    return make
