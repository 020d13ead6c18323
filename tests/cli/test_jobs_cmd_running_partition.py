"""``fs submit --partition a,b`` of a running job: the partition it runs in is stored first,
and its limit end (core/slurm/limit_ends.py) is that partition's.

slurmctld rewrites a started job's partition list with the one it runs in first
(``rebuild_job_part_list``, 22.05 and 26.05 alike) and times the job out under that
partition's ``OverTimeLimit`` (``job_time_limit``: ``job_ptr->part_ptr``). fs read the limit
end from the first partition as named, where the job cannot run: a 90-minute job above a's
``MaxTime`` of 1 hour (it would pend there: ``PartitionTimeLimit``) runs in b.

By hand (``_decay_thread``, ``_apply_new_usage``; half-life 1 hour, a pass every 300 s from
11:00): in b the job ends at 11:00 + 90 + 10 minutes (b's OverTimeLimit) = 12:40, so the
passes 11:05 ... 12:40 charge it 300 s each (20 passes; a's cluster OverTimeLimit of 0
ended it at 12:30, 18 passes): at 13:00, Σ 300·d^300·d^(7200 − 300k), k = 1 ... 20.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., Any]
POOL = """
[pool]
defaults = "current"
uid_domain = "example.org"
[[machines]]
name = "na"
slots = 2
attributes = { Cpus = 1 }
partitions = ["a"]
[[machines]]
name = "nb"
slots = 2
attributes = { Cpus = 1 }
partitions = ["b"]
[partitions.a]
max_time = "1:00:00"
[partitions.b]
max_time = "2:00:00"
over_time_limit = 600
[priority]
calc_period = 300
decay_halflife = "1:00:00"
[accounts.hep]
shares = 1
users = { alice = 1, bob = 1 }
"""
D = 1 - 0.693 / 3600
START = "2026-11-21T11:00:00Z"


def _files(tmp_path: Path) -> list[str]:
    (tmp_path / "pool.toml").write_text(POOL)
    return ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]


def test_the_limit_end_is_that_of_the_partition_it_runs_in(tmp_path: Path, run: Run) -> None:
    files = _files(tmp_path)
    res = run(
        "submit", "--owner", "alice", "--account", "hep", "--partition", "a,b",
        "--time-limit", "90", "--set", "status=running", "--set", f"start_time={START}",
        *files, "--now", START,
    )  # fmt: skip
    assert (res.exit_code, res.stderr) == (0, "")
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert [job["partition"] for job in jobs] == ["b,a"]
    res = run("sshare", "-a", "--json", *files, "--now", "2026-11-21T13:00:00Z")
    assert res.exit_code == 0, res.stderr
    usage = {row["user"]: row["raw_usage"] for row in json.loads(res.stdout) if row["user"]}
    expected = sum(300 * D**300 * D ** (7200 - 300 * k) for k in range(1, 21))
    assert usage["alice"] == pytest.approx(expected, rel=1e-12)
    assert round(expected, 3) == 2743.281  # (2306.387 with a's end: fs before)


def test_a_pending_job_keeps_its_partitions_as_named(tmp_path: Path, run: Run) -> None:
    """A pending job runs nowhere yet: ``a,b`` as given (slurmctld tries both)."""
    files = _files(tmp_path)
    res = run("submit", "--owner", "alice", "--account", "hep", "--partition", "a,b",
              "--time-limit", "90", *files, "--now", START)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert [job["partition"] for job in jobs] == ["a,b"]
