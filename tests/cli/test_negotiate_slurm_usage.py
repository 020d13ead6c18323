"""A committed ``fs negotiate`` cycle charges Slurm's usage too, as ``fs simulate`` does.

The jobs a cycle starts accrue from the cycle's time at each later decay pass (as running
work queued by ``fs submit`` does), and a running job the cycle sends back to idle (a
preemption) stops there, as ``fs rm`` stops it. Here ``d = 1 − 0.693/600`` (half-life 10
minutes) and passes fall every minute: a job on 1 CPU started at 00:00:00 is charged
``60·d^60`` at the pass at 00:01:00, and that decayed plus ``60·d^60`` at 00:02:00.
Without this, ``fs sshare`` showed no usage an hour after the cycle, and
``fs whatif --set`` of an unchanged half-life showed a fair share move, as the usage
history it replays holds the cycle's work.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONFIG = """[pool]
defaults = "current"
uid_domain = "example.org"
[priority]
calc_period = "1"
decay_halflife = "10"
[[machines]]
name = "n"
attributes = { Cpus = 1 }
[partitions.batch]
default = true
[accounts.a]
users = { u1 = 1 }
[accounts.b]
users = { u2 = 1 }
"""
D = 1 - 0.693 / 600
T0 = "2026-11-21T00:00:00Z"


def _pool(tmp_path: Path, extra: str = "") -> list[str]:
    cfg = tmp_path / "pool.toml"
    cfg.write_text(CONFIG + extra)
    return ["--config", str(cfg), "--state", str(tmp_path / "s.json")]


def _usage(run: Callable[..., Any], args: list[str], user: str, now: str) -> float:
    res = run("sshare", "-a", "--json", *args, "--now", now)
    assert res.exit_code == 0, res.stderr
    return float(next(r["raw_usage"] for r in json.loads(res.stdout) if r["user"] == user))


def test_negotiate_charges_the_jobs_it_starts_to_slurm(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    args = _pool(tmp_path)
    res = run("submit", "--owner", "u1", "--account", "a", *args, "--now", T0)
    assert res.exit_code == 0, res.stderr
    res = run("negotiate", *args, "--now", T0)
    assert res.exit_code == 0, res.stderr
    assert _usage(run, args, "u1", "2026-11-21T00:02:30Z") == pytest.approx(
        60 * D**60 * D**60 + 60 * D**60, rel=1e-12
    )
    res = run(
        "whatif", "--set", 'priority.decay_halflife="10"', "sshare", "-a", *args,
        "--now", "2026-11-21T01:00:00Z",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    assert "no differences" in res.stdout


def test_negotiate_stops_the_slurm_usage_of_a_job_it_preempts(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    args = _pool(tmp_path, '[negotiator]\npreemption_requirements = "True"\n')
    res = run(
        "submit", "--owner", "u2", "--account", "b", "--id", "1", "--set", "status=running",
        "--set", "slot=slot1@n001", *args, "--now", T0,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    res = run("setfactor", "u2@example.org", "100000", *args, "--now", T0)
    assert res.exit_code == 0, res.stderr
    res = run("submit", "--owner", "u1", "--account", "a", "--id", "2", *args, "--now", T0)
    assert res.exit_code == 0, res.stderr
    res = run("negotiate", "--json", *args, "--now", "2026-11-21T00:01:00Z")
    assert res.exit_code == 0, res.stderr
    assert [m["preempted_job"] for m in json.loads(res.stdout)["matches"]] == ["1"]
    # u2 ran 00:00:00 to 00:01:00 (one pass), then only decays; u1 accrues from 00:01:00
    assert _usage(run, args, "u2", "2026-11-21T00:03:00Z") == pytest.approx(
        60 * D**60 * D**120, rel=1e-12
    )
    assert _usage(run, args, "u1", "2026-11-21T00:03:00Z") == pytest.approx(
        60 * D**60 * D**60 + 60 * D**60, rel=1e-12
    )


@pytest.mark.parametrize("started_by", ["negotiate", "submit"])
def test_simulate_ends_the_slurm_charge_of_a_running_job_of_the_state(
    tmp_path: Path, run: Callable[..., Any], started_by: str
) -> None:
    """``fs simulate --workload wl.json ...`` from a state whose queue holds u1's running
    job (started by ``fs negotiate``, or ``fs submit`` of running work) with a run_time
    of 600 s, beside u2's identical job in the workload: both end at 00:10, so their usage
    and fair share stay equal. The state's charge was never ended: u1 accrued for the
    rest of the run and its fair share fell to 0.5 at 00:15."""
    args = _pool(tmp_path, '[[machines]]\nname = "m"\nattributes = { Cpus = 1 }\n')
    job = ["--owner", "u1", "--account", "a", "--id", "1", "--set", "run_time=600"]
    if started_by == "submit":
        job += ["--set", "status=running", "--set", "slot=slot1@n001"]
    assert run("submit", *job, *args, "--now", T0).exit_code == 0
    if started_by == "negotiate":
        assert run("negotiate", *args, "--now", T0).exit_code == 0
    workload = tmp_path / "wl.json"
    workload.write_text(
        '[{"id": "2", "owner": "u2", "account": "b", "run_time": 600, "submit_time": "' + T0 + '"}]'
    )
    res = run(
        "simulate", "--workload", str(workload), "--until", "0:30:00", "--cycle", "300",
        "--json", *args, "--now", T0,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    last = {
        r["name"]: r["fairshare"]
        for r in json.loads(res.stdout)
        if r["kind"] == "slurm_user" and r["time"] == "2026-11-21T00:30:00Z"
    }
    assert last == {"u1": 1.0, "u2": 1.0}
