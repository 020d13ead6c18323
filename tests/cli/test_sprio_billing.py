"""``fs sprio``'s TRES factor of ``billing`` under a partition's ``TRESBillingWeights``.

By hand from ``_get_tres_factors`` (``priority_multifactor.c``): a pending job's factor is
its ``tres_req_cnt[TRES_ARRAY_BILLING]`` over the partition's ``tres_cnt`` of billing.
slurmctld sets the job's at submission, ``assoc_mgr_tres_weighted`` of its request under
the partition's weights stored in a ``uint64_t`` (truncated), and the partition's the same
of its nodes' totals (``_calc_part_tres``). Two nodes of 8 CPUs and 16384 MB under
``CPU=1.0,Mem=0.3G``: 16 + 32768 × 0.3/1024 = 25.6, stored 25; a job of 2 CPUs and
8192 MB: 2 + 2.4 = 4.4, stored 4. Its billing factor is 4/25 = 0.16 (× 10000: 1600), its
CPU factor 2/16 = 0.125 (× 1000: 125); without weights both count CPUs: 2/16 each.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

POOL = """
[pool]
defaults = "current"
[[machines]]
name = "n"
count = 2
slots = 1
attributes = { Cpus = 8, Memory = 16384 }
partitions = ["batch"]
[priority.weights]
age = 0
fairshare = 0
jobsize = 0
partition = 0
qos = 0
tres = "CPU=1000,billing=10000"
[partitions.batch]
default = true
"""
JOBS = [{"id": "1", "owner": "u1", "account": "a", "partition": "batch", "request_cpus": 2,
         "request_memory": 8192}]  # fmt: skip


@pytest.mark.parametrize(
    ("weights", "line"),
    [
        pytest.param(
            'billing_weights = "CPU=1.0,Mem=0.3G"\n',
            "              1 batch     u1             1725 cpu=125,billing=1600",
            id="weights",
        ),
        pytest.param(
            "", "              1 batch     u1             1375 cpu=125,billing=1250", id="cpus"
        ),
    ],
)
def test_the_billing_factor_is_the_weighted_request_over_the_partitions(
    tmp_path: Path, run: Callable[..., Any], weights: str, line: str
) -> None:
    (tmp_path / "pool.toml").write_text(POOL + weights + "[accounts.a]\nusers = { u1 = 1 }\n")
    (tmp_path / "jobs.json").write_text(json.dumps(JOBS))
    res = run(
        "sprio", "-o", "%.15i %9r %8u %.10Y %20T", "--jobs-file", str(tmp_path / "jobs.json"),
        "--config", str(tmp_path / "pool.toml"), "--now", "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines()[1].rstrip() == line


TIERS = """
[pool]
defaults = "current"
[[machines]]
name = "n"
count = 2
slots = 1
attributes = { Cpus = 8, Memory = 16384 }
partitions = ["low", "express"]
[priority]
output_compat = "COMPAT"
[priority.weights]
age = 0
fairshare = 0
jobsize = 0
partition = 0
qos = 0
tres = "billing=12000"
[partitions.low]
default = true
billing_weights = "CPU=1.0,Mem=0.25G"
[partitions.express]
priority_tier = 3
billing_weights = "CPU=3.0"
[accounts.a]
users = { u1 = 1 }
"""


@pytest.mark.parametrize("compat", ["current", "22.05"])
def test_a_job_of_several_partitions_is_billed_under_its_first_named(
    tmp_path: Path, run: Callable[..., Any], compat: str
) -> None:
    """By hand. slurmctld bills a job's request once, at submission, under the weights of
    its primary partition (``_job_create``: ``assoc_mgr_tres_weighted(...,
    part_ptr->billing_weights, ...)``), which is the first it names: 22.05's
    ``_get_job_parts`` peeks at ``get_part_list``'s list as named, 26.05's
    ``get_part_list`` peeks before it sorts by tier. Each row then divides that by its own
    partition's billing (``_create_prio_list_qos`` -> ``_get_tres_factors``).
    The partitions' billing: low 16 CPUs + 32768 MB x 0.25/1024 = 24, express 16 x 3 = 48.
    Job 1 (2 CPUs, 8192 MB) names low first: 2 + 8192 x 0.25/1024 = 4; express row
    4/48 x 12000 = 1000, low row 4/24 x 12000 = 2000. Job 2 names express first: 2 x 3 = 6;
    express 6/48 x 12000 = 1500, low 6/24 x 12000 = 3000. (Billing under the highest tier,
    express, would give job 1 those of job 2.) Rows highest tier first."""
    (tmp_path / "pool.toml").write_text(TIERS.replace("COMPAT", compat))
    jobs = [
        {"id": str(n), "owner": "u1", "account": "a", "partition": parts, "request_cpus": 2,
         "request_memory": 8192}
        for n, parts in ((1, "low,express"), (2, "express,low"))
    ]  # fmt: skip
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    res = run(
        "sprio", "-o", "%.5i %9r %.10Y %20T", "--jobs-file", str(tmp_path / "jobs.json"),
        "--config", str(tmp_path / "pool.toml"), "--now", "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    assert [line.rstrip() for line in res.stdout.splitlines()[1:]] == [
        "    1 express         1000 billing=1000",
        "    1 low             2000 billing=2000",
        "    2 express         1500 billing=1500",
        "    2 low             3000 billing=3000",
    ]


@pytest.mark.parametrize(
    ("weights", "error"),
    [
        pytest.param(
            "CPU=1e308",
            "{config}: partitions.batch.billing_weights: TRES weight cpu=1e+308 is above "
            "1e+30, the largest usage rate the state stores; expected at most 1e+30",
            id="weight",
        ),
        pytest.param(
            "CPU=1e30",
            "partitions.batch.billing_weights cpu=1e+30: 1.6e+31 billable TRES for node=2, "
            "cpu=16, billing=16, mem=32768 (more than 1e+30, the largest usage rate the state "
            "stores); expected smaller weights",
            id="overflow",
        ),
        pytest.param(
            "CPU=-1",
            "{config}: partitions.batch.billing_weights: TRES weight cpu=-1 is negative: "
            "fs models no negative billing; expected 0 or more",
            id="negative",
        ),
        pytest.param(  # (get_convert_unit_val's int: 1024^4 overflows, compiler-dependent)
            "CPU=1T",
            '{config}: partitions.batch.billing_weights: "CPU=1T": a T unit on a TRES other '
            "than mem and bb is 1024^4, which overflows Slurm's int (get_convert_unit_val): "
            "what slurmctld reads depends on its compiler; give the weight as a plain number",
            id="unit-T",
        ),
    ],
)
def test_weights_beyond_any_billing_are_refused(
    tmp_path: Path, run: Callable[..., Any], weights: str, error: str
) -> None:
    """``CPU=1e308`` bills the partition's 16 CPUs 16 x 1e308 = 1.6e309, over a double's
    largest (1.8e308): slurmctld's ``uint64_t`` of it is undefined, and fs stopped with a
    traceback (OverflowError); a weight above 1e30 (the most the state stores as a running
    job's usage rate) is now refused when the config is read. ``CPU=1e30`` bills the
    partition 16 x 1e30 = 1.6e31, above that bound: refused naming the partition. ``CPU=-1`` (slurmctld takes it) would charge usage below 0:
    ``fs import sacct`` then refused to write the state naming only the negative usage."""
    config = tmp_path / "pool.toml"
    config.write_text(POOL + f'billing_weights = "{weights}"\n[accounts.a]\nusers = {{ u1 = 1 }}\n')
    (tmp_path / "jobs.json").write_text(json.dumps(JOBS))
    res = run(
        "sprio", "--jobs-file", str(tmp_path / "jobs.json"), "--config", str(config),
        "--now", "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert res.exit_code == 2
    assert res.stderr == f"fs: error: {error.format(config=config)}\n"
