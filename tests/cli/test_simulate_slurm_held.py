"""``fs simulate --scheduler slurm`` never starts a held job.

Slurm's scheduler starts no job of priority 0 (held: ``scontrol hold``, ``sbatch --hold``,
``scontrol update job priority=0``) until it is released.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, SPRIO_ACCOUNTS, SPRIO_POOL, sprio_files

CONFIG = SPRIO_POOL + SPRIO_ACCOUNTS
NOW_EPOCH = 1795262400
Run = Callable[..., Any]


def _job(job_id: str, owner: str, **extra: Any) -> dict[str, Any]:
    return {"id": job_id, "owner": owner, "account": "hep", "submit_time": NOW_EPOCH - 6048,
            **extra}  # fmt: skip


def test_simulate_slurm_never_starts_a_held_job(tmp_path: Path, run: Run) -> None:
    """``fs simulate --scheduler slurm`` started workload jobs of ``"admin_priority": 0``
    and of status ``held`` (as ``sbatch --hold`` submits them) at once, 1 CPU each on the
    pool's 4; held, they never start, and alice's own job alone runs."""
    args = [*sprio_files(tmp_path, [], CONFIG)[:4], "--now", NOW]
    work = [_job("1", "alice", run_time=600), _job("2", "bob", run_time=600, admin_priority=0),
            _job("3", "bob", run_time=600, status="held")]  # fmt: skip
    for job in work:
        job["submit_time"] = NOW
    (tmp_path / "work.json").write_text(json.dumps(work), encoding="utf-8")
    res = run("simulate", "--workload", str(tmp_path / "work.json"), "--until", "0:10:00",
              "--cycle", "600", "--scheduler", "slurm", "--json", *args)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    first = {row["name"]: row["slots"] for row in json.loads(res.stdout)
             if row["time"] == NOW and row["kind"] in ("slurm_user", "pool")}  # fmt: skip
    assert first == {"alice": 1.0, "bob": 0.0, "pool": 1.0}
