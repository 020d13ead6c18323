"""The priorities ``insertJob`` leaves on queues that DIRAC's periodic recalculation skips.

``recalculateTQSharesForAll`` asks for the entity ``all`` of each group; in a group without
JobSharing whose owner spelt ``all`` has several queues, ``recalculateTQSharesForEntity``
then sets only all's queues (``user in owners and owners[user] > 1``). The group's other
queues keep what the last recalculation that reached them set. With the waiting jobs queued
in their order and then one TaskQueuesAgent cycle (how ``fs taskqueues`` reads a queue),
that is the one ``insertJob`` runs when it makes a queue of the group: in the service that
queued the job, whose TaskQueueDB never loads ``__groupShares`` (only the agent's
``__updateGlobalShares`` does), so with ``DEFAULT_GROUP_SHARE`` split over the group's
owners, uncorrected, over the jobs queued so far. So too where the agent's share
correction divides by zero (:class:`~fairshare_cli.core.dirac.taskqueues.CorrectionFails`):
its cycle fails there each time, and the groups it has not reached keep insertJob's values.
Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from fairshare_cli.core.dirac.collation import folded
from fairshare_cli.core.dirac.priorities import (
    UnlistedGroup,
    entity_priorities,
    group_owners,
    job_weight,
    share_groups,
    task_queue_priorities,
)
from fairshare_cli.core.dirac.taskqueues import (
    ALL_OWNERS,
    DEFAULT_GROUP_SHARE,
    CorrectionFails,
    GroupPolicy,
    JobPriorityWeighting,
    ShareCorrector,
    TaskQueue,
    TaskQueueDefinition,
)

Corrected = tuple[dict[str, float], dict[str, float]]


@dataclass(frozen=True)
class LeftAsMade:
    """The queues ``recalculateTQSharesForAll`` does not set, by group (the group as
    :func:`~fairshare_cli.core.dirac.priorities.share_groups` names it), and where its
    share correction failed: None (it did not), ``""`` (between groups) or the group, and
    why (the :class:`~fairshare_cli.core.dirac.taskqueues.CorrectionFails` message)."""

    counts: dict[str, int]
    failed_at: str | None = None
    reason: str = ""


def queues_left_as_made(
    queues: Sequence[TaskQueue],
    groups: Mapping[str, GroupPolicy],
    correct: ShareCorrector | None = None,
    may_fail: bool = False,
) -> LeftAsMade:
    """The queues the agent's recalculation leaves as ``insertJob`` set them: those of an
    owner other than ``all`` where ``all`` has several, and every queue of a group the
    recalculation does not reach once its correction fails (the recalculation itself run
    with a stand-in priority that none it computes can be; not run where nothing can be
    left: no owner spelt ``all``, no share that could sum to 0, and not ``may_fail``: a
    corrector that may divide by a maximum correction of 0)."""
    zero = correct is not None and (may_fail or any(groups[g].job_share <= 0 for g in groups))
    if not zero and all(q.definition.owner != ALL_OWNERS for q in queues):
        return LeftAsMade({})
    failed: list[tuple[str, str]] = []

    def watched(shares: dict[str, float], group: str | None) -> Corrected:
        assert correct is not None
        try:
            return correct(shares, group)
        except CorrectionFails as exc:
            failed.append((group or "", str(exc)))
            raise

    stand_in = dict.fromkeys((q.tq_id for q in queues), math.nan)
    computed = task_queue_priorities(queues, groups, watched if correct else None, kept=stand_in)
    counts: dict[str, int] = {}
    for group, indices in share_groups(queues).items():
        count = sum(1 for i in indices if math.isnan(computed[i][0]))
        if count:
            counts[group] = count
    return LeftAsMade(counts, *(failed[0] if failed else (None, "")))


class InsertTimePriorities:
    """Records, as queues are made, what ``insertJob``'s recalculation sets in some groups.

    Pass the instance as ``build_task_queues(..., on_new_queue=...)`` over the jobs in the
    order they were queued; :attr:`kept` then maps each TQId of those groups to the priority
    the last recalculation that reached it computed (full precision).
    """

    def __init__(
        self,
        groups: Mapping[str, GroupPolicy],
        only: Sequence[str],
        weighting: JobPriorityWeighting = "average",
        kept: dict[int, float] | None = None,
    ) -> None:
        """Watch the groups ``only`` (compared by the collation); fill ``kept`` if given."""
        self.groups = groups
        self.only = {folded(g) for g in only}
        self.weighting = weighting
        self.kept: dict[int, float] = {} if kept is None else kept
        self._members: dict[str, list[int]] = {}  # a watched group's queue indices so far

    def __call__(
        self, definitions: Sequence[TaskQueueDefinition], levels: Sequence[dict[int, int]]
    ) -> None:
        """``recalculateTQSharesForEntity(owner, group)`` for the newest queue, as the service
        that queued its first job runs it (``DEFAULT_GROUP_SHARE``, no correction)."""
        made = definitions[-1]
        key = folded(made.group)
        if key not in self.only:
            return
        indices = self._members.setdefault(key, [])
        indices.append(len(definitions) - 1)
        queues = [
            TaskQueue(i + 1, definitions[i], tuple(sorted(levels[i].items()))) for i in indices
        ]
        policy = self.groups.get(made.group) or UnlistedGroup()
        for entity, share in self._entities(queues, made, policy.job_sharing):
            prios = entity_priorities(
                entity,
                [job_weight(q, self.weighting) for q in entity],
                share,
                policy.allow_background_tqs,
            )
            for queue, prio in zip(entity, prios, strict=True):
                self.kept[queue.tq_id] = prio

    @staticmethod
    def _entities(
        queues: list[TaskQueue], made: TaskQueueDefinition, job_sharing: bool
    ) -> list[tuple[list[TaskQueue], float]]:
        """The entities ``recalculateTQSharesForEntity(owner, group)`` sets, each with its
        share. The group is the job's spelling, whose properties the Registry reads: with
        JobSharing, every queue of the group (``OwnerGroup=%s`` takes every spelling under
        the collation) is one entity with the whole share, even where another spelling of
        the group has no JobSharing; otherwise the share is split over the owners."""
        if job_sharing:
            return [(queues, float(DEFAULT_GROUP_SHARE))]
        members, names = group_owners(queues, list(range(len(queues))))
        share = float(DEFAULT_GROUP_SHARE) / len(members)
        mine = folded(made.owner)
        if names[mine] == made.owner and len(members[mine]) > 1:
            owners = [mine]  # the number of owners did not change: only this owner's queues
        else:
            owners = list(members)
        return [([queues[i] for i in members[owner]], share) for owner in owners]
