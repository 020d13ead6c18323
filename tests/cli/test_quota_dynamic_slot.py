"""``fs quota`` and ``fs negotiate`` find one pool size when a jobs-file job runs on a
dynamic slot whose claim records no resources: the dynamic slot holds what the job asked
(the schedd's truth, carved as a match would), in both. fs quota carved such a claim as a
request of nothing (1 CPU) while the cycle carved the job's request."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-20T00:00:00Z"

#: the legacy profile (no ``defaults``: no slot weights), one 10-CPU partitionable slot
POOL = """\
[pool]
uid_domain = "example.org"
[[machines]]
name = "p"
count = 1
slots = 1
partitionable = true
attributes = { Cpus = 10, Memory = 20480, Disk = 100000000 }
[groups.g]
quota = 20
"""

#: alice's job asking 3 CPUs runs on slot1_1@p001 (no resources recorded); 20 idle jobs
JOBS: list[dict[str, Any]] = [
    {"id": "1.0", "owner": "alice", "accounting_group": "g.alice", "status": "running",
     "slot": "slot1_1@p001", "request_cpus": 3, "request_memory": 1024,
     "start_time": "2026-11-19T23:00:00Z"},
    {"id": "2.0", "owner": "alice", "accounting_group": "g.alice", "count": 20},
]  # fmt: skip


def test_quota_and_negotiate_carve_a_running_jobs_dynamic_slot_alike(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Without slot weights the pool size group quotas share is ``count_effective_slots``:
    the partitionable slot counts the CPUs left, 10 - 3 = 7, and the dynamic slot 1, so 8
    in both commands; group g's static quota 20 is more than the pool, so it gets the 8.
    fs quota carved 1 CPU for the claim: 9 + 1 = 10."""
    (tmp_path / "pool.toml").write_text(POOL, encoding="utf-8")
    (tmp_path / "jobs.json").write_text(json.dumps(JOBS), encoding="utf-8")
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json"),
            "--jobs-file", str(tmp_path / "jobs.json"), "--now", NOW]  # fmt: skip
    result = run("quota", "--json", *args)
    assert result.exit_code == 0, result.stderr
    rows = {r["group"]: r for r in json.loads(result.stdout)}
    assert (rows["<none>"]["subtree_quota"], rows["g"]["quota"]) == (8.0, 8.0)
    result = run("negotiate", "--dry-run", *args)
    assert result.exit_code == 0, result.stderr
    assert "pool size 8.00;" in result.stdout
