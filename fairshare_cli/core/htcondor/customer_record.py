"""One accountant record (``Accountant.cpp``'s customer record): the type every reader,
update and replay of the accountant shares. A leaf: it imports nothing of the package.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

#: The least real user priority (``Accountant::UpdateOnePriority`` clamps to it).
MIN_PRIORITY = 0.5


@dataclass(slots=True)
class CustomerRecord:
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

    name: str
    is_group: bool = False
    priority: float = MIN_PRIORITY
    last_update: float | None = None
    priority_factor: float | None = None
    resources_used: int = 0
    weighted_resources_used: float = 0.0
    hier_weighted_resources_used: float = 0.0
    accumulated_usage: float = 0.0
    weighted_accumulated_usage: float = 0.0
    begin_usage_time: float = 0.0
    last_usage_time: float = 0.0
    uncharged_time: float = 0.0
    weighted_uncharged_time: float = 0.0
    floor: int = 0
    ceiling: int = -1


#: The stored fields, in the record's order (``name`` is the key the record is stored under).
STORED_FIELDS = tuple(f.name for f in fields(CustomerRecord))[1:]
