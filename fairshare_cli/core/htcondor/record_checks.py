"""What an accountant record of the state may hold: known fields, each within its range.

Kept apart from the reader (``accountant_decode``, which converts the fields, and whose
msgspec pass takes its ranges from here) so that the rule reads in one place: usage is
never negative, a priority factor is at least 1, as ``condor_userprio -setfactor``
requires, a floor is 0 or more and a ceiling -1 or more (whole numbers, as the accountant
stores them); a field this fs does not know would be dropped on the next write, so it is
refused rather than read as absent.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from fairshare_cli.core.limits import INT32_MAX, TIME_MAX, TIME_MIN
from fairshare_cli.core.names import json_shown
from fairshare_cli.core.state import SectionError
from fairshare_cli.errors import did_you_mean

#: Whole-number fields held in a C ``int`` (``Accountant::SetFloor``/``SetCeiling``).
C_INTS = frozenset({"floor", "ceiling"})

#: Times (epoch seconds): within the years 1 to 9999, as every time fs reads, so that
#: ``--json`` and ``-l`` can print them.
TIMES = frozenset({"begin_usage_time", "last_usage_time", "last_update"})

#: The least value of each record field that has one.
LEAST: dict[str, float] = {
    "priority_factor": 1.0,
    "floor": 0.0,
    "ceiling": -1.0,
    **dict.fromkeys(
        (
            "resources_used",
            "weighted_resources_used",
            "hier_weighted_resources_used",
            "accumulated_usage",
            "weighted_accumulated_usage",
            "uncharged_time",
            "weighted_uncharged_time",
        ),
        0.0,
    ),
}


def finite(value: float) -> bool:
    """Whether ``value`` is a finite number (a whole number beyond any float is not)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def check_record(name: str, body: Any, fields: Iterable[str]) -> None:
    """Refuse a record that is not an object, has an unknown field or a value out of range.

    Raises:
        SectionError: naming ``accountant.records.<name>`` and the field.
    """
    if not isinstance(body, dict):
        raise SectionError(f"accountant.records.{name}: expected an object")
    known = tuple(fields)
    for f, v in body.items():
        if f not in known:
            extra = did_you_mean(str(f), known)
            raise SectionError(f"accountant.records.{name}: unknown field {f!r}{extra}")
        least = LEAST.get(f)
        numeric = type(v) in (int, float) and finite(v)
        if f in C_INTS and not (numeric and v == int(v) and v <= INT32_MAX):
            raise SectionError(
                f"accountant.records.{name}.{f}: expected a whole number up to "
                f"{INT32_MAX}, got {json_shown(v)}"
            )
        if f in TIMES and numeric and not TIME_MIN <= v <= TIME_MAX:
            raise SectionError(
                f"accountant.records.{name}.{f}: expected a time between the years 1 and "
                f"9999 (epoch seconds {TIME_MIN:.0f} to {TIME_MAX:.0f}), got {json_shown(v)}"
            )
        if least is not None and numeric and v < least:
            raise SectionError(
                f"accountant.records.{name}.{f}: expected {least:g} or more, got {json_shown(v)}"
            )
