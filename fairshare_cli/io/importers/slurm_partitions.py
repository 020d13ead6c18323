"""slurm.conf's ``PartitionName`` lines (and ``scontrol show partition``'s) as
``[partitions]`` tables, read as slurmctld's ``_build_single_partitionline_info`` reads
them, each value's line recorded; and what ``DEFAULT`` lines set for the lines after them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from fairshare_cli.core.names import check_name
from fairshare_cli.core.timestr import TimeStringError, time_str2mins
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.as_config import Origins
from fairshare_cli.io.importers.hostlist import HostlistError, expand_hostlist
from fairshare_cli.io.importers.slurm_knobs import (
    over_time_limit,
    slurm_boolean,
    slurm_uint,
    tres_weights,
)


class Defaults(dict[str, str]):
    """What ``NodeName=DEFAULT`` (``PartitionName=DEFAULT``) lines set: each key (lower
    case) and value, and in ``lines`` the line that set it."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[str, str] = {}

    def set(self, attrs: Mapping[str, str], where: str) -> None:
        self.update(attrs)
        self.lines.update(dict.fromkeys(attrs, where))

    def where(self, attrs: Mapping[str, str], keys: tuple[str, ...], where: str) -> str:
        """The line that gave a value read from ``keys``: ``where`` (the line read, whose
        ``attrs`` win) when it sets one, else the DEFAULT line that set the first."""
        if any(key in attrs for key in keys):
            return where
        return next((self.lines[key] for key in keys if key in self), where)


def partition_line(
    kv: list[tuple[str, str]],
    where: str,
    partitions: dict[str, dict[str, Any]],
    part_nodes: dict[str, tuple[str, list[str]]],
    default: Defaults,
    origins: Origins,
    notes: list[str] | None = None,
) -> None:
    """Read the ``PartitionName`` line ``kv`` (at ``where``) into ``partitions``, where its
    values came from into ``origins``, and its nodes into ``part_nodes``; a ``DEFAULT``
    line into ``default``; into ``notes``, what slurmctld reads otherwise than written.

    Raises:
        InputError: a bad value, naming ``where`` and its key.
    """
    name = kv[0][1]
    attrs = {k.lower(): v for k, v in kv[1:]}
    if name.upper() == "DEFAULT":
        default.set(attrs, where)
        return
    check_name(name, f"{where}: PartitionName")
    if name in partitions:  # (slurmctld's _build_single_partitionline_info: fatal)
        raise InputError(
            f"{where}: PartitionName: {name} has a PartitionName line already; slurmctld "
            f"stops on it (duplicate entry for partition {name})"
        )
    merged = {**default, **attrs}
    spec: dict[str, Any] = {}
    # The old Priority= sets both the job factor and the tier, over either of its own
    # (read_config.c's _build_single_partitionline_info).
    legacy = merged.get("priority")
    factor = legacy or merged.get("priorityjobfactor")
    # (uint16_t keys: read as s_p_handle_uint16 reads them, 010 octal 8, at their line)
    keys = ("Priority", "Priority") if legacy else ("PriorityJobFactor", "PriorityTier")
    at = [default.where(attrs, (key.lower(),), where) for key in keys]
    spec["priority_job_factor"] = slurm_uint(keys[0], factor, at[0], 16) if factor else 1
    tier = legacy or merged.get("prioritytier")
    if tier and (tier_n := slurm_uint(keys[1], tier, at[1], 16)) != 1:
        spec["priority_tier"] = tier_n  # (1, the default, left out)
    flag = slurm_boolean("Default", merged.get("default", "NO"), where)
    if flag:  # (the last Default=YES line takes it from the one before)
        for other in partitions.values():
            other["default"] = False
    spec["default"] = flag
    if "maxtime" in merged:
        value = merged["maxtime"]
        spec["max_time"] = "INFINITE" if value.upper() == "UNLIMITED" else value
    found = [_default_time(merged, where, spec), _sharing_note(merged, where)]
    if notes is not None:
        notes.extend(f"{where}: PartitionName {name}: {note}" for note in found if note)
    _node_limits(merged, where, spec)
    _over_time_limit(merged, where, spec)
    if billing := merged.get("tresbillingweights"):  # (what its jobs are charged for)
        spec["billing_weights"] = tres_weights("TRESBillingWeights", billing, where)
    partitions[name] = spec
    for key in spec:
        written = [k for k in _PARTITION_KEYS[key] if k in merged] or [_PARTITION_KEYS[key][-1]]
        line = default.where(attrs, _PARTITION_KEYS[key], where)
        origins.add(("partitions", name, key), f"{line}: {_WRITTEN[written[0]]}")
    nodes = merged.get("nodes", "")
    try:
        part_nodes[name] = (where, ["ALL"] if nodes.upper() == "ALL" else expand_hostlist(nodes))
    except HostlistError as exc:
        raise InputError(f"{where}: Nodes: {exc}") from None


def _default_time(merged: dict[str, str], where: str, spec: dict[str, Any]) -> str | None:
    """``DefaultTime`` (``NONE``, as ``scontrol show partition`` prints it unset, left
    out), and left out above ``MaxTime`` as slurmctld leaves it ("DefaultTime exceeds
    MaxTime": ``_build_single_partitionline_info``), saying so (the return value).

    Raises:
        InputError: a value that is not a Slurm time string.
    """
    value = merged.get("defaulttime")
    if value is None or value.upper() == "NONE":
        return None
    value = "INFINITE" if value.upper() == "UNLIMITED" else value
    try:
        default = time_str2mins(value)
    except TimeStringError as exc:
        raise InputError(f"{where}: DefaultTime: {exc}") from None
    try:
        top = time_str2mins(spec.get("max_time", "INFINITE"))
    except TimeStringError:  # (the config's check names MaxTime's bad value)
        top = math.inf
    if default <= top:
        spec["default_time"] = value
        return None
    return (
        f"DefaultTime={value} exceeds MaxTime={spec['max_time']}; left out, as slurmctld "
        "leaves it (jobs setting no time limit get none until they start)"
    )


#: Each ``[partitions]`` key and the ``PartitionName`` keys (lower case) it is read from.
_PARTITION_KEYS = {
    "priority_job_factor": ("priority", "priorityjobfactor"),
    "priority_tier": ("priority", "prioritytier"),
    "default": ("default",),
    "max_time": ("maxtime",),
    "max_nodes": ("maxnodes",),
    "min_nodes": ("minnodes",),
    "billing_weights": ("tresbillingweights",),
    "default_time": ("defaulttime",),
    "over_time_limit": ("overtimelimit",),
}
#: Those keys as slurm.conf writes them.
_WRITTEN = {
    "priority": "Priority",
    "priorityjobfactor": "PriorityJobFactor",
    "prioritytier": "PriorityTier",
    "default": "Default",
    "maxtime": "MaxTime",
    "maxnodes": "MaxNodes",
    "minnodes": "MinNodes",
    "tresbillingweights": "TRESBillingWeights",
    "defaulttime": "DefaultTime",
    "overtimelimit": "OverTimeLimit",
    "oversubscribe": "OverSubscribe",
    "shared": "Shared",
}


def _node_limits(merged: dict[str, str], where: str, spec: dict[str, Any]) -> None:
    """``MaxNodes`` and ``MinNodes`` (``UNLIMITED`` or ``INFINITE``, and MinNodes 0, the
    defaults, left out)."""
    top = merged.get("maxnodes")
    if top is not None and top.upper() not in ("UNLIMITED", "INFINITE"):
        spec["max_nodes"] = whole(top, "MaxNodes", where)
    least = merged.get("minnodes")
    if least is not None and (least_n := whole(least, "MinNodes", where)):
        spec["min_nodes"] = least_n


def _over_time_limit(merged: dict[str, str], where: str, spec: dict[str, Any]) -> None:
    """``OverTimeLimit`` (``NONE``, as ``scontrol show partition`` prints it unset, left
    out: the cluster's)."""
    over = merged.get("overtimelimit")
    if over is not None and over.upper() != "NONE":
        minutes = over_time_limit("OverTimeLimit", over, where, partition=True)
        if minutes is not None:
            spec["over_time_limit"] = minutes


def whole(value: str, key: str, where: str) -> int:
    """``value`` of ``key`` (read at ``where``) as a whole number.

    Raises:
        InputError: anything but digits.
    """
    if not re.fullmatch(r"\d+", value):
        raise InputError(f'{where}: {key}: expected a whole number, got "{value}"')
    return int(value)


def _sharing_note(merged: Mapping[str, str], where: str) -> str | None:
    """What :func:`node_sharing` finds, and that fs does not model it."""
    sharing = node_sharing(merged, where)
    if sharing is None:
        return None
    return (
        f"{sharing}; not modelled: fs runs jobs on a node up to its CPUs, a CPU to one job, "
        "as OverSubscribe=NO does (docs/slurm.md)"
    )


def node_sharing(merged: Mapping[str, str], where: str) -> str | None:
    """How a partition's jobs share nodes otherwise than ``OverSubscribe=NO`` (the
    default: a node's CPUs each to one job), in slurm.conf's words; None when they do not.
    Read as ``_build_single_partitionline_info`` reads ``OverSubscribe`` (the old
    ``Shared``: ``YES`` is ``YES:4``, ``FORCE`` ``FORCE:4``, ``YES:1`` and ``FORCE:0``
    read as ``NO``) and ``ExclusiveUser``, then ``Exclusive`` (Slurm 25.11 on), which
    clears ``ExclusiveUser`` and sets: ``NO``/``NONE`` a node's CPUs shared again after
    ``OverSubscribe=EXCLUSIVE``, ``NODE`` and ``TOPO`` whole nodes, ``USER`` a user's.

    Raises:
        InputError: a value slurmctld refuses (it stops on it).
    """
    over = _over_subscribe(merged, where)
    user = merged.get("exclusiveuser", "NO").upper() in ("YES", "1", "TRUE", "UP")
    user_text = f"ExclusiveUser={merged['exclusiveuser']}" if user else None
    whole_text = None
    exclusive = merged.get("exclusive")
    if exclusive is not None:
        word = exclusive.upper()
        if word not in ("NO", "NONE", "NODE", "USER", "TOPO"):
            raise InputError(
                f'{where}: Exclusive: expected NO, NODE, USER or TOPO, got "{exclusive}" '
                "(slurmctld stops on it)"
            )
        user_text = f"Exclusive={exclusive}" if word == "USER" else None
        if word in ("NODE", "TOPO"):
            over, whole_text = None, f"Exclusive={exclusive}"
        elif word in ("NO", "NONE") and over is not None and over[1] == "EXCLUSIVE":
            over = None
    found = [over[0] if over else None, whole_text, user_text]
    return " ".join(text for text in found if text) or None


def _over_subscribe(merged: Mapping[str, str], where: str) -> tuple[str, str] | None:
    """``OverSubscribe`` (else ``Shared``) as written and its word, when not read as
    ``NO``.

    Raises:
        InputError: a value slurmctld refuses.
    """
    key = "oversubscribe" if "oversubscribe" in merged else "shared"
    value = merged.get(key)
    if value is None:
        return None
    word, colon, count = value.upper().partition(":")
    if word not in ("NO", "EXCLUSIVE", "YES", "FORCE") or (colon and word in ("NO", "EXCLUSIVE")):
        raise InputError(
            f"{where}: {_WRITTEN[key]}: expected NO, EXCLUSIVE, YES[:N] or FORCE[:N], got "
            f'"{value}" (slurmctld stops on it)'
        )
    least = 2 if word == "YES" else 1  # (YES:1 and FORCE:0 are read as NO)
    if word == "NO" or (colon and _leading_int(count) < least):
        return None
    return f"{_WRITTEN[key]}={value}", word


def _leading_int(text: str) -> int:
    """``text``'s leading number as ``strtol`` reads it (none: 0)."""
    head = re.match(r"\s*[-+]?\d+", text)
    return int(head.group()) if head else 0
