"""A Slurm job's ``time_limit`` in ``fs simulate``: ``--scheduler slurm`` ends a job that
runs longer at its limit (slurmctld's ``job_time_limit``, no ``over_time_limit`` set
here); ``--scheduler htcondor`` runs it its whole ``run_time`` (HTCondor ends no job at a
Slurm limit), as docs/whatif-and-simulate.md says. Hand-made: one 4-CPU node, one job of
2 CPUs, limit 10 minutes, run time an hour, started at 12:00; cycles every 5 minutes.
"""

from __future__ import annotations

import csv
import io
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
attributes = { Cpus = 4 }
partitions = ["a"]
[partitions.a]
default = true
[accounts.acc]
shares = 1
users = { u1 = 1 }
"""
JOB = {"id": "1", "owner": "u1", "account": "acc", "request_cpus": 2, "time_limit": 600,
       "run_time": 3600, "submit_time": "2026-11-21T12:00:00Z"}  # fmt: skip


@pytest.mark.parametrize(
    ("scheduler", "cpus_after_the_limit"), [("slurm", "0.0"), ("htcondor", "2.0")]
)
def test_only_slurms_scheduler_ends_a_job_at_its_time_limit(
    tmp_path: Path,
    run: Callable[..., Any],
    write_config: Callable[[str], Path],
    scheduler: str,
    cpus_after_the_limit: str,
) -> None:
    workload = tmp_path / "w.json"
    workload.write_text(json.dumps([JOB]))
    res = run(
        "simulate", "--scheduler", scheduler, "--workload", str(workload),
        "--until", "30:00", "--cycle", "300", "--config", str(write_config(POOL)),
        "--state", str(tmp_path / "s.json"), "--now", "2026-11-21T12:00:00Z",
        "--output", "csv",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    rows = [r for r in csv.DictReader(io.StringIO(res.stdout)) if r["kind"] == "slurm_user"]
    held = {r["time"][11:16]: r["slots"] for r in rows}
    assert held["12:05"] == "2.0"  # within the limit: its 2 CPUs
    assert held["12:10"] == held["12:30"] == cpus_after_the_limit
