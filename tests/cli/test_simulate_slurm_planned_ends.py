"""``fs simulate --scheduler slurm --backfill``: how long Slurm plans a job of no time limit.

What slurmctld does (22.05.9 and 26.05.3 alike):

- a running job of an UNLIMITED limit is planned to end a year after its start
  (``job_end_time_reset`` in ``job_mgr.c``: ``start_time + 365 * 24 * 60 * 60``), and once
  it outlives that, backfill guesses its end ``KillWait`` (30 s) after it, else a second
  from now (``_guess_job_end`` in ``select/cons_tres/job_test.c``); fs planned it for ever,
  so a job waiting for its CPUs was never reserved;
- a pending job of no limit is planned with its partition's ``MaxTime``, an UNLIMITED one
  as a year (``_set_backfill_timelimits`` in ``backfill.c``; inline in 22.05's
  ``_attempt_backfill``), and when backfill starts it, it keeps that limit
  (``orig_time_limit == NO_VAL``: ``job_ptr->time_limit = comp_time_limit``), not the
  ``DefaultTime`` the main scheduler's ``select_nodes`` gives it; fs ended it at the
  ``DefaultTime``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., Any]
NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = 1795262400
YEAR = 365 * 24 * 60 * 60
#: Age alone orders the jobs (older first); every partition is of the default tier.
PRIORITY = """
[qos.normal]
priority = 0
[priority]
max_age = "7-0"
[priority.weights]
age = 1000
fairshare = 0
jobsize = 0
partition = 0
qos = 0
[accounts.hep]
shares = 1
users = { alice = 1, bob = 1, carol = 1 }
"""
#: One node of 2 CPUs in partition "open", of no MaxTime (UNLIMITED) and no DefaultTime.
OPEN = """
[pool]
defaults = "current"
uid_domain = "example.org"
[[machines]]
name = "exec"
count = 1
slots = 2
attributes = { Cpus = 1, Memory = 4096 }
partitions = ["open"]
[partitions.open]
default = true
"""
#: Node s (2 CPUs) in "short" (MaxTime 3 days, no DefaultTime), node b (2 CPUs) in
#: "batch" (MaxTime 100 minutes, DefaultTime 20).
TWO = """
[pool]
defaults = "current"
uid_domain = "example.org"
[[machines]]
name = "s"
count = 1
slots = 2
attributes = { Cpus = 1, Memory = 4096 }
partitions = ["short"]
[[machines]]
name = "b"
count = 1
slots = 2
attributes = { Cpus = 1, Memory = 4096 }
partitions = ["batch"]
[partitions.short]
default = true
max_time = "3-0"
[partitions.batch]
max_time = "1:40:00"
default_time = "20"
"""


def _job(job_id: str, owner: str, ago: int, cpus: int, **fields: Any) -> dict[str, Any]:
    return {"id": job_id, "owner": owner, "account": "hep", "submit_time": NOW_EPOCH - ago,
            "request_cpus": cpus, **fields}  # fmt: skip


def _cpus(
    tmp_path: Path, run: Run, config: str, queue: list[Any], work: list[Any], until: str, cycle: int
) -> dict[str, dict[str, float]]:
    """CPUs per user at each cycle (HH:MM) of ``fs simulate --backfill``."""
    (tmp_path / "pool.toml").write_text(config + PRIORITY, encoding="utf-8")
    state = {"format": "fairshare-cli state", "schema_version": 1, "jobs": queue}
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    (tmp_path / "work.json").write_text(json.dumps(work), encoding="utf-8")
    res = run("simulate", "--workload", str(tmp_path / "work.json"), "--scheduler", "slurm",
              "--backfill", "--until", until, "--cycle", str(cycle), "--json",
              "--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json"),
              "--now", NOW)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    out: dict[str, dict[str, float]] = {}
    for row in json.loads(res.stdout):
        if row["kind"] == "slurm_user":
            out.setdefault(row["time"][11:16], {})[row["name"]] = row["slots"]
    return out


def test_a_running_unlimited_job_is_planned_to_end_a_year_after_its_start(
    tmp_path: Path, run: Run
) -> None:
    """Job 1 (alice, 1 CPU, no limit in "open") has run since a year less an hour: Slurm
    plans its end at 13:00. Job 2 (alice, both CPUs, 1 hour, the older) cannot start: the
    main scheduler stops there; backfill reserves the node for it from 13:00 to 14:00. Job
    3 (bob, 1 CPU, 2 hours) would run into that: it waits. At 13:00 job 1 runs on, past its
    planned end: Slurm guesses 13:00:30 (KillWait after it), then a second after each pass
    (13:30:01), and job 2's reservation moves with it; job 3 still waits. fs planned job 1
    for ever, reserved nothing, and backfilled job 3 at 12:00."""
    begun = NOW_EPOCH - YEAR + 3600
    queue = [_job("1", "alice", YEAR - 3600, 1, status="running", start_time=begun)]
    work = [
        _job("2", "alice", 3600, 2, time_limit=3600, run_time=3600),
        _job("3", "bob", 0, 1, time_limit=7200, run_time=7200),
    ]
    cpus = _cpus(tmp_path, run, OPEN, queue, work, "2:00:00", 1800)
    assert cpus == {hhmm: {"alice": 1.0, "bob": 0.0, "carol": 0.0}
                    for hhmm in ("12:00", "12:30", "13:00", "13:30", "14:00")}  # fmt: skip


def test_a_job_of_no_limit_backfill_starts_runs_under_the_max_time(
    tmp_path: Path, run: Run
) -> None:
    """Job 4 (bob, 1 CPU, "short,batch", no limit: short, its first, has no DefaultTime)
    runs 3 hours if let. Short's node is held for two days by job 1; in batch job 2
    (carol, 1 CPU, 100 minutes) runs and job 3 (alice, both CPUs, older than job 4) waits:
    backfill reserves batch's node for job 3 from 13:40. Job 4 is planned in batch for its
    MaxTime, 12:00 to 13:40, which fits before that: backfill starts it, and it keeps that
    limit: it is ended at 13:40, when job 3 starts. fs ended it at batch's DefaultTime,
    12:20."""
    work = [
        _job("1", "carol", 7200, 2, partition="short", time_limit="2-0", run_time=2 * 86400),
        _job("2", "carol", 7200, 1, partition="batch", time_limit="1:40:00", run_time=6000),
        _job("3", "alice", 3600, 2, partition="batch", time_limit=600, run_time=600),
        _job("4", "bob", 0, 1, partition="short,batch", run_time=3 * 3600),
    ]
    cpus = _cpus(tmp_path, run, TWO, [], work, "1:50:00", 600)
    assert [cpus[hhmm]["bob"] for hhmm in ("12:00", "12:20", "13:30", "13:40")] == [1, 1, 1, 0]
    assert cpus["13:40"] == {"alice": 2.0, "bob": 0.0, "carol": 2.0}
