"""Slurm multifactor job priority (``priority_multifactor.c``) and sprio's recomputation.

``priority = age·W + assoc·W + fairshare·W + jobsize·W + partition·W + qos·W + Σ tres·W
+ site − nice``, clamped to at least 1 and truncated to uint32. Factors are in [0, 1]
unless a ``NO_NORMAL_*`` flag asks for the raw value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import msgspec

from fairshare_cli.core.slurm.assoc_tree import AssocTree
from fairshare_cli.core.slurm.billing import requested_billing, tres_order
from fairshare_cli.core.slurm.factors import (
    INFINITE_MAX_AGE,
    INFINITE_MINUTES,
    clamp_priority,
    job_size_factor,
    job_tres_value,
    split_qos,
)
from fairshare_cli.core.slurm.fairshare import job_fairshare_factor
from fairshare_cli.core.slurm.partition import (
    partitions_of,
    sizing_choices,
    submitted_since,
    submitted_time_limit,
    tier_order,
)
from fairshare_cli.core.slurm.sizer import Sizes, weighted_sum
from fairshare_cli.errors import InputError

FACTOR_KEYS = ("age", "assoc", "fairshare", "jobsize", "partition", "qos")
#: Shared by rows without TRES weights; never modified.
_NO_TRES: dict[str, float] = {}


class Weights(msgspec.Struct, frozen=True):
    """``PriorityWeight*`` (uint32) and ``PriorityWeightTRES``."""

    age: int = 0
    assoc: int = 0
    fairshare: int = 0
    jobsize: int = 0
    partition: int = 0
    qos: int = 0
    tres: Mapping[str, float] = msgspec.field(default_factory=dict)
    #: ``PriorityWeightTRES`` as written, when the config gives it as a string.
    tres_text: str | None = None

    def get(self, key: str) -> int:
        """The weight of a scalar factor by its key in :data:`FACTOR_KEYS`."""
        return int(getattr(self, key))


class PartitionInfo(msgspec.Struct, frozen=True):
    """A partition: its ``PriorityJobFactor``, ``MaxTime``, TRES counts and ``PriorityTier``."""

    name: str
    priority_job_factor: int = 1
    max_time: float | None = None
    #: ``DefaultTime`` (None: unset): the time limit of a job that sets none
    default_time: float | None = None
    tres: Mapping[str, float] = msgspec.field(default_factory=dict)
    priority_tier: int = 1
    #: ``TRESBillingWeights`` (:func:`~.billing.billing_weights`; None: unset)
    billing_weights: Mapping[str, float] | None = None


class QosInfo(msgspec.Struct, frozen=True):
    """A QOS: its priority and usage factor."""

    name: str
    priority: int = 0
    usage_factor: float = 1.0


class PriorityContext(msgspec.Struct, frozen=True):
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
    assoc_factors: Mapping[tuple[str, str], float] = msgspec.field(default_factory=dict)
    #: Whether a job may name several QOS (Slurm 24.11 on; not 22.05).
    multi_qos: bool = True
    #: Whether sprio lists a job of several partitions whose priority an admin set by its
    #: zeroed factors (Slurm 22.05: :meth:`~.priority_table.TableBuilder.add_admin_rows`).
    admin_parts_zeroed: bool = False
    #: ``GresTypes`` (None: unset): the GRES a job may ask (core/slurm/gres_types.py).
    gres_types: tuple[str, ...] | None = None


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

    def __init__(  # noqa: PLR0913  a __slots__ record: one parameter per field
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


class FactorMaker:
    """The per-call constants and caches of sprio's factor pass
    (:func:`~fairshare_cli.core.slurm.priority_table.compute_table`).

    Jobs of one queue share few partitions, QOS, associations and job sizes, so each factor
    is computed once per distinct input and looked up after.
    """

    def __init__(self, ctx: PriorityContext, now: float) -> None:
        w = ctx.weights
        flags = ctx.flags
        self.ctx = ctx
        self.now = now
        self.max_part = max([1, *(p.priority_job_factor for p in ctx.partitions.values())])
        self.max_qos = max([0, *(q.priority for q in ctx.qos.values())])
        self.no_norm_part = "NO_NORMAL_PART" in flags
        self.no_norm_qos = "NO_NORMAL_QOS" in flags
        self.no_norm_tres = "NO_NORMAL_TRES" in flags
        self.relative = "SMALL_RELATIVE_TO_TIME" in flags
        # In the controller's TRES order: a job's TRES factors are an array in it, which
        # sprio lists and adds in that order (print.c, get_priority_from_factors).
        self.tres_weights = sorted(
            [(k, float(v)) for k, v in w.tres.items() if v], key=lambda kv: tres_order(kv[0])
        )
        self.weights = (w.age, w.assoc, w.fairshare, w.jobsize, w.partition, w.qos)
        self.max_age = INFINITE_MAX_AGE if math.isinf(ctx.max_age) else ctx.max_age
        self.kept_tres = True  # sprio's rows (:meth:`_kept_tres`), not the controller's
        self.fs_cache: dict[int, float] = {}
        self.part_cache: dict[str | None, list[tuple[PartitionInfo, float]]] = {}
        self.qos_cache: dict[str | None, tuple[tuple[str, float, float], ...]] = {}
        self.js_cache: dict[tuple[int, int, float | None], float] = {}
        # TRES from the job's size only (not its attributes): shared by jobs of one size.
        sized = ("cpu", "billing", "mem", "node")
        self.tres_by_size = all(k in sized for k, _ in self.tres_weights) and all(
            k in sized for p in ctx.partitions.values() for k in p.billing_weights or ()
        )
        self.tres_cache: dict[
            tuple[str, str, int, int, int], tuple[dict[str, float], dict[str, float]]
        ] = {}

    def association(self, job: Any, user: str) -> Any:
        """The job's association, or None for a job that is not a Slurm job.

        Raises:
            InputError: an unknown account, or a user with no association in it.
        """
        account = job.account
        assoc = self.ctx.tree.user_assoc(user, account)
        if assoc is not None:
            return assoc
        if account is None and job.partition is None and job.qos is None:
            return None
        if account is not None and account not in self.ctx.tree.accounts:
            raise InputError(f'job {job.id}: unknown account "{account}"')
        raise InputError(
            f'job {job.id}: user "{user}" has no association'
            + (f' in account "{account}"' if account else "")
        )

    def partitions(self, job: Any) -> list[tuple[PartitionInfo, float]]:
        """The job's partitions with their partition factors (cached by partition list),
        the first named first, then the others in sprio's order (:func:`tier_order`)."""
        pinfos = self.part_cache.get(job.partition)
        if pinfos is None:
            pinfos = _partition_factors(
                job, self.ctx, self.max_part, self.no_norm_part, self.weights[4]
            )
            self.part_cache[job.partition] = pinfos
        return pinfos

    def jobsize(self, job: Any, tl_secs: float | None) -> float:
        """The job-size factor of a job whose time limit is ``tl_secs`` (its own, else its
        first partition's ``DefaultTime``, else the sizing partition's ``MaxTime``:
        :meth:`size_values`), UNLIMITED when None."""
        if not self.weights[3]:
            return 0.0
        jkey = (job.num_nodes, job.request_cpus, tl_secs)
        f_js = self.js_cache.get(jkey)
        if f_js is None:
            # In whole minutes, as Slurm keeps time limits (time_str2mins rounds up); an
            # unset MaxTime is UNLIMITED, INFINITE minutes (read_config.c).
            if tl_secs is None or math.isinf(tl_secs):
                tl_min = INFINITE_MINUTES
            else:
                tl_min = float(math.ceil(tl_secs / 60.0))
            ctx = self.ctx
            f_js = job_size_factor(
                job.num_nodes or 1,
                job.request_cpus,
                ctx.node_count,
                ctx.cluster_cpus,
                favor_small=ctx.favor_small,
                relative_to_time=self.relative,
                time_limit_minutes=tl_min,
            )
            self.js_cache[jkey] = f_js
        return f_js

    def tres(
        self, job: Any, info: PartitionInfo, primary: PartitionInfo
    ) -> tuple[dict[str, float], dict[str, float]]:
        """The TRES factors and weighted factors of a job in one partition (``primary``:
        the job's first, whose weights bill its request).

        Rows share these dicts (jobs of one size in one partition): never mutate them.
        """
        if not self.tres_weights:
            return _NO_TRES, _NO_TRES
        if not self.tres_by_size:
            return self._tres(job, info, primary)
        key = (info.name, primary.name, job.request_cpus, job.request_memory, job.num_nodes)
        both = self.tres_cache.get(key)
        if both is None:
            both = self.tres_cache[key] = self._tres(job, info, primary)
        return both

    def _tres(
        self, job: Any, info: PartitionInfo, primary: PartitionInfo
    ) -> tuple[dict[str, float], dict[str, float]]:
        tres_f: dict[str, float] = {}
        tres_w: dict[str, float] = {}
        for tname, tw in self.tres_weights:
            if tname == "billing":
                value = requested_billing(
                    job, primary.billing_weights, self.ctx.flags, primary.name
                )
            elif tname == "cpu":
                value = float(job.request_cpus)
            else:
                value = job_tres_value(job, tname)
            if self.no_norm_tres:
                f = value
            else:
                total = info.tres.get(tname, 0.0)
                f = value / total if total else 0.0
            tres_f[tname] = f
            tres_w[tname] = f * tw
        return tres_f, tres_w

    def assoc_values(self, assoc: Any, user: str) -> tuple[str, float, float, float, float]:
        """What the jobs of one association share: its account, the ASSOC factor and the
        fair-share factor (under the configured algorithm), and their weighted values."""
        f_assoc = self.ctx.assoc_factors.get((assoc.account, user), 0.0) if self.weights[1] else 0.0
        f_fs = self.fs_cache.get(id(assoc)) if self.weights[2] else 0.0
        if f_fs is None:
            f_fs = self.fs_cache[id(assoc)] = job_fairshare_factor(assoc, self.ctx.algorithm)
        return assoc.account, f_assoc, f_fs, f_assoc * self.weights[1], f_fs * self.weights[2]

    def qos_values(self, job: Any) -> tuple[tuple[str, float, float], ...]:
        """What the jobs of one QOS (or one list of QOS) share, per QOS in sprio's order:
        the QOS shown, the QOS factor (its priority over the largest one, or raw) and its
        weighted value (cached by the job's QOS text).

        Raises:
            InputError: an unknown QOS (``normal`` may be left unconfigured), or a list of
                several that the Slurm version modelled does not take.
        """
        text = job.qos or self.ctx.default_qos
        if text is not None and "," in text and submitted_since(job.submit_time, self.now):
            text = f"{text}\0new"  # (its priority-0 rows keep its highest QOS's factor)
        got = self.qos_cache.get(text)
        if got is None:
            if text is None or "," not in text:
                f_qos = self._qos_factor(job, text)
                got = ((text or "", f_qos, f_qos * self.weights[5]),)
            else:
                got = self._qos_list(job, text)
            self.qos_cache[text] = got
        return got

    def _qos_factor(self, job: Any, qname: str | None) -> float:
        qinfo = self.ctx.qos.get(qname) if qname is not None else None
        if qname is not None and qinfo is None and qname != "normal":
            raise InputError(f'job {job.id}: unknown QOS "{qname}"')
        if qinfo is not None and qinfo.priority and self.weights[5]:
            return float(qinfo.priority) if self.no_norm_qos else qinfo.priority / self.max_qos
        return 0.0

    def _qos_list(self, job: Any, text: str) -> tuple[tuple[str, float, float], ...]:
        """A job's several QOS (Slurm 24.11 on, ``_get_qos_ptr_list``): named once each
        (empty names skipped, as ``strtok`` does), highest priority first, QOS of one
        priority as named (``priority_sort_qos_desc`` through glibc's stable ``qsort``).

        A row's QOS factor is its QOS's, but for a QOS of priority 0, whose row keeps the
        factor of the job's own QOS as of the last priority pass (``_create_prio_list_qos``
        copies the job's factors and replaces the QOS's only if it has a priority). The
        job's own QOS is its highest at submission (``_get_qos_info``); then slurmctld tries
        the job under each QOS in turn, the lowest last, and keeps the last it tried
        (``_select_nodes_qos`` at submission, then the schedulers' walks of the queue:
        ``job_ptr->qos_ptr = job_queue_rec->qos_ptr``), so from the first decay pass on
        (``decay_apply_weighted_factors``) the job's factor is its lowest QOS's: 0 when a QOS
        of priority 0 is in the list. A job submitted since the last pass (``text`` ends
        ``\\0new``) still has its highest QOS's.

        Raises:
            InputError: Slurm 22.05 (one QOS a job), a list of one QOS, an unknown QOS.
        """
        text, new, _ = text.partition("\0")
        names = list(split_qos(f"job {job.id}", text, self.ctx.multi_qos))
        factors = {name: self._qos_factor(job, name) for name in names}
        qos = self.ctx.qos

        def priority(name: str) -> int:
            return qos[name].priority if name in qos else 0

        names.sort(key=lambda name: -priority(name))
        own = factors[names[0] if new else names[-1]]
        weight = self.weights[5]
        out = []
        for name in names:
            f_qos = factors[name] if priority(name) else own
            out.append((name, f_qos, f_qos * weight))
        return tuple(out)

    def size_values(self, job: Any, pinfos: list[tuple[PartitionInfo, float]]) -> Any:
        """What the jobs of one size share in these partitions: the job-size factor and
        its weighted value, and per partition its name, partition factor and weighted
        value, TRES factors, weighted TRES factors and the non-zero weighted TRES terms;
        a :class:`~.sizer.Sizes` where these depend on the partition slurmctld leaves the
        job in (:func:`~.partition.sizing_choices` gives more than one, which differ)."""
        ordered = tier_order(pinfos)
        fresh = {info.name: self.tres(job, info, pinfos[0][0]) for info, _ in ordered}
        limit = submitted_time_limit(job, pinfos[0][0])
        choices = sizing_choices(job, pinfos, ordered, self.now, limit)
        sized = {info.name: self._sized(job, info, ordered, fresh, limit) for info in choices}
        kinds = {(js, *((p[0], tuple(p[4].items())) for p in ps)) for js, _, ps in sized.values()}
        if len(kinds) == 1:
            return sized[choices[-1].name]
        start = pinfos[0][0]
        js_w = {name: size[1] for name, size in sized.items()}
        if start.name not in js_w:
            f_js = self.jobsize(job, start.max_time if limit is None else limit)
            js_w[start.name] = f_js * self.weights[3]
        keyed = [
            (info.name, f * self.weights[4], weighted_sum(fresh[info.name][1]))
            for info, f in ordered
            if info.name in sized
        ]
        return Sizes(start.name, js_w, keyed, sized)

    def _sized(
        self, job: Any, sizer: PartitionInfo, ordered: Any, fresh: Any, limit: float | None
    ) -> Any:
        """:meth:`size_values`' tuple for a job left in partition ``sizer``."""
        f_js = self.jobsize(job, sizer.max_time if limit is None else limit)
        own = None  # (the job's weighted TRES factors in its own partition)
        if self.kept_tres and len(ordered) > 1 and self.tres_weights and not self.no_norm_tres:
            own = fresh[sizer.name][1]
        parts = []
        for info, f_part in ordered:
            tres_f, tres_w = fresh[info.name]
            if own is not None and info is not sizer:
                tres_f, tres_w = self._kept_tres(info, tres_f, tres_w, own)
            terms = tuple(filter(None, tres_w.values()))
            parts.append((info.name, f_part, f_part * self.weights[4], tres_f, tres_w, terms))
        return f_js, f_js * self.weights[3], parts

    def _kept_tres(self, info: PartitionInfo, tres_f: Any, tres_w: Any, own: Any) -> Any:
        """A row's TRES factors where its partition counts none of a TRES the job asks and
        its own (``own``: the weighted factors there) counts some: the row keeps the job's
        weighted factor and weighs it again (``_create_prio_list_qos``, 22.05's
        ``_filter_job``: ``_get_tres_factors`` leaves the entry, ``_get_tres_prio_weighted``)."""
        kept = [(t, w) for t, w in self.tres_weights if own.get(t) and not info.tres.get(t)]
        if not kept:
            return tres_f, tres_w
        tres_f, tres_w = dict(tres_f), dict(tres_w)
        for tname, weight in kept:
            tres_f[tname] = own[tname]
            tres_w[tname] = own[tname] * weight
        return tres_f, tres_w


#: Why a config of no ``[partitions]`` knows no partition, and what brings them.
NO_PARTITIONS = "the config has no [partitions]: fs import slurm-conf brings them"


def _partition_factors(
    job: Any, ctx: PriorityContext, max_part: int, no_norm: bool, weight: int
) -> list[tuple[PartitionInfo, float]]:
    """The job's partitions (or the default) with their partition factors, as named.

    Raises:
        InputError: an unknown partition, or none given and none is the default.
    """
    parts = partitions_of(job, ctx.partitions, ctx.default_partition)
    if not parts:  # (a pool of no partitions: sprio has none to show)
        why = f" ({NO_PARTITIONS})" if not ctx.partitions else ""
        raise InputError(
            f"job {job.id}: no partition given and no default partition is configured{why}"
        )
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
