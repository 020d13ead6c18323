"""The factors of Slurm's multifactor priority, one job at a time (``priority_multifactor.c``).

``PriorityFlags`` parsing, the age and job-size factors, a job's TRES counts and the final
clamp to ``uint32``; :mod:`fairshare_cli.core.slurm.priority` puts them together per row.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from fairshare_cli.core.limits import UINT32_MAX

#: ``PriorityMaxAge=INFINITE`` is stored as ``(uint32)(-1 * 60)``.
INFINITE_MAX_AGE = 4294967236.0


#: A time limit of INFINITE minutes.
INFINITE_MINUTES = float(UINT32_MAX)


def parse_flags(flags: Iterable[str]) -> frozenset[str]:
    """``PriorityFlags`` as Slurm reads them: a case-insensitive substring search.

    Returns the set of flag names in effect, with ``FAIR_TREE`` unless ``NO_FAIR_TREE`` or
    ``DEPTH_OBLIVIOUS`` clears it and ``NO_NORMAL_ALL`` expanded to its four flags.
    """
    text = ",".join(flags).upper()
    out = {"FAIR_TREE"}
    for word in ("ACCRUE_ALWAYS", "SMALL_RELATIVE_TO_TIME", "CALCULATE_RUNNING", "INCR_ONLY"):
        if word in text:
            out.add(word)
    if "DEPTH_OBLIVIOUS" in text:
        out.add("DEPTH_OBLIVIOUS")
        out.discard("FAIR_TREE")
    elif "NO_FAIR_TREE" in text:
        out.add("NO_FAIR_TREE")
        out.discard("FAIR_TREE")
    if "MAX_TRES_GRES" in text:
        out.add("MAX_TRES_GRES")
    elif "MAX_TRES" in text:
        out.add("MAX_TRES")
    if "NO_NORMAL_ALL" in text:
        out.update(("NO_NORMAL_ASSOC", "NO_NORMAL_PART", "NO_NORMAL_QOS", "NO_NORMAL_TRES"))
    for word in ("NO_NORMAL_ASSOC", "NO_NORMAL_PART", "NO_NORMAL_QOS", "NO_NORMAL_TRES"):
        if word in text:
            out.add(word)
    return frozenset(out)


def effective_algorithm(fairshare: str, flags: Iterable[str]) -> str:
    """The fair-share algorithm: the ``fairshare`` knob, or what slurm.conf flags select.

    ``DEPTH_OBLIVIOUS`` in the flags selects depth-oblivious; ``NO_FAIR_TREE`` turns
    ``fair_tree`` into ``classic``.
    """
    parsed = parse_flags(flags)
    if "DEPTH_OBLIVIOUS" in parsed:
        return "depth_oblivious"
    if "NO_FAIR_TREE" in parsed and fairshare == "fair_tree":
        return "classic"
    return fairshare


def age_factor(accrue_time: float | None, now: float, max_age: float) -> float:
    """``diff / PriorityMaxAge`` capped at 1; 0 when the job has not started accruing."""
    if accrue_time is None:
        return 0.0
    diff = int(now - accrue_time) if accrue_time < now else 0
    if max_age <= 0:
        return 1.0
    if math.isinf(max_age):
        max_age = INFINITE_MAX_AGE
    return diff / max_age if diff < max_age else 1.0


def job_size_factor(
    min_nodes: int,
    cpu_cnt: int,
    node_count: int,
    cluster_cpus: int,
    *,
    favor_small: bool,
    relative_to_time: bool,
    time_limit_minutes: float = 1.0,
) -> float:
    """``_get_job_size_factor``: nodes and CPUs against the cluster's size, in [0, 1]."""
    if not node_count or not cluster_cpus:
        return 0.0
    min_nodes = max(min_nodes, 1)
    if relative_to_time:
        size = min_nodes * cluster_cpus / node_count
        if cpu_cnt > size:
            size = float(cpu_cnt)
        tl = time_limit_minutes if time_limit_minutes > 0 else 1.0
        f = size / tl / cluster_cpus
        if favor_small:
            f = 1.0 - f
    elif favor_small:
        f = (node_count - min_nodes) / node_count if node_count > min_nodes else 0.0
        if cpu_cnt:
            f = (f + (cluster_cpus - cpu_cnt) / cluster_cpus) / 2.0
    else:
        f = min_nodes / node_count
        if cpu_cnt:
            f = (f + cpu_cnt / cluster_cpus) / 2.0
    return min(max(f, 0.0), 1.0)


def clamp_priority(value: float) -> int:
    """Below 1 becomes 1; truncate toward zero; above 2^32−1 becomes 2^32−1."""
    if value < 1:
        value = 1.0
    p = int(value)
    return min(p, UINT32_MAX)


def job_tres_value(job: Any, name: str) -> float:
    if name in ("cpu", "billing"):
        return float(job.request_cpus)
    if name == "mem":
        return float(job.request_memory)
    if name == "node":
        return float(max(job.num_nodes, 1))
    attrs = getattr(job, "attributes", {}) or {}
    value = attrs.get(name)
    return float(value) if isinstance(value, (int, float)) else 0.0


def job_user(owner: str) -> str:
    """The Slurm user name of a job owner (``alice@example.org`` -> ``alice``)."""
    return owner.split("@", 1)[0]
