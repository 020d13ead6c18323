"""One row of ``condor_userprio`` and a group's quotas: the records the userprio view,
its roll-up and its renderers pass around (a leaf: it imports nothing of fs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class GroupQuotaInfo:
    """What the negotiator knows of a group this cycle (filled by the quota computation)."""

    effective_quota: float | None = None
    subtree_quota: float | None = None
    sort_key: float | None = None


class UserprioRow(NamedTuple):
    """One line of ``condor_userprio``: a submitter or a group.

    A named tuple, not a frozen dataclass: 20,000 of them are built per view, positionally
    in field order (``benchmarks/run.py --rows userprio``).
    """

    name: str
    is_group: bool
    group: str
    effective_priority: float
    real_priority: float
    priority_factor: float
    resources_in_use: int
    weighted_resources_in_use: float
    accumulated_usage_hours: float
    weighted_accumulated_usage_hours: float
    begin_usage_time: float
    last_usage_time: float
    requested: float | None = None
    config_quota: float | None = None
    effective_quota: float | None = None
    subtree_quota: float | None = None
    sort_key: float | None = None
    surplus: str = ""
    floor: float = 0.0
    ceiling: float = -1.0
    #: The factor the table prints (-allusers: a group's GROUP_PRIO_FACTOR_<g>, 0 = blank).
    table_factor: float | None = None
    #: The accumulated usages in seconds, as the accountant holds them (the ad's values:
    #: the footer sums these, ``-l`` prints them).
    accumulated_usage: float = 0.0
    weighted_accumulated_usage: float = 0.0
    #: ``-groupid`` and ``-order``: the group number and display order ``CollectInfo``
    #: gives the row (:mod:`~fairshare_cli.core.htcondor.userprio_numbers`); None: not asked.
    group_id: float | None = None
    display_order: float | None = None
