"""``fs sprio`` of a job of several partitions asking a TRES one of them counts none of.

Derived from ``priority_multifactor.c`` (22.05's ``_filter_job``, today's
``_create_prio_list_qos``, alike): each row copies the job's TRES factors, which the decay
pass computed in the job's own partition (``job_ptr->part_ptr``: its first named until the
first pass after it came, then the last in tier order) and weighted in place; per row
``_get_tres_factors`` overwrites an entry only where the row's partition counts the TRES,
and ``_get_tres_prio_weighted`` then weighs every entry again. Here gpu counts 4 GPUs, cpu
none, ``GRES/gpu=1000``, PriorityWeightPartition 1000, PriorityJobFactor 1 in gpu and 4 in
cpu, no other weight: the gpu row is 250 + 1/4 * 1000 = 500, below cpu's 1000, so the
schedulers pop the gpu record last and leave the job there (``sizing_partition``). Jobs 1
(``cpu,gpu``) and 2 (``gpu,cpu``), before the 12:00 pass: own partition gpu, 250; the cpu
row keeps 250 and weighs it again: 250000, PRIORITY 251000 (``-n``: 250000 / 1000 =
250.00). Job 3 (``cpu,gpu``, after the pass): its own partition is its first named, cpu,
whose entry is 0: the cpu row 1000. fs printed 0 in every cpu row (PRIORITY 1000).
slurmctld's own order (``_priority_each_partition``, fresh factors) weighs nothing twice.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import write_pool

Run = Callable[..., Any]

CONFIG = """
[pool]
defaults = "current"
[[machines]]
name = "g"
count = 2
slots = 1
attributes = { Cpus = 8, Memory = 8000, "gres/gpu" = 2 }
partitions = ["gpu"]
[[machines]]
name = "c"
count = 2
slots = 1
attributes = { Cpus = 8, Memory = 8000 }
partitions = ["cpu"]
[priority]
output_compat = "%s"
[priority.weights]
age = 0
fairshare = 0
jobsize = 0
partition = 1000
qos = 0
tres = { "gres/gpu" = 1000 }
[partitions.cpu]
default = true
priority_job_factor = 4
[partitions.gpu]
[qos.normal]
priority = 0
[accounts.a]
shares = 1
users = { u1 = 1 }
"""


def _run(tmp_path: Path, run: Run, compat: str, *args: str) -> Any:
    env = write_pool(tmp_path, CONFIG % compat)
    jobs = tmp_path / "jobs.json"
    base = {"owner": "u1", "account": "a", "attributes": {"gres/gpu": 1}}
    objs = [
        {"id": "1", "partition": "cpu,gpu", "submit_time": "2026-11-21T10:00:00Z"},
        {"id": "2", "partition": "gpu,cpu", "submit_time": "2026-11-21T10:00:00Z"},
        {"id": "3", "partition": "cpu,gpu", "submit_time": "2026-11-21T12:01:00Z"},
    ]
    jobs.write_text(json.dumps([{**o, **base} for o in objs]), "utf-8")
    state = env["state"].read_bytes()
    when = ["--config", str(env["config"]), "--state", str(env["state"])]
    res = run("sprio", *args, "--jobs-file", str(jobs), *when, "--now", "2026-11-21T12:02:00Z")
    assert env["state"].read_bytes() == state
    return res


def test_a_partition_of_no_gpu_weighs_the_jobs_factor_again(tmp_path: Path, run: Run) -> None:
    for compat in ("current", "22.05"):
        res = _run(tmp_path, run, compat, "-o", "%.4i %9r %.10Y %.20T")
        assert (res.exit_code, res.stderr) == (0, ""), compat
        assert res.stdout.splitlines() == [
            "JOBI PARTITION   PRIORITY                 TRES",
            "   1 cpu           251000      gres/gpu=250000",
            "   1 gpu              500         gres/gpu=250",
            "   2 gpu              500         gres/gpu=250",
            "   2 cpu           251000      gres/gpu=250000",
            "   3 cpu             1000                     ",
            "   3 gpu              500         gres/gpu=250",
        ], compat


def test_normalised_it_is_the_jobs_weighted_factor(tmp_path: Path, run: Run) -> None:
    res = _run(tmp_path, run, "current", "-n", "-o", "%.4i %9r %20t|", "-j1")
    assert (res.exit_code, res.stderr) == (0, "")
    assert res.stdout.splitlines()[1:] == [
        "   1 cpu       gres/gpu=250.00     |",
        "   1 gpu       gres/gpu=0.25       |",
    ]


def test_a_partition_whose_max_time_holds_the_job_back_is_not_its_own(
    tmp_path: Path, run: Run
) -> None:
    """With PriorityJobFactor 1 in cpu and 4 in gpu, cpu's row is the lower (250 against
    1000 + 250): job 1 (``cpu,gpu``, no time limit) is left in cpu, whose GPU entry is 0,
    and its cpu row is 250. Job 2 asks 4 hours, above cpu's ``MaxTime`` of 2: slurmctld
    queues it no cpu record (``job_limits_check``: ``PartitionTimeLimit``), so it is left
    in gpu, and its cpu row keeps gpu's 250, weighed again: 250 + 250000."""
    config = (
        (CONFIG % "current")
        .replace("priority_job_factor = 4\n", 'priority_job_factor = 1\nmax_time = "2:00:00"\n')
        .replace("[partitions.gpu]\n", "[partitions.gpu]\npriority_job_factor = 4\n")
    )
    env = write_pool(tmp_path, config)
    jobs = tmp_path / "jobs.json"
    base = {"owner": "u1", "account": "a", "attributes": {"gres/gpu": 1},
            "partition": "cpu,gpu", "submit_time": "2026-11-21T10:00:00Z"}  # fmt: skip
    objs = [{"id": "1", **base}, {"id": "2", "time_limit": "4:00:00", **base}]
    jobs.write_text(json.dumps(objs), "utf-8")
    when = ["--config", str(env["config"]), "--state", str(env["state"])]
    res = run("sprio", "-o", "%.4i %9r %.10Y %.20T", "--jobs-file", str(jobs), *when,
              "--now", "2026-11-21T12:02:00Z")  # fmt: skip
    assert (res.exit_code, res.stderr) == (0, "")
    assert res.stdout.splitlines()[1:] == [
        "   1 cpu              250                     ",
        "   1 gpu             1250         gres/gpu=250",
        "   2 cpu           250250      gres/gpu=250000",
        "   2 gpu             1250         gres/gpu=250",
    ]
