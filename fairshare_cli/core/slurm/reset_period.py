"""When ``PriorityUsageResetPeriod`` zeroes usage: ``_next_reset``'s boundaries, in the local
time of slurmctld's host, and the decay pass of the latest reset (``_decay_thread`` in
``priority_multifactor.c``, 22.05 and 26.05 alike).

The zone arrives loaded (``priority.usage_reset_time_zone``, read by the config reader):
nothing here reads a time zone database.
"""

from __future__ import annotations

import datetime as _dt
import math

DAY = 86400.0
#: How far back boundaries are walked from when the last reset is unknown.
_LOOKBACK = 400 * DAY


def next_reset(period: str, after: float, zone: _dt.tzinfo = _dt.timezone.utc) -> float | None:
    """``_next_reset``: the reset after the one at ``after``, in ``zone``'s local time.

    From the local midnight that starts ``after``'s day (``localtime_r``, then ``mktime``,
    which reads a midnight skipped by a clock change with the offset before it): ``DAILY``
    adds 86400 s, ``WEEKLY`` 86400 s a day to the next Sunday (a week on a Sunday), so
    across a daylight saving change the reset falls an hour off midnight, as in Slurm;
    the others are midnight of the first day of the next month, quarter or year.
    """
    if period not in ("DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY"):
        return None
    local = _dt.datetime.fromtimestamp(after, tz=zone)
    day = _dt.datetime(local.year, local.month, local.day, tzinfo=zone)
    if period == "DAILY":
        return day.timestamp() + DAY
    if period == "WEEKLY":  # (to the next Sunday: Python's weekday 6, C's wday 0)
        return day.timestamp() + DAY * (6 - day.weekday() or 7)
    month = {"MONTHLY": day.month + 1, "QUARTERLY": (day.month - 1) // 3 * 3 + 4}.get(period, 13)
    year, month = (day.year + 1, 1) if month > 12 else (day.year, month)
    return _dt.datetime(year, month, 1, tzinfo=zone).timestamp()


def latest_reset(
    period: str,
    zone: _dt.tzinfo,
    calc_period: float,
    anchor: float,
    last_reset: float | None,
    upto: float,
) -> float | None:
    """The pass (≤ ``upto``, on the grid of ``anchor`` every ``calc_period``) of the latest
    reset after ``last_reset`` (the pass of the one before), or None.

    A reset happens at the first pass at or after each boundary; boundaries follow one
    another (walked from a week before ``last_reset``, or from a little over a year before
    ``upto``). A boundary that is its own next (``DAILY`` at 23:00 of a local day a clock
    change made 25 hours long: its midnight + 86400 s) stays the next reset, so
    ``_decay_thread`` resets at every pass from it until its catch-up (``while (tmp_time +
    SECS_PER_DAY) < now``, a week for ``WEEKLY``) moves it on, at the first pass more than
    that after it; the pass after that resets at the moved boundary, and the walk goes on.
    """
    step = 7 * DAY if period == "WEEKLY" else DAY
    start = (last_reset if last_reset is not None else upto - _LOOKBACK) - 8 * DAY
    best: float | None = None
    b = next_reset(period, start, zone)
    while b is not None and b <= upto:
        first = last = _pass_at_or_after(anchor, b, calc_period)
        after = next_reset(period, b, zone)
        stuck = after is not None and after <= b
        if stuck:  # every pass resets until the catch-up moves the boundary on
            moved = _pass_at_or_after(anchor, b + step, calc_period)
            last = min(upto, moved + calc_period * (2 if moved == b + step else 1))
            after = next_reset(period, b + step, zone)
        if first <= upto and (
            last_reset is None or b > last_reset or (stuck and last > last_reset)
        ):
            best = last
        b = after
    return best


def _pass_at_or_after(anchor: float, t: float, period: float) -> float:
    return anchor + math.ceil((t - anchor) / period) * period
