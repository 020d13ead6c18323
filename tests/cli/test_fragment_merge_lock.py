"""Two fs merging into one config take turns (``--into``): each reads, merges and renames
the file under an exclusive lock on its folder. Without it, ``fs import slurm-conf F --into
pool.toml & fs import sacctmgr Q --into pool.toml`` lost one of the two merges about one
run in eight (each read the old file; the last rename won)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import FIXTURES

QOS = FIXTURES / "slurm-22.05" / "ft1_running" / "sacctmgr_qos.txt"


def test_a_merge_waits_for_another_writer_of_the_folder(tmp_path: Path) -> None:
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "example.org"\n')
    held = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(held, fcntl.LOCK_EX)
    seen: list[str] = []

    def release() -> None:  # (the merge must not have written while the lock was held)
        seen.append(config.read_text())
        os.close(held)

    timer = threading.Timer(2.0, release)  # (long enough for a busy machine to get there)
    timer.start()
    try:
        result = CliRunner().invoke(cli, ["import", "sacctmgr", str(QOS), "--into", str(config)])
    finally:
        timer.join()
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(
        f"fs: note: waiting for {tmp_path}: another fs is changing a config file in it\n"
        f"merged into {config}: "
    )
    assert seen == ['[pool]\nuid_domain = "example.org"\n']
    assert "[qos.normal]" in config.read_text()


def test_a_dry_run_merge_takes_no_lock(tmp_path: Path) -> None:
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "example.org"\n')
    held = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        line = ["import", "sacctmgr", str(QOS), "--into", str(config), "--dry-run"]
        result = CliRunner().invoke(cli, line)
    finally:
        os.close(held)
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(f"would merge into {config}: ")


#: One claimed slot: its claim is written into the state after the machine is merged.
CLAIMED = (
    'Name = "slot1@m1"\nMachine = "m1"\nCpus = 1\nState = "Claimed"\nRemoteUser = "z@d"\n'
    'JobId = "5.0"\nJobStart = 1795258000\n'
)
#: Another fs merging into the config while this one fails: it takes the folder's lock,
#: rewrites the config, says so, and holds the lock a little longer.
OTHER_MERGE = """
import fcntl, os, sys, time
folder, config = sys.argv[1], sys.argv[2]
fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
fcntl.flock(fd, fcntl.LOCK_EX)
with open(config, "a", encoding="utf-8") as fh:
    fh.write("[qos.other]\\n")
print("merged", flush=True)
time.sleep(0.5)
"""


def test_a_failed_import_puts_the_config_back_under_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import condor-status DUMP --into CONFIG`` whose state write fails puts CONFIG
    back as it was. The put-back ran outside the folder lock: a merge another fs made
    meanwhile (here: after ours, before the put-back, under the lock) was overwritten with
    the bytes CONFIG held before either. Now the put-back waits for the lock and leaves a
    config someone else changed since; the error stays the one line of exit 1."""
    import fairshare_cli.io.state as state_io
    from fairshare_cli.errors import RuntimeFailure

    dump = tmp_path / "status.long.txt"
    dump.write_text(CLAIMED)
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "example.org"\n')
    state = tmp_path / "s.json"
    other: list[subprocess.Popen[str]] = []

    def full(path: Path, state: Any, before_rename: Any = None, **_: Any) -> None:
        assert "[[machines]]" in config.read_text()  # (ours merged)
        child = subprocess.Popen(
            [sys.executable, "-c", OTHER_MERGE, str(tmp_path), str(config)],
            stdout=subprocess.PIPE,
            text=True,
        )
        other.append(child)
        assert child.stdout is not None and child.stdout.readline() == "merged\n"
        raise RuntimeFailure(f"cannot write state file {path}: disk full; nothing was written")

    monkeypatch.setattr(state_io, "save_state", full)
    line = ["import", "condor-status", str(dump), "--into", str(config), "--state", str(state)]
    try:
        result = CliRunner().invoke(cli, [*line, "--now", "2026-11-21T12:00:00Z"])
    finally:
        for child in other:
            child.wait(timeout=10)
    assert result.exit_code == 1, result.output
    assert_failed_after_waiting(result.stderr, tmp_path, state)
    text = config.read_text()
    assert text.endswith("[qos.other]\n") and "[[machines]]" in text
    assert not state.exists()


def test_a_failed_import_puts_back_a_config_nobody_else_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same failure with the folder lock held by another process that changes nothing:
    the put-back waits for it, then restores CONFIG byte for byte."""
    import fairshare_cli.io.state as state_io
    from fairshare_cli.errors import RuntimeFailure

    dump = tmp_path / "status.long.txt"
    dump.write_text(CLAIMED)
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "example.org"\n')
    before = config.read_bytes()
    holder = "import fcntl, os, sys, time\nfd = os.open(sys.argv[1], os.O_RDONLY)\n"
    holder += "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(0.5)\n"
    other: list[subprocess.Popen[str]] = []

    def full(path: Path, state: Any, before_rename: Any = None, **_: Any) -> None:
        child = subprocess.Popen(
            [sys.executable, "-c", holder, str(tmp_path)], stdout=subprocess.PIPE, text=True
        )
        other.append(child)
        assert child.stdout is not None and child.stdout.readline() == "held\n"
        raise RuntimeFailure(f"cannot write state file {path}: disk full; nothing was written")

    monkeypatch.setattr(state_io, "save_state", full)
    line = ["import", "condor-status", str(dump), "--into", str(config)]
    try:
        result = CliRunner().invoke(
            cli, [*line, "--state", str(tmp_path / "s.json"), "--now", "2026-11-21T12:00:00Z"]
        )
    finally:
        for child in other:
            child.wait(timeout=10)
    assert result.exit_code == 1, result.output
    assert_failed_after_waiting(result.stderr, tmp_path, tmp_path / "s.json")
    assert config.read_bytes() == before


def assert_failed_after_waiting(stderr: str, folder: Path, state: Path) -> None:
    """The one error line, after the note that the put-back waited for the lock (which a
    put-back slower than the other process's half second does not print)."""
    note = f"fs: note: waiting for {folder}: another fs is changing a config file in it\n"
    error = f"fs: error: cannot write state file {state}: disk full; nothing was written\n"
    assert stderr in (note + error, error)
