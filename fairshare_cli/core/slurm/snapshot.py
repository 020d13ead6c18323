"""What slurmctld held at one decay pass: imported usage, running jobs and site factors.

The dumps of a live cluster (``scontrol show assoc_mgr``, ``sshare``, ``squeue``) show
the state of the last decay pass before they were taken. Imported here, that pass becomes
the state's ``last_decay_ran``: later views decay from it and charge running jobs at
each following pass, as ``_decay_thread`` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from itertools import compress
from operator import attrgetter
from typing import Any, NamedTuple

from msgspec.structs import replace as replace_job

from fairshare_cli.core.config import Config
from fairshare_cli.core.epoch import utc_text
from fairshare_cli.core.jobs import Job, split_partitions
from fairshare_cli.core.limits import NICE_LIMIT
from fairshare_cli.core.slurm import usage as su
from fairshare_cli.core.slurm.billing import Billing
from fairshare_cli.core.slurm.factors import job_user, running_qos
from fairshare_cli.core.slurm.limit_ends import (
    advance_at_limits,
    ended_at_limits,
    limit_end,
    removed_end,
    stored_charges_kept,
)
from fairshare_cli.core.slurm.model import priority_context
from fairshare_cli.core.slurm.partition import (
    sizing_partition,
    submitted_since,
    submitted_time_limit,
)
from fairshare_cli.core.slurm.passes import charged
from fairshare_cli.core.slurm.priority_table import compute_table
from fairshare_cli.core.slurm.tree_usage import decay_params, evaluate
from fairshare_cli.errors import InputError


def at_pass(state: su.SlurmUsage, last_decay: float, config: Config) -> su.SlurmUsage:
    """The state with its last decay pass at ``last_decay``.

    A state with no pass yet takes it as is; a later pass is reached as a restarted
    slurmctld would (:func:`~fairshare_cli.core.slurm.usage.restart`).

    Raises:
        InputError: ``last_decay`` is before the state's last pass.
    """
    t = state.last_decay_ran
    if t is None or (not state.usage and not state.running):
        return replace(state, last_decay_ran=last_decay)
    if last_decay < t:
        raise InputError(  # (in the words --last-decay takes: it printed epoch seconds)
            f"--last-decay {utc_text(last_decay)} is before the state's last decay pass "
            f"({utc_text(t)}); usage cannot go back"
        )
    return su.restart(state, last_decay, decay_params(config))


def at_pass_at_limits(
    state: su.SlurmUsage, jobs: Iterable[Job], last_decay: float, config: Config
) -> su.SlurmUsage:
    """:func:`at_pass` with the queue's running ``jobs`` ended at their limits (usage
    charged up to those ends only); the charges kept are as stored, as
    :func:`~.limit_ends.advance_at_limits` keeps them (``fs import sacct --last-decay``).

    Raises:
        InputError: ``last_decay`` is before the state's last pass.
    """
    limited = ended_at_limits(state, jobs, config)
    return stored_charges_kept(state, limited, at_pass(limited, last_decay, config))


def with_usage(
    state: su.SlurmUsage, usage: Mapping[su.UsageKey, float], last_decay: float
) -> su.SlurmUsage:
    """Usage as a pass at ``last_decay`` left it, replacing what the state had.

    Running jobs already imported keep accruing from that pass on.
    """
    return replace(state, usage=dict(usage), last_decay_ran=last_decay)


def keep_precision(
    state: su.SlurmUsage,
    usage: Mapping[su.UsageKey, float],
    last_decay: float,
    config: Config,
    tolerance: float = 0.005,
) -> tuple[dict[su.UsageKey, float], list[su.UsageKey]]:
    """Printed usage replaced by the state's own where they agree to the printed precision.

    ``scontrol show assoc_mgr`` prints usage to two decimals. A state already holding
    usage from an earlier pass (made exact from that dump's jobs, say) is brought to the
    new dump's pass as slurmctld would have (decayed, running jobs charged, a restart
    between the passes included: :func:`at_pass`). Where that value rounds to what the
    new dump printed (within ``tolerance``), no other usage came in between and it is the
    same number with every decimal, so it is kept. Returns the usage and the keys kept.
    """
    t = state.last_decay_ran
    if t is None or not state.usage or last_decay < t:
        return dict(usage), []
    before = at_pass(state, last_decay, config).usage
    out = dict(usage)
    kept: list[su.UsageKey] = []
    for key, printed in sorted(usage.items()):
        exact = before.get(key)
        if (
            exact is not None
            and exact != printed
            and abs(exact - printed) <= tolerance * (1 + 1e-9)
        ):
            out[key] = exact
            kept.append(key)
    return out, kept


def known_usage(
    usage: Mapping[su.UsageKey, float], config: Config
) -> tuple[dict[su.UsageKey, float], list[str]]:
    """Split imported usage into that of configured user associations and the rest.

    Returns the usage to keep and the ``account/user`` names of those left out.
    """
    keep: dict[su.UsageKey, float] = {}
    ignored: list[str] = []
    for (account, user), value in usage.items():
        spec = config.accounts.get(account)
        if spec is not None and user in spec.users:
            keep[(account, user)] = value
        else:
            ignored.append(f"{account}/{user}")
    return keep, ignored


class RunningJob(NamedTuple):
    """A running job's association, billable CPUs and start (a tuple: made for every
    running job of a dump)."""

    account: str
    user: str
    billing: float
    qos: str | None
    start: float
    job: str | None = None


def _usage_factor(config: Config, qos: str | None) -> float:
    spec = config.qos.get(running_qos(qos, config.qos) or "normal")
    return spec.usage_factor if spec is not None and spec.usage_factor >= 0 else 1.0


def running_charges(jobs: Iterable[RunningJob], config: Config) -> tuple[su.RunningCharge, ...]:
    """Charges of running jobs: billable CPUs × the QOS UsageFactor (``_apply_new_usage``)."""
    return tuple(
        su.RunningCharge(
            job.account,
            job.user,
            job.billing * _usage_factor(config, job.qos),
            job.start,
            job=job.job,
        )
        for job in jobs
    )


def charge_running_jobs(
    state: su.SlurmUsage,
    jobs: Iterable[Job],
    config: Config,
    now: float,
    queue: Iterable[Job] = (),
) -> su.SlurmUsage:
    """Running Slurm jobs put in the queue (``fs submit``) accrue from their start.

    The passes between the start and the state's last pass are charged at once (as
    ``fs import history`` does); later passes charge the job as slurmctld does, until
    ``fs rm`` stops it or slurmctld would have ended it at its time limit
    (:mod:`.limit_ends`: a job already ended there by ``now`` is charged up to that end
    and holds no running charge). Jobs with no association are not Slurm's and are left
    out. The usage is first brought to ``now`` with the running jobs of ``queue`` (the
    state's) ended at their limits.
    """
    params = decay_params(config)
    running = [j for j in jobs if j.status == "running"]
    if not running or not config.accounts:
        return state
    charges = []
    billing = Billing.of_config(config)
    for job in running:
        user = job_user(job.owner)
        account = job.account
        if account is None:
            account = next((a for a, s in config.accounts.items() if user in s.users), None)
        if account is None or user not in config.accounts[account].users:
            continue
        billed = billing.of_job(job, job.partition) if billing.active else None
        cpus = job.request_cpus if billed is None else billed
        rate = cpus * _usage_factor(config, job.qos)
        start = job.start_time if job.start_time is not None else now
        end = limit_end(job, start, config)
        ended = end if end is not None and not su.still_running(end, now) else None
        charges.append(((account, user), start, ended, rate, job.id))
    advanced = advance_at_limits(state, queue, config, now, params)
    return su.add_records(advanced, charges, now, params)


def stop_charges(
    state: su.SlurmUsage, jobs: Iterable[Job], now: float, config: Config
) -> su.SlurmUsage:
    """The charges of removed jobs end ``now`` (charged to the last pass before it), or
    where slurmctld had ended the job at its time limit, if earlier (:mod:`.limit_ends`)."""
    removed = {job.id: job for job in jobs}
    running = []
    for r in state.running:
        job = removed.get(r.job) if r.job is not None else None
        if job is not None and (r.end is None or r.end > now):
            r = replace(r, end=removed_end(job, r, now, config))
        running.append(r)
    return replace(state, running=tuple(running))


def _own_rows(
    config: Config, state: su.SlurmUsage, jobs: Iterable[Job], now: float
) -> dict[str, tuple[str | None, int]]:
    """Each pending job's partition and PRIORITY in its own partition (:func:`_own_row`),
    at the last pass before ``now`` (jobs whose association is missing are
    left out)."""
    listed = [job for job in jobs if job.status == "idle"]
    if not listed or not config.accounts:
        return {}
    t, tree = evaluate(config, state, now, listed)
    ctx = priority_context(config, tree)
    # each (owner, account) looked up once (in C per job), each partition list split once
    pairs = [*zip(map(_OWNER, listed), map(_ACCOUNT, listed), strict=True)]
    known = {p for p in set(pairs) if tree.user_assoc(job_user(p[0]), p[1]) is not None}
    placed = [*compress(listed, map(known.__contains__, pairs))]
    # One table for every job (a job's rows do not depend on the others'), read by column.
    table = compute_table(placed, ctx, t, listed_at=now, in_id_order=False, listing=False)
    columns = (table.job_ids, table.parts, table.priority_ints())
    if len(set(table.job_ids)) == len(table.job_ids):  # a row a job at most: its own
        rows = zip(map(_PARTITION, table.parts), columns[2], strict=True)
        return dict(zip(table.job_ids, rows, strict=True))
    heads = {p: (split_partitions(p) or (None,))[0] for p in set(map(_PARTITION, placed))}
    first = dict(
        zip(map(_ID, placed), map(heads.__getitem__, map(_PARTITION, placed)), strict=True)
    )
    out: dict[str, dict[str, list[int]]] = {}  # each job's first and last row a partition
    for job_id, part, priority in zip(*columns, strict=True):
        out.setdefault(job_id, {}).setdefault(part.partition, [priority, priority])[1] = priority
    by_id = {job.id: job for job in placed}
    return {
        job_id: _own_row(by_id[job_id], rows, ctx.partitions, t, first[job_id])
        for job_id, rows in out.items()
    }


def _own_row(
    job: Job, rows: dict[str, list[int]], parts: Mapping[str, Any], t: float, first: str | None
) -> tuple[str | None, int]:
    """The row whose priority slurmctld stores for the job (``rows``: its first and last
    row in each partition, in sprio's order, a row a QOS): its first named partition and
    highest QOS until the pass at ``t`` has computed it (``job_allocate``,
    ``_get_qos_info``), then its lowest QOS in the partition
    :func:`~.partition.sizing_partition` names, as ``_get_priority_internal`` sums in
    ``job_ptr->part_ptr`` and ``qos_ptr``: the schedulers, which set both and the job's
    priority to each record's, pop that record last."""
    if submitted_since(job.submit_time, t):
        name = first if first in rows else next(iter(rows))
        return name, rows[name][0]
    ordered = [(parts[name], float(pair[1])) for name, pair in rows.items()]
    if len(ordered) == 1:
        return ordered[0][0].name, rows[ordered[0][0].name][1]
    limit = submitted_time_limit(job, parts.get(first) if first is not None else None)
    own = sizing_partition(job, ordered, ordered, t, {i.name: p for i, p in ordered}, limit)
    return own.name, rows[own.name][1]


_OWNER, _ACCOUNT, _ID = attrgetter("owner"), attrgetter("account"), attrgetter("id")
#: (a job's partition list, a table row's partition)
_PARTITION = attrgetter("partition")


def site_factors(
    config: Config, state: su.SlurmUsage, jobs: Iterable[tuple[Job, int]], now: float
) -> dict[str, int]:
    """Each pending job's site factor, from the priority Slurm printed for it.

    ``_get_priority_internal`` adds the (integer) site factor to the weighted factors
    and truncates, so ``site = printed − priority without it`` when the other factors
    are those of the imported state. Jobs whose association is missing are left out.
    (What :func:`priority_mismatches` reports instead, with the site factor the dump
    gives.)
    """
    listed = [(job, printed) for job, printed in jobs if job.status == "idle"]
    # the priority without the site factor (nor an admin's priority)
    views = [replace_job(job, site_factor=0, admin_priority=None) for job, _ in listed]
    rows = _own_rows(config, state, views, now)
    out: dict[str, int] = {}
    for job, printed in listed:
        row = rows.get(job.id)
        if row is None or printed <= 1 or row[1] <= 1:
            continue
        site = printed - row[1]
        if site and abs(site) <= NICE_LIMIT:
            out[job.id] = site
    return out


@dataclass(frozen=True)
class PriorityMismatch:
    """A pending job whose printed priority is not the one its dumps give it."""

    job_id: str
    partition: str | None
    printed: int
    computed: int


def priority_mismatches(
    config: Config, state: su.SlurmUsage, jobs: Iterable[tuple[Job, int]], now: float
) -> list[PriorityMismatch]:
    """Pending jobs whose printed priority the imported state does not give them.

    ``_get_priority_internal`` (``priority_multifactor.c``) adds the job's site factor
    (``SiteFactor``: taken from the dump, 0 when it has none) and its weighted factors and
    truncates; a job whose printed ``Priority`` differs from that sum (its own
    partition's, as ``scontrol show jobs`` prints it: :func:`_own_row`) holds something
    the dumps do not (a site factor plugin, usage or a pass between the dumps): reported, in job
    order, and nothing is absorbed into the site factor. Jobs whose association is
    missing are left out; an admin-set priority is compared as it stands.
    """
    listed = [(job, printed) for job, printed in jobs if job.status == "idle"]
    rows = _own_rows(config, state, (job for job, _ in listed), now)
    out: list[PriorityMismatch] = []
    for job, printed in listed:
        row = rows.get(job.id)
        if row is not None and row[1] != printed:
            out.append(PriorityMismatch(job.id, row[0], printed, row[1]))
    return out


class JobCharge(NamedTuple):
    """A job seen in a dump (running or finished): its association, rate and times (a
    tuple: made for every running job of a dump)."""

    account: str
    user: str
    billing: float
    qos: str | None
    start: float
    end: float | None


def refine_usage(
    state: su.SlurmUsage, jobs: Iterable[JobCharge], config: Config, tolerance: float = 0.005
) -> tuple[su.SlurmUsage, list[su.UsageKey]]:
    """Usage made exact where the dump's jobs account for all of it.

    ``scontrol show assoc_mgr`` prints usage to two decimals. The jobs a dump lists
    (running, or finished but still shown) were charged pass by pass on the grid that
    ends at the state's last pass; where their charges, computed as the decay thread
    makes them, agree with an association's imported usage to within ``tolerance``,
    they are that usage with every decimal. Returns the state and the keys refined.
    """
    t = state.last_decay_ran
    if t is None:
        return state, []
    params = decay_params(config)
    sums = charged(
        (
            (
                (job.account, job.user),
                job.start,
                job.end,
                job.billing * _usage_factor(config, job.qos),
            )
            for job in jobs
        ),
        su.record_grid(t, None, t, params),
    )
    usage = dict(state.usage)
    refined: list[su.UsageKey] = []
    for key, exact in sorted(sums.items()):
        have = usage.get(key)
        if have is not None and have > 0 and abs(exact - have) <= tolerance * (1 + 1e-9):
            usage[key] = exact
            refined.append(key)
    return replace(state, usage=usage), refined
