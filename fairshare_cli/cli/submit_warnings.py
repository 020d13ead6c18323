"""What ``fs submit`` warns of on stderr about the jobs it queued: jobs that will pend for
ever, Slurm jobs naming no partition where none is the default, DIRAC groups the config
does not list, and an accounting group written with no user; and notes that no node was
tested (a config with no ``[[machines]]``) and that a new submitter's user has usage in a
group."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import click

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config
from fairshare_cli.core.jobs import Job
from fairshare_cli.errors import did_you_mean


def warn_queued(
    jobs: list[JobBatch], held: Mapping[str, str], config: Config, accountant: Any = None
) -> None:
    """On stderr, what the scheduler makes of the jobs just queued (in batches of jobs alike
    but for their ids, each judged once): those that will pend for ever (``held``, by the
    first id of a batch), Slurm jobs that name no partition where none is the default, and
    DIRAC groups ``[dirac.groups]`` does not list; and submitters new to the ``accountant``
    (the state's section) whose user has a record inside a group."""
    _warn_held(jobs, held)
    _note_no_nodes(jobs, config)
    _warn_no_partition(jobs, config)
    _warn_unlisted_groups(jobs, config.dirac.groups)
    _warn_group_without_user(jobs, config)
    _warn_misspelt_group(jobs, config)
    _note_new_submitters(jobs, config, accountant)


def _which(batches: list[JobBatch]) -> str:
    """``job 7.0``, or ``1000 jobs (7.0 ...)``: the jobs of ``batches``, by the first."""
    count = sum(batch.count for batch in batches)
    first = batches[0].job.id
    return f"job {first}" if count == 1 else f"{count} jobs ({first} ...)"


def _note_new_submitters(jobs: list[JobBatch], config: Config, accountant: Any) -> None:
    """On stderr, the HTCondor jobs of no accounting group whose submitter (``alice@example.org``)
    has no accountant record while the user's usage is in a group's record
    (``group_physics.hep.alice@example.org``): condor_submit makes the new submitter in
    silence, and the job is not charged where the user's usage is. A note, not a
    refusal: a user may submit outside her group."""
    from fairshare_cli.cli.names import group_records
    from fairshare_cli.core.htcondor.pool import submitter_of

    records = accountant.get("records") if isinstance(accountant, dict) else None
    if not isinstance(records, dict) or not records:
        return
    name = submitter_of(config)
    found: dict[str, list[JobBatch]] = {}
    for batch in jobs:
        if _htcondor_only(batch.job) and name(batch.job) not in records:
            found.setdefault(name(batch.job), []).append(batch)
    for submitter, each in found.items():
        inside = group_records(submitter, records)
        if not inside:
            continue
        which = _which(each)
        groups = " or ".join(record.rpartition("@")[0] for record in inside)
        click.echo(
            f"fs: note: {which}: submitter {submitter} has no accountant record, while"
            f" {submitter.partition('@')[0]}'s usage is under {' or '.join(inside)}: to charge"
            f" {'it' if which.startswith('job ') else 'them'} there, give accounting_group"
            f" {groups}"
            " (--accounting-group)",
            err=True,
        )


def _warn_held(jobs: list[JobBatch], reasons: Mapping[str, str]) -> None:
    """On stderr, the jobs queued that their partitions' limits hold back (as sbatch queues
    them, with ``EnforcePartLimits=NO``) and the reason squeue gives, one line a reason
    (``reasons``: by job id, as :func:`~fairshare_cli.core.operations.queue.new_jobs` found
    them)."""
    held: dict[str, list[JobBatch]] = {}
    for batch in jobs:
        if (reason := reasons.get(batch.job.id)) is not None:
            held.setdefault(reason, []).append(batch)
    for reason, each in held.items():
        which = _which(each)
        click.echo(f"fs: warning: {which} will pend, never started: {reason}", err=True)


def _warn_misspelt_group(jobs: list[JobBatch], config: Config) -> None:
    """On stderr, the jobs whose ``accounting_group`` has no dot and is no configured group
    but close to a top-level one (``group_cmss`` for ``group_cms``): the negotiator charges
    such a job in ``<none>`` as a user of that name (``GroupEntry::GetAssignedGroup``), with
    no word, where the group was meant."""
    known = {name.lower() for name in config.groups}
    tops = [name for name in config.groups if "." not in name]
    found: dict[str, list[JobBatch]] = {}
    for batch in jobs:
        group = batch.job.accounting_group
        if group and "." not in group and group.lower() not in known:
            found.setdefault(group, []).append(batch)
    if not found:
        return
    import difflib  # (only to name the group meant)

    from fairshare_cli.core.htcondor.pool import submitter_of

    name = submitter_of(config)
    for group, each in found.items():
        close = difflib.get_close_matches(group, tops, n=1)
        if not close:
            continue
        which, job = _which(each), each[0].job
        fix = f"{close[0]}.{job.owner.partition('@')[0]}"
        click.echo(
            f"fs: warning: {which}: accounting group {group} is no configured group (did you"
            f" mean '{close[0]}'?), so HTCondor charges submitter {name(job)} in <none>,"
            f" as a user of that name: make it {fix}",
            err=True,
        )


def _htcondor_only(job: Job) -> bool:
    """A job of no accounting group (nor nice user) that names nothing of Slurm's or
    DIRAC's: written for HTCondor, which charges it to ``owner@uid_domain``."""
    slurm = job.account or job.partition or job.qos
    return not (job.accounting_group or job.nice_user or slurm or job.dirac_group)


def _note_no_nodes(jobs: list[JobBatch], config: Config) -> None:
    """On stderr, the Slurm jobs queued whose nodes were not tested, the config having no
    ``[[machines]]`` (as after ``fs import slurm-conf`` of partitions alone): sbatch refuses
    a job no node of its partitions could ever run
    (:meth:`~fairshare_cli.core.operations.node_fit.NodeFit.check`), which needs the nodes."""
    from fairshare_cli.core.operations.node_fit import NodeFit

    if config.machines or not config.partitions:  # (none: no partition's nodes to test)
        return
    fit = NodeFit(config)
    each = [b for b in jobs if fit.is_slurm_job(b.job) and not fit.refused_for_no_partition(b.job)]
    if not each:
        return
    which = _which(each)
    click.echo(
        f"fs: note: {which}: no node was tested, as the config has no [[machines]] (sbatch"
        " refuses a job no node of its partitions could ever run); fs import slurm-conf of"
        " a slurm.conf with its NodeName lines brings them",
        err=True,
    )


def _warn_no_partition(jobs: list[JobBatch], config: Config) -> None:
    """On stderr, the Slurm jobs queued that name no partition where none is the default
    (:meth:`~fairshare_cli.core.operations.node_fit.NodeFit.refused_for_no_partition`):
    sbatch would have refused them, and ``fs sprio`` refuses the queue while it holds
    them; they are queued, as an HTCondor or DIRAC job naming none is."""
    from fairshare_cli.core.operations.node_fit import NodeFit

    fit = NodeFit(config)
    each = [batch for batch in jobs if fit.refused_for_no_partition(batch.job)]
    if not each:
        return
    one = sum(batch.count for batch in each) == 1
    which = f"{_which(each)} {'names' if one else 'name'}"
    names = ", ".join(config.partitions)
    click.echo(
        f"fs: warning: {which} no partition, and no partition ({names}) is the default:"
        " Slurm refuses such a job, and fs sprio refuses the queue while it holds it; give"
        f" {'it' if one else 'them'} a partition (--partition), or set default = true on"
        " one (an HTCondor or DIRAC job may stay as it is)",
        err=True,
    )


def _warn_unlisted_groups(jobs: list[JobBatch], groups: Mapping[str, Any]) -> None:
    """The DIRAC groups of ``jobs`` that ``[dirac.groups]`` does not list, warned of as
    ``fs taskqueues`` warns (a misspelt group gets the default share, not an error)."""
    from fairshare_cli.cli.taskqueues import warn_unlisted_group

    counts: Counter[str] = Counter()
    for batch in jobs:
        group = batch.job.dirac_group
        if group is not None and group not in groups:
            counts[group] += batch.count
    for group, n in sorted(counts.items()):
        extra = did_you_mean(group, sorted(groups))
        warn_unlisted_group(group, f"{n} job{'s' * (n != 1)} submitted", extra)


def warn_job_groups(jobs: list[JobBatch], config: Config) -> None:
    """On stderr, the jobs (a view's ``--jobs-file``, in batches) whose accounting group
    names a group with no user, or misspells one, as ``fs submit`` warns of them."""
    _warn_group_without_user(jobs, config)
    _warn_misspelt_group(jobs, config)


def _warn_group_without_user(jobs: list[JobBatch], config: Config) -> None:
    """On stderr, the jobs whose ``accounting_group`` is a configured group with no user
    after it (``--accounting-group group_chemistry``, as a submit file's ``accounting_group``
    is written): the job's ``AccountingGroup`` is ``GROUP.USER``, and the negotiator
    (``GroupEntry::GetAssignedGroup``) takes the text before its last dot as the group, so
    such a job is charged in the parent group (``<none>`` for a top-level one) as a user
    named after the group."""
    from fairshare_cli.core.htcondor.accountant import GroupTree
    from fairshare_cli.core.htcondor.pool import submitter_of

    known = {name.lower() for name in config.groups}
    tree, name = GroupTree(config.groups), submitter_of(config)
    found: dict[str, list[JobBatch]] = {}
    for batch in jobs:
        group = batch.job.accounting_group
        if group and group.lower() in known:
            found.setdefault(group, []).append(batch)
    for group, each in found.items():
        which, job = _which(each), each[0].job
        submitter = name(job)
        fix = f"{group}.{job.owner.partition('@')[0]}"
        click.echo(
            f"fs: warning: {which}: accounting group {group} is a group with no user, so"
            f" HTCondor charges submitter {submitter} in {tree.group_of(submitter)}; an"
            f" AccountingGroup is GROUP.USER (a submit file's accounting_group = {group}"
            f" makes {fix}): make it {fix}",
            err=True,
        )
