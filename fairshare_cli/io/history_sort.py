"""Usage records in start order, in bounded memory: an external merge sort.

A usage history that is not in start order (``condor_history`` lists jobs newest first)
is cut into runs of at most ``run_size`` records, each sorted and spilled to a temporary
file, then merged: memory holds one run while sorting and one record per run while
merging, however long the history. Records of equal start keep their input order.
"""

from __future__ import annotations

import contextlib
import heapq
import pickle
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO

from fairshare_cli.core.usage import UsageRecord
from fairshare_cli.errors import RuntimeFailure

RUN_SIZE = 50_000


def _start(record: UsageRecord) -> float:
    return record.start


def _spill(run: list[UsageRecord]) -> IO[bytes]:
    """``run`` sorted into a new temporary file (in ``TMPDIR``), read from its start.

    Raises:
        RuntimeFailure: the file cannot be written (a full or read-only ``TMPDIR``), named
            as such: a full ``/tmp`` said "writing the output: No space left on device".
    """
    run.sort(key=_start)
    fh = None
    try:
        fh = tempfile.TemporaryFile()  # noqa: SIM115 - open until merged; closed by the caller
        pickler = pickle.Pickler(fh, protocol=pickle.HIGHEST_PROTOCOL)
        for record in run:
            pickler.dump(tuple(record))
        fh.seek(0)
    except OSError as exc:
        if fh is not None:
            with contextlib.suppress(OSError):  # (its buffer, flushed again: the same error)
                fh.close()
        raise RuntimeFailure(
            f"cannot sort the usage records by start in a temporary file in "
            f"{tempfile.gettempdir()}: {exc.strerror}; free some space there, or set TMPDIR "
            "to a folder with room"
        ) from None
    return fh


def _read(fh: IO[bytes]) -> Iterator[UsageRecord]:
    unpickler = pickle.Unpickler(fh)
    while True:
        try:
            yield UsageRecord(*unpickler.load())
        except EOFError:
            return


def sorted_by_start(
    records: Iterable[UsageRecord], run_size: int = RUN_SIZE
) -> Iterator[UsageRecord]:
    """``records`` ordered by start time (stable), holding at most ``run_size`` at once."""
    runs: list[IO[bytes]] = []
    buf: list[UsageRecord] = []
    try:
        for record in records:
            buf.append(record)
            if len(buf) >= run_size:
                runs.append(_spill(buf))
                buf = []
        if not runs:
            buf.sort(key=_start)
            yield from buf
            return
        if buf:
            runs.append(_spill(buf))
            buf = []
        yield from heapq.merge(*(_read(fh) for fh in runs), key=_start)
    finally:
        for fh in runs:
            fh.close()
