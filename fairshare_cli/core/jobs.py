"""The job queue: one job object serves HTCondor, Slurm and DIRAC (docs/jobs.md)."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from itertools import compress
from operator import attrgetter, ne
from types import MappingProxyType
from typing import Annotated, Any

from msgspec import Meta, Struct, ValidationError, convert
from msgspec.structs import astuple, replace

from fairshare_cli.core.epoch import parse_time
from fairshare_cli.core.limits import (
    INT64_MAX,
    INT64_MIN,
    MAX_JOB_COUNT,
    NICE_LIMIT,
    SLURM_PRIORITY_MAX,
    TIME_MAX,
    TIME_MIN,
)
from fairshare_cli.core.literals import Literal, check_literals, check_object
from fairshare_cli.core.names import check_name, cluster_proc, name_problem, names_pass
from fairshare_cli.errors import InputError, did_you_mean

JOB_STATUSES = ("idle", "running", "held", "completed", "removed")


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
    dirac_group: str | None = None
    #: DIRAC's UserPriority; TaskQueueDB keeps ``int()`` of it (a float is truncated).
    user_priority: _Whole | Annotated[float, Meta(ge=INT64_MIN, le=INT64_MAX)] = 1
    dirac_requirements: Mapping[str, Any] = NO_FIELDS
    slot: str | None = None
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


_FIELDS = set(Job.__struct_fields__)
#: The job fields ``fs submit``'s options name otherwise (``--cpus``), and the history
#: record's ``cpus``: the field a job object spells for each, which difflib does not find.
_OPTION_FIELDS = {"cpus": "request_cpus", "memory": "request_memory", "nodes": "num_nodes"}
_INT_FIELDS = {"job_prio", "request_cpus", "request_memory", "num_nodes", "nice", "site_factor",
               "admin_priority", "pre_job_prio1", "pre_job_prio2", "post_job_prio1",
               "post_job_prio2"}  # fmt: skip
_TIME_FIELDS = {"submit_time", "start_time", "eligible_time", "accrue_time"}


def _duration(value: Any, where: str) -> float:
    from fairshare_cli.core.timestr import TimeStringError, time_str2secs

    if isinstance(value, str):
        try:
            return time_str2secs(value)
        except TimeStringError as exc:
            raise InputError(f"{where}: {exc}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise InputError(f"{where}: expected a duration of 0 or more seconds, got {value!r}")
    return float(value) if value <= 1e308 else math.inf  # a longer integer: unlimited


def _time_limit(value: Any, where: str) -> float:
    """A duration, 0 read as INFINITE: sbatch's ``--time=0`` (``arg_set_time_limit``)."""
    return _duration(value, where) or math.inf


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


def parse_stanza(obj: Any, where: str) -> Job:
    """One job object from its JSON form, its ``count`` kept (the exact reader: every
    field checked in Python, each refusal worded for the user).

    Raises:
        InputError: naming ``where`` and the field.
    """
    if not isinstance(obj, Mapping):
        raise InputError(f"{where}: expected a job object, got {type(obj).__name__}")
    kw: dict[str, Any] = {}
    for key, value in obj.items():
        quick = _quick(key, value)  # the usual values inline
        if quick is not _SLOW:
            kw[key] = quick
            continue
        if key == "count":
            kw[key] = _count(value, f"{where}.{key}")
            continue
        parse = _PARSERS.get(key)
        if parse is None:
            extra = did_you_mean(_OPTION_FIELDS.get(key.casefold()) or key, sorted(_FIELDS))
            extra = extra or " (fields: docs/jobs.md)"
            raise InputError(f"{where}: unknown job field '{key}'{extra}")
        if value is not None:
            kw[key] = _checked(parse, key, value, f"{where}.{key}")
    for req in ("id", "owner"):  # (after the unknown fields: 'Owner' is named as one)
        if kw.get(req) is None:
            how = _NO_ID if req == "id" else ""
            raise InputError(f"{where}: missing required field '{req}'{how}")
    _status(kw.get("status", "idle"), f"{where}.status")
    return Job(**kw)


#: What a job object with no id is told to give.
_NO_ID = ' (a job id, "1" or "12.0"; fs submit --file numbers the jobs that have none)'


def _status(status: str, label: str) -> str:
    if status not in JOB_STATUSES:
        raise InputError(f'{label}: expected one of {", ".join(JOB_STATUSES)}, got "{status}"')
    return status


#: :func:`_quick`'s answer for a value it leaves to the field's parser.
_SLOW: Any = object()


def _quick(key: str, value: Any) -> Any:
    """``value`` of field ``key`` as its parser reads it, when it is a usual one (a whole
    number in range, a time in epoch seconds, a string, a good name); else :data:`_SLOW`."""
    kind = _FAST_KIND.get(key)
    if kind is _WHOLE:
        if type(value) is int and _INT_LOW[key] <= value <= _INT_HIGH[key]:
            return value
    elif kind is _TEXT:
        if type(value) is str:
            return value
    elif kind is _TIME:
        if type(value) in (int, float) and TIME_MIN <= value <= TIME_MAX:
            return float(value)
    elif (
        kind is not None
        and type(value) is str
        and name_problem(value, kind is _NAME) is None  # kind _NAME or _ID
    ):
        return value
    return _SLOW


def check_job_field(key: str, value: Any, where: str) -> Any:
    """``value`` of job field ``key`` as :func:`parse_job` reads it (None is absent).

    Raises:
        InputError: naming ``where`` and ``key``; KeyError: ``key`` is not a job field.
    """
    if key == "count":
        return _count(value, f"{where}.{key}")
    return None if value is None else _checked(_PARSERS[key], key, value, f"{where}.{key}")


def check_job_option(key: str, value: Any, option: str) -> Any:
    """:func:`check_job_field` for a command-line ``option`` (``--owner: expected a name``).

    Raises:
        InputError: naming ``option``; KeyError: ``key`` is not a job field.
    """
    parsed = _checked(_PARSERS[key], key, value, option)
    return _status(parsed, option) if key == "status" else parsed


def _checked(parse: Callable[[Any, str], Any], key: str, value: Any, label: str) -> Any:
    """``value`` of field ``key`` read by ``parse`` and held to its least amount, or to
    Slurm's range; refusals start with ``label``."""
    parsed = parse(value, label)
    low = _LOWEST.get(key)
    if low is not None and parsed < low:
        raise InputError(f"{label}: expected {low} or more, got {value!r}")
    if key in _SLURM_RANGE and abs(parsed) > NICE_LIMIT:
        raise InputError(f"{label}: {_SLURM_RANGE[key]} (+/- {NICE_LIMIT}), got {value!r}")
    if key == "admin_priority" and parsed > SLURM_PRIORITY_MAX:
        raise InputError(
            f"{label}: expected 0 to {SLURM_PRIORITY_MAX} (scontrol update job priority=), "
            f"got {value!r}"
        )
    return parsed


def job_field_kind(key: str) -> str:
    """How field ``key`` is read: whole, time, duration, flag, number, object, text, name,
    partition or id (the rules of :func:`parse_job`; ``count`` is whole)."""
    if key == "count":
        return "whole"
    return _KINDS[_PARSERS[key]]


def _count(value: Any, w: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{w}: expected a whole number of at least 1, got {value!r}")
    if value > MAX_JOB_COUNT:
        raise InputError(f"{w}: expected at most {MAX_JOB_COUNT:,} jobs, got {value}")
    return value


def _whole(value: Any, w: str) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (isinstance(value, float) and not value.is_integer())
    ):
        raise InputError(f"{w}: expected a whole number, got {value!r}")
    if not INT64_MIN <= value <= INT64_MAX:
        raise InputError(f"{w}: expected a whole number that fits in 64 bits, got {value!r}")
    return int(value)


def _finite(value: Any, w: str) -> float:
    """A number that need not be whole (DIRAC's UserPriority; TaskQueueDB keeps ``int()``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{w}: expected a number, got {value!r}")
    # The range first: math.isfinite of an integer past a float's range raises.
    if not INT64_MIN <= value <= INT64_MAX or not math.isfinite(value):
        raise InputError(f"{w}: expected a finite number that fits in 64 bits, got {value!r}")
    return value


def _flag(value: Any, w: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{w}: expected true or false, got {value!r}")
    return value


def _text(value: Any, w: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"{w}: expected a string, got {value!r}")
    return value


def _job_id(value: Any, w: str) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    return check_name(_text(value, w), w)


def _name(value: Any, w: str) -> str:
    return check_name(_text(value, w), w, submitter=True)


def _partitions(value: Any, w: str) -> str:
    text = _text(value, w)
    for name in text.split(","):
        check_name(name, w)
    return text


#: The least value of whole-number fields that are amounts (``--cpus -8`` is refused too).
_LOWEST = {"request_cpus": 0, "request_memory": 0, "num_nodes": 1, "admin_priority": 0}
#: Fields held to +/- NICE_LIMIT, and how Slurm words a value beyond it (``arg_set_nice``
#: in src/common/slurm_opt.c; ``SiteFactor`` in src/scontrol/update_job.c).
_SLURM_RANGE = {"nice": "Invalid --nice value, out of range",
                "site_factor": "SiteFactor value out of range"}  # fmt: skip


#: How each job field is read from JSON (every field of :class:`Job` has one).
_PARSERS: dict[str, Callable[[Any, str], Any]] = {
    **dict.fromkeys(_INT_FIELDS, _whole),
    **dict.fromkeys(_TIME_FIELDS, parse_time),
    "time_limit": _time_limit,
    "run_time": _duration,
    "nice_user": _flag,
    "user_priority": _finite,
    "dirac_requirements": check_object,
    "attributes": check_literals,
    **dict.fromkeys(
        ("requirements", "rank", "status", "concurrency_limits", "concurrency_limits_expr"), _text
    ),
    **dict.fromkeys(("owner", "accounting_group", "account", "qos", "dirac_group", "slot"), _name),
    "partition": _partitions,
    "id": _job_id,
}


#: Field kinds whose usual values :func:`parse_job` takes inline (exactly as their parser).
_WHOLE, _TEXT, _TIME, _NAME, _ID = "whole", "text", "time", "name", "id"
_INLINE = {_whole: _WHOLE, _text: _TEXT, parse_time: _TIME, _name: _NAME, _job_id: _ID}
_FAST_KIND = {key: _INLINE[p] for key, p in _PARSERS.items() if p in _INLINE}
#: The least and most :func:`_checked` accepts, per whole-number field.
_INT_LOW = {key: max(INT64_MIN, _LOWEST.get(key, INT64_MIN)) for key in _INT_FIELDS}
_INT_HIGH = {key: NICE_LIMIT if key in _SLURM_RANGE else INT64_MAX for key in _INT_FIELDS}
_INT_LOW.update(dict.fromkeys(_SLURM_RANGE, -NICE_LIMIT))
_INT_HIGH["admin_priority"] = SLURM_PRIORITY_MAX
_KINDS: dict[Callable[[Any, str], Any], str] = {
    _whole: "whole",
    parse_time: "time",
    _duration: "duration",
    _time_limit: "duration",
    _flag: "flag",
    _finite: "number",
    check_object: "object",
    check_literals: "object",
    _text: "text",
    _name: "name",
    _partitions: "partition",
    _job_id: "id",
}


def require_job_list(objs: Any, source: str) -> None:
    """Refuse anything but a list of job objects (a queue decoded from JSON).

    Raises:
        InputError: ``objs`` is not a list.
    """
    if not isinstance(objs, (list, tuple)):
        raise InputError(f"{source}: expected a list of job objects, got {type(objs).__name__}")


def parse_jobs(objs: Iterable[Any], source: str) -> list[Job]:
    """Jobs from a list of job objects; ``source`` names the file in errors.

    Raises:
        InputError: not a list, a malformed job, a duplicate id or a slot running two jobs.
    """
    require_job_list(objs, source)
    jobs: list[Job] = []
    seen: set[str] = set()
    slots: set[str] = set()
    for i, obj in enumerate(objs):
        for job in parse_job(obj, f"{source}: job {i}"):
            if job.id in seen:
                raise InputError(f"{source}: job {i}: duplicate job id '{job.id}'")
            seen.add(job.id)
            if job.status == "running" and job.slot is not None:
                if job.slot in slots:
                    raise InputError(
                        f"{source}: job {i}: slot '{job.slot}' already runs another job"
                    )
                slots.add(job.slot)
            jobs.append(job)
    return jobs


_BLANK = Job(id="", owner="")


def jobs_from_objects(objs: Any, source: str) -> list[Job]:
    """Jobs from decoded job objects (the state's queue), as :func:`parse_jobs` reads them:
    converted in C (``msgspec.convert``, the field types checked) and checked as the
    jobs-file reader checks a piece; :func:`parse_jobs` reads and words what is refused.

    Raises:
        InputError: as :func:`parse_jobs`.
    """
    if type(objs) is list:
        try:
            jobs: list[Job] | None = convert(objs, list[Job], strict=True)
        except (ValidationError, RecursionError, UnicodeEncodeError):  # ("\udcff": no text)
            jobs = None
        if jobs is not None and rules_pass(jobs):
            if set(map(_COUNT_OF, jobs)) - {1}:
                jobs = [one for job in jobs for one in expand(job)]
            running = [j.slot for j in jobs if j.slot is not None and j.status == "running"]
            if len(set(map(_ID_OF, jobs))) == len(jobs) and len(set(running)) == len(running):
                return jobs
    return parse_jobs(objs, source)


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
