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
