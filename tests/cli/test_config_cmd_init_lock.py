"""``fs init`` writes under the lock merges take (the config's folder): ``fs init --force
pool.toml`` while ``fs import ... --into pool.toml`` merged replaced the file between the
merge's read and its rename, and one of the two writes was lost."""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli


@pytest.mark.parametrize("example", [False, True])
def test_init_waits_for_another_writer_of_the_folder(tmp_path: Path, example: bool) -> None:
    """``fs init --force pool.toml`` (and ``fs init --example . --force``) with the
    folder's lock held by another fs: one note, nothing written until it lets go."""
    config = tmp_path / "pool.toml"
    config.write_text("# mine\n")
    held = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(held, fcntl.LOCK_EX)
    seen: list[str] = []

    def release() -> None:  # (init must not have written while the lock was held)
        seen.append(config.read_text())
        os.close(held)

    timer = threading.Timer(2.0, release)  # (long enough for a busy machine to get there)
    timer.start()
    line = ["init", "--example", str(tmp_path)] if example else ["init", str(config)]
    try:
        result = CliRunner().invoke(cli, [*line, "--force"])
    finally:
        timer.join()
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        f"fs: note: waiting for {tmp_path}: another fs is changing a config file in it\n"
    )
    assert seen == ["# mine\n"]
    assert config.read_text() != "# mine\n"
