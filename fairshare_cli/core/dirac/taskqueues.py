"""DIRAC task queues and their priorities, as DIRAC's TaskQueueDB computes them.

Mirrors DIRAC's ``WorkloadManagementSystem/DB/TaskQueueDB.py`` (task-queue definition, the
job-priority mapping, ``recalculateTQSharesForAll``/``recalculateTQSharesForEntity`` and
``calculate_priority``) and the pilot-side ``ORDER BY RAND()/Priority`` selection of
``matchAndGetJob``. Pure: no I/O, no clock.

Jobs enter as plain ``(raw_key, user_priority, count)`` triples so that a million jobs can
be grouped without building an object per job; a raw key is turned into a
:class:`TaskQueueDefinition` once per distinct key by a caller-supplied function.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS as DEFAULT_CPU_SEGMENTS
from fairshare_cli.core.float32 import float32

TQ_MIN_SHARE = 0.001
"""``TQ_MIN_SHARE``: the floor of every task-queue priority (and a background queue's value)."""

BACKGROUND_THRESHOLD = 0.1
"""A queue whose average RealPriority is at most this is background (if the group allows it)."""

MAX_JOBS_PER_TQ = 5000
"""A job goes to a new task queue when the emptiest matching one already holds this many."""

NEW_TQ_PRIORITY = 1.0
"""Priority of a task queue before its first recalculation."""


JobPriorityWeighting = Literal["average", "sum"]
"""How a queue's jobs weigh it inside its entity.

``"average"`` is DIRAC's code (average RealPriority per queue); ``"sum"`` is what the
documentation describes (the queue's sum over the entity's sum), which the code also has as
the unused ``SUM`` consolidation.
"""


class GroupPolicy(Protocol):
    """What task-queue priorities need to know about a DIRAC group (``/Registry/Groups/<g>``)."""

    @property
    def job_share(self) -> int:
        """``JobShare``."""

    @property
    def job_sharing(self) -> bool:
        """Whether the group has the ``JobSharing`` property."""

    @property
    def allow_background_tqs(self) -> bool:
        """``AllowBackgroundTQs``."""


ShareCorrector = Callable[
    [dict[str, float], "str | None"], "tuple[dict[str, float], dict[str, float]]"
]
"""``correct(shares, group)`` -> (corrected shares, correction factors).

``group`` is None for the correction between groups, else the group whose owners are being
corrected. Mirrors ``SharesCorrector.correctShares``.
"""


@dataclass(frozen=True, slots=True)
class TaskQueueDefinition:
    """What makes two jobs land in the same task queue (multi-value fields as sorted sets)."""

    owner: str
    group: str
    cpu_time: int
    sites: tuple[str, ...] = ()
    banned_sites: tuple[str, ...] = ()
    platforms: tuple[str, ...] = ()
    job_types: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    def grouping_key(self) -> tuple[object, ...]:
        """The definition without Sites and BannedSites.

        ``calculate_priority`` gives every queue of an entity with the same grouping key the sum
        of their priorities.
        """
        return (self.owner, self.group, self.cpu_time, self.platforms, self.job_types, self.tags)


@dataclass(frozen=True, slots=True)
class TaskQueue:
    """One task queue: its id, definition and how many waiting jobs it holds per UserPriority."""

    tq_id: int
    definition: TaskQueueDefinition
    priority_counts: tuple[tuple[int, int], ...]
    """``(user_priority, jobs)`` pairs, sorted by priority, jobs > 0."""

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
    """The priority as DIRAC stores and reads it back (``%.4f`` into a MySQL FLOAT)."""
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
    """Whether a segment list is usable: non-empty, strictly increasing integers.

    DIRAC falls back to :data:`DEFAULT_CPU_SEGMENTS` when the configured list is not.
    """
    if not segments:
        return False
    if not all(type(s) is int and s > 0 for s in segments):
        return False
    return all(a < b for a, b in itertools.pairwise(segments))  # type: ignore[operator]


def _float32_text(value: float) -> float:
    """The shortest decimal that reads back as the same single-precision value.

    This is what MySQL 8 prints for a ``FLOAT`` column, i.e. what DIRAC's Python reads.
    """
    for digits in range(1, 10):
        candidate = float(f"{value:.{digits}g}")
        if float32(candidate) == value:
            return candidate
    return value


def real_priority(user_priority: int) -> float:
    """Map a job's UserPriority to the RealPriority DIRAC stores for it.

    Mirrors ``TaskQueueDB.__hackJobPriority``: the priority is clamped to [0.001, 10]; the
    bottom maps to 1e-5 and the top to 1e6, anything between is kept. The value is written
    with ``%f`` into a FLOAT column, so it is returned as read back.
    """
    p = min(max(int(user_priority), 0.001), 10)
    if p == 0.001:
        value = 1e-5
    elif p == 10:
        value = 1e6
    else:
        value = float(p)
    return float32(float(f"{value:f}"))


def stored_priority(priority: float) -> float:
    """A task-queue priority as stored (``Priority=%.4f`` into FLOAT) and read back."""
    return _float32_text(float32(float(f"{priority:.4f}")))


def build_task_queues(
    jobs: Iterable[tuple[Hashable, int, int]],
    define: Callable[[Hashable], TaskQueueDefinition],
    max_jobs_per_tq: int = MAX_JOBS_PER_TQ,
) -> list[TaskQueue]:
    """Insert waiting jobs, in order, into task queues like ``TaskQueueDB.insertJob``.

    Jobs whose definitions are equal share a queue; a definition's queue that already holds
    ``max_jobs_per_tq`` jobs gets a new sibling (the emptiest queue is always the newest one,
    since jobs are only inserted). Queue ids count from 1 in creation order.

    Args:
        jobs: ``(raw_key, user_priority, count)`` per job (count identical jobs), in insertion
            order. Equal raw keys must describe equal definitions; different raw keys may
            describe the same definition.
        define: turns a raw key into its definition; called once per distinct raw key and may
            raise to reject it.
        max_jobs_per_tq: DIRAC's 5000.

    Returns:
        The task queues in id order.
    """
    definition_index: dict[Hashable, int] = {}
    definitions: dict[TaskQueueDefinition, int] = {}
    definition_list: list[TaskQueueDefinition] = []
    fill: list[int] = []  # jobs in the newest queue of each definition
    newest: list[int] = []  # tq_id of that queue
    tq_definition: list[TaskQueueDefinition] = []
    counts: dict[tuple[int, int], int] = {}
    for raw_key, user_priority, n in jobs:
        d = definition_index.get(raw_key)
        if d is None:
            definition = define(raw_key)
            d = definitions.get(definition)
            if d is None:
                d = definitions[definition] = len(fill)
                definition_list.append(definition)
                fill.append(max_jobs_per_tq)
                newest.append(0)
            definition_index[raw_key] = d
        while n:
            held = fill[d]
            if held >= max_jobs_per_tq:
                tq_definition.append(definition_list[d])
                newest[d] = len(tq_definition)
                held = 0
            take = min(n, max_jobs_per_tq - held)
            fill[d] = held + take
            key = (newest[d], user_priority)
            counts[key] = counts.get(key, 0) + take
            n -= take
    per_queue: list[list[tuple[int, int]]] = [[] for _ in tq_definition]
    for (tq_id, user_priority), n in counts.items():
        per_queue[tq_id - 1].append((user_priority, n))
    return [
        TaskQueue(i + 1, definition, tuple(sorted(levels)))
        for i, (definition, levels) in enumerate(zip(tq_definition, per_queue, strict=True))
    ]


def job_weight(queue: TaskQueue, weighting: JobPriorityWeighting = "average") -> float:
    """A queue's weight inside its entity from its jobs' RealPriorities.

    ``"average"`` mirrors ``SUM(RealPriority)/COUNT(RealPriority)`` (DIRAC's code);
    ``"sum"`` mirrors ``SUM(RealPriority)`` (the documented rule).
    """
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

    total = sum(w for w in weights if not background(w))
    prios = [
        TQ_MIN_SHARE if background(w) else max((share / total) * w, TQ_MIN_SHARE) for w in weights
    ]
    members: dict[tuple[object, ...], list[int]] = {}
    for i, queue in enumerate(queues):
        members.setdefault(queue.definition.grouping_key(), []).append(i)
    for indices in members.values():
        summed = sum(prios[i] for i in indices)
        for i in indices:
            prios[i] = summed
    return prios


def task_queue_priorities(
    queues: Sequence[TaskQueue],
    groups: Mapping[str, GroupPolicy],
    correct: ShareCorrector | None = None,
    weighting: JobPriorityWeighting = "average",
) -> list[tuple[float, float]]:
    """Every queue's full-precision priority and the share correction applied to it.

    Mirrors ``recalculateTQSharesForAll``: the group shares (JobShare) of the groups present
    in queues, corrected between groups when ``correct`` is given; a JobSharing group is one
    entity with the group share, any other group splits it evenly over its owners with
    queues, optionally corrected between those owners; then :func:`entity_priorities`.

    Args:
        queues: all task queues, in id order.
        groups: policy per group; every queue's group must be present.
        correct: the share corrector (None when ``EnableSharesCorrection`` is off).
        weighting: see :data:`JobPriorityWeighting`.

    Returns:
        ``(priority, correction_factor)`` per queue, in the order given.

    Raises:
        KeyError: a queue's group is not in ``groups``.
    """
    by_group: dict[str, list[int]] = {}
    for i, queue in enumerate(queues):
        by_group.setdefault(queue.definition.group, []).append(i)
    active = sorted(by_group)
    shares: dict[str, float] = {g: groups[g].job_share for g in active}
    group_factor = dict.fromkeys(active, 1.0)
    if correct is not None and shares:
        shares, group_factor = correct(shares, None)
    weights = [job_weight(q, weighting) for q in queues]
    result: list[tuple[float, float]] = [(NEW_TQ_PRIORITY, 1.0)] * len(queues)
    for group in active:
        policy = groups[group]
        indices = by_group[group]
        if policy.job_sharing:
            entities: dict[str | None, list[int]] = {None: indices}
            entity_share: dict[str | None, float] = {None: shares[group]}
            entity_factor: dict[str | None, float] = {None: group_factor[group]}
        else:
            entities = {}
            for i in indices:
                entities.setdefault(queues[i].definition.owner, []).append(i)
            owners = sorted(o for o in entities if o is not None)
            split = shares[group] / len(owners)
            owner_shares = dict.fromkeys(owners, split)
            owner_factor = dict.fromkeys(owners, 1.0)
            if correct is not None:
                owner_shares, owner_factor = correct(owner_shares, group)
            entity_share = dict(owner_shares.items())
            entity_factor = {o: group_factor[group] * owner_factor[o] for o in owners}
        for entity, members in entities.items():
            prios = entity_priorities(
                [queues[i] for i in members],
                [weights[i] for i in members],
                entity_share[entity],
                policy.allow_background_tqs,
            )
            for i, prio in zip(members, prios, strict=True):
                result[i] = (prio, entity_factor[entity])
    return result


def first_try_probabilities(priorities: Sequence[float], nodes: int = 24) -> list[float]:
    """Chance that each queue comes first in ``ORDER BY RAND() / Priority ASC``.

    With U_i uniform on (0, 1) per queue, queue i is first when U_i/P_i is the smallest key.
    With r_j = P_j / max P this is ``r_i ∫_0^1 Π_{j≠i} (1 - r_j t) dt``, a polynomial
    integral computed with Gauss-Legendre quadrature on panels that follow the integrand's
    roughly ``exp(-t Σ r_j)`` decay (exact for up to ``2·nodes`` queues). Equal priorities are
    evaluated once. For two queues P1 >= P2 it is ``1 - P2/(2 P1)`` for the first.

    Args:
        priorities: the queues' stored priorities (all > 0).
        nodes: Gauss-Legendre points per panel.

    Returns:
        One probability per queue, in the order given; they sum to 1.
    """
    if not priorities:
        return []
    top = max(priorities)
    multiplicity: dict[float, int] = {}
    for p in priorities:
        multiplicity[p] = multiplicity.get(p, 0) + 1
    ratios = [(p / top, m) for p, m in multiplicity.items()]
    total = sum(r * m for r, m in ratios)
    degree = len(priorities) - 1
    points = _panel_points(total, degree, nodes)
    log_product = [sum(m * math.log1p(-r * t) for r, m in ratios) for t, _ in points]
    chance: dict[float, float] = {}
    for p, (r, _) in zip(multiplicity, ratios, strict=True):
        acc = math.fsum(
            w * math.exp(lp - math.log1p(-r * t))
            for (t, w), lp in zip(points, log_product, strict=True)
        )
        chance[p] = r * acc
    return [chance[p] for p in priorities]


def _panel_points(total: float, degree: int, nodes: int) -> list[tuple[float, float]]:
    """Quadrature points and weights over [0, 1] for ``Π (1 - r_j t)`` with ``Σ r_j = total``."""
    base = _gauss_legendre(nodes)
    if degree < 2 * nodes:
        edges = [0.0, 1.0]
    else:
        # The product is at most exp(-total·t); past t = 80/total it is negligible.
        upper = min(1.0, 80.0 / total)
        edges = [0.0]
        step = 1.0 / total
        while step < upper:
            edges.append(step)
            step *= 2.0
        edges.append(upper)
    points: list[tuple[float, float]] = []
    for a, b in itertools.pairwise(edges):
        half = (b - a) / 2.0
        mid = (a + b) / 2.0
        points.extend((mid + half * x, half * w) for x, w in base)
    return points


_GL_CACHE: dict[int, list[tuple[float, float]]] = {}


def _gauss_legendre(n: int) -> list[tuple[float, float]]:
    """Gauss-Legendre nodes and weights on [-1, 1] (Newton iteration on P_n)."""
    cached = _GL_CACHE.get(n)
    if cached is not None:
        return cached
    result: list[tuple[float, float]] = []
    for k in range(1, n + 1):
        x = math.cos(math.pi * (k - 0.25) / (n + 0.5))
        for _ in range(100):
            p0, p1 = 1.0, x
            for j in range(2, n + 1):
                p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
            dp = n * (x * p1 - p0) / (x * x - 1.0)
            dx = p1 / dp
            x -= dx
            if abs(dx) < 1e-16:
                break
        p0, p1 = 1.0, x
        for j in range(2, n + 1):
            p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
        dp = n * (x * p1 - p0) / (x * x - 1.0)
        result.append((x, 2.0 / ((1.0 - x * x) * dp * dp)))
    _GL_CACHE[n] = result
    return result


def task_queue_rows(
    queues: Sequence[TaskQueue],
    groups: Mapping[str, GroupPolicy],
    correct: ShareCorrector | None = None,
    weighting: JobPriorityWeighting = "average",
) -> list[TaskQueueRow]:
    """Priorities, shares and first-try chances of every task queue (``fs taskqueues``).

    Args:
        queues: all task queues, in id order (see :func:`build_task_queues`).
        groups: policy per DIRAC group.
        correct: the share corrector, None when correction is off.
        weighting: see :data:`JobPriorityWeighting`.

    Returns:
        One row per queue, in id order.
    """
    computed = task_queue_priorities(queues, groups, correct, weighting)
    stored = [stored_priority(p) for p, _ in computed]
    total = math.fsum(stored)
    p_first = first_try_probabilities([float32(p) for p in stored])
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
