"""What slurmctld held at one decay pass: imported usage, running jobs and site factors.

The dumps of a live cluster (``scontrol show assoc_mgr``, ``sshare``, ``squeue``) show
the state of the last decay pass before they were taken. Imported here, that pass becomes
the state's ``last_decay_ran``: later views decay from it and charge running jobs at
each following pass, as ``_decay_thread`` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from fairshare_cli.core.config import Config
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.slurm import usage as su
from fairshare_cli.core.slurm.jobs import SlurmJob
from fairshare_cli.core.slurm.model import decay_params, evaluate, priority_context
from fairshare_cli.core.slurm.priority import compute_rows, job_user
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
        raise InputError(
            f"--last-decay {last_decay:.0f} is before the state's last decay pass ({t:.0f}); "
            "usage cannot go back"
        )
    return su.restart(state, last_decay, decay_params(config))


def with_usage(
    state: su.SlurmUsage, usage: Mapping[su.UsageKey, float], last_decay: float
) -> su.SlurmUsage:
    """Usage as a pass at ``last_decay`` left it, replacing what the state had.

    Running jobs already imported keep accruing from that pass on.
    """
    return replace(state, usage=dict(usage), last_decay_ran=last_decay)


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


@dataclass(frozen=True)
class RunningJob:
    """A running job's association, billable CPUs and start."""

    account: str
    user: str
    billing: float
    qos: str | None
    start: float


def running_charges(jobs: Iterable[RunningJob], config: Config) -> tuple[su.RunningCharge, ...]:
    """Charges of running jobs: billable CPUs × the QOS UsageFactor (``_apply_new_usage``)."""
    out = []
    for job in jobs:
        factor = 1.0
        spec = config.qos.get(job.qos or "normal")
        if spec is not None and spec.usage_factor >= 0:
            factor = spec.usage_factor
        out.append(su.RunningCharge(job.account, job.user, job.billing * factor, job.start))
    return tuple(out)


def site_factors(
    config: Config, state: su.SlurmUsage, jobs: Iterable[tuple[Job, int]], now: float
) -> dict[str, int]:
    """Each pending job's site factor, from the priority Slurm printed for it.

    ``_get_priority_internal`` adds the (integer) site factor to the weighted factors
    and truncates, so ``site = printed − priority without it`` when the other factors
    are those of the imported state. Jobs whose association is missing are left out.
    """
    listed = [(job, printed) for job, printed in jobs if job.status == "idle"]
    if not listed or not config.accounts:
        return {}
    t, tree = evaluate(config, state, now)
    ctx = priority_context(config, tree)
    out: dict[str, int] = {}
    for job, printed in listed:
        if tree.user_assoc(job_user(job.owner), job.account) is None:
            continue
        view = SlurmJob.of(replace(job, site_factor=0, admin_priority=None))
        first = job.partitions[0] if job.partitions else None
        rows = compute_rows([view], ctx, t, listed_at=now)
        row = next((r for r in rows if r.partition == first), rows[0] if rows else None)
        if row is None or printed <= 1 or row.priority <= 1:
            continue
        site = printed - row.priority
        if site:
            out[job.id] = site
    return out
