"""``fs simulate --scheduler slurm`` under ``PriorityType=priority/basic``: jobs start first
in, first out (``priority_p_set``: each job one below the last, less its nice), whatever
the users' usage; no decay pass runs, so nothing is charged and the fair-share column is
what sshare prints under basic (0, or 1 for 22.05's sshare under classic flags)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = 1795262400
Run = Callable[..., Any]

#: One 1-CPU node; fair share alone weighed (1000) under multifactor; a pass a minute.
POOL = """
[pool]
defaults = "current"
[[machines]]
name = "n1"
attributes = {{ Cpus = 1 }}
partitions = ["batch"]
[partitions.batch]
default = true
[priority]
type = "{type}"
fairshare = "{fairshare}"
output_compat = "{compat}"
calc_period = "1"
decay_halflife = "7-0"
[priority.weights]
fairshare = 1000
[accounts.hep]
shares = 1
users = {{ alice = 1, bob = 1 }}
"""


def _rows(
    tmp_path: Path, run: Run, work: list[dict[str, Any]], prio_type: str, **pool: str
) -> list[dict[str, Any]]:
    """The simulation's json rows over two hours: bob has usage 100, alice none."""
    toml = POOL.format(
        type=prio_type, fairshare=pool.get("fairshare", "fair_tree"),
        compat=pool.get("compat", "current"),
    )  # fmt: skip
    (tmp_path / "pool.toml").write_text(toml, encoding="utf-8")
    state = {
        "format": "fairshare-cli state",
        "schema_version": 1,
        "slurm": {"last_decay_ran": NOW_EPOCH, "usage": {"hep": {"bob": 100.0}}},
    }
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    (tmp_path / "work.json").write_text(json.dumps(work), encoding="utf-8")
    res = run("simulate", "--workload", str(tmp_path / "work.json"), "--until", "2:00:00",
              "--cycle", "60", "--scheduler", "slurm", "--json",
              "--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json"),
              "--now", NOW)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    return [r for r in json.loads(res.stdout) if r["kind"] == "slurm_user"]


def _at(rows: list[dict[str, Any]], when: str, key: str = "slots") -> dict[str, Any]:
    return {r["name"]: r[key] for r in rows if r["time"] == when}


def _hour_jobs(*jobs: tuple[str, str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"id": i, "owner": owner, "account": "hep", "submit_time": NOW, "run_time": 3600,
         "time_limit": 7200, **extra}
        for i, owner, extra in jobs
    ]  # fmt: skip


def test_jobs_start_in_submission_order_not_by_fair_share(tmp_path: Path, run: Run) -> None:
    """Job 1 is bob's, job 2 alice's, both submitted at 12:00. Under multifactor alice
    (no usage: Fair Tree factor 1, PRIORITY 1000) comes before bob (usage 100: 1/2, 500)
    and her job 2 runs first; under basic job 1 gets 4294901759 and job 2 4294901758, so
    bob's runs 12:00-13:00 and alice's from 13:00."""
    work = _hour_jobs(("1", "bob", {}), ("2", "alice", {}))
    multifactor = _rows(tmp_path, run, work, "multifactor")
    assert _at(multifactor, NOW) == {"alice": 1.0, "bob": 0.0}
    basic = _rows(tmp_path, run, work, "basic")
    assert _at(basic, NOW) == {"alice": 0.0, "bob": 1.0}
    assert _at(basic, "2026-11-21T13:00:00Z") == {"alice": 1.0, "bob": 0.0}


def test_a_nice_passes_a_later_job_first(tmp_path: Path, run: Run) -> None:
    """Job 1 (bob, nice 10) gets 4294901759 - 10 = 4294901749 and leaves the count at
    4294901759; job 2 (alice) gets 4294901758 and runs first."""
    work = _hour_jobs(("1", "bob", {"nice": 10}), ("2", "alice", {}))
    assert _at(_rows(tmp_path, run, work, "basic"), NOW) == {"alice": 1.0, "bob": 0.0}


def test_an_admin_priority_is_the_admins(tmp_path: Path, run: Run) -> None:
    """Job 1 (bob) set by an admin to 10 sorts below job 2 (alice, 4294901759); set to
    4294967293 (the highest an admin may set) above it."""
    low = _hour_jobs(("1", "bob", {"admin_priority": 10}), ("2", "alice", {}))
    assert _at(_rows(tmp_path, run, low, "basic"), NOW) == {"alice": 1.0, "bob": 0.0}
    high = _hour_jobs(("1", "alice", {}), ("2", "bob", {"admin_priority": 4294967293}))
    assert _at(_rows(tmp_path, run, high, "basic"), NOW) == {"alice": 0.0, "bob": 1.0}


def test_no_usage_is_charged_and_fair_share_is_basics(tmp_path: Path, run: Run) -> None:
    """Under basic the fair-share column is sshare's under basic, 0 (today's sshare), at
    every cycle though bob's job runs two hours; with ``output_compat = "22.05"`` and
    classic fair share, 1 on every row, as 22.05's sshare computes it there."""
    work = _hour_jobs(("1", "bob", {"run_time": 7200}))
    rows = _rows(tmp_path, run, work, "basic")
    assert {r["fairshare"] for r in rows} == {0.0}
    classic = _rows(tmp_path, run, work, "basic", fairshare="classic", compat="22.05")
    assert {r["fairshare"] for r in classic} == {1.0}


def _queue_rows(tmp_path: Path, run: Run, jobs: list[dict[str, Any]]) -> dict[str, Any]:
    """Who runs at 12:00 when the state's queue (no workload) holds ``jobs``."""
    (tmp_path / "pool.toml").write_text(
        POOL.format(type="basic", fairshare="fair_tree", compat="current"), encoding="utf-8"
    )
    state = {
        "format": "fairshare-cli state",
        "schema_version": 1,
        "slurm": {"last_decay_ran": NOW_EPOCH, "usage": {"hep": {"bob": 100.0}}},
        "jobs": jobs,
    }
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    res = run("simulate", "--until", "0:10:00", "--scheduler", "slurm", "--json",
              "--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json"),
              "--now", NOW)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    return _at([r for r in json.loads(res.stdout) if r["kind"] == "slurm_user"], NOW)


def test_the_queues_jobs_keep_the_priorities_a_dump_gave_them(tmp_path: Path, run: Run) -> None:
    """The state's queue: job 2 (bob) and job 1 (alice), pending, listed in that order.
    With no printed priorities they take theirs in job id order, so job 1 (alice) runs;
    with the priorities a dump of a basic cluster printed (job 1 100, job 2 200: bob's was
    submitted first, or an admin moved it), job 2 (bob) runs, as slurmctld keeps them."""
    jobs = [
        {"id": i, "owner": owner, "account": "hep", "submit_time": NOW, "run_time": 3600,
         "time_limit": 7200, "status": "idle"}
        for i, owner in (("2", "bob"), ("1", "alice"))
    ]  # fmt: skip
    assert _queue_rows(tmp_path, run, jobs) == {"alice": 1.0, "bob": 0.0}
    jobs[0]["slurm_priority"], jobs[1]["slurm_priority"] = 200, 100
    assert _queue_rows(tmp_path, run, jobs) == {"alice": 0.0, "bob": 1.0}
