"""A disk that fails inside SQLite's own writes (``fsync`` of the new store, its journal)
while ``fs import history`` writes a new store: exit 1, one line, and no file left beside
the state (SQLite's journal of the new store was left when its commit failed).

The faults are real: ``tests/fixtures/fault_shim.c``, loaded with ``LD_PRELOAD``, makes the
Nth ``fsync``/``fdatasync`` (or ``write``) of a regular file fail with EIO or ENOSPC, or the
making of a file whose name ends so (SQLite's journal).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import needs_linux_cc

REPO = Path(__file__).resolve().parents[2]
POOL = REPO / "sample_configs" / "pool.toml"
HISTORY = REPO / "sample_configs" / "history.csv"
NOW = "2026-11-21T12:00:00Z"

pytestmark = needs_linux_cc


def test_a_failing_fsync_leaves_no_file_beside_a_new_state(
    fault_shim: Path, tmp_path: Path
) -> None:
    """``fs import history history.csv --state state.json`` with the Nth fsync failing
    (EIO), for N around the new store's commit (the 9th fsync, which left
    ``state.history.sqlite.new-journal``) and on to the state's: each run exits 0, or 1 with
    one line, and a failed one leaves the folder as it was."""
    for after in (0, 4, 7, 8, 9, 10, 15, 19):
        folder = tmp_path / f"fsync-{after}"
        folder.mkdir()
        env = {**os.environ, "LD_PRELOAD": str(fault_shim), "FAULT_OP": "fsync", "FAULT_ERRNO": "5",
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


@pytest.mark.parametrize("rebuild", [[], ["--rebuild"]], ids=["new-store", "rebuild"])
def test_a_journal_that_cannot_be_made_is_no_damaged_store(
    fault_shim: Path, tmp_path: Path, rebuild: list[str]
) -> None:
    """``fs import history history.csv --state state.json`` (and ``--rebuild``, over the
    sample state) on a disk out of inodes, where SQLite opened the new store but cannot make
    its journal beside it (SQLITE_CANTOPEN): it said the store "is not a usable SQLite file
    (unable to open database file); move it aside to start a new history", exit 2, where
    there was no file to move. Now exit 1, the disk named, the folder as it was."""
    if rebuild:
        shutil.copy(REPO / "sample_configs" / "sample-state.json", tmp_path / "state.json")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    env = {**os.environ, "LD_PRELOAD": str(fault_shim), "FAULT_OP": "create", "FAULT_SUFFIX": "-journal",
           "FAULT_ERRNO": "28", "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "fairshare_cli", "import", "history", str(HISTORY), *rebuild,
         "--config", str(POOL), "--state", str(tmp_path / "state.json"), "--now", NOW],
        env=env, capture_output=True, text=True, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert (result.returncode, result.stdout) == (1, ""), result.stderr
    assert result.stderr == (
        f"fs: error: cannot write usage history {tmp_path / 'state.history.sqlite'}: SQLite "
        "cannot make its journal beside it (unable to open database file: the folder refuses "
        "a new file); nothing was written (the state and the history are unchanged)\n"
    )
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name != "state.json.lock"}
    assert after == before


def test_a_journal_that_cannot_be_made_as_an_import_appends_says_so(
    fault_shim: Path, tmp_path: Path
) -> None:
    """``fs import history late.jsonl --state state.json`` appending to the sample state's
    store on a disk out of inodes: SQLite makes its journal at the first row written, not
    as it opens the file, and the line was SQLite's own ("usage history ...: unable to open
    database file; nothing was written") of a file that opened well. Now the journal is
    named, as when it cannot be made for a new store, exit 1, the folder as it was."""
    for name in ("sample-state.json", "sample-state.history.sqlite"):
        shutil.copy(REPO / "sample_configs" / name, tmp_path / name.replace("sample-", ""))
    late = tmp_path / "late.jsonl"
    late.write_text(
        '{"owner": "judy", "start": "2026-11-21T12:30:00Z", "end": "2026-11-21T13:00:00Z"}\n',
        encoding="utf-8",
    )
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    env = {**os.environ, "LD_PRELOAD": str(fault_shim), "FAULT_OP": "create", "FAULT_SUFFIX": "-journal",
           "FAULT_ERRNO": "28", "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "fairshare_cli", "import", "history", str(late),
         "--config", str(POOL), "--state", str(tmp_path / "state.json"),
         "--now", "2026-11-21T14:00:00Z"],
        env=env, capture_output=True, text=True, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert (result.returncode, result.stdout) == (1, ""), result.stderr
    assert result.stderr == (
        f"fs: error: cannot write usage history {tmp_path / 'state.history.sqlite'}: SQLite "
        "cannot make its journal beside it (unable to open database file: the folder refuses "
        "a new file); nothing was written (the state and the history are unchanged)\n"
    )
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name != "state.json.lock"}
    assert after == before
