"""``fs simulate --scheduler slurm`` under ``PriorityFlags=INCR_ONLY``: a pending job's
priority never falls from one decay pass to the next, as slurmctld keeps
``job_ptr->priority`` at its highest (``decay_apply_weighted_factors``, 22.05 and 26.05
alike: ``if (!(flags & PRIORITY_FLAGS_INCR_ONLY) || job_ptr->priority < new_prio)``) and
its scheduler walks the queue by it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = 1795262400
Run = Callable[..., Any]

#: One 1-CPU node; Fair Tree with fair share alone weighed (1000); a pass every minute.
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
fairshare = "fair_tree"
calc_period = "1"
decay_halflife = "7-0"
flags = [{flags}]
[priority.weights]
fairshare = 1000
[accounts.hep]
shares = 1
users = {{ alice = 1, bob = 1 }}
"""


def _second_start(tmp_path: Path, run: Run, flags: str) -> dict[str, float]:
    """Each user's CPUs in use once alice's first job has ended (its hour is up)."""
    (tmp_path / "pool.toml").write_text(POOL.format(flags=flags), encoding="utf-8")
    state = {
        "format": "fairshare-cli state",
        "schema_version": 1,
        "slurm": {"last_decay_ran": NOW_EPOCH, "usage": {"hep": {"bob": 100.0}}},
    }
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    work = [
        {"id": str(i), "owner": owner, "account": "hep", "submit_time": NOW,
         "run_time": 3600, "time_limit": 7200}
        for i, owner in ((1, "alice"), (2, "alice"), (3, "bob"))
    ]  # fmt: skip
    (tmp_path / "work.json").write_text(json.dumps(work), encoding="utf-8")
    res = run("simulate", "--workload", str(tmp_path / "work.json"), "--until", "1:01:00",
              "--cycle", "60", "--scheduler", "slurm", "--json",
              "--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json"),
              "--now", NOW)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    rows = json.loads(res.stdout)
    first = {r["name"]: r["slots"] for r in rows if r["time"] == NOW and r["kind"] == "slurm_user"}
    assert first == {"alice": 1.0, "bob": 0.0}  # job 1 at 12:00
    end = "2026-11-21T13:00:00Z"
    return {r["name"]: r["slots"] for r in rows if r["time"] == end and r["kind"] == "slurm_user"}


def test_a_pending_jobs_priority_never_falls_between_passes(tmp_path: Path, run: Run) -> None:
    """At 12:00 bob has usage (100) and alice none: Fair Tree ranks alice first, factor
    2/2 = 1 (PRIORITY 1000), bob 1/2 (500); job 1 (alice's, lowest id of her two) starts
    on the one CPU. Her running job is charged 60 a pass, so from 12:02 her usage (120)
    passes bob's (100 x the decay, a little under 100) and the ranks swap: alice's job 2
    sums 500, bob's job 3 1000. When job 1 ends at 13:00, without the flag job 3 (1000)
    starts before job 2 (500); with ``INCR_ONLY`` job 2 keeps the 1000 of the 12:00 and
    12:01 passes and job 3 has risen to 1000: a tie, which the earlier submit time (the
    same) and then the lower job id break: job 2 starts. fs took each pass's sum alone,
    and started job 3 with the flag too."""
    assert _second_start(tmp_path, run, "") == {"alice": 0.0, "bob": 1.0}
    assert _second_start(tmp_path, run, '"INCR_ONLY"') == {"alice": 1.0, "bob": 0.0}


def _hour_cycle(tmp_path: Path, run: Run, flags: str, second: str) -> dict[str, float]:
    """Each user's CPUs in use at 13:00, the second of two cycles an hour apart (sixty
    one-minute passes in between): alice's job 1 ran 12:00-13:00; her job 2 and bob's job
    3 were submitted after the first cycle (job 2 at ``second``, job 3 at 12:00:30)."""
    (tmp_path / "pool.toml").write_text(POOL.format(flags=flags), encoding="utf-8")
    state = {
        "format": "fairshare-cli state",
        "schema_version": 1,
        "slurm": {"last_decay_ran": NOW_EPOCH, "usage": {"hep": {"bob": 100.0}}},
    }
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    work = [
        {"id": str(i), "owner": owner, "account": "hep", "submit_time": when,
         "run_time": 3600, "time_limit": 7200}
        for i, owner, when in ((1, "alice", NOW), (2, "alice", second),
                               (3, "bob", "2026-11-21T12:00:30Z"))
    ]  # fmt: skip
    (tmp_path / "work.json").write_text(json.dumps(work), encoding="utf-8")
    res = run("simulate", "--workload", str(tmp_path / "work.json"), "--until", "1:00:00",
              "--cycle", "3600", "--scheduler", "slurm", "--json",
              "--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json"),
              "--now", NOW)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    rows = json.loads(res.stdout)
    end = "2026-11-21T13:00:00Z"
    return {r["name"]: r["slots"] for r in rows if r["time"] == end and r["kind"] == "slurm_user"}


def test_a_pending_jobs_priority_never_falls_between_the_passes_of_one_cycle(
    tmp_path: Path, run: Run
) -> None:
    """The scenario above with ``--cycle 3600`` (one cycle an hour, a pass a minute) and
    jobs 2 and 3 submitted at 12:00:30, after the first cycle. slurmctld gives each its
    priority at submission from the 12:00 pass (alice 1000, bob 500), again at 12:01
    (alice's usage 60 still under bob's: the same), and from 12:02 alice 500, bob 1000.
    With ``INCR_ONLY`` job 2 keeps 1000 and ties job 3 at 13:00: the same submit time, so
    the lower id, job 2, starts. fs scored them at the 13:00 pass alone (job 2 500, job 3
    1000), with the flag too, and started job 3; without the flag it still does."""
    second = "2026-11-21T12:00:30Z"
    assert _hour_cycle(tmp_path, run, "", second) == {"alice": 0.0, "bob": 1.0}
    assert _hour_cycle(tmp_path, run, '"INCR_ONLY"', second) == {"alice": 1.0, "bob": 0.0}


def test_a_job_keeps_no_priority_from_before_its_submission(tmp_path: Path, run: Run) -> None:
    """Job 2 submitted at 12:30: the passes before it (12:00, 12:01: alice 1000) are not
    its own; at submission (the 12:30 pass's tree) and at every pass after, alice's usage
    is over bob's, so job 2 is 500 throughout and bob's job 3 (1000) starts at 13:00,
    with ``INCR_ONLY`` too."""
    second = "2026-11-21T12:30:00Z"
    assert _hour_cycle(tmp_path, run, '"INCR_ONLY"', second) == {"alice": 0.0, "bob": 1.0}
