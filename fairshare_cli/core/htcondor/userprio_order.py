"""The order of ``condor_userprio``'s rows: flat (``fs userprio --sort``) by a field, ties
by name (HTCondor sorts with an unstable sort; equal keys here are ordered by name), and
hierarchical (:func:`hierarchical_order`: each group row with its submitters under it).

Rows are tuples (``UserprioRow``) and fields are named by position: a positional getter is
faster than the named attribute. A measured hot path (``benchmarks/run.py --rows
userprio``): 20,000 rows are sorted by name, then stably by the field alone, which gives the
order of the (field, name) key in a fraction of its time while the field's values are
ordered (no NaN); otherwise the key itself (``tests/core/htcondor/test_userprio_order.py``).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from operator import eq, itemgetter
from typing import Any

from fairshare_cli.core.float32 import FLT_MAX
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.userprio_row import UserprioRow

#: The name's position in a row (its first field).
NAME = 0
Row = Sequence[Any]


def sort_order(sort: str, show_priority: bool, show_usage: bool) -> tuple[str | None, bool]:
    """The flat order: the field rows are sorted by before their name (None: by name
    only), and whether that field goes from the largest down."""
    if sort == "name" or (sort == "priority" and not show_priority and not show_usage):
        return None, False
    if sort == "factor":
        return "priority_factor", False
    if sort == "in-use":
        return "weighted_resources_in_use", True
    if sort == "last-usage":
        return "last_usage_time", True
    if sort == "usage" or (sort == "priority" and not show_priority):
        return "weighted_accumulated_usage_hours", False
    return "effective_priority", False


def sort_key(at: int | None, descending: bool) -> Callable[[Row], Any]:
    """The key of a row in the flat order, its field at position ``at`` (None: the name
    alone), ties by name."""
    if at is None:
        return itemgetter(NAME)
    if descending:
        get = itemgetter(at)
        return lambda r: (-get(r), r[NAME])
    return itemgetter(at, NAME)


def sorted_rows(rows: list[Any], at: int | None, descending: bool) -> list[Any]:
    """``sorted(rows, key=sort_key(at, descending))``: by name, then (a stable sort) by
    the field alone, which compares floats faster than (value, name) tuples do and gives
    the same order while the values are ordered (:func:`ordered`)."""
    if at is None or not ordered(rows, at):
        return sorted(rows, key=sort_key(at, descending))
    by_name = sorted(rows, key=itemgetter(NAME))  # records come sorted by name: one pass
    return sorted(by_name, key=itemgetter(at), reverse=descending)  # reverse keeps ties


def with_rows(
    ordered_rows: list[Any], more: list[Any], at: int | None, descending: bool
) -> list[Any]:
    """``sorted(ordered_rows + more, key=sort_key(at, descending))`` for ``ordered_rows``
    already in that order: a few more rows each put in its place (bisect), while the key
    orders them all (unique names, no NaN)."""
    key = sort_key(at, descending)
    if len(more) > 8 or (at is not None and not ordered([*ordered_rows, *more], at)):
        return sorted(ordered_rows + more, key=key)
    out = list(ordered_rows)
    for row in more:
        insort(out, row, key=key)
    return out


def ordered(rows: list[Any], at: int) -> bool:
    """Whether every row's field at ``at`` equals itself (no NaN): ``<`` then orders them
    as the (field, name) key does."""
    values = list(map(itemgetter(at), rows))
    return all(map(eq, values, values))


def hierarchical_order(
    users: list[UserprioRow],
    groups: list[UserprioRow],
    key: Callable[[UserprioRow], Any],
    show_priority: bool,
    show_usage: bool,
    none_last: bool,
    unread: frozenset[str] = frozenset(),
) -> list[UserprioRow]:
    """The hierarchical table's rows: each group row, then its submitters in ``key``'s
    order; groups by ``DisplayOrder`` (their sort key, else their priority, when the
    priority shows; their usage when only usage shows; else by group id,
    ``SortHierByGroupId``: ``<none>`` first unless ``none_last``), ties by group id:
    ``CollectInfo`` numbers the groups by name, case counting (``std::string``'s ``<``:
    ``group_B`` before ``group_a``).

    A user whose group's ad was not read (a group in ``unread``: names asked for the user
    and not the group) keeps a negative placeholder number and no display order (0): such
    users come first, as one block with no group row, while their display order ties with
    the groups' or they sort by number. Users of ``<none>`` with no ``<none>`` row take the
    first group's display order by name (``CollectInfo`` copies it from its first row) and
    number 0: just before that group, or last when ``<none>`` goes last.
    """
    ids = {
        g.name: i
        for i, g in enumerate(
            sorted((g for g in groups if g.name != acct.ROOT_GROUP), key=itemgetter(NAME))
        )
    }
    ids[acct.ROOT_GROUP] = len(ids)
    have_keys = any(g.sort_key is not None for g in groups)

    def display_order(g: UserprioRow) -> tuple[float, int]:
        if show_priority:
            if have_keys:
                key = g.sort_key if g.sort_key is not None else FLT_MAX
            else:  # no sort keys: the group's priority stands in (<none> last)
                key = g.effective_priority if g.name != acct.ROOT_GROUP else FLT_MAX
        elif show_usage:
            key = g.weighted_accumulated_usage_hours
        else:  # SortHierByGroupId: <none> (id 0) first, last only under regroup
            key = float(ids[g.name] if g.name != acct.ROOT_GROUP or none_last else -1)
        return (key, ids.get(g.name, len(ids)))

    by_group: dict[str, list[UserprioRow]] = {}
    for u in users:
        by_group.setdefault(u.group, []).append(u)
    names_present = {g.name for g in groups}
    blocks: list[tuple[tuple[float, float], list[UserprioRow]]] = []
    for g in groups:
        blocks.append((display_order(g), [g, *sorted(by_group.pop(g.name, []), key=key)]))
    last = _unread_blocks(
        blocks, by_group, unread, groups, display_order, key, show_priority or show_usage, none_last
    )
    out: list[UserprioRow] = []
    for _, block in sorted(blocks, key=itemgetter(0)):
        out.extend(block)
    for gname in sorted(by_group):  # users whose group row was filtered out
        if gname not in names_present:
            out.extend(sorted(by_group[gname], key=key))
    return out + last


def _unread_blocks(
    blocks: list[tuple[tuple[float, float], list[UserprioRow]]],
    by_group: dict[str, list[UserprioRow]],
    unread: frozenset[str],
    groups: list[UserprioRow],
    display_order: Callable[[UserprioRow], tuple[float, int]],
    key: Callable[[UserprioRow], Any],
    by_order: bool,
    none_last: bool,
) -> list[UserprioRow]:
    """Add to ``blocks`` (taking them from ``by_group``) the users whose group's ad was
    not read (see :func:`hierarchical_order`); return those that go last."""
    orphans = [u for name in sorted(by_group) if name in unread for u in by_group.pop(name)]
    if orphans:  # (number -2N: below every group's; display order 0)
        blocks.append(((0.0 if by_order else -FLT_MAX, -2.0), sorted(orphans, key=key)))
    root_users = by_group.pop(acct.ROOT_GROUP, []) if acct.ROOT_GROUP in unread else []
    if not root_users or none_last:
        return sorted(root_users, key=key)
    at = _first_group_order(groups, display_order) if by_order else -1.0
    blocks.append(((at, -1.5), sorted(root_users, key=key)))  # (number 0: below the first's)
    return []


def _first_group_order(
    groups: list[UserprioRow], display_order: Callable[[UserprioRow], tuple[float, int]]
) -> float:
    """The display order of the first group by name (0 with none), which ``CollectInfo``
    gives the users of an unread ``<none>``."""
    named = sorted((g for g in groups if g.name != acct.ROOT_GROUP), key=itemgetter(NAME))
    return display_order(named[0])[0] if named else 0.0


def without_leading_root(ordered: list[Any]) -> list[Any]:
    """The flat table without ``<none>`` when it is the first group row: with no group
    numbered, ``PrintInfo`` hides it until it has printed another group's row."""
    flags = list(map(itemgetter(1), ordered))  # is_group
    if True in flags:
        first = flags.index(True)  # names are unique: only a first group can be <none>
        if ordered[first].name == acct.ROOT_GROUP:
            return ordered[:first] + ordered[first + 1 :]
    return ordered
