"""``fs whatif ... simulate --scheduler slurm`` of a job naming no partition where one
side's config has no default partition (cli/simulate_jobs.py): that side leaves the job out
and says so in a note, as ``fs whatif ... sprio`` does, for the other side may place it.

``fs simulate --scheduler slurm`` alone refuses such a job, as sbatch does
(``test_sprio_default_partition.py``), and its message advises "set default = true on one";
``fs whatif --set partitions.batch.default=true simulate --scheduler slurm``, the way to try
that advice, was refused on its "before" side with that message (exit 2).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, NOW_EPOCH, refused, sprio_files
from tests.cli.test_sprio_default_partition import JOB, POOL, REFUSAL

Run = Callable[..., Any]
SIMULATE = ("simulate", "--scheduler", "slurm", "--until", "0:30:00", "--cycle", "300")


def _slots(doc: list[dict[str, Any]], policy: str, name: str) -> list[float]:
    return [r["slots"] for r in doc if r["policy"] == policy and r["name"] == name]


def test_the_before_side_leaves_out_a_job_its_config_refuses(tmp_path: Path, run: Run) -> None:
    """alice's job names no partition; bob's names short. Before, alice's is left out
    (noted) and bob's alone runs; after (batch the default), alice's runs in batch. Each
    runs 600 s from the first cycle (12:00) on its own node of 2 CPUs: one CPU held at
    12:00 and 12:05, none from 12:10 (the cycles every 300 s up to 12:30)."""
    files = sprio_files(tmp_path, [], POOL)[:4]
    work = tmp_path / "work.json"
    bob = {"id": "2", "owner": "bob", "account": "hep", "partition": "short"}
    jobs = [{**JOB, "run_time": 600}, {**bob, "submit_time": NOW_EPOCH, "run_time": 600}]
    work.write_text(json.dumps(jobs), encoding="utf-8")
    args = [*SIMULATE, "--workload", str(work), *files, "--now", NOW]
    refused(run(*args), f"{work}: {REFUSAL}")
    res = run("whatif", "--set", "partitions.batch.default=true", *args, "--json")
    assert res.exit_code == 0, res.stderr
    assert res.stderr == f"fs: note: before: left out {REFUSAL}\n"
    doc = json.loads(res.stdout)
    ran = [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert _slots(doc, "before", "alice") == [0.0] * 7
    assert _slots(doc, "before", "bob") == ran
    assert _slots(doc, "after", "alice") == ran
    assert _slots(doc, "after", "bob") == ran


def test_the_after_side_leaves_out_the_queues_jobs_the_change_refuses(
    tmp_path: Path, run: Run
) -> None:
    """``--set partitions.batch.default=false`` where batch was the default: the queue's
    running job (1) and pending job (2), neither naming a partition, are left out of the
    after side, each noted. Before, job 1 holds a CPU up to its limit (11:50 + 30 minutes:
    the cycles 12:00 to 12:15), job 2 from the first cycle for its 10 minutes (12:00, 12:05)."""
    config = POOL.replace("[partitions.batch]\n", "[partitions.batch]\ndefault = true\n")
    files = sprio_files(tmp_path, [], config)[:4]
    running = ["--set", "status=running", "--set", "start_time=2026-11-21T11:50:00Z"]
    for args in (["alice", *running, "--time-limit", "30"], ["bob", "--time-limit", "10"]):
        res = run("submit", "--owner", *args, "--account", "hep", *files, "--now", NOW)
        assert res.exit_code == 0, res.stderr
    res = run(
        "whatif", "--set", "partitions.batch.default=false", *SIMULATE, *files, "--now", NOW,
        "--json",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    assert res.stderr == (
        f"fs: note: after: left out {REFUSAL}\n"
        f"fs: note: after: left out {REFUSAL.replace('job 1', 'job 2')}\n"
    )
    doc = json.loads(res.stdout)
    assert _slots(doc, "before", "alice") == [1.0] * 4 + [0.0] * 3
    assert _slots(doc, "before", "bob") == [1.0] * 2 + [0.0] * 5
    assert _slots(doc, "after", "alice") == _slots(doc, "after", "bob") == [0.0] * 7
