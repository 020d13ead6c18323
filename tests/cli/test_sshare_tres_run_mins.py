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


def test_a_running_history_record_blanks_its_chain(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Usage still running from ``fs import history`` (``end`` null): no queued job says
    its limit or TRES, so its association and those above it print a blank cell."""
    common = _pool(tmp_path, run)
    history = tmp_path / "history.jsonl"
    history.write_text(
        '{"owner": "u2", "account": "a", "start": "2026-11-21T12:01:00Z", "end": null, "cpus": 1}\n'
    )
    res = run("import", "history", str(history), *common, "--now", "2026-11-21T12:03:10Z")
    assert res.exit_code == 0, res.stderr
    res = run("sshare", "-a", "-l", *common, "--now", "2026-11-21T12:03:10Z")
    assert res.exit_code == 0, res.stderr
    tres = [line[-31:].rstrip() for line in res.stdout.splitlines()[2:]]
    assert tres == ["", "", "cpu=30,mem=750,energy=0,node=+", ""]
    # the blanks are said once, on stderr (they were left without a word)
    assert res.stderr.startswith("fs: note: TRESRunMins is blank where running usage")
    assert len(res.stderr.splitlines()) == 1


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


def test_the_22_05_running_capture_under_limits(tmp_path: Path, run: Callable[..., Any]) -> None:
    """The 22.05 ``ft1_running`` dumps, imported with ``AccountingStorageEnforce`` given
    ``limits``: jobs 2, 3, 4 (u1 8 CPUs, u2 and u4 4 CPUs, 1 node, no memory in their
    TRES, billing = CPUs, UNLIMITED) started 23:09:01; the passes at 23:09:20 ... 23:13:20
    took 19 + 4 × 60 = 259 s of the INFINITE limit's 4294967294 × 60 = 257698037640 s:
    257698037381 s a unit left. u1: cpu 8 × that // 60 = 34359738317, node 4294967289;
    u2, u4: cpu 17179869158; root: cpu 16 × 257698037381 // 60 = 68719476634, node
    3 × 257698037381 // 60 = 12884901869."""
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "slurm-22.05"
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        (fixtures / "config" / "slurm.conf.fairtree")
        .read_text()
        .replace(
            "AccountingStorageEnforce=associations", "AccountingStorageEnforce=associations,limits"
        )
    )
    cfg = tmp_path / "pool.toml"
    cfg.write_text('[pool]\ndefaults = "current"\n[priority]\noutput_compat = "22.05"\n')
    now = (fixtures / "ft1_running" / "date.txt").read_text().splitlines()[1]
    common = ["--config", str(cfg), "--state", str(tmp_path / "state.json"), "--now", now]
    last = ["--last-decay", "2026-11-21T23:13:20Z"]
    for step in (
        ["slurm-conf", str(conf), "--into", str(cfg), "--replace"],
        ["sacctmgr", str(fixtures / "ft1_running" / "sacctmgr_assoc_tree.txt"), "--into", str(cfg)],
        ["sacctmgr", str(fixtures / "ft1_running" / "sacctmgr_qos.txt"), "--into", str(cfg)],
        [
            "scontrol-assoc",
            str(fixtures / "ft1_running" / "scontrol_assoc_mgr.txt"),
            *common,
            *last,
        ],
        ["squeue", str(fixtures / "ft1_running" / "scontrol_show_jobs.txt"), *common, *last],
    ):
        res = run("import", *step)
        assert res.exit_code == 0, (step, res.stderr)
    res = run("sshare", "-a", "-P", "-n", "-o", "User,TRESRunMins", *common)
    assert res.exit_code == 0, res.stderr

    def cell(cpu: int, node: int) -> str:
        return f"cpu={cpu},mem=0,energy=0,node={node},billing={cpu},fs/disk=0,vmem=0,pages=0"

    u1, four, none = cell(34359738317, 4294967289), cell(17179869158, 4294967289), cell(0, 0)
    assert res.stdout.splitlines() == [
        "|" + cell(68719476634, 12884901869),
        "|" + cell(51539607476, 8589934579),
        "|" + u1,
        "u1|" + u1,
        "|" + four,
        "u2|" + four,
        "u3|" + none,
        "|" + four,
        "|" + four,
        "u4|" + four,
        "|" + none,
        "u5|" + none,
    ]


def test_a_second_tres_run_mins_is_in_hours(tmp_path: Path, run: Callable[..., Any]) -> None:
    """sshare divides a row's run seconds by 60 in place each time it prints TRESRunMins
    (``process.c``, ``PRINT_RUNMINS``, 22.05 and 26.05 alike), so a second mention (another
    spelling: ``slurm_addto_char_list`` drops a name given twice) prints them over 3600, integer division of the first's minutes by 60: u1's mem 750 -> 12
    (45000 s), cpu 30 -> 0; u2's mem 375 -> 6; a's and root's mem 1125 -> 18 (67500 s).
    fs printed the minutes twice."""
    common = _pool(tmp_path, run)
    spec = "User,TRESRunMins,tres"
    res = run("sshare", "-a", "-P", "-o", spec, *common, "--now", "2026-11-21T12:03:10Z")
    assert res.exit_code == 0, res.stderr
    hours = "cpu=0,mem={}" + TAIL.format("node=0,billing=0")
    both = "cpu=37,mem=1125" + TAIL.format("node=11,billing=37")
    assert res.stdout.splitlines() == [
        "User|TRESRunMins|TRESRunMins",
        f"|{both}|{hours.format(18)}",
        f"|{both}|{hours.format(18)}",
        "u1|cpu=30,mem=750" + TAIL.format("node=7,billing=30") + f"|{hours.format(12)}",
        "u2|cpu=7,mem=375" + TAIL.format("node=3,billing=7") + f"|{hours.format(6)}",
    ]
