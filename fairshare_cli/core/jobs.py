"""The job queue: one job object serves HTCondor, Slurm and DIRAC (docs/jobs.md)."""

from __future__ import annotations

import copy
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import chain, compress
from operator import attrgetter, ne
from types import MappingProxyType
from typing import Annotated, Any

from msgspec import Meta, Struct, ValidationError, convert
from msgspec.json import encode
from msgspec.structs import astuple, replace

from fairshare_cli.core.job_fields import (
    JOB_STATUSES,
    SLUID_PATTERN,
    given_twice,
    job_label,
    read_job_fields,
)
from fairshare_cli.core.limits import (
    INT64_MAX,
    INT64_MIN,
    MAX_JOB_COUNT,
    NICE_LIMIT,
    SLURM_PRIORITY_MAX,
    TIME_MAX,
    TIME_MIN,
    UINT32_MAX,
)
from fairshare_cli.core.literals import Literal
from fairshare_cli.core.names import cluster_proc, names_pass
from fairshare_cli.errors import InputError

#: The ``attributes`` and ``dirac_requirements`` of a job that gives none: one read-only
#: empty mapping shared by every such job (a million jobs need not hold two million dicts).
NO_FIELDS: Mapping[str, Any] = MappingProxyType({})
#: Fields a job may leave out for the pool config to fill in (DIRAC's ``DefaultPriority``).
POOL_DEFAULTS = frozenset(("user_priority",))

_Whole = Annotated[int, Meta(ge=INT64_MIN, le=INT64_MAX)]
_Amount = Annotated[int, Meta(ge=0, le=INT64_MAX)]
_Time = Annotated[float, Meta(ge=TIME_MIN, le=TIME_MAX)]
_Seconds = Annotated[float, Meta(ge=0)]
_Limit = Annotated[float, Meta(gt=0)]  # (a limit of 0 is read by _time_limit: INFINITE)
_Count = Annotated[int, Meta(ge=1, le=MAX_JOB_COUNT)]
_Nice = Annotated[int, Meta(ge=-NICE_LIMIT, le=NICE_LIMIT)]  # (Slurm's: _SLURM_RANGE)


class Job(Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """One job object (docs/jobs.md), whichever file or section it comes from; only ``id``
    and ``owner`` are required. The field types carry :func:`parse_stanza`'s ranges, so a
    jobs file decodes straight into this record (``io/jobs.py``); :func:`rules_pass` checks
    the rest. ``count`` is ``"count": N`` as read (N jobs ``C.0`` ...); a job handed out one
    by one has a count of 1.
    """

    id: str
    owner: str
    accounting_group: str | None = None
    nice_user: bool = False
    job_prio: _Whole = 0
    submit_time: _Time | None = None
    #: Slurm's EligibleTime and AccrueTime (sprio's AGE counts from the accrue time,
    #: else from ``submit_time``).
    eligible_time: _Time | None = None
    accrue_time: _Time | None = None
    status: str = "idle"
    request_cpus: _Amount = 1
    request_memory: _Amount = 0
    requirements: str | None = None
    rank: str | None = None
    #: HTCondor's ``ConcurrencyLimits`` (``"sw,db:2"``).
    concurrency_limits: str | None = None
    #: ``ConcurrencyLimits`` as a ClassAd expression evaluated against each candidate slot
    #: (``strcat("license.", TARGET.Site)``); not with ``concurrency_limits``.
    concurrency_limits_expr: str | None = None
    account: str | None = None
    partition: str | None = None
    qos: str | None = None
    #: Slurm's ``-N``: a node count N asks exactly N nodes (sbatch sets both its minimum
    #: and maximum); None, not given, asks at least one (slurmctld's ``min_nodes``, which
    #: the factors read: ``num_nodes or 1``) and as many as its CPUs need.
    num_nodes: Annotated[int, Meta(ge=1, le=INT64_MAX)] | None = None
    time_limit: _Limit | None = None
    nice: _Nice = 0
    site_factor: _Nice = 0
    #: Slurm admin-set priority (``scontrol update job priority=N``): bypasses the factors.
    admin_priority: Annotated[int, Meta(ge=0, le=SLURM_PRIORITY_MAX)] | None = None
    #: The priority slurmctld stored for a pending job, as a dump printed it (squeue's
    #: PRIORITY, scontrol's ``Priority=``): under ``PriorityFlags=INCR_ONLY`` its highest so
    #: far, below which its scheduling order does not fall.
    slurm_priority: Annotated[int, Meta(ge=1, le=UINT32_MAX)] | None = None
    #: Slurm's SLUID (25.11 on), as squeue and ``scontrol -d`` print it (``s805M8HP6BJP00``).
    sluid: Annotated[str, Meta(pattern=SLUID_PATTERN)] | None = None
    dirac_group: str | None = None
    #: DIRAC's UserPriority; TaskQueueDB keeps ``int()`` of it (a float is truncated).
    user_priority: _Whole | Annotated[float, Meta(ge=INT64_MIN, le=INT64_MAX)] = 1
    dirac_requirements: Mapping[str, Any] = NO_FIELDS
    slot: str | None = None
    #: HTCondor's ``CurrentHosts`` of a running job as ``condor_q`` printed it (None: not
    #: known, the job runs on its claim). 0: the schedd runs no shadow for it and counts it
    #: idle (``WeightedIdleJobs``) although its status says running.
    current_hosts: Annotated[int, Meta(ge=0, le=INT64_MAX)] | None = None
    start_time: _Time | None = None
    run_time: _Seconds | None = None
    pre_job_prio1: _Whole = 0
    pre_job_prio2: _Whole = 0
    post_job_prio1: _Whole = 0
    post_job_prio2: _Whole = 0
    attributes: Mapping[str, Literal] = NO_FIELDS
    count: _Count = 1

    @property
    def partitions(self) -> tuple[str, ...]:
        """The partitions the job may run in (``"batch,express"`` lists two)."""
        return split_partitions(self.partition)

    @property
    def cluster_proc(self) -> tuple[int, int]:
        """(ClusterId, ProcId) from an id like ``12.3``; non-numeric ids sort last."""
        return cluster_proc(self.id)


def split_partitions(partition: str | None) -> tuple[str, ...]:
    """``"batch,express"`` -> ``("batch", "express")``; empty or None -> ``()``. A name
    given twice counts once, where first given (``get_part_list`` skips a partition it
    already holds)."""
    if not partition:
        return ()
    return tuple(dict.fromkeys(p.strip() for p in partition.split(",") if p.strip()))


def parse_job(obj: Any, where: str) -> list[Job]:
    """One job object (or ``count`` identical ones) from its JSON form.

    Raises:
        InputError: naming ``where`` and the field.
    """
    return expand(parse_stanza(obj, where))


def expand(job: Job) -> list[Job]:
    """The jobs a job object stands for: itself, or its ``count`` jobs ``C.0`` ... each
    of count 1."""
    if job.count == 1:
        return [job]
    cluster = job.id.split(".", 1)[0]
    return [replace(job, id=f"{cluster}.{i}", count=1) for i in range(job.count)]


def alike_but_id(job: Job, before: Job | None) -> bool:
    """Whether ``job`` is ``before`` but for its id (the jobs of one ``count`` object, an
    array): every check of a job but its id's tells both alike, so a run of such jobs is
    checked at its first."""
    return before is not None and replace(job, id=before.id) == before


def json_kind(value: Any) -> str:
    """What JSON value ``value`` is, in JSON's words (``an object``, ``a string``, ``null``)
    for a refusal, not Python's (``dict``, ``str``, ``NoneType``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, (list, tuple)) else "an object"


def parse_stanza(obj: Any, where: str) -> Job:
    """One job object from its JSON form, its ``count`` kept (the exact reader: every
    field checked in Python, each refusal worded for the user).

    Raises:
        InputError: naming ``where`` and the field.
    """
    if not isinstance(obj, Mapping):
        raise InputError(f"{where}: expected a job object, got {json_kind(obj)}")
    return Job(**read_job_fields(obj, where))


def require_job_list(objs: Any, source: str) -> None:
    """Refuse anything but a list of job objects (a queue decoded from JSON).

    Raises:
        InputError: ``objs`` is not a list.
    """
    if not isinstance(objs, (list, tuple)):
        raise InputError(f"{source}: expected a list of job objects, got {json_kind(objs)}")


def parse_jobs_one_by_one(objs: Iterable[Any], source: str) -> list[Job]:
    """Jobs from a list of job objects, each read in turn in Python (:func:`parse_stanza`),
    so that a refusal names its place; ``source`` names the file in errors.

    Raises:
        InputError: not a list, a malformed job, a duplicate id or a slot running two jobs.
    """
    require_job_list(objs, source)
    jobs: list[Job] = []
    seen: dict[str, int] = {}  # each id, and the place of the object that gave it
    slots: set[str] = set()
    for i, obj in enumerate(objs):
        for job in parse_job(obj, job_label(source, obj, i)):
            if seen.setdefault(job.id, i) != i:
                raise InputError(given_twice(source, job.id, seen[job.id], i))
            if job.status == "running" and job.slot is not None:
                if job.slot in slots:
                    raise InputError(
                        f"{source}: job {job.id}: slot '{job.slot}' already runs another job"
                    )
                slots.add(job.slot)
            jobs.append(job)
    return jobs


_BLANK = Job(id="", owner="")


def parse_jobs(objs: Any, source: str) -> list[Job]:
    """Jobs from decoded job objects (the state's queue); ``source`` names the file in
    errors. Read as :func:`parse_jobs_one_by_one` reads them, but converted in C
    (``msgspec.convert``, the field types checked) and checked as the jobs-file reader
    checks a piece; what that refuses, :func:`parse_jobs_one_by_one` reads and words.

    Raises:
        InputError: not a list, a malformed job, a duplicate id or a slot running two jobs.
    """
    if type(objs) is list:
        try:
            jobs: list[Job] | None = convert(objs, list[Job], strict=True)
        except (ValidationError, RecursionError, UnicodeEncodeError):  # ("\udcff": no text)
            jobs = None
        if jobs is not None and rules_pass(jobs) and _mappings_are_text(jobs):
            if set(map(_COUNT_OF, jobs)) - {1}:
                jobs = [one for job in jobs for one in expand(job)]
            running = [j.slot for j in jobs if j.slot is not None and j.status == "running"]
            if len(set(map(_ID_OF, jobs))) == len(jobs) and len(set(running)) == len(running):
                return jobs
    return parse_jobs_one_by_one(objs, source)


def _mappings_are_text(jobs: list[Job]) -> bool:
    """Whether the ``attributes`` and ``dirac_requirements`` the jobs give hold Unicode text
    only, as :func:`parse_stanza` checks them: no lone surrogate (``"\\udcff"``, which
    Python's JSON reader gives and classad2 crashes on). Encoded in C, those given alone."""
    given = list(filter(None, chain(map(_ATTRIBUTES_OF, jobs), map(_DIRAC_OF, jobs))))
    try:
        encode(given)
    except UnicodeEncodeError:
        return False
    return True


_ATTRIBUTES_OF, _DIRAC_OF = attrgetter("attributes"), attrgetter("dirac_requirements")


#: Each field of a job in order, and the value a job has when it is not given (``id`` and
#: ``owner``, always written: a value no field holds).
_ORDER = Job.__struct_fields__
_DEFAULTS = tuple(object() if f in ("id", "owner") else getattr(_BLANK, f) for f in _ORDER)
_PLAIN = frozenset((str, int, float, bool, type(None)))


def job_to_json(job: Job) -> dict[str, Any]:
    """The JSON form of a job without the fields at their defaults, its values picked in C
    (``asdict`` deep-copies each: a third of ``fs import squeue``); mappings are copied."""
    values = astuple(job)
    out = dict(compress(zip(_ORDER, values, strict=True), map(ne, values, _DEFAULTS)))
    if math.inf in out.values():  # an infinite time limit or run time, as Slurm writes it
        out.update([(k, "INFINITE") for k, v in out.items() if v == math.inf])
    if not _PLAIN.issuperset(map(type, out.values())):  # a job's own mappings: a copy
        out.update([(k, copy.deepcopy(v)) for k, v in out.items() if type(v) not in _PLAIN])
    return out


def rules_pass(jobs: Sequence[Any], skip: Collection[str] = (), ids: Sequence[str] = ()) -> bool:
    """Whether decoded jobs pass the rules a field type cannot carry, as :func:`parse_stanza`
    reads them: ids (``ids``; none given: the jobs') and names pass the name rule (each part of
    a partition list), statuses are known; not in the fields ``skip`` (held raw or not at
    all by a projection, ``io/jobs.py``). Hot (``benchmarks/run.py`` rows
    ``negotiate-separate``, ``taskqueues``): each field's values checked at once, in C."""
    if "status" not in skip and not _STATUSES.issuperset(map(_STATUS_OF, jobs)):
        return False
    if not names_pass(ids or list(map(_ID_OF, jobs)), submitter=False):
        return False
    submitters: set[str | None] = set()
    submitters.update(*(map(get, jobs) for name, get in _SUBMITTER_NAMES if name not in skip))
    submitters.discard(None)
    partitions = set() if "partition" in skip else set(map(_PARTITION_OF, jobs))
    parts = {part for text in partitions if text is not None for part in text.split(",")}
    return names_pass(submitters, submitter=True) and names_pass(parts, submitter=False)


_ID_OF, _STATUS_OF, _PARTITION_OF = attrgetter("id"), attrgetter("status"), attrgetter("partition")
_COUNT_OF = attrgetter("count")
_SUBMITTER_NAMES = tuple(
    (n, attrgetter(n))
    for n in ("owner", "accounting_group", "account", "qos", "dirac_group", "slot")
)
_STATUSES = frozenset(JOB_STATUSES)
