"""``fs sshare -l`` under ``priority.enforce_limits`` (``AccountingStorageEnforce=limits``):
TRESRunMins holds the running jobs' TRES-minutes still to run, as slurmctld keeps them
(``acct_policy.c`` adds count × limit at the start; each decay pass of
``priority_multifactor.c`` takes off the seconds run), and GrpTRESRaw, which fs cannot
make per TRES, is blank. fs printed zeros in both, as on a cluster without limits.

Hand-derived: u1's job (4 CPUs, 100 MB, 1 node, limit 10 minutes) started at 12:00:30;
the passes at 12:01, 12:02 and 12:03 took 30 + 60 + 60 = 150 of its 600 seconds, so at
12:03:10 it holds 450 s per unit: cpu 1800 s = 30 min, mem 45000 s = 750, node 450 s = 7,
billing 30. u2's (2 CPUs, QOS usage factor 0.5) holds trunc(600 × 0.5) = 300 less
trunc(30 × 0.5) + 2 × trunc(60 × 0.5) = 75: 225 s per unit, cpu 450 s = 7, mem 375,
node 3. Account a and root add seconds first: cpu 2250 s = 37, node 675 s = 11.
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
fairshare = "fair_tree"
calc_period = 60
decay_halflife = "0:10:00"
enforce_limits = true
[[machines]]
name = "n"
slots = 16
attributes = { Cpus = 1, Memory = 1000 }
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
TAIL = ",energy=0,{},fs/disk=0,vmem=0,pages=0"


def _pool(tmp_path: Path, run: Callable[..., Any], enforce: bool = True) -> list[str]:
    config = tmp_path / "pool.toml"
    config.write_text(CONFIG if enforce else CONFIG.replace("enforce_limits = true\n", ""))
    common = ["--config", str(config), "--state", str(tmp_path / "state.json")]
    start = ["--set", "status=running", "--set", "start_time=2026-11-21T12:00:30Z"]
    for args in (
        ["--owner", "u1", "--cpus", "4"],
        ["--owner", "u2", "--cpus", "2", "--qos", "half"],
    ):
        res = run(
            "submit",
            *args,
            "--account",
            "a",
            "--memory",
            "100",
            "--time-limit",
            "10",
            *start,
            *common,
            "--now",
            "2026-11-21T12:00:30Z",
        )
        assert res.exit_code == 0, res.stderr
    return common


def test_tres_run_mins_counts_the_time_left(tmp_path: Path, run: Callable[..., Any]) -> None:
    common = _pool(tmp_path, run)
    res = run("sshare", "-a", "-l", "-P", *common, "--now", "2026-11-21T12:03:10Z")
    assert res.exit_code == 0, res.stderr
    cells = [line.split("|")[-2:] for line in res.stdout.splitlines()]
    both = "cpu=37,mem=1125" + TAIL.format("node=11,billing=37")
    assert cells == [
        ["GrpTRESMins", "TRESRunMins"],
        ["", both],
        ["", both],
        ["", "cpu=30,mem=750" + TAIL.format("node=7,billing=30")],
        ["", "cpu=7,mem=375" + TAIL.format("node=3,billing=7")],
    ]
    raw = run("sshare", "-a", "-P", "-o", "Account,User,GrpTRESRaw", *common)
    assert raw.exit_code == 0, raw.stderr
    assert [line.split("|")[2] for line in raw.stdout.splitlines()[1:]] == ["", "", "", ""]


def test_past_the_limit_nothing_is_left(tmp_path: Path, run: Callable[..., Any]) -> None:
    common = _pool(tmp_path, run)
    res = run(
        "sshare", "-a", "-P", "-o", "User,TRESRunMins", *common, "--now", "2026-11-21T12:11:00Z"
    )
    assert res.exit_code == 0, res.stderr
    zeros = "cpu=0,mem=0" + TAIL.format("node=0,billing=0")
    assert res.stdout.splitlines()[1:] == [f"|{zeros}", f"|{zeros}", f"u1|{zeros}", f"u2|{zeros}"]


def test_a_job_of_unknown_memory_blanks_its_chain(tmp_path: Path, run: Callable[..., Any]) -> None:
    """slurmctld gives a job asking no memory its nodes' memory, which fs does not know."""
    common = _pool(tmp_path, run)
    res = run(
        "submit",
        "--owner",
        "u2",
        "--account",
        "a",
        "--time-limit",
        "10",
        "--set",
        "status=running",
        *common,
        "--now",
        "2026-11-21T12:03:10Z",
    )
    assert res.exit_code == 0, res.stderr
    res = run("sshare", "-a", "-l", *common, "--now", "2026-11-21T12:03:10Z")
    assert res.exit_code == 0, res.stderr
    tres = [line[-31:].rstrip() for line in res.stdout.splitlines()[2:]]
    assert tres == ["", "", "cpu=30,mem=750,energy=0,node=+", ""]


def test_without_limits_the_columns_stay_zero(tmp_path: Path, run: Callable[..., Any]) -> None:
    common = _pool(tmp_path, run, enforce=False)
    res = run(
        "sshare",
        "-a",
        "-P",
        "-o",
        "GrpTRESRaw,TRESRunMins",
        *common,
        "--now",
        "2026-11-21T12:03:10Z",
    )
    assert res.exit_code == 0, res.stderr
    zeros = "cpu=0,mem=0" + TAIL.format("node=0,billing=0")
    assert set(res.stdout.splitlines()[1:]) == {f"{zeros}|{zeros}"}
