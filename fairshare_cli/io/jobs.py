"""Read a jobs file (docs/jobs.md): a JSON list of job objects, a chunk at a time.

The one reader of the format. The file is cut into pieces of a few MiB between two
objects, and msgspec decodes each piece straight into :class:`~fairshare_cli.core.jobs.Job`
records, whose field types carry the ranges the job parser checks; the rules a type
cannot carry (names, statuses) are checked over each piece's columns
(:func:`~fairshare_cli.core.jobs.rules_pass`), and ids and slots across pieces. A million
jobs are never held as Python dicts: each piece's records go to a sink (the batches of
:func:`load_job_batches`, the list of :func:`load_jobs`, the task-queue keys of
``fs taskqueues``) and are dropped.

An object the decoder refuses alone (a time written as text, a number as id, a null) is
read by the exact parser (:func:`~fairshare_cli.core.jobs.parse_stanza`). Anything else
(a cut the decoder cannot take, a syntax error, a job the exact parser refuses, a
duplicate id) sends the whole file to the exact reader: :func:`json.loads` and the
exact parser, whose messages users see. It starts a fresh sink.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from operator import attrgetter
from typing import Any, Protocol, TypeVar

import msgspec

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.jobs import (
    Job,
    check_job_field,
    expand,
    parse_jobs,
    parse_stanza,
    rules_pass,
)
from fairshare_cli.errors import InputError
from fairshare_cli.io.gc_pause import gc_paused
from fairshare_cli.io.inputs import JSONFault, read_json

#: Bytes read at a time; a piece is cut at the first object boundary past half of it.
BLOCK = 1 << 22
#: A file of at most this many bytes is decoded in one piece (100,000 jobs: 16 MB).
WHOLE = 1 << 25
_BOUNDARY = re.compile(rb"\}\s*,\s*\{")
_JOBS = msgspec.json.Decoder(list[Job])
_RAWS = msgspec.json.Decoder(list[msgspec.Raw])
_ANY = msgspec.json.Decoder()
#: Fields that may be written as text and read to seconds (times and durations).
_TEXT_TIMES = frozenset(
    ("submit_time", "eligible_time", "accrue_time", "start_time", "time_limit", "run_time")
)
_ID, _COUNT, _SLOT = attrgetter("id"), attrgetter("count"), attrgetter("slot")


class JobSink(Protocol):
    """Where the reader puts each piece's jobs, in file order (a ``count`` object is one
    record of that count)."""

    def add(self, jobs: list[Job]) -> None:
        """Take the next jobs of the file."""


Sink = TypeVar("Sink", bound=JobSink)


class _Refused(Exception):
    """The fast path cannot decide: the exact reader reads the file."""


def read_jobs(path: str, new_sink: Callable[[], Sink], *, label: str, source: str) -> Sink:
    """The jobs of the jobs file ``path`` (``-`` is stdin) put into a sink.

    Args:
        path: the file.
        new_sink: makes the sink (a second one when the exact reader starts afresh).
        label: names the file in messages about its JSON.
        source: names the file in messages about a job (``{source}: job 3: ...``).

    Raises:
        InputError: the file cannot be read, is not a JSON list, a job is malformed, two
            jobs share an id or two running jobs a slot.
    """
    with gc_paused():
        if path != "-":
            sink = new_sink()
            try:
                _read_pieces(path, sink, source)
                return sink
            except (_Refused, OSError, ValueError, RecursionError):
                pass  # (msgspec's errors are ValueErrors)
        sink = new_sink()
        objs = load_job_objects(path, label)
        parse_jobs(objs, source)  # every refusal worded, in file order
        sink.add([parse_stanza(obj, f"{source}: job {i}") for i, obj in enumerate(objs)])
        return sink


def _read_pieces(path: str, sink: JobSink, source: str) -> None:
    """The fast path of :func:`read_jobs`.

    A measured hot loop (``benchmarks/run.py`` row ``negotiate-objects``).

    Raises:
        _Refused, ValueError: the exact reader must read the file.
    """
    taken = _Taken()
    base = 0
    for piece in _pieces(path):
        try:
            jobs: list[Job] = _JOBS.decode(piece)
        except msgspec.ValidationError:
            jobs = _one_by_one(piece, base, source)
        if not rules_pass(jobs):
            raise _Refused
        taken.add(jobs)
        sink.add(jobs)
        base += len(jobs)


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
                        seconds[key, text] = _seconds(key, text)
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
                jobs.append(parse_stanza(obj, f"{source}: job {base + k}"))
            except InputError:
                raise _Refused from None
    return jobs


def _seconds(key: str, text: str) -> Any:
    """A time or duration written as text, as the job parser reads it (the text itself
    when it refuses it: the record then refuses it too)."""
    try:
        return check_job_field(key, text, "job")
    except InputError:
        return text


class _Taken:
    """The ids and slots taken so far: a duplicate is refused (the exact reader words it).

    A ``count`` object's cluster must be no other's: the exact reader decides any other
    case, one id at a time.
    """

    def __init__(self) -> None:
        self.ids: set[str] = set()
        self.slots: set[str] = set()
        self.clusters: set[str] | None = None  # of every id, once a count object is read
        self.stanzas: set[str] = set()  # of the count objects

    def add(self, jobs: list[Job]) -> None:
        """Take the ids and slots of ``jobs``.

        Raises:
            _Refused: a duplicate, or a ``count`` object sharing a cluster.
        """
        ids = self.ids
        before = len(ids)
        ids.update(map(_ID, jobs))
        if len(ids) != before + len(jobs):
            raise _Refused
        if self.clusters is not None or set(map(_COUNT, jobs)) != {1}:
            self._clusters(jobs)
        if set(map(_SLOT, jobs)) != {None}:
            self._slots(jobs)

    def _slots(self, jobs: list[Job]) -> None:
        slots = [job.slot for job in jobs if job.slot is not None and job.status == "running"]
        if slots:
            before = len(self.slots)
            self.slots.update(slots)
            if len(self.slots) != before + len(slots):
                raise _Refused

    def _clusters(self, jobs: list[Job]) -> None:
        if self.clusters is None:
            new = {job.id for job in jobs}
            self.clusters = {i.split(".", 1)[0] for i in self.ids - new}
        for job in jobs:
            cluster = job.id.split(".", 1)[0]
            if cluster in self.stanzas:  # a job after a count object of its cluster
                raise _Refused
            if job.count != 1:
                if cluster in self.clusters:
                    raise _Refused
                self.stanzas.add(cluster)
            self.clusters.add(cluster)


def _pieces(path: str) -> Iterator[bytes]:
    """The list in ``path`` as JSON lists of whole objects, a few MiB each (a cut inside
    a string makes a piece the decoder refuses: the exact reader reads the file).

    Raises:
        _Refused: it does not start with ``[``.
        OSError: it cannot be read.
    """
    with open(path, "rb") as fh:
        if os.fstat(fh.fileno()).st_size <= WHOLE:  # one piece, not copied
            yield fh.read()
            return
        buf = fh.read(BLOCK).lstrip(b" \t\r\n")
        if not buf.startswith(b"["):
            raise _Refused
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


def load_job_objects(path: str, name: str | None = None) -> list[Any]:
    """The raw job objects of a jobs file (``-`` is stdin), as :func:`json.loads` reads them.

    ``name`` names the file in errors (default: ``path``).

    Raises:
        InputError: the file cannot be read, is not JSON, or is not a list.
    """
    label = name or path
    try:
        objs = read_json(path, label)
    except JSONFault as fault:
        at = (
            fault.reason
            if fault.line is None
            else (f"line {fault.line}, column {fault.column}: {fault.reason}")
        )
        raise InputError(
            f"{label}: not valid JSON ({at}); expected a list of job objects"
        ) from None
    if not isinstance(objs, list):
        raise InputError(f"{label}: expected a JSON list of job objects, got {type(objs).__name__}")
    return objs


class JobList:
    """A sink keeping every job, one record per job (a ``count`` object's expanded)."""

    def __init__(self) -> None:
        self.jobs: list[Job] = []

    def add(self, jobs: list[Job]) -> None:
        """Keep ``jobs``."""
        if all(job.count == 1 for job in jobs):
            self.jobs += jobs
        else:
            for job in jobs:
                self.jobs += expand(job)


def load_jobs(path: str, label: str | None = None) -> list[Job]:
    """Every job of a jobs file (``-`` is stdin); ``label`` names it in messages.

    Raises:
        InputError: see :func:`read_jobs`.
    """
    name = label or path
    return read_jobs(path, JobList, label=name, source=name).jobs


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
    job (default: ``jobs file PATH``).

    Raises:
        InputError: see :func:`read_jobs`.
    """
    source = label or f"jobs file {path}"
    return read_jobs(path, Batches, label=label or path, source=source).finish()
