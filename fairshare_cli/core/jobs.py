"""The job queue: one job object serves HTCondor, Slurm and DIRAC (docs/jobs.md)."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fairshare_cli.core.epoch import parse_time
from fairshare_cli.core.limits import INT64_MAX, INT64_MIN, MAX_JOB_COUNT, TIME_MAX, TIME_MIN
from fairshare_cli.core.names import ascii_digits, check_name, name_problem
from fairshare_cli.errors import InputError, did_you_mean

JOB_STATUSES = ("idle", "running", "held", "completed", "removed")


@dataclass(frozen=True)
class Job:
    """One job; only ``id`` and ``owner`` are required on input."""

    id: str
    owner: str
    accounting_group: str | None = None
    nice_user: bool = False
    job_prio: int = 0
    submit_time: float | None = None
    #: Slurm's EligibleTime and AccrueTime (sprio's AGE counts from the accrue time,
    #: else from ``submit_time``).
    eligible_time: float | None = None
    accrue_time: float | None = None
    status: str = "idle"
    request_cpus: int = 1
    request_memory: int = 0
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
    num_nodes: int = 1
    time_limit: float | None = None
    nice: int = 0
    site_factor: int = 0
    #: Slurm admin-set priority (``scontrol update job priority=N``): bypasses the factors.
    admin_priority: int | None = None
    dirac_group: str | None = None
    #: DIRAC's UserPriority; TaskQueueDB keeps ``int()`` of it (a float is truncated).
    user_priority: float = 1
    dirac_requirements: Mapping[str, Any] = field(default_factory=dict)
    slot: str | None = None
    start_time: float | None = None
    run_time: float | None = None
    pre_job_prio1: int = 0
    pre_job_prio2: int = 0
    post_job_prio1: int = 0
    post_job_prio2: int = 0
    attributes: Mapping[str, Any] = field(default_factory=dict)

    @property
    def partitions(self) -> tuple[str, ...]:
        """The partitions the job may run in (``"batch,express"`` lists two)."""
        return split_partitions(self.partition)

    @property
    def cluster_proc(self) -> tuple[int, int]:
        """(ClusterId, ProcId) from an id like ``12.3``; non-numeric ids sort last."""
        return cluster_proc(self.id)


def split_partitions(partition: str | None) -> tuple[str, ...]:
    """``"batch,express"`` -> ``("batch", "express")``; empty or None -> ``()``."""
    if not partition:
        return ()
    return tuple(p.strip() for p in partition.split(",") if p.strip())


def cluster_proc(job_id: str) -> tuple[int, int]:
    """(ClusterId, ProcId) from an id like ``12.3``; non-numeric ids sort last."""
    head, _, tail = job_id.partition(".")
    if ascii_digits(head) and (not tail or ascii_digits(tail)):
        return int(head), int(tail or 0)
    return (2**62, 0)


_FIELDS = {f for f in Job.__dataclass_fields__}
_INT_FIELDS = {
    "job_prio",
    "request_cpus",
    "request_memory",
    "num_nodes",
    "nice",
    "site_factor",
    "admin_priority",
    "pre_job_prio1",
    "pre_job_prio2",
    "post_job_prio1",
    "post_job_prio2",
}
_TIME_FIELDS = {"submit_time", "start_time", "eligible_time", "accrue_time"}
_STR_FIELDS = {
    "id",
    "owner",
    "accounting_group",
    "requirements",
    "rank",
    "concurrency_limits",
    "concurrency_limits_expr",
    "account",
    "partition",
    "qos",
    "dirac_group",
    "slot",
    "status",
}


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


def parse_job(obj: Any, where: str) -> list[Job]:
    """One job object (or ``count`` identical ones) from its JSON form.

    Raises:
        InputError: naming ``where`` and the field.
    """
    if not isinstance(obj, Mapping):
        raise InputError(f"{where}: expected a job object, got {type(obj).__name__}")
    for req in ("id", "owner"):
        if obj.get(req) is None:
            raise InputError(f"{where}: missing required field '{req}'")
    kw: dict[str, Any] = {}
    count = 1
    for key, value in obj.items():
        # the usual values inline (benchmarks row negotiate-batches: a stanza per cluster)
        quick = _quick(key, value)
        if quick is not _SLOW:
            kw[key] = quick
            continue
        if key == "count":
            count = _count(value, f"{where}.{key}")
            continue
        parse = _PARSERS.get(key)
        if parse is None:
            extra = did_you_mean(key, sorted(_FIELDS | {"count"})) or " (fields: docs/jobs.md)"
            raise InputError(f"{where}: unknown job field '{key}'{extra}")
        if value is not None:
            kw[key] = _read_field(parse, key, value, where)
    status = kw.get("status", "idle")
    if status not in JOB_STATUSES:
        raise InputError(
            f'{where}.status: expected one of {", ".join(JOB_STATUSES)}, got "{status}"'
        )
    if count == 1:
        return [make_job(kw)]
    cluster = kw["id"].split(".", 1)[0]
    return [make_job({**kw, "id": f"{cluster}.{i}"}) for i in range(count)]


#: :func:`_quick`'s answer for a value it leaves to the field's parser.
_SLOW: Any = object()


def _quick(key: str, value: Any) -> Any:
    """``value`` of field ``key`` as its parser reads it, when it is a usual one (a whole
    number in range, a time in epoch seconds, a string, a good name); else :data:`_SLOW`."""
    kind = _FAST_KIND.get(key)
    if kind is _WHOLE:
        if type(value) is int and _INT_LOW[key] <= value <= INT64_MAX:
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


def make_job(fields: Mapping[str, Any]) -> Job:
    """``Job(**fields)`` for fields already read by :func:`parse_job` (``id`` and ``owner``
    among them), without the frozen dataclass's per-field ``__init__`` (a sixth of the
    cost: called per ``count`` stanza of a jobs file, benchmarks row negotiate-batches)."""
    job: Job = object.__new__(Job)
    attrs = job.__dict__
    attrs.update(_DEFAULTS)  # in field order, as __init__ sets them
    attrs["dirac_requirements"] = {}
    attrs["attributes"] = {}
    attrs.update(fields)
    return job


def check_job_field(key: str, value: Any, where: str) -> None:
    """Refuse ``value`` of job field ``key`` as :func:`parse_job` would (None is absent).

    For readers that decode a job's fields themselves (``fs taskqueues``'s streamed
    reader): the same rule, the same message.

    Raises:
        InputError: naming ``where`` and ``key``; KeyError: ``key`` is not a job field.
    """
    if key == "count":
        _count(value, f"{where}.{key}")
        return
    if value is not None:
        _read_field(_PARSERS[key], key, value, where)


def _read_field(parse: Callable[[Any, str], Any], key: str, value: Any, where: str) -> Any:
    """One non-null field's value as :func:`parse_job` reads it (amounts checked too)."""
    parsed = parse(value, f"{where}.{key}")
    low = _LOWEST.get(key)
    if low is not None and parsed < low:
        raise InputError(f"{where}.{key}: expected {low} or more, got {value!r}")
    return parsed


def job_field_kind(key: str) -> str:
    """How field ``key`` is read: whole, time, duration, flag, number, object, text, name,
    partition or id (the rules of :func:`parse_job`; ``count`` is whole)."""
    if key == "count":
        return "whole"
    return _KINDS[_PARSERS[key]]


def lowest_job_value(key: str) -> int | None:
    """The least value of a whole-number field that is an amount, or None."""
    return _LOWEST.get(key)


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


def _object(value: Any, w: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(f"{w}: expected an object")
    return dict(value)


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
_LOWEST = {"request_cpus": 0, "request_memory": 0, "num_nodes": 1}


#: How each job field is read from JSON (every field of :class:`Job` has one).
_PARSERS: dict[str, Callable[[Any, str], Any]] = {
    **dict.fromkeys(_INT_FIELDS, _whole),
    **dict.fromkeys(_TIME_FIELDS, parse_time),
    "time_limit": _duration,
    "run_time": _duration,
    "nice_user": _flag,
    "user_priority": _finite,
    "dirac_requirements": _object,
    "attributes": _object,
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
#: The least value :func:`_whole` with :data:`_LOWEST` accepts, per whole-number field.
_INT_LOW = {key: max(INT64_MIN, _LOWEST.get(key, INT64_MIN)) for key in _INT_FIELDS}
#: Every field's default, in field order (``id`` and ``owner`` have none and the two
#: mappings are made fresh per job: placeholders).
_DEFAULTS = {f.name: f.default for f in Job.__dataclass_fields__.values()}

_KINDS: dict[Callable[[Any, str], Any], str] = {
    _whole: "whole",
    parse_time: "time",
    _duration: "duration",
    _flag: "flag",
    _finite: "number",
    _object: "object",
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
        InputError: not a list, a malformed job, a duplicate id or two running jobs on
            one slot.
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


#: Each field of a job in order, with the value a job has when it is not given.
_FIELD_DEFAULTS = tuple(Job(id="", owner="").__dict__.items())
_PLAIN = (str, int, float, bool, type(None))


def job_to_json(job: Job) -> dict[str, Any]:
    """The JSON form of a job (fields at their defaults are left out): ``asdict`` of it
    without those, read straight off the job (``asdict`` deep-copies every value: a third
    of ``fs import squeue``'s time at 100,000 jobs); only the mappings are copied."""
    out: dict[str, Any] = {}
    values = job.__dict__
    for key, default in _FIELD_DEFAULTS:
        value = values[key]
        if value != default or key == "id" or key == "owner":
            if type(value) not in _PLAIN:  # a job's own mappings (JSON data): a copy
                value = copy.deepcopy(value)
            # An infinite time limit or run time is stored as Slurm writes it.
            out[key] = "INFINITE" if value == math.inf else value
    return out
