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

_DECODER: Any = msgspec.json.Decoder(list[JobRow])
_UNSET: Any = msgspec.UNSET
_FIELDS = tuple(JobRow.__struct_fields__)
#: Bytes read at a time; a piece is cut at the first object boundary past half of it.
BLOCK = 1 << 22
_BOUNDARY = re.compile(rb"\}\s*,\s*\{")


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

    A record equal to the last single job's but for its id, which is that job's next id
    and not taken, extends the batch here: no dict, no validation (the same fields passed
    before), the next id counted on from the run's cluster and proc. Anything else goes
    through ``batcher``, whose state is handed over and read back around the call.
    """
    prev: Any = None
    cluster, proc = "", -1  # the run's cluster and the proc of ``nxt`` (-1: no run)
    nxt = ""
    extra = 0
    singles = batcher.singles
    base = 0
    for piece in pieces:
        rows = _DECODER.decode(piece)
        for i, row in enumerate(rows, base):
            job_id = row.id
            row.id = _UNSET
            if job_id == nxt and proc >= 0 and row == prev and job_id not in singles:
                singles.add(job_id)
                proc += 1
                nxt = f"{cluster}.{proc}"
                extra += 1
                continue
            batcher.extra += extra
            batcher.prev_next, extra = nxt, 0
            batcher._run = (cluster, proc) if proc >= 0 else None
            if row == prev and job_id == nxt:
                batcher.extend(job_id, i)
            else:
                row.id = job_id
                batcher.add({k: v for k in _FIELDS if (v := getattr(row, k)) is not _UNSET}, i)
                row.id = _UNSET
                prev = row if batcher.prev_rest is not None else None
            nxt = batcher.prev_next
            cluster, proc = batcher._run or ("", -1)
        base += len(rows)
    batcher.extra += extra
    batcher.prev_next = nxt
    batcher._run = (cluster, proc) if proc >= 0 else None


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
