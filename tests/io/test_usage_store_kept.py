"""The usage history store is as it was when the state write it goes with fails
(io/usage_store_kept.py): a first import or cycle leaves no store, a ``--rebuild`` the
old one, byte for byte."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import needs_linux_cc

REPO = Path(__file__).resolve().parents[2]
POOL = REPO / "sample_configs" / "pool.toml"
HISTORY = REPO / "sample_configs" / "history.csv"
NOW = "2026-11-21T12:00:00Z"


def _state_write_fails(monkeypatch: pytest.MonkeyPatch, exc: BaseException) -> None:
    """Every atomic write (the state's, here) fails with ``exc`` as it writes."""
    from fairshare_cli.io import atomic

    def failing(fd: int, text: object) -> None:
        os.close(fd)
        raise exc

    monkeypatch.setattr(atomic, "_write", failing)


def _files(folder: Path) -> list[str]:
    """The files in ``folder`` but the lock (which every read-modify-write leaves)."""
    return sorted(p.name for p in folder.iterdir() if p.suffix != ".lock")


@pytest.mark.parametrize(
    ("exc", "code", "says"),
    [
        pytest.param(OSError(errno.ENOSPC, "No space left on device"), 1,
                     "No space left on device", id="disk-full"),
        pytest.param(KeyboardInterrupt(), 130, "interrupted (Ctrl-C)", id="ctrl-c"),
    ],
)  # fmt: skip
def test_a_first_import_whose_state_write_fails_leaves_no_history(
    tmp_path: Path,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    exc: BaseException,
    code: int,
    says: str,
) -> None:
    """``fs import history FILE`` (no state yet) whose state write failed left
    ``state.history.sqlite`` beside no state (the store is committed and renamed first)."""
    state = tmp_path / "state.json"
    _state_write_fails(monkeypatch, exc)
    result = run(
        "import", "history", str(HISTORY), "--config", str(POOL), "--state", str(state),
        "--now", NOW,
    )  # fmt: skip
    assert (result.exit_code, result.stdout) == (code, "")
    assert result.stderr.startswith("fs: error: ") and says in result.stderr
    assert result.stderr.count("\n") == 1
    assert _files(tmp_path) == []


def test_a_rebuild_whose_state_write_fails_keeps_the_old_history(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import history --rebuild FILE`` whose state write failed had renamed its new
    store over the old one: the state's marks then counted in no file, and the history
    they counted in was gone. Now both files are as they were."""
    state = tmp_path / "state.json"
    first = tmp_path / "first.csv"
    first.write_text("".join(HISTORY.read_text().splitlines(True)[:100]))
    common = ["--config", str(POOL), "--state", str(state), "--now", NOW]
    assert run("import", "history", str(first), *common).exit_code == 0
    store = tmp_path / "state.history.sqlite"
    before = (state.read_bytes(), store.read_bytes())
    _state_write_fails(monkeypatch, OSError(errno.ENOSPC, "No space left on device"))
    result = run("import", "history", "--rebuild", str(HISTORY), *common)
    assert result.exit_code == 1, result.stderr
    assert (state.read_bytes(), store.read_bytes()) == before
    assert _files(tmp_path) == ["first.csv", "state.history.sqlite", "state.json"]
    monkeypatch.undo()
    again = run("whatif", "--set", "accountant.priority_halflife=3600", "userprio", *common)
    assert again.exit_code == 0, again.stderr
    assert "usage history" not in again.stderr  # (the store is the state's: replayed)


def test_a_first_cycle_on_a_full_disk_leaves_no_history(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs negotiate`` whose first charge to the history met a full disk left a 0-byte
    (or table-only) ``state.history.sqlite`` beside the unchanged state."""
    from fairshare_cli.io import usage_store

    state = tmp_path / "state.json"
    state.write_text('{"format": "fairshare-cli state", "schema_version": 1}\n')
    common = ["--config", str(POOL), "--state", str(state), "--now", NOW]
    assert run("submit", "--owner", "alice", "--count", "3", *common).exit_code == 0
    before = state.read_bytes()
    real = sqlite3.connect

    def full_disk(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = real(*args, **kwargs)
        conn.execute("PRAGMA max_page_count = 1")
        return conn

    monkeypatch.setattr(usage_store.sqlite3, "connect", full_disk)
    result = run("negotiate", *common)
    assert result.exit_code == 1, result.stderr
    assert "the disk is full" in result.stderr
    assert state.read_bytes() == before
    assert _files(tmp_path) == ["state.json"]
    monkeypatch.undo()
    assert run("negotiate", *common).exit_code == 0
    assert (tmp_path / "state.history.sqlite").stat().st_size > 0


def test_a_link_a_killed_import_left_is_put_back(tmp_path: Path, run: Callable[..., Any]) -> None:
    """An fs killed between renaming a new store over the old one and writing the state
    leaves the old one linked as ``.kept``: the next writer puts it back (the state's
    marks count in it, not in the new one)."""
    state = tmp_path / "state.json"
    common = ["--config", str(POOL), "--state", str(state), "--now", NOW]
    assert run("import", "history", str(HISTORY), *common).exit_code == 0
    store = tmp_path / "state.history.sqlite"
    old = store.read_bytes()
    other = tmp_path / "other"
    other.mkdir()
    line = ["--config", str(POOL), "--state", str(other / "s.json"), "--now", NOW]
    assert run("import", "history", str(HISTORY), *line).exit_code == 0
    os.link(store, tmp_path / "state.history.sqlite.kept")
    store.unlink()
    shutil.copy(other / "s.history.sqlite", store)  # (the killed import's new file)
    shutil.rmtree(other)
    assert run("setfactor", "alice@example.org", "2", "--create", *common).exit_code == 0
    assert store.read_bytes() == old
    assert _files(tmp_path) == ["state.history.sqlite", "state.json"]


@needs_linux_cc
def test_a_rebuild_whose_renames_keep_failing_puts_the_old_history_back(
    fault_shim: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import history --rebuild`` on a folder whose renames fail from the second on
    (EIO; the fault shim's ``rename``): the new store's rename passes, the state's fails
    (exit 1), and so did putting the old store back by a rename, which left
    ``state.history.sqlite.kept`` beside the new store until the next writer. Now the old
    store is linked back in place: both files as they were, no ``.kept``."""
    state = tmp_path / "state.json"
    first = tmp_path / "first.csv"
    first.write_text("".join(HISTORY.read_text().splitlines(True)[:100]))
    common = ["--config", str(POOL), "--state", str(state), "--now", NOW]
    assert run("import", "history", str(first), *common).exit_code == 0
    store = tmp_path / "state.history.sqlite"
    before = (state.read_bytes(), store.read_bytes())
    env = {**os.environ, "LD_PRELOAD": str(fault_shim), "FAULT_OP": "rename", "FAULT_AFTER": "1",
           "FAULT_ERRNO": "5", "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "fairshare_cli", "import", "history", "--rebuild", str(HISTORY),
         *common],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"fs: error: cannot write state file {state}: Input/output error\n"
    assert (state.read_bytes(), store.read_bytes()) == before
    assert _files(tmp_path) == ["first.csv", "state.history.sqlite", "state.json"]
