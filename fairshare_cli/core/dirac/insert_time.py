"""The priorities ``insertJob`` leaves on queues that DIRAC's periodic recalculation skips.

``recalculateTQSharesForAll`` asks for the entity ``all`` of each group; in a group without
JobSharing whose owner spelt ``all`` has several queues, ``recalculateTQSharesForEntity``
then sets only all's queues (``user in owners and owners[user] > 1``). The group's other
queues keep what the last recalculation that reached them set. With the waiting jobs queued
in their order and then one TaskQueuesAgent cycle (how ``fs taskqueues`` reads a queue),
that is the one ``insertJob`` runs when it makes a queue of the group: in the service that
queued the job, whose TaskQueueDB never loads ``__groupShares`` (only the agent's
``__updateGlobalShares`` does), so with ``DEFAULT_GROUP_SHARE`` split over the group's
owners, uncorrected, over the jobs queued so far. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fairshare_cli.core.dirac.collation import folded
from fairshare_cli.core.dirac.taskqueues import (
    DEFAULT_GROUP_SHARE,
    GroupPolicy,
    JobPriorityWeighting,
    TaskQueue,
    TaskQueueDefinition,
    UnlistedGroup,
    entity_priorities,
    group_owners,
    job_weight,
    recalculated_owners,
    share_groups,
)


def queues_left_as_made(
    queues: Sequence[TaskQueue], groups: Mapping[str, GroupPolicy]
) -> dict[str, int]:
    """Groups with queues ``recalculateTQSharesForAll`` does not set, and how many.

    Keys are the group as :func:`~fairshare_cli.core.dirac.taskqueues.share_groups` names it.
    """
    left: dict[str, int] = {}
    for group, indices in share_groups(queues).items():
        if (groups.get(group) or UnlistedGroup()).job_sharing:
            continue
        members, names = group_owners(queues, indices)
        kept = set(recalculated_owners(members, names))
        count = sum(len(m) for k, m in members.items() if k not in kept)
        if count:
            left[group] = count
    return left


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
