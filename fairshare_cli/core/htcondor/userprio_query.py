"""What ``condor_userprio``'s display options ask the view for: names, the activity
filter, row order and which ads are read (``user_prio.cpp``'s ``main``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fairshare_cli.core.htcondor import accountant as acct

SORT_KEYS = ("priority", "name", "usage", "factor", "in-use", "last-usage")


@dataclass(frozen=True)
class UserprioQuery:
    """What ``condor_userprio``'s options ask for.

    Attributes:
        names: named submitters or groups: ``user@domain`` exactly, a bare name any record
            whose name before the ``@`` is that; only those show, and only when active
            (``user_prio.cpp`` adds names to the collector query, and its activity filter,
            ``MinLastUsageTime``, still drops the ads older than the cutoff).
        all_users: ``-allusers``: no activity filter.
        hierarchical: ``-hier`` (True: hierarchical when a shown row has a group number,
            else flat; group rows shown under ``-priority`` too) or ``-flat`` (False);
            None = HTCondor's choice.
        sort: flat order key (see :data:`SORT_KEYS`); HTCondor's own is ``priority``.
        show_priority / show_usage: which column families show (for the default order).
        priority_only: only the priority columns show (``-priority``): flat by default.
        group_rollup: ``-grouprollup``: the negotiator's rollup ad (every record, past the
            activity filter unless ``all_users``), each group's usage summed over its
            subgroups (:mod:`~fairshare_cli.core.htcondor.userprio_rollup`).
        group_order: ``-grouporder``: in the flat table the groups first, breadth-first.
        active_from: ``-activefrom``: the activity filter's cutoff (epoch seconds), in
            place of 24 hours before the clock.
        from_negotiator: ``-negotiator``: the negotiator's one ad (every record, each
            group's factor its ``GROUP_PRIO_FACTOR_<g>``), past the activity filter.
        group_numbers: ``-groupid`` or ``-order``: each row's group number and display
            order (:mod:`~fairshare_cli.core.htcondor.userprio_numbers`).
    """

    names: Sequence[str] = ()
    all_users: bool = False
    hierarchical: bool | None = None
    sort: str = "priority"
    show_priority: bool = True
    show_usage: bool = True
    priority_only: bool = False
    group_rollup: bool = False
    group_order: bool = False
    active_from: float | None = None
    from_negotiator: bool = False
    group_numbers: bool = False

    @property
    def negotiator_ad(self) -> bool:
        """Whether the rows are the negotiator's one ad (``-allusers``, ``-grouprollup``,
        ``-negotiator``), not the collector's Accounting ads (plain ``condor_userprio``)."""
        return self.all_users or self.group_rollup or self.from_negotiator

    def wanted(self, name: str) -> bool:
        """Like condor_userprio: ``user@domain`` and ``<none>`` match exactly, a bare name
        matches the part before the ``@`` (any domain; a group record's whole name)."""
        if not self.names:
            return True
        if name in self.names:
            return True
        short = name.split("@", 1)[0]
        return any(short == n for n in self.names if "@" not in n and n != acct.ROOT_GROUP)
