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

from fairshare_cli.core.slurm.assoc_tree import AssocTree, job_fairshare_factor
from fairshare_cli.errors import InputError

UINT32_MAX = 0xFFFFFFFF
#: ``PriorityMaxAge=INFINITE`` is stored as ``(uint32)(-1 * 60)``.
INFINITE_MAX_AGE = 4294967236.0
#: A time limit of INFINITE minutes.
INFINITE_MINUTES = float(UINT32_MAX)

FACTOR_KEYS = ("age", "assoc", "fairshare", "jobsize", "partition", "qos")
#: Shared by rows without TRES weights; never modified.
_NO_TRES: dict[str, float] = {}

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
    #: ``(account, user) -> ASSOC factor`` (:mod:`~fairshare_cli.core.slurm.assoc_priority`).
    assoc_factors: Mapping[tuple[str, str], float] = field(default_factory=dict)


class PriorityRow:
    """One sprio row: a job in one partition, its factors and weighted factors.

    ``f`` and ``wt`` hold the six scalar factors and weighted factors in
    :data:`FACTOR_KEYS` order; ``tres_f`` / ``tres_w`` the TRES ones by name.
    """

    __slots__ = (
        "account",
        "admin",
        "f",
        "job_id",
        "nice",
        "partition",
        "priority",
        "priority_value",
        "qos",
        "site",
        "sort_key",
        "tres_f",
        "tres_w",
        "user",
        "wt",
    )

    def __init__(
        self,
        job_id: str,
        partition: str,
        user: str,
        account: str,
        qos: str,
        priority: int,
        site: int,
        nice: int,
        f: tuple[float, ...],
        wt: tuple[float, ...],
        tres_f: dict[str, float],
        tres_w: dict[str, float],
        admin: bool = False,
        priority_value: float = 0.0,
        sort_key: tuple[int, int, str] = (0, 0, ""),
    ) -> None:
        self.job_id = job_id
        self.partition = partition
        self.user = user
        self.account = account
        self.qos = qos
        self.priority = priority
        self.site = site
        self.nice = nice
        self.f = f
        self.wt = wt
        self.tres_f = tres_f
        self.tres_w = tres_w
        self.admin = admin
        self.priority_value = priority_value
        self.sort_key = sort_key

    @property
    def factors(self) -> dict[str, Any]:
        """The factors by name (``tres`` maps TRES names to factors)."""
        return {**dict(zip(FACTOR_KEYS, self.f, strict=True)), "tres": dict(self.tres_f)}

    @property
    def weighted(self) -> dict[str, Any]:
        """The weighted factors by name (``tres`` maps TRES names to weighted factors)."""
        return {**dict(zip(FACTOR_KEYS, self.wt, strict=True)), "tres": dict(self.tres_w)}


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


def compute_rows(
    jobs: Iterable[Any], ctx: PriorityContext, now: float, listed_at: float | None = None
) -> list[PriorityRow]:
    """sprio rows: the factors as of ``now`` (the decay pass time).

    Pending jobs are listed (running ones too with ``CALCULATE_RUNNING``); held and finished
    jobs are not, nor jobs submitted after ``listed_at`` (the moment sprio asks; default
    ``now``); a job with no Slurm association and no account is not a Slurm job and is
    skipped. Multi-partition jobs give one row per partition (partition and TRES factors
    per partition, the rest shared).

    Raises:
        InputError: a job names an unknown partition, QOS, account or association.
    """
    horizon = now if listed_at is None else listed_at
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
    w_age, w_assoc, w_fs, w_js, w_part, w_qos = (
        w.age,
        w.assoc,
        w.fairshare,
        w.jobsize,
        w.partition,
        w.qos,
    )
    max_age = ctx.max_age
    if math.isinf(max_age):
        max_age = INFINITE_MAX_AGE
    user_assoc = ctx.tree.user_assoc
    assoc_factors = ctx.assoc_factors
    fs_cache: dict[int, float] = {}
    part_cache: dict[str | None, list[tuple[PartitionInfo, float]]] = {}
    qos_cache: dict[str | None, float] = {}
    js_cache: dict[tuple[int, int, float | None, float | None], float] = {}
    rows: list[PriorityRow] = []
    append = rows.append
    row_class = PriorityRow
    for job in jobs:
        status = job.status
        if status != "idle" and not (calc_running and status == "running"):
            continue
        if job.submit_time is not None and job.submit_time > horizon:
            continue
        owner = job.owner
        user = owner.split("@", 1)[0] if "@" in owner else owner
        account = job.account
        assoc = user_assoc(user, account)
        if assoc is None:
            if account is None and job.partition is None and job.qos is None:
                continue
            if account is not None and account not in ctx.tree.accounts:
                raise InputError(f'job {job.id}: unknown account "{account}"')
            raise InputError(
                f'job {job.id}: user "{user}" has no association'
                + (f' in account "{account}"' if account else "")
            )
        pkey = job.partition
        pinfos = part_cache.get(pkey)
        if pinfos is None:
            pinfos = _partition_factors(job, ctx, max_part, no_norm_part, w_part)
            part_cache[pkey] = pinfos
        qname = job.qos or ctx.default_qos
        f_qos = qos_cache.get(qname)
        if f_qos is None:
            qinfo = ctx.qos.get(qname) if qname is not None else None
            if qname is not None and qinfo is None and qname != "normal":
                raise InputError(f'job {job.id}: unknown QOS "{qname}"')
            if qinfo is not None and qinfo.priority and w_qos:
                f_qos = float(qinfo.priority) if no_norm_qos else qinfo.priority / max_qos
            else:
                f_qos = 0.0
            qos_cache[qname] = f_qos

        accrue = job.accrue_time if job.accrue_time is not None else job.submit_time
        f_age = age_factor(accrue, now, max_age) if w_age else 0.0
        f_assoc = assoc_factors.get((assoc.account, user), 0.0) if w_assoc else 0.0
        if w_fs:
            f_fs = fs_cache.get(id(assoc))
            if f_fs is None:
                f_fs = job_fairshare_factor(assoc, ctx.algorithm)
                fs_cache[id(assoc)] = f_fs
        else:
            f_fs = 0.0
        if w_js:
            jkey = (job.num_nodes, job.request_cpus, job.time_limit, pinfos[0][0].max_time)
            f_js = js_cache.get(jkey)
            if f_js is None:
                tl_secs = job.time_limit if job.time_limit is not None else pinfos[0][0].max_time
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
                js_cache[jkey] = f_js
        else:
            f_js = 0.0
        site = job.site_factor
        nice = job.nice
        admin = job.admin_priority
        jid = job.id
        sort_key = (int(jid), 0, jid) if jid.isdigit() else (*job.cluster_proc, jid)
        qdisplay = qname or ""
        for info, f_part in pinfos:
            tres_f: dict[str, float] = _NO_TRES
            tres_w: dict[str, float] = _NO_TRES
            if tres_weights:
                tres_f = {}
                tres_w = {}
            for tname, tw in tres_weights:
                if tname == "cpu" or tname == "billing":
                    value = float(job.request_cpus)
                else:
                    value = _job_tres_value(job, tname)
                if no_norm_tres:
                    f = value
                else:
                    total = info.tres.get(tname, 0.0)
                    f = value / total if total else 0.0
                tres_f[tname] = f
                tres_w[tname] = f * tw
            if admin is not None:
                zero = (0.0,) * 6
                append(
                    PriorityRow(
                        job.id,
                        info.name,
                        user,
                        assoc.account,
                        qdisplay,
                        admin,
                        0,
                        0,
                        zero,
                        zero,
                        {},
                        {},
                        True,
                        float(admin),
                        sort_key,
                    )
                )
                continue
            a_w = f_age * w_age
            b_w = f_assoc * w_assoc
            c_w = f_fs * w_fs
            d_w = f_js * w_js
            e_w = f_part * w_part
            g_w = f_qos * w_qos
            # sprio's PRIORITY: the weighted factors re-added in its order (age, assoc,
            # fair share, job size, partition, QOS, site, −nice, then each non-zero TRES
            # term), at least 1; %Y prints it truncated, %y divides it by 2^32−1.
            p = a_w + b_w + c_w + d_w + e_w + g_w + site - nice
            if tres_weights:
                for value in tres_w.values():
                    if value:
                        p += value
            if p < 1:
                p = 1.0
            append(
                row_class(
                    jid,
                    info.name,
                    user,
                    assoc.account,
                    qdisplay,
                    int(p),
                    site,
                    nice,
                    (f_age, f_assoc, f_fs, f_js, f_part, f_qos),
                    (a_w, b_w, c_w, d_w, e_w, g_w),
                    tres_f,
                    tres_w,
                    False,
                    p,
                    sort_key,
                )
            )
    return rows


def _partition_factors(
    job: Any, ctx: PriorityContext, max_part: int, no_norm: bool, weight: int
) -> list[tuple[PartitionInfo, float]]:
    """The job's partitions (or the default) with their partition factors.

    Raises:
        InputError: an unknown partition, or none given and none is the default.
    """
    parts = job.partitions or ((ctx.default_partition,) if ctx.default_partition else ())
    if not parts:
        raise InputError(f"job {job.id}: no partition given and no default partition is configured")
    out = []
    for name in parts:
        info = ctx.partitions.get(name)
        if info is None:
            raise InputError(f'job {job.id}: unknown partition "{name}"')
        if info.priority_job_factor and weight:
            f = float(info.priority_job_factor) if no_norm else info.priority_job_factor / max_part
        else:
            f = 0.0
        out.append((info, f))
    return out


def controller_priority(row: PriorityRow, multi_partition: bool = False) -> int:
    """The priority slurmctld stores for a row (sum order of ``priority_p_set``)."""
    if row.admin:
        return row.priority
    age, assoc, fs, js, part, qos = row.wt
    tres_sum = 0.0
    for value in row.tres_w.values():
        tres_sum += value
    if multi_partition:
        rest = age + assoc + fs + js + qos + tres_sum + row.site - row.nice
        return clamp_priority(part + rest)
    p = age + assoc + fs + js + part + qos
    p += tres_sum
    p += row.site - row.nice
    return clamp_priority(p)
