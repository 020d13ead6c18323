"""Usage history records (DESIGN §4) and the sinks that charge them to each model.

``fs import history`` streams records to one sink per subsystem: ``sink.add(record)`` for
each, then ``sink.finish()`` returns that subsystem's new state section.
"""

from __future__ import annotations

import heapq
import math
from array import array
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, NamedTuple, Protocol

from fairshare_cli.core import accountant as acct
from fairshare_cli.core.config import Config
from fairshare_cli.core.jobs import parse_time
from fairshare_cli.errors import InputError


class UsageRecord(NamedTuple):
    """Work that ran: ``slots`` identical slots of ``cpus`` CPUs each, from start to end.

    ``end`` None means still running. (A named tuple: a million are built per import.)
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
_FIELDS = (*_STR, "start", "end", "slots", "cpus", "nice_user")


_FIELD_SET = frozenset(_FIELDS)
_ABSENT = (None, "")
_TRUE = ("true", "True", "TRUE", "1")
_FALSE = ("false", "False", "FALSE", "0")


def _bool(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value in _TRUE + _FALSE:
        return value in _TRUE
    raise InputError(f"{where}: expected true or false, got {value!r}")


def _str(value: Any, where: str) -> str:
    """A name: a string (a CSV cell always is), or a number in JSON, as text."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise InputError(f"{where}: expected a string, got {value!r}")


def parse_record(obj: Mapping[str, Any], where: str) -> UsageRecord:
    """A record from a JSON object or a CSV row (strings; empty = absent).

    Raises:
        InputError: naming ``where`` and the field.
    """
    unknown = obj.keys() - _FIELD_SET
    if unknown:
        key = sorted(unknown, key=str)[0]
        if key is None:
            raise InputError(f"{where}: more values than header columns")
        import difflib

        hint = difflib.get_close_matches(key, _FIELDS, n=1)
        extra = f" (did you mean '{hint[0]}'?)" if hint else ""
        raise InputError(f"{where}: unknown field '{key}'{extra}")
    get = obj.get
    owner = get("owner")
    start = get("start")
    if owner in _ABSENT or start in _ABSENT:
        missing = "owner" if owner in _ABSENT else "start"
        raise InputError(f"{where}: missing required field '{missing}'")
    try:
        t0 = parse_time(start, "")
    except InputError:
        t0 = parse_time(start, f"{where}: start")
    end = get("end")
    if end in _ABSENT:
        t1 = None
    else:
        try:
            t1 = parse_time(end, "")
        except InputError:
            t1 = parse_time(end, f"{where}: end")
        if t1 < t0:
            raise InputError(f"{where}: end is before start")
    slots = get("slots")
    slots = 1 if slots in _ABSENT else _count(slots, f"{where}: slots")
    cpus = get("cpus")
    cpus = 1 if cpus in _ABSENT else _count(cpus, f"{where}: cpus")
    nice = get("nice_user")
    return UsageRecord(
        owner if type(owner) is str else _str(owner, f"{where}: owner"),
        t0,
        t1,
        _text(get("accounting_group"), where, "accounting_group"),
        False if nice in _ABSENT else _bool(nice, f"{where}: nice_user"),
        _text(get("account"), where, "account"),
        _text(get("partition"), where, "partition"),
        _text(get("qos"), where, "qos"),
        _text(get("dirac_group"), where, "dirac_group"),
        slots,
        cpus,
    )


def _text(value: Any, where: str, key: str) -> str | None:
    if value in _ABSENT:
        return None
    return value if type(value) is str else _str(value, f"{where}: {key}")


def _count(value: Any, where: str) -> int:
    if type(value) is int and value >= 0:
        return value
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


SinkFactory = Callable[..., HistorySink]
"""``factory(config, section_json, now, rebuild, presorted=True) -> HistorySink``.

A sink that needs records in start-time order and sees one out of order raises
:class:`UnsortedHistory` when ``presorted`` is true; the import then starts again with
``presorted=False``.
"""


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


class UnsortedHistory(Exception):
    """Raised by a streaming sink when records stop arriving in start-time order.

    The import then replays the file again with ``presorted=False`` (events buffered and
    sorted), which is exact for any order but keeps every event in memory.
    """


class AccountantReplay:
    """Replays records into the accountant exactly, in time order (see :mod:`accountant`).

    Between two events usage is constant, so each step of the decay is exact. With
    ``presorted`` (records in start-time order, as accounting dumps are) events stream
    through a heap of pending ends: memory grows with the jobs running at once, not with
    the file. Otherwise events go to compact arrays and are replayed after one sort.
    """

    def __init__(
        self, config: Config, section: Any, now: float, rebuild: bool, presorted: bool = True
    ) -> None:
        self.config = config
        self.now = now
        self.half_life = config.accountant.priority_halflife
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
        self.records = acct.all_records(state, config)
        self.weigh = slot_weigher(config)
        self.presorted = presorted
        self.last_start = -math.inf
        self.pending: list[tuple[float, int, int, int, float]] = []
        self.times = array("d")
        self.targets = array("l")
        self.dslots = array("l")
        self.dweight = array("d")
        self._target_ids: dict[str, int] = {}
        self._plans: list[list[tuple[list[Any], bool, bool]]] = []
        self._rows: dict[str, list[Any]] = {}
        self.count = 0

    def _row(self, name: str) -> list[Any]:
        row = self._rows.get(name)
        if row is None:
            rec = self.records.get(name) or acct.CustomerRecord(name=name, is_group="@" not in name)
            row = [
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
            self._rows[name] = row
        return row

    def _target(self, submitter: str) -> int:
        tid = self._target_ids.get(submitter)
        if tid is None:
            group, hier = acct.charge_targets(submitter, self.tree)
            names = [submitter, group, *[g for g in hier if g != group]]
            own = {submitter, group}
            tid = len(self._plans)
            self._target_ids[submitter] = tid
            self._plans.append([(self._row(n), n in own, n in hier) for n in names])
        return tid

    def _apply(self, t: float, tid: int, dslots: int, dweight: float) -> None:
        """Advance every record the event touches to ``t``, then change its usage."""
        h = self.half_life
        for row, own, in_hier in self._plans[tid]:
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
                row[2] = max(row[2] + dslots, 0)
                nw = row[3] + dweight
                row[3] = nw if nw > 1e-9 else 0.0
            if in_hier:
                nh = row[4] + dweight
                row[4] = nh if nh > 1e-9 else 0.0

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
        if self.presorted:
            if record.start < self.last_start:
                raise UnsortedHistory(where)
            self.last_start = record.start
            self._drain(record.start)
            self._apply(record.start, tid, record.slots, w)
            if record.end is not None:
                heapq.heappush(self.pending, (record.end, self.count, tid, -record.slots, -w))
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

    def _drain(self, upto: float) -> None:
        pending = self.pending
        while pending and pending[0][0] <= upto:
            t, _, tid, ds, dw = heapq.heappop(pending)
            self._apply(t, tid, ds, dw)

    def finish(self) -> Any:
        if self.presorted:
            self._drain(math.inf)
        else:
            times, targets, dslots, dweight = self.times, self.targets, self.dslots, self.dweight
            for k in sorted(range(len(times)), key=times.__getitem__):
                self._apply(times[k], targets[k], dslots[k], dweight[k])
        records = dict(self.records)
        for name, row in self._rows.items():
            base = records.get(name) or acct.CustomerRecord(name=name, is_group="@" not in name)
            rec = replace(
                base,
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
            records[name] = acct.advance(rec, self.now, self.half_life)
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
