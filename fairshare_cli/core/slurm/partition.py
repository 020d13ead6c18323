"""The partition of a Slurm job that names none, and the time limit of one that sets none.

One rule for every reader (``fs sprio``, billing, ``fs simulate``, ``fs submit``), as
slurmctld 22.05 and 26.05 apply it:

- The default partition is the *last* ``Default=YES`` partition in config order:
  ``_build_single_partitionline_info`` (``read_config.c``) moves ``default_part_loc`` to
  each ``Default=YES`` line it reads, clearing the flag of the one before.
- A job naming no partition goes to that one (``_get_job_parts`` in ``job_mgr.c``); with
  none set it is refused, ``ESLURM_DEFAULT_PARTITION_NOT_SET`` ("No partition specified
  or system default partition"), even where partitions exist. A pool of no partitions at
  all is ``fs``'s own model (every node is one): its jobs run anywhere.
- A job with no time limit takes its primary partition's ``DefaultTime`` at submission
  (``_valid_job_part``: the first partition it names, ``get_part_list``'s ``part_ptr``);
  with none it keeps no limit until it starts, when the partition it starts in gives its
  ``DefaultTime``, else its ``MaxTime`` (``select_nodes`` in ``node_scheduler.c``), or
  when backfill starts it, the ``MaxTime`` backfill planned it with. Until then
  ``MaxTime`` stands in for it: sprio's job size under ``SMALL_RELATIVE_TO_TIME``
  (``_set_priority_factors``), and the backfill plan (``_set_backfill_timelimits`` in
  ``backfill.c``), where an UNLIMITED one is a year, as is a running job's of no limit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from fairshare_cli.core.config import Config, PartitionSpec
from fairshare_cli.errors import InputError

T = TypeVar("T")


class NoDefaultPartition(InputError):
    """A Slurm job names no partition where partitions exist and none is the default."""


class HasDefaultTime(Protocol):
    """A partition as a reader holds it (the config's, or sprio's)."""

    @property
    def name(self) -> str: ...
    @property
    def default_time(self) -> float | None: ...


def default_partition(partitions: Mapping[str, PartitionSpec]) -> str | None:
    """The partition of a job that names none: the last ``Default=YES`` one; None when
    no partition is the default."""
    name = None
    for spec in partitions.values():
        if spec.default:
            name = spec.name
    return name


def job_partitions(job: Any, partitions: Mapping[str, PartitionSpec]) -> tuple[str, ...]:
    """:func:`partitions_of` a job in the config's ``partitions``."""
    return partitions_of(job, partitions, default_partition(partitions))


def partitions_of(job: Any, names: Collection[str], default: str | None) -> tuple[str, ...]:
    """The partitions of a Slurm job: those it names, else ``default`` (the default one of
    the partitions ``names``); ``()`` in a pool that has no partitions (the job may run on
    any node).

    Raises:
        NoDefaultPartition: the job names none, partitions exist and none is the default.
    """
    named: tuple[str, ...] = job.partitions
    if named or not names:
        return named
    if default is None:
        raise NoDefaultPartition(no_default_message(job.id, names))
    return (default,)


def partitionless(jobs: Iterable[Any], partitions: Mapping[str, PartitionSpec]) -> list[Any]:
    """The jobs of ``jobs`` (waiting, not held, or running) that name no partition where
    ``partitions`` (the config's) has none the default: slurmctld refuses them
    (:func:`partitions_of`); ``fs whatif`` leaves them out of the side whose config does."""
    if not partitions or default_partition(partitions) is not None:
        return []
    return [
        job
        for job in jobs
        if not job.partitions
        and ((job.status == "idle" and job.admin_priority != 0) or job.status == "running")
    ]  # (admin priority 0: held)


def kept_in_partitions(
    items: Sequence[T], job_of: Callable[[T], Any], partitions: Mapping[str, PartitionSpec]
) -> tuple[list[T], list[str]]:
    """``items`` (jobs, or batches: ``job_of`` gives each one's job) less those whose job
    :func:`partitionless` finds, and why slurmctld refuses each of those (in order)."""
    found = partitionless(map(job_of, items), partitions)
    if not found:
        return list(items), []
    out = set(map(id, found))
    kept = [item for item in items if id(job_of(item)) not in out]
    return kept, [no_default_message(job.id, partitions) for job in found]


def refuse_partitionless(
    jobs: Iterable[Any], partitions: Mapping[str, PartitionSpec], source: str
) -> None:
    """Refuse the first of ``jobs`` that :func:`partitionless` finds, naming ``source``,
    where the jobs came from, as ``fs sprio`` names it: ``fs simulate --scheduler slurm``
    would refuse it (:func:`partitions_of`) only once a cycle reaches it, naming the job
    alone.

    Raises:
        InputError: ``source: job ID: names no partition, ...``.
    """
    for job in partitionless(jobs, partitions)[:1]:
        raise InputError(f"{source}: {no_default_message(job.id, partitions)}")


def no_default_message(job_id: str, partitions: Iterable[str]) -> str:
    """Why Slurm refuses job ``job_id``, which names no partition where none of
    ``partitions`` is the default (sbatch's words, then the fix)."""
    names = ", ".join(partitions)
    return (
        f"job {job_id}: names no partition, and no partition ({names}) is the default;"
        ' Slurm refuses it ("No partition specified or system default partition"): give the'
        " job a partition, or set default = true on one"
    )


def submitted_time_limit(job: Any, primary: HasDefaultTime | None) -> float | None:
    """The job's time limit once slurmctld took it (seconds; None: none yet): its own,
    else the ``DefaultTime`` of ``primary``, its first partition (:func:`job_partitions`).

    Raises:
        InputError: the job sets none and that ``DefaultTime`` is 0, which makes users
            give one (``_valid_job_part``: ``ESLURM_INVALID_TIME_LIMIT``).
    """
    if job.time_limit is not None:
        return job.time_limit  # type: ignore[no-any-return]
    if primary is None or primary.default_time is None:
        return None
    if primary.default_time == 0:
        raise InputError(
            f'job {job.id}: sets no time limit and partition "{primary.name}" has DefaultTime 0;'
            ' Slurm refuses it ("Requested time limit is invalid (missing or exceeds some'
            ' limit)"): give it a time_limit'
        )
    return primary.default_time


def started_time_limit(limit: float | None, spec: PartitionSpec | None) -> float | None:
    """The time limit a job of ``limit`` (:func:`submitted_time_limit`) runs under in
    partition ``spec``: ``limit``, else the partition's ``DefaultTime``, else its
    ``MaxTime`` (None: UNLIMITED)."""
    if limit is not None or spec is None:
        return limit
    return spec.default_time if spec.default_time is not None else spec.max_time


#: How long slurmctld plans a job of an UNLIMITED time limit to run: a year
#: (``YEAR_SECONDS``, 365 days, in ``slurm_protocol_defs.h``; 22.05 and 26.05 alike).
YEAR = 365 * 24 * 60 * 60


def planned_time_limit(limit: float | None, spec: PartitionSpec | None) -> float:
    """How long backfill plans a pending job of ``limit`` (:func:`submitted_time_limit`)
    to run in partition ``spec`` (``_set_backfill_timelimits``; 22.05 inlines it in
    ``_attempt_backfill``): none or UNLIMITED, the partition's ``MaxTime`` (not its
    ``DefaultTime``); else ``limit``, at most that ``MaxTime``. An UNLIMITED ``MaxTime``
    (unset) is planned as a :data:`YEAR` (``YEAR_MINUTES``).

    A job of no limit that backfill starts keeps this one (``orig_time_limit == NO_VAL``:
    ``job_ptr->time_limit = comp_time_limit``) and is ended there."""
    top = spec.max_time if spec is not None else None
    asked = None if limit is None or math.isinf(limit) else float(limit)
    if top is None or math.isinf(top):
        return YEAR if asked is None else asked
    return float(top) if asked is None else min(asked, top)


def over_time_limit(config: Config, partition: str | None) -> float:
    """The ``OverTimeLimit`` of a job running in ``partition`` (the first of a list;
    seconds, ``inf``: UNLIMITED): the partition's, else the cluster's (``job_time_limit``)."""
    spec = config.partitions.get(partition.split(",", 1)[0]) if partition else None
    if spec is not None and spec.over_time_limit is not None:
        return spec.over_time_limit
    return config.priority.over_time_limit


def killed_after(limit: float | None, over_time: float) -> float:
    """How long after its start slurmctld ends a job still running under ``limit``
    (seconds; None or ``inf``: UNLIMITED, never) and ``OverTimeLimit`` ``over_time``
    (seconds; ``inf``: UNLIMITED, a :data:`YEAR`): ``job_time_limit`` (``job_mgr.c``, 22.05
    and 26.05 alike) ends it once its end (start + limit) is ``over_time`` behind."""
    if limit is None or math.isinf(limit):
        return math.inf
    return limit + (YEAR if math.isinf(over_time) else over_time)


def planned_end(start: float, limit: float | None) -> float:
    """When slurmctld plans a job started at ``start`` under ``limit`` (seconds; None or
    ``inf``: UNLIMITED) to end: ``job_end_time_reset`` (``job_mgr.c``) sets ``end_time`` a
    :data:`YEAR` after the start for an UNLIMITED one; backfill plans around it."""
    return start + (YEAR if limit is None or math.isinf(limit) else limit)


def tier_order(pinfos: list[tuple[Any, float]]) -> list[tuple[Any, float]]:
    """A job's partitions in the order slurmctld keeps them, and sprio lists them: highest
    ``PriorityTier`` first, partitions of one tier as named (``get_part_list`` sorts the
    list with ``priority_sort_part_tier``, which compares tiers only, through ``qsort``,
    whose merge sort keeps equal ones in place; Slurm 22.05 and 26.05 alike)."""
    if len(pinfos) < 2 or len({info.priority_tier for info, _ in pinfos}) < 2:
        return pinfos
    return sorted(pinfos, key=lambda pf: -pf[0].priority_tier)


def sizing_partition(
    job: Any,
    pinfos: Sequence[tuple[Any, float]],
    ordered: Sequence[tuple[Any, float]],
    last_pass: float,
    terms: Mapping[str, float] | None = None,
    limit: float | None = None,
) -> Any:
    """The partition whose ``MaxTime`` sizes a job that has no time limit and whose TRES its
    own factors count (``set_priority_factors``: ``job_ptr->part_ptr``): of
    :func:`sizing_choices`, the one of least ``terms`` (by name: the priorities slurmctld
    stores, whole numbers, :mod:`~.sizer`), of equal ones the last (the last without
    ``terms``). The captures agree: a job of ``batch,express`` and no time limit prints
    batch's ``MaxTime`` (``pack_job``), its lower priority, both of tier 1; one of
    ``long,express`` (tiers 2 and 1) and 4 hours, above express's 2, long's priority."""
    lowest = sizing_choices(job, pinfos, ordered, last_pass, limit)
    return min(reversed(lowest), key=lambda info: terms[info.name]) if terms else lowest[-1]


def sizing_choices(
    job: Any,
    pinfos: Sequence[tuple[Any, float]],
    ordered: Sequence[tuple[Any, float]],
    last_pass: float,
    limit: float | None = None,
) -> list[Any]:
    """The partitions :func:`sizing_partition` chooses among: its first named (``pinfos``),
    slurmctld's primary partition at submission (22.05 and 26.05 alike: ``_get_job_parts``
    takes the head of the list as named, the factors ``job_allocate``'s ``set_job_prio``
    computes before ``_select_nodes_parts`` tries each), until the first decay pass after
    it came (``last_pass``); from then those the schedulers may pop its record of last,
    where they leave it (``_schedule`` and backfill set ``job_ptr->part_ptr`` to each
    record's, in ``sort_job_queue2``'s order: highest tier first, then highest priority):
    of the partitions whose ``MaxTime`` the job's time limit (``limit``, seconds) is within,
    as ``build_job_queue`` queues no record where ``job_limits_check`` holds it back, those
    of the lowest tier, in tier order (``ordered``)."""
    if len(pinfos) < 2 or submitted_since(job.submit_time, last_pass):
        return [pinfos[0][0]]
    whole = None if limit is None or math.isinf(limit) else math.ceil(limit / 60.0) * 60.0
    fit = [pf for pf in ordered if whole is None or not whole > (pf[0].max_time or math.inf)]
    fit = fit or list(ordered)
    return [info for info, _ in fit if info.priority_tier == fit[-1][0].priority_tier]


def submitted_since(submitted: float | None, when: float) -> bool:
    """Whether a job submitted at ``submitted`` came after the decay pass at ``when``, which
    then has not computed its factors (one with no submit time did not)."""
    return submitted is not None and submitted >= when
