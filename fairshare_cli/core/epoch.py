"""Epoch seconds from a number or an ISO-8601 text (``--now``, job and record times).

Its own module so that reading ``--now`` does not load the job model (:mod:`jobs`).
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from typing import Any

from fairshare_cli.core.limits import TIME_MAX, TIME_MIN
from fairshare_cli.core.names import c_number_text, json_shown
from fairshare_cli.errors import InputError

__all__ = ["cached_utc", "parse_time", "utc_text"]

_ISO_UTC = re.compile(  # ([0-9]: \d takes other scripts' digits too, which int() reads)
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[T ]([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(\.[0-9]+)?(?:Z|z|\+00:00)?\Z"
)


_DAY_CACHE: dict[str, int] = {}


def _days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm)."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _real_date(year: int, month: int, day: int) -> bool:
    """``year-month-day`` is a day of the proleptic Gregorian calendar (no 02-31)."""
    if not 1 <= month <= 12 or day < 1:
        return False
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return day <= (29 if leap else 28)
    return day <= (30 if month in (4, 6, 9, 11) else 31)


def parse_time(value: Any, where: str) -> float:
    """Epoch seconds from a number or an ISO-8601 string (naive means UTC).

    Raises:
        InputError: neither, or a time outside the years 1 to 9999.
    """
    t = _parse_time(value, where)
    if not TIME_MIN <= t <= TIME_MAX:
        raise InputError(
            f"{where}: expected a time between the years 1 and 9999 "
            f"(epoch seconds {TIME_MIN:.0f} to {TIME_MAX:.0f}), got {json_shown(value)}"
            f"{_milliseconds_hint(value if type(value) in (int, float) else t, value)}"
        )
    return t


def _milliseconds_hint(value: float, given: Any) -> str:
    """What to give for a time in milliseconds (``date +%s%3N``, a Java or JavaScript
    time) that is a time in seconds from 1970 on; else nothing (an ISO-8601 ``given``,
    ``9999-12-31T23:59:60Z``, is no number of milliseconds)."""
    if isinstance(given, str) and not given.strip().lstrip("+-").replace(".", "", 1).isdigit():
        return ""
    if not (isinstance(value, int) or math.isfinite(value)) or not 0 <= value <= TIME_MAX * 1000:
        return ""
    return f"; if it is milliseconds, give seconds: {value // 1000:.0f}"


def _parse_time(value: Any, where: str) -> float:
    if isinstance(value, bool):
        raise InputError(f"{where}: expected epoch seconds or an ISO-8601 time, got {value}")
    if isinstance(value, int) and not TIME_MIN <= value <= TIME_MAX:
        return math.inf  # past a float's range too: parse_time names the range
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise InputError(f"{where}: expected a finite time, got {value}")
        return float(value)
    if isinstance(value, str):
        return _parse_time_text(value, where)
    raise InputError(
        f"{where}: expected epoch seconds or an ISO-8601 time, got {json_shown(value)}"
    )


def _parse_time_text(value: str, where: str) -> float:
    """Epoch seconds from a string: ``YYYY-MM-DDTHH:MM:SSZ`` fast, any ISO-8601 or a number.

    Raises:
        InputError: none of these.
    """
    text = value.strip()
    if len(text) == 20 and text[19] == "Z" and text[10] == "T":
        fast = cached_utc(text)
        if fast is not None:
            return fast
    m = _ISO_UTC.match(text)
    if m is not None and not _real_date(int(m[1]), int(m[2]), int(m[3])):
        raise InputError(
            f"{where}: expected a real calendar date, got {json_shown(value)} "
            f"({m[1]}-{m[2]} has no day {int(m[3])})"
            if 1 <= int(m[2]) <= 12
            else f"{where}: expected a real calendar date,"
            f" got {json_shown(value)} (no month {m[2]})"
        )
    if m is not None and (int(m[4]) < 24 and int(m[5]) < 60 and int(m[6]) < 61):
        days = _days_from_civil(int(m[1]), int(m[2]), int(m[3]))
        if len(_DAY_CACHE) < 100_000:
            _DAY_CACHE[f"{m[1]}-{m[2]}-{m[3]}"] = days
        secs = days * 86400 + int(m[4]) * 3600 + int(m[5]) * 60 + int(m[6])
        return float(secs) + (float(m[7]) if m[7] else 0.0)
    try:  # (ASCII without "_": Python reads 1_795_262_400 and other scripts' digits too)
        if not c_number_text(text):
            raise ValueError(text)
        return float(text)
    except ValueError:
        pass
    try:
        if not text.isascii():
            raise ValueError(text)
        stamp = _dt.datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise InputError(
            f"{where}: expected epoch seconds or an ISO-8601 time like "
            f'2026-11-21T12:00:00Z, got "{value}"'
        ) from None
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=_dt.timezone.utc)
    return stamp.timestamp()


def cached_utc(text: str) -> float | None:
    """``YYYY-MM-DDTHH:MM:SSZ`` on a day seen before, or None to parse it in full."""
    days = _DAY_CACHE.get(text[:10])
    if days is None:
        return None
    hours, minutes, seconds = text[11:13], text[14:16], text[17:19]
    if not (hours + minutes + seconds).isdigit() or not text.isascii():  # (not ' 1', '+1', '١')
        return None
    h, mi, se = int(hours), int(minutes), int(seconds)
    if h < 24 and mi < 60 and se < 61 and text[13] == ":" and text[16] == ":":
        return float(days * 86400 + h * 3600 + mi * 60 + se)
    return None


def utc_text(t: float) -> str:
    """ISO-8601 UTC text of a time :func:`parse_time` accepts (the years 1 to 9999, before
    1970 too): ``2026-11-21T12:00:00Z``, microseconds where it has a fraction."""
    stamp = _dt.datetime.fromtimestamp(t, tz=_dt.timezone.utc)
    return stamp.isoformat(timespec="microseconds" if t % 1 else "seconds").replace("+00:00", "Z")
