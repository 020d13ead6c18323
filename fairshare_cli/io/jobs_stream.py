"""A jobs file read in chunks straight into batches: a million job objects, never held.

The file is a JSON list of job objects (docs/jobs.md). It is cut into pieces of a few
MiB between two objects (at ``}``, ``,``, ``{``), each piece decoded by msgspec into
compact :data:`JobRow` records (one per object, fields as they came), and each record
either extends the batch before it (the same object but the next job id, the usual
shape of ``queue N`` written out one job per object) or goes through the validator
every jobs file goes through (:class:`fairshare_cli.io.jobs.Batcher`).

Anything this path does not take exactly as :func:`json.loads` would (a cut inside a
string or a nested value, a syntax error, an unknown field, NaN, a number out of range
or of more than 4,300 digits, a byte order mark, a malformed job) makes
:func:`stream_job_batches` return ``None``, and the caller reads the file the usual way,
whose results and messages users see.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import msgspec

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.jobs import Job
from fairshare_cli.errors import InputError
from fairshare_cli.io.jobs import Batcher

#: A job object as it came: each field of :class:`Job` and ``count``, ``UNSET`` when absent
#: (``null`` stays ``None``, as :func:`parse_job` tells the two apart only by value).
JobRow: Any = msgspec.defstruct(
    "JobRow",
    [(name, Any, msgspec.UNSET) for name in (*Job.__dataclass_fields__, "count")],
    forbid_unknown_fields=True,
)

_RAW_DECODER: Any = msgspec.json.Decoder(list[msgspec.Raw])
_ROW_DECODER: Any = msgspec.json.Decoder(JobRow)
_UNSET: Any = msgspec.UNSET
_DICT_DECODER: Any = msgspec.json.Decoder(dict[str, Any])
#: Bytes read at a time; a piece is cut at the first object boundary past half of it.
BLOCK = 1 << 22
_BOUNDARY = re.compile(rb"\}\s*,\s*\{")
_ID_VALUE = re.compile(rb'"id"\s*:\s*"([^"]*)"')


class _Slow(Exception):
    """This file is for the usual reader."""


def stream_job_batches(path: str, source: str) -> list[JobBatch] | None:
    """The batches of the jobs file ``path`` as :func:`~fairshare_cli.io.jobs.load_job_batches`
    makes them, or ``None`` when the file must be read the usual way (see the module)."""
    batcher = Batcher(source)
    try:
        _feed(_pieces(path), batcher)
    except (_Slow, OSError, ValueError, RecursionError, msgspec.MsgspecError, InputError):
        return None
    return batcher.finish()


def _feed(pieces: Iterator[bytes], batcher: Batcher) -> None:
    """Each job object of the pieces into ``batcher`` (hot loop: negotiate-objects bench).

    An object whose bytes are those of the run's first job but for its id, which is the
    run's next id and not taken, extends the run here: not even decoded (the bytes of
    :class:`_Run`). A record equal to the run's first but for its id, under the same
    conditions, extends it too (the same object written another way). Anything else goes
    through ``batcher``, whose state is handed over and read back around the call.
    """
    prev: Any = None
    run = _Run()
    singles = batcher.singles
    base = 0
    for piece in pieces:
        raws = _RAW_DECODER.decode(piece)
        n = len(raws)
        k = 0
        while k < n:
            if run.expected:  # the run's next jobs, by their bytes alone
                expected, head, tail = run.expected, run.head, run.tail
                proc, barrier = run.proc, run.barrier
                while k < n and proc < barrier and bytes(raws[k]) == expected:
                    proc += 1
                    k += 1
                    expected = b"%s%d%s" % (head, proc, tail)
                run.reach(proc, expected)
                if k >= n:
                    break
            text = bytes(raws[k])
            row = _ROW_DECODER.decode(text)
            job_id = row.id
            row.id = _UNSET
            if job_id == run.nxt and run.proc >= 0 and row == prev and job_id not in singles:
                run.reach(run.proc + 1, run.bytes_of(run.proc + 1))
                k += 1
                continue
            run.hand_over(batcher)
            if row == prev and job_id == run.nxt:
                batcher.extend(job_id, base + k)
            else:
                # the object as a dict, keys in its order (the last of a repeated key, as
                # the row and json.loads take it)
                batcher.add(_DICT_DECODER.decode(text), base + k)
                prev = row if batcher.prev_rest is not None else None
            run.take_over(batcher, text if prev is not None else None, job_id)
            k += 1
        base += n
    run.hand_over(batcher)


class _Run:
    """The run of jobs the last batch is extending: its cluster, the proc of its next id
    (``nxt``; -1: no run), the jobs it gained since ``batcher`` last saw it, and the bytes
    the next job would have (``expected``: the first job's bytes with the next id in place
    of its own; empty when the first job's id cannot be found for sure in its bytes)."""

    __slots__ = ("barrier", "cluster", "expected", "extra", "head", "lo", "nxt", "proc", "tail")

    def __init__(self) -> None:
        self.cluster, self.proc, self.nxt = "", -1, ""
        self.lo = self.extra = 0
        self.barrier: float = -1
        self.head = self.tail = self.expected = b""

    def reach(self, proc: int, expected: bytes) -> None:
        """The run's jobs up to ``proc`` (excluded) joined it; ``expected`` are the bytes
        of the next one (empty: not known)."""
        if proc != self.proc:
            self.extra += proc - self.proc
            self.proc = proc
            self.nxt = f"{self.cluster}.{proc}"
        self.expected = expected

    def bytes_of(self, proc: int) -> bytes:
        """The bytes job ``proc`` of the run would have (empty: not known)."""
        return b"%s%d%s" % (self.head, proc, self.tail) if self.head else b""

    def hand_over(self, batcher: Batcher) -> None:
        """Tell ``batcher`` what the run gained (its ids taken) before it reads on."""
        if self.extra:
            batcher.singles.add_range(self.cluster, self.lo, self.proc)
        batcher.extra += self.extra
        batcher.prev_next, self.extra = self.nxt, 0
        batcher._run = (self.cluster, self.proc) if self.proc >= 0 else None

    def take_over(self, batcher: Batcher, text: bytes | None, job_id: str) -> None:
        """Carry on from ``batcher``'s run; ``text`` is the bytes of its last single job
        ``job_id`` (None: the next job cannot extend it by its bytes)."""
        self.nxt = batcher.prev_next
        self.cluster, self.proc = batcher._run or ("", -1)
        self.lo = self.proc
        self.head = self.tail = self.expected = b""
        self.barrier = -1
        if text is None or self.proc < 0 or b"\\" in text or text.count(b'"id"') != 1:
            return
        # no escapes: every quote delimits a string, so the one "id" followed by a colon
        # is the key, and the string after it the id (as the decoder read it)
        found = _ID_VALUE.search(text)
        if found is None or found.group(1) != job_id.encode():
            return
        self.head = text[: found.start(1)] + self.cluster.encode() + b"."
        self.tail = text[found.end(1) :]
        self.barrier = batcher.singles.next_taken(self.cluster, self.proc)
        self.expected = self.bytes_of(self.proc)


def _pieces(path: str) -> Iterator[bytes]:
    """The list in ``path`` as JSON lists of whole objects, a few MiB each.

    Raises:
        _Slow: it does not start with ``[``.
        OSError: it cannot be read.
    """
    with open(path, "rb") as fh:
        buf = fh.read(BLOCK).lstrip(b" \t\r\n")
        if not buf.startswith(b"["):
            raise _Slow
        buf = buf[1:]
        while True:
            more = fh.read(BLOCK)
            if not more:
                break
            buf += more
            cut = _BOUNDARY.search(buf, len(buf) // 2)
            if cut is None:
                continue
            yield b"[" + buf[: cut.start() + 1] + b"]"
            buf = buf[cut.end() - 1 :]
        yield b"[" + buf
