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
from fairshare_cli.io.importers.slurm_knobs import over_time_limit, tres_weights


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
    spec["priority_job_factor"] = (
        whole(factor, "Priority" if legacy else "PriorityJobFactor", where) if factor else 1
    )
    tier = legacy or merged.get("prioritytier")
    if tier and (tier_n := whole(tier, "Priority" if legacy else "PriorityTier", where)) != 1:
        spec["priority_tier"] = tier_n  # (1, the default, left out)
    flag = merged.get("default", "NO").upper()
    if flag not in ("YES", "NO"):
        raise InputError(f'{where}: Default: expected YES or NO, got "{merged["default"]}"')
    if flag == "YES":  # (the last Default=YES line takes it from the one before)
        for other in partitions.values():
            other["default"] = False
    spec["default"] = flag == "YES"
    if "maxtime" in merged:
        value = merged["maxtime"]
        spec["max_time"] = "INFINITE" if value.upper() == "UNLIMITED" else value
    dropped = _default_time(merged, where, spec)
    if dropped and notes is not None:
        notes.append(f"{where}: PartitionName {name}: {dropped}")
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
