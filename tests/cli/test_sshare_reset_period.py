"""``fs sshare`` across a ``PriorityUsageResetPeriod=DAILY`` boundary, jobs running.

Derived by hand from ``_decay_thread`` (``priority_multifactor.c``): at each pass, first a
reset if the pass is at or past the next reset time (midnight after the last reset:
``_next_reset``: midnight UTC here, ``usage_reset_time_zone`` unset), then decay by ``d^Δ`` (``d = 1 − 0.693 / 3600``
here), then each running job charged ``Δ · d^Δ · CPUs · UsageFactor`` for the ``Δ``
seconds since the last pass: the pass at 00:00 zeroes the usage, then charges the five
minutes before it. Passes every 5 minutes, on multiples of 300 s since the epoch.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., Any]
CONFIG = """
[pool]
defaults = "current"
[[machines]]
name = "n"
count = 2
slots = 1
attributes = { Cpus = 4 }
partitions = ["batch"]
[priority]
decay_halflife = "1:00:00"
calc_period = "5"
usage_reset_period = "DAILY"
[partitions.batch]
default = true
[qos.normal]
usage_factor = 1.0
[qos.half]
usage_factor = 0.5
[accounts.a]
shares = 1
users = { u1 = 1, u2 = 1 }
"""
D = 1 - 0.693 / 3600
Q = 300 * D**300  # one full pass's charge per unit of rate


def _usage(run: Run, args: list[str], now: str) -> dict[str, float]:
    res = run("sshare", "-a", "--json", *args, "--now", now)
    assert res.exit_code == 0, res.stderr
    return {row["user"]: row["raw_usage"] for row in json.loads(res.stdout) if row["user"]}


def test_usage_resets_at_the_first_pass_past_midnight(tmp_path: Path, run: Run) -> None:
    """u1 runs 4 CPUs from 23:40 (rate 4); u2 2 CPUs at UsageFactor 0.5 from 23:52:30
    (rate 1). Before midnight (the 23:55 pass): u1 charged at 23:45, 23:50, 23:55;
    u2 150 s at 23:55. The 00:00 pass resets, then charges 300 s each; 00:05 decays that
    and charges again."""
    (tmp_path / "pool.toml").write_text(CONFIG)
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]
    for user, cpus, qos, start in (
        ("u1", "4", "normal", "23:40:00"),
        ("u2", "2", "half", "23:52:30"),
    ):
        when = f"2026-11-21T{start}Z"
        res = run("submit", "--owner", user, "--account", "a", "--cpus", cpus, "--qos", qos,
                  "--set", "status=running", "--set", f"start_time={when}", *args, "--now", when)  # fmt: skip
        assert res.exit_code == 0, res.stderr
    before = _usage(run, args, "2026-11-21T23:59:59Z")
    u1 = 4 * Q * (D**600 + D**300 + 1)
    assert before == pytest.approx({"u1": u1, "u2": 150 * D**150}, rel=1e-12)
    at = _usage(run, args, "2026-11-22T00:00:00Z")
    assert at == pytest.approx({"u1": 4 * Q, "u2": Q}, rel=1e-12)
    after = _usage(run, args, "2026-11-22T00:07:00Z")
    assert after == pytest.approx({"u1": 4 * Q * (D**300 + 1), "u2": Q * (D**300 + 1)}, rel=1e-12)


def test_usage_resets_at_local_midnight_of_the_time_zone(tmp_path: Path, run: Run) -> None:
    """slurmctld takes the boundaries in its host's local time (``localtime_r`` and
    ``mktime`` in ``_next_reset``); fs took midnight UTC. With
    ``usage_reset_time_zone = "Europe/Berlin"`` midnight is 23:00 UTC (CET, UTC+1): u1
    runs 4 CPUs from 22:40 UTC, is charged at 22:45, 22:50 and 22:55, and the 23:00 pass
    resets, then charges 300 s. In UTC the 23:00 pass charges a fourth time."""
    zone = CONFIG.replace('usage_reset_period = "DAILY"',
                          'usage_reset_period = "DAILY"\nusage_reset_time_zone = "Europe/Berlin"')  # fmt: skip
    for name, text in (("berlin", zone), ("utc", CONFIG)):
        (tmp_path / f"{name}.toml").write_text(text)
    args = ["--state", str(tmp_path / "state.json")]
    when = "2026-11-21T22:40:00Z"
    res = run("submit", "--owner", "u1", "--account", "a", "--cpus", "4",
              "--set", "status=running", "--set", f"start_time={when}",
              "--config", str(tmp_path / "utc.toml"), *args, "--now", when)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    berlin = ["--config", str(tmp_path / "berlin.toml"), *args]
    utc = ["--config", str(tmp_path / "utc.toml"), *args]
    before = 4 * Q * (D**600 + D**300 + 1)
    assert _usage(run, berlin, "2026-11-21T22:59:59Z") == pytest.approx(
        {"u1": before, "u2": 0.0}, rel=1e-12
    )
    assert _usage(run, berlin, "2026-11-21T23:00:00Z") == pytest.approx(
        {"u1": 4 * Q, "u2": 0.0}, rel=1e-12
    )
    assert _usage(run, utc, "2026-11-21T23:00:00Z") == pytest.approx(
        {"u1": 4 * Q * (D**900 + D**600 + D**300 + 1), "u2": 0.0}, rel=1e-12
    )


def test_an_unknown_time_zone_is_refused(tmp_path: Path, run: Run) -> None:
    config = tmp_path / "pool.toml"
    config.write_text(
        CONFIG.replace('usage_reset_period = "DAILY"',
                       'usage_reset_period = "DAILY"\nusage_reset_time_zone = "Mars/Olympus"')
    )  # fmt: skip
    res = run("config", "check", "--config", str(config))
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (
        f'fs: error: {config}: priority.usage_reset_time_zone: "Mars/Olympus" is no time zone'
        " of this system's database (nor of the tzdata package); expected an IANA name such"
        ' as "Europe/Berlin" (the local time of the host slurmctld runs on), or "UTC"\n'
    )


def test_an_infinite_half_life_is_the_finite_time_slurmctld_stores(
    tmp_path: Path, run: Run
) -> None:
    """read_config.c stores PriorityDecayHalfLife=INFINITE as (uint32_t)(-1 x 60) =
    4,294,967,236 s, and _decay_thread decays with d = 1 - 0.693 / 4,294,967,236 (fs took
    no decay at all). u1 runs 4 CPUs from midnight; each of the day's 288 passes decays
    the usage by d^300 and charges 300 x d^300 x 4: 1200 d^300 (1 - d^86400) / (1 - d^300)
    = 345,597.58, which sshare prints 345597 (fs printed 345600)."""
    config = CONFIG.replace('decay_halflife = "1:00:00"', 'decay_halflife = "INFINITE"').replace(
        'usage_reset_period = "DAILY"\n', ""
    )
    (tmp_path / "pool.toml").write_text(config)
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]
    when = "2026-11-21T00:00:00Z"
    res = run("submit", "--owner", "u1", "--account", "a", "--cpus", "4", "--set",
              "status=running", "--set", f"start_time={when}", *args, "--now", when)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    res = run("sshare", "-a", "-l", *args, "--now", "2026-11-22T00:00:00Z")
    assert res.exit_code == 0, res.stderr
    u1 = next(line for line in res.stdout.splitlines() if " u1 " in line)
    assert u1.split()[4] == "345597"
    d, usage = 1 - 0.693 / 4294967236, 0.0
    for _ in range(288):  # (pass by pass: the closed form loses digits in 1 - d^300)
        usage = usage * d**300 + 300 * d**300 * 4
    assert _usage(run, args, "2026-11-22T00:00:00Z")["u1"] == pytest.approx(usage, rel=1e-10)
