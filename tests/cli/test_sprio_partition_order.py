"""``fs sprio``'s rows of a job submitted to several partitions, in slurmctld's order.

slurmctld keeps a job's partitions sorted by ``priority_sort_part_tier`` (Slurm 22.05's
``src/common/slurm_priority.c``, 26.05's ``src/interfaces/priority.c``): the higher
``PriorityTier`` first, and nothing else compared, so through ``list_sort``'s ``qsort`` (a
merge sort in glibc) partitions of one tier stay as ``get_part_list`` read them from the
job's ``-p`` list. ``priority_p_get_priority_factors_list`` makes sprio's rows in that
order, and sprio's default sort (``-S i``, by job id) keeps a job's rows in it. Every
number below is worked out by hand from ``priority_multifactor.c``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import SPRIO_ACCOUNTS, sprio_files

NOW_EPOCH = 1795262400

# Partition factors over the largest PriorityJobFactor (4): batch and low 1/4, express 1;
# weighted by 1000: 250, 250 and 1000. express is tier 3, batch and low tier 1.
POOL_TOML = """
[pool]
defaults = "current"
[[machines]]
name = "exec"
count = 2
attributes = { Cpus = 1, Memory = 4096 }
[partitions.batch]
default = true
[partitions.low]
priority_job_factor = 1
[partitions.express]
priority_job_factor = 4
priority_tier = 3
[priority]
max_age = "7-0"
[priority.weights]
age = 1000
partition = 1000
"""
POOL = POOL_TOML + SPRIO_ACCOUNTS


def _job(job_id: str, partition: str) -> dict[str, Any]:
    # 60,480 s of 604,800 (PriorityMaxAge 7-0): age factor 0.1, weighted 100.
    return {"id": job_id, "owner": "alice", "account": "hep", "partition": partition,
            "submit_time": NOW_EPOCH - 60480}  # fmt: skip


@pytest.mark.parametrize("compat", ["current", "22.05"])
def test_rows_by_partition_tier_then_as_named(
    tmp_path: Path, run: Callable[..., Any], compat: str
) -> None:
    # Job 1 names low, batch, express: express (tier 3) first, then low and batch (tier 1)
    # as named. Job 2 names batch, express: express first. PRIORITY 100 + 250 = 350 in a
    # tier-1 partition, 100 + 1000 = 1100 in express.
    # The same in Slurm 22.05 and 26.05.
    jobs = [_job("1", "low,batch,express"), _job("2", "batch,express")]
    config = POOL.replace("[priority]\n", f'[priority]\noutput_compat = "{compat}"\n')
    result = run("sprio", "-o", "%.5i %9r %.10Y %.10P", *sprio_files(tmp_path, jobs, config))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "JOBID PARTITION   PRIORITY  PARTITION",
        "    1 express         1100       1000",
        "    1 low              350        250",
        "    1 batch            350        250",
        "    2 express         1100       1000",
        "    2 batch            350        250",
    ]


def test_one_tier_keeps_the_order_named(tmp_path: Path, run: Callable[..., Any]) -> None:
    # As the 22.05 captures show (job 11: Partition=batch,express, both tier 1: batch's
    # row first); named the other way, the other way.
    config = POOL.replace("priority_tier = 3", "priority_tier = 1")
    jobs = [_job("1", "express,batch")]
    result = run("sprio", "-o", "%.5i %9r %.10Y", *sprio_files(tmp_path, jobs, config))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == [
        "    1 express         1100",
        "    1 batch            350",
    ]


# Two nodes of 8 CPUs (16 CPUs); short's MaxTime 1:00:00 (60 minutes), long's 1-0 (1440),
# both tier 1 unless a test says otherwise.
SIZED_TOML = """
[pool]
defaults = "current"
[[machines]]
name = "exec"
count = 2
attributes = { Cpus = 8, Memory = 4096 }
[partitions.short]
default = true
max_time = "1:00:00"
[partitions.long]
max_time = "1-0"
[priority]
output_compat = "COMPAT"
flags = ["SMALL_RELATIVE_TO_TIME"]
[priority.weights]
age = 0
fairshare = 0
jobsize = 2880000
partition = 0
qos = 0
"""


@pytest.mark.parametrize("compat", ["current", "22.05"])
def test_a_job_without_a_time_limit_is_sized_by_the_partition_slurmctld_left_it_in(
    tmp_path: Path, run: Callable[..., Any], compat: str
) -> None:
    """By hand, from ``set_priority_factors`` (``SMALL_RELATIVE_TO_TIME``): a job of 1 node
    and 8 CPUs is max(1 x 16 / 2, 8) = 8 CPUs, over its time limit, else
    ``job_ptr->part_ptr->max_time``, over the 16 CPUs: 8 / 60 / 16 = 1/120 in short,
    8 / 1440 / 16 = 1/2880 in long; x 2,880,000: 24000 and 1000.
    At submission ``job_allocate`` computes its factors in its primary partition, the first
    it names, then ``_select_nodes_parts`` tries it in each, highest tier first, and
    ``build_job_queue`` points it at each as it queues its records: the decay pass after
    that (``--now`` 12:00, on the 5-minute grid) sizes it in the last in tier order.
    Job 1 (short,long, submitted at 11:00, before the pass): long, 1000, in both rows.
    Job 2 (short,long, submitted at 12:00, after the pass: not yet recomputed): short,
    24000. Job 3 (long,short, 11:00): short, 24000. Job 4 (long,short, 11:00) with short at
    tier 2, which it is tried in first: long, 1000. 22.05 and 26.05 alike."""
    jobs = [
        {"id": str(n), "owner": "alice", "account": "hep", "partition": parts,
         "request_cpus": 8, "submit_time": NOW_EPOCH - ago}
        for n, parts, ago in ((1, "short,long", 3600), (2, "short,long", 0),
                              (3, "long,short", 3600))
    ]  # fmt: skip
    config = SIZED_TOML.replace("COMPAT", compat) + SPRIO_ACCOUNTS
    result = run("sprio", "-o", "%.5i %9r %.10J", *sprio_files(tmp_path, jobs, config))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == [
        "    1 short           1000",
        "    1 long            1000",
        "    2 short          24000",
        "    2 long           24000",
        "    3 long           24000",
        "    3 short          24000",
    ]
    tiered = config.replace('max_time = "1:00:00"\n', 'max_time = "1:00:00"\npriority_tier = 2\n')
    jobs = [{**jobs[2], "id": "4"}]
    result = run("sprio", "-o", "%.5i %9r %.10J", *sprio_files(tmp_path, jobs, tiered))
    assert result.stdout.splitlines()[1:] == [
        "    4 short           1000",
        "    4 long            1000",
    ]


@pytest.mark.parametrize("compat", ["current", "22.05"])
def test_of_one_tier_the_partition_of_least_priority_sizes_the_job(
    tmp_path: Path, run: Callable[..., Any], compat: str
) -> None:
    """The schedulers pop a job's records highest tier first, then highest priority
    (``sort_job_queue2``), each setting ``job_ptr->part_ptr``: the decay pass sizes the job
    in the last, of one tier the partition of least priority. With PriorityJobFactor 2 in
    short (1 in long) and PriorityWeightPartition 1000, short's row is 500 above long's,
    so job 1 (``long,short``, before the pass) is sized in long: 8 / 1440 / 16 x 2,880,000
    = 1000 in both rows (fs gave short's 24000: the last named). As the captures show:
    ``batch,express``, no time limit, prints batch's (lower) ``MaxTime`` (``pack_job``)."""
    jobs = [{"id": "1", "owner": "alice", "account": "hep", "partition": "long,short",
             "request_cpus": 8, "submit_time": NOW_EPOCH - 3600}]  # fmt: skip
    config = (
        SIZED_TOML.replace("COMPAT", compat)
        .replace('max_time = "1:00:00"\n', 'max_time = "1:00:00"\npriority_job_factor = 2\n')
        .replace("partition = 0\n", "partition = 1000\n")
        + SPRIO_ACCOUNTS
    )
    result = run("sprio", "-o", "%.5i %9r %.10J %.10P", *sprio_files(tmp_path, jobs, config))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[1:] == [
        "    1 long            1000        500",
        "    1 short           1000       1000",
    ]


@pytest.mark.parametrize("compat", ["current", "22.05"])
def test_a_job_submitted_since_the_pass_is_sized_in_its_first_named_partition(
    tmp_path: Path, run: Callable[..., Any], compat: str
) -> None:
    """Between its submission and the first decay pass, sprio shows the factors
    ``job_allocate`` computed (``set_job_prio`` -> ``priority_p_set`` ->
    ``set_priority_factors``) with ``job_ptr->part_ptr`` as ``_job_create`` set it: the
    primary of ``_get_job_parts``, the head of the list as named (22.05's
    ``get_part_list`` does not sort it; 26.05's takes the head before sorting by tier), not
    the highest tier (Slurm 24.11, and master after 26.05, sort first), nor the last
    ``_select_nodes_parts`` then tries (it runs after ``set_job_prio``).

    Short (60 minutes, tier 2), mid (4:00:00, 240) and long (1-0, 1440); 8 of 16 CPUs x
    2,880,000 over them: 24000, 6000 and 1000. Job 1 names ``long,short,mid`` and came at
    the pass (12:00): long's 1000 in every row (the highest tier would be short's 24000,
    the last tried mid's 6000); rows in tier order: short, then long and mid as named.
    Job 2, the same an hour before the pass, is sized where the schedulers left it: of its
    lowest tier (long, mid), equal priorities, the later, mid: 6000."""
    jobs = [
        {"id": str(n), "owner": "alice", "account": "hep", "partition": "long,short,mid",
         "request_cpus": 8, "submit_time": NOW_EPOCH - ago}
        for n, ago in ((1, 0), (2, 3600))
    ]  # fmt: skip
    config = (
        SIZED_TOML.replace("COMPAT", compat)
        .replace('max_time = "1:00:00"\n', 'max_time = "1:00:00"\npriority_tier = 2\n')
        .replace("[priority]\n", '[partitions.mid]\nmax_time = "4:00:00"\n[priority]\n')
        + SPRIO_ACCOUNTS
    )
    result = run("sprio", "-o", "%.5i %9r %.10J", *sprio_files(tmp_path, jobs, config))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "JOBID PARTITION    JOBSIZE",
        "    1 short           1000",
        "    1 long            1000",
        "    1 mid             1000",
        "    2 short           6000",
        "    2 long            6000",
        "    2 mid             6000",
    ]
