"""Waiting DIRAC jobs from raw job objects, grouped without an object per job.

``fs taskqueues`` must read a million jobs in seconds, so it does not build a
:class:`~fairshare_cli.core.jobs.Job` for each: every job becomes a flat key tuple, the
keys are counted in C, and each distinct key is checked and turned into a task-queue
definition once. What is checked: every job has an ``id`` (unique) and an ``owner``, known
field names, a known status, a whole ``count``; a waiting DIRAC job also a string
``dirac_group``, a finite ``user_priority`` and well-formed ``dirac_requirements``. Fields
that task queues do not read are not otherwise checked here: a jobs file's reader
(``io/dirac_jobs.py``) checks them, and the state's jobs were checked when written. A job
that fails goes through the full job parser, so the message is the one every other
command gives.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from fairshare_cli.core.config import DiracGroupSpec, DiracJobDescription
from fairshare_cli.core.dirac.description import (
    DEFAULT_JOB_DESCRIPTION,
    priority_problem,
)
from fairshare_cli.core.dirac.priorities import share_groups
from fairshare_cli.core.dirac.requirements import definer
from fairshare_cli.core.dirac.taskqueues import (
    NewQueueHook,
    TaskQueue,
    TaskQueueDefinition,
    build_task_queues,
)
from fairshare_cli.core.job_fields import JOB_STATUSES, given_twice, job_label
from fairshare_cli.core.jobs import Job, parse_jobs_one_by_one
from fairshare_cli.core.limits import INT64_MAX, INT64_MIN, MAX_JOB_COUNT
from fairshare_cli.core.names import dirac_group_problem, name_problem
from fairshare_cli.errors import InputError, did_you_mean

ReplayHook = Callable[[list[TaskQueue]], "NewQueueHook | None"]
"""``replay_with(queues)``: a hook to queue the jobs again one by one with, or None."""

_JOB_FIELDS = frozenset(Job.__struct_fields__)


WAITING_STATUSES = ("idle", None)
"""Statuses of a waiting job (null takes the default, as in the full parser)."""


def _entry(obj: Any) -> tuple[Any, ...]:
    """One job's flat counting key.

    A waiting DIRAC job gives ``(owner, group, user_priority, count, field names,
    requirement names, *requirement values)`` (lists made tuples; None for no
    requirements); any other job ``(status, has_owner, field names)``, which is only
    checked. Flat, because nested tuples cost a Counter dearly.
    """
    group = obj.get("dirac_group")
    status = obj.get("status")
    if group is None or status not in WAITING_STATUSES or "owner" not in obj:
        return (status, "owner" in obj, tuple(obj))
    req = obj.get("dirac_requirements")
    head = (obj["owner"], group, obj.get("user_priority"), obj.get("count", 1), tuple(obj))
    if req is None:
        return (*head, None)
    return (*head, tuple(req), *[tuple(v) if type(v) is list else v for v in req.values()])


def _definition_key(entry: tuple[Any, ...]) -> tuple[Any, ...]:
    """The part of an entry that decides the task queue (no priority, no count)."""
    return entry[:2] + entry[4:]


def _check(
    objs: Sequence[Any],
    counts: Counter[tuple[Any, ...]],
    source: str,
    description: DiracJobDescription,
) -> None:
    """Job-level checks, once per distinct entry; odd input goes to the full parser.

    Raises:
        InputError: with the full parser's message.
    """
    expanded = False
    ok = True
    for entry in counts:
        if len(entry) == 3:
            status, has_owner, fields = entry
            ok = ok and has_owner and (status is None or status in JOB_STATUSES)
            expanded = expanded or "count" in fields  # its ids C.0 ... count too
        else:
            prio, count, fields = entry[2], entry[3], entry[4]
            ok = ok and type(count) is int and 1 <= count <= MAX_JOB_COUNT
            ok = ok and (prio is None or (type(prio) in (int, float) and math.isfinite(prio)))
            expanded = expanded or count != 1
        ok = ok and all(f in _JOB_FIELDS for f in fields)
    try:
        ids = set(map(itemgetter("id"), objs))
    except (KeyError, TypeError):
        ok = False
    if not ok or (not expanded and len(ids) != len(objs)):
        parse_jobs_one_by_one(objs, source)
        raise InputError(f"{source}: a job is malformed")
    _check_priorities(objs, counts, source, description)
    if not expanded:
        return
    seen: dict[str, int] = {}  # each id, and the place of the object that gave it
    for i, obj in enumerate(objs):
        count = obj.get("count", 1)
        if type(count) is not int or not 1 <= count <= MAX_JOB_COUNT:
            parse_jobs_one_by_one(objs, source)  # the parser's message
            raise InputError(f"{job_label(source, obj, i)}: a job is malformed")
        base = str(obj["id"])
        names = [base] if count == 1 else [f"{base.split('.', 1)[0]}.{k}" for k in range(count)]
        for name in names:
            if seen.setdefault(name, i) != i:
                raise InputError(given_twice(source, name, seen[name], i))


def _check_priorities(
    objs: Sequence[Any],
    counts: Counter[tuple[Any, ...]],
    source: str,
    description: DiracJobDescription,
) -> None:
    """Refuse a waiting DIRAC job whose priority (or, when it gives none, the default)
    JobManager refuses or ``tq_Jobs.Priority`` cannot hold.

    Raises:
        InputError: naming the first such job.
    """
    bad = {e[2] for e in counts if len(e) != 3 and priority_problem(e[2], description)}
    if not bad:
        return
    for i, obj in enumerate(objs):
        entry = _entry(obj)
        if len(entry) != 3 and entry[2] in bad:
            problem = priority_problem(entry[2], description)
            raise InputError(f"{job_label(source, obj, i)}: {problem}")


def unlisted_groups(
    queues: Sequence[TaskQueue], groups: Mapping[str, DiracGroupSpec]
) -> list[tuple[str, int, str]]:
    """Groups of waiting jobs that ``[dirac.groups]`` does not list.

    DIRAC gives such a group ``DEFAULT_GROUP_SHARE``; the caller warns about each.

    Returns:
        ``(group, waiting jobs, did-you-mean text or "")``, sorted by group.
    """
    jobs = {
        group: sum(queues[i].jobs for i in members)
        for group, members in share_groups(queues).items()
        if group not in groups
    }
    return [(group, jobs[group], did_you_mean(group, sorted(groups))) for group in sorted(jobs)]


def task_queues_from_objects(
    objs: Sequence[Any],
    source: str,
    groups: Mapping[str, DiracGroupSpec],
    segments: Sequence[int],
    description: DiracJobDescription = DEFAULT_JOB_DESCRIPTION,
    replay_with: ReplayHook | None = None,
) -> list[TaskQueue]:
    """Task queues of the waiting DIRAC jobs among raw job objects (a jobs file or the state).

    Waiting (idle, or no status) jobs with a ``dirac_group`` count; others are only checked.
    A job without ``user_priority`` or ``cpu_time`` has the ``description``'s default.
    The jobs are counted per distinct entry in C (``Counter``), in order of first
    appearance; fed to :func:`build_task_queues` in that order they give the same queues as
    one job at a time, unless a definition overflows a queue, when the jobs are replayed one
    by one; so they are when ``replay_with(queues)`` gives a ``build_task_queues`` hook.

    Raises:
        InputError: naming ``source``, the job and the field.
    """
    try:
        counts: Counter[tuple[Any, ...]] = Counter(map(_entry, objs))
    except (AttributeError, TypeError):
        parse_jobs_one_by_one(objs, source)
        raise InputError(_unhashable(objs, source)) from None
    _check(objs, counts, source, description)
    define = definer(groups, segments, description)
    default = description.default_priority
    try:
        queues = queues_from_counts(counts.items(), define, default)
        hook = None if replay_with is None else replay_with(queues)
        if overflowed(queues) or hook is not None:
            queues = queues_in_order(map(_entry, objs), define, default, hook)
    except (ValueError, TypeError) as exc:
        parse_jobs_one_by_one(objs, source)  # a field any job must get right: the parser's message
        raise InputError(_locate(objs, source, define, str(exc))) from None
    return queues


def queues_from_counts(
    counts: Iterable[tuple[tuple[Any, ...], int]],
    define: Callable[[Hashable], TaskQueueDefinition],
    default_priority: int,
) -> list[TaskQueue]:
    """Task queues from distinct entries and how many jobs each stands for, in order.

    A job without a priority has ``default_priority`` (``JobDescription/DefaultPriority``).

    The same queues as inserting the jobs one at a time unless :func:`overflowed`.

    Raises:
        ValueError: from ``define`` (a bad requirement), or TypeError.
    """
    triples = [
        (_definition_key(e), default_priority if e[2] is None else e[2], e[3] * n)
        for e, n in counts
        if len(e) != 3
    ]
    return build_task_queues(triples, define)


def overflowed(queues: Sequence[TaskQueue]) -> bool:
    """Whether a definition needed a sibling queue (then counted jobs must be replayed)."""
    return len({q.definition.match_key() for q in queues}) != len(queues)


def queues_in_order(
    entries: Iterable[tuple[Any, ...]],
    define: Callable[[Hashable], TaskQueueDefinition],
    default_priority: int,
    on_new_queue: NewQueueHook | None = None,
) -> list[TaskQueue]:
    """Task queues from every job's entry, one job at a time (exact when a queue fills up)."""
    waiting = (e for e in entries if len(e) != 3)
    return build_task_queues(
        ((_definition_key(e), default_priority if e[2] is None else e[2], e[3]) for e in waiting),
        define,
        on_new_queue=on_new_queue,
    )


def check_entry_fields(
    owners: Iterable[Any],
    groups: Iterable[Any],
    priorities: Iterable[Any],
    counts: Iterable[Any],
    statuses: Iterable[Any],
    requirements: Iterable[Any],
) -> None:
    """Refuse what the job parser would refuse in the fields a task queue reads.

    For readers that decode these fields themselves and already refused unknown field
    names (``io/dirac_jobs.py``): each argument holds the distinct decoded values of one
    field (None where the field is null or absent; a missing ``count`` is 1). A waiting
    job's requirements are checked further by :func:`definer`.

    Raises:
        ValueError: naming the field (the caller then reads the jobs with the job parser,
            for its message).
    """
    if any(name_problem(owner, submitter=True) for owner in owners):
        raise ValueError("owner")
    if any(g is not None and dirac_group_problem(g) for g in groups):
        raise ValueError("dirac_group")
    if not all(status is None or status in JOB_STATUSES for status in statuses):
        raise ValueError("status")
    if not all(type(count) is int and 1 <= count <= MAX_JOB_COUNT for count in counts):
        raise ValueError("count")
    if not all(
        p is None or (type(p) in (int, float) and INT64_MIN <= p <= INT64_MAX) for p in priorities
    ):
        raise ValueError("user_priority")  # NaN fails the range too
    if not all(req is None or isinstance(req, dict) for req in requirements):
        raise ValueError("dirac_requirements")


def definition_key(owner: str, group: str, requirements: dict[str, Any] | None) -> tuple[Any, ...]:
    """The :func:`_definition_key` of a waiting job's checked fields, for :func:`definer`.

    Raises:
        TypeError: a requirement value that is not a number, a name or a list of names
            (a nested list or object).
    """
    if requirements is None:
        return (owner, group, (), None)
    values = [tuple(v) if type(v) is list else v for v in requirements.values()]
    key = (owner, group, (), tuple(requirements), *values)
    hash(key)
    return key


def _unhashable(objs: Sequence[Any], source: str) -> str:
    """Name the first job with a requirement value that is not a name, number or list."""
    for i, obj in enumerate(objs):
        try:
            hash(_entry(obj))
        except TypeError:
            return (
                f"{job_label(source, obj, i)}: dirac_requirements values must be "
                "numbers, names or lists of names"
            )
    return f"{source}: a job is malformed"


def _locate(
    objs: Sequence[Any], source: str, define: Callable[[Hashable], object], message: str
) -> str:
    """Name the first waiting job whose key gives ``message``."""
    for i, obj in enumerate(objs):
        entry = _entry(obj)
        if len(entry) == 3:
            continue
        try:
            define(_definition_key(entry))
        except ValueError as exc:
            if str(exc) == message:
                return f"{job_label(source, obj, i)}: {message}"
    return f"{source}: {message}"
