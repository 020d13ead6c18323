"""An edit whose output fails once its state is written (``fs setfactor ... > /dev/full``)
said only ``fs: error: writing the output: No space left on device``, exit 1, while the
change was made: a script retrying on 1 made it twice (a second cycle, a second
submission). The line now says the state was written; a view's and a dry run's do not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

FULL = "fs: error: writing the output: No space left on device"
POOL = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]


def _to_full_device(args: list[str]) -> tuple[int, bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "fairshare_cli", *args],
            env=env,
            cwd=REPO,
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    return proc.returncode, proc.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_an_edit_whose_output_fails_says_its_change_is_made(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    files = [*POOL, "--state", str(state)]
    before = state.read_bytes()
    dry = _to_full_device(["setfactor", "ivan@example.org", "4", "--dry-run", *files])
    assert dry == (1, f"{FULL}\n".encode())
    assert state.read_bytes() == before
    code, err = _to_full_device(["setfactor", "ivan@example.org", "4", *files])
    assert (code, err) == (
        1,
        f"{FULL} (the state was written first: the change is made)\n".encode(),
    )
    assert state.read_bytes() != before
