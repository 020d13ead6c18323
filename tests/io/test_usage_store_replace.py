"""An import that keeps no row of the usage history (``--rebuild``, or a state that includes
none of it) writes the store anew beside it and renames it over the old one once committed:
the same rows and ids as emptying the tables would leave, the old file untouched until then."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.io.usage_store import store_path
from tests.io.test_usage_store import _rows

_FIRST = (
    "owner,start,end\nalice,2026-11-20T00:00:00Z,2026-11-20T01:00:00Z\nbob,2026-11-20T00:30:00Z,\n"
)
_SECOND = (
    "owner,start,end,slots\n"
    "carol,2026-11-20T02:00:00Z,2026-11-20T03:00:00Z,2\n"
    "dave,2026-11-20T02:10:00Z,2026-11-20T02:20:00Z,1\n"
    "erin,2026-11-20T02:30:00Z,,4\n"
)


def _args(tmp_path: Path) -> tuple[Path, list[str]]:
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "example.org"\n', encoding="utf-8")
    state = tmp_path / "state.json"
    return state, ["--config", str(config), "--state", str(state), "--now", "2026-11-21T00:00:00Z"]


def _import(run: Callable[..., Any], tmp_path: Path, text: str, *extra: str) -> Any:
    _, args = _args(tmp_path)
    source = tmp_path / "history.csv"
    source.write_text(text, encoding="utf-8")
    return run("import", "history", str(source), *extra, *args)


def _side_files(tmp_path: Path) -> list[str]:
    """Files beside the store other than the state, its lock and the store itself."""
    keep = {"pool.toml", "history.csv", "state.json", "state.json.lock", "state.history.sqlite"}
    return sorted(p.name for p in tmp_path.iterdir() if p.name not in keep)


def test_a_rebuild_writes_the_rows_a_first_import_would(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """After a first import, --rebuild with other records leaves exactly the rows (ids from
    1) that importing those records into a new folder leaves, in a new file, and nothing
    beside it."""
    state, _ = _args(tmp_path)
    assert _import(run, tmp_path, _FIRST).exit_code == 0
    old_inode = store_path(state).stat().st_ino
    assert _import(run, tmp_path, _SECOND, "--rebuild").exit_code == 0
    alone = tmp_path / "alone"
    alone.mkdir()
    assert _import(run, alone, _SECOND).exit_code == 0
    rows = _rows(store_path(state))
    assert [r[0] for r in rows] == [1, 2, 3]
    assert [r[3] for r in rows] == ["carol", "dave", "erin"]
    assert rows == _rows(store_path(alone / "state.json"))
    assert store_path(state).stat().st_ino != old_inode
    assert _side_files(tmp_path) == ["alone"]


def test_a_state_that_includes_none_of_the_store_starts_it_afresh(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A state removed beside its store: the next import's rows replace every old row."""
    state, _ = _args(tmp_path)
    assert _import(run, tmp_path, _FIRST).exit_code == 0
    state.unlink()
    assert _import(run, tmp_path, _SECOND).exit_code == 0
    assert [(r[0], r[3]) for r in _rows(store_path(state))] == [
        (1, "carol"),
        (2, "dave"),
        (3, "erin"),
    ]


def test_a_failed_rebuild_leaves_the_old_store_as_it_was(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A record refused half-way: the old store's bytes and the state stay, and the new
    file is removed."""
    state, _ = _args(tmp_path)
    assert _import(run, tmp_path, _FIRST).exit_code == 0
    before = (state.read_bytes(), store_path(state).read_bytes())
    bad = _SECOND + "frank,2026-11-20T04:00:00Z,2026-11-20T03:00:00Z,1\n"
    failed = _import(run, tmp_path, bad, "--rebuild")
    assert failed.exit_code == 2
    assert ":5: end is before start" in failed.stderr
    assert (state.read_bytes(), store_path(state).read_bytes()) == before
    assert _side_files(tmp_path) == []


def test_what_a_killed_import_left_beside_the_store_is_cleared(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A half-written new store and journals (an import killed before its rename) are
    removed, not replayed onto the new file."""
    state, _ = _args(tmp_path)
    assert _import(run, tmp_path, _FIRST).exit_code == 0
    store = store_path(state)
    for name in (".new", ".new-journal", "-journal"):
        (tmp_path / f"{store.name}{name}").write_bytes(b"left by a killed import")
    assert _import(run, tmp_path, _SECOND, "--rebuild").exit_code == 0
    assert [r[3] for r in _rows(store)] == ["carol", "dave", "erin"]
    assert _side_files(tmp_path) == []


def test_a_store_not_ours_is_refused_not_replaced(tmp_path: Path, run: Callable[..., Any]) -> None:
    """--rebuild over a file of another format: refused (exit 2, one line naming it), the
    file and the state untouched."""
    state, _ = _args(tmp_path)
    store = store_path(state)
    conn = sqlite3.connect(store)
    conn.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
        "INSERT INTO meta VALUES ('format', 'something else');"
    )
    conn.commit()
    conn.close()
    before = store.read_bytes()
    refused = _import(run, tmp_path, _SECOND, "--rebuild")
    assert refused.exit_code == 2
    assert refused.stderr.count("\n") == 1
    assert str(store) in refused.stderr and "refusing to use it" in refused.stderr
    assert store.read_bytes() == before
    assert not state.exists()
    assert _side_files(tmp_path) == []


def test_a_reader_of_the_old_store_keeps_reading_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A reader that opened the store before a rebuild (readers take no lock) goes on
    reading the old rows, whole; the next reader sees the new ones."""
    state, _ = _args(tmp_path)
    assert _import(run, tmp_path, _FIRST).exit_code == 0
    reader = sqlite3.connect(store_path(state))
    try:
        reader.execute("BEGIN")
        assert [r[0] for r in reader.execute("SELECT owner FROM records")] == ["alice", "bob"]
        assert _import(run, tmp_path, _SECOND, "--rebuild").exit_code == 0
        assert [r[0] for r in reader.execute("SELECT owner FROM records")] == ["alice", "bob"]
    finally:
        reader.close()
    assert [r[3] for r in _rows(store_path(state))] == ["carol", "dave", "erin"]


def test_a_store_replaced_by_an_import_that_died_is_not_the_states(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--rebuild renames its new store over the old one once the new state is on the disk,
    then renames the state; a kill -9 in between (here: the state's rename failing after the
    store's, on a file system without hard links, where the old store cannot be kept to put
    back, io/usage_store_kept.py) leaves the old state beside the new store. Its marks count rows of the old file: fs whatif says the store is
    not the state's instead of replaying the new file's first rows as the state's (it did,
    silently), and the next writer starts a new history instead of appending after rows the
    state never had."""
    from fairshare_cli.errors import RuntimeFailure
    from fairshare_cli.io import state as state_io
    from fairshare_cli.io import usage_store_kept

    state, args = _args(tmp_path)
    assert _import(run, tmp_path, _FIRST).exit_code == 0
    before = state.read_bytes()

    def rename_fails(path: Path, _state: Any, before_rename: Any = None, **_: Any) -> None:
        before_rename()
        raise RuntimeFailure(f"cannot write state file {path}: Input/output error")

    def no_hard_links(*_: object) -> None:
        raise OSError(1, "Operation not permitted")

    with monkeypatch.context() as patch:
        patch.setattr(state_io, "save_state", rename_fails)
        patch.setattr(usage_store_kept.os, "link", no_hard_links)
        assert _import(run, tmp_path, _SECOND, "--rebuild").exit_code == 1
    assert state.read_bytes() == before
    assert len(_rows(store_path(state))) == 3  # (the new file, in place)
    whatif = run("whatif", "--set", "accountant.priority_halflife=3600", "userprio", *args)
    assert whatif.exit_code == 0
    assert f"Note: the usage history {store_path(state)} is not this state's" in whatif.stdout
    later = "owner,start,end\nfrank,2026-11-20T04:00:00Z,2026-11-20T05:00:00Z\n"
    assert _import(run, tmp_path, later).exit_code == 0
    assert [r[1:4] for r in _rows(store_path(state))] == [(1795147200.0, 1795150800.0, "frank")]
    marks = json.loads(state.read_text())["usage_history"]
    with sqlite3.connect(store_path(state)) as conn:
        (token,) = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    assert marks == {"records": 1, "ends": 0, "generation": token}
