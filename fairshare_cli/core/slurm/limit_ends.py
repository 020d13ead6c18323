"""Where the usage of a running job of the queue stops: slurmctld ends it at its limit.

``job_time_limit`` (``job_mgr.c``, 22.05 and 26.05 alike) times a running job out once its
``end_time`` (start + time limit) is ``OverTimeLimit`` behind (its partition's, else the
cluster's; UNLIMITED: a year); ``_job_timed_out`` sets ``end_time`` to that moment. The
decay thread charges it no more (``decay_apply_new_usage`` skips finished and completing
jobs); with limits enforced, ``priority_p_job_end`` charges it up to ``end_time``
(``_apply_new_usage``). A job of an UNLIMITED limit is never ended. slurmctld runs the test
every ``PERIODIC_TIMEOUT`` (30 s) from its own start, so it ends the job at the first test
at or after that moment; fs, which does not know that start, ends it at the moment itself
(the earliest the test can fall).

The state keeps a running job as ``fs submit`` (or ``fs negotiate``) left it: in the queue,
its charge open. Views read the charge as ending there (:func:`ended_at_limits`); a
command that writes the state folds the usage up to that end and keeps the charge open
while the job may still run (:func:`advance_at_limits`); ``fs rm`` ends it at the earlier of
``--now`` and that end (:func:`removed_end`).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from dataclasses import replace
from typing import Any

from fairshare_cli.core.config import Config, PartitionSpec
from fairshare_cli.core.jobs import Job, parse_jobs
from fairshare_cli.core.slurm import usage as su
from fairshare_cli.core.slurm.partition import (
    default_partition,
    killed_after,
    over_time_limit,
    started_time_limit,
)


def limit_end(job: Job, start: float, config: Config) -> float | None:
    """When slurmctld ends ``job``, started at ``start``, still running: start + its time
    limit (its own, else its partition's ``DefaultTime``, else ``MaxTime``) +
    ``OverTimeLimit`` (:func:`~.partition.killed_after`); None for an UNLIMITED limit.
    The partition is the job's first (the default one when it names none): the one it runs
    in, which a running job of several partitions names first, as slurmctld keeps it
    (``rebuild_job_part_list``; ``NodeFit.started`` where fs starts or takes one)."""
    spec, over_time = _partition_limits(job.partition, config)
    after = killed_after(started_time_limit(job.time_limit, spec), over_time)
    return start + after if math.isfinite(after) else None


def _partition_limits(names: str | None, config: Config) -> tuple[PartitionSpec | None, float]:
    """The partition a running job of ``names`` runs in (its first, as slurmctld lists a
    started job's; the default one for none) and its ``OverTimeLimit``."""
    head = names.split(",", 1)[0] if names else None
    partition = head or default_partition(config.partitions)
    spec = config.partitions.get(partition) if partition is not None else None
    return spec, over_time_limit(config, partition)


def ended_at_limits(state: su.SlurmUsage, jobs: Iterable[Job], config: Config) -> su.SlurmUsage:
    """The state with the charge of each running job of ``jobs`` (the queue) ended where
    slurmctld ends the job (:func:`limit_end`), unless it ends earlier already; the state
    itself when no charge changes. A partition's limits are found once (``fs import
    squeue``: 25,000 running jobs of a few partitions)."""
    open_ids = charged_ids(state)
    if not open_ids:
        return state
    limits: dict[str | None, tuple[PartitionSpec | None, float]] = {}
    length_of: dict[str | None, float] = {}  # (each running job's, by id)
    for job in jobs:
        if job.status == "running" and job.id in open_ids:
            if job.partition not in limits:
                limits[job.partition] = _partition_limits(job.partition, config)
            spec, over_time = limits[job.partition]
            length_of[job.id] = killed_after(started_time_limit(job.time_limit, spec), over_time)
    running = list(state.running)
    changed = False
    for k, charge in enumerate(running):
        length = length_of.get(charge.job)
        if length is None or not math.isfinite(length):  # (no queued job; UNLIMITED)
            continue
        end = charge.start + length
        if charge.end is None or end < charge.end:
            running[k] = su.RunningCharge(
                charge.account, charge.user, charge.rate, charge.start, end, charge.job
            )
            changed = True
    return replace(state, running=tuple(running)) if changed else state


def charged_ids(state: su.SlurmUsage) -> set[str]:
    """The ids of the queue's jobs whose charges are open in ``state``."""
    return {r.job for r in state.running if r.job is not None}


def charged_objects(objects: Any, ids: Collection[str]) -> Any:
    """The job objects of a queue (the state's, as decoded) that :func:`ended_at_limits`
    reads: those of these ids and those of a ``count`` (jobs ``C.0`` ...); every object
    where one is not an object or has an id no set holds (the queue's reader refuses
    those, as ever). Reading the 25,000 running jobs of a queue of 100,000 costs a quarter
    of reading it all (``fs import squeue``)."""
    try:
        return [o for o in objects if o.get("id") in ids or "count" in o]
    except (AttributeError, TypeError):  # (not a list of objects; an id a list, say)
        return objects


def charged_queue(ids: Collection[str], objects: Any, label: str) -> list[Job]:
    """The jobs of a queue's decoded ``objects`` (the state's) of these ids (those whose
    charges are open: :func:`charged_ids`), read by the queue's reader
    (:func:`charged_objects`; ``label`` names the queue in its errors); none read when
    there is no id.

    Raises:
        InputError: a malformed job among them.
    """
    return parse_jobs(charged_objects(objects or [], ids), label) if ids else []


def advance_at_limits(
    state: su.SlurmUsage, jobs: Iterable[Job], config: Config, now: float, params: su.DecayParams
) -> su.SlurmUsage:
    """:func:`~.usage.advance` with the queue's running jobs ended at their limits: the
    usage up to those ends is folded in, the charges of jobs ended before the new last pass
    are dropped, and those kept are as stored (their ends not written: a view derives
    them again from the queue and the config)."""
    return fold_ended(state, ended_at_limits(state, jobs, config), now, params)


def fold_ended(
    state: su.SlurmUsage, limited: su.SlurmUsage, now: float, params: su.DecayParams
) -> su.SlurmUsage:
    """:func:`advance_at_limits` of ``state`` whose :func:`ended_at_limits` is ``limited``
    (found already)."""
    return stored_charges_kept(state, limited, su.advance(limited, now, params))


def stored_charges_kept(
    state: su.SlurmUsage, limited: su.SlurmUsage, moved: su.SlurmUsage
) -> su.SlurmUsage:
    """``moved`` (``limited``, the :func:`ended_at_limits` of ``state``, brought to a later
    pass) with the charges of ``state`` as stored, less those that ended before that
    pass (their ends are not written: a view derives them again)."""
    if limited is state:
        return moved
    t = moved.last_decay_ran
    assert t is not None
    kept = tuple(
        stored
        for stored, charge in zip(state.running, limited.running, strict=True)
        if su.kept_after(charge.end, t)
    )
    return replace(moved, running=kept)


def removed_end(job: Job, charge: su.RunningCharge, now: float, config: Config) -> float:
    """When the charge of a job ``fs rm`` removes at ``now`` ends: ``now``, or earlier
    where slurmctld had ended the job at its limit (:func:`limit_end`)."""
    end = limit_end(job, charge.start, config)
    return now if end is None else min(now, end)
