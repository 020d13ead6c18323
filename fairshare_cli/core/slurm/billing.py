"""A job's billable TRES: what Slurm charges its association for (``TRESBillingWeights``).

slurmctld charges a running job's usage as ``Δ · d^Δ · billable_tres · usage_factor``
(``_apply_new_usage`` in ``priority_multifactor.c``), where ``billable_tres`` is
``calc_job_billable_tres`` (``job_mgr.c``): the job's CPUs when its partition sets no
``TRESBillingWeights``, else ``assoc_mgr_tres_weighted`` (``assoc_mgr.c``) of its
allocated TRES under the partition's weights. Memory counts in MB (a weight written
``Mem=0.25G`` is 0.25/1024 per MB: :func:`~.factors.parse_tres_weights`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from fairshare_cli.core.config import Config, PartitionSpec
from fairshare_cli.core.slurm.factors import job_tres_value, parse_flags, parse_tres_weights
from fairshare_cli.core.slurm.partition import default_partition
from fairshare_cli.core.slurm.usage import MAX_STORED
from fairshare_cli.core.tres import tres_counts, tres_text
from fairshare_cli.core.usage import UsageRecord
from fairshare_cli.errors import InputError

#: The TRES Slurm always has, by id (``TRES_CPU`` = 1 ... ``TRES_PAGES`` = 8): their order
#: in the controller's TRES array; any other TRES (gres, licenses, ...) comes after them.
STANDARD_TRES = ("cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages")
#: The kinds (``type/name``: ``gres/gpu``, ``license/x``, ...) ``AccountingStorageTRES``
#: may add.
_TRES_KINDS = ("gres", "license", "bb", "fs", "ic")


def tres_order(name: str) -> int:
    """A TRES's place in the controller's TRES order (the others after the standard ones,
    in the order given: a stable sort keeps it)."""
    try:
        return STANDARD_TRES.index(name.lower())
    except ValueError:
        return len(STANDARD_TRES)


@functools.lru_cache(maxsize=64)
def billing_weights(text: str) -> Mapping[str, float]:
    """``TRESBillingWeights`` (``CPU=1.0,Mem=0.25G,GRES/gpu=2.0``) as
    ``slurm_get_tres_weight_array`` reads it: weights by lower-case TRES name.

    Raises:
        ValueError: what makes slurmctld stop with this string (a bad item or unit, a
            TRES type no controller has: "is not a configured TRES type"), a negative
            weight (slurmctld would charge usage below 0), and a weight above
            :data:`~.usage.MAX_STORED`, the largest usage rate the state stores (a job of
            one CPU would bill more).
    """
    weights = parse_tres_weights(text)
    for name in weights:
        kind, slash, _ = name.partition("/")
        if name not in STANDARD_TRES and not (slash and kind in _TRES_KINDS):
            raise ValueError(f"TRES weight '{name}' is not a configured TRES type")
        if weights[name] < 0:  # (slurmctld takes it, and charges usage below 0)
            raise ValueError(
                f"TRES weight {name}={weights[name]:g} is negative: fs models no negative "
                "billing; expected 0 or more"
            )
        if weights[name] > MAX_STORED:  # (the state's bound on a running job's rate)
            raise ValueError(
                f"TRES weight {name}={weights[name]:g} is above {MAX_STORED:g}, the largest "
                f"usage rate the state stores; expected at most {MAX_STORED:g}"
            )
    return weights


def billing_flags(flags: Iterable[str], output_compat: str) -> frozenset[str]:
    """``PriorityFlags`` as the Slurm modelled reads them (:func:`~.factors.parse_flags`),
    where 22.05, which had no ``MAX_TRES_GRES`` (25.05 on), finds ``MAX_TRES`` in it."""
    parsed = parse_flags(flags)
    if output_compat == "22.05" and "MAX_TRES_GRES" in parsed:
        return (parsed - {"MAX_TRES_GRES"}) | {"MAX_TRES"}
    return parsed


def billable_tres(
    counts: Mapping[str, float],
    weights: Mapping[str, float],
    flags: frozenset[str],
    partition: str | None = None,
) -> float:
    """``assoc_mgr_tres_weighted``: each TRES's count times its weight (``billing`` itself
    left out), summed in the controller's TRES order; with ``MAX_TRES`` the CPU, memory,
    node and GRES terms give their largest alone (the other TRES still summed), with
    ``MAX_TRES_GRES`` the largest of CPU, memory and node plus the GRES terms summed.

    ``counts``: the job's TRES by lower-case name (memory in MB); ``flags``: the parsed
    ``PriorityFlags`` (:func:`~.factors.parse_flags`); ``partition``: whose weights they
    are, for the error.

    Raises:
        InputError: the weights bill the counts more than :data:`~.usage.MAX_STORED`, the
            largest usage rate the state stores (``CPU=1e30`` of 2 CPUs), naming the
            partition.
    """
    by_max = "MAX_TRES" in flags or "MAX_TRES_GRES" in flags
    gres_apart = "MAX_TRES_GRES" in flags
    to_bill_node = to_bill_global = billable_gres = 0.0
    for name in sorted(counts, key=tres_order):  # (stable: others in the order given)
        if name == "billing":
            continue
        value = counts[name] * weights.get(name, 0.0)
        is_gres = name.startswith("gres/")
        if by_max and (name in ("cpu", "mem", "node") or is_gres):
            if gres_apart and is_gres:
                billable_gres += value
            else:
                to_bill_node = max(to_bill_node, value)
        else:
            to_bill_global += value
    if gres_apart:
        to_bill_node += billable_gres
    total = to_bill_node + to_bill_global
    if not total <= MAX_STORED:  # (the state's bound on a running job's rate; inf too)
        shown = ",".join(f"{name}={weight:g}" for name, weight in weights.items())
        whose = f"partitions.{partition}." if partition is not None else ""
        raise InputError(
            f"{whose}billing_weights {shown}: {total:g} billable TRES for "
            f"{', '.join(f'{n}={c:g}' for n, c in counts.items())} (more than "
            f"{MAX_STORED:g}, the largest usage rate the state stores); expected smaller "
            "weights"
        )
    return total


#: The billings :meth:`Billing.of_record` remembers (then forgotten at once).
_KEPT = 100_000


class Billing:
    """What a job bills per slot (``calc_job_billable_tres``): its CPUs when its partition
    sets no ``TRESBillingWeights`` (None here, unless a record's ``tres`` names CPUs other
    than its own), else :func:`billable_tres` of its TRES."""

    def __init__(
        self,
        partitions: Mapping[str, PartitionSpec],
        flags: Iterable[str],
        output_compat: str = "current",
    ) -> None:
        self.weights = {
            name: billing_weights(spec.billing_weights)
            for name, spec in partitions.items()
            if spec.billing_weights
        }
        #: the partition of a job that names none (the last ``Default=YES``)
        self.default = default_partition(partitions)
        self.flags = billing_flags(flags, output_compat)
        #: False: every job bills its CPUs (only a record's ``tres`` to look up)
        self.active = bool(self.weights)
        self._by_record: dict[tuple[str | None, int, str | None], float | None] = {}

    @classmethod
    def of_config(cls, config: Config) -> Billing:
        """The config's partitions, ``PriorityFlags`` and Slurm version."""
        prio = config.priority
        return cls(config.partitions, prio.flags, prio.output_compat)

    def weights_of(self, partition: str | None) -> Mapping[str, float] | None:
        """The weights of ``partition`` (the first named; None: the default partition),
        None where it sets none."""
        name = self.partition_of(partition)
        return self.weights.get(name) if name is not None else None

    def of_record(self, record: UsageRecord) -> float | None:
        """A usage record's billing per slot: its CPUs and its ``tres`` (memory, nodes,
        GRES: :func:`tres_text`; none, the CPUs alone) under its partition's weights; in a
        partition without weights, its job's CPUs (:func:`record_tres`: a record of a claim
        keeps the slot's CPUs, its ``tres`` the job's); None: it bills its CPUs.

        Raises:
            InputError: the record's ``tres`` is not :func:`tres_text`'s (a history file
                another program changed), or the weights bill it beyond the state's bound.
        """
        key = (record.partition, record.cpus, record.tres)
        if key not in self._by_record:
            if len(self._by_record) >= _KEPT:  # (as many allocations as jobs: flat memory)
                self._by_record.clear()
            weights = self.weights_of(record.partition)
            if weights is not None:
                billed: float | None = billable_tres(
                    record_tres(record), weights, self.flags, self.partition_of(record.partition)
                )
            else:  # (calc_job_billable_tres: the job's CPUs)
                billed = record_tres(record)["cpu"] if record.tres is not None else None
                if billed == record.cpus:
                    billed = None
            self._by_record[key] = billed
        return self._by_record[key]

    def of_job(self, job: Any, partition: str | None) -> float | None:
        """A job's billing in ``partition`` (None: the default one): its CPUs, memory
        (``request_memory``, MB), nodes (``num_nodes``, else 1) and other TRES (its
        ``attributes``, as ``gres/gpu``) under the partition's weights; None: it bills its
        CPUs."""
        weights = self.weights_of(partition)
        if weights is None:
            return None
        return job_billable(job, weights, self.flags, self.partition_of(partition))

    def partition_of(self, partition: str | None) -> str | None:
        """The partition whose weights :meth:`weights_of` gives for ``partition``."""
        return partition.split(",", 1)[0] if partition else self.default

    def of_dumped(self, job: Any, stored: float) -> float:
        """What a job of a dump (``squeue``, ``scontrol show jobs``) is charged: ``stored``,
        its ``billing=`` (slurmctld's, truncated to a whole number), unless its partition's
        weights give a value whose whole part it is: then that value, which slurmctld
        charges (a GRES the job object does not carry, or weights not the cluster's, leave
        ``stored``)."""
        exact = self.of_job(job, job.partition) if self.weights else None
        return exact if exact is not None and math.trunc(exact) == stored else stored


def job_tres(job: Any) -> str | None:
    """A job's TRES as a usage record keeps them (:func:`tres_text`): what
    :func:`job_billable` bills of it under any weights, its CPUs (``request_cpus``),
    memory, nodes and the TRES its ``attributes`` name (``gres/gpu``, as a weight names
    it: in lower case; ``gres/GPU`` too, found in any case as slurmctld finds a TRES)."""
    attrs = getattr(job, "attributes", {}) or {}
    lower = dict.fromkeys(k.lower() for k in attrs)  # (a TRES's name in any case)
    named = [k for k in lower if k.partition("/")[0] in _TRES_KINDS and "/" in k]
    return tres_text({name: job_tres_value(job, name) for name in ("cpu", "mem", "node", *named)})


def record_tres(record: UsageRecord) -> dict[str, float]:
    """What a record's slot holds, for :func:`billable_tres`: its CPUs, then its ``tres``
    (whose ``cpu``, AllocTRES's, stands for the CPUs where it has one)."""
    if record.tres is None:
        return {"cpu": float(record.cpus)}
    return {"cpu": float(record.cpus), **tres_counts(record.tres)}


def job_billable(
    job: Any, weights: Mapping[str, float], flags: frozenset[str], partition: str | None = None
) -> float:
    """:func:`billable_tres` of a job's CPUs, memory, nodes and attributes' TRES
    (``partition``: whose weights, for the error)."""
    counts = {name: job_tres_value(job, name) for name in weights if name != "billing"}
    return billable_tres(counts, weights, flags, partition)


def requested_billing(
    job: Any,
    weights: Mapping[str, float] | None,
    flags: frozenset[str],
    partition: str | None = None,
) -> float:
    """A pending job's ``tres_req_cnt[TRES_ARRAY_BILLING]`` (sprio's TRES factor of
    ``billing``): :func:`job_billable` under its partition's weights, truncated to a whole
    number as slurmctld stores it (a ``uint64_t``); its CPUs where the partition has none."""
    if weights is None:
        return float(job.request_cpus)
    return float(math.trunc(job_billable(job, weights, flags, partition)))


class Allocations(NamedTuple):
    """The jobs of known allocations billed otherwise than slurmctld billed them
    (:func:`billing_notes`)."""

    #: jobs of partitions without weights that slurmctld billed other than their CPUs
    unweighted: list[str]
    #: jobs whose stored billing is not what their partition's weights give
    differ: list[str]


def billing_notes(
    records: Sequence[UsageRecord],
    allocated: Iterable[tuple[int, str, Mapping[str, float]]],
    billing: Billing,
) -> Allocations:
    """The allocated jobs (``(record index, job id, TRES counts)``, as sacct's
    ``AllocTRES``) whose records (billed by :meth:`Billing.of_record`) are not billed as
    the counts' ``billing`` (slurmctld's, truncated to a whole number) says: a job of a
    partition without weights bills its CPUs, named in ``unweighted`` when that says
    otherwise; one whose partition's weights give a value whose whole part is not that
    is named in ``differ``."""
    unweighted: list[str] = []
    differ: list[str] = []
    for index, job_id, counts in allocated:
        record = records[index]
        stored = counts.get("billing")
        value = billing.of_record(record)
        if value is not None and billing.weights_of(record.partition) is not None:
            if stored is not None and stored != math.trunc(value):
                differ.append(f"{job_id} (billing={stored:g}, the weights give {value:g})")
        else:  # (no weights: the job's CPUs)
            cpus = record.cpus if value is None else value
            if stored is not None and stored != cpus:
                unweighted.append(f"{job_id} (billing={stored:g} for {cpus:g} CPUs)")
    return Allocations(unweighted, differ)
