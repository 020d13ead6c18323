"""Running Slurm jobs in the queue accrue usage at each decay pass, until removed.

slurmctld's decay thread (``_apply_new_usage``) charges a running job at every pass
``Δ · d^Δ · CPUs`` for the seconds since the previous pass (or its start), after
decaying all usage by ``d^Δ``; here ``d = 1 − 0.693/600`` (half-life 10 minutes) and
passes fall every minute on the epoch grid (a new state). A job submitted running at
00:00:30 that started at 23:58:30 on 2 CPUs: the pass at 23:59:00 charges 30 s, the one
at 00:00:00 60 s; after ``fs rm`` at 00:01:30 nothing more is charged, only decay.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONFIG = """[pool]
defaults = "current"
[priority]
calc_period = "1"
decay_halflife = "10"
[[machines]]
name = "n"
attributes = { Cpus = 8 }
[partitions.batch]
default = true
[accounts.a]
users = { u1 = 1 }
"""
D = 1 - 0.693 / 600


def _usage(run: Callable[..., Any], args: list[str], now: str) -> float:
    res = run("sshare", "-a", "--json", *args, "--now", now)
    assert res.exit_code == 0, res.stderr
    return next(r["raw_usage"] for r in json.loads(res.stdout) if r["user"] == "u1")


def test_submit_running_then_rm(tmp_path: Path, run: Callable[..., Any]) -> None:
    cfg = tmp_path / "pool.toml"
    cfg.write_text(CONFIG)
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    res = run(
        "submit",
        "--owner",
        "u1",
        "--account",
        "a",
        "--cpus",
        "2",
        "--id",
        "7",
        "--set",
        "status=running",
        "--set",
        "start_time=2026-11-20T23:58:30Z",
        *args,
        "--now",
        "2026-11-21T00:00:30Z",
    )
    assert res.exit_code == 0, res.stderr
    at_0000 = 2 * (30 * D**30 * D**60 + 60 * D**60)
    assert _usage(run, args, "2026-11-21T00:00:30Z") == pytest.approx(at_0000, rel=1e-12)
    at_0100 = at_0000 * D**60 + 2 * 60 * D**60
    assert _usage(run, args, "2026-11-21T00:01:59Z") == pytest.approx(at_0100, rel=1e-12)
    res = run("rm", "7", *args, "--now", "2026-11-21T00:01:30Z")
    assert res.exit_code == 0, res.stderr
    assert _usage(run, args, "2026-11-21T00:03:00Z") == pytest.approx(at_0100 * D**120, rel=1e-12)


def test_a_job_fs_negotiate_starts_accrues_until_rm(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A job a committed ``fs negotiate`` starts at 00:00:00 on 2 CPUs is a running Slurm
    job from then on, as ``fs simulate`` charges it: the pass at 00:01:00 charges 60 s;
    after ``fs rm`` at 00:01:30 only decay."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text(CONFIG)
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    at = "2026-11-21T00:00:00Z"
    res = run("submit", "--owner", "u1", "--account", "a", "--cpus", "2", *args, "--now", at)
    assert res.exit_code == 0, res.stderr
    res = run("negotiate", *args, "--now", at)
    assert res.exit_code == 0, res.stderr
    at_0100 = 2 * 60 * D**60
    assert _usage(run, args, "2026-11-21T00:01:59Z") == pytest.approx(at_0100, rel=1e-12)
    res = run("rm", "1", *args, "--now", "2026-11-21T00:01:30Z")
    assert res.exit_code == 0, res.stderr
    assert _usage(run, args, "2026-11-21T00:03:00Z") == pytest.approx(at_0100 * D**120, rel=1e-12)


CLASSIC = """[pool]
defaults = "current"
[priority]
fairshare = "classic"
calc_period = "5"
decay_halflife = "1:00:00"
[[machines]]
name = "n"
attributes = { Cpus = 8 }
[partitions.batch]
default = true
[accounts.a]
users = { u1 = 1 }
[accounts.b]
users = { u2 = 1 }
"""


def test_a_job_ended_after_the_last_pass_keeps_classic_account_usage(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Classic fair share takes the accounts' usage from before the pass at 00:10 charged
    its running jobs: u1 and u2 ran alike from 00:00, so 0.5 each, though u1's job ended at
    00:12. A command that brings the state up to 00:13 (``fs submit`` of a running job,
    which adds nothing before the 00:15 pass) must not change that: it forgot u1's charge
    at 00:10 and printed 0.673145 and 0.326855."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text(CLASSIC)
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    for job, user, account in (("1", "u1", "a"), ("2", "u2", "b")):
        res = run(
            *("submit", "--owner", user, "--account", account, "--id", job),
            *("--set", "status=running", "--set", "start_time=2026-11-21T00:00:00Z"),
            *args,
            *("--now", "2026-11-21T00:00:00Z"),
        )
        assert res.exit_code == 0, res.stderr
    assert run("rm", "1", *args, "--now", "2026-11-21T00:12:00Z").exit_code == 0
    at = "2026-11-21T00:13:00Z"

    def shares() -> list[tuple[str | None, float, float | None]]:
        res = run("sshare", "-a", "--json", *args, "--now", at)
        assert res.exit_code == 0, res.stderr
        return [(r["user"], r["effective_usage"], r["fairshare"]) for r in json.loads(res.stdout)]

    before = shares()
    assert [f for u, _, f in before if u is not None] == [0.5, 0.5]
    res = run(
        *("submit", "--owner", "u2", "--account", "b", "--id", "3"),
        *("--set", "status=running", "--set", f"start_time={at}"),
        *args,
        *("--now", at),
    )
    assert res.exit_code == 0, res.stderr
    assert shares() == before
