"""``insertJob``'s recalculation as queues are made (``core/dirac/insert_time.py``).

Numbers derived by hand from ``TaskQueueDB.py`` (DIRAC 9.1): ``insertJob`` calls
``recalculateTQSharesForEntity(owner, group)`` right after a new queue's first job, in a
TaskQueueDB whose ``__groupShares`` is empty (the default share 1000).
"""

from __future__ import annotations

from collections.abc import Hashable

from fairshare_cli.core.dirac.insert_time import InsertTimePriorities, queues_left_as_made
from fairshare_cli.core.dirac.taskqueues import TaskQueueDefinition, build_task_queues


def define(key: Hashable) -> TaskQueueDefinition:
    owner, cpu_time = key  # type: ignore[misc]
    return TaskQueueDefinition(owner=owner, group="user", cpu_time=cpu_time)


JOBS = [(("all", 3600), 1, 1), (("bob", 3600), 1, 3), (("all", 86400), 1, 1)]


def test_the_hook_leaves_the_queues_as_they_are() -> None:
    """Queueing a new queue's first job alone, then the rest, makes the same queues."""
    recorder = InsertTimePriorities({}, ["user"])
    assert build_task_queues(JOBS, define, on_new_queue=recorder) == build_task_queues(JOBS, define)


def test_each_new_queue_recalculates_with_the_default_share() -> None:
    """TQ1 (all, new): {all} 1000. TQ2 (bob, new): every owner, 1000/2 = 500 each (bob's
    first job only: average 1). TQ3 (all, now 2 queues): all's only, 500/2 = 250 each. So
    bob's TQ2 keeps 500, which the periodic recalculation (for all) never changes."""
    recorder = InsertTimePriorities({}, ["USER"])  # groups compare by the collation
    queues = build_task_queues(JOBS, define, on_new_queue=recorder)
    assert recorder.kept == {1: 250.0, 2: 500.0, 3: 250.0}
    assert queues_left_as_made(queues, {}).counts == {"user": 1}


def test_groups_not_watched_are_not_recalculated() -> None:
    recorder = InsertTimePriorities({}, ["prod"])
    build_task_queues(JOBS, define, on_new_queue=recorder)
    assert recorder.kept == {}
