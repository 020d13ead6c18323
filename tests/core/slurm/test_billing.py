"""A job's billable TRES under a partition's ``TRESBillingWeights``.

The numbers are derived by hand from ``assoc_mgr_tres_weighted`` (``src/common/assoc_mgr.c``)
and ``_tres_weight_item`` (``src/common/slurm_protocol_api.c``): each TRES's count times its
weight, memory counted in MB and a weight's unit letter dividing it by 1024 per step above
MB (``Mem=0.25G`` is 0.25/1024 per MB, 0.25 per GB); ``billing`` itself left out. With
``PriorityFlags=MAX_TRES`` the node TRES (CPU, memory, node, GRES) give their largest term
alone, the others (licences) still summed; with ``MAX_TRES_GRES`` the largest of CPU,
memory and node, plus the GRES terms summed.
"""

from __future__ import annotations

import pytest

from fairshare_cli.core.config import PartitionSpec
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.slurm.billing import (
    Billing,
    billable_tres,
    billing_notes,
    billing_weights,
    job_tres,
)
from fairshare_cli.core.tres import tres_text
from fairshare_cli.core.usage import UsageRecord
from fairshare_cli.errors import InputError

WEIGHTS = "CPU=1.0,Mem=0.25G,Node=0.5,GRES/gpu=2.0,License/matlab=3"
#: 4 CPUs, 16 GB, one node, 2 GPUs, one licence; the billing count itself is not read
COUNTS = {"cpu": 4.0, "mem": 16384.0, "node": 1.0, "gres/gpu": 2.0, "license/matlab": 1.0}


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        # 4 x 1.0 + 16384 x 0.25/1024 + 1 x 0.5 + 2 x 2.0 + 1 x 3 = 4 + 4 + 0.5 + 4 + 3
        pytest.param(frozenset(), 15.5, id="sum"),
        # max(4, 4, 0.5, 4) + 3
        pytest.param(frozenset({"MAX_TRES"}), 7.0, id="max_tres"),
        # max(4, 4, 0.5) + 4 (the GPUs) + 3
        pytest.param(frozenset({"MAX_TRES_GRES"}), 11.0, id="max_tres_gres"),
    ],
)
def test_billable_tres_sums_or_takes_the_largest(flags: frozenset[str], expected: float) -> None:
    counts = {**COUNTS, "billing": 1000.0}
    assert billable_tres(counts, billing_weights(WEIGHTS), flags) == expected


def test_weights_read_as_slurmctld_reads_them() -> None:
    """Names without regard to case; ``G`` on memory is per GB (/1024 per MB), ``K`` on a
    weight of a unitless TRES divides by 1024 (one step above none)."""
    assert billing_weights("cpu=2,MEM=1G,gres/GPU=1K") == {
        "cpu": 2.0,
        "mem": 1 / 1024,
        "gres/gpu": 1 / 1024,
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("CPU=1,Cup=2", "TRES weight 'cup' is not a configured TRES type", id="typo"),
        pytest.param("CPU=1,Mem=1X", "invalid unit type 'X'", id="unit"),
        pytest.param("CPU", "is an invalid TRES weight entry", id="no_value"),
        # get_convert_unit_val's int: 1024^4 overflows (undefined), on cpu's T, not mem's
        pytest.param("Mem=1T,CPU=1T", "a T unit on a TRES other than mem and bb", id="T"),
        pytest.param("gres/gpu=1P", "1024\\^5, which overflows Slurm's int", id="P"),
    ],
)
def test_weights_slurmctld_refuses(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        billing_weights(text)


PARTITIONS = {
    "batch": PartitionSpec(name="batch", default=True, billing_weights="CPU=0.5,Mem=0.25G"),
    "gpu": PartitionSpec(name="gpu", billing_weights=WEIGHTS),
    "plain": PartitionSpec(name="plain"),
}


def test_a_record_bills_its_cpus_by_its_partitions_weights() -> None:
    """A usage record names CPUs only: 8 CPUs at 0.5 bill 4 in batch (and in the default
    partition, batch, for a record naming none); in a partition without weights (None) it
    bills its CPUs."""
    billing = Billing(PARTITIONS, [])
    record = UsageRecord(owner="u", start=0.0, cpus=8, partition="batch")
    assert billing.of_record(record) == 4.0
    assert billing.of_record(record._replace(partition=None)) == 4.0
    assert billing.of_record(record._replace(partition="plain")) is None
    assert billing.of_record(record._replace(partition="gpu")) == 8.0


def test_a_record_of_no_partition_bills_in_the_last_default() -> None:
    """Two ``Default=YES`` partitions: the last is the default (``read_config.c`` moves
    the default to each one it reads), so 8 CPUs bill 8 × 0.25 = 2 in ``half``; fs took the
    first, batch (8 × 0.5 = 4). None is the default: its CPUs (slurmctld has no record of
    such a job: sbatch refuses it)."""
    half = PartitionSpec(name="half", default=True, billing_weights="CPU=0.25")
    record = UsageRecord(owner="u", start=0.0, cpus=8)
    assert Billing({**PARTITIONS, "half": half}, []).of_record(record) == 2.0
    undefaulted = {"batch": PartitionSpec(name="batch", billing_weights="CPU=0.5")}
    assert Billing(undefaulted, []).of_record(record) is None


def test_a_record_with_tres_bills_its_jobs_cpus_without_weights() -> None:
    """``calc_job_billable_tres`` (``job_mgr.c``) bills a job of a partition without
    ``TRESBillingWeights`` its own CPUs. A claim's record keeps its slot's CPUs (4) and its
    job's TRES (2 CPUs): it bills 2 in ``plain``; a record whose TRES names its own CPUs,
    or none, or that has no TRES, bills its CPUs (None); under ``batch``'s weights the
    job's 2 CPUs bill 2 x 0.5 = 1."""
    claim = UsageRecord(owner="u", start=0.0, cpus=4, partition="plain", tres="cpu=2,node=1")
    billing = Billing(PARTITIONS, [])
    assert billing.of_record(claim) == 2.0
    assert billing.of_record(claim._replace(tres="cpu=4,mem=0")) is None
    assert billing.of_record(claim._replace(tres="mem=1024")) is None
    assert billing.of_record(claim._replace(tres=None)) is None
    assert billing.of_record(claim._replace(partition="batch")) == 1.0
    unweighted = Billing({"plain": PartitionSpec(name="plain")}, [])
    assert not unweighted.active
    assert unweighted.of_record(claim) == 2.0


def test_a_job_bills_its_memory_nodes_and_gres() -> None:
    """A job of 4 CPUs, 16384 MB, 2 GPUs (``attributes``) on one node in gpu bills as
    COUNTS: 15.5; in batch 4 x 0.5 + 16 x 0.25 = 6."""
    job = Job(
        id="1",
        owner="u",
        request_cpus=4,
        request_memory=16384,
        num_nodes=1,
        attributes={"gres/gpu": 2, "license/matlab": 1},
    )
    billing = Billing(PARTITIONS, ["MAX_TRES"])
    assert billing.of_job(job, "gpu") == 7.0  # (MAX_TRES: 4 + 3)
    assert Billing(PARTITIONS, []).of_job(job, "gpu") == 15.5
    assert Billing(PARTITIONS, []).of_job(job, "batch") == 6.0
    assert Billing(PARTITIONS, []).of_job(job, "plain") is None


def test_a_jobs_tres_are_found_in_any_case() -> None:
    """slurmctld finds a GRES's TRES without regard to case (``assoc_mgr_find_tres_pos``:
    ``xstrcasecmp``), so a job's ``"gres/GPU": 2`` (``--gres=GPU:2`` under
    ``GresTypes=GPU``) is the gres/gpu that ``GRES/gpu=2.0`` weighs, and a typed
    ``"GRES/gpu:A100": 1`` counts towards it. In gpu: 4 x 1.0 + 16384 x 0.25/1024 +
    1 x 0.5 + 2 x 2.0 = 12.5, the typed one 4 + 4 + 0.5 + 1 x 2.0 = 10.5. fs found no
    gres/gpu in either (8.5) and left both out of the job's TRES text."""
    job = Job(
        id="1", owner="u", request_cpus=4, request_memory=16384, num_nodes=1,
        attributes={"gres/GPU": 2},
    )  # fmt: skip
    assert Billing(PARTITIONS, []).of_job(job, "gpu") == 12.5
    typed = Job(id="2", owner="u", request_cpus=4, request_memory=16384, num_nodes=1,
                attributes={"GRES/gpu:A100": 1})  # fmt: skip
    assert Billing(PARTITIONS, []).of_job(typed, "gpu") == 10.5
    assert job_tres(job) == "cpu=4,mem=16384,node=1,gres/gpu=2"
    assert job_tres(typed) == "cpu=4,mem=16384,node=1,gres/gpu:a100=1"


def test_no_weights_leaves_every_job_at_its_cpus() -> None:
    billing = Billing({"plain": PartitionSpec(name="plain")}, [])
    assert not billing.active


def test_a_record_bills_its_tres() -> None:
    """Two sacct jobs alike but for their memory (8 GB and 16 GB at 0.25 per GB, 2 CPUs at
    0.5: ``batch``'s weights) each bill their own: 2 x 0.5 + 8 x 0.25 = 3 and
    2 x 0.5 + 16 x 0.25 = 5 (AllocTRES billing=3 and 5: no note). The same record without
    its TRES bills its CPUs under the weights alone: 1. A job of a partition with no
    weights billed 6 for 2 CPUs is named."""
    record = UsageRecord(owner="u", start=0.0, cpus=2, partition="batch")
    small = record._replace(tres=tres_text({"billing": 3.0, "cpu": 2.0, "mem": 8192.0}))
    large = record._replace(tres=tres_text({"billing": 5.0, "cpu": 2.0, "mem": 16384.0}))
    plain = record._replace(partition="plain", tres="cpu=2")
    billing = Billing(PARTITIONS, [])
    assert [billing.of_record(r) for r in (small, large, record, plain)] == [3.0, 5.0, 1.0, None]
    found = billing_notes(
        [small, large, plain],
        [
            (0, "1", {"cpu": 2.0, "mem": 8192.0, "billing": 3.0}),
            (1, "2", {"cpu": 2.0, "mem": 16384.0, "billing": 5.0}),
            (2, "3", {"cpu": 2.0, "billing": 6.0}),
        ],
        billing,
    )
    assert found.unweighted == ["3 (billing=6 for 2 CPUs)"]
    assert found.differ == []


@pytest.mark.parametrize("text", ["mem", "mem=x", "=1", "mem=-1", "mem=inf", "mem=nan", ""])
def test_tres_text_not_ours_is_refused(text: str) -> None:
    """A record's TRES changed by another program (the store is SQLite): one line, not a
    traceback."""
    record = UsageRecord(owner="u", start=0.0, cpus=2, partition="batch", tres=text)
    with pytest.raises(InputError, match="expected name=count"):
        Billing(PARTITIONS, []).of_record(record)


def test_slurm_22_05_reads_max_tres_gres_as_max_tres() -> None:
    """22.05's ``read_config.c`` finds ``MAX_TRES`` in ``MAX_TRES_GRES`` (which came with
    25.05): the GPUs are one of the node TRES there, max(4, 4, 0.5, 4) + 3 = 7, where
    today's Slurm adds them to the largest of the others: 4 + 4 + 3 = 11."""
    partitions = {"gpu": PartitionSpec(name="gpu", billing_weights=WEIGHTS)}
    old = Billing(partitions, ["MAX_TRES_GRES"], output_compat="22.05")
    now = Billing(partitions, ["MAX_TRES_GRES"])
    assert billable_tres(COUNTS, old.weights["gpu"], old.flags) == 7.0
    assert billable_tres(COUNTS, now.weights["gpu"], now.flags) == 11.0
