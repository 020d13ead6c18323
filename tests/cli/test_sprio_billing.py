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
