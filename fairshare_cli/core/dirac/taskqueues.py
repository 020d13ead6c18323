"""DIRAC task queues and their priorities, as DIRAC's TaskQueueDB computes them.

Mirrors DIRAC's ``WorkloadManagementSystem/DB/TaskQueueDB.py``: the task-queue definition,
how jobs are put in queues, and the types and constants the priority recalculation
(:mod:`~fairshare_cli.core.dirac.priorities`: ``recalculateTQSharesForAll``,
``calculate_priority``) shares with its callers. Pure: no I/O, no clock.

Jobs enter as ``(raw_key, user_priority, count)`` triples (a million jobs, no object a job);
a caller's function makes each distinct raw key a :class:`TaskQueueDefinition` once.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS as DEFAULT_CPU_SEGMENTS
from fairshare_cli.core.dirac.collation import folded, folded_set

TQ_MIN_SHARE = 0.001
"""``TQ_MIN_SHARE``: the floor of every task-queue priority (and a background queue's value)."""

BACKGROUND_THRESHOLD = 0.1
"""A queue whose average RealPriority is at most this is background (if the group allows it)."""

MAX_JOBS_PER_TQ = 5000
"""A job goes to a new task queue when the emptiest matching one already holds this many."""

NEW_TQ_PRIORITY = 1.0
"""Priority of a task queue before its first recalculation."""

ALL_OWNERS = "all"
"""The user name ``recalculateTQSharesForAll`` passes for every group."""

DEFAULT_GROUP_SHARE = 1000
"""``DEFAULT_GROUP_SHARE``: the share of a group ``/Registry/Groups`` does not list."""


JobPriorityWeighting = Literal["average", "sum"]
"""How a queue's jobs weigh it inside its entity.

``"average"`` is DIRAC's code (average RealPriority per queue); ``"sum"`` is what the
documentation describes (the queue's sum over the entity's sum), which the code also has as
the unused ``SUM`` consolidation.
"""


class GroupPolicy(Protocol):
    """What task-queue priorities need to know about a DIRAC group (``/Registry/Groups/<g>``)."""

    @property
    def job_share(self) -> float:
        """``JobShare``."""

    @property
    def job_sharing(self) -> bool:
        """Whether the group has the ``JobSharing`` property."""

    @property
    def allow_background_tqs(self) -> bool:
        """``AllowBackgroundTQs``."""


NewQueueHook = Callable[[Sequence["TaskQueueDefinition"], Sequence[dict[int, int]]], None]
"""``hook(definitions, levels)``: every queue so far, and its jobs per priority level."""

ShareCorrector = Callable[
    [dict[str, float], "str | None"], "tuple[dict[str, float], dict[str, float]]"
]
"""``correct(shares, group)`` -> (corrected shares, correction factors).

``group`` is None for the correction between groups, else the group whose owners are being
corrected. Mirrors ``SharesCorrector.correctShares``.
"""


class CorrectionFails(ArithmeticError):
    """A :data:`ShareCorrector` where DIRAC's divides by zero (the shares sum to 0, or 1 over
    a maximum correction of 0; the message says which): the TaskQueuesAgent's recalculation
    stops there, the queues it has not set keep theirs."""


@dataclass(frozen=True, slots=True)
class TaskQueueDefinition:
    """What makes two jobs land in the same task queue (multi-value fields as sorted sets).

    ``min_ram``/``max_ram`` (MB) are DIRAC 9's ``tq_RAM_requirements`` row; 0 and 0 is no row.
    """

    owner: str
    group: str
    cpu_time: int
    sites: tuple[str, ...] = ()
    banned_sites: tuple[str, ...] = ()
    platforms: tuple[str, ...] = ()
    job_types: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    grid_ces: tuple[str, ...] = ()
    min_ram: int = 0
    max_ram: int = 0

    def grouping_key(self) -> tuple[object, ...]:
        """The definition without ``priorityIgnoredFields`` (Sites, BannedSites, MinRAM, MaxRAM).

        ``calculate_priority`` gives every queue of an entity with the same grouping key the sum
        of their priorities. It compares in Python, so owner names differing in case differ.
        """
        return (
            self.owner,
            self.group,
            self.cpu_time,
            self.platforms,
            self.job_types,
            self.tags,
            self.grid_ces,
        )

    def match_key(self) -> TaskQueueDefinition:
        """The definition as ``__findSmallestTaskQueue`` compares it in MariaDB.

        ``Owner``, ``OwnerGroup`` and the ``tq_TQTo*`` values are compared under the
        tables' ``utf8mb4_general_ci`` (:mod:`~fairshare_cli.core.dirac.collation`), so a job
        of ``Jörg`` in ``LHCb_User`` lands in the queue ``jorg`` made in ``lhcb_user`` (the
        queue keeps its first spelling).
        """
        return replace(
            self, owner=folded(self.owner), group=folded(self.group),
            sites=folded_set(self.sites), banned_sites=folded_set(self.banned_sites),
            platforms=folded_set(self.platforms), job_types=folded_set(self.job_types),
            tags=folded_set(self.tags), grid_ces=folded_set(self.grid_ces),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class TaskQueue:
    """One task queue: its id, definition and how many waiting jobs it holds per UserPriority."""

    tq_id: int
    definition: TaskQueueDefinition
    priority_counts: tuple[tuple[int, int], ...]
    """``(Priority, jobs)`` pairs (Priority = ``int(UserPriority)``), sorted, jobs > 0."""

    @property
    def jobs(self) -> int:
        """Number of waiting jobs in the queue."""
        return sum(n for _, n in self.priority_counts)


@dataclass(frozen=True, slots=True)
class TaskQueueRow:
    """A task queue with its computed priority, as ``fs taskqueues`` reports it."""

    queue: TaskQueue
    computed_priority: float
    """``calculate_priority``'s full-precision value before storage."""
    priority: float
    """The priority as DIRAC reads it back (``%.4f`` into a MariaDB FLOAT, sent with 6 digits)."""
    share: float
    """This queue's priority over the sum of all queues' priorities."""
    correction: float
    """Factor the share correction applied to the queue's entity share (1.0 when none)."""
    p_first: float
    """Chance that a pilot matching every queue tries this one first."""


def cpu_segment(cpu_time: float, segments: Sequence[int] = DEFAULT_CPU_SEGMENTS) -> int:
    """Round a job's CPU time up to its task-queue segment.

    Mirrors ``TaskQueueDB.fitCPUTimeToSegments``: the first segment >= the CPU time; anything
    above the last segment maps to the last one.
    """
    for segment in segments:
        if cpu_time <= segment:
            return segment
    return segments[-1]


def valid_cpu_segments(segments: Sequence[object]) -> bool:
    """Whether a segment list is usable: non-empty, strictly increasing positive integers
    (else DIRAC falls back to :data:`DEFAULT_CPU_SEGMENTS`)."""
    ints = all(type(s) is int and s > 0 for s in segments)
    rising = ints and all(a < b for a, b in itertools.pairwise(segments))  # type: ignore[operator]
    return bool(segments) and rising


def build_task_queues(
    jobs: Iterable[tuple[Hashable, float, int]],
    define: Callable[[Hashable], TaskQueueDefinition],
    max_jobs_per_tq: int = MAX_JOBS_PER_TQ,
    on_new_queue: NewQueueHook | None = None,
) -> list[TaskQueue]:
    """Insert waiting jobs, in order, into task queues like ``TaskQueueDB.insertJob``.

    Jobs whose definitions match (:meth:`TaskQueueDefinition.match_key`: names compared as
    MariaDB's collation compares them) share a queue; a queue keeps the definition of the
    job that created it. A definition's queue that already holds ``max_jobs_per_tq`` jobs
    gets a new sibling (the emptiest queue is always the newest one, since jobs are only
    inserted). Queue ids count from 1 in creation order. Each job's priority level is
    :func:`~fairshare_cli.core.dirac.stored.job_priority`.

    Args:
        jobs: ``(raw_key, user_priority, count)`` per job (count identical jobs), in insertion
            order. Equal raw keys must describe equal definitions; different raw keys may
            describe the same definition.
        define: turns a raw key into its definition; called once per distinct raw key and may
            raise to reject it.
        max_jobs_per_tq: DIRAC's 5000.
        on_new_queue: called with every queue's definition and jobs per level so far right
            after a new queue's first job, where ``insertJob`` recalculates (count 1 a job).

    Returns:
        The task queues in id order.
    """
    definition_index: dict[Hashable, tuple[int, TaskQueueDefinition]] = {}
    definitions: dict[TaskQueueDefinition, int] = {}
    fill: list[int] = []  # jobs in the newest queue of each definition
    newest: list[int] = []  # tq_id of that queue
    tq_definition: list[TaskQueueDefinition] = []
    tq_levels: list[dict[int, int]] = []  # jobs per priority level, a queue (tq_id - 1)
    for raw_key, user_priority, n in jobs:
        found = definition_index.get(raw_key)
        if found is None:
            definition = define(raw_key)
            d = definitions.setdefault(definition.match_key(), len(fill))
            if d == len(fill):
                fill.append(max_jobs_per_tq)
                newest.append(0)
            found = definition_index[raw_key] = (d, definition)
        d, definition = found
        level = int(user_priority)
        while n:
            held = fill[d]
            if held >= max_jobs_per_tq:
                tq_definition.append(definition)
                tq_levels.append({})
                newest[d] = len(tq_definition)
                held = 0
                if on_new_queue is not None:  # its first job alone, then the recalculation
                    fill[d], tq_levels[-1][level], n = 1, 1, n - 1
                    on_new_queue(tq_definition, tq_levels)
                    continue
            room = max_jobs_per_tq - held
            take = n if n < room else room
            fill[d] = held + take
            levels = tq_levels[newest[d] - 1]
            levels[level] = levels.get(level, 0) + take
            n -= take
    return [
        TaskQueue(i + 1, definition, tuple(sorted(levels.items())))
        for i, (definition, levels) in enumerate(zip(tq_definition, tq_levels, strict=True))
    ]
