"""Slurm association usage: decay, accrual per calc period, and usage resets.

Mirrors the decay thread of ``priority_multifactor.c``: every ``PriorityCalcPeriod`` a pass
at time ``t`` (1) resets usage if a reset is due, (2) multiplies all usage by
``d^(t - last_ran)`` with ``d = 1 - 0.693 / half_life`` (half-life 0: no decay), then
(3) adds, for each running job, ``Δ · d^Δ · billable CPUs · QOS usage_factor`` over the
seconds since the previous pass, to the job's association and every ancestor. A job ending
between two passes is charged only up to the pass before its end, unless accounting limits
are enforced (then its last part is charged when it ends, as ``priority_p_job_end`` does).

Views are lazy: the stored values plus the passes since the last stored pass, folded per
association (:mod:`.passes`: equal charges at the same passes give bit-identical usage, as
in Slurm); :func:`charge_at` is one job's charge in closed form.
Times are epoch seconds; resets fall on midnights of ``reset_zone`` (UTC unless set:
:mod:`~fairshare_cli.core.slurm.reset_period`).
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import repeat
from operator import itemgetter
from typing import Any

import msgspec

from fairshare_cli.core.names import json_shown
from fairshare_cli.core.slurm.pass_grid import PassGrid, decay_factor, real_decay
from fairshare_cli.core.slurm.pass_grid import (
    UsageKey as UsageKey,
)  # su.UsageKey in model, snapshot
from fairshare_cli.core.slurm.reset_period import latest_reset
from fairshare_cli.core.state import SectionError


class DecayParams(msgspec.Struct, frozen=True):
    """The knobs that shape usage: ``[priority]`` decay_halflife, calc_period, reset."""

    halflife: float = 604800.0
    calc_period: float = 300.0
    reset_period: str = "NONE"
    charge_job_end: bool = False
    #: the zone whose midnights resets fall on (slurmctld's local time; a loaded zone)
    reset_zone: _dt.tzinfo = _dt.timezone.utc

    @property
    def factor(self) -> float:
        """Slurm's per-second decay factor ``1 - 0.693 / half_life`` (1 = no decay)."""
        return decay_factor(self.halflife)


@dataclass(frozen=True)
class RunningCharge:
    """A job still accruing usage: ``rate`` = billable CPUs × QOS usage factor."""

    account: str
    user: str
    rate: float
    start: float
    end: float | None = None
    #: The queue's job id, for charges of jobs in the queue (``fs rm`` stops them).
    job: str | None = None


@dataclass(frozen=True)
class SlurmUsage:
    """The ``slurm`` state section: raw usage per user association as of ``last_decay_ran``."""

    last_decay_ran: float | None = None
    last_reset: float | None = None
    reset_now_done: bool = False
    usage: Mapping[UsageKey, float] = field(default_factory=dict)
    running: tuple[RunningCharge, ...] = ()


#: The largest magnitude a stored usage, rate or time may have: sums of them stay finite.
MAX_STORED = 1e30


def usage_from_json(raw: Any) -> SlurmUsage:
    """Parse the ``slurm`` section of the state.

    Raises:
        SectionError: the section does not have the documented shape.
    """
    if raw is None:
        return SlurmUsage()
    if not isinstance(raw, Mapping):
        raise SectionError("slurm: expected an object")
    usage = _usage_table(raw.get("usage", {}))  # checked in this order: the first error
    running = _running_charges(raw.get("running", []))  # found is the one reported
    return SlurmUsage(
        last_decay_ran=_optional_number(raw.get("last_decay_ran"), "last_decay_ran"),
        last_reset=_optional_number(raw.get("last_reset"), "last_reset"),
        reset_now_done=bool(raw.get("reset_now_done", False)),
        usage=usage,
        running=running,
    )


def _number(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SectionError(f"slurm.{key}: expected a number, got {json_shown(value)}")
    if not -MAX_STORED <= value <= MAX_STORED:
        raise SectionError(
            f"slurm.{key}: expected a number of at most {MAX_STORED:g}, got {json_shown(value)}"
        )
    return float(value)


def _amount(value: Any, key: str) -> float:
    """A usage or a rate: a stored number that is never negative (Slurm's usage_raw)."""
    number = _number(value, key)
    if number < 0:
        raise SectionError(f"slurm.{key}: expected 0 or more, got {json_shown(value)}")
    return number


def _optional_number(value: Any, key: str) -> float | None:
    return None if value is None else _number(value, key)


def _usage_table(table: Any) -> dict[UsageKey, float]:
    """``slurm.usage``: account -> user -> raw usage."""
    if not isinstance(table, Mapping):
        raise SectionError("slurm.usage: expected an object of accounts")
    usage: dict[UsageKey, float] = {}
    for account, users in table.items():
        if not isinstance(users, Mapping):
            raise SectionError(f"slurm.usage.{account}: expected an object of users")
        for user, value in users.items():
            if type(value) is not float or not 0.0 <= value <= MAX_STORED:  # else taken as is
                value = _amount(value, f"usage.{account}.{user}")
            usage[(str(account), str(user))] = value
    return usage


def _running_charges(items: Any) -> tuple[RunningCharge, ...]:
    """``slurm.running``: the charges of jobs still accruing (:func:`_plain_charges` when
    they are plain, else each checked in turn, which words what is wrong)."""
    if not isinstance(items, list):
        raise SectionError("slurm.running: expected a list")
    plain = _plain_charges(items)
    if plain is not None:
        return plain
    running: list[RunningCharge] = []
    for i, item in enumerate(items):
        if not isinstance(item, Mapping) or not all(
            k in item for k in ("account", "user", "rate", "start")
        ):
            raise SectionError(f"slurm.running[{i}]: expected account, user, rate, start")
        running.append(
            RunningCharge(
                str(item["account"]),
                str(item["user"]),
                _amount(item["rate"], f"running[{i}].rate"),
                _number(item["start"], f"running[{i}].start"),
                _optional_number(item.get("end"), f"running[{i}].end"),
                None if item.get("job") is None else str(item["job"]),
            )
        )
    return tuple(running)


_FIELDS = ("account", "user", "rate", "start")


def _plain_charges(items: list[Any]) -> tuple[RunningCharge, ...] | None:
    """The charges as the checks of :func:`_running_charges` read them, when every item is
    an object of text names, numbers within :data:`MAX_STORED` (rates not negative), an
    end that is one or null and a job id that is text or null: checked a field at a time
    in C (25,000 running jobs at ``benchmarks/run.py --rows import-squeue``, read twice).
    None when unsure."""
    if not items or set(map(type, items)) != {dict}:
        return None
    if not all(all(map(dict.__contains__, items, repeat(key))) for key in _FIELDS):
        return None
    accounts, users, rates, starts = (list(map(itemgetter(key), items)) for key in _FIELDS)
    ends, jobs = (list(map(dict.get, items, repeat(key))) for key in ("end", "job"))
    if not set(map(type, [*accounts, *users])) | set(map(type, jobs)) <= {str, type(None)}:
        return None
    if None in accounts or None in users:
        return None
    if not all(map(_in_range, (rates, starts, [e for e in ends if e is not None]))):
        return None
    if min(rates) < 0:
        return None
    floats = ([None if v is None else float(v) for v in c] for c in (rates, starts, ends))
    return tuple(map(RunningCharge, accounts, users, *floats, jobs))


def _in_range(numbers: list[Any]) -> bool:
    """Whether these are ints and floats from -MAX_STORED to MAX_STORED (no NaN)."""
    if not numbers or not set(map(type, numbers)) <= {int, float}:
        return not numbers
    if not (min(numbers) >= -MAX_STORED and max(numbers) <= MAX_STORED):
        return False
    total = sum(map(float, numbers))  # (a NaN among them makes it NaN)
    return total == total


def usage_to_json(state: SlurmUsage) -> dict[str, Any]:
    """The JSON form of the ``slurm`` section (stable key order, full precision)."""
    table: dict[str, dict[str, float]] = {}
    for (account, user), value in sorted(state.usage.items()):
        table.setdefault(account, {})[user] = value
    return {
        "last_decay_ran": state.last_decay_ran,
        "last_reset": state.last_reset,
        "reset_now_done": state.reset_now_done,
        "usage": table,
        "running": [
            {"account": r.account, "user": r.user, "rate": r.rate, "start": r.start, "end": r.end}
            | ({} if r.job is None else {"job": r.job})
            for r in state.running
        ],
    }


def last_pass(anchor: float | None, now: float, period: float) -> float:
    """The time of the last decay pass at or before ``now``.

    Passes fall every ``period`` seconds from ``anchor`` (the last pass the state saw);
    with no anchor they fall on multiples of ``period`` since the epoch.
    """
    base = 0.0 if anchor is None else anchor
    if now < base:
        return base
    return base + math.floor((now - base) / period) * period


def reset_cutoff(
    params: DecayParams, anchor: float, last_reset: float | None, upto: float
) -> float | None:
    """The pass (≤ ``upto``) of the latest usage reset, or None if no reset is due
    (:func:`~fairshare_cli.core.slurm.reset_period.latest_reset`)."""
    if params.reset_period in ("NONE", "NOW"):
        return None
    return latest_reset(
        params.reset_period, params.reset_zone, params.calc_period, anchor, last_reset, upto
    )


def charge_at(start: float, end: float | None, rate: float, grid: PassGrid) -> float:
    """Usage a job adds to its association, as it stands at pass ``grid.upto``.

    Counts the passes ``t`` in ``(after, upto]`` (and ``≥ cutoff``, the last reset) during
    which the job ran (``start < t``, and ``t ≤ end``): the pass charges
    ``Δ · d^Δ · rate`` for the seconds since the previous pass, and that decays by
    ``d^(upto - t)``. With ``charge_job_end`` the part after the last pass before ``end``
    is charged when the job ends (at or before ``view``), then decays with the next passes.
    """
    anchor, period, factor, upto = grid.anchor, grid.period, grid.factor, grid.upto
    after, cutoff, view = grid.after, grid.cutoff, grid.view
    lo = start
    if after is not None:
        lo = max(lo, after)
    # first pass strictly after lo
    k_first = math.floor((lo - anchor) / period) + 1
    t_first = anchor + k_first * period
    if cutoff is not None and t_first < cutoff:
        t_first = cutoff
    t_last_limit = upto if end is None else min(upto, end)
    k_last = math.floor((t_last_limit - anchor) / period)
    t_last = anchor + k_last * period
    total = 0.0
    if t_first <= t_last:
        delta = t_first - max(t_first - period, start)
        total += delta * real_decay(factor, delta) * real_decay(factor, upto - t_first)
        n_full = round((t_last - t_first) / period)
        if n_full > 0:
            q = real_decay(factor, period)
            per = period * q
            # Σ_{m=0}^{n-1} q^m, decayed from t_last to upto
            series = float(n_full) if q == 1.0 else (1.0 - q**n_full) / (1.0 - q)
            total += per * series * real_decay(factor, upto - t_last)
    if grid.charge_job_end and end is not None:
        limit = upto if view is None else max(view, upto)
        if end <= limit:
            t_prev = last_pass(anchor, end, period)
            if (after is None or end > after) and (cutoff is None or t_prev >= cutoff):
                delta = end - max(t_prev, start)
                if delta > 0:
                    total += (
                        delta
                        * real_decay(factor, delta)
                        * real_decay(factor, max(upto - t_prev, 0.0))
                    )
    return total * rate


def usage_at(
    state: SlurmUsage, now: float, params: DecayParams, view: float | None = None
) -> tuple[float, dict[UsageKey, float]]:
    """Raw usage per association at the last pass before ``now`` (ends charged up to
    ``view``, default ``now``): the pass time and the usage; nothing is written."""
    period = params.calc_period
    anchor = state.last_decay_ran
    t = last_pass(anchor, now, period)
    base = anchor if anchor is not None else t
    factor = params.factor
    cutoff = reset_cutoff(params, base, state.last_reset, t)
    stored_reset = cutoff is not None and (anchor is None or cutoff > anchor)
    grid = PassGrid(
        anchor=base,
        period=period,
        factor=factor,
        upto=t,
        after=anchor,
        cutoff=cutoff if stored_reset else None,
        charge_job_end=params.charge_job_end,
        view=now if view is None else view,
    )
    out: dict[UsageKey, float] = {key: 0.0 for key in state.usage}
    if not stored_reset:
        keep = real_decay(factor, t - base)
        out = {key: value * keep for key, value in state.usage.items()}
    if not state.running:  # no charge to add: passes (and fractions) need not load
        return t, out
    from fairshare_cli.core.slurm.passes import fold, ledgers_of

    for key, ledger in ledgers_of(_running_jobs(state), grid).items():
        if anchor is None:  # no pass before: the charges add to the stored usage
            out[key] = out.get(key, 0.0) + fold(ledger, grid, None)
        else:  # the stored usage at the anchor, then every pass since, in order
            value = fold(ledger, grid, 0, 0.0 if stored_reset else state.usage.get(key, 0.0))
            if value or key in out:  # (no pass charged it yet: no entry, as before)
                out[key] = value
    return t, out


def advance(state: SlurmUsage, now: float, params: DecayParams) -> SlurmUsage:
    """Bring the stored usage up to the last pass before ``now`` (for a mutating command).

    Charges of jobs that ended before that pass are folded in and dropped; one that ended
    at or after it stays, its end uncharged: classic fair share reads usage from before
    the pass charged it (``tree_usage.usage_before_charges``), advanced or not."""
    t = last_pass(state.last_decay_ran, now, params.calc_period)
    t, usage = usage_at(state, now, params, view=t)
    running = tuple(r for r in state.running if kept_after(r.end, t))
    base = state.last_decay_ran if state.last_decay_ran is not None else t
    last_reset = state.last_reset
    cutoff = reset_cutoff(params, base, state.last_reset, t)
    if cutoff is not None and (state.last_decay_ran is None or cutoff > state.last_decay_ran):
        last_reset = cutoff
    reset_now_done = state.reset_now_done
    if params.reset_period == "NOW" and not reset_now_done:
        usage = {key: 0.0 for key in usage}
        reset_now_done = True
        last_reset = t
    return SlurmUsage(
        last_decay_ran=t,
        last_reset=last_reset,
        reset_now_done=reset_now_done,
        usage=usage,
        running=running,
    )


def kept_after(end: float | None, t: float) -> bool:
    """Whether a charge ending at ``end`` (None: open) stays running once the stored usage
    is at pass ``t`` (:func:`advance`): one that ended before ``t`` is folded in."""
    return end is None or end >= t


def record_cutoff(state: SlurmUsage, params: DecayParams) -> float | None:
    """The pass of the latest usage reset a newly charged job must respect (or None)."""
    t = state.last_decay_ran
    if t is None:
        return None
    cutoff = reset_cutoff(params, t, None, t)
    if params.reset_period == "NOW" and state.reset_now_done and state.last_reset is not None:
        cutoff = state.last_reset if cutoff is None else max(cutoff, state.last_reset)
    return cutoff


def record_grid(t: float, cutoff: float | None, now: float, params: DecayParams) -> PassGrid:
    """The passes a newly imported job is charged over: those up to ``t`` (the state's
    last pass) and at or after ``cutoff``, looked at ``now``."""
    return PassGrid(
        anchor=t,
        period=params.calc_period,
        factor=params.factor,
        upto=t,
        cutoff=cutoff,
        charge_job_end=params.charge_job_end,
        view=now,
    )


def record_charge(
    t: float,
    cutoff: float | None,
    start: float,
    end: float | None,
    rate: float,
    now: float,
    params: DecayParams,
) -> float:
    """Usage a newly imported job adds at pass ``t`` (the state's last pass)."""
    from fairshare_cli.core.slurm.passes import Ledger, charge, fold

    grid = record_grid(t, cutoff, now, params)
    ledger = Ledger()
    charge(ledger, start, end, rate, grid)
    return fold(ledger, grid, None)


def _running_jobs(state: SlurmUsage) -> Iterator[tuple[UsageKey, float, float | None, float]]:
    """The state's running jobs as ``(key, start, end, rate)`` charges."""
    return (((r.account, r.user), r.start, r.end, r.rate) for r in state.running)


def still_running(end: float | None, now: float) -> bool:
    """True for a job that keeps accruing in later views (no end, or one after ``now``)."""
    return end is None or end > now


def add_records(
    state: SlurmUsage,
    charges: Iterable[tuple[UsageKey, float, float | None, float, str | None]],
    now: float,
    params: DecayParams,
) -> SlurmUsage:
    """Charge jobs, each ``(key, start, end, rate, job id or None)``, to a state already
    advanced to ``now`` (see :func:`advance`), the state copied once for them all.

    A job's passes up to the state's last pass are added to ``key``'s usage at once (and,
    with ``charge_job_end``, its last part if it ended by ``now``); a job still running at
    ``now`` stays in ``running`` (with its id) and keeps accruing in later views.
    """
    t = state.last_decay_ran
    if t is None:
        raise ValueError("advance the state before adding records")
    cutoff = record_cutoff(state, params)
    usage = dict(state.usage)
    running = list(state.running)
    for key, start, end, rate, job in charges:
        usage[key] = usage.get(key, 0.0) + record_charge(t, cutoff, start, end, rate, now, params)
        if still_running(end, now):
            running.append(RunningCharge(key[0], key[1], rate, start, end, job=job))
    return replace(state, usage=usage, running=tuple(running))


def restart(state: SlurmUsage, at: float, params: DecayParams) -> SlurmUsage:
    """The state after slurmctld starts at ``at``: its first decay pass runs then.

    Passes before ``at`` follow the old grid; the pass at ``at`` decays everything by
    ``d^(at - last pass)`` and charges running jobs for those seconds; later passes fall
    every calc period from ``at`` (the decay thread's timer starts with the daemon).
    """
    state = advance(state, at, params)
    t = state.last_decay_ran
    assert t is not None
    if at <= t:
        return state
    from fairshare_cli.core.slurm.passes import fold, ledgers_of

    keep = real_decay(params.factor, at - t)
    usage = {key: value * keep for key, value in state.usage.items()}
    grid = PassGrid(anchor=t, period=at - t, factor=params.factor, upto=at, after=t)
    # one pass, ``at - t`` after the last: the running jobs charged per key
    for key, ledger in ledgers_of(_running_jobs(state), grid).items():
        usage[key] = fold(ledger, grid, 0, state.usage.get(key, 0.0))
    return replace(state, usage=usage, last_decay_ran=at)
