"""Read a jobs file (docs/jobs.md): a JSON list of job objects, a chunk at a time.

The one reader of the format. The file is cut into pieces of some 100 KiB between two
objects, and msgspec decodes each piece straight into :class:`~fairshare_cli.core.jobs.Job`
records, whose field types carry the ranges the job parser checks; the rules a type
cannot carry (names, statuses) are checked over each piece's columns
(:func:`~fairshare_cli.core.jobs.rules_pass`), and ids and slots across pieces. A million
jobs are never held as Python dicts: each piece's records go to a sink (the batches of
:func:`load_job_batches`, the list of :func:`load_jobs`, the task-queue keys of
``fs taskqueues``, the rows of ``fs sprio``) and are dropped. A sink may ask for a projection
of the record (:func:`~fairshare_cli.io.job_records.raw_job_record`): the same fields and
checks, a few kept as JSON text.

An object the decoder refuses alone (a time written as text, a number as id, a null) is read
by the exact parser (:func:`~fairshare_cli.core.jobs.parse_stanza`). Anything else (a cut the
decoder cannot take, a syntax error, a job the exact parser refuses, a duplicate id, an
object that may give a key twice: :mod:`~fairshare_cli.io.job_shapes`) sends the file to
the exact reader (:func:`json.loads`, the exact parser: the messages users see).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import suppress
from functools import cache
from operator import attrgetter
from typing import Any, Protocol, TypeVar

import msgspec

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.job_fields import job_label
from fairshare_cli.core.job_ids import TakenIds, single_jobs
from fairshare_cli.core.jobs import (
    Job,
    expand,
    json_kind,
    parse_jobs_one_by_one,
    parse_stanza,
    rules_pass,
)
from fairshare_cli.errors import InputError
from fairshare_cli.io.gc_pause import gc_paused
from fairshare_cli.io.inputs import JSONFault, not_json, open_bytes, read_json
from fairshare_cli.io.job_records import (
    projected,
    raw_job_record,
    skipped_fields,
    text_seconds,
    text_times_pass,
)
from fairshare_cli.io.job_shapes import Shapes
from fairshare_cli.io.json_keys import DuplicateKey, RepeatedKeys
from fairshare_cli.io.spool import spooled

#: Bytes read at a time, and a piece's size: it is cut at the first object boundary past
#: half of it. Small, so that a piece's records are checked and handed on while in the
#: CPU's cache (``benchmarks/run.py`` rows ``negotiate-objects`` and ``taskqueues``: 128 KiB,
#: some 500 to 1,000 jobs; against 4 MiB, a tenth less CPU for the whole of either).
PIECE = 1 << 17
LONGEST_PIECE = 64 * PIECE  # (more with no boundary: the exact reader; it was minutes)
_BOUNDARY = re.compile(rb"\}\s*,\s*\{")
_JOBS = msgspec.json.Decoder(list[Job])
_RAWS = msgspec.json.Decoder(list[msgspec.Raw])
_ANY = msgspec.json.Decoder()
#: Fields that may be written as text and read to seconds (times and durations).
_TEXT_TIMES = frozenset(("submit_time", "eligible_time", "accrue_time", "start_time",
                        "time_limit", "run_time"))  # fmt: skip
_ID = attrgetter("id")


class JobSink(Protocol):
    """Where the reader puts each piece's jobs, in file order (a ``count`` object is one record)."""

    def add(self, jobs: list[Any]) -> None:
        """Take the next jobs of the file (records of the type the reader was given)."""


Sink = TypeVar("Sink", bound=JobSink)


class _Refused(Exception):
    """The fast path cannot decide: the exact reader reads the file."""


def read_jobs(
    path: str, new_sink: Callable[[], Sink], *, label: str, source: str, record: type = Job
) -> Sink:
    """The jobs of the jobs file ``path`` (``-`` is stdin) put into a sink.

    Args:
        path: the file.
        new_sink: makes the sink (a second one when the exact reader starts afresh).
        label: names the file in messages about its JSON.
        source: names the file in messages about a job (``{source}: job 12.0: ...``).
        record: the record the sink takes: :class:`~fairshare_cli.core.jobs.Job` or a
            :func:`~fairshare_cli.io.job_records.raw_job_record`.

    Raises:
        InputError: the file cannot be read, is not a JSON list, a job is malformed, two
            jobs share an id or two running jobs a slot.
    """
    try:
        return _read_jobs(path, new_sink, label, source, record)
    except InputError as exc:  # (a history or a state given as a jobs file: where it goes)
        from fairshare_cli.io.importers.sniff import JOBS_FILE, other_file

        raise other_file(exc, path, JOBS_FILE) from None


#: What a jobs file holds, in a refusal of one that is not.
JOBS_TEXT = "a list of job objects"


def _read_jobs(
    path: str, new_sink: Callable[[], Sink], label: str, source: str, record: type
) -> Sink:
    """:func:`read_jobs`, its refusals as they come."""
    # (stdin or a pipe: a copy, read twice)
    with gc_paused(), spooled(path, JOBS_TEXT, documents=True, json=True) as readable:
        sink = new_sink()
        try:
            _read_pieces(readable, sink, source, record)
            return sink
        except (_Refused, OSError, ValueError, RecursionError):  # (msgspec's: ValueErrors)
            pass
        sink = new_sink()
        objs = load_job_objects(readable, label)
        parse_jobs_one_by_one(objs, source)  # every refusal worded, in file order
        jobs = [parse_stanza(obj, job_label(source, obj, i)) for i, obj in enumerate(objs)]
        sink.add(jobs if record is Job else [projected(job, record) for job in jobs])
        return sink


def _read_pieces(path: str, sink: JobSink, source: str, record: type) -> None:
    """The fast path of :func:`read_jobs` (hot: ``benchmarks/run.py`` rows
    ``negotiate-objects``, ``negotiate-separate``, ``taskqueues``); a sink with a ``group``
    method groups the records itself and the checks read the new values it gives.

    Raises:
        _Refused, ValueError: the exact reader must read the file.
    """
    raw_status = "status" in getattr(record, "raw_fields", ())
    taken = TakenIds(record, _decoded_status) if raw_status else TakenIds(record)
    base = 0
    tried = getattr(sink, "usual", None) or getattr(record, "usual", None) or record
    decoder = _JOBS if tried is Job else _decoder(tried)
    times: dict[tuple[str, str], bool] = {}
    group: Callable[[list[Any]], list[Any] | None] | None = getattr(sink, "group", None)
    shapes = Shapes(sink, _decoder, _ANY.decode)
    for piece in _pieces(path):
        jobs = shapes.decode(piece)
        if jobs is None:
            with suppress(msgspec.ValidationError):
                jobs = decoder.decode(piece)
        if jobs is None and tried is not record:  # a field beyond the usual ones: all from now on
            tried, decoder = record, _JOBS if record is Job else _decoder(record)
            with suppress(msgspec.ValidationError):
                jobs = decoder.decode(piece)
        if jobs is None and record is not Job:
            raise _Refused
        jobs = _one_by_one(piece, base, source) if jobs is None else jobs
        if not shapes.certified and not shapes.check(piece, tried, jobs):
            raise _Refused  # (a key given twice, maybe: the exact reader tells)
        skip = skipped_fields(tried)
        rows = None if group is None else group(jobs)  # grouped: the new values to check
        checked = jobs if rows is None else rows
        if record is not Job and not text_times_pass(checked, times, skip):
            raise _Refused
        ids = list(map(_ID, jobs))
        if not rules_pass(checked, skip, ids):
            raise _Refused
        if not taken.take(jobs, ids, skip):
            raise _Refused
        if rows is None:
            sink.add(jobs)
        base += len(jobs)
    if not shapes.settled():
        raise _Refused  # (a key given twice, maybe: the exact reader tells)


def _decoded_status(job: Any) -> Any:
    """A record's status held as raw JSON text, decoded."""
    return msgspec.json.decode(job.status)


def _one_by_one(piece: bytes, base: int, source: str) -> list[Job]:
    """A piece's jobs when the decoder refuses one: the objects decoded as they are, each
    time written as text read to its seconds by the job parser's own rule (each distinct
    text once), then converted into records; an object still refused is read by the exact
    parser.

    Raises:
        _Refused: the exact parser refuses one.
    """
    objs: list[Any] = _ANY.decode(piece)
    seconds: dict[tuple[str, str], Any] = {}
    for obj in objs:
        if type(obj) is dict:
            for key in _TEXT_TIMES.intersection(obj):
                text = obj[key]
                if type(text) is str:
                    if (key, text) not in seconds:
                        seconds[key, text] = text_seconds(key, text)
                    obj[key] = seconds[key, text]
    try:
        jobs: list[Job] = msgspec.convert(objs, list[Job], strict=True)
        return jobs
    except msgspec.ValidationError:
        pass
    jobs = []
    for k, obj in enumerate(objs):
        try:
            jobs.append(msgspec.convert(obj, Job, strict=True))
        except msgspec.ValidationError:
            try:
                jobs.append(parse_stanza(obj, job_label(source, obj, base + k)))
            except InputError:
                raise _Refused from None
    return jobs


@cache
def _decoder(record: type) -> msgspec.json.Decoder[list[Any]]:
    return msgspec.json.Decoder(list[record])  # type: ignore[valid-type]


def _pieces(path: str) -> Iterator[bytes]:
    """The list in ``path`` as JSON lists of whole objects, each of about :data:`PIECE`
    bytes or more (a cut inside a string makes a piece the decoder refuses: the exact
    reader reads the file).

    Raises:
        _Refused: it does not start with ``[``, or a piece outgrows :data:`LONGEST_PIECE`.
        OSError: it cannot be read, or is refused (:func:`~fairshare_cli.io.inputs.open_bytes`).
    """
    with open_bytes(path) as fh:
        buf = fh.read(PIECE).lstrip(b" \t\r\n")
        if not buf.startswith(b"["):
            raise _Refused
        start = 1  # buf[start:] is not yet in a piece
        while True:
            more = fh.read(PIECE)
            if more:
                buf = buf[start:] + more
                start = 0
            while cut := _BOUNDARY.search(buf, start + PIECE // 2):
                yield b"".join((b"[", memoryview(buf)[start : cut.start() + 1], b"]"))
                start = cut.end() - 1
            if len(buf) - start > LONGEST_PIECE:
                raise _Refused
            if not more:
                yield b"[" + buf[start:]
                return


def load_job_objects(path: str, name: str | None = None) -> list[Any]:
    """The raw job objects of a jobs file (``-`` is stdin), as :func:`json.loads` reads them.

    ``name`` names the file in errors (default: ``path``).

    Raises:
        InputError: the file cannot be read, is not JSON, is not a list, or an object in
            it gives a key twice.
    """
    label = name or path
    repeats = RepeatedKeys()
    try:
        objs = read_json(path, label, repeats)
        repeats.refuse(objs)
    except DuplicateKey as exc:  # (either value may be the one meant)
        raise InputError(exc.in_job(label)) from None
    except JSONFault as fault:
        raise not_json(label, fault, JOBS_TEXT) from None
    if not isinstance(objs, list):
        kind = json_kind(objs)
        raise InputError(f"{label}: expected a JSON list of job objects, got {kind}")
    return objs


class JobList:
    """A sink keeping every job, one record per job (a ``count`` object's expanded); a
    subclass may take them elsewhere (:meth:`keep`)."""

    def __init__(self, fields: tuple[str, ...] = ()) -> None:
        self.jobs: list[Job] = []
        self.usual = raw_job_record((), fields, False).usual if fields else None  # type: ignore[attr-defined]

    def add(self, jobs: list[Job]) -> None:
        """Keep ``jobs``, a record a job."""
        self.keep(jobs if single_jobs(jobs) else [one for job in jobs for one in expand(job)])

    def keep(self, jobs: list[Job]) -> None:
        """Keep the next jobs of the file."""
        self.jobs += jobs


def load_jobs(path: str, label: str | None = None, fields: tuple[str, ...] = ()) -> list[Job]:
    """Every job of a jobs file (``-`` is stdin); ``label`` names it in messages; ``fields``:
    the only fields the caller reads (others may hold their defaults:
    :func:`~fairshare_cli.io.job_records.raw_job_record`).

    Raises:
        InputError: see :func:`read_jobs`.
    """
    name = label or path
    return read_jobs(path, lambda: JobList(fields), label=name, source=name).jobs


class Batches:
    """A sink making batches: a ``count`` object is one batch, and a job that is the last
    one but for its id, which is the next of the last batch's cluster, joins its batch."""

    def __init__(self) -> None:
        self.batches: list[JobBatch] = []
        self._first: Job | None = None  # the last batch's first job
        self._next = ""  # the id that would join the last batch ("": none)
        self._extra = 0  # jobs joined to the last batch, not yet in it
        self._prefix, self._proc = "", 0  # the next id's cluster and dot, and its proc

    def add(self, jobs: list[Job]) -> None:
        """Batch ``jobs`` (hot loop: ``benchmarks/run.py`` row ``negotiate-separate``)."""
        batches, force_set, intern = self.batches, msgspec.structs.force_setattr, sys.intern
        first, nxt, extra = self._first, self._next, self._extra
        prefix, proc = self._prefix, self._proc
        for job in jobs:
            job_id = job.id
            if job_id == nxt:  # the next id of the last batch's cluster: the same job?
                force_set(job, "id", first.id)  # type: ignore[union-attr]
                if job == first:
                    extra += 1
                    proc += 1
                    nxt = prefix + str(proc)
                    continue
                force_set(job, "id", job_id)
            if extra:
                last = batches[-1]
                batches[-1] = JobBatch(last.job, last.count + extra)
                extra = 0
            if job.count != 1:
                cluster = job_id.split(".", 1)[0]
                one = msgspec.structs.replace(job, id=f"{cluster}.0", count=1)
                batches.append(JobBatch(one, job.count))
                first, nxt = None, ""
                continue
            # the texts many batches repeat kept once (a million-job queue's memory)
            force_set(job, "owner", intern(job.owner))
            if job.requirements is not None:
                force_set(job, "requirements", intern(job.requirements))
            batches.append(JobBatch(job))
            first = job
            cluster, _, tail = job_id.partition(".")
            if tail.isdigit() and tail.isascii():
                prefix, proc = cluster + ".", int(tail) + 1
                nxt = prefix + str(proc)
            else:
                nxt = ""
        self._first, self._next, self._extra = first, nxt, extra
        self._prefix, self._proc = prefix, proc

    def _close(self) -> None:
        if self._extra:
            last = self.batches[-1]
            self.batches[-1] = JobBatch(last.job, last.count + self._extra)
            self._extra = 0

    def finish(self) -> list[JobBatch]:
        """The batches."""
        self._close()
        return self.batches


def load_job_batches(path: str, label: str | None = None) -> list[JobBatch]:
    """Jobs from a JSON file holding a list of job objects (docs/jobs.md); ``-`` is stdin.

    A ``"count": N`` object stays one batch of N identical jobs ``C.0`` … ``C.(N-1)``, and
    consecutive jobs that differ only by the next job id of one cluster join a batch, so
    very large queues take little memory. ``label`` names the file in messages about a
    job (default: its path).

    Raises:
        InputError: see :func:`read_jobs`.
    """
    name = label or path
    return read_jobs(path, Batches, label=name, source=name).finish()
