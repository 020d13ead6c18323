"""An idle job's weight in its group's demand (``NEGOTIATOR_USE_WEIGHTED_DEMAND``).

HTCondor 25.0's schedd weighs each idle job for its submitter ad's ``WeightedIdleJobs``
by the pool's ``SLOT_WEIGHT``: just ``Cpus`` weighs ``RequestCpus``; any other expression
is evaluated in an ad holding only ``Cpus``, ``Memory`` and ``Disk`` set to the job's
requests; and each job's weight is cut to a whole number before it is added. The
negotiator adds the weighted idle jobs into the group's demand, from which the group
quotas are allocated. fs counted every idle job at its ``request_cpus`` whatever the
slot weight was.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-20T00:00:00Z"

POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
slot_weight = "{weight}"
[[machines]]
name = "s"
count = 4
slots = 1
attributes = {{ Cpus = 1, Memory = 4096 }}
[groups.a]
quota = {quota}
"""


def _files(tmp_path: Path, weight: str, quota: str, jobs: list[dict[str, Any]]) -> list[str]:
    config, jobs_file = tmp_path / "pool.toml", tmp_path / "jobs.json"
    config.write_text(POOL.format(weight=weight, quota=quota), encoding="utf-8")
    jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
    return [
        "--config", str(config), "--state", str(tmp_path / "state.json"),
        "--jobs-file", str(jobs_file), "--now", NOW,
    ]  # fmt: skip


def test_quota_demand_weighs_idle_jobs_by_the_slot_weight(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``slot_weight = "Cpus + Memory / 4096"``: alice's three idle jobs ask for 1 CPU and
    4096 MB each, 1 + 4096 / 4096 = 2; bob's one asks for 1 CPU and 2048 MB, 1 + 0.5 =
    1.5, cut to 1. Group a's demand is 3 x 2 + 1 = 7 (fs said 3 + 1 = 4, the CPUs)."""
    jobs = [
        {"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 3,
         "request_memory": 4096},
        {"id": "2.0", "owner": "bob", "accounting_group": "a.bob", "request_memory": 2048},
    ]  # fmt: skip
    result = run("quota", "--json", *_files(tmp_path, "Cpus + Memory / 4096", "4", jobs))
    assert result.exit_code == 0, result.stderr
    rows = {row["group"]: row for row in json.loads(result.stdout)}
    assert rows["a"]["demand"] == 7.0


def test_a_slot_weight_of_cpus_weighs_request_cpus(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``slot_weight = "Cpus"`` weighs each idle job its ``RequestCpus``, 2 + 2 = 4 here,
    as before."""
    jobs = [{"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 2,
             "request_cpus": 2}]  # fmt: skip
    result = run("quota", "--json", *_files(tmp_path, "Cpus", "4", jobs))
    assert result.exit_code == 0, result.stderr
    assert {r["group"]: r["demand"] for r in json.loads(result.stdout)}["a"] == 4.0


def test_jobs_that_weigh_less_than_one_leave_the_group_without_demand(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``slot_weight = "Cpus * 0.5"``: the pool is 4 x 0.5 = 2 weighted slots, group a's
    quota 2. Each idle 1-CPU job weighs 1 x 0.5 = 0.5, cut to 0: group a's demand is 0,
    so it is allocated 0 and skipped ("zero slots allocated"); nothing matches and the
    jobs wait for the group quota. fs counted the 4 CPUs: an allocation of 2, a limit of
    2 and a pie of min(2, 2) = 2 for alice alone, so 4 matches of 0.5."""
    jobs = [{"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 4}]
    result = run("negotiate", "--dry-run", "--json", *_files(tmp_path, "Cpus * 0.5", "2", jobs))
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["matches"] == []
    assert [(u["job_id"], u["reason"]) for u in doc["unmatched"]] == [
        (f"1.{i}", "group_quota") for i in range(4)
    ]
