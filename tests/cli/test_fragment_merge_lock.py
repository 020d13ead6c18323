"""Two fs merging into one config take turns (``--into``): each reads, merges and renames
the file under an exclusive lock on its folder. Without it, ``fs import slurm-conf F --into
pool.toml & fs import sacctmgr Q --into pool.toml`` lost one of the two merges about one
run in eight (each read the old file; the last rename won)."""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

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

    timer = threading.Timer(0.5, release)
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
