"""One accountant record (``Accountant.cpp``'s customer record): the type every reader,
update and replay of the accountant shares.

It is a msgspec struct (``gc=False``: it holds numbers and text only) so that the one reader
(:mod:`accountant_decode`) converts the state's records straight into it in C; its fields
carry the ranges of :mod:`record_checks` for that pass (construction and assignment check
nothing). Copies are made with :func:`msgspec.structs.replace`.
"""

from __future__ import annotations

import sys
from typing import Annotated

import msgspec

from fairshare_cli.core.htcondor.record_checks import C_INTS, LEAST, TIMES
from fairshare_cli.core.limits import INT32_MAX, INT64_MAX, TIME_MAX, TIME_MIN

#: The least real user priority (``Accountant::UpdateOnePriority`` clamps to it).
MIN_PRIORITY = 0.5


def as_stored(value: float) -> float:
    """A number as the accountant keeps it: HTCondor writes every float of a record as
    ``%f`` text (six decimals, rounded) to its log and reads the record back from there
    (``ClassAdLogAccountantDB::SetAttributeFloat``), so a priority of 0.86016512 is 0.860165
    from then on (``condor_userprio -l`` prints 860.165 at factor 1000). ``round(x, 6)`` is
    that text read back, bit for bit: both round the exact binary value, ties to even."""
    return round(value, 6)


_BIG = sys.float_info.max  # a float bound that refuses NaN and the infinities too


def _range(name: str) -> msgspec.Meta:
    """The range the reader's pass holds field ``name`` to (:mod:`record_checks`' rule)."""
    least = LEAST.get(name)
    if name in C_INTS:
        return msgspec.Meta(ge=int(least or 0), le=INT32_MAX)
    if name == "resources_used":  # (beyond 64 bits: the exact reader words the refusal)
        return msgspec.Meta(ge=int(least or 0), le=INT64_MAX)
    if name in TIMES:
        return msgspec.Meta(ge=TIME_MIN, le=TIME_MAX)
    return msgspec.Meta(ge=-_BIG if least is None else least, le=_BIG)


#: A ``name`` in a record's body matches no text: the pass refuses it (the exact reader
#: words the error); the name is the key the record is stored under.
_NO_TEXT = msgspec.Meta(pattern="(?!)")

_PRIORITY = _range("priority")
_LAST_UPDATE = _range("last_update")
_FACTOR = _range("priority_factor")
_RESOURCES = _range("resources_used")
_WRU = _range("weighted_resources_used")
_HWRU = _range("hier_weighted_resources_used")
_ACC = _range("accumulated_usage")
_WACC = _range("weighted_accumulated_usage")
_BEGIN = _range("begin_usage_time")
_LAST_USAGE = _range("last_usage_time")
_UNCHARGED = _range("uncharged_time")
_WUNCHARGED = _range("weighted_uncharged_time")
_FLOOR = _range("floor")
_CEILING = _range("ceiling")


class CustomerRecord(msgspec.Struct, gc=False, forbid_unknown_fields=True):
    """One accountant record (a submitter or a group), valid as of ``last_update``.

    ``priority`` is the RUP without the factor. ``priority_factor`` is the stored factor (by
    ``setfactor``, or derived and stored when ``fs`` first writes the record, as
    ``GetPriorityFactor`` stores it on first read); None until then. ``uncharged_time`` (and
    its weighted twin) is ``UnchargedTime``, the correction matches made or removed since
    ``last_update`` leave for the next update. ``Floor`` (0 = none) and ``Ceiling`` (-1 =
    unlimited) are set by edits. Usages are in (weighted) slot-seconds; times: epoch, 0 = never.

    A record held in an :class:`~fairshare_cli.core.htcondor.accountant.AccountantState` is
    a value: functions that change one return a changed copy. Only code that made its own
    copies changes them in place (the replays, with
    :func:`~fairshare_cli.core.htcondor.decay.update_one_priority`, and
    :func:`~fairshare_cli.core.htcondor.accountant.change_uses`).
    """

    name: Annotated[str, _NO_TEXT] = ""
    is_group: bool = False
    priority: Annotated[float, _PRIORITY] = MIN_PRIORITY
    last_update: Annotated[float, _LAST_UPDATE] | None = None
    priority_factor: Annotated[float, _FACTOR] | None = None
    resources_used: Annotated[int, _RESOURCES] = 0
    weighted_resources_used: Annotated[float, _WRU] = 0.0
    hier_weighted_resources_used: Annotated[float, _HWRU] = 0.0
    accumulated_usage: Annotated[float, _ACC] = 0.0
    weighted_accumulated_usage: Annotated[float, _WACC] = 0.0
    begin_usage_time: Annotated[float, _BEGIN] = 0.0
    last_usage_time: Annotated[float, _LAST_USAGE] = 0.0
    uncharged_time: Annotated[float, _UNCHARGED] = 0.0
    weighted_uncharged_time: Annotated[float, _WUNCHARGED] = 0.0
    floor: Annotated[int, _FLOOR] = 0
    ceiling: Annotated[int, _CEILING] = -1


#: The stored fields, in the record's order (``name`` is the key the record is stored under).
STORED_FIELDS: tuple[str, ...] = CustomerRecord.__struct_fields__[1:]
