"""``fs sprio``'s fair-share factor counts a running job's usage only up to where
slurmctld ends the job (start + time limit + ``OverTimeLimit``, ``job_time_limit``).

Hand-derived (as ``test_sshare_limit_ends.py`` derives it): at 13:00 u1's job (1 CPU,
limit 60 min, from 11:00, OverTimeLimit 0) has 1261.4372 of usage, u2's UNLIMITED job
3784.1087; classic fair share gives u1 EffectvUsage n + (1 - n)/2 = 0.6250046 with
n = 1261.4372 / 5045.5459, and the factor 2^(-0.6250046/0.5) = 0.4204453, so u1's pending
job's FAIRSHARE is 420445 under a weight of 1,000,000 (fs printed 353553, u1 charged up
to 13:00 as u2 is).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

CONFIG = """
[pool]
name = "c"
defaults = "current"
[priority]
fairshare = "classic"
calc_period = 300
decay_halflife = "1:00:00"
[priority.weights]
fairshare = 1000000
[[machines]]
name = "n"
slots = 16
attributes = { Cpus = 1 }
[partitions.batch]
default = true
[accounts.a]
shares = 1
users = { u1 = 1, u2 = 1 }
"""


def test_the_fairshare_factor_stops_at_the_jobs_limit(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    config = tmp_path / "pool.toml"
    config.write_text(CONFIG)
    common = ["--config", str(config), "--state", str(tmp_path / "state.json")]
    start = ["--set", "status=running", "--set", "start_time=2026-11-21T11:00:00Z"]
    for args in (
        ["--owner", "u1", "--time-limit", "60", *start],
        ["--owner", "u2", *start],
        ["--owner", "u1"],
    ):
        res = run("submit", *args, "--account", "a", *common, "--now", "2026-11-21T11:00:00Z")
        assert res.exit_code == 0, res.stderr
    res = run("sprio", "-o", "%.15i %F", *common, "--now", "2026-11-21T13:00:00Z")
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines() == ["          JOBID FAIRSHARE", "              3 420445"]
