"""The usage history store of a large import, written by a second process.

An import stores every record it charges (:mod:`.usage_store`); at a million records the
inserts are a sixth of its time (``benchmarks/run.py --rows import``). When the source is a
file that can be read again, a second Python process reads it on its own and writes the
store (the same :class:`~.usage_store.ImportLog`, so the same rows), while this one charges
the models: on a machine of two cores the two run side by side.

The exchange, one JSON line each way on the child's standard input and output: the job
(state path, the state's marks, ``--rebuild``, the source); ``stored N`` once it has
stored every record; once the models are done, ``{"now": ..., "window": ...}`` (commit) or
the end of its input or SIGTERM (give up: nothing is kept); then its answer, the new marks
or the error it met.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fairshare_cli.core.usage import Batches, UsageRecord, batches_of
from fairshare_cli.errors import InputError, RuntimeFailure, StateError
from fairshare_cli.io.usage_store import ImportLog, Marks, import_log, marks_of, open_store
from fairshare_cli.io.usage_store import store_path as _store_path

#: Sources smaller than this (bytes) are stored by the importing process itself: a second
#: process costs about 0.1 s to start, what the inserts of ~50,000 records cost.
WRITER_MIN_BYTES = 20_000_000

#: The child's line once every record is in (before it waits to be told to commit).
_STORED = b"stored "

#: The child's first lines: its package found where the parent's is.
_BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from {0} import main; main()"


@dataclass(frozen=True)
class Source:
    """A file of usage records the writer reads again: ``kind`` is the import command
    (``history``: ``fmt`` as its ``--format``; ``condor-history``), ``label`` names it."""

    kind: str
    path: str
    label: str
    fmt: str = "auto"


def _records(source: Source) -> Iterable[UsageRecord]:
    from fairshare_cli.io.history import read_condor_history, read_records_batched

    if source.kind == "condor-history":
        return read_condor_history(source.path, label=source.label)
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
    """The parent's side: records pass through :meth:`tee` untouched (the child stores
    them); :meth:`finish` commits the child's work and returns the marks for the state."""

    def __init__(self, child: subprocess.Popen[bytes], store: Path, label: str) -> None:
        self._child = child
        self._store = store
        self._label = label
        self._asked = False  # (finish told it to commit)
        self._passed = 0  # (records of the last pass)

    def tee(self, records: Iterable[UsageRecord]) -> Batches:
        self._passed = 0
        return Batches(self._counted(batches_of(records)))

    def _counted(self, batches: Iterable[list[UsageRecord]]) -> Iterator[list[UsageRecord]]:
        for batch in batches:
            self._passed += len(batch)
            yield batch

    def finish(self, now: float, window: float) -> Marks:
        """Ask the child to commit; its marks.

        Raises:
            StateError: the store is not ours.
            RuntimeFailure: SQLite failed, the child ended without an answer, or it stored
                another number of records than were charged (the file changed meanwhile).
        """
        stdin, stdout = self._child.stdin, self._child.stdout
        assert stdin is not None
        assert stdout is not None
        line = stdout.readline()  # ("stored N" once its rows are in, else its error)
        if line.startswith(_STORED):
            stored = int(line[len(_STORED) :])
            if stored != self._passed:  # (not committed: close() stops it)
                raise RuntimeFailure(
                    f"usage history {self._store}: {self._label} changed while it was read "
                    f"({self._passed} records charged, {stored} stored); nothing was written"
                )
            self._asked = True
            with contextlib.suppress(OSError):  # (a child that ended: its answer says why)
                stdin.write(json.dumps({"now": now, "window": window}).encode() + b"\n")
                stdin.close()
            line = stdout.readline()
        code = self._child.wait()
        try:
            answer = json.loads(line)
        except ValueError:
            raise RuntimeFailure(
                f"usage history {self._store}: its writer ended without an answer "
                f"(exit {code}); nothing was written"
            ) from None
        if "error" in answer:
            kind = StateError if answer.get("kind") == "state" else RuntimeFailure
            raise kind(answer["error"])
        return Marks(int(answer["records"]), int(answer["ends"]))

    def close(self) -> None:
        """Tell a child not asked to commit to give up now (SIGTERM: it rolls back and
        removes what it wrote); wait for it."""
        child = self._child
        for pipe in (child.stdin, child.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        if not self._asked:
            child.terminate()
        child.wait()


@contextlib.contextmanager
def import_store(
    state_path: Path, section: object, rebuild: bool, dry_run: bool, source: Source | None
) -> Iterator[ImportLog | StoreWriter | None]:
    """The store of one import: :func:`~.usage_store.import_log` (None on a dry run), or a
    :class:`StoreWriter` for a large file. Call under the state lock. Leaving by an
    exception commits nothing (the child is told to give up and waited for).

    Raises:
        StateError: the store or the state's marks are not ours.
        RuntimeFailure: the store cannot be opened, or the child cannot be started.
    """
    if dry_run or source is None or not _worth_a_process(source):
        with import_log(state_path, section, rebuild, dry_run) as log:
            yield log
        return
    marks_of(section)  # (a malformed section refused here, as import_log would)
    store = _store_path(state_path)
    with open_store(store, create=False):  # (a store not ours refused before the work)
        pass
    job = {"state": str(state_path), "section": section, "rebuild": rebuild}
    job["source"] = [source.kind, source.path, source.label, source.fmt]
    root = str(Path(__file__).resolve().parents[2])
    try:
        child = subprocess.Popen(
            [sys.executable, "-c", _BOOT.format(__name__), root],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError as exc:
        raise RuntimeFailure(f"usage history {store}: cannot start its writer: {exc}") from None
    writer = StoreWriter(child, store, source.label)
    try:
        assert child.stdin is not None
        with contextlib.suppress(OSError):  # (a child that died: finish says so)
            child.stdin.write(json.dumps(job).encode() + b"\n")
            child.stdin.flush()
        yield writer
    finally:
        writer.close()


def _write(job: dict[str, Any]) -> dict[str, Any]:
    """The child's work: store every record of the source, then commit when told to."""
    kind, path, label, fmt = job["source"]
    source = Source(kind, path, label, fmt)
    with import_log(Path(job["state"]), job["section"], job["rebuild"], False) as log:
        assert log is not None
        stored = sum(map(len, batches_of(log.tee(_records(source)))))
        sys.stdout.write(f"{_STORED.decode()}{stored}\n")  # (then it waits)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            raise _GivenUp
        told = json.loads(line)
        return log.finish(float(told["now"]), float(told["window"])).to_json()


class _GivenUp(Exception):
    """The parent gave up (closed the exchange, or SIGTERM) without asking for a commit."""


def _give_up(*_: object) -> None:
    raise _GivenUp


def main() -> None:
    """The child (``python -c``, see :data:`_BOOT`): one job read, one answer written."""
    import signal

    from fairshare_cli.io.gc_pause import gc_paused

    signal.signal(signal.SIGTERM, _give_up)  # (what it wrote rolled back and removed)
    answer: dict[str, Any]
    try:
        with gc_paused():
            answer = _write(json.loads(sys.stdin.readline()))
    except (_GivenUp, KeyboardInterrupt):
        os._exit(1)
    except StateError as exc:
        answer = {"error": str(exc), "kind": "state"}
    except InputError as exc:  # (the source changed since the parent read it)
        answer = {"error": f"{exc}; nothing was written", "kind": "runtime"}
    except Exception as exc:  # (any failure: the parent's one line)
        answer = {"error": str(exc) or type(exc).__name__, "kind": "runtime"}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    os._exit(0)
