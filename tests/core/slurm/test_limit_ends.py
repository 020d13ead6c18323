"""Where slurmctld ends a running job, and views end its charge (core/slurm/limit_ends.py).

``job_time_limit`` (``job_mgr.c``, 22.05 and 26.05 alike) times a running job out once
``end_time`` (start + time limit) is ``OverTimeLimit`` minutes behind: its partition's when
set, else the cluster's; UNLIMITED (``INFINITE16``) a year (``YEAR_SECONDS``). A job's limit
is its own, else its partition's ``DefaultTime``, else ``MaxTime``; none is UNLIMITED and
never timed out. Each end below is start (1000) + those seconds.
"""

from __future__ import annotations

import math

import pytest

from fairshare_cli.core.config import Config, PartitionSpec, SlurmPriorityConfig
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.slurm import usage as su
from fairshare_cli.core.slurm.limit_ends import (
    advance_at_limits,
    charged_objects,
    ended_at_limits,
    limit_end,
    removed_end,
)
from fairshare_cli.core.slurm.partition import YEAR

PARTS = {
    "batch": PartitionSpec(name="batch", default=True),
    "short": PartitionSpec(name="short", max_time=1800.0, over_time_limit=300.0),
    "dflt": PartitionSpec(name="dflt", default_time=600.0, max_time=1800.0),
    "open": PartitionSpec(name="open", over_time_limit=math.inf),
}


def _config(over_time: float = 120.0) -> Config:
    priority = SlurmPriorityConfig(calc_period=300.0, over_time_limit=over_time)
    return Config(priority=priority, partitions=PARTS)


@pytest.mark.parametrize(
    ("partition", "time_limit", "expected"),
    [
        pytest.param("batch", 3600.0, 1000 + 3600 + 120, id="own-limit-cluster-over-time"),
        pytest.param(None, 3600.0, 1000 + 3600 + 120, id="no-partition:-the-default-one"),
        pytest.param("short", 600.0, 1000 + 600 + 300, id="the-partitions-over-time-first"),
        pytest.param("short", None, 1000 + 1800 + 300, id="no-limit:-max-time"),
        pytest.param("dflt", None, 1000 + 600 + 120, id="no-limit:-default-time-first"),
        pytest.param("short,batch", 60.0, 1000 + 60 + 300, id="a-list:-its-first"),
        pytest.param("open", 60.0, 1000 + 60 + YEAR, id="unlimited-over-time:-a-year"),
        pytest.param("batch", None, None, id="unlimited-limit:-never"),
        pytest.param("batch", math.inf, None, id="an-infinite-limit:-never"),
    ],
)
def test_limit_end(partition: str | None, time_limit: float | None, expected: float | None) -> None:
    job = Job(id="1", owner="u", partition=partition, time_limit=time_limit, status="running")
    assert limit_end(job, 1000.0, _config()) == expected


def _state(*charges: su.RunningCharge) -> su.SlurmUsage:
    return su.SlurmUsage(last_decay_ran=900.0, usage={("a", "u"): 10.0}, running=charges)


QUEUE = [
    Job(id="1", owner="u", partition="batch", time_limit=600.0, status="running"),
    Job(id="2", owner="u", partition="batch", status="running"),
    Job(id="3", owner="u", partition="batch", time_limit=600.0, status="idle"),
]


def test_ended_at_limits_ends_only_the_queues_running_jobs_of_a_limit() -> None:
    charges = (
        su.RunningCharge("a", "u", 1.0, 1000.0, job="1"),
        su.RunningCharge("a", "u", 1.0, 1000.0, job="2"),  # UNLIMITED
        su.RunningCharge("a", "u", 1.0, 1000.0, job="3"),  # not running in the queue
        su.RunningCharge("a", "u", 1.0, 1000.0),  # no job (a history record)
        su.RunningCharge("a", "u", 1.0, 1000.0, end=1200.0, job="1"),  # ends earlier
    )
    ended = ended_at_limits(_state(*charges), QUEUE, _config(0.0))
    assert [r.end for r in ended.running] == [1600.0, None, None, None, 1200.0]
    state = _state(*charges[1:4])
    assert ended_at_limits(state, QUEUE, _config(0.0)) is state


def test_advance_at_limits_folds_ended_charges_and_keeps_open_ones_as_stored() -> None:
    charges = (
        su.RunningCharge("a", "u", 1.0, 1000.0, job="1"),  # ends 1600, before the 2100 pass
        su.RunningCharge("a", "u", 1.0, 1000.0, job="2"),
    )
    params = su.DecayParams(halflife=math.inf, calc_period=300.0)
    advanced = advance_at_limits(_state(*charges), QUEUE, _config(0.0), 2200.0, params)
    # no decay: 10 + job 1's passes 1200, 1500 (200 + 300 s) + job 2's up to 2100 (1100 s)
    assert advanced.last_decay_ran == 2100.0
    assert advanced.usage == {("a", "u"): 10.0 + 500.0 + 1100.0}
    assert advanced.running == charges[1:]
    early = advance_at_limits(_state(*charges), QUEUE, _config(0.0), 1500.0, params)
    assert early.running == charges  # (job 1 runs until 1600: its charge stays open)


def test_removed_end_is_now_or_the_limit_if_earlier() -> None:
    charge = su.RunningCharge("a", "u", 1.0, 1000.0, job="1")
    assert removed_end(QUEUE[0], charge, 1500.0, _config(0.0)) == 1500.0
    assert removed_end(QUEUE[0], charge, 9000.0, _config(0.0)) == 1600.0
    assert removed_end(QUEUE[1], charge, 9000.0, _config(0.0)) == 9000.0


def test_the_queue_objects_read_are_those_of_open_charges_and_of_counts() -> None:
    """Of a queue's objects, those whose ids name an open charge and any of a ``count``
    (whose jobs' ids are ``C.0`` ...) are read; the others are not."""
    queue = [{"id": "1"}, {"id": "2"}, {"id": "3", "count": 2}, {"id": "4", "status": "running"}]
    assert charged_objects(queue, {"2", "4"}) == [queue[1], queue[2], queue[3]]
    assert charged_objects(queue, set()) == [queue[2]]


@pytest.mark.parametrize(
    "queue", [[{"id": "1"}, ["not", "an", "object"]], [{"id": ["a", "list"]}], {"id": "1"}, None]
)
def test_a_queue_the_filter_cannot_read_goes_whole_to_the_reader(queue: object) -> None:
    """A queue of something other than objects, or an id no set holds, is handed on whole,
    for the queue's reader to refuse as it always has."""
    assert charged_objects(queue, {"1"}) is queue
