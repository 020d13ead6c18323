"""Hierarchical group quotas (HGQ): the group tree and how quota and surplus flow down it.

Mirrors ``GroupEntry`` in HTCondor's ``src/condor_negotiator.V6/GroupEntry.cpp`` (reference
§4): the group tree built from the configured groups, the group a submitter negotiates in,
quota assignment from the pool size down the tree (static children first, dynamic fractions
of what is left, scaled when they ask for more than the parent has unless oversubscription
is allowed) and the allocation of one round (fair share of each group's demand, surplus
sharing by quota, recovery of fractional remainders when slot weights are off). The
cycle-by-cycle group negotiation is :mod:`fairshare_cli.core.htcondor.quotas`.

The seed (HTCondor 7 manual §3.4.8) describes the behaviour with oversubscription and slot
weights off (profile ``legacy``); today's defaults turn both on (profile ``current``).
Everything is pure: usage comes in through a callable, negotiation goes out through one.
"""

from __future__ import annotations

import math
import sys
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from fairshare_cli.core.cpp_sort import cpp_sort
from fairshare_cli.core.limits import INT32_MAX
from fairshare_cli.errors import ConfigError

T = TypeVar("T")

ROOT = "<none>"
#: DBL_MAX: the round-robin time of a subtree that requests nothing (``subtree_rr_time``).
RR_TIME_NONE = sys.float_info.max
#: Default GROUP_SORT_EXPR (HTCondor 8.x and later; also what 7.x ordered by).
DEFAULT_GROUP_SORT_EXPR = (
    'ifThenElse(AccountingGroup=?="<none>",3.4e+38,'
    "ifThenElse(GroupQuota>0,GroupResourcesInUse/GroupQuota,3.3e+38))"
)


@dataclass(frozen=True)
class GroupConfig:
    """One configured accounting group (``[groups."name"]``).

    Attributes:
        name: dotted group name (``group_physics.hep``).
        quota: static quota in slots (``GROUP_QUOTA_<name>``), or None.
        dynamic_quota: fraction of the parent's quota (``GROUP_QUOTA_DYNAMIC_<name>``).
        accept_surplus: ``GROUP_ACCEPT_SURPLUS_<name>``.
        autoregroup: ``GROUP_AUTOREGROUP_<name>``.
    """

    name: str
    quota: float | None = None
    dynamic_quota: float | None = None
    accept_surplus: bool = False
    autoregroup: bool = False


@dataclass(frozen=True)
class QuotaKnobs:
    """The negotiator knobs that shape group quotas (docs/config.md ``[negotiator]``)."""

    allow_quota_oversubscription: bool = False
    use_slot_weights: bool = False
    strict_enforce_quota: bool = True
    group_quota_max_allocation_rounds: int = 3
    group_quota_round_robin_rate: float = 1e100
    group_sort_expr: str = DEFAULT_GROUP_SORT_EXPR
    consider_preemption: bool = True


@dataclass(eq=False)
class GroupNode:
    """A group in the HGQ tree, with the working values of one negotiation cycle."""

    name: str
    parent: GroupNode | None = None
    children: list[GroupNode] = field(default_factory=list)
    config_quota: float = 0.0
    static_quota: bool = False
    accept_surplus: bool = False
    autoregroup: bool = False
    configured: bool = False
    # working values (reset every cycle)
    quota: float = 0.0
    subtree_quota: float = 0.0
    requested: float = 0.0
    currently_requested: float = 0.0
    allocated: float = 0.0
    subtree_requested: float = 0.0
    usage: float = 0.0
    subtree_usage: float = 0.0
    rr: bool = False
    rr_time: float = 0.0
    subtree_rr_time: float = 0.0
    sort_key: float = 0.0
    submitters: list[str] = field(default_factory=list)
    first_limit: int | None = None

    @property
    def parent_name(self) -> str | None:
        """The parent's name, None for the root."""
        return None if self.parent is None else self.parent.name


@dataclass(eq=False)
class GroupTree:
    """The group tree: root ``<none>``, groups in breadth-first order, lookup by name."""

    root: GroupNode
    groups: list[GroupNode]
    by_name: dict[str, GroupNode]
    autoregroup: bool
    accept_surplus: bool
    #: submitter -> the group it negotiates in (:func:`assigned_group`), as found
    assigned: dict[str, GroupNode] = field(default_factory=dict, repr=False)

    def find(self, name: str) -> GroupNode | None:
        """Return the group called ``name`` (case-insensitive), or None."""
        return self.by_name.get(name.lower())


def validate_group_configs(configs: Iterable[GroupConfig], source: str = "config") -> None:
    """Check quotas and the tree shape, raising one clear error for the first problem.

    HTCondor clamps bad quotas and ignores a group whose parent is missing (with a log
    warning); here both are configuration errors.

    Raises:
        ConfigError: naming the ``[groups."name"]`` key and what was expected.
    """
    items = list(configs)
    names = {c.name.lower() for c in items}
    seen: set[str] = set()
    for c in items:
        key = f'{source}: [groups."{c.name}"]'
        if not c.name or c.name == ROOT or any(not part for part in c.name.split(".")):
            raise ConfigError(f"{key}: not a valid group name")
        if c.name.lower() in seen:
            raise ConfigError(f"{key}: duplicate group (names are case-insensitive)")
        seen.add(c.name.lower())
        if c.quota is not None and not (0 <= c.quota <= INT32_MAX):
            raise ConfigError(f"{key} quota = {c.quota!r}: expected a number of slots >= 0")
        if c.dynamic_quota is not None and not (0.0 <= c.dynamic_quota <= 1.0):
            raise ConfigError(
                f"{key} dynamic_quota = {c.dynamic_quota!r}: expected a fraction between 0 and 1"
            )
        if "." in c.name:
            parent = c.name.rsplit(".", 1)[0]
            if parent.lower() not in names:
                raise ConfigError(f'{key}: parent group "{parent}" is not configured')


def build_group_tree(
    configs: Iterable[GroupConfig],
    source: str = "config",
    global_accept_surplus: bool = False,
    global_autoregroup: bool = False,
) -> GroupTree:
    """Build the HGQ tree from the configured groups (``hgq_construct_tree``).

    Groups are sorted case-insensitively so parents come before children; the root
    ``<none>`` always accepts surplus. Surplus sharing is global, and the root autoregroups,
    when any group does or when the global ``GROUP_ACCEPT_SURPLUS`` / ``GROUP_AUTOREGROUP``
    is true, even if every group overrides it to false.

    Raises:
        ConfigError: from :func:`validate_group_configs`.
    """
    items = sorted(configs, key=lambda c: c.name.lower())
    validate_group_configs(items, source)
    root = GroupNode(name=ROOT, accept_surplus=True, configured=True)
    by_name: dict[str, GroupNode] = {ROOT: root}
    any_autoregroup = global_autoregroup
    any_accept = global_accept_surplus
    for c in items:
        parent = by_name[c.name.rsplit(".", 1)[0].lower()] if "." in c.name else root
        if c.quota is not None:
            config_quota, static = float(c.quota), True
        elif c.dynamic_quota is not None:
            config_quota, static = float(c.dynamic_quota), False
        else:  # HTCondor: "no quota specified ... defaulting to zero"
            config_quota, static = 0.0, False
        node = GroupNode(
            name=c.name,
            parent=parent,
            config_quota=config_quota,
            static_quota=static,
            accept_surplus=c.accept_surplus,
            autoregroup=c.autoregroup,
            configured=True,
        )
        parent.children.append(node)
        by_name[c.name.lower()] = node
        any_autoregroup = any_autoregroup or c.autoregroup
        any_accept = any_accept or c.accept_surplus
    root.autoregroup = any_autoregroup
    groups: list[GroupNode] = []
    queue: deque[GroupNode] = deque([root])
    while queue:
        node = queue.popleft()
        groups.append(node)
        queue.extend(node.children)
    return GroupTree(root, groups, by_name, any_autoregroup, any_accept)


def assigned_group(tree: GroupTree, submitter: str) -> GroupNode:
    """The group a submitter negotiates in (``Accountant::GetAssignedGroup``).

    Drop the text from the last ``@``; everything before the last ``.`` is the group path;
    walk down the tree as far as the path matches; no ``.`` means the root.
    """
    found = tree.assigned.get(submitter)
    if found is None:  # the tree's groups do not change: each name is walked once
        found = deepest_group(group_path(submitter), tree.by_name.get) or tree.root
        tree.assigned[submitter] = found
    return found


def group_path(submitter: str) -> str:
    """The dotted group path of a submitter name, ``""`` for none.

    The text before the last ``@``, then before the last ``.``: ``group_a.b.alice@x`` ->
    ``group_a.b``; ``alice@x`` -> ``""``.
    """
    name = submitter.rsplit("@", 1)[0] if "@" in submitter else submitter
    return name.rsplit(".", 1)[0] if "." in name else ""


def deepest_group(path: str, lookup: Callable[[str], T | None]) -> T | None:
    """The deepest prefix of a dotted group path that ``lookup`` knows, or None.

    ``lookup`` gets each prefix lower-cased (group names are case-insensitive), shortest
    first; the walk stops at the first prefix it does not know.
    """
    found: T | None = None
    prefix = ""
    for part in path.split("."):
        prefix = f"{prefix}.{part}" if prefix else part
        hit = lookup(prefix.lower())
        if hit is None:
            break
        found = hit
    return found


def assign_quotas(node: GroupNode, quota: float, oversubscription: bool) -> None:
    """Hand ``quota`` to ``node``'s subtree (``GroupEntry::hgq_assign_quotas``, reference §4.2).

    Static children are served first (scaled down to fit unless oversubscription is on),
    dynamic children share what is left by their fractions (normalised when they sum above
    1). The node keeps what its children leave — or, with oversubscription, its whole
    ``quota`` — except the root, which always keeps only the leftover.
    """
    if quota <= 0:
        return
    node.subtree_quota = quota
    sqsum = sum(c.config_quota for c in node.children if c.static_quota)
    dqsum = sum(c.config_quota for c in node.children if not c.static_quota)
    sqa = sqsum if oversubscription else min(sqsum, quota)
    dqa = max(0.0, quota - sqa)
    zs = sqsum if sqsum > 0 else 1.0
    zd = max(dqsum, 1.0)
    chq = 0.0
    for child in node.children:
        share = (sqa / zs) if child.static_quota else (dqa / zd)
        q = child.config_quota * share
        q = max(q, 0.0)
        assign_quotas(child, q, oversubscription)
        chq += q
    node.quota = quota if oversubscription else quota - chq
    if node.parent is None:
        node.quota = quota - chq
    node.quota = max(node.quota, 0.0)


def fairshare(node: GroupNode) -> float:
    """One fair-share pass: allocate demand up to quota, share surplus (``hgq_fairshare``).

    Returns:
        The surplus this subtree could not place, returned to the parent.
    """
    node.allocated = min(node.requested, node.quota)
    node.requested -= node.allocated
    node.subtree_requested = node.requested
    surplus = node.quota - node.allocated
    if not node.children:
        return surplus
    for child in node.children:
        surplus += fairshare(child)
        if child.accept_surplus:
            node.subtree_requested += child.subtree_requested
    return allocate_surplus(node, surplus)


def _surplus_loop(
    by_quota: bool,
    members: list[GroupNode],
    quotas: list[float],
    allocated: list[float],
    wanted: list[float],
    surplus: float,
) -> tuple[float, float]:
    """Share ``surplus`` among members with demand, by quota or equally (reference §4.4).

    Returns:
        The surplus left and the total handed out.
    """
    total = 0.0
    while surplus > 0:
        z = sum((quotas[j] if by_quota else 1.0) for j in range(len(members)) if wanted[j] > 0)
        if z <= 0:
            break
        never_capped = True
        given = 0.0
        for j in range(len(members)):
            if wanted[j] > 0:
                a = surplus * ((quotas[j] if by_quota else 1.0) / z)
                if a > wanted[j]:
                    a = wanted[j]
                    never_capped = False
                allocated[j] += a
                wanted[j] -= a
                given += a
        surplus -= given
        total += given
        if never_capped or surplus < 0:
            surplus = 0.0
    return surplus, total


def allocate_surplus(node: GroupNode, surplus: float) -> float:
    """Share ``surplus`` between ``node`` and its surplus-accepting children (recursively).

    Mirrors ``GroupEntry::hgq_allocate_surplus``: the node competes as if it accepted
    surplus, with its own quota standing for its subtree quota; everyone gets its demand
    when the surplus covers all of it, otherwise shares go by quota, then equally to
    zero-quota groups. Children pass their share further down.

    Returns:
        Surplus left over, returned to the parent.
    """
    if surplus <= 0:
        return 0.0
    if node.subtree_requested <= 0:
        return surplus
    members = [*node.children, node]
    accepts = [c.accept_surplus for c in node.children] + [True]
    quotas = [c.subtree_quota for c in node.children] + [node.quota]
    wanted_all = [c.subtree_requested for c in node.children] + [node.requested]
    requested = node.subtree_requested
    allocated = [0.0] * len(members)
    if surplus >= requested:
        for j in range(len(members)):
            if accepts[j] and wanted_all[j] > 0:
                allocated[j] = wanted_all[j]
        surplus -= requested
        requested = 0.0
    else:
        wanted = [w if (accepts[j] and w > 0) else 0.0 for j, w in enumerate(wanted_all)]
        surplus, given = _surplus_loop(True, members, quotas, allocated, wanted, surplus)
        requested -= given
        surplus, given = _surplus_loop(False, members, quotas, allocated, wanted, surplus)
        requested -= given
    for j, child in enumerate(node.children):
        if allocated[j] > 0:
            allocate_surplus(child, allocated[j])
    node.allocated += allocated[-1]
    node.requested -= allocated[-1]
    node.subtree_requested = requested
    return surplus


def _round_for_precision(x: float) -> float:
    return math.floor(0.5 + x)


def recover_remainders(node: GroupNode) -> float:
    """Floor every allocation and round-robin the fractions as whole slots.

    Mirrors ``GroupEntry::hgq_recover_remainders`` (only used when slot weights are off):
    the fractions become surplus, handed out by :func:`round_robin` at each level.

    Returns:
        The whole-slot surplus this subtree could not place.
    """
    surplus = node.allocated - math.floor(node.allocated)
    node.allocated -= surplus
    node.requested += surplus
    node.allocated = _round_for_precision(node.allocated)
    node.requested = _round_for_precision(node.requested)
    node.subtree_requested = node.requested
    node.subtree_rr_time = node.rr_time if node.requested > 0 else RR_TIME_NONE
    if not node.children:
        return surplus
    for child in node.children:
        surplus += recover_remainders(child)
        if child.accept_surplus:
            node.subtree_requested += child.subtree_requested
            if child.subtree_requested > 0:
                node.subtree_rr_time = min(node.subtree_rr_time, child.subtree_rr_time)
    return round_robin(node, surplus)


def _rr_order(rr_times: list[float], quotas: list[float], wanted: list[float]) -> list[int]:
    """The order ``hgq_round_robin`` serves the children and the node in: ``std::sort`` of
    their indices by ``ord_by_rr_time`` (least-recently-served subtree first, then larger
    subtree quota, then larger demand), ties where GCC's sort leaves them (in order up to
    16 members, moved by its partitions above that)."""

    order = list(range(len(wanted)))
    cpp_sort(order, lambda i: (rr_times[i], -quotas[i], -wanted[i]))
    return order


def round_robin(node: GroupNode, surplus: float) -> float:
    """Hand whole slots of ``surplus`` to ``node`` and its surplus-accepting children.

    Mirrors ``GroupEntry::hgq_round_robin``: passes of ``max(1, floor(surplus /
    outstanding))`` slots each, in :func:`_rr_order`.

    Returns:
        The surplus left (less than one slot, or no demand left).
    """
    node.subtree_requested = math.floor(node.subtree_requested)
    if node.subtree_requested <= 0 or surplus < 1:
        return surplus
    members = [*node.children, node]
    accepts = [c.accept_surplus for c in node.children] + [True]
    quotas = [c.subtree_quota for c in node.children] + [node.quota]
    rr_times = [c.subtree_rr_time for c in node.children] + [node.rr_time]
    wanted = [c.subtree_requested for c in node.children] + [node.requested]
    requested: float = node.subtree_requested
    order = _rr_order(rr_times, quotas, list(wanted))
    allocated = [0.0] * len(members)
    outstanding = 0.0
    for j in range(len(members)):
        if not (accepts[j] and wanted[j] > 0):
            wanted[j] = 0.0
        else:
            outstanding += 1
    while surplus >= 1 and requested > 0:
        amax = max(1.0, math.floor(surplus / outstanding)) if outstanding > 0 else 1.0
        outstanding = 0.0
        given = 0.0
        for j in order:
            if wanted[j] > 0:
                a = min(wanted[j], amax)
                allocated[j] += a
                wanted[j] -= a
                given += a
                surplus -= a
                requested -= a
                members[j].rr = True
                if wanted[j] > 0:
                    outstanding += 1
                if surplus < amax:
                    break
        if given < 1:
            break
    for j, child in enumerate(node.children):
        if allocated[j] > 0:
            round_robin(child, allocated[j])
    node.allocated += allocated[-1]
    node.requested -= allocated[-1]
    node.subtree_requested = requested
    return surplus
