"""fs simulate --scheduler slurm: a job that names no node count and asks more CPUs than
any one node has runs over several nodes, as docs/jobs.md says (``num_nodes`` not given:
its CPUs spread over as many nodes as they need, as slurmctld places ``sbatch -n``).

The sample pool's batch partition: 50 nodes of 8 CPUs and 5 of 16, 480 CPUs (no node
has more than 16). Before, such a job never started: the simulator looked for one node
with all its CPUs free, and a 400-CPU job pended for the whole run, blocking the
partition, with no word said (fs submit had queued it: the partition holds it).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

ON_SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml")]
ON_SAMPLE += ["--now", "2026-11-21T12:00:00Z"]


def _pool(run: Callable[..., Any], workload: Path, *options: str) -> list[tuple[str, int, int]]:
    """The pool rows (time, CPUs in use, pending jobs) of a one-hour run, 10-minute cycles."""
    res = run("simulate", "--scheduler", "slurm", *options, "--workload", str(workload),
              "--until", "1:00:00", "--cycle", "600", *ON_SAMPLE, "--output", "json")  # fmt: skip
    assert res.exit_code == 0, res.stderr
    rows = json.loads(res.stdout)
    return [(r["time"][11:16], int(r["slots"]), r["pending"]) for r in rows if r["kind"] == "pool"]


def test_a_job_larger_than_any_node_runs_over_several(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """100 CPUs for 10 minutes: at 12:00 the job holds 100 of the 480 (12 nodes of 8 and
    4 CPUs of a 13th, in config order), and it has ended at 12:10."""
    workload = tmp_path / "wl.json"
    job = {"id": "1", "owner": "carol", "account": "chemistry", "request_cpus": 100}
    workload.write_text(json.dumps([{**job, "run_time": 600}]))
    rows = _pool(run, workload)
    assert rows[:2] == [("12:00", 100, 0), ("12:10", 0, 0)]


def test_spread_jobs_and_backfill(tmp_path: Path, run: Callable[..., Any]) -> None:
    """carol (fair share 0.78) and alice (0.56) ask 400 CPUs each, time limit 2 hours,
    running 1; bob (0.44) ten jobs of 8 CPUs, limit 15 minutes, running 10. At 12:00
    carol's starts (400 of 480); alice's does not fit in the 80 left and blocks the
    partition, so without backfill nothing else starts until carol's ends at 13:00, when
    alice's starts and bob's take the 80 CPUs left. With backfill alice's is reserved from carol's planned end (14:00)
    and bob's ten jobs, planned to end at 12:15, take the 80 CPUs at once."""
    workload = tmp_path / "wl.json"
    big = {"request_cpus": 400, "run_time": 3600, "time_limit": 7200}
    small = {"request_cpus": 8, "count": 10, "run_time": 600, "time_limit": 900}
    workload.write_text(
        json.dumps(
            [
                {"id": "1", "owner": "alice", "account": "hep", **big},
                {"id": "2", "owner": "carol", "account": "chemistry", **big},
                {"id": "3", "owner": "bob", "account": "hep", **small},
            ]
        )
    )
    rows = _pool(run, workload)
    assert rows[0] == ("12:00", 400, 11) and rows[-1] == ("13:00", 480, 0)
    rows = _pool(run, workload, "--backfill")
    assert rows[:2] == [("12:00", 480, 1), ("12:10", 400, 1)]
    assert rows[-1] == ("13:00", 400, 0)
