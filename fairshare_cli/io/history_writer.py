"""The usage history store of a large import, written by a second process.

An import stores every record it charges (:mod:`.usage_store`). For a large regular file, a
second Python process reads the file, hands its records to the importer as it goes and
writes the store (the same :class:`~.usage_store.ImportLog`, so the same rows), while the
importer charges the models: on a machine of two cores, reading and storing (half of
``fs import history``'s time at a million records: ``benchmarks/run.py --rows import``) run
beside the models.

The exchange. The job: one JSON line on the child's standard input (the state's path and
marks, ``--rebuild``, the source). Then frames on its standard output, each a letter, a
length (8 bytes, little-endian) and that many bytes:

- ``B``: a batch of records as read (``marshal`` of its columns); ``D`` after the last;
- ``S``: how many it stored, once every record is in. It then reads one more line,
  ``{"now": ..., "window": ...}`` (commit), or meets the end of its input or SIGTERM (give
  up: it rolls back, and removes a new file);
- ``A``: its answer, the new marks (JSON);
- ``E``, at any point: an error (JSON: ``error``, ``kind``), the reader's where it failed.

The importer's first reading is the ``B`` frames; a second reading (a record refused, or
records out of start order) reads the file itself, and the frames left unread are skipped.
"""

from __future__ import annotations

import contextlib
import json
import marshal
import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import IO, Any

from fairshare_cli.core.usage import NAME_FIELDS, Batches, UsageRecord, batches_of
from fairshare_cli.errors import FairshareError, InputError, RuntimeFailure, StateError
from fairshare_cli.io.usage_store import ImportLog, Marks, check_store, import_log, marks_of
from fairshare_cli.io.usage_store import store_path as _store_path

#: Sources smaller than this (bytes) are read and stored by the importing process itself: a
#: second process costs about 0.1 s to start, what reading and storing ~25,000 records cost.
WRITER_MIN_BYTES = 20_000_000

#: The child's first lines: its package found where the parent's is.
_BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from {0} import main; main()"

_FAILURES: dict[str, type[FairshareError]] = {"input": InputError, "state": StateError}

Records = Callable[[], Iterable[UsageRecord]]


@dataclass(frozen=True)
class Source:
    """A file of usage records the writer reads: ``kind`` is the import command
    (``history``: ``fmt`` as its ``--format``; ``condor-history``), ``label`` names it;
    ``stream``: its records are handed to the importer (False: the importer reads the file
    itself, as when it shows how far it has read)."""

    kind: str
    path: str
    label: str
    fmt: str = "auto"
    stream: bool = True


def read_source(
    source: Source, progress: Callable[[float], None] | None = None
) -> Iterable[UsageRecord]:
    """The records of ``source``, as its import command reads them (``progress``: the
    fraction read, for ``condor-history``'s bar)."""
    from fairshare_cli.io.history import read_condor_history, read_records_batched

    if source.kind == "condor-history":
        return read_condor_history(source.path, label=source.label, progress=progress)
    return read_records_batched(source.path, source.fmt, label=source.label)


def _worth_a_process(source: Source) -> bool:
    """A regular file (a pipe cannot be read twice) large enough, and a Python to start
    (not a frozen executable)."""
    if getattr(sys, "frozen", False):
        return False
    try:
        info = os.stat(source.path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size >= WRITER_MIN_BYTES and bool(sys.executable)


class StoreWriter:
    """The importer's side. :meth:`reader` gives the records (the child's, the first time);
    :meth:`tee` passes them on untouched (the child stores them); :meth:`finish` has the
    child commit and returns the marks for the state."""

    def __init__(self, child: subprocess.Popen[bytes], store: Path, source: Source) -> None:
        self._child = child
        self._store = store
        self._label = source.label
        self._stream = source.stream
        self._taken = not source.stream  # (the child's records: read once at most)
        self._asked = False  # (finish told it to commit)
        self._passed = 0  # (records of the last pass)

    def reader(self, records: Records) -> Records:
        """``records``, but the child's records the first time."""

        def read() -> Iterable[UsageRecord]:
            if self._taken:
                return records()
            self._taken = True
            return Batches(self._received())

        return read

    def tee(self, records: Iterable[UsageRecord]) -> Batches:
        self._passed = 0
        return Batches(self._counted(batches_of(records)))

    def _counted(self, batches: Iterable[list[UsageRecord]]) -> Iterator[list[UsageRecord]]:
        for batch in batches:
            self._passed += len(batch)
            yield batch

    def _received(self) -> Iterator[list[UsageRecord]]:
        """The child's records, a batch a frame (built from its columns, no call a record);
        raises where its reading failed."""
        make = tuple.__new__
        while True:
            kind, body = self._frame()
            if kind == b"B":
                yield list(map(make, repeat(UsageRecord), zip(*marshal.loads(body), strict=True)))
            elif kind == b"D":
                return
            else:
                raise self._failure(kind, body)

    def _frame(self) -> tuple[bytes, bytes]:
        stdout = self._child.stdout
        assert stdout is not None
        head = stdout.read(9)
        size = int.from_bytes(head[1:], "little") if len(head) == 9 else -1
        body = stdout.read(size) if size > 0 else b""
        if size < 0 or len(body) < size:
            code = self._child.wait()
            raise RuntimeFailure(
                f"usage history {self._store}: its writer ended without an answer "
                f"(exit {code}); nothing was written"
            )
        return head[:1], body

    def _failure(self, kind: bytes, body: bytes) -> FairshareError:
        told = json.loads(body) if kind == b"E" else {"error": f"frame {kind!r}"}
        return _FAILURES.get(told.get("kind", ""), RuntimeFailure)(told["error"])

    def finish(self, now: float, window: float) -> Marks:
        """Have the child commit; its marks.

        Raises:
            StateError: the store is not ours.
            RuntimeFailure: SQLite failed, the child ended without an answer, or it stored
                another number of records than were charged (the file changed meanwhile).
        """
        kind, body = self._frame()
        while kind in (b"B", b"D"):  # (what a pass given up did not read)
            kind, body = self._frame()
        if kind == b"S":
            if int(body) != self._passed:  # (not committed: close() stops it)
                raise RuntimeFailure(
                    f"usage history {self._store}: {self._label} changed while it was read "
                    f"({self._passed} records charged, {int(body)} stored); nothing was written"
                )
            self._asked = True
            stdin = self._child.stdin
            assert stdin is not None
            with contextlib.suppress(OSError):  # (a child that ended: its answer says why)
                stdin.write(json.dumps({"now": now, "window": window}).encode() + b"\n")
                stdin.close()
            kind, body = self._frame()
        if kind != b"A":
            raise self._failure(kind, body)
        answer = json.loads(body)
        self._child.wait()
        return Marks(int(answer["records"]), int(answer["ends"]))

    def close(self) -> None:
        """Tell a child not asked to commit to give up, and wait for it: it rolls back and
        removes what it wrote when it next sends a frame (to a closed pipe) or reads the
        end of its input; one that sends no records is stopped by SIGTERM."""
        child = self._child
        for pipe in (child.stdin, child.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        if not self._asked and not self._stream:
            child.terminate()
        child.wait()


@contextlib.contextmanager
def import_store(
    state_path: Path, section: object, rebuild: bool, dry_run: bool, source: Source | None
) -> Iterator[ImportLog | StoreWriter | None]:
    """The store of one import: a :class:`StoreWriter` for a large file, else (and when no
    second process can be started) :func:`~.usage_store.import_log` (None on a dry run).
    Call under the state lock. Leaving by an exception commits nothing (the child is told
    to give up and waited for).

    Raises:
        StateError: the store or the state's marks are not ours.
        RuntimeFailure: the store cannot be opened.
    """
    child = None
    if not dry_run and source is not None and _worth_a_process(source):
        marks_of(section)  # (a malformed section refused here, as import_log would)
        check_store(_store_path(state_path))  # (a store not ours refused before the work)
        child = _started()
    if child is None:
        with import_log(state_path, section, rebuild, dry_run) as log:
            yield log
        return
    assert source is not None
    writer = StoreWriter(child, _store_path(state_path), source)
    job = {"state": str(state_path), "section": section, "rebuild": rebuild}
    job["source"] = [source.kind, source.path, source.label, source.fmt, source.stream]
    try:
        assert child.stdin is not None
        with contextlib.suppress(OSError):  # (a child that died: its frames say so)
            child.stdin.write(json.dumps(job).encode() + b"\n")
            child.stdin.flush()
        yield writer
    finally:
        writer.close()


def _started() -> subprocess.Popen[bytes] | None:
    """The writer process, its package found where this one's is; None when it cannot be
    started (no process to spare: the importer then stores the records itself)."""
    root = str(Path(__file__).resolve().parents[2])
    try:
        return subprocess.Popen(
            [sys.executable, "-c", _BOOT.format(__name__), root],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return None


def _put(out: IO[bytes], kind: bytes, body: bytes) -> None:
    out.write(kind + len(body).to_bytes(8, "little") + body)
    out.flush()


def _sent(records: Iterable[UsageRecord], out: IO[bytes], stream: bool) -> Batches:
    """``records`` a batch at a time, each sent first when ``stream``; a reader's error sent
    where it happens (the importer raises it there), then the child ends quietly."""
    names: dict[str | None, str | None] = {}

    def sending() -> Iterator[list[UsageRecord]]:
        try:
            for batch in batches_of(records):
                if stream:
                    _put(out, b"B", _packed(batch, names))
                yield batch
        except InputError as exc:
            _put(out, b"E", json.dumps({"error": str(exc), "kind": "input"}).encode())
            raise _GivenUp from None
        if stream:
            _put(out, b"D", b"")

    return Batches(sending())


#: The name columns of a record (owner, accounting group, account, partition, QOS, DIRAC
#: group), sent as one object a distinct name.
_NAMES = [UsageRecord._fields.index(f) for f in NAME_FIELDS]
_NAMES_KEPT = 100_000  # (distinct names remembered, then forgotten at once: flat memory)


def _packed(batch: list[UsageRecord], names: dict[str | None, str | None]) -> bytes:
    """A batch as ``marshal`` of its columns (a third of the bytes and time of its
    records), each name one object that ``marshal`` then writes once (the importer makes
    half as many objects, in half the time: ``benchmarks/run.py --rows import``)."""
    columns = list(zip(*batch, strict=True))
    if len(names) > _NAMES_KEPT:
        names.clear()
    for k in _NAMES:
        columns[k] = tuple(map(names.setdefault, columns[k], columns[k]))
    return marshal.dumps(columns, 4)


def _write(job: dict[str, Any], out: IO[bytes]) -> dict[str, Any]:
    """The child's work: read and store every record of the source (sending them on), then
    commit when told to."""
    kind, path, label, fmt, stream = job["source"]
    records = read_source(Source(kind, path, label, fmt))
    with import_log(Path(job["state"]), job["section"], job["rebuild"], False) as log:
        assert log is not None
        _Stop.arm(True)
        try:
            stored = sum(map(len, batches_of(log.tee(_sent(records, out, stream)))))
            _put(out, b"S", str(stored).encode())
            line = sys.stdin.readline()
        finally:
            _Stop.arm(False)  # (before import_log's cleanup)
        if not line:
            raise _GivenUp
        told = json.loads(line)
        return log.finish(float(told["now"]), float(told["window"])).to_json()


class _GivenUp(Exception):
    """The importer gave up (closed the exchange, or SIGTERM) without asking for a commit,
    or already has the error that ends the work."""


class _Stop:
    """SIGTERM in the child: :class:`_GivenUp` raised where giving up is clean (while it
    reads and stores, or waits to be told to commit: ``armed``), else noted and raised when
    next armed; never in the middle of a rollback."""

    armed = False
    asked = False

    @classmethod
    def arm(cls, on: bool) -> None:
        cls.armed = on and not cls.asked
        if on and cls.asked:
            raise _GivenUp

    @classmethod
    def signalled(cls, *_: object) -> None:
        cls.asked = True
        if cls.armed:
            cls.armed = False
            raise _GivenUp


def main() -> None:
    """The child (``python -c``, see :data:`_BOOT`): one job read, its frames written."""
    import signal

    from fairshare_cli.io.gc_pause import gc_paused

    signal.signal(signal.SIGTERM, _Stop.signalled)  # (what it wrote rolled back and removed)
    out = sys.stdout.buffer
    try:
        with gc_paused():
            answer = json.dumps(_write(json.loads(sys.stdin.readline()), out))
        kind = b"A"
    except (_GivenUp, KeyboardInterrupt):
        os._exit(1)
    except StateError as exc:
        answer, kind = json.dumps({"error": str(exc), "kind": "state"}), b"E"
    except Exception as exc:  # (any failure: the importer's one line)
        answer = json.dumps({"error": str(exc) or type(exc).__name__, "kind": "runtime"})
        kind = b"E"
    with contextlib.suppress(OSError):  # (an importer gone: nothing to tell)
        _put(out, kind, answer.encode())
    os._exit(0)
