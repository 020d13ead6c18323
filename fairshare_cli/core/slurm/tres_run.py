"""sshare's TRESRunMins: the TRES-minutes still to run of each association's running jobs.

slurmctld keeps them (``grp_used_tres_run_secs``) only under
``AccountingStorageEnforce=limits`` (``priority.enforce_limits``); without it it adds
nothing and sshare lists zeros. With it, 22.05 and 26.05 alike:

- a job's start adds each TRES's count times its time limit in seconds, times its QOS's
  ``UsageFactor`` (``_adjust_limit_usage`` in ``acct_policy.c``, ``ACCT_POLICY_JOB_BEGIN``:
  ``time_limit_secs *= usage_factor``, a ``uint64_t``, so truncated), to its association
  and every one above it, root included; an UNLIMITED limit is ``INFINITE`` minutes;
- each decay pass takes off the seconds run since the pass before (or the start), up to
  the planned end, times the usage factor, truncated (``_apply_new_usage`` in
  ``priority_multifactor.c``: ``tres_time_delta``), times each count;
- the job's end takes off the rest (``priority_p_job_end``), so an ended job counts 0;
- sshare prints each TRES's seconds over 60, integer division (``process.c``,
  ``PRINT_RUNMINS``), for the TRES slurmctld tracks, in its order; ``energy`` is never
  added to.

A job's TRES are the counts fs bills it with, as slurmctld allocates them: its CPUs,
memory (``request_memory``, MB: a dump's ``AllocTRES``, 0 where it names none, as on the
22.05 captures' ``CR_CPU`` cluster), nodes and billing (``calc_job_billable_tres``,
truncated: a ``uint64_t``). Running usage that no queued job stands for (a usage history
record still running), whose limit and TRES fs does not know, leaves its association's
cell, and every one above it, blank.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from fairshare_cli.core.config import Config
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.slurm import usage as su
from fairshare_cli.core.slurm.assoc_tree import AssocTree
from fairshare_cli.core.slurm.billing import STANDARD_TRES, Billing
from fairshare_cli.core.slurm.factors import running_qos
from fairshare_cli.core.slurm.partition import YEAR, started_time_limit

#: Slurm's ``INFINITE`` (``uint32_t``): the minutes of an UNLIMITED time limit.
INFINITE_MINUTES = 0xFFFFFFFE


class RunningTres(NamedTuple):
    """A running job as ``grp_used_tres_run_secs`` counts it."""

    start: float
    #: seconds; None: UNLIMITED
    limit: float | None
    usage_factor: float
    #: TRES name -> allocated count
    counts: Mapping[str, int]


def _scaled(seconds: float, factor: float) -> int:
    """``uint64_t`` seconds times the usage factor, stored back in a ``uint64_t``."""
    return math.trunc(math.trunc(seconds) * factor)


def run_seconds(job: RunningTres, last_pass: float | None, period: float) -> int:
    """The seconds per TRES unit the job still holds after the decay passes up to
    ``last_pass`` (passes every ``period`` seconds before it): its limit's seconds times
    the usage factor, less each pass's charged seconds times the usage factor."""
    limit = INFINITE_MINUTES * 60 if job.limit is None else job.limit
    planned_end = job.start + (YEAR if job.limit is None else job.limit)
    held = _scaled(limit, job.usage_factor)
    if last_pass is None or last_pass <= job.start:
        return held
    passes = math.ceil((last_pass - job.start) / period)  # in (start, last_pass]
    first = last_pass - (passes - 1) * period
    stop = min(last_pass, planned_end)
    if first >= stop:  # (the first pass is at or past the planned end)
        return held - _scaled(stop - job.start, job.usage_factor)
    taken = _scaled(first - job.start, job.usage_factor)
    whole = math.floor((stop - first) / period)
    taken += whole * _scaled(period, job.usage_factor)
    rest = stop - first - whole * period
    if rest > 0:  # the pass after the planned end charges up to it
        taken += _scaled(rest, job.usage_factor)
    return max(held - taken, 0)


def _usage_factor(config: Config, qos: str | None) -> float:
    spec = config.qos.get(running_qos(qos, config.qos) or "normal")
    return spec.usage_factor if spec is not None and spec.usage_factor >= 0 else 1.0


def running_tres(job: Job, start: float, config: Config, billing: Billing) -> RunningTres:
    """A running queue job's start, limit, usage factor and allocated TRES."""
    partition = billing.partition_of(job.partition)
    spec = config.partitions.get(partition) if partition is not None else None
    limit = started_time_limit(job.time_limit, spec)
    if limit is not None and math.isinf(limit):
        limit = None
    billed = billing.of_job(job, job.partition) if billing.active else None
    counts = {
        "cpu": int(job.request_cpus),
        "mem": int(job.request_memory),
        "node": int(job.num_nodes or 1),
        "billing": math.trunc(job.request_cpus if billed is None else billed),
    }
    return RunningTres(start, limit, _usage_factor(config, job.qos), counts)


def running_by_association(
    state: su.SlurmUsage, jobs: Iterable[Job], config: Config, now: float
) -> dict[su.UsageKey, list[RunningTres | None]]:
    """The jobs still running at ``now`` per user association (from the state's running
    charges), None for one no queued job stands for."""
    queued = {job.id: job for job in jobs if job.status == "running"}
    billing = Billing.of_config(config)
    out: dict[su.UsageKey, list[RunningTres | None]] = {}
    for charge in state.running:
        if not su.still_running(charge.end, now) or charge.start > now:
            continue
        job = queued.get(charge.job) if charge.job is not None else None
        item = None if job is None else running_tres(job, charge.start, config, billing)
        out.setdefault((charge.account, charge.user), []).append(item)
    return out


def tres_run_cells(
    tree: AssocTree,
    running: Mapping[su.UsageKey, Sequence[RunningTres | None]],
    last_pass: float | None,
    period: float,
) -> list[str | None]:
    """Each association's TRESRunMins cell in lineage order (None: blank, a running job
    fs knows nothing of below it)."""
    seconds: dict[int, dict[str, int] | None] = {}
    for (account, user), jobs in running.items():
        assoc = tree.by_key.get((account, user))
        held: dict[str, int] | None = dict.fromkeys(STANDARD_TRES, 0)
        for job in jobs:
            if job is None or held is None:
                held = None
                continue
            left = run_seconds(job, last_pass, period)
            for name, count in job.counts.items():
                held[name] += count * left
        while assoc is not None:
            total = seconds.get(id(assoc), dict.fromkeys(STANDARD_TRES, 0))
            if total is not None and held is not None:
                total = {name: total[name] + held[name] for name in STANDARD_TRES}
            else:
                total = None
            seconds[id(assoc)] = total
            assoc = assoc.parent
    zeros = ",".join(f"{name}=0" for name in STANDARD_TRES)
    cells: list[str | None] = []
    for assoc in tree.in_lineage_order():
        if id(assoc) not in seconds:
            cells.append(zeros)
            continue
        total = seconds[id(assoc)]
        cells.append(
            None
            if total is None
            else ",".join(f"{name}={total[name] // 60}" for name in STANDARD_TRES)
        )
    return cells
