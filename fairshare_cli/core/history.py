"""Usage history records (DESIGN §4) and the sinks that charge them to each model.

``fs import history`` streams records to one sink per subsystem: ``sink.add(record)`` for
each, then ``sink.finish()`` returns that subsystem's new state section.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from fairshare_cli.core import accountant as acct
from fairshare_cli.core.config import Config
from fairshare_cli.core.jobs import parse_time
from fairshare_cli.errors import InputError


@dataclass(frozen=True)
class UsageRecord:
    """Work that ran: ``slots`` identical slots of ``cpus`` CPUs each, from start to end.

    ``end`` None means still running.
    """

    owner: str
    start: float
    end: float | None = None
    accounting_group: str | None = None
    nice_user: bool = False
    account: str | None = None
    partition: str | None = None
    qos: str | None = None
    dirac_group: str | None = None
    slots: int = 1
    cpus: int = 1


_STR = ("owner", "accounting_group", "account", "partition", "qos", "dirac_group")


def parse_record(obj: Mapping[str, Any], where: str) -> UsageRecord:
    """A record from a JSON object or a CSV row (strings; empty = absent).

    Raises:
        InputError: naming ``where`` and the field.
    """
    kw: dict[str, Any] = {}
    for key, value in obj.items():
        if key is None:
            raise InputError(f"{where}: more values than header columns")
        if value is None or value == "":
            continue
        w = f"{where}: {key}"
        if key in _STR:
            kw[key] = str(value)
        elif key in ("start", "end"):
            kw[key] = parse_time(value, w)
        elif key in ("slots", "cpus"):
            kw[key] = _count(value, w)
        elif key == "nice_user":
            kw[key] = value in (True, "true", "True", "1", 1)
        else:
            import difflib

            fields = (*_STR, "start", "end", "slots", "cpus", "nice_user")
            hint = difflib.get_close_matches(key, fields, n=1)
            extra = f" (did you mean '{hint[0]}'?)" if hint else ""
            raise InputError(f"{where}: unknown field '{key}'{extra}")
    for req in ("owner", "start"):
        if req not in kw:
            raise InputError(f"{where}: missing required field '{req}'")
    rec = UsageRecord(**kw)
    if rec.end is not None and rec.end < rec.start:
        raise InputError(f"{where}: end is before start")
    return rec


def _count(value: Any, where: str) -> int:
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{where}: expected a whole number, got {value!r}") from None
    if isinstance(value, bool) or not math.isfinite(f) or f < 0 or not f.is_integer():
        raise InputError(f"{where}: expected a whole number of 0 or more, got {value!r}")
    return int(f)


class HistorySink(Protocol):
    """Receives every record of an import, then returns its new state section."""

    def add(self, record: UsageRecord) -> None: ...

    def finish(self) -> Any: ...


SinkFactory = Callable[[Config, Any, float, bool], HistorySink]


def slot_weigher(config: Config) -> Callable[[int], float]:
    """Weight of one slot of ``cpus`` CPUs: 1 without slot weights, else ``SLOT_WEIGHT``.

    A weight that is missing or negative falls back to 1.0, as the negotiator does.
    """
    neg = config.negotiator
    if not neg.use_slot_weights:
        return lambda cpus: 1.0
    expr = neg.slot_weight.strip()
    if expr.lower() == "cpus":
        return lambda cpus: float(cpus) if cpus >= 0 else 1.0
    cache: dict[int, float] = {}

    def weigh(cpus: int) -> float:
        if cpus not in cache:
            from classad2 import ClassAd, ExprTree

            ad = ClassAd({"Cpus": cpus})
            ad["SlotWeight"] = ExprTree(expr)
            value = ad.eval("SlotWeight")
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
            cache[cpus] = float(value) if ok else 1.0
        return cache[cpus]

    return weigh


class AccountantReplay:
    """Replays records into the accountant exactly, in time order (see :mod:`accountant`).

    Events are kept in compact arrays (time, entity set, Δslots, Δweight) and replayed after
    one sort; between events usage is constant, so each step of the decay is exact.
    """

    def __init__(self, config: Config, section: Any, now: float, rebuild: bool) -> None:
        self.config = config
        self.now = now
        self.tree = acct.GroupTree(config.groups)
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
        self.state = state
        self.weigh = slot_weigher(config)
        self.times = array("d")
        self.targets = array("l")
        self.dslots = array("l")
        self.dweight = array("d")
        self._target_ids: dict[str, int] = {}
        self._target_list: list[tuple[str, str, tuple[str, ...]]] = []
        self.count = 0

    def _target(self, submitter: str) -> int:
        tid = self._target_ids.get(submitter)
        if tid is None:
            group, hier = acct.charge_targets(submitter, self.tree)
            tid = len(self._target_list)
            self._target_ids[submitter] = tid
            self._target_list.append((submitter, group, tuple(hier)))
        return tid

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
        stored = self.state.records.get(submitter)
        if (
            stored is not None
            and stored.last_update is not None
            and (record.start < stored.last_update)
        ):
            raise InputError(
                f"{where}: starts before {submitter}'s last update; the accountant already "
                "counts that time (use --rebuild to replay the whole history afresh)"
            )
        if record.slots == 0:
            return
        tid = self._target(submitter)
        w = record.slots * self.weigh(record.cpus)
        self.times.append(record.start)
        self.targets.append(tid)
        self.dslots.append(record.slots)
        self.dweight.append(w)
        if record.end is not None:
            self.times.append(record.end)
            self.targets.append(tid)
            self.dslots.append(-record.slots)
            self.dweight.append(-w)

    def finish(self) -> Any:
        h = self.config.accountant.priority_halflife
        records = acct.all_records(self.state, self.config)
        order = sorted(range(len(self.times)), key=self.times.__getitem__)
        # Mutable columns per entity, for speed: the loop below runs millions of times.
        index: dict[str, int] = {}
        cols: list[list[Any]] = []

        def slot_of(name: str) -> int:
            i = index.get(name)
            if i is None:
                i = len(cols)
                index[name] = i
                rec = records.get(name) or acct.CustomerRecord(name=name, is_group="@" not in name)
                cols.append([rec, None])
            return i

        plans = []
        for submitter, group, hier in self._target_list:
            names = [submitter, group, *[g for g in hier if g != group]]
            own = {submitter, group}
            plans.append([(slot_of(n), n in own, n in hier) for n in names])
        # columns: priority, last_update, res, w, hier, acc, wacc, begin, lastuse
        state_rows: list[list[float]] = []
        for rec, _ in cols:
            state_rows.append(
                [
                    max(rec.priority, acct.MIN_PRIORITY),
                    rec.last_update,
                    rec.resources_used,
                    rec.weighted_resources_used,
                    rec.hier_weighted_resources_used,
                    rec.accumulated_usage,
                    rec.weighted_accumulated_usage,
                    rec.begin_usage_time,
                    rec.last_usage_time,
                ]
            )
        times, targets, dslots, dweight = self.times, self.targets, self.dslots, self.dweight
        for k in order:
            t = times[k]
            for i, own, in_hier in plans[targets[k]]:
                row = state_rows[i]
                last = row[1]
                if last is None:
                    row[1] = t
                elif t > last:
                    dt = t - last
                    res = row[2]
                    uw = row[4] if row[4] > 0 else row[3]
                    if uw or row[0] > acct.MIN_PRIORITY:
                        beta = 0.5 ** (dt / h) if h > 0 else 0.0
                        p = row[0] * beta + uw * (1.0 - beta)
                        row[0] = p if p > acct.MIN_PRIORITY else acct.MIN_PRIORITY
                    if res > 0:
                        row[5] += res * dt
                        row[6] += row[3] * dt
                        if row[7] <= 0:
                            row[7] = last
                        row[8] = t
                    row[1] = t
                if own:
                    row[2] = max(row[2] + dslots[k], 0)
                    nw = row[3] + dweight[k]
                    row[3] = nw if nw > 1e-9 else 0.0
                if in_hier:
                    nh = row[4] + dweight[k]
                    row[4] = nh if nh > 1e-9 else 0.0
        from dataclasses import replace

        for name, i in index.items():
            row = state_rows[i]
            rec = replace(
                cols[i][0],
                priority=row[0],
                last_update=row[1],
                resources_used=int(row[2]),
                weighted_resources_used=row[3],
                hier_weighted_resources_used=row[4],
                accumulated_usage=row[5],
                weighted_accumulated_usage=row[6],
                begin_usage_time=row[7],
                last_usage_time=row[8],
            )
            records[name] = acct.advance(rec, self.now, h)
        return acct.accountant_to_json(acct.AccountantState(records=records))


def make_accountant_history_sink(
    config: Config, section: Any, now: float, rebuild: bool
) -> HistorySink:
    """The accountant's sink for ``fs import history``."""
    return AccountantReplay(config, section, now, rebuild)
