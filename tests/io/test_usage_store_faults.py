"""A disk that fails inside SQLite's own writes (``fsync`` of the new store, its journal)
while ``fs import history`` writes a new store: exit 1, one line, and no file left beside
the state (SQLite's journal of the new store was left when its commit failed).

The faults are real: ``tests/fixtures/fault_shim.c``, loaded with ``LD_PRELOAD``, makes the
Nth ``fsync``/``fdatasync`` (or ``write``) of a regular file fail with EIO or ENOSPC.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
POOL = REPO / "sample_configs" / "pool.toml"
HISTORY = REPO / "sample_configs" / "history.csv"
NOW = "2026-11-21T12:00:00Z"

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("cc") is None,
    reason="LD_PRELOAD fault injection needs Linux and a C compiler",
)


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = tmp_path_factory.mktemp("shim") / "fault_shim.so"
    source = REPO / "tests" / "fixtures" / "fault_shim.c"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(built), str(source), "-ldl"], check=True)
    return built


def test_a_failing_fsync_leaves_no_file_beside_a_new_state(shim: Path, tmp_path: Path) -> None:
    """``fs import history history.csv --state state.json`` with the Nth fsync failing
    (EIO), for N around the new store's commit (the 9th fsync, which left
    ``state.history.sqlite.new-journal``) and on to the state's: each run exits 0, or 1 with
    one line, and a failed one leaves the folder as it was."""
    for after in (0, 4, 7, 8, 9, 10, 15, 19):
        folder = tmp_path / f"fsync-{after}"
        folder.mkdir()
        env = {**os.environ, "LD_PRELOAD": str(shim), "FAULT_OP": "fsync", "FAULT_ERRNO": "5",
               "FAULT_AFTER": str(after), "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
        result = subprocess.run(
            [sys.executable, "-m", "fairshare_cli", "import", "history", str(HISTORY),
             "--config", str(POOL), "--state", str(folder / "state.json"), "--now", NOW],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        left = sorted(p.name for p in folder.iterdir() if p.name != "state.json.lock")
        if result.returncode == 0:
            assert left == ["state.history.sqlite", "state.json"]
            continue
        assert result.returncode == 1, result.stderr
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("fs: error: cannot write "), lines
        assert left == [], (after, left)
