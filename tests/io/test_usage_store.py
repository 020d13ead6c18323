"""The usage history store: append, read back in order, close open records, roll back."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.usage import UsageRecord
from fairshare_cli.errors import RuntimeFailure, StateError
from fairshare_cli.io.usage_marks import Marks
from fairshare_cli.io.usage_store import open_store, store_path


def count(path: Path) -> int:
    """How many records the file holds (0 when absent)."""
    if not path.exists():
        return 0
    with closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM records").fetchone()[0])


def test_path_sits_beside_the_state(tmp_path: Path) -> None:
    assert store_path(tmp_path / "state.json") == tmp_path / "state.history.sqlite"


def test_records_come_back_in_start_order_with_open_ones_closed(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    late = UsageRecord("bob", 200.0, 300.0, account="A", slots=2, cpus=4)
    early = UsageRecord("alice", 100.0, None, accounting_group="g.alice", nice_user=True)
    with open_store(path) as store:
        assert store is not None
        marks = store.append([(late, None), (early, "7.0")], [])
        assert (marks.records, marks.ends) == (2, 0)
        assert list(store.records(marks)) == [early, late]
        marks = store.append([], [("7.0", 150.0)])
        assert [r.end for r in store.records(marks)] == [150.0, 300.0]
        # A reader that stops at the older marks does not see the end.
        assert [r.end for r in store.records(Marks(2, 0))] == [None, 300.0]
        assert store.first_start(marks) == 100.0
    assert count(path) == 2


def test_rows_past_the_state_marks_are_rolled_back(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    with open_store(path) as store:
        assert store is not None
        kept = store.append([(UsageRecord("a", 1.0, 2.0), None)], [])
        store.append([(UsageRecord("b", 3.0, 4.0), None)], [("x", 5.0)])
        store.rollback_after(kept)
        assert store.marks() == kept
        assert [r.owner for r in store.records(store.marks())] == ["a"]


def test_prune_drops_what_ended_before_the_window(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    with open_store(path) as store:
        assert store is not None
        store.append(
            [
                (UsageRecord("old", 0.0, 10.0), None),
                (UsageRecord("closed-late", 5.0, None), "1.0"),
                (UsageRecord("running", 6.0, None), "2.0"),
            ],
            [("1.0", 50.0)],
        )
        assert store.prune(20.0) == 1
        assert [r.owner for r in store.records(store.marks())] == ["closed-late", "running"]


def test_absent_file_is_not_created_when_reading(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    with open_store(path, create=False) as store:
        assert store is None
    assert not path.exists()


def test_foreign_files_are_refused_untouched(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(StateError, match="not a usable SQLite file"), open_store(junk):
        pass
    assert junk.read_bytes() == b"not sqlite at all" * 100
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
        "INSERT INTO meta VALUES ('format', 'something else');"
    )
    conn.commit()
    conn.close()
    before = other.read_bytes()
    with pytest.raises(StateError, match="refusing to use it"), open_store(other):
        pass
    assert other.read_bytes() == before  # (no table of ours added)
    unmarked = tmp_path / "unmarked.sqlite"
    conn = sqlite3.connect(unmarked)
    conn.execute("CREATE TABLE jobs (id INTEGER)")
    conn.commit()
    conn.close()
    before = unmarked.read_bytes()
    with pytest.raises(StateError, match=r"\(no format mark\); refusing"), open_store(unmarked):
        pass
    assert unmarked.read_bytes() == before


def test_imports_keep_their_records_beside_the_state(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs import history appends what it charged; --rebuild starts the store afresh."""
    import json

    from fairshare_cli.io.usage_marks import marks_of

    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "example.org"\n', encoding="utf-8")
    hist = tmp_path / "h.csv"
    hist.write_text(
        "owner,start,end,slots\nalice,2026-11-20T00:00:00Z,2026-11-20T01:00:00Z,2\n"
        "bob,2026-11-20T00:30:00Z,,1\n",
        encoding="utf-8",
    )
    state = tmp_path / "state.json"
    args = ["--config", str(config), "--state", str(state), "--now", "2026-11-21T00:00:00Z"]
    assert run("import", "history", str(hist), *args).exit_code == 0
    marks = marks_of(json.loads(state.read_text())["usage_history"])
    with open_store(store_path(state), create=False) as store:
        assert store is not None
        got = [(r.owner, r.slots, r.end is None) for r in store.records(marks)]
    assert got == [("alice", 2, False), ("bob", 1, True)]
    assert run("import", "history", str(hist), "--rebuild", *args).exit_code == 0
    assert count(store_path(state)) == 2
    dry = run("import", "history", str(hist), "--dry-run", "--rebuild", *args)
    assert dry.exit_code == 0 and count(store_path(state)) == 2


def _indexes(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
        return [name for (name,) in rows if not name.startswith("sqlite_")]
    finally:
        conn.close()


def test_an_import_into_an_empty_store_builds_its_indexes_before_it_commits(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The records' indexes are dropped while a rebuild inserts and made again before the
    commit; a failing import rolls back to the store as it was, indexes and rows."""
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "example.org"\n', encoding="utf-8")
    good = tmp_path / "good.csv"
    good.write_text("owner,start,end\nalice,2026-11-20T00:00:00Z,2026-11-20T01:00:00Z\n")
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "owner,start,end\nbob,2026-11-20T00:00:00Z,2026-11-20T01:00:00Z\n"
        "carol,2026-11-20T02:00:00Z,2026-11-22T01:00:00Z\n"  # ends after --now
    )
    state = tmp_path / "state.json"
    args = ["--config", str(config), "--state", str(state), "--now", "2026-11-21T00:00:00Z"]
    expected = ["ends_job", "records_job", "records_start"]
    assert run("import", "history", str(good), "--rebuild", *args).exit_code == 0
    assert _indexes(store_path(state)) == expected
    failed = run("import", "history", str(bad), "--rebuild", *args)
    assert failed.exit_code != 0 and "ends after --now" in failed.output
    assert _indexes(store_path(state)) == expected
    with open_store(store_path(state), create=False) as store:
        assert store is not None
        assert [r.owner for r in store.records(store.marks())] == ["alice"]
    plan = sqlite3.connect(store_path(state)).execute(
        "EXPLAIN QUERY PLAN SELECT * FROM records ORDER BY start"
    )
    assert any("records_start" in str(row) for row in plan)


def test_records_are_stored_as_sqlite_stores_them_without_adapters(tmp_path: Path) -> None:
    """The bool and None adapters (a speed-up) store what sqlite3 stores unadapted: a bool
    as the integer 0 or 1, None as NULL; read back, nice_user is 0 or 1."""
    path = tmp_path / "h.sqlite"
    rec = UsageRecord("alice", 1.0, None, None, True, None, None, None, None, 2, 3)
    with open_store(path) as store:
        assert store is not None
        marks = store.append([(rec, None), (rec._replace(nice_user=False), "j")], [])
        assert [tuple(r) for r in store.records(marks)] == [
            ("alice", 1.0, None, None, 1, None, None, None, None, 2, 3, None, None),
            ("alice", 1.0, None, None, 0, None, None, None, None, 2, 3, None, None),
        ]
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT typeof(nice_user), typeof(end), typeof(job) FROM records")
    assert rows.fetchall() == [("integer", "null", "null"), ("integer", "null", "text")]
    conn.close()


def test_rolling_back_to_no_marks_empties_the_tables(tmp_path: Path) -> None:
    """Marks of zero (a state that includes nothing of the file) drop every row (the whole
    table at once, not row by row); the next rows are numbered from 1 again, as after a
    row-by-row delete."""
    path = tmp_path / "h.sqlite"
    with open_store(path) as store:
        assert store is not None
        store.append([(UsageRecord("a", 1.0, 2.0), None)] * 3, [("x", 5.0), ("y", 6.0)])
        store.rollback_after(Marks())
        assert store.marks().includes_rows() is False
        assert list(store.records(Marks(10, 10))) == []
        again = store.append([(UsageRecord("b", 3.0, 4.0), "j")], [("j", 7.0)])
        assert (again.records, again.ends) == (1, 1)
        assert [(r.owner, r.end) for r in store.records(again)] == [("b", 4.0)]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 200), min_size=1, max_size=4))
def test_an_import_stores_each_record_as_append_does(
    tmp_path_factory: Any, sizes: list[int]
) -> None:
    """Batches of any size (whole statements of _ROWS records and a rest) store the same
    rows, in the same order and with the same ids, as one insert per record."""
    from fairshare_cli.core.usage import Batches
    from fairshare_cli.io.usage_store import ImportLog

    folder: Path = tmp_path_factory.mktemp("s")
    batches, k = [], 0
    for size in sizes:
        batch = []
        for _ in range(size):
            k += 1
            batch.append(
                UsageRecord(
                    f"u{k % 7}",
                    float(k),
                    None if k % 5 == 0 else k + 0.5,
                    f"g{k % 3}" if k % 2 else None,
                    k % 4 == 0,
                    None,
                    "p",
                    None,
                    "d",
                    k % 3,
                    k,
                )
            )
        batches.append(batch)
    records = [r for batch in batches for r in batch]

    with open_store(folder / "teed.sqlite") as store:
        assert store is not None
        log = ImportLog(store, Marks(), rebuild=True)
        assert list(log.tee(Batches(b for b in batches if b))) == records
        log.finish(0.0, 0.0)
        log.commit()
    with open_store(folder / "appended.sqlite") as store:
        assert store is not None
        store.append([(r, None) for r in records], [])
    assert _rows(folder / "teed.sqlite") == _rows(folder / "appended.sqlite")


def _import_args(tmp_path: Path) -> tuple[Path, list[str]]:
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "example.org"\n', encoding="utf-8")
    state = tmp_path / "state.json"
    return state, ["--config", str(config), "--state", str(state), "--now", "2026-11-21T00:00:00Z"]


def _imported_once(tmp_path: Path, run: Callable[..., Any]) -> tuple[Path, list[str], Any]:
    """A state and store after one good import: the state, the arguments, and what the
    state file, the rows and the indexes then are (a failed import must leave them)."""
    state, args = _import_args(tmp_path)
    (tmp_path / "good.csv").write_text(_GOOD)
    assert run("import", "history", str(tmp_path / "good.csv"), *args).exit_code == 0
    return state, args, _kept(state)


def _kept(state: Path) -> Any:
    return (state.read_bytes(), _rows(store_path(state)), _indexes(store_path(state)))


def _rows(path: Path) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT * FROM records ORDER BY id").fetchall()
    finally:
        conn.close()


def _threads() -> set[str]:
    import threading

    return {t.name for t in threading.enumerate()}


_GOOD = "owner,start,end\nalice,2026-11-20T00:00:00Z,2026-11-20T01:00:00Z\n"
_UNSORTED = (
    "owner,start,end\nbob,2026-11-20T02:00:00Z,2026-11-20T03:00:00Z\n"
    "carol,2026-11-20T00:00:00Z,2026-11-20T01:00:00Z\n"
)


def _spy_index_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that gets a 1 each time an import starts its index thread."""
    from fairshare_cli.io.usage_store import ImportLog

    started: list[int] = []
    build = ImportLog._build_indexes

    def spy(log: ImportLog) -> None:
        started.append(1)
        build(log)

    monkeypatch.setattr(ImportLog, "_build_indexes", spy)
    return started


def test_a_failing_index_build_fails_the_import_in_one_line(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The indexes are built on a thread once every row is in; what building them raises
    ends the import with SQLite's message on one line naming the store (exit 1, no
    traceback), the store and the state stay as they were, and no thread is left."""
    from fairshare_cli.io import usage_store

    state, args, before = _imported_once(tmp_path, run)
    (tmp_path / "more.csv").write_text(_UNSORTED)
    bad = "CREATE INDEX IF NOT EXISTS records_start ON records (no_such_column)"
    monkeypatch.setitem(usage_store._RECORD_INDEXES, "records_start", bad)
    started = _spy_index_builds(monkeypatch)
    threads = _threads()
    result = run("import", "history", str(tmp_path / "more.csv"), "--rebuild", *args)
    assert result.exit_code == 1
    assert result.stderr == (
        f"fs: error: usage history {store_path(state)}: no such column: no_such_column; "
        "nothing was written\n"
    )
    assert started == [1]
    assert _kept(state) == before
    assert _threads() == threads


def test_an_interrupt_while_the_indexes_build_rolls_back_and_leaves_no_thread(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C after the last record (the index thread under way): the thread is waited
    for, the transaction rolled back, the state not written."""
    from fairshare_cli.cli import running

    state, args, before = _imported_once(tmp_path, run)
    (tmp_path / "more.csv").write_text(_UNSORTED)

    def interrupted(*_: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(running, "hold_history_running", interrupted)
    started = _spy_index_builds(monkeypatch)
    threads = _threads()
    aborted = run("import", "history", str(tmp_path / "more.csv"), "--rebuild", *args)
    assert (aborted.exit_code, aborted.stderr) == (130, "fs: error: interrupted (Ctrl-C)\n")
    assert started == [1]
    assert _kept(state) == before
    assert _threads() == threads


def test_a_second_reading_after_a_whole_first_one_stores_the_rows_once(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unsorted records are read whole once (into the sort: the index thread starts), then
    a record the replay refuses (an unknown QOS) makes the import read them again record by record: the first pass's
    indexes are waited for and its rows deleted; the refusal leaves the store as it was,
    and a good unsorted file stores its rows once, in file order, with the indexes."""
    state, args, before = _imported_once(tmp_path, run)
    refused = tmp_path / "refused.csv"
    with (tmp_path / "pool.toml").open("a", encoding="utf-8") as config:
        config.write("[qos.normal]\n[accounts.A]\nusers = { dave = 1 }\n")  # (Slurm work)
    unsorted = _UNSORTED.replace("end\n", "end,qos\n").replace(":00Z\n", ":00Z,\n")
    refused.write_text(unsorted + "dave,2026-11-20T01:00:00Z,2026-11-20T01:30:00Z,nosuch\n")
    started = _spy_index_builds(monkeypatch)
    threads = _threads()
    failed = run("import", "history", str(refused), "--rebuild", *args)
    assert failed.exit_code == 2 and 'unknown QOS "nosuch"' in failed.stderr
    assert started == [1, 1]  # (each reading through the sort has a whole first pass)
    assert _kept(state) == before
    (tmp_path / "more.csv").write_text(_UNSORTED)
    assert run("import", "history", str(tmp_path / "more.csv"), "--rebuild", *args).exit_code == 0
    assert [(i, owner) for i, _, _, owner, *_ in _rows(store_path(state))] == [
        (1, "bob"),
        (2, "carol"),
    ]
    assert _indexes(store_path(state)) == before[2]
    assert started == [1, 1, 1]
    assert _threads() == threads


def test_sqlite_failing_an_insert_ends_the_import_in_one_line(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """SQLite refusing a row (here a trigger says so, as a full disk would) ends the import
    with its message on one line naming the store, exit 1, no traceback; the state and
    the store keep what they held."""
    state, args, _ = _imported_once(tmp_path, run)
    with sqlite3.connect(store_path(state)) as conn:
        conn.execute(
            "CREATE TRIGGER full BEFORE INSERT ON records "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
    conn.close()
    before = (state.read_bytes(), _rows(store_path(state)))
    (tmp_path / "more.csv").write_text(_UNSORTED)
    result = run("import", "history", str(tmp_path / "more.csv"), *args)
    assert result.exit_code == 1
    assert result.stderr == (
        f"fs: error: usage history {store_path(state)}: database or disk is full; "
        "nothing was written\n"
    )
    assert (state.read_bytes(), _rows(store_path(state))) == before


@pytest.mark.parametrize("create", [True, False])  # (a writer; a reader: fs whatif)
def test_a_store_another_program_holds_locked_is_busy_not_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, create: bool
) -> None:
    """A store held by ``sqlite3 FILE 'BEGIN EXCLUSIVE;'``: exit 1, "another program holds
    it locked", the file byte for byte (it was exit 2, "not a usable SQLite file ... move it
    aside to start a new history": advice to set a good history aside)."""
    path = tmp_path / "state.history.sqlite"
    with open_store(path) as store:
        assert store is not None
        store.append([(UsageRecord("a", 0.0, 60.0), None)], [])
    before = path.read_bytes()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: connect(*a, **{**k, "timeout": 0}))
    try:
        with pytest.raises(RuntimeFailure) as caught, open_store(path, create=create):
            pass
    finally:
        holder.rollback()
        holder.close()
    assert caught.value.exit_code == 1
    assert str(caught.value).startswith(
        f"cannot use usage history {path}: another program holds it locked (database is locked)"
    )
    assert path.read_bytes() == before


_DIE_MID_WRITE = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA cache_size = 2")  # (pages spill to the file: the journal is hot)
conn.execute("BEGIN")
conn.execute("UPDATE records SET owner = 'half-written'")
os._exit(0)
"""


def test_a_reader_never_rolls_back_a_hot_journal(tmp_path: Path) -> None:
    """A writer killed mid-transaction leaves a hot journal: ``fs whatif``'s read-only open
    refuses in one line (exit 1) and leaves the file and the journal byte for byte (a
    read-write open rolled it back: a what-if wrote the store); a writer's open rolls it
    back and reads the committed rows."""
    import subprocess
    import sys

    path = tmp_path / "state.history.sqlite"
    with open_store(path) as store:
        assert store is not None
        store.append([(UsageRecord(f"u{i}", float(i), None), None) for i in range(3000)], [])
    subprocess.run([sys.executable, "-c", _DIE_MID_WRITE, str(path)], check=True)
    journal = path.with_name(path.name + "-journal")
    left = (path.read_bytes(), journal.read_bytes())
    with pytest.raises(RuntimeFailure) as caught, open_store(path, readonly=True):
        pass
    assert caught.value.exit_code == 1
    assert "a hot journal" in str(caught.value)
    assert (path.read_bytes(), journal.read_bytes()) == left
    with open_store(path) as store:
        assert store is not None
        assert {r.owner for r in store.records(store.marks())} == {f"u{i}" for i in range(3000)}


def test_a_prune_that_fails_commits_none_of_the_import(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite failing while the import drops what ended before the window (a damaged file,
    exit 2): nothing is written, rows included (the import was committed before the prune,
    so the store kept rows the message said were not written)."""
    from fairshare_cli.io.usage_store import UsageStore

    state, args, before = _imported_once(tmp_path, run)
    (tmp_path / "more.csv").write_text(_UNSORTED)

    def damaged(*_: Any, **__: Any) -> int:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(UsageStore, "prune", damaged)
    result = run("import", "history", str(tmp_path / "more.csv"), *args)
    assert (result.exit_code, result.stderr[-37:]) == (2, "move it aside to start a new history\n")
    assert _kept(state) == before


def test_a_store_whose_folder_is_removed_says_so(tmp_path: Path) -> None:
    """The state folder removed while ``fs import history`` wrote its store: SQLite, unable
    to make its journal there, says "disk I/O error", and the line told the user the disk
    failed and to check the kernel's log. It names the removed folder."""
    import shutil

    folder = tmp_path / "pool"
    folder.mkdir()
    path = folder / "s.history.sqlite"

    def removed_as_it_writes() -> None:
        with open_store(path):
            shutil.rmtree(folder)
            raise sqlite3.OperationalError("disk I/O error")

    with pytest.raises(RuntimeFailure) as caught:
        removed_as_it_writes()
    assert str(caught.value) == (
        f"cannot write usage history {path}: its folder was removed; nothing was written"
    )


def test_a_store_in_a_folder_this_user_may_not_write_names_the_folder(tmp_path: Path) -> None:
    """A store this user may write (0666) in a folder it may not (0555, another user's):
    ``fs import history`` as that user ended with SQLite's "usage history ...: attempt to
    write a readonly database", of a file whose mode allows the write (SQLite could not
    make its journal: SQLITE_READONLY_DIRECTORY). It names the journal and the folder."""
    path = tmp_path / "s.history.sqlite"
    error = sqlite3.OperationalError("attempt to write a readonly database")
    error.sqlite_errorcode = 1544  # type: ignore[attr-defined]

    def journal_refused() -> None:
        with open_store(path):
            raise error

    with pytest.raises(RuntimeFailure) as caught:
        journal_refused()
    assert str(caught.value) == (
        f"cannot write usage history {path}: SQLite cannot make its journal beside it (attempt "
        "to write a readonly database: the folder is read-only to this user); nothing was "
        "written (the state and the history are unchanged)"
    )
