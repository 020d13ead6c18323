"""The task queues of a jobs file: ``fs taskqueues`` reads it through the jobs reader.

Tuned for ``benchmarks/run.py`` row ``taskqueues`` (a million jobs in 5000 queues): the
jobs reader (:func:`~fairshare_cli.io.jobs.read_jobs`) decodes and checks each piece of
the file into records whose task-queue fields stay raw JSON text
(:func:`~fairshare_cli.io.job_records.raw_job_record`), and the sink here counts each job's key,
those texts joined, in C. Only the distinct keys (about one per queue and priority) are
decoded, checked as the job parser would and turned into task-queue definitions.

What the sink refuses (a value the job parser refuses, a requirement value that is not a
number, a name or a list of names, a definition DIRAC refuses) sends the file to the
object path (:func:`~fairshare_cli.core.dirac.jobs.task_queues_from_objects`), whose
messages are the job parser's or name the job.
"""

from __future__ import annotations

import itertools
from array import array
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from typing import Any

from fairshare_cli.core.config import DiracGroupSpec, DiracJobDescription
from fairshare_cli.core.dirac.description import DEFAULT_JOB_DESCRIPTION, priority_problem
from fairshare_cli.core.dirac.jobs import (
    WAITING_STATUSES,
    ReplayHook,
    check_entry_fields,
    definition_key,
    overflowed,
    task_queues_from_objects,
)
from fairshare_cli.core.dirac.requirements import definer
from fairshare_cli.core.dirac.taskqueues import TaskQueue, build_task_queues
from fairshare_cli.core.jobs import parse_jobs
from fairshare_cli.io.inputs import fast_loads
from fairshare_cli.io.job_records import raw_job_record, text_seconds
from fairshare_cli.io.jobs import JOBS_TEXT, load_job_objects, read_jobs
from fairshare_cli.io.json_keys import surely_distinct
from fairshare_cli.io.spool import spooled

__all__ = ["KEY_FIELDS", "QUEUE_RECORD", "TaskQueueKeys", "task_queues_from_file"]

KEY_FIELDS = ("owner", "dirac_group", "dirac_requirements", "status", "count", "user_priority")
"""The job fields a task queue reads, as raw JSON texts joined into a job's key: first the
three its definition reads (a key's head), then the three it does not."""

QUEUE_RECORD = raw_job_record(
    KEY_FIELDS,
    (
        "id",
        "owner",
        "dirac_group",
        "status",
        "submit_time",
        "user_priority",
        "dirac_requirements",
        "count",
    ),
)
"""The record ``fs taskqueues`` reads a jobs file into: a job, its task-queue fields as
text (checked here, once per distinct text); no ``user_priority`` is ``null``, as the
pool's ``default_priority`` stands for it."""

QueueJob = tuple[int, "int | float", int]
"""A waiting job as :func:`~fairshare_cli.core.dirac.taskqueues.build_task_queues` takes
it: (its definition key's number, user priority, count)."""


class TaskQueueKeys:
    """A jobs-reader sink counting each job's key: the raw texts of its :data:`KEY_FIELDS`
    joined by a NUL byte (which JSON text cannot hold), so that counting hashes one short
    ``bytes`` per job. It counts each distinct key (in order of first sight), or, when
    ``ordered``, numbers them and records each job's number in file order (to replay a
    full queue one job at a time)."""

    def __init__(self, ordered: bool = False) -> None:
        self.counts: Counter[bytes] = Counter()
        self.index: dict[bytes, int] = {}
        self.order: array[int] | None = array("q") if ordered else None
        self._serial = itertools.count()
        self.latest_submit: tuple[float, str] | None = None

    def add(self, jobs: list[Any]) -> None:
        """Count the keys of ``jobs`` (hot loop of ``benchmarks/run.py`` row ``taskqueues``:
        every per-job step is a C call over the piece)."""
        self.latest_submit = latest_submitted(jobs, self.latest_submit)
        keys = map(_JOIN, map(_KEY, jobs))
        if self.order is not None:
            self.order.extend(map(self.index.setdefault, keys, self._serial))
        else:
            self.counts.update(keys)

    def raw_commas(self) -> int:
        """The commas in the raw texts of the jobs counted (the jobs reader's check that
        no object gave a key twice: :class:`~fairshare_cli.io.job_shapes.Shapes`)."""
        if self.order is None:
            return sum(key.count(b",") * n for key, n in self.counts.items())
        commas = {number: key.count(b",") for key, number in self.index.items()}
        return sum(map(commas.__getitem__, self.order))

    def queue_jobs(
        self, description: DiracJobDescription = DEFAULT_JOB_DESCRIPTION
    ) -> tuple[list[QueueJob | None], list[tuple[Any, ...]]]:
        """Each distinct key's job as a task queue takes it (None: a job no queue holds),
        in the order of :attr:`counts` (or of :attr:`index`, when ordered), and the
        definition keys its numbers stand for: one per distinct head (owner, group and
        requirements texts) of a waiting job, made once (a million jobs have some 90,000
        keys but 15,000 heads: ``benchmarks/run.py`` row ``taskqueues``).

        Each distinct text of a field is decoded and checked once, as the job parser would
        (:func:`~fairshare_cli.core.dirac.jobs.check_entry_fields`).

        Raises:
            ValueError: a value the job parser would refuse; TypeError: a requirement
                value that is not a number, a name or a list of names.
        """
        keys = self.index if self.order is not None else self.counts
        rows = [key.rsplit(b"\x00", 3) for key in keys]  # head, status, count, priority
        heads = {head: head.split(b"\x00") for head in dict.fromkeys(row[0] for row in rows)}
        columns = [{texts[i] for texts in heads.values()} for i in range(3)]
        columns += [{row[i] for row in rows} for i in range(1, 4)]
        values = {text: fast_loads(text, _UNREAD) for column in columns for text in column}
        if _UNREAD in values.values():  # (never: each text is msgspec's own)
            raise ValueError("a field's text that is not JSON")
        objects = ((text, value) for text, value in values.items() if b"{" in text)
        if not all(surely_distinct(text, value) for text, value in objects):
            raise ValueError("a key given twice, maybe")  # (the object path names it)
        owners, groups, reqs, statuses, counts, priorities = (
            [values[text] for text in column] for column in columns
        )
        check_entry_fields(owners, groups, priorities, counts, statuses, reqs)
        numbers: dict[bytes, int | None] = {}  # (None: a head without a group)
        defined: list[tuple[Any, ...]] = []
        jobs: list[QueueJob | None] = []
        refused = {text for text in columns[5] if priority_problem(values[text], description)}
        default = description.default_priority
        for head, status, count, priority in rows:
            number = numbers.get(head, -1) if values[status] in WAITING_STATUSES else None
            if number == -1:
                owner, group, req = map(values.__getitem__, heads[head])
                if group is not None:
                    number = len(defined)
                    defined.append(definition_key(owner, group, req))
                numbers[head] = number = None if group is None else number
            if number is None:
                jobs.append(None)
            else:
                if priority in refused:
                    raise ValueError("user_priority")  # (the object path names the job)
                user_priority = values[priority]
                if user_priority is None:
                    user_priority = default
                jobs.append((number, user_priority, values[count]))
        return jobs, defined


def latest_submitted(
    jobs: list[Any], latest: tuple[float, str] | None = None
) -> tuple[float, str] | None:
    """The latest ``submit_time`` of ``jobs`` (records or jobs; a time written as text read
    by the job parser's rule) and its job's id, the first of equals, if later than
    ``latest`` (else ``latest``): what ``fs taskqueues`` refuses when after ``--now``."""
    times = set(map(_SUBMIT, jobs))
    times.discard(None)
    if not times:
        return latest
    seconds = {t: text_seconds("submit_time", t) if type(t) is str else t for t in times}
    top = max(seconds.values())
    if latest is not None and top <= latest[0]:
        return latest
    first = next(job for job in jobs if seconds.get(job.submit_time) == top)
    return top, first.id


_KEY = attrgetter(*KEY_FIELDS)
_SUBMIT = attrgetter("submit_time")
#: What :func:`~fairshare_cli.io.inputs.fast_loads` gives for a text it cannot read.
_UNREAD = object()
_JOIN = b"\x00".join


def task_queues_from_file(
    path: str,
    groups: Mapping[str, DiracGroupSpec],
    segments: Sequence[int],
    description: DiracJobDescription = DEFAULT_JOB_DESCRIPTION,
    replay_with: ReplayHook | None = None,
    on_latest: Callable[[float, str], None] | None = None,
) -> list[TaskQueue]:
    """The task queues of a jobs file (``-`` is stdin); ``on_latest`` is given the latest
    ``submit_time`` and its job's id, once the file is read (``fs taskqueues`` refuses a
    job queued after ``--now``) and before its queues are made.

    Gives exactly what :func:`~fairshare_cli.core.dirac.jobs.task_queues_from_objects` gives
    for the file's objects once every job passed the job parser, errors included. Stdin or
    a pipe is first copied to a temporary file, so that it too can be read again.

    Raises:
        InputError: the file cannot be read, is not a list of valid jobs, ...
    """
    with spooled(path, JOBS_TEXT, documents=True, json=True) as readable:
        return _from_path(readable, path, groups, segments, description, replay_with, on_latest)


def _from_path(
    path: str,
    name: str,
    groups: Mapping[str, DiracGroupSpec],
    segments: Sequence[int],
    description: DiracJobDescription,
    replay_with: ReplayHook | None,
    on_latest: Callable[[float, str], None] | None,
) -> list[TaskQueue]:
    def read(ordered: bool) -> TaskQueueKeys:
        return read_jobs(
            path, lambda: TaskQueueKeys(ordered), label=name, source=name, record=QUEUE_RECORD
        )

    define_key = definer(groups, segments, description)
    try:
        sink = read(False)
        if on_latest is not None and sink.latest_submit is not None:
            on_latest(*sink.latest_submit)
        jobs, keys = sink.queue_jobs(description)
        define = lambda number: define_key(keys[number])  # noqa: E731
        counted: list[QueueJob] = []
        for job, n in zip(jobs, sink.counts.values(), strict=True):
            if job is not None:
                number, priority, count = job
                counted.append((number, priority, count * n))
        queues = build_task_queues(counted, define)
        hook = None if replay_with is None else replay_with(queues)
        if overflowed(queues) or hook is not None:
            sink = read(True)
            jobs, keys = sink.queue_jobs(description)
            assert sink.order is not None
            codes = {code: i for i, code in enumerate(sink.index.values())}
            waiting = (jobs[codes[code]] for code in sink.order)
            queues = build_task_queues(
                (job for job in waiting if job is not None), define, on_new_queue=hook
            )
        return queues
    except (ValueError, TypeError):
        pass
    objs = load_job_objects(path, name)
    parsed = parse_jobs(objs, name)
    if on_latest is not None and (latest := latest_submitted(parsed)) is not None:
        on_latest(*latest)
    return task_queues_from_objects(objs, name, groups, segments, description, replay_with)
