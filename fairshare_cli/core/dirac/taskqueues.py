"""DIRAC task queues and their priorities, as DIRAC's TaskQueueDB computes them.

Mirrors DIRAC's ``WorkloadManagementSystem/DB/TaskQueueDB.py`` (task-queue definition, the
job-priority mapping, ``recalculateTQSharesForAll``/``recalculateTQSharesForEntity`` and
``calculate_priority``) and the pilot-side ``ORDER BY RAND()/Priority`` selection of
``matchAndGetJob``. Pure: no I/O, no clock.

Jobs enter as ``(raw_key, user_priority, count)`` triples (a million jobs, no object a job);
a caller's function makes each distinct raw key a :class:`TaskQueueDefinition` once.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS as DEFAULT_CPU_SEGMENTS
from fairshare_cli.core.dirac.collation import folded, folded_set
from fairshare_cli.core.dirac.first_try import first_try_probabilities
from fairshare_cli.core.dirac.stored import real_priority, stored_float32, stored_priority

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
    """A :data:`ShareCorrector` where DIRAC's divides by zero (the shares sum to 0): the
    TaskQueuesAgent's recalculation stops there, the queues it has not set keep theirs."""


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


def job_weight(queue: TaskQueue, weighting: JobPriorityWeighting = "average") -> float:
    """A queue's weight inside its entity from its jobs' RealPriorities.

    ``"average"`` mirrors ``SUM(RealPriority)/COUNT(RealPriority)`` (DIRAC's code);
    ``"sum"`` mirrors ``SUM(RealPriority)`` (the documented rule). MariaDB adds rows in an
    order SQL leaves undefined, this per level: the same but for a last bit with 1e-5s."""
    total = 0.0
    jobs = 0
    for user_priority, n in queue.priority_counts:
        total += n * real_priority(user_priority)
        jobs += n
    if weighting == "sum":
        return total
    return total / jobs


def entity_priorities(
    queues: Sequence[TaskQueue],
    weights: Sequence[float],
    share: float,
    allow_background_tqs: bool,
) -> list[float]:
    """Split one entity's share over its task queues.

    Mirrors ``calculate_priority``: a background queue (weight <= 0.1, only when the group
    allows background queues) gets ``TQ_MIN_SHARE``; every other queue gets
    ``max((share / T) * weight, TQ_MIN_SHARE)`` with T the sum of non-background weights;
    then queues whose definitions differ only in Sites/BannedSites all get the sum of their
    priorities.

    Args:
        queues: the entity's queues in id order.
        weights: :func:`job_weight` of each queue.
        share: the entity's (possibly corrected) share.
        allow_background_tqs: the group's ``AllowBackgroundTQs``.

    Returns:
        The full-precision priority of each queue, in the same order.
    """

    def background(weight: float) -> bool:
        return weight <= BACKGROUND_THRESHOLD and allow_background_tqs

    total = added(w for w in weights if not background(w))
    prios = [
        TQ_MIN_SHARE if background(w) else max((share / total) * w, TQ_MIN_SHARE) for w in weights
    ]
    members: dict[tuple[object, ...], list[int]] = {}
    for i, queue in enumerate(queues):
        members.setdefault(queue.definition.grouping_key(), []).append(i)
    for indices in members.values():
        summed = added(prios[i] for i in indices)
        for i in indices:
            prios[i] = summed
    return prios


def added(values: Iterable[float]) -> float:
    """Left to right, as ``calculate_priority``'s ``sum`` on DIRAC's Python 3.11 (3.12's
    ``sum`` compensates, which can move a stored ``%.4f`` priority: 58.5938 for 58.5937)."""
    total = 0.0
    for value in values:
        total += value
    return total


@dataclass(frozen=True, slots=True)
class UnlistedGroup:
    """A group ``/Registry/Groups`` does not list, as ``recalculateTQSharesForEntity`` sees it.

    Its share is ``float(DEFAULT_GROUP_SHARE)``, its property list empty (no JobSharing) and
    ``AllowBackgroundTQs`` false; the correction between groups never sees it, because
    ``__updateGlobalShares`` only passes on the groups of ``getGroupShares``.
    """

    job_share: float = float(DEFAULT_GROUP_SHARE)
    job_sharing: bool = False
    allow_background_tqs: bool = False


def share_groups(queues: Sequence[TaskQueue]) -> dict[str, list[int]]:
    """The queues (indices, in id order) of each group as ``recalculateTQSharesForAll``
    finds them: ``SELECT DISTINCT(OwnerGroup)`` compares by the collation, and gives the
    spelling (which names the share) of a group's first queue in the ``TQOwner`` index's
    order (owner, group, CPU time, id: ``a`` in zzz, ``b`` in user and aaa give zzz, aaa,
    user), in that order (MariaDB's plan: SQL defines neither); ``OwnerGroup=%s`` takes all."""
    same: dict[str, list[int]] = {}
    for i, queue in enumerate(queues):
        same.setdefault(folded(queue.definition.group), []).append(i)

    def index_order(i: int) -> tuple[str, str, int, int]:
        d = queues[i].definition
        return folded(d.owner), folded(d.group), d.cpu_time, queues[i].tq_id

    ordered = sorted(same.values(), key=lambda m: index_order(min(m, key=index_order)))
    return {queues[min(m, key=index_order)].definition.group: m for m in ordered}


def task_queue_priorities(
    queues: Sequence[TaskQueue],
    groups: Mapping[str, GroupPolicy],
    correct: ShareCorrector | None = None,
    weighting: JobPriorityWeighting = "average",
    kept: Mapping[int, float] | None = None,
) -> list[tuple[float, float]]:
    """Every queue's full-precision priority and the share correction applied to it.

    Mirrors ``recalculateTQSharesForAll``: the group shares (JobShare) of the listed groups
    present in queues (:func:`share_groups`: compared by the collation), corrected between
    groups when ``correct`` is given (a group ``groups`` does not list gets
    :class:`UnlistedGroup`'s default share, uncorrected); a JobSharing group is one entity
    with the group share, any other group splits it evenly over its owners with queues
    (owners compared by the collation, as MariaDB's ``GROUP BY Owner`` and ``Owner=%s`` do; an
    entity is named by the spelling of its first queue by CPU time and id), optionally corrected
    between those owners; then :func:`entity_priorities`.

    Args:
        queues: all task queues, in id order.
        groups: policy per listed group.
        correct: the share corrector (None when ``EnableSharesCorrection`` is off).
        weighting: see :data:`JobPriorityWeighting`.
        kept: priority by TQId of a queue the recalculation does not set (``_entities``,
            or after a :class:`CorrectionFails`), else ``NEW_TQ_PRIORITY``.

    Returns:
        ``(priority, correction_factor)`` per queue, in the order given.
    """
    by_group = share_groups(queues)
    active = list(by_group)
    shares: dict[str, float] = {g: groups[g].job_share for g in active if g in groups}
    group_factor = dict.fromkeys(shares, 1.0)
    weights = [job_weight(q, weighting) for q in queues]
    result = [((kept or {}).get(q.tq_id, NEW_TQ_PRIORITY), 1.0) for q in queues]
    with contextlib.suppress(CorrectionFails):  # (the agent stops; ``kept`` stays)
        if correct is not None and shares:
            shares, group_factor = correct(shares, None)
        for group in active:
            policy: GroupPolicy = groups.get(group) or UnlistedGroup()
            share = shares.get(group, policy.job_share)
            factor = group_factor.get(group, 1.0)
            for members, entity_share, entity_factor in _entities(
                queues, by_group[group], group, policy.job_sharing, share, factor, correct
            ):
                prios = entity_priorities(
                    [queues[i] for i in members],
                    [weights[i] for i in members],
                    entity_share,
                    policy.allow_background_tqs,
                )
                for i, prio in zip(members, prios, strict=True):
                    result[i] = (prio, entity_factor)
    return result


def _entities(
    queues: Sequence[TaskQueue],
    indices: list[int],
    group: str,
    job_sharing: bool,
    share: float,
    factor: float,
    correct: ShareCorrector | None,
) -> list[tuple[list[int], float, float]]:
    """A group's entities: ``(queue indices, share, correction factor)`` each.

    Mirrors ``recalculateTQSharesForEntity``: a JobSharing group is one entity; otherwise
    the share is split over the owners (compared as the collation does) and the in-group
    corrector runs. ``recalculateTQSharesForAll`` passes the user name ``all``, so when
    ``GROUP BY Owner`` returns an owner spelt ``all`` with more than one queue, only that
    owner's queues are set (``user in owners and owners[user] > 1``; the others:
    :mod:`~fairshare_cli.core.dirac.insert_time`).
    """
    if job_sharing:
        return [(indices, share, factor)]
    members, names = group_owners(queues, indices)
    split = share / len(members)
    owner_shares = {names[k]: split for k in sorted(members)}
    owner_factor = dict.fromkeys(owner_shares, 1.0)
    if correct is not None:
        owner_shares, owner_factor = correct(owner_shares, group)
    return [
        (members[k], owner_shares[names[k]], factor * owner_factor[names[k]])
        for k in recalculated_owners(members, names)
    ]


def group_owners(
    queues: Sequence[TaskQueue], indices: list[int]
) -> tuple[dict[str, list[int]], dict[str, str]]:
    """A group's owners as ``GROUP BY Owner`` finds them: their queues, and the spelling
    returned (the first in the TQOwner index's order), each by the owner's folded name."""
    members: dict[str, list[int]] = {}
    for i in indices:
        members.setdefault(folded(queues[i].definition.owner), []).append(i)
    names: dict[str, str] = {}
    for i in sorted(indices, key=lambda i: (queues[i].definition.cpu_time, queues[i].tq_id)):
        names.setdefault(folded(queues[i].definition.owner), queues[i].definition.owner)
    return members, names


def recalculated_owners(members: dict[str, list[int]], names: dict[str, str]) -> list[str]:
    """The owners whose queues ``recalculateTQSharesForEntity("all", group)`` sets."""
    only = [k for k in members if names[k] == ALL_OWNERS and len(members[k]) > 1]
    return only or list(members)


def task_queue_rows(
    queues: Sequence[TaskQueue],
    groups: Mapping[str, GroupPolicy],
    correct: ShareCorrector | None = None,
    weighting: JobPriorityWeighting = "average",
    kept: Mapping[int, float] | None = None,
) -> list[TaskQueueRow]:
    """Priorities, shares and first-try chances of every task queue (``fs taskqueues``).

    Args:
        queues: all task queues, in id order (see :func:`build_task_queues`).
        groups: policy per DIRAC group.
        correct: the share corrector, None when correction is off.
        weighting: see :data:`JobPriorityWeighting`.
        kept: see :func:`task_queue_priorities`.

    Returns:
        One row per queue, in id order.
    """
    computed = task_queue_priorities(queues, groups, correct, weighting, kept)
    stored = [stored_priority(p) for p, _ in computed]
    total = math.fsum(stored)
    p_first = first_try_probabilities([stored_float32(p) for p, _ in computed])
    return [
        TaskQueueRow(
            queue=queue,
            computed_priority=prio,
            priority=value,
            share=value / total,
            correction=factor,
            p_first=chance,
        )
        for queue, (prio, factor), value, chance in zip(
            queues, computed, stored, p_first, strict=True
        )
    ]
