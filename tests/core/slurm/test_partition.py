"""The partition of a Slurm job that names none, and its time limit (core/slurm/partition.py).

Each case is slurmctld's rule read from its source (22.05.11 and 26.05.3 alike):
``_build_single_partitionline_info`` (``read_config.c``) moves the default to each
``Default=YES`` line it reads; ``_get_job_parts`` (``job_mgr.c``) refuses a job naming no
partition when none is the default (``ESLURM_DEFAULT_PARTITION_NOT_SET``);
``_valid_job_part`` gives a job of no time limit its primary partition's ``DefaultTime``
(refusing it for ``DefaultTime=0``); ``select_nodes`` (``node_scheduler.c``) gives one
still without a limit the ``DefaultTime``, else the ``MaxTime``, of the partition it starts
in; backfill plans such a job with the ``MaxTime`` (``_set_backfill_timelimits``), a year
for an UNLIMITED one.
"""

from __future__ import annotations

import math

import pytest

from fairshare_cli.core.config import PartitionSpec
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.slurm.partition import (
    YEAR,
    default_partition,
    job_partitions,
    kept_in_partitions,
    planned_end,
    planned_time_limit,
    refuse_partitionless,
    started_time_limit,
    submitted_time_limit,
)
from fairshare_cli.errors import InputError


def _parts(*specs: PartitionSpec) -> dict[str, PartitionSpec]:
    return {spec.name: spec for spec in specs}


A = PartitionSpec(name="a")
B_DEFAULT = PartitionSpec(name="b", default=True, max_time=7200.0, default_time=1200.0)
C_DEFAULT = PartitionSpec(name="c", default=True, max_time=3600.0)


@pytest.mark.parametrize(
    ("specs", "expected"),
    [
        pytest.param((A, B_DEFAULT), "b", id="the-one-default"),
        pytest.param((B_DEFAULT, A, C_DEFAULT), "c", id="the-last-of-two-defaults"),
        pytest.param((C_DEFAULT, B_DEFAULT), "b", id="the-last-in-config-order"),
        pytest.param((A,), None, id="none-is-default:-not-the-first"),
        pytest.param((), None, id="no-partitions"),
    ],
)
def test_default_partition_is_the_last_default_yes(
    specs: tuple[PartitionSpec, ...], expected: str | None
) -> None:
    assert default_partition(_parts(*specs)) == expected


def test_job_partitions() -> None:
    parts = _parts(A, B_DEFAULT, C_DEFAULT)
    assert job_partitions(Job(id="1", owner="u", partition="a,b"), parts) == ("a", "b")
    assert job_partitions(Job(id="1", owner="u"), parts) == ("c",)
    # A pool of no partitions: the job runs on any node.
    assert job_partitions(Job(id="1", owner="u"), {}) == ()


def test_a_job_naming_no_partition_where_none_is_default_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        job_partitions(Job(id="7.0", owner="u"), _parts(A, PartitionSpec(name="d")))
    assert str(caught.value) == (
        "job 7.0: names no partition, and no partition (a, d) is the default; Slurm refuses"
        ' it ("No partition specified or system default partition"): give the job a'
        " partition, or set default = true on one"
    )


def test_refuse_partitionless_names_the_source_of_a_job_that_would_wait_or_run() -> None:
    """A held job (admin priority 0, or status held) and a finished one never reach a
    partition; a waiting or running one does, and is refused naming where it came from."""
    parts = _parts(A, PartitionSpec(name="d"))
    idle = [Job(id="1", owner="u", admin_priority=0), Job(id="2", owner="u", status="held"),
            Job(id="3", owner="u", status="completed"), Job(id="4", owner="u", partition="a")]  # fmt: skip
    refuse_partitionless(idle, parts, "w.json")
    refuse_partitionless([Job(id="5", owner="u")], _parts(A, B_DEFAULT), "w.json")
    refuse_partitionless([Job(id="5", owner="u")], {}, "w.json")
    for job in (Job(id="5", owner="u"), Job(id="5", owner="u", status="running")):
        with pytest.raises(InputError, match=r"^w\.json: job 5: names no partition, and no"):
            refuse_partitionless([*idle, job], parts, "w.json")


def test_kept_in_partitions_leaves_out_what_refuse_partitionless_refuses() -> None:
    """The same jobs, kept in order less the waiting and running ones of no partition, with
    slurmctld's reason for each; batches through their job."""
    parts = _parts(A, PartitionSpec(name="d"))
    held = Job(id="1", owner="u", admin_priority=0)
    named = Job(id="4", owner="u", partition="a")
    waiting, running = Job(id="5", owner="u"), Job(id="6", owner="u", status="running")
    kept, why = kept_in_partitions([held, waiting, named, running], lambda job: job, parts)
    assert kept == [held, named]
    assert [text.split(":")[0] for text in why] == ["job 5", "job 6"]
    assert why[0].startswith("job 5: names no partition, and no partition (a, d) is the default")
    batches = [(waiting,), (named,)]
    assert kept_in_partitions(batches, lambda b: b[0], parts) == ([(named,)], why[:1])
    assert kept_in_partitions([waiting], lambda job: job, _parts(A, B_DEFAULT)) == ([waiting], [])


def test_submitted_time_limit() -> None:
    """Its own limit; else the primary partition's DefaultTime; else none yet."""
    assert submitted_time_limit(Job(id="1", owner="u", time_limit=60.0), B_DEFAULT) == 60.0
    assert submitted_time_limit(Job(id="1", owner="u"), B_DEFAULT) == 1200.0
    assert submitted_time_limit(Job(id="1", owner="u"), C_DEFAULT) is None
    assert submitted_time_limit(Job(id="1", owner="u"), None) is None


def test_default_time_zero_refuses_a_job_of_no_limit() -> None:
    zero = PartitionSpec(name="z", default_time=0.0)
    assert submitted_time_limit(Job(id="1", owner="u", time_limit=60.0), zero) == 60.0
    with pytest.raises(InputError, match='job 1: sets no time limit and partition "z" has'):
        submitted_time_limit(Job(id="1", owner="u"), zero)


def test_started_and_planned_time_limits() -> None:
    """At start: the limit, else DefaultTime, else MaxTime (None: UNLIMITED); backfill's
    plan (``_set_backfill_timelimits``, 26.05.3; inline in 22.05.9's
    ``_attempt_backfill``): none or UNLIMITED, the MaxTime (never DefaultTime), an
    UNLIMITED one as ``YEAR_MINUTES`` (365 × 1440 minutes = 31,536,000 s); else the limit,
    at most the MaxTime."""
    assert started_time_limit(60.0, B_DEFAULT) == 60.0
    assert started_time_limit(None, B_DEFAULT) == 1200.0
    assert started_time_limit(None, C_DEFAULT) == 3600.0
    assert started_time_limit(None, A) is None
    assert YEAR == 31_536_000
    assert planned_time_limit(60.0, B_DEFAULT) == 60.0
    assert planned_time_limit(9000.0, B_DEFAULT) == 7200.0
    assert planned_time_limit(None, B_DEFAULT) == 7200.0
    assert planned_time_limit(math.inf, B_DEFAULT) == 7200.0
    assert planned_time_limit(None, A) == YEAR
    assert planned_time_limit(math.inf, A) == YEAR
    assert planned_time_limit(2 * YEAR, A) == 2 * YEAR
    assert planned_time_limit(None, None) == YEAR
    assert planned_time_limit(None, PartitionSpec(name="i", max_time=math.inf)) == YEAR


def test_planned_end_of_an_unlimited_job_is_a_year_on() -> None:
    """``job_end_time_reset`` (``job_mgr.c``): ``start_time`` + 365 × 24 × 60 × 60 for an
    INFINITE limit, else + the limit."""
    assert planned_end(1000.0, 60.0) == 1060.0
    assert planned_end(1000.0, None) == 1000.0 + 31_536_000
    assert planned_end(1000.0, math.inf) == 1000.0 + 31_536_000
