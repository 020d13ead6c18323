"""A folder where the usage history's journal or a new history goes is refused in one line
before anything is written: ``fs import history --rebuild`` with a folder at
``state.history.sqlite.new`` said only 'fs: error: .../state.history.sqlite.new: Is a
directory' (exit 1); with one at ``state.history.sqlite-journal`` an import blamed the
state ('cannot write state file state.json: Is a directory', exit 1), and ``fs whatif``
the disk ('the disk failed to write (an I/O error) ... check the disk')."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

Run = Callable[..., Any]
HISTORY = REPO / "sample_configs" / "history.csv"
POOL = REPO / "sample_configs" / "pool.toml"
NOW = "2026-11-21T12:00:00Z"


def message(folder: Path) -> str:
    return (
        f"fs: error: {folder} is a folder, not a file: fs and SQLite write the usage "
        "history's own files there (its journal, a new history) while fs changes the "
        "state; remove it\n"
    )


def imported(run: Run, state: Path) -> None:
    args = ["--config", str(POOL), "--state", str(state), "--now", NOW]
    result = run("import", "history", str(HISTORY), *args)
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    "name", ["state.history.sqlite.new", "state.history.sqlite-journal", "state.history.sqlite-wal"]
)
def test_import_rebuild_refuses_a_folder_there(tmp_path: Path, run: Run, name: str) -> None:
    state = tmp_path / "state.json"
    imported(run, state)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    folder = tmp_path / name
    folder.mkdir()
    args = ["--config", str(POOL), "--state", str(state), "--now", NOW]
    result = run("import", "history", str(HISTORY), "--rebuild", *args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message(folder))
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before
    folder.rmdir()
    result = run("import", "history", str(HISTORY), "--rebuild", *args)
    assert result.exit_code == 0, result.stderr


def test_negotiate_and_whatif_refuse_a_journal_folder(tmp_path: Path, run: Run) -> None:
    state = tmp_path / "state.json"
    imported(run, state)
    args = ["--config", str(POOL), "--state", str(state), "--now", NOW]
    assert run("submit", "--owner", "ivan", *args).exit_code == 0
    before = state.read_bytes()
    folder = tmp_path / "state.history.sqlite-journal"
    folder.mkdir()
    result = run("negotiate", *args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message(folder))
    result = run("whatif", "--set", "accountant.priority_halflife=3600", "userprio", *args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message(folder))
    assert state.read_bytes() == before
