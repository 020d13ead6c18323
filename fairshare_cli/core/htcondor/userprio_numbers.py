"""The group numbers and display order ``condor_userprio`` gives its rows (``-groupid``
and ``-order`` print them), as ``CollectInfo`` in ``user_prio.cpp`` works them out.

While it reads the ads, a group gets the negative of its place among them (``<none>``
0), a user of ``<none>`` 0 and a user inside a group a placeholder of twice the number of
ads read, negated. Once it has read a user inside a group, it renumbers: the groups read,
sorted by name with case counting (``<none>`` last), get 1, 2, ... (``<none>`` keeps 0),
and each user takes its group's number, a user whose group's ad was not read keeping the
placeholder. Only then does a row get a display order: a group its ``GroupSortKey``
while the priority columns show, else its weighted usage in hours while the usage
columns show, else its number (``<none>`` ``FLT_MAX``); each user its group's (a user of
``<none>`` the first group's by name when ``<none>``'s ad was not read). A row with
number 0 has none to print, and a row without a display order prints none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fairshare_cli.core.float32 import FLT_MAX
from fairshare_cli.core.htcondor.accountant import ROOT_GROUP
from fairshare_cli.core.htcondor.userprio_rollup import breadth_first
from fairshare_cli.core.htcondor.userprio_row import UserprioRow


def numbered_rows(
    rows: Sequence[UserprioRow],
    groups_read: Sequence[UserprioRow],
    *,
    renumbered: bool,
    ads_read: int,
    configured: Iterable[str] | None,
    show_priority: bool,
    show_usage: bool,
) -> list[UserprioRow]:
    """``rows`` with their ``group_id`` and ``display_order`` set.

    Args:
        rows: the rows to print (any order).
        groups_read: the rows of the group ads read, active or not, ``<none>``'s among
            them if read.
        renumbered: whether a user inside a group was among the ads read.
        ads_read: how many ads were read (the placeholder is twice this, negated).
        configured: the configured groups, whose breadth-first order from ``<none>``
            is the groups' places in the negotiator's one ad; None for the collector's
            ads, whose order no one fixes (a group then gets no number: NaN).
        show_priority / show_usage: which column families show (the display order's
            source).
    """
    if not renumbered:
        place = (
            {} if configured is None else {g: i for i, g in enumerate(breadth_first(configured))}
        )
        return [_unnumbered(row, place, configured is None) for row in rows]
    by_name = {row.name: row for row in groups_read}
    ranked = sorted(name for name in by_name if name != ROOT_GROUP)  # (std::string's <)
    ids = {name: float(i) for i, name in enumerate(ranked, 1)}
    read = set(by_name)
    orders: dict[str, float] = {}
    for name in [*ranked, ROOT_GROUP] if ROOT_GROUP in read else ranked:
        row = by_name[name]
        if show_priority:
            order = row.sort_key or 0.0  # (the ad's GroupSortKey, as --long prints it)
        elif show_usage:
            order = row.weighted_accumulated_usage_hours
        else:
            order = ids.get(name, FLT_MAX)
        orders[name] = order
    if ROOT_GROUP not in read and ranked:  # (the first row after sorting stands in)
        orders[ROOT_GROUP] = orders[ranked[0]]
    placeholder = -2.0 * ads_read
    out = []
    for row in rows:
        group = row.name if row.is_group else row.group
        if row.is_group:
            gid = ids.get(group, 0.0)
        elif group == ROOT_GROUP:
            gid = 0.0
        else:
            gid = ids.get(group, placeholder)
        out.append(row._replace(group_id=gid, display_order=orders.get(group)))
    return out


def _unnumbered(row: UserprioRow, place: dict[str, int], unknown: bool) -> UserprioRow:
    """A row as read, before any renumbering: a group its place negated (NaN where the
    place is not known), everything else 0; no display order."""
    if not row.is_group or row.name == ROOT_GROUP:
        return row._replace(group_id=0.0)
    gid = float("nan") if unknown else -float(place.get(row.name, 0) + 1)
    return row._replace(group_id=gid)
