"""Slurm's time-string grammar (``time_str2secs`` / ``time_str2mins`` in parse_time.c).

Forms: ``M`` minutes, ``M:S`` minutes:seconds, ``H:M:S``, ``D-H``, ``D-H:M``, ``D-H:M:S``;
``-1``, ``INFINITE`` and ``UNLIMITED`` (any case) mean infinite. Anything else is rejected.
"""

from __future__ import annotations

import math
import re

from fairshare_cli.core.names import shown

INFINITE = math.inf

_ALLOWED = re.compile(r"[0-9:-]+\Z")
_GROUPS = re.compile(r"[0-9]+")
#: The most digits a number of a time string may have (Slurm reads each with strtol: 18
#: digits always fit in 64 bits, and their product in a float).
_DIGITS = 18


class TimeStringError(ValueError):
    """A string that Slurm's time-string parser would reject."""


def time_str2secs(text: str) -> float:
    """Seconds that Slurm reads from ``text``; ``math.inf`` for INFINITE/UNLIMITED/-1.

    Mirrors Slurm's ``time_str2secs``: the string is checked for its shape (digit groups,
    at most one ``-`` and two ``:``, no ``-`` after a ``:``) before it is read.

    Raises:
        TimeStringError: empty, negative, or not one of the accepted shapes.
    """
    s = text  # (as typed: a blank is refused, as _is_valid_timespec refuses it)
    if not s:
        raise TimeStringError("an empty time string")
    if s == "-1" or s.upper() in ("INFINITE", "UNLIMITED"):
        return INFINITE
    if not _ALLOWED.match(s):
        raise TimeStringError(
            f'"{shown(text)}" has characters other than digits, "-" and ":" (a Slurm time is '
            "M, M:S, H:M:S, D-H, D-H:M or D-H:M:S, or INFINITE)"
        )
    dashes = s.count("-")
    colons = s.count(":")
    groups = len(_GROUPS.findall(s))
    ok = groups >= 1 and dashes <= 1 and colons <= 2
    if ok and dashes and ":" in s and s.index("-") > s.index(":"):
        ok = False
    if ok:
        need = colons + 1 + (1 if dashes and colons else 0)
        ok = groups >= need
    if not ok:
        raise TimeStringError(
            f'"{shown(text)}" is not a Slurm time (M, M:S, H:M:S, D-H, D-H:M or D-H:M:S)'
        )
    if s.startswith("-"):
        raise TimeStringError(f'"{shown(text)}" is negative')
    if max(len(g.lstrip("0")) for g in _GROUPS.findall(s)) > _DIGITS:  # (5,000 crashed int())
        raise TimeStringError(f'"{shown(text)}" has a number of more than {_DIGITS} digits')
    if dashes:
        day_text, rest = s.split("-", 1)
        parts = [int(p) if p else 0 for p in rest.split(":")]
        days = int(day_text) if day_text else 0
        hours = parts[0]
        minutes = parts[1] if len(parts) > 1 else 0
        seconds = parts[2] if len(parts) > 2 else 0
        return float(((days * 24 + hours) * 60 + minutes) * 60 + seconds)
    parts = [int(p) for p in s.split(":")]
    if len(parts) == 1:
        return float(parts[0] * 60)
    if len(parts) == 2:
        return float(parts[0] * 60 + parts[1])
    return float((parts[0] * 60 + parts[1]) * 60 + parts[2])


def time_str2mins(text: str) -> float:
    """Whole minutes Slurm reads from ``text``: seconds rounded **up** (``(s + 59) / 60``).

    Raises:
        TimeStringError: as :func:`time_str2secs`.
    """
    secs = time_str2secs(text)
    if math.isinf(secs):
        return secs
    return float((int(secs) + 59) // 60)


def format_slurm_time(seconds: float) -> str:
    """Slurm's display of a duration: ``D-HH:MM:SS`` with days, else ``HH:MM:SS``."""
    if math.isinf(seconds):
        return "UNLIMITED"
    total = int(seconds)
    days, rem = divmod(total, 86400)
    hours, rem = divmod(rem, 3600)
    minutes, secs = divmod(rem, 60)
    if days > 0:
        return f"{days}-{hours:02d}:{minutes:02d}:{secs:02d}"
    return f"{hours:02d}:{minutes:02d}:{secs:02d}"


#: INFINITE minutes as slurmctld stores ``PriorityMaxAge`` or ``PriorityDecayHalfLife``:
#: ``(uint32_t)(-1 * 60)`` seconds.
STORED_INFINITE_MAX_AGE = 4294967236


def _c_int(number: int) -> int:
    """``number`` as a 32-bit C ``int`` that overflowed keeps it (two's complement)."""
    return (number + 2**31) % 2**32 - 2**31


def slurm_conf_minutes(text: str, knob: str) -> float:
    """A knob slurm.conf gives in minutes (``PriorityMaxAge``, ``PriorityDecayHalfLife``),
    in seconds as slurmctld stores it (``_validate_and_set_defaults`` in read_config.c,
    22.05 and 26.05 alike): ``time_str2mins`` in a C ``int``, times 60, into a
    ``uint32_t``. INFINITE (-1 minutes) is stored as 4294967236 seconds
    (:data:`STORED_INFINITE_MAX_AGE`), a finite time.

    ``time_str2secs`` adds up its seconds in an ``int`` and ``ROUNDUP`` adds 59 to them,
    so a time of 2^31 − 59 seconds (about 68 years) or more overflows: one whose sum wraps
    below 0 is refused, one that wraps past 2^32 is read as what is left (``100000000``
    minutes: 6,000,000,000 seconds, read as 1,705,032,704, rounded up to 28,417,212
    minutes: 1,705,032,720 seconds).

    Raises:
        TimeStringError: what :func:`time_str2secs` refuses, and what slurmctld refuses
            (``Bad value ... for`` ``knob``: a negative number of minutes).
    """
    secs = time_str2secs(text)
    if math.isinf(secs):
        return float(STORED_INFINITE_MAX_AGE)
    wrapped = _c_int(int(secs))
    if wrapped == -1:  # (time_str2secs's INFINITE: time_str2mins passes it on)
        return float(STORED_INFINITE_MAX_AGE)
    minutes = wrapped if wrapped == -2 else int(_c_int(wrapped + 59) / 60)  # (C division)
    if minutes < 0 and minutes != -1:
        raise TimeStringError(
            f'"{shown(text)}" overflows the int slurmctld reads it in (about 68 years or '
            f'more): {minutes} minutes, refused ("Bad value" for {knob})'
        )
    return float(minutes * 60 % 2**32)


#: Seconds in a unit a length is often written with (``6h``, ``1d``), which neither a
#: number nor a Slurm time string spells.
_UNITS = {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "w": 604800}


def unit_hint(text: str, number: str = "", per: int = 1) -> str:
    """`` (for 6h give 06:00:00, or 21600)`` for a length written with a unit, else "";
    ``number`` before the seconds (``"the number "``) where a text of digits is minutes,
    as in a TOML or JSON file's Slurm time string; ``per``: the seconds a plain number
    counts where it is not seconds (60: ``fs submit --time-limit``, sbatch's minutes)."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*", text.lower())
    if found is None or found.group(2) not in _UNITS:
        return ""
    secs = float(found.group(1)) * _UNITS[found.group(2)]
    if not 0 < secs < 1e12 or not secs.is_integer():
        return ""
    plain = f", or {number}{secs / per:.0f}" if secs % per == 0 else ""
    return f" (for {text.strip()} give {format_slurm_time(secs)}{plain})"
