"""Read a ``--jobs-file``: a JSON list of job objects (docs/jobs.md), fast for big queues."""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import replace
from typing import Any

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.jobs import parse_job
from fairshare_cli.core.limits import MAX_JOB_COUNT
from fairshare_cli.core.names import ascii_digits
from fairshare_cli.errors import InputError
from fairshare_cli.gc_pause import gc_paused
from fairshare_cli.io.inputs import JSONFault, read_json


def load_job_objects(path: str, name: str | None = None) -> list[Any]:
    """The raw job objects of a jobs file (``-`` is stdin).

    ``name`` names the file in errors (default: ``path``). Call it inside
    :func:`gc_paused` for big files.

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


def load_job_batches(path: str) -> list[JobBatch]:
    """Jobs from a JSON file holding a list of job objects (docs/jobs.md); ``-`` is stdin.

    A ``"count": N`` object stays one batch of N identical jobs ``C.0`` … ``C.(N-1)``, and
    consecutive objects that differ only by the next job id of one cluster join a batch, so
    very large queues load quickly.

    Raises:
        InputError: the file is missing, not JSON, not a list, a job is malformed, or two
            jobs share an id.
    """
    source = f"jobs file {path}"
    with gc_paused():
        if path != "-":
            from fairshare_cli.io.jobs_stream import stream_job_batches

            streamed = stream_job_batches(path, source)
            if streamed is not None:
                return streamed
        return batches_from_objects(load_job_objects(path), source)


def batches_from_objects(objs: list[Any], source: str) -> list[JobBatch]:
    """Job batches from job objects, validated as :func:`parse_job` does.

    Raises:
        InputError: a malformed job or a duplicate id, naming ``source`` and the job.
    """
    batcher = Batcher(source)
    for i, obj in enumerate(objs):
        batcher.add(obj, i)
    return batcher.finish()


class Batcher:
    """Job objects, one at a time, into batches (see :func:`load_job_batches`).

    ``prev_rest`` is the previous single job's object minus its id and ``prev_next`` the id
    that would extend the last batch (``None``/``""`` after a ``count`` stanza). The last
    batch's jobs beyond its first are counted in ``extra`` until the next batch starts.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.batches: list[JobBatch] = []
        self.singles = TakenIds()
        self.stanzas: dict[str, int] = {}
        self.prev_rest: dict[str, Any] | None = None
        self.prev_next = ""
        self.extra = 0
        #: the last single job's cluster and the proc of ``prev_next``, when its cluster
        #: has no ``count`` stanza (so only ``singles`` can hold its next ids)
        self._run: tuple[str, int] | None = None

    def finish(self) -> list[JobBatch]:
        """The batches so far."""
        if self.extra:
            last = self.batches[-1]
            self.batches[-1] = JobBatch(last.job, last.count + self.extra)
            self.extra = 0
        return self.batches

    def extend(self, job_id: str, i: int) -> None:
        """The ``i``-th object is the last batch's next job ``job_id`` (its id aside, the
        same object as the last single job's).

        Raises:
            InputError: ``job_id`` was taken.
        """
        run = self._run
        if run is None or job_id in self.singles:
            _check_single(job_id, self.singles, self.stanzas, f"{self.source}: job {i}")
            self.prev_next = _next_id(job_id)
        else:
            self.singles.add(job_id)
            proc = run[1] + 1
            self._run = (run[0], proc)
            self.prev_next = f"{run[0]}.{proc}"
        self.extra += 1

    def _start(self, batch: JobBatch) -> None:
        self.finish()
        self.batches.append(batch)
        cluster, _, proc = batch.job.id.partition(".")
        fast = batch.count == 1 and proc.isdecimal() and proc.isascii()
        self._run = (cluster, int(proc) + 1) if fast and cluster not in self.stanzas else None

    def add(self, obj: Any, i: int) -> None:
        """The ``i``-th job object: it extends the last batch or starts a new one.

        Raises:
            InputError: a malformed job or a duplicate id.
        """
        where = f"{self.source}: job {i}"
        if isinstance(obj, dict) and obj.get("count", 1) == 1 and isinstance(obj.get("id"), str):
            job_id = obj.pop("id")
            same = self.prev_rest is not None and job_id == self.prev_next and obj == self.prev_rest
            obj["id"] = job_id
            if same:
                self.extend(job_id, i)
                return
        count = obj.get("count", 1) if isinstance(obj, dict) else 1
        if count == 1 or not isinstance(obj, dict):
            for job in parse_job(obj, where):
                _check_single(job.id, self.singles, self.stanzas, where)
                self._start(JobBatch(job))
                self.prev_rest = {k: v for k, v in obj.items() if k != "id"}
                self.prev_next = _next_id(job.id)
            return
        self.prev_rest = None
        self._add_stanza(obj, count, where)

    def _add_stanza(self, obj: dict[str, Any], count: Any, where: str) -> None:
        proto = parse_job({**obj, "count": 1}, where)[0]  # validates every field
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InputError(f"{where}.count: expected a whole number of at least 1, got {count!r}")
        if count > MAX_JOB_COUNT:
            raise InputError(f"{where}.count: expected at most {MAX_JOB_COUNT:,} jobs, got {count}")
        cluster = proto.id.split(".", 1)[0]
        if cluster in self.stanzas or self.singles.has_cluster(cluster):
            raise InputError(f"{where}: duplicate job id '{cluster}.0'")
        self.stanzas[cluster] = count
        first = f"{cluster}.0"
        self._start(JobBatch(proto if proto.id == first else replace(proto, id=first), count))


def _next_id(job_id: str) -> str:
    cluster, _, proc = job_id.partition(".")
    return f"{cluster}.{int(proc) + 1}" if ascii_digits(proc) else ""


def _check_single(job_id: str, singles: TakenIds, stanzas: dict[str, int], where: str) -> None:
    cluster, _, proc = job_id.partition(".")
    taken = job_id in singles or (
        cluster in stanzas and ascii_digits(proc) and int(proc) < stanzas[cluster]
    )
    if taken:
        raise InputError(f"{where}: duplicate job id '{job_id}'")
    singles.add(job_id)


class TakenIds:
    """The ids of the single jobs read so far, a million of them without a million strings.

    An id ``C.P`` whose ``P`` is written as Python writes an int (``1.0``, ``1.17``, not
    ``1.017``) is kept as a range of procs of cluster ``C``; any other id as itself.
    """

    def __init__(self) -> None:
        #: cluster -> the bounds of its taken procs: [lo, hi) pairs, sorted, apart
        self._ranges: dict[str, list[int]] = {}
        self._others: set[str] = set()

    @staticmethod
    def _split(job_id: str) -> tuple[str, int] | None:
        cluster, dot, proc = job_id.partition(".")
        if dot and proc.isdecimal() and proc.isascii() and (proc == "0" or proc[0] != "0"):
            return cluster, int(proc)
        return None

    def __contains__(self, job_id: object) -> bool:
        if not isinstance(job_id, str):
            return False
        split = self._split(job_id)
        if split is None:
            return job_id in self._others
        bounds = self._ranges.get(split[0])
        return bounds is not None and bisect_right(bounds, split[1]) % 2 == 1

    def add(self, job_id: str) -> None:
        """Take ``job_id``."""
        split = self._split(job_id)
        if split is None:
            self._others.add(job_id)
        else:
            self.add_range(split[0], split[1], split[1] + 1)

    def add_range(self, cluster: str, lo: int, hi: int) -> None:
        """Take ``cluster.lo`` … ``cluster.(hi-1)`` (``lo < hi``)."""
        bounds = self._ranges.setdefault(cluster, [])
        if not bounds or lo > bounds[-1]:
            bounds += (lo, hi)
        elif lo == bounds[-1]:
            bounds[-1] = hi
        else:  # out of order: merge with whatever it touches
            i = bisect_right(bounds, lo)
            j = bisect_right(bounds, hi)
            if i % 2 == 1:  # lo falls inside a range: start there
                i -= 1
                lo = bounds[i]
            elif i > 0 and bounds[i - 1] == lo:  # touches the range before
                i -= 2
                lo = bounds[i]
            if j % 2 == 1:  # hi falls inside (or touches) a range: end there
                hi = max(hi, bounds[j])
                j += 1
            bounds[i:j] = [lo, hi]

    def next_taken(self, cluster: str, proc: int) -> float:
        """The least taken proc of ``cluster`` at or after ``proc`` (inf: none)."""
        bounds = self._ranges.get(cluster)
        if not bounds:
            return math.inf
        i = bisect_right(bounds, proc)
        if i % 2 == 1:
            return proc
        return bounds[i] if i < len(bounds) else math.inf

    def has_cluster(self, cluster: str) -> bool:
        """Whether an id of ``cluster`` (its text before the first dot) is taken."""
        if self._ranges.get(cluster):
            return True
        return any(s.split(".", 1)[0] == cluster for s in self._others)
