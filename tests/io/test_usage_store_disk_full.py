"""A full disk while ``fs import history`` writes the usage history store: exit 1, one
line saying the disk is full, nothing written, and never "not a usable SQLite file ...
move it aside" (the store is not damaged).

The disk fills for real inside SQLite: every connection the store opens is limited to a
few pages (``PRAGMA max_page_count``), so SQLite itself fails the write with
``SQLITE_FULL`` ("database or disk is full"), as on a full file system.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
POOL = REPO / "sample_configs" / "pool.toml"
HISTORY = REPO / "sample_configs" / "history.csv"
NOW = "2026-11-21T12:00:00Z"


def _fill_at(monkeypatch: pytest.MonkeyPatch, pages: int) -> None:
    from fairshare_cli.io import usage_store

    real = sqlite3.connect

    def small_disk(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = real(*args, **kwargs)
        conn.execute(f"PRAGMA max_page_count = {pages}")
        return conn

    monkeypatch.setattr(usage_store.sqlite3, "connect", small_disk)


def _import_history(run: Callable[..., Any], state: Path) -> Any:
    """``fs import history`` of the sample history into ``state``."""
    return run(
        "import", "history", str(HISTORY), "--config", str(POOL), "--state", str(state),
        "--now", NOW,
    )  # fmt: skip


@pytest.mark.parametrize(
    "pages", [1, 12], ids=["full-before-the-tables", "full-while-inserting-records"]
)
def test_a_full_disk_is_exit_1_and_not_a_damaged_store(
    pages: int, tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state.json"
    _fill_at(monkeypatch, pages)
    result = _import_history(run, state)
    assert result.exit_code == 1, result.stderr
    store = tmp_path / "state.history.sqlite"
    assert result.stderr == (
        f"fs: error: cannot write usage history {store}: the disk is full; nothing was "
        "written (the state and the history are unchanged); free some space and run it "
        "again\n"
    )
    assert "usable SQLite" not in result.stderr and "move it aside" not in result.stderr
    assert not state.exists()
    assert not store.exists()


def test_a_damaged_store_is_still_named_as_one(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Not every SQLite error is the disk's: a file that is not a database keeps exit 2."""
    state = tmp_path / "state.json"
    (tmp_path / "state.history.sqlite").write_bytes(b"not a database" * 100)
    result = _import_history(run, state)
    assert result.exit_code == 2
    assert "is not a usable SQLite file" in result.stderr


class _FailingDisk:
    """A store connection whose inserts the device refuses as a failing disk does
    (``SQLITE_IOERR``, "disk I/O error"); everything else as the real connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def executemany(self, *args: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def __enter__(self) -> Any:
        return self._conn.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self._conn.__exit__(*exc)


def test_a_failing_disk_is_exit_1_with_its_own_advice(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import history`` whose inserts fail with an I/O error: exit 1, nothing
    written, and the advice is to check the disk, not to free space (a full disk's)."""
    from fairshare_cli.io import usage_store

    real = sqlite3.connect
    monkeypatch.setattr(usage_store.sqlite3, "connect", lambda *a, **k: _FailingDisk(real(*a, **k)))
    state = tmp_path / "state.json"
    result = _import_history(run, state)
    assert result.exit_code == 1, result.stderr
    store = tmp_path / "state.history.sqlite"
    assert result.stderr == (
        f"fs: error: cannot write usage history {store}: the disk failed to write (an I/O "
        "error); nothing was written (the state and the history are unchanged); check the "
        "disk (the kernel's log, the file system) and run it again\n"
    )
    assert not state.exists()
