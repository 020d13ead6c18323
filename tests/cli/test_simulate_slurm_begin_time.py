"""``fs simulate --scheduler slurm`` holds a job back until its begin time.

slurmctld's ``job_independent`` (``src/slurmctld/job_mgr.c``, 22.05 and 26.05) returns
false while ``begin_time > now`` (reason ``BeginTime``), so ``build_job_queue`` leaves the
job out of the main scheduler's queue and backfill's: it starts no earlier, and blocks no
partition for the jobs after it. ``PriorityFlags=ACCRUE_ALWAYS`` changes only its age
(from its submit time) and that sprio lists it: never when it may start. The cluster is the
22.05 capture's (one node of 16 CPUs), read as ``test_slurm_fixtures`` reads it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_slurm_fixtures import _config_toml

T0 = 1795303800  # 2026-11-21T23:30:00Z


def _iso(t: float) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(t, tz=dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# Job 1 (u2, the whole node, begin time 15 minutes on) has the higher priority (JobSize:
# 16 CPUs against 8; the same fair share, no usage yet), job 2 (u3, 8 CPUs) runs 5 minutes.
WORKLOAD = [
    {"id": "1", "owner": "u2", "account": "c", "request_cpus": 16, "run_time": 600,
     "submit_time": T0, "eligible_time": T0 + 900},
    {"id": "2", "owner": "u3", "account": "c", "request_cpus": 8, "run_time": 300,
     "submit_time": T0},
]  # fmt: skip


@pytest.mark.parametrize("flags", [[], ["ACCRUE_ALWAYS"]], ids=["default", "accrue-always"])
@pytest.mark.parametrize("backfill", [[], ["--backfill"]], ids=["main", "backfill"])
def test_a_job_waits_for_its_begin_time_and_blocks_nothing(
    tmp_path: Path, run: Callable[..., Any], flags: list[str], backfill: list[str]
) -> None:
    # 23:30 job 1 is not eligible: job 2 starts on 8 CPUs although job 1 comes first by
    # priority; 23:35 job 2 ends; 23:45 (T0 + 900) job 1 starts, runs 10 minutes, ends
    # 23:55. fs started job 1 at 23:30 with ACCRUE_ALWAYS (job 2 then waited for it).
    cfg = tmp_path / "cluster.toml"
    cfg.write_text(_config_toml(False).replace("[priority]\n", f"[priority]\nflags = {flags}\n"))
    work = tmp_path / "work.json"
    work.write_text(json.dumps(WORKLOAD))
    r = run("simulate", "--config", str(cfg), "--state", str(tmp_path / "state.json"),
            "--now", _iso(T0), "--workload", str(work), "--scheduler", "slurm", *backfill,
            "--until", "25:00", "--cycle", "300", "--json")  # fmt: skip
    assert r.exit_code == 0, r.stderr
    held = {
        (row["time"][11:16], row["name"]): (row["slots"], row["pending"])
        for row in json.loads(r.stdout)
        if row["name"] in ("u2", "u3")
    }
    assert [held[(at, "u2")] for at in ("23:30", "23:35", "23:40", "23:45", "23:50", "23:55")] == [
        (0, 1), (0, 1), (0, 1), (16, 0), (16, 0), (0, 0)
    ]  # fmt: skip
    assert [held[(at, "u3")] for at in ("23:30", "23:35")] == [(8, 0), (0, 0)]
