"""The usage history store: an append-only SQLite file beside the state.

``state.json`` keeps the usage *as valued* (decayed priorities, raw usage); to value the same
past under another policy (``fs whatif`` with a half-life, a factor, a usage factor or a
share changed) the work itself must be kept. Every import and every committed cycle appends
what ran here: ``state.json`` -> ``state.history.sqlite``.

Consistency with the state without a two-file transaction: rows are committed once the
state with the marks it includes (:class:`Marks`) is on the disk, just before its rename
(an import's in :meth:`ImportLog.commit`, claims' in ``usage_store_kept.log_usage``), so
that a state write that fails leaves no row; rows past the marks (a writer killed between
the commit and the rename) are never read and are dropped by the next writer, under the
state lock, and a file put in place of the state's is told by its generation. Readers
take no lock.

A record keeps its TRES (``UsageRecord.tres``: what a partition's ``TRESBillingWeights``
bill again in a replay) and the CPUs HTCondor's accountant charged it for when they are
not its own (``UsageRecord.charged_cpus``); a file of an older format, without them, is
made this one by the next writer (:meth:`UsageStore.upgrade`, in that write's
transaction): ``io.usage_format``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import Any

from fairshare_cli.core.usage import BATCH, Batches, UsageRecord, batches_of
from fairshare_cli.errors import RuntimeFailure
from fairshare_cli.io.atomic import fsync_folder, make_like, refuse_read_only
from fairshare_cli.io.sqlite_errors import cannot_open, disk_failure, refuse_folders
from fairshare_cli.io.usage_format import ADDED_COLUMNS as _ADDED_COLUMNS
from fairshare_cli.io.usage_format import FORMAT as FORMAT
from fairshare_cli.io.usage_format import RECORD_INDEXES as _RECORD_INDEXES
from fairshare_cli.io.usage_format import check_format, damaged, unusable
from fairshare_cli.io.usage_marks import SECTION as SECTION
from fairshare_cli.io.usage_marks import Marks, marks_of, new_generation, present_file
from fairshare_cli.io.usage_marks import store_path as store_path
from fairshare_cli.io.usage_rows import check_rows

# A bool or None without an adapter goes through sqlite3's adaptation protocol, whose failed
# lookups format an AttributeError each time: a tenth of an insert (benchmarks/run.py --rows
# import). These store what sqlite3 stores without them: a bool as 0 or 1, None as NULL.
sqlite3.register_adapter(bool, int)
_NOTHING: dict[None, None] = {}
sqlite3.register_adapter(type(None), _NOTHING.get)  # (a C call: None -> None)
_COLUMNS = (
    "start, end, owner, accounting_group, nice_user, account, partition, qos, dirac_group, "
    "slots, cpus, tres, charged_cpus, job"
)


class UsageStore:
    """One open history file. Use :func:`open_store` (a context manager)."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn

    def columns(self) -> set[str]:
        """The columns the records have (a file of format 1 lacks ``tres``, of format 1 or
        2 ``charged_cpus``)."""
        return {str(row[1]) for row in self._conn.execute("PRAGMA table_info(records)")}

    def keeps_tres(self) -> bool:
        """Whether the records have their ``tres`` column (a file of format 1: not yet)."""
        return "tres" in self.columns()

    def upgrade(self) -> None:
        """Make a file of an older format (:data:`~.usage_format.OLDER`) this one, in the open
        transaction (begun here if none is): its records keep no TRES (they bill their
        CPUs, as they did) and no charged CPUs (they were charged their own). Called by
        writers, under the state lock, before they insert: committed with their rows, a
        write that fails leaves the file as it was."""
        have = self.columns()
        missing = [(name, kind) for name, kind in _ADDED_COLUMNS if name not in have]
        if not missing:
            return
        self._conn.execute("UPDATE meta SET value = ? WHERE key = 'format'", (FORMAT,))
        for name, kind in missing:
            self._conn.execute(f"ALTER TABLE records ADD COLUMN {name} {kind}")

    @property
    def generation(self) -> str:
        """The token this file was made with ("": a file made before there were tokens)."""
        row = self._conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return "" if row is None else str(row[0])

    def holds(self, marks: Marks) -> bool:
        """Whether ``marks`` count rows of this file (not of one put in its place)."""
        return not marks.includes_rows() or marks.generation == self.generation

    def restart(self) -> None:
        """Drop every row and take a new generation: the file is not the state's."""
        with self._conn:
            self._conn.execute("DELETE FROM records")
            self._conn.execute("DELETE FROM ends")
            self._conn.execute(
                "INSERT OR REPLACE INTO meta VALUES ('generation', ?)", (new_generation(),)
            )

    def rollback_after(self, marks: Marks) -> None:
        """Drop rows a writer appended but never recorded in the state (it died between);
        with none, the file is not written (a command refused later leaves it as it was)."""
        with self._conn:
            for table, mark in (("records", marks.records), ("ends", marks.ends)):
                past = f"SELECT 1 FROM {table} WHERE id > ? LIMIT 1"
                if self._conn.execute(past, (mark,)).fetchone() is None:
                    continue
                if mark == 0:
                    # every row: without a WHERE, SQLite empties the table and its indexes
                    # whole (row by row: 0.9 s at a million, benchmarks/run.py --rows import)
                    self._conn.execute(f"DELETE FROM {table}")
                else:
                    self._conn.execute(f"DELETE FROM {table} WHERE id > ?", (mark,))

    def append(
        self, records: Iterable[tuple[UsageRecord, str | None]], ends: Iterable[tuple[str, float]]
    ) -> Marks:
        """Append records (each with an optional job key) and job ends; commit; new marks."""
        rows = (
            (
                r.start,
                r.end,
                r.owner,
                r.accounting_group,
                int(r.nice_user),
                r.account,
                r.partition,
                r.qos,
                r.dirac_group,
                r.slots,
                r.cpus,
                r.tres,
                r.charged_cpus,
                job,
            )
            for r, job in records
        )
        with self._conn:
            self.upgrade()
            self._conn.executemany(f"INSERT INTO records ({_COLUMNS}) VALUES ({_QMARKS})", rows)
            self._conn.executemany("INSERT INTO ends (job, end) VALUES (?, ?)", ends)
        return self.marks()

    def not_kept(
        self, records: tuple[tuple[UsageRecord, str], ...], marks: Marks
    ) -> tuple[tuple[UsageRecord, str], ...]:
        """``records`` but those whose job key a record (up to ``marks``) already has."""
        if not records:
            return records
        held = "SELECT 1 FROM records WHERE job = ? AND id <= ? LIMIT 1"
        run = self._conn.execute
        return tuple(r for r in records if run(held, (r[1], marks.records)).fetchone() is None)

    def marks(self) -> Marks:
        """The highest row ids now in the file."""
        r = self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM records").fetchone()[0]
        e = self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM ends").fetchone()[0]
        return Marks(int(r), int(e), self.generation)

    def records(self, marks: Marks) -> Batches:
        """Every record up to ``marks``, in start-time order, open ones closed by their end.

        A record whose job has an end row (up to ``marks``) ends there; otherwise its own
        ``end`` (None: still running).
        """
        have = self.columns()
        tres, charged = "tres" in have, "charged_cpus" in have
        query = (
            "SELECT owner, start, COALESCE(end, (SELECT MIN(e.end) FROM ends e WHERE e.job = "
            "records.job AND e.id <= ?)), accounting_group, nice_user, account, partition, "
            f"qos, dirac_group, slots, cpus, {'tres' if tres else 'NULL'}, "
            f"{'charged_cpus' if charged else 'NULL'} FROM records "
            "WHERE id <= ? ORDER BY start, id"
        )
        check_rows(self._conn, self.path, marks.records, marks.ends, tres, charged)
        # the columns in UsageRecord's field order: built by _make, a batch at a time
        # (benchmarks/run.py whatif-replay reads a million); nice_user stays 0 or 1
        return Batches(_fetched(self._conn.execute(query, (marks.ends, marks.records))))

    def first_start(self, marks: Marks) -> float | None:
        """The earliest start kept (None: empty)."""
        row = self._conn.execute(
            "SELECT MIN(start) FROM records WHERE id <= ?", (marks.records,)
        ).fetchone()
        return None if row[0] is None else float(row[0])

    def prune(self, before: float, commit: bool = True) -> int:
        """Delete records that ended before ``before`` (and their end rows); how many
        (committed unless ``commit`` is false: then in the open transaction)."""
        with self._conn if commit else contextlib.nullcontext():
            closed = self._conn.execute(
                "SELECT id, job FROM records WHERE COALESCE(end, (SELECT MIN(e.end) FROM ends e "
                "WHERE e.job = records.job)) < ?",
                (before,),
            ).fetchall()
            ids = [(i,) for i, _ in closed]
            jobs = [(j,) for _, j in closed if j is not None]
            self._conn.executemany("DELETE FROM records WHERE id = ?", ids)
            self._conn.executemany("DELETE FROM ends WHERE job = ?", jobs)
        return len(closed)


def _fetched(cursor: sqlite3.Cursor) -> Iterator[list[UsageRecord]]:
    make = UsageRecord._make
    while rows := cursor.fetchmany(BATCH):
        yield list(map(make, rows))


def _qmarks(columns: str) -> str:
    return ", ".join("?" * len(columns.split(",")))


_QMARKS = _qmarks(_COLUMNS)
_ROWS = 64  # records per INSERT statement of an import (ImportLog._teed)
_NICE = UsageRecord._fields.index("nice_user")  # (its place in a record's fields: _teed)
#: The columns of a record (no job), in :class:`UsageRecord`'s field order.
_RECORD_COLUMNS = ", ".join(UsageRecord._fields)


class open_store:
    """Open (creating when ``create``; read only when ``readonly``) the store at ``path``;
    errors name ``name`` (an import writing a new store whole names the one it replaces).

    Raises:
        StateError: the file is not a usage history of ours (or of a newer format).
        RuntimeFailure: it cannot be opened or created, or SQLite fails on it while it is
            open (a full disk, a damaged file): one line, the open transaction rolled back.
    """

    def __init__(
        self, path: Path, create: bool = True, name: Path | None = None, readonly: bool = False
    ) -> None:
        self.path, self.create, self.name = path, create and not readonly, name or path
        # (readonly: fs whatif never writes it, not even to roll back a dead process's write)
        self.uri = f"{path.absolute().as_uri()}?mode=ro" if readonly else None  # (no stat)
        self._conn: sqlite3.Connection | None = None

    def __enter__(self) -> UsageStore | None:
        if not present_file(self.path, f"usage history {self.name}") and not self.create:
            return None
        try:
            # (an import builds its indexes on a second thread, one user at a time)
            where, uri = (self.uri, True) if self.uri else (self.path, False)
            conn = sqlite3.connect(
                where, isolation_level="DEFERRED", check_same_thread=False, uri=uri
            )
        except sqlite3.Error as exc:
            raise RuntimeFailure(f"cannot open usage history {self.name}: {exc}") from None
        self._conn = conn
        try:  # (not ``create``: an empty file is no history, its tables not made)
            empty = check_format(conn, self.name, writable=self.create)
        except BaseException:
            conn.close()
            raise
        return None if empty else UsageStore(self.path, conn)

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if self._conn is not None:
            self._conn.close()
        if isinstance(exc, sqlite3.Error):  # (a full disk, a locked or damaged file, ...)
            what = f"usage history {self.name}"
            if not self.path.parent.is_dir():  # (SQLite says "disk I/O error": not the disk)
                raise RuntimeFailure(
                    f"cannot write {what}: its folder was removed; nothing was written"
                ) from None
            failure = disk_failure(exc, what) or cannot_open(exc, self.name)
            if failure is None and damaged(exc):  # (a bad file, as on opening it: exit 2)
                raise unusable(exc, self.name) from None
            raise failure or RuntimeFailure(f"{what}: {exc}; nothing was written") from None


def check_store(path: Path) -> None:
    """Refuse the store at ``path`` if it is not ours (none there is fine).

    Raises:
        StateError: the file is not a usage history of ours.
        RuntimeFailure: it cannot be opened.
    """
    with open_store(path, create=False):
        pass


class ImportLog:
    """The records of one import, appended to the store as they stream by.

    ``tee`` passes records through while inserting them (in batches, in the open
    transaction); a second pass (an unsorted source is read twice) first drops the first
    pass's rows. ``finish`` prunes to the window and returns the marks for the state;
    ``commit``, called once that state is on the disk and before its rename, commits.
    Until then nothing is visible to readers; a state write that fails commits nothing,
    and only a process killed between the commit and the rename leaves rows past the
    state's marks (dropped by the next writer).

    The indexes a pass into an empty table dropped are built again as soon as its last
    record has passed, on a thread (sqlite3 lets go of the GIL while SQLite sorts), in the
    open transaction, while the models finish; ``finish`` waits for them (and raises what
    building them raised) before it commits.

    With ``replaces``, ``store`` is a new file that ``commit`` renames over that store once
    committed (:func:`import_log`: an import that keeps none of the old rows).
    """

    def __init__(
        self, store: UsageStore, start: Marks, rebuild: bool, replaces: Path | None = None
    ) -> None:
        self.store = store
        self.start = start
        self.rebuild = rebuild
        self.replaces = replaces
        self._dropped = False  # (the indexes of records, by tee)
        self._indexing: threading.Thread | None = None
        self._index_error: BaseException | None = None

    def tee(self, records: Iterable[UsageRecord]) -> Batches:
        """``records`` (a list at a time), each list inserted as it passes."""
        conn = self.store._conn
        self.wait_indexes()  # (a pass given up: its rows are deleted, its indexes dropped)
        if self.rebuild:
            conn.execute("DELETE FROM records")
            conn.execute("DELETE FROM ends")
        else:
            conn.execute("DELETE FROM records WHERE id > ?", (self.start.records,))
        self.store.upgrade()  # (in the import's transaction, begun by the DELETE)
        self._dropped = conn.execute("SELECT 1 FROM records LIMIT 1").fetchone() is None
        if self._dropped:
            # an empty table: its indexes are built in one go once every row is in (in
            # this transaction: a rollback brings them back)
            for name in _RECORD_INDEXES:
                conn.execute(f"DROP INDEX IF EXISTS {name}")
        return Batches(self._teed(batches_of(records)))

    def _teed(self, batches: Iterable[list[UsageRecord]]) -> Iterator[list[UsageRecord]]:
        # a record's fields in the order of _RECORD_COLUMNS, _ROWS records per statement, in
        # order, from one flat list (sqlite3 reads a tuple subclass's parameters through its
        # __getitem__; a statement per record costs a fifth more: benchmarks/run.py --rows
        # import); nice_user given as an int 0 or 1 (a bool is adapted, a lookup each)
        one = f"({_qmarks(_RECORD_COLUMNS)})"
        sql = f"INSERT INTO records ({_RECORD_COLUMNS}) VALUES {one}"
        many = f"INSERT INTO records ({_RECORD_COLUMNS}) VALUES {', '.join([one] * _ROWS)}"
        width = len(UsageRecord._fields)
        step, insert = _ROWS * width, self.store._conn.executemany
        for batch in batches:
            whole = len(batch) // _ROWS * _ROWS
            flat: list[Any] = list(chain.from_iterable(batch[:whole] if whole else ()))
            flat[_NICE::width] = map(int, flat[_NICE::width])  # (bools as ints: no adapting)
            insert(many, [flat[i : i + step] for i in range(0, len(flat), step)])
            if whole < len(batch):
                insert(sql, map(tuple, batch[whole:]))
            yield batch
        if self._dropped:  # every row is in
            self._build_indexes()

    def _build_indexes(self) -> None:
        """Start building the indexes tee dropped, on a thread (0.35 s of SQLite sorting at a
        million records, meanwhile the models finish: ``benchmarks/run.py --rows import``)."""
        conn = self.store._conn

        def build() -> None:
            try:
                for create in _RECORD_INDEXES.values():
                    conn.execute(create)
            except BaseException as exc:  # (finish raises it)
                self._index_error = exc

        self._index_error = None
        self._indexing = threading.Thread(target=build, name="fs-history-indexes")
        # (Ctrl-C and SIGTERM go to the main thread, which stops the import: the kernel may
        # give a signal to any thread that takes it, and one here could break off SQLite)
        kept = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            self._indexing.start()  # (the thread starts with them blocked)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, kept)

    def add(self, records: Iterable[tuple[UsageRecord, str | None]]) -> None:
        """Insert ``records`` too (each with its claim's key or None), in the import's
        transaction."""
        rows = [(*r, key) for r, key in records]
        if rows:  # (the index thread done first: one connection, one statement at a time)
            self._index_error = self.wait_indexes()  # (kept for finish to raise)
            sql = f"INSERT INTO records ({_RECORD_COLUMNS}, job) VALUES ({_QMARKS})"
            self.store._conn.executemany(sql, rows)

    def wait_indexes(self) -> BaseException | None:
        """Wait for the index thread (if any) to end; what building the indexes raised."""
        if self._indexing is not None:
            self._indexing.join()  # (a Ctrl-C meanwhile leaves it to the next call)
            self._indexing = None
        error, self._index_error = self._index_error, None
        return error

    def finish(self, now: float, window: float) -> Marks:
        """Drop what ended before the window and say what the state will include, all in
        the import's transaction: :meth:`commit` makes it so once the state is on the disk.

        Raises:
            sqlite3.Error: building the indexes failed (as it would have here).
        """
        error = self.wait_indexes()
        if error is not None:
            raise error
        for create in _RECORD_INDEXES.values():  # (those tee dropped, if not built yet)
            self.store._conn.execute(create)
        if window > 0:  # (in the import's transaction: a failure there commits none of it)
            self.store.prune(now - window, commit=False)
        return self.store.marks()  # (this connection sees its own rows)

    def commit(self) -> None:
        """Commit the import (and put a new file in place of the store): call once the state
        with :meth:`finish`'s marks is on the disk, before it replaces the old one
        (``save_state``'s ``before_rename``), so that a state write that fails (a full
        disk) leaves no row past the old state's marks.

        Raises:
            sqlite3.Error: SQLite cannot commit (a full disk): nothing is committed.
            OSError: the new file cannot be renamed over the store.
        """
        self.store._conn.commit()
        if self.replaces is not None:
            for stale in side_files(self.replaces):  # (a journal of the old file: not ours)
                stale.unlink(missing_ok=True)
            os.replace(self.store.path, self.replaces)
            fsync_folder(self.replaces.parent)


@contextlib.contextmanager
def import_log(
    state_path: Path, section: object, rebuild: bool, dry_run: bool
) -> Iterator[ImportLog | None]:
    """An :class:`ImportLog` on the store beside ``state_path`` (None on a dry run).

    Call under the state lock: rows past the state's marks (a writer that died before
    writing its state) are dropped first. Leaving by an exception commits nothing.

    An import that keeps no row of the store (``rebuild``, or a state that includes none of
    it) writes a new file beside it, renamed over it once committed: deleting a million
    rows and writing into their freed pages cost a second more (``benchmarks/run.py --rows
    import``). The same rows, with the same ids, as emptying the tables would leave.

    Raises:
        StateError: the store or the state's marks are not ours (a store not ours is
            refused, not replaced); a folder where its journal or a new store goes.
        RuntimeFailure: the store cannot be opened, or is one this user may not write
            (that the rename of a new file would replace).
    """
    if dry_run:
        yield None
        return
    start = marks_of(section)
    path = store_path(state_path)
    fresh = path.with_name(f"{path.name}.new")
    refuse_folders([*side_files(path), fresh, *side_files(fresh)])
    if start.includes_rows() and not _holds(path, start):
        start = Marks()  # (not the state's file: an import put it there and died)
    whole = rebuild or not start.includes_rows()
    if whole:
        check_store(path)
        refuse_read_only(path, "usage history")  # (replaced by a rename: as the state is)
        for old in (fresh, *side_files(fresh)):  # (left by an import that died)
            old.unlink(missing_ok=True)
    try:
        make_like(fresh if whole else path, state_path)  # (the state's permissions)
        with open_store(fresh if whole else path, name=path) as store:
            assert store is not None
            if not whole:
                store.rollback_after(start)
            log = ImportLog(store, start, rebuild, replaces=path if whole else None)
            try:
                yield log
            except BaseException:
                log.wait_indexes()  # (its error, if any, goes with the transaction)
                store._conn.rollback()
                raise
            else:
                log.wait_indexes()  # (no thread outlives the import)
    finally:
        if whole:  # (renamed away when the import finished; a failed commit's journal too)
            for left in (fresh, *side_files(fresh)):
                left.unlink(missing_ok=True)


def _holds(path: Path, marks: Marks) -> bool:
    """Whether the store at ``path`` is the one ``marks`` count in (none there: no)."""
    with open_store(path, create=False) as store:
        return store is not None and store.holds(marks)


def side_files(path: Path) -> list[Path]:
    """The files SQLite keeps beside a database while it writes (a hot one is replayed)."""
    return [path.with_name(path.name + tail) for tail in ("-journal", "-wal", "-shm")]
