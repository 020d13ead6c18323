"""Many ``fs`` processes writing one state or one config at once: no update lost, no file
half written, every run exit 0 with at most the lock's note on stderr (docs/state.md: a
writer that finds the lock held says so and waits its turn).

Real processes, started together: the state's read-modify-write holds ``<state>.lock``
(cli/context.py, io/state.py), a config merge the folder's lock (io/toml_merge.py).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_configs"
FIXTURES = REPO / "tests" / "fixtures"
NOW = "2026-11-21T12:00:00Z"


def _together(lines: list[list[str]], cwd: Path) -> list[tuple[int, str]]:
    """Run ``fs LINE`` for every line at once; (exit code, stderr) of each."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "fairshare_cli", *line],
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for line in lines
    ]
    errors = [p.communicate(timeout=600)[1] for p in procs]
    return [(p.returncode, err) for p, err in zip(procs, errors, strict=True)]


def _only_waits(results: list[tuple[int, str]], lock: str) -> None:
    """Every run ended 0, saying nothing but that it waited for ``lock``."""
    for code, stderr in results:
        assert code == 0, stderr
        for line in stderr.splitlines():
            assert line.startswith(f"fs: note: waiting for {lock}"), stderr


def _pool(tmp_path: Path) -> list[str]:
    shutil.copytree(SAMPLE, tmp_path / "pool")
    return ["--config", str(tmp_path / "pool" / "pool.toml"), "--now", NOW]


def test_twenty_submits_at_once_lose_no_job(tmp_path: Path) -> None:
    """``fs submit --owner ivan --id 9N.0`` twenty times at once on the sample state."""
    common = _pool(tmp_path)
    state = tmp_path / "pool" / "sample-state.json"
    ids = [f"9{n}.0" for n in range(20)]
    results = _together([["submit", "--owner", "ivan", "--id", i, *common] for i in ids], tmp_path)
    _only_waits(results, "")
    doc = json.loads(state.read_text(encoding="utf-8"))
    assert sorted(job["id"] for job in doc["jobs"]) == sorted(ids)
    leftovers = [p.name for p in state.parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_setfactors_at_once_each_land(tmp_path: Path) -> None:
    """``fs setfactor --create uN@example.org N`` for N = 1..16 at once: each record made,
    with its own factor."""
    common = _pool(tmp_path)
    lines = [["setfactor", "--create", f"u{n}@example.org", str(n), *common] for n in range(1, 17)]
    _only_waits(_together(lines, tmp_path), "")
    doc = json.loads((tmp_path / "pool" / "sample-state.json").read_text(encoding="utf-8"))
    records = doc["accountant"]["records"]
    factors = {n: records[f"u{n}@example.org"]["priority_factor"] for n in range(1, 17)}
    assert factors == {n: float(n) for n in range(1, 17)}


def test_config_merges_at_once_keep_every_fragment(tmp_path: Path) -> None:
    """Five importers' ``--into CONFIG --replace``, twice each, at once: every fragment's
    sections end in the config, which ``fs config check`` reads."""
    config = tmp_path / "c.toml"
    config.write_text('[pool]\ndefaults = "current"\n', encoding="utf-8")
    slurm = FIXTURES / "slurm-22.05"
    kinds = [
        ["condor-config", FIXTURES / "htcondor-25.0" / "flat_users" / "condor_config"],
        ["slurm-conf", slurm / "config" / "slurm.conf.classic"],
        ["sacctmgr", slurm / "cl1_idle" / "sacctmgr_assoc_tree.txt"],
        ["sacctmgr", slurm / "cl1_idle" / "sacctmgr_qos.txt"],
        ["dirac-cfg", FIXTURES / "dirac-cfg" / "dirac.cfg"],
    ]
    lines = [["import", k, str(p), "--into", str(config), "--replace"] for k, p in kinds * 2]
    for code, stderr in _together(lines, tmp_path):
        assert code == 0, stderr
    text = config.read_text(encoding="utf-8")
    for table in ("[accountant]", "[priority]", "[accounts.a]", "[qos.high]", "[dirac]"):
        assert table in text, table
    check = subprocess.run(
        [sys.executable, "-m", "fairshare_cli", "config", "check", "--config", str(config)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert check.returncode == 0, check.stderr


def test_ctrl_c_while_waiting_for_the_lock_is_one_line_and_130(tmp_path: Path) -> None:
    """``fs setfactor alice 5`` while another process holds ``<state>.lock``: it says it
    waits; Ctrl-C then ends it with the interrupt's one line and 130 (as a shell's commands
    exit on SIGINT), the state byte for byte as it was and no file beside it."""
    common = _pool(tmp_path)
    state = tmp_path / "pool" / "sample-state.json"
    before = state.read_bytes()
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, f"{state}.lock"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1"}
    waiter = subprocess.Popen(
        [sys.executable, "-m", "fairshare_cli", "setfactor", "alice", "5", *common],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert waiter.stderr is not None
    note = waiter.stderr.readline()  # (it waits: the lock is held)
    waiter.send_signal(signal.SIGINT)
    out, rest = waiter.communicate(timeout=60)
    holder.communicate("", timeout=60)
    assert note == f"fs: note: waiting for {state}.lock: another fs is changing the state\n"
    assert (waiter.returncode, out, rest) == (130, "", "fs: error: interrupted (Ctrl-C)\n")
    assert state.read_bytes() == before
    files = sorted(p.name for p in state.parent.iterdir() if p.name.startswith(state.name))
    assert files == [state.name, f"{state.name}.lock"]


#: A process that holds the lock file named by its argument until its stdin closes.
_HOLD_LOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""
