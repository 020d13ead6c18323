"""A large import's usage history store, written by a second process reading the source
again (``io.history_writer``): the same state, rows, indexes and messages as the importing
process storing the records itself; any failure of either ends with nothing written."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.usage import UsageRecord
from fairshare_cli.io import history_writer
from fairshare_cli.io.history_writer import Source, _worth_a_process
from fairshare_cli.io.usage_store import store_path

NOW = "2026-11-21T12:00:00Z"
LATER = "2026-11-21T18:00:00Z"  # (records appended after the sample's: up to then)
_REPO = Path(__file__).resolve().parents[2]
_SORTED = (_REPO / "sample_configs" / "history.csv").read_text(encoding="utf-8")
#: after the sample's records, out of start order (the import reads it twice), one still
#: running, one without account
_UNSORTED = (
    "owner,accounting_group,account,start,end,slots\n"
    "bob,group_physics.hep.bob,hep,2026-11-21T15:00:00Z,2026-11-21T16:00:00Z,2\n"
    "carol,group_chemistry.carol,chemistry,2026-11-21T13:00:00Z,,1\n"
    "zed,,,2026-11-21T14:00:00Z,2026-11-21T14:30:00Z,4\n"
)
_ADS = json.dumps(
    [
        {"Owner": "a", "JobStatus": 4, "JobCurrentStartDate": 1795176000,
         "CompletionDate": 1795219200, "RequestCpus": 2},
        {"Owner": "b", "AccountingGroup": "group_physics.b", "JobStatus": 2,
         "JobCurrentStartDate": 1795240800},
        {"Owner": "c", "JobStatus": 1},
    ]
)  # fmt: skip


def _spied(monkeypatch: pytest.MonkeyPatch, stream: bool = True) -> list[subprocess.Popen[bytes]]:
    """Every file a store writer (which hands its records over when ``stream``, else the
    importer reads the file too); the writers started (to check each was waited for)."""
    children: list[subprocess.Popen[bytes]] = []
    popen = subprocess.Popen

    def spy(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        child: subprocess.Popen[bytes] = popen(*args, **kwargs)
        children.append(child)
        return child

    def source(kind: str, path: str, label: str, fmt: str = "auto", stream: bool = True) -> Any:
        return Source(kind, path, label, fmt, stream and stream_all)

    stream_all = stream
    monkeypatch.setattr(history_writer, "WRITER_MIN_BYTES", 0)
    monkeypatch.setattr(history_writer.subprocess, "Popen", spy)
    monkeypatch.setattr(history_writer, "Source", source)
    return children


def _stored(stdout: Any) -> bytes:
    """Read the writer's frames up to its ``S`` (how many it stored); that count."""
    while True:
        head = stdout.read(9)
        body = stdout.read(int.from_bytes(head[1:], "little"))
        if head[:1] == b"S":
            return bytes(body)


def _folder(tmp_path: Path, name: str) -> tuple[Path, list[str]]:
    folder = tmp_path / name
    folder.mkdir()
    config = (_REPO / "sample_configs" / "pool.toml").read_text(encoding="utf-8")
    (folder / "pool.toml").write_text(config, encoding="utf-8")
    state = folder / "state.json"
    return folder, ["--config", str(folder / "pool.toml"), "--state", str(state), "--now", NOW]


def _kept(folder: Path) -> tuple[bytes, list[Any], list[Any]]:
    """The state's bytes, the store's rows and its schema (indexes included)."""
    conn = sqlite3.connect(store_path(folder / "state.json"))
    try:
        rows = conn.execute("SELECT * FROM records ORDER BY id").fetchall()
        rows += conn.execute("SELECT * FROM ends ORDER BY id").fetchall()
        schema = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    finally:
        conn.close()
    return (folder / "state.json").read_bytes(), rows, schema


def _imports(run: Callable[..., Any], folder: Path, args: list[str]) -> list[str]:
    """Import each source of the folder in turn (the second without --rebuild: appended);
    what each printed, the folder's path taken out."""
    said = []
    steps = [
        ("history", "sorted.csv", _SORTED, "--rebuild", NOW),
        ("history", "unsorted.csv", _UNSORTED, "--format=csv", LATER),
        ("condor-history", "ads.json", _ADS, "--rebuild", LATER),
    ]
    for kind, name, text, flag, now in steps:
        (folder / name).write_text(text, encoding="utf-8")
        result = run("import", kind, str(folder / name), flag, *args, "--now", now)
        assert result.exit_code == 0, result.stderr
        said.append((result.stdout + result.stderr).replace(str(folder), "F"))
        if kind == "history" and name == "unsorted.csv":
            said.append(repr(_kept(folder)))
    return said


@pytest.mark.parametrize("stream", [True, False])
def test_a_second_process_stores_what_the_importer_would(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, stream: bool
) -> None:
    """A sorted CSV (--rebuild), an unsorted one appended (the importer reads it again
    itself) and condor_history ads, the records handed over by the writer or read by the
    importer too: the same state bytes, rows, ids, indexes and messages as the importer
    alone; each writer waited for."""
    alone, alone_args = _folder(tmp_path, "alone")
    expected = _imports(run, alone, alone_args)
    children = _spied(monkeypatch, stream)
    beside, beside_args = _folder(tmp_path, "beside")
    assert _imports(run, beside, beside_args) == expected
    assert _kept(beside) == _kept(alone)
    assert len(children) == 3
    assert all(child.returncode == 0 for child in children)


def test_a_refused_record_leaves_the_store_and_no_writer(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The importer refuses a record: the writer is told to give up and waited for; the
    store, its side files and the state are as they were."""
    folder, args = _folder(tmp_path, "f")
    (folder / "good.csv").write_text(_SORTED, encoding="utf-8")
    assert run("import", "history", str(folder / "good.csv"), *args).exit_code == 0
    before, listing = _kept(folder), sorted(os.listdir(folder))
    children = _spied(monkeypatch)
    bad = _SORTED + "dave,,,,,,2026-11-20T04:00:00Z,2026-11-20T03:00:00Z,1,1,false\n"
    (folder / "bad.csv").write_text(bad, encoding="utf-8")
    for extra in ((), ("--rebuild",)):
        failed = run("import", "history", str(folder / "bad.csv"), *extra, *args)
        assert failed.exit_code == 2
        assert failed.stderr.startswith(f"fs: error: {folder / 'bad.csv'}")
        assert failed.stderr.count("\n") == 1
    assert _kept(folder) == before
    assert sorted(os.listdir(folder)) == sorted([*listing, "bad.csv"])
    assert len(children) == 2
    assert all(child.returncode is not None for child in children)


@pytest.mark.parametrize(("rebuild", "stream"), [(False, True), (True, True), (True, False)])
def test_an_interrupt_stops_the_writer_and_keeps_the_store(
    tmp_path: Path,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    rebuild: bool,
    stream: bool,
) -> None:
    """A Ctrl-C in the importer after the records (appending, or writing the store anew;
    the writer handing its records over, or not, then stopped by SIGTERM): the writer is
    stopped and waited for, and rolls back what it wrote; the store, the folder and the
    state are as they were."""
    from fairshare_cli.cli import import_cmd

    folder, args = _folder(tmp_path, "f")
    (folder / "good.csv").write_text(_SORTED, encoding="utf-8")
    assert run("import", "history", str(folder / "good.csv"), *args).exit_code == 0
    (folder / "more.csv").write_text(_UNSORTED, encoding="utf-8")
    before, listing = _kept(folder), sorted(os.listdir(folder))

    def interrupted(*_: Any) -> None:
        stdout = children[0].stdout
        assert stdout is not None
        assert _stored(stdout) == b"3"  # (its rows in, uncommitted)
        raise KeyboardInterrupt

    monkeypatch.setattr(import_cmd, "_hold_running", interrupted)
    children = _spied(monkeypatch, stream)
    flags = ["--rebuild"] if rebuild else []
    aborted = run("import", "history", str(folder / "more.csv"), *flags, *args, "--now", LATER)
    assert aborted.exit_code == 1
    assert aborted.stderr.strip() == "Aborted!"  # (click's)
    assert _kept(folder) == before
    assert sorted(os.listdir(folder)) == listing
    assert len(children) == 1
    assert children[0].returncode is not None


def test_sqlite_failing_in_the_writer_ends_the_import_in_one_line(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite refusing a row in the writer (a trigger says so, as a full disk would): the
    import ends with its message on one line naming the store, exit 1, nothing written."""
    folder, args = _folder(tmp_path, "f")
    (folder / "good.csv").write_text(_SORTED, encoding="utf-8")
    assert run("import", "history", str(folder / "good.csv"), *args).exit_code == 0
    store = store_path(folder / "state.json")
    with sqlite3.connect(store) as conn:
        conn.execute(
            "CREATE TRIGGER full BEFORE INSERT ON records "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
    conn.close()
    before = _kept(folder)
    _spied(monkeypatch)
    (folder / "more.csv").write_text(_UNSORTED, encoding="utf-8")
    result = run("import", "history", str(folder / "more.csv"), *args, "--now", LATER)
    assert result.exit_code == 1
    assert result.stderr == (
        f"fs: error: usage history {store}: database or disk is full; nothing was written\n"
    )
    assert _kept(folder) == before


@pytest.mark.parametrize("rebuild", [False, True])
def test_a_file_that_changes_while_read_is_not_stored(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, rebuild: bool
) -> None:
    """The writer reads one record more than the importer charged (the file grew between
    the two readings; here it is handed another file): nothing is committed, one line
    names the store and both counts, exit 1; store, folder and state as they were."""
    folder, args = _folder(tmp_path, "f")
    (folder / "good.csv").write_text(_SORTED, encoding="utf-8")
    assert run("import", "history", str(folder / "good.csv"), *args).exit_code == 0
    more = _UNSORTED.splitlines(keepends=True)
    (folder / "more.csv").write_text("".join(more[:-1]), encoding="utf-8")
    (folder / "grown.csv").write_text("".join(more), encoding="utf-8")
    before, listing = _kept(folder), sorted(os.listdir(folder))

    def swapped(kind: str, path: str, label: str, fmt: str = "auto") -> Source:
        return Source(kind, str(folder / "grown.csv"), label, fmt)

    read_source = history_writer.read_source

    def read_as_given(source: Source, progress: Any = None) -> Any:  # (the importer's own)
        given = Source(source.kind, str(folder / "more.csv"), source.label, source.fmt)
        return read_source(given, progress)

    children = _spied(monkeypatch)
    monkeypatch.setattr(history_writer, "Source", swapped)  # (what the writer is told)
    monkeypatch.setattr(history_writer, "read_source", read_as_given)
    flags = ["--rebuild"] if rebuild else []
    source = str(folder / "more.csv")
    result = run("import", "history", source, *flags, *args, "--now", LATER)
    assert result.exit_code == 1
    assert result.stderr == (
        f"fs: error: usage history {store_path(folder / 'state.json')}: {source} changed "
        "while it was read (2 records charged, 3 stored); nothing was written\n"
    )
    assert (_kept(folder), sorted(os.listdir(folder))) == (before, listing)
    assert children[0].returncode is not None


def test_a_writer_that_dies_fails_the_import(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that ends without answering (killed, out of memory): one line with its exit
    status, exit 1, no state written."""
    folder, args = _folder(tmp_path, "f")
    _spied(monkeypatch)
    monkeypatch.setattr(history_writer, "_BOOT", "import os; os._exit(3)")
    (folder / "good.csv").write_text(_SORTED, encoding="utf-8")
    result = run("import", "history", str(folder / "good.csv"), *args)
    assert result.exit_code == 1
    store = store_path(folder / "state.json")
    assert result.stderr == (
        f"fs: error: usage history {store}: its writer ended without an answer (exit 3); "
        "nothing was written\n"
    )
    assert not (folder / "state.json").exists()


def test_a_store_not_ours_is_refused_before_the_work(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused (exit 2) before any writer starts; the file untouched."""
    folder, args = _folder(tmp_path, "f")
    store = store_path(folder / "state.json")
    conn = sqlite3.connect(store)
    conn.execute("CREATE TABLE jobs (id INTEGER)")
    conn.commit()
    conn.close()
    before = store.read_bytes()
    children = _spied(monkeypatch)
    (folder / "good.csv").write_text(_SORTED, encoding="utf-8")
    result = run("import", "history", str(folder / "good.csv"), "--rebuild", *args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "refusing to use it" in result.stderr
    assert (children, store.read_bytes()) == ([], before)


def test_only_a_large_regular_file_gets_a_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pipe cannot be read twice; a small file is not worth starting a process."""
    small = tmp_path / "small.csv"
    small.write_text(_SORTED, encoding="utf-8")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert not _worth_a_process(Source("history", str(small), "small.csv"))
    assert not _worth_a_process(Source("history", str(tmp_path / "absent"), "absent"))
    monkeypatch.setattr(history_writer, "WRITER_MIN_BYTES", small.stat().st_size)
    assert _worth_a_process(Source("history", str(small), "small.csv"))
    assert not _worth_a_process(Source("history", str(fifo), "fifo"))


def test_no_process_to_spare_stores_in_the_importer(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that cannot be started (no process to spare, EAGAIN): the importer reads
    and stores the records itself, the same as a small file."""
    import errno

    alone, alone_args = _folder(tmp_path, "alone")
    expected = _imports(run, alone, alone_args)
    _spied(monkeypatch)
    tried: list[int] = []

    def refused(*_: Any, **__: Any) -> Any:
        tried.append(1)
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(history_writer.subprocess, "Popen", refused)
    beside, beside_args = _folder(tmp_path, "beside")
    assert _imports(run, beside, beside_args) == expected
    assert _kept(beside) == _kept(alone)
    assert tried == [1, 1, 1]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(
                st.sampled_from(["a", "b", "c", "dd"]),
                st.floats(0, 1e9),
                st.none() | st.floats(0, 1e9),
                st.none() | st.sampled_from(["g.a", "g.b"]),
                st.booleans(),
                st.none() | st.text(max_size=3),
            ),
            min_size=1,
            max_size=20,
        ),
        min_size=1,
        max_size=5,
    ),
    st.integers(0, 4),
)
def test_a_packed_batch_is_its_records(batches: list[list[tuple[Any, ...]]], kept: int) -> None:
    """Batches handed over (names one object a distinct name, forgotten past a bound) come
    back as the same records, in order; the names remembered stay bounded."""
    import marshal
    from itertools import repeat

    names: dict[str | None, str | None] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(history_writer, "_NAMES_KEPT", kept)
        for rows in batches:
            batch = [UsageRecord(o, s, e, g, n, a, a, None, g, 1, 2) for o, s, e, g, n, a in rows]
            columns = marshal.loads(history_writer._packed(batch, names))
            back = list(map(tuple.__new__, repeat(UsageRecord), zip(*columns, strict=True)))
            assert back == batch
            for owner in {r.owner for r in batch}:  # (one object a name, in what arrives)
                assert len({id(o) for o in columns[0] if o == owner}) == 1
            assert len(names) <= kept + 1 + 4 * len(batch)
