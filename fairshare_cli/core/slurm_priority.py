"""Slurm multifactor job priority (``priority_multifactor.c``) and sprio's recomputation.

``priority = age·W + assoc·W + fairshare·W + jobsize·W + partition·W + qos·W + Σ tres·W
+ site − nice``, clamped to at least 1 and truncated to uint32. Factors are in [0, 1]
unless a ``NO_NORMAL_*`` flag asks for the raw value.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fairshare_cli.core.slurm_tree import AssocTree, job_fairshare_factor
from fairshare_cli.errors import InputError

UINT32_MAX = 0xFFFFFFFF
#: ``PriorityMaxAge=INFINITE`` is stored as ``(uint32)(-1 * 60)``.
INFINITE_MAX_AGE = 4294967236.0
#: A time limit of INFINITE minutes.
INFINITE_MINUTES = float(UINT32_MAX)

FACTOR_KEYS = ("age", "assoc", "fairshare", "jobsize", "partition", "qos")

_FLAG_WORDS = (
    "ACCRUE_ALWAYS",
    "SMALL_RELATIVE_TO_TIME",
    "CALCULATE_RUNNING",
    "DEPTH_OBLIVIOUS",
    "NO_FAIR_TREE",
    "INCR_ONLY",
    "MAX_TRES_GRES",
    "MAX_TRES",
    "NO_NORMAL_ALL",
    "NO_NORMAL_ASSOC",
    "NO_NORMAL_PART",
    "NO_NORMAL_QOS",
    "NO_NORMAL_TRES",
)


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


@dataclass(frozen=True)
class Weights:
    """``PriorityWeight*`` (uint32) and ``PriorityWeightTRES``."""

    age: int = 0
    assoc: int = 0
    fairshare: int = 0
    jobsize: int = 0
    partition: int = 0
    qos: int = 0
    tres: Mapping[str, float] = field(default_factory=dict)

    def get(self, key: str) -> int:
        """The weight of a scalar factor by its key in :data:`FACTOR_KEYS`."""
        return int(getattr(self, key))


@dataclass(frozen=True)
class PartitionInfo:
    """A partition: its ``PriorityJobFactor``, ``MaxTime`` and TRES counts."""

    name: str
    priority_job_factor: int = 1
    max_time: float | None = None
    tres: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class QosInfo:
    """A QOS: its priority and usage factor."""

    name: str
    priority: int = 0
    usage_factor: float = 1.0


@dataclass(frozen=True)
class PriorityContext:
    """Everything a job's priority depends on besides the job itself."""

    weights: Weights
    max_age: float
    favor_small: bool
    flags: frozenset[str]
    algorithm: str
    tree: AssocTree
    partitions: Mapping[str, PartitionInfo]
    qos: Mapping[str, QosInfo]
    node_count: int
    cluster_cpus: int
    default_partition: str | None = None
    default_qos: str | None = None


@dataclass
class PriorityRow:
    """One sprio row: a job in one partition, its factors and weighted factors."""

    job_id: str
    partition: str
    user: str
    account: str
    qos: str
    priority: int
    site: int
    nice: int
    factors: dict[str, Any]
    weighted: dict[str, Any]
    admin: bool = False
    priority_value: float = 0.0
    sort_key: tuple[int, int, str] = (0, 0, "")


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


def sprio_priority(weighted: Mapping[str, Any], site: int, nice: int) -> float:
    """sprio's PRIORITY before truncation: the weighted factors re-added in its order.

    At least 1; ``%Y`` prints it truncated, ``%y`` divides it by 2^32−1.
    """
    p = (
        weighted["age"]
        + weighted["assoc"]
        + weighted["fairshare"]
        + weighted["jobsize"]
        + weighted["partition"]
        + weighted["qos"]
        + site
        - nice
    )
    for value in weighted["tres"].values():
        if value:
            p += value
    if p < 1:
        p = 1.0
    return float(p)


def _job_tres_value(job: Any, name: str) -> float:
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


def compute_rows(jobs: Iterable[Any], ctx: PriorityContext, now: float) -> list[PriorityRow]:
    """sprio rows for the jobs Slurm would list at ``now`` (the decay pass time).

    Pending jobs are listed (running ones too with ``CALCULATE_RUNNING``); held and finished
    jobs are not; a job with no Slurm association and no account is not a Slurm job and is
    skipped. Multi-partition jobs give one row per partition.

    Raises:
        InputError: a job names an unknown partition, QOS, account or association.
    """
    w = ctx.weights
    flags = ctx.flags
    calc_running = "CALCULATE_RUNNING" in flags
    max_part = max([1, *(p.priority_job_factor for p in ctx.partitions.values())])
    max_qos = max([0, *(q.priority for q in ctx.qos.values())])
    no_norm_part = "NO_NORMAL_PART" in flags
    no_norm_qos = "NO_NORMAL_QOS" in flags
    no_norm_tres = "NO_NORMAL_TRES" in flags
    relative = "SMALL_RELATIVE_TO_TIME" in flags
    tres_weights = [(k, float(v)) for k, v in w.tres.items() if v]
    fs_cache: dict[int, float] = {}
    rows: list[PriorityRow] = []
    for job in jobs:
        status = job.status
        if status != "idle" and not (calc_running and status == "running"):
            continue
        user = job_user(job.owner)
        assoc = ctx.tree.user_assoc(user, job.account)
        if assoc is None:
            if job.account is None and job.partition is None and job.qos is None:
                continue
            if job.account is not None and job.account not in ctx.tree.accounts:
                raise InputError(f'job {job.id}: unknown account "{job.account}"')
            raise InputError(
                f'job {job.id}: user "{user}" has no association'
                + (f' in account "{job.account}"' if job.account else "")
            )
        parts = job.partitions or ((ctx.default_partition,) if ctx.default_partition else ())
        if not parts:
            raise InputError(
                f"job {job.id}: no partition given and no default partition is configured"
            )
        pinfos = []
        for name in parts:
            info = ctx.partitions.get(name)
            if info is None:
                raise InputError(f'job {job.id}: unknown partition "{name}"')
            pinfos.append(info)
        qname = job.qos or ctx.default_qos
        qinfo = None
        if qname is not None:
            qinfo = ctx.qos.get(qname)
            if qinfo is None and qname != "normal":  # Slurm always has "normal"
                raise InputError(f'job {job.id}: unknown QOS "{qname}"')

        f_age = age_factor(job.submit_time, now, ctx.max_age) if w.age else 0.0
        f_assoc = 0.0  # association priorities are not modelled (no Priority= per assoc)
        if w.fairshare:
            key = id(assoc)
            f_fs = fs_cache.get(key)
            if f_fs is None:
                f_fs = job_fairshare_factor(assoc, ctx.algorithm)
                fs_cache[key] = f_fs
        else:
            f_fs = 0.0
        if w.jobsize:
            tl_secs = job.time_limit
            if tl_secs is None:
                tl_secs = pinfos[0].max_time
            if tl_secs is None:
                tl_min = 1.0
            elif math.isinf(tl_secs):
                tl_min = INFINITE_MINUTES
            else:
                tl_min = tl_secs / 60.0
            f_js = job_size_factor(
                job.num_nodes,
                job.request_cpus,
                ctx.node_count,
                ctx.cluster_cpus,
                favor_small=ctx.favor_small,
                relative_to_time=relative,
                time_limit_minutes=tl_min,
            )
        else:
            f_js = 0.0
        if qinfo is not None and qinfo.priority and w.qos:
            f_qos = float(qinfo.priority) if no_norm_qos else qinfo.priority / max_qos
        else:
            f_qos = 0.0
        site = int(job.site_factor)
        nice = int(job.nice)
        admin = getattr(job, "admin_priority", None)
        user_sort = job.cluster_proc
        for info in pinfos:
            if info.priority_job_factor and w.partition:
                f_part = (
                    float(info.priority_job_factor)
                    if no_norm_part
                    else info.priority_job_factor / max_part
                )
            else:
                f_part = 0.0
            tres_f: dict[str, float] = {}
            tres_wt: dict[str, float] = {}
            for tname, tw in tres_weights:
                value = _job_tres_value(job, tname)
                if no_norm_tres:
                    f = value
                else:
                    total = info.tres.get(tname, 0.0)
                    f = value / total if total else 0.0
                tres_f[tname] = f
                tres_wt[tname] = f * tw
            factors = {
                "age": f_age,
                "assoc": f_assoc,
                "fairshare": f_fs,
                "jobsize": f_js,
                "partition": f_part,
                "qos": f_qos,
                "tres": tres_f,
            }
            weighted = {
                "age": f_age * w.age,
                "assoc": f_assoc * w.assoc,
                "fairshare": f_fs * w.fairshare,
                "jobsize": f_js * w.jobsize,
                "partition": f_part * w.partition,
                "qos": f_qos * w.qos,
                "tres": tres_wt,
            }
            if admin is not None:
                zero = {k: 0.0 for k in FACTOR_KEYS}
                rows.append(
                    PriorityRow(
                        job.id,
                        info.name,
                        user,
                        assoc.account,
                        qname or "",
                        int(admin),
                        0,
                        0,
                        {**zero, "tres": {}},
                        {**zero, "tres": {}},
                        admin=True,
                        priority_value=float(admin),
                        sort_key=(*user_sort, job.id),
                    )
                )
                continue
            value = sprio_priority(weighted, site, nice)
            rows.append(
                PriorityRow(
                    job.id,
                    info.name,
                    user,
                    assoc.account,
                    qname or "",
                    int(value),
                    site,
                    nice,
                    factors,
                    weighted,
                    priority_value=value,
                    sort_key=(*user_sort, job.id),
                )
            )
    return rows


def controller_priority(row: PriorityRow, multi_partition: bool = False) -> int:
    """The priority slurmctld stores for a row (sum order of ``priority_p_set``)."""
    if row.admin:
        return row.priority
    wt = row.weighted
    tres_sum = 0.0
    for value in wt["tres"].values():
        tres_sum += value
    if multi_partition:
        rest = (
            wt["age"]
            + wt["assoc"]
            + wt["fairshare"]
            + wt["jobsize"]
            + wt["qos"]
            + tres_sum
            + row.site
            - row.nice
        )
        return clamp_priority(wt["partition"] + rest)
    p = wt["age"] + wt["assoc"] + wt["fairshare"] + wt["jobsize"] + wt["partition"] + wt["qos"]
    p += tres_sum
    p += row.site - row.nice
    return clamp_priority(p)
