"""The usage history store's format: records keep their TRES (format 2) and the CPUs a
partitionable slot's match was charged for (format 3); a file of format 1 (no ``tres``
column) or 2 (no ``charged_cpus``) is read as holding none and made format 3 by the next
writer, in its own transaction; a file of a newer format is refused, never written."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.usage import UsageRecord
from fairshare_cli.errors import RuntimeFailure, StateError
from fairshare_cli.io.usage_marks import Marks
from fairshare_cli.io.usage_store import FORMAT, open_store

#: The tables fs wrote before records kept their TRES (format 1), as it made them.
FORMAT_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE records (
    id INTEGER PRIMARY KEY, start REAL NOT NULL, end REAL, owner TEXT NOT NULL,
    accounting_group TEXT, nice_user INTEGER NOT NULL, account TEXT, partition TEXT,
    qos TEXT, dirac_group TEXT, slots INTEGER NOT NULL, cpus INTEGER NOT NULL, job TEXT
);
CREATE INDEX records_start ON records (start);
CREATE INDEX records_job ON records (job) WHERE job IS NOT NULL;
CREATE TABLE ends (id INTEGER PRIMARY KEY, job TEXT NOT NULL, end REAL NOT NULL);
CREATE INDEX ends_job ON ends (job);
INSERT INTO meta VALUES ('format', 'fairshare-cli usage history 1');
INSERT INTO meta VALUES ('generation', 'abcdef0123456789');
INSERT INTO records (start, end, owner, nice_user, account, partition, slots, cpus)
    VALUES (100.0, 400.0, 'u1', 0, 'a', 'batch', 1, 2);
"""


def old_store(path: Path) -> Path:
    with closing(sqlite3.connect(path)) as conn:
        conn.executescript(FORMAT_1)
    return path


def layout(path: Path) -> tuple[str, list[str], list[tuple[Any, ...]]]:
    """The format mark, the records' columns and rows (as stored)."""
    with closing(sqlite3.connect(path)) as conn:
        mark = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()[0]
        columns = [row[1] for row in conn.execute("PRAGMA table_info(records)")]
        rows = conn.execute("SELECT * FROM records ORDER BY id").fetchall()
    return str(mark), columns, rows


def test_a_format_1_store_is_read_as_records_without_tres(tmp_path: Path) -> None:
    path = old_store(tmp_path / "h.sqlite")
    before = path.read_bytes()
    for readonly in (True, False):
        with open_store(path, create=False, readonly=readonly) as store:
            assert store is not None and not store.keeps_tres()
            got = list(store.records(Marks(1, 0, "abcdef0123456789")))
        assert got == [UsageRecord("u1", 100.0, 400.0, account="a", partition="batch", cpus=2)]
        assert got[0].tres is None
    assert path.read_bytes() == before  # (a reader, or a writer that writes nothing)


def test_the_next_writer_makes_it_format_3_keeping_its_rows(tmp_path: Path) -> None:
    path = old_store(tmp_path / "h.sqlite")
    new = UsageRecord("u2", 200.0, 300.0, partition="batch", cpus=2, tres="mem=8192,gres/gpu=1")
    with open_store(path) as store:
        assert store is not None
        marks = store.append([(new, None)], [])
        assert marks == Marks(2, 0, "abcdef0123456789")  # (ids and generation as they were)
        assert [r.tres for r in store.records(marks)] == [None, "mem=8192,gres/gpu=1"]
    mark, columns, rows = layout(path)
    assert mark == FORMAT == "fairshare-cli usage history 3"
    assert columns[-2:] == ["tres", "charged_cpus"]
    assert rows[0] == (
        1, 100.0, 400.0, "u1", None, 0, "a", "batch", None, None, 1, 2, None, None, None,
    )  # fmt: skip


def test_a_format_2_store_is_read_and_made_format_3(tmp_path: Path) -> None:
    """A file of format 2 (``tres``, no ``charged_cpus``): its records are charged their own
    CPUs; the next writer adds the column, and a record charged a whole partitionable slot
    (8 CPUs for a match of 1) keeps it."""
    path = old_store(tmp_path / "h.sqlite")
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("ALTER TABLE records ADD COLUMN tres TEXT")
        conn.execute("UPDATE meta SET value = 'fairshare-cli usage history 2' WHERE key = 'format'")
    with open_store(path, create=False, readonly=True) as store:
        assert store is not None
        [old] = store.records(Marks(1, 0, "abcdef0123456789"))
    assert old.charged_cpus is None
    whole = UsageRecord("u2", 200.0, 300.0, cpus=1, charged_cpus=8)
    with open_store(path) as store:
        assert store is not None
        marks = store.append([(whole, "1 slot1_1@m001 200.0 match_cost")], [])
        assert [r.charged_cpus for r in store.records(marks)] == [None, 8]
    mark, columns, _ = layout(path)
    assert mark == FORMAT
    assert columns[-2:] == ["tres", "charged_cpus"]


def test_a_write_that_fails_leaves_a_format_1_store_as_it_was(tmp_path: Path) -> None:
    """The upgrade is in the writer's transaction: a row SQLite refuses (no owner) rolls
    back the format mark and the column with it."""
    path = old_store(tmp_path / "h.sqlite")
    before = layout(path)
    bad = UsageRecord(None, 200.0)  # type: ignore[arg-type]

    def append() -> None:
        with open_store(path) as store:
            assert store is not None
            store.append([(bad, None)], [])

    with pytest.raises(RuntimeFailure, match="nothing was written"):
        append()
    assert layout(path) == before


def test_a_newer_format_is_refused_untouched(tmp_path: Path, run: Callable[..., Any]) -> None:
    path = old_store(tmp_path / "state.history.sqlite")
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("UPDATE meta SET value = 'fairshare-cli usage history 4' WHERE key = 'format'")
    before = path.read_bytes()
    for readonly in (True, False):
        with (
            pytest.raises(StateError, match="written by a newer fs"),
            open_store(path, readonly=readonly),
        ):
            pass
    (tmp_path / "pool.toml").write_text('[pool]\ndefaults = "current"\n')
    (tmp_path / "h.csv").write_text("owner,start\nu1,2026-11-20T00:00:00Z\n")
    result = run(
        *("import", "history", str(tmp_path / "h.csv"), "--now", "2026-11-21T00:00:00Z"),
        *("--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")),
    )
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"fs: error: usage history {path} is 'fairshare-cli usage history 4', written by a "
        "newer fs (this one writes 'fairshare-cli usage history 3'); refusing to use it: use "
        "that fs, or move the file aside"
    ]
    assert path.read_bytes() == before
    assert not (tmp_path / "state.json").exists()


@pytest.mark.parametrize(
    "line",
    [
        ["whatif", "--set", "accountant.priority_halflife=3600", "userprio"],
        ["import", "sacct", "{fixtures}/slurm-22.05/sacct_jobs_1_13.txt"],
    ],
    ids=["whatif", "import-sacct"],
)
def test_a_store_damaged_inside_is_a_bad_state_file(
    line: list[str], tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs whatif ... userprio`` (and ``fs import sacct``) beside a usage history with a
    byte put into its middle (its header whole, a page of it shifted): exit 1, ``usage
    history state.history.sqlite: database disk image is malformed; nothing was written``,
    as if the disk had failed, where the same damage found as the file is opened is a bad
    state file (exit 2, move it aside). Now the same line and code wherever SQLite finds
    it; the state and the store are left as they were."""
    sample = Path(__file__).resolve().parents[2] / "sample_configs"
    fixtures = sample.parent / "tests" / "fixtures"
    (tmp_path / "pool.toml").write_bytes((sample / "pool.toml").read_bytes())
    (tmp_path / "state.json").write_bytes((sample / "sample-state.json").read_bytes())
    store = (sample / "sample-state.history.sqlite").read_bytes()
    middle = len(store) // 2
    (tmp_path / "state.history.sqlite").write_bytes(store[:middle] + b"\0" + store[middle:])
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    monkeypatch.chdir(tmp_path)
    line = [arg.format(fixtures=fixtures) for arg in line]
    now = "2026-11-22T12:00:00Z"
    result = run(*line, "--config", "pool.toml", "--state", "state.json", "--now", now)
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.stderr == (
        "fs: error: usage history state.history.sqlite is not a usable SQLite file (database "
        "disk image is malformed); move it aside to start a new history\n"
    )
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name != "state.json.lock"}
    assert after == before
