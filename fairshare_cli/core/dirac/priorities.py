"""DIRAC task-queue priorities, as DIRAC's TaskQueueDB recalculates them.

Mirrors ``WorkloadManagementSystem/DB/TaskQueueDB.py``'s ``recalculateTQSharesForAll``,
``recalculateTQSharesForEntity`` and ``calculate_priority``, then the pilot-side ``ORDER BY
RAND()/Priority`` selection of ``matchAndGetJob`` (each queue's first-try chance) for ``fs
taskqueues``' rows. The queues themselves: :mod:`~fairshare_cli.core.dirac.taskqueues`.
Pure: no I/O, no clock.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from fairshare_cli.core.dirac.collation import folded
from fairshare_cli.core.dirac.first_try import first_try_probabilities
from fairshare_cli.core.dirac.stored import real_priority, stored_float32, stored_priority
from fairshare_cli.core.dirac.taskqueues import (
    ALL_OWNERS,
    BACKGROUND_THRESHOLD,
    DEFAULT_GROUP_SHARE,
    NEW_TQ_PRIORITY,
    TQ_MIN_SHARE,
    CorrectionFails,
    GroupPolicy,
    JobPriorityWeighting,
    ShareCorrector,
    TaskQueue,
    TaskQueueRow,
)


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

    first = {key: min(members, key=index_order) for key, members in same.items()}
    ordered = sorted(same, key=lambda key: index_order(first[key]))
    return {queues[first[key]].definition.group: same[key] for key in ordered}


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
