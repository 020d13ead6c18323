"""Waiting DIRAC jobs from raw job objects, grouped without an object per job.

``fs taskqueues`` must read a million jobs in seconds, so it does not build a
:class:`~fairshare_cli.core.jobs.Job` for each: every waiting job with a ``dirac_group``
becomes a cheap key tuple, and each distinct key is checked and turned into a task-queue
definition once. Anything odd sends the input through the full job parser, so a bad file
gets the same one-line message as everywhere else.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from fairshare_cli.core.config import DiracGroupSpec
from fairshare_cli.core.dirac import TaskQueue, TaskQueueDefinition, build_task_queues, cpu_segment
from fairshare_cli.core.jobs import JOB_STATUSES, Job, parse_jobs
from fairshare_cli.errors import InputError

DEFAULT_CPU_TIME = 86400
"""A job's CPU time when it gives none (DIRAC's ``JobDescription/DefaultCPUTime``)."""

REQUIREMENT_KEYS = (
    "cpu_time",
    "sites",
    "banned_sites",
    "platform",
    "platforms",
    "job_type",
    "job_types",
    "tags",
)
"""Keys of a job's ``dirac_requirements``; singular and plural forms add up."""

_JOB_FIELDS = frozenset(Job.__dataclass_fields__) | {"count"}


class _Odd(Exception):
    """Something the fast path does not handle; the full parser will say what."""


def _frozen(value: Any) -> Any:
    return tuple(value) if type(value) is list else value


def _job_key(obj: Any) -> Hashable:
    """The cheap grouping key of one job object (equal keys, equal task queue)."""
    req = obj.get("dirac_requirements")
    if req is None:
        rkey: Hashable = None
    else:
        g = req.get
        rkey = (
            tuple(req),
            g("cpu_time"),
            _frozen(g("sites")),
            _frozen(g("banned_sites")),
            _frozen(g("platform")),
            _frozen(g("platforms")),
            _frozen(g("job_type")),
            _frozen(g("job_types")),
            _frozen(g("tags")),
        )
    return (obj["owner"], obj["dirac_group"], rkey, tuple(obj))


def waiting_jobs(objs: Sequence[Any], source: str) -> list[tuple[Hashable, Any]]:
    """``(key, user_priority)`` for each waiting (idle) job with a DIRAC group, in order.

    Jobs without ``dirac_group`` are not DIRAC's and are skipped, as are jobs not idle.
    ``count`` expands to that many jobs.

    Raises:
        InputError: a malformed job, with the full job parser's message.
    """
    out: list[tuple[Hashable, Any]] = []
    append = out.append
    ids: set[Any] = set()
    add_id = ids.add
    expanded = False
    try:
        for obj in objs:
            add_id(obj["id"])
            if "owner" not in obj:
                raise _Odd
            if obj.get("dirac_group") is None:
                continue
            status = obj.get("status", "idle")
            if status != "idle":
                if status not in JOB_STATUSES:
                    raise _Odd
                continue
            pair = (_job_key(obj), obj.get("user_priority", 1))
            count = obj.get("count", 1)
            if count == 1:
                append(pair)
            elif type(count) is int and count > 1:
                out.extend([pair] * count)
                expanded = True
            else:
                raise _Odd
        if expanded:
            _check_ids(objs, source)
        elif len(ids) != len(objs):
            raise _Odd
    except (_Odd, KeyError, TypeError, AttributeError):
        parse_jobs(objs, source)
        raise InputError(f"{source}: a job is malformed") from None
    return out


def _check_ids(objs: Sequence[Any], source: str) -> None:
    """Full duplicate-id check when ``count`` expanded some jobs."""
    seen: set[str] = set()
    for i, obj in enumerate(objs):
        count = obj.get("count", 1)
        base = str(obj["id"])
        names = [base] if count == 1 else [f"{base.split('.', 1)[0]}.{k}" for k in range(count)]
        for name in names:
            if name in seen:
                raise InputError(f"{source}: job {i}: duplicate job id '{name}'")
            seen.add(name)


def definer(
    groups: Mapping[str, DiracGroupSpec], segments: Sequence[int]
) -> Callable[[Hashable], TaskQueueDefinition]:
    """Turn a :func:`_job_key` into a task-queue definition, checking it.

    Raises (from the returned function):
        ValueError: the message says what is wrong with the job.
    """

    def define(key: Hashable) -> TaskQueueDefinition:
        owner, group, rkey, fields = key  # type: ignore[misc]
        unknown = [f for f in fields if f not in _JOB_FIELDS]
        if unknown:
            raise ValueError(_unknown("job field", unknown[0], sorted(_JOB_FIELDS)))
        if not isinstance(owner, str) or not owner:
            raise ValueError(f"owner: expected a user name, got {owner!r}")
        if not isinstance(group, str):
            raise ValueError(f"dirac_group: expected a string, got {group!r}")
        if group not in groups:
            hint = difflib.get_close_matches(group, sorted(groups), n=1)
            extra = f" (did you mean '{hint[0]}'?)" if hint else ""
            known = ", ".join(sorted(groups)) or "none configured"
            raise ValueError(
                f"dirac_group: '{group}' is not in [dirac.groups]{extra}; known: {known}"
            )
        if rkey is None:
            return TaskQueueDefinition(owner, group, cpu_segment(DEFAULT_CPU_TIME, segments))
        names, cpu, sites, banned, platform, platforms, job_type, job_types, tags = rkey
        for name in names:
            if name not in REQUIREMENT_KEYS:
                raise ValueError(_unknown("dirac_requirements key", name, REQUIREMENT_KEYS))
        if cpu is None:
            cpu = DEFAULT_CPU_TIME
        if isinstance(cpu, bool) or not isinstance(cpu, (int, float)) or not cpu >= 0:
            raise ValueError(
                f"dirac_requirements.cpu_time: expected seconds (0 or more), got {cpu!r}"
            )
        return TaskQueueDefinition(
            owner=owner,
            group=group,
            cpu_time=cpu_segment(cpu, segments),
            sites=_names("sites", sites),
            banned_sites=_names("banned_sites", banned),
            platforms=_names("platform", platform, _names("platforms", platforms)),
            job_types=_names("job_type", job_type, _names("job_types", job_types)),
            tags=_names("tags", tags),
        )

    return define


def _unknown(what: str, name: str, known: Sequence[str]) -> str:
    hint = difflib.get_close_matches(name, known, n=1)
    extra = f" (did you mean '{hint[0]}'?)" if hint else ""
    return f"unknown {what} '{name}'{extra}"


def _names(key: str, value: Any, more: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A set of names (a string is one name, "" none) as a sorted tuple."""
    if value is None:
        items: tuple[Any, ...] = ()
    elif isinstance(value, str):
        items = (value,)
    elif isinstance(value, tuple):
        items = value
    else:
        raise ValueError(
            f"dirac_requirements.{key}: expected a name or a list of names, got {value!r}"
        )
    if not all(isinstance(v, str) for v in items):
        raise ValueError(f"dirac_requirements.{key}: expected names (strings), got {list(items)!r}")
    return tuple(sorted({v for v in (*items, *more) if v}))


def task_queues_from_objects(
    objs: Sequence[Any],
    source: str,
    groups: Mapping[str, DiracGroupSpec],
    segments: Sequence[int],
) -> list[TaskQueue]:
    """Task queues of the waiting DIRAC jobs among raw job objects (a jobs file or the state).

    Raises:
        InputError: naming ``source``, the job and the field.
    """
    jobs = waiting_jobs(objs, source)
    define = definer(groups, segments)
    try:
        queues = build_task_queues(jobs, define)
    except (ValueError, TypeError) as exc:
        parse_jobs(objs, source)  # a field any job must get right: the usual message
        raise InputError(_locate(objs, source, define, str(exc))) from None
    for queue in queues:
        for prio, _ in queue.priority_counts:
            whole = isinstance(prio, int) or (isinstance(prio, float) and prio.is_integer())
            if isinstance(prio, bool) or not whole:
                parse_jobs(objs, source)
                raise InputError(f"{source}: user_priority {prio!r} is not a whole number")
    return queues


def _locate(
    objs: Sequence[Any], source: str, define: Callable[[Hashable], object], message: str
) -> str:
    """Name the first waiting job whose key gives ``message``."""
    for i, obj in enumerate(objs):
        if obj.get("dirac_group") is None or obj.get("status", "idle") != "idle":
            continue
        try:
            define(_job_key(obj))
        except ValueError as exc:
            if str(exc) == message:
                return f"{source}: job {i} ('{obj['id']}'): {message}"
    return f"{source}: {message}"
