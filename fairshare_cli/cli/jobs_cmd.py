"""Job-queue edits: ``fs submit``, ``fs prio``, ``fs rm`` (the state's ``jobs`` section)."""

from __future__ import annotations

import os
from typing import Any

import click

from fairshare_cli.cli.complete import job_ids
from fairshare_cli.cli.context import Env, mutate_state
from fairshare_cli.cli.options import (
    CInt,
    CIntRange,
    GlobalOptions,
    common_options,
    dry_run_option,
    no_empty_path,
    pass_options,
)
from fairshare_cli.cli.submit_checks import checked_new
from fairshare_cli.cli.submit_objects import (
    file_objects,
    job_object,
    refuse_options_beside_file,
    refuse_set_beside_option,
    sbatch_time,
)
from fairshare_cli.cli.submit_warnings import warn_queued
from fairshare_cli.core.job_fields import check_job_option
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.limits import INT64_MAX, INT64_MIN, SLURM_PRIORITY_MAX
from fairshare_cli.errors import InputError


def _default_owner() -> str:
    """``fs submit``'s owner when none is given: $USER, else the uid's passwd name, else nobody."""
    from fairshare_cli.cli.sshare import passwd_name

    return os.environ.get("USER") or passwd_name() or "nobody"


def _prefix(dry_run: bool) -> str:
    return "(dry run, nothing written) " if dry_run else ""


@click.command("submit")
@click.option(
    "--file",
    "jobs_file",
    metavar="FILE",
    callback=no_empty_path,
    help="Submit the job objects in a JSON file (- for stdin).",
)
@click.option("--id", "job_id", metavar="ID", help="Job id (default: the next free number).")
@click.option("--owner", metavar="USER", help="Owner (default: $USER).")
@click.option("--count", type=CIntRange(min=1), default=1, help="N identical jobs ID.0...")
@click.option("--account", metavar="NAME", help="Slurm account.")
@click.option(
    "--partition",
    metavar="LIST",
    help="Slurm partition(s), comma-separated; a job their limits hold back pends, or is "
    "refused under priority.enforce_part_limits ANY or ALL.",
)
@click.option("--qos", metavar="NAME", help="Slurm QOS.")
@click.option(
    "--cpus",
    "request_cpus",
    type=CIntRange(min=1),
    help="CPUs requested (at least 1: a job asking for none would never match).",
)
@click.option("--memory", "request_memory", type=CIntRange(min=0), help="Memory (MB).")
@click.option("--nodes", "num_nodes", type=CIntRange(min=1), help="Nodes requested.")
@click.option(
    "--time-limit",
    metavar="TIME",
    callback=lambda _ctx, _param, text: sbatch_time(text),
    help="Time limit as sbatch --time reads it: minutes, M:S, H:M:S, D-H, D-H:M, "
    "D-H:M:S or INFINITE (0 is INFINITE).",
)
@click.option("--nice", type=CInt(), help="Slurm nice value.")
@click.option(
    "--accounting-group",
    metavar="GROUP",
    help="HTCondor AccountingGroup, the group then the user (group_physics.bob).",
)
@click.option("--dirac-group", metavar="GROUP", help="DIRAC group.")
@click.option("--job-prio", type=CInt(), help="HTCondor JobPrio.")
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="FIELD=VALUE",
    help="Any job field (docs/jobs.md), VALUE in JSON or plain text; repeatable.",
)
@click.option("-v", "--verbose", is_flag=True, help="List the ids of the jobs submitted.")
@dry_run_option
@common_options
@pass_options
def submit(  # noqa: PLR0913 - a Click callback takes one parameter per option
    opts: GlobalOptions,
    jobs_file: str | None,
    job_id: str | None,
    owner: str | None,
    count: int,
    account: str | None,
    partition: str | None,
    qos: str | None,
    request_cpus: int | None,
    request_memory: int | None,
    num_nodes: int | None,
    time_limit: str | None,
    nice: int | None,
    accounting_group: str | None,
    dirac_group: str | None,
    job_prio: int | None,
    sets: tuple[str, ...],
    verbose: bool,
    dry_run: bool,
) -> None:
    """Add jobs to the queue (like sbatch / condor_submit).

    \b
    Examples:
      fs submit --owner alice --account hep --partition batch --cpus 4 --time-limit 1:00:00
      fs submit --owner bob --count 10 --accounting-group group_physics.bob
      fs submit --file sample_configs/jobs.json --dry-run

    The submit time is --now unless given with --set submit_time=...
    """
    from fairshare_cli.core.operations.queue import add_jobs, numbered, read_queue
    from fairshare_cli.io.importers.sniff import jobs_file_refusals

    if jobs_file is not None:
        refuse_options_beside_file(click.get_current_context())  # (--set too)
    refuse_set_beside_option(click.get_current_context(), sets)
    if owner is not None:  # --owner '' is refused, not taken for $USER
        check_job_option("owner", owner, "--owner")

    nodes_note: str | None = None
    with jobs_file_refusals(jobs_file), mutate_state(opts, dry_run, queue_only=True) as env:
        path = env.state_path
        queue = read_queue(env.state, str(path))
        if jobs_file is not None:
            objs = _file_objects(jobs_file, job_id)
        else:
            num_nodes, request_cpus, nodes_note = _sbatch_counts(num_nodes, request_cpus, sets)
            fields = {
                "account": account,
                "partition": partition,
                "qos": qos,
                "num_nodes": num_nodes,  # (first: --nodes alone gives the CPUs its value)
                "request_cpus": request_cpus,
                "request_memory": request_memory,
                "time_limit": time_limit,
                "nice": nice,
                "accounting_group": accounting_group,
                "dirac_group": dirac_group,
                "job_prio": job_prio,
            }
            objs = [_option_object(owner, fields, sets, count, job_id)]
        # the objects as queued (ids given), which the DIRAC check reads too
        objs = numbered(queue, objs, env.now, job_id)
        source = jobs_file or "fs submit"
        new, batches, held = checked_new(env, queue, objs, source)
        env.state = add_jobs(env.config, env.state, queue, new, env.now, batches)
        # checked from these, not parsed again; the new ones against the config just above
        queued = [*queue, *new]
        env.written_jobs = (env.state.section("jobs"), queued, {job.id for job in new})
        _hold(env, [j for j in new if j.status == "running"], source)
    # (once the state is written: a write that fails has submitted nothing)
    click.echo(_prefix(dry_run) + submit_summary([j.id for j in new], verbose))
    if nodes_note is not None:  # (sbatch's words)
        click.echo(f"fs: warning: {nodes_note}", err=True)
    warn_queued(batches, held, env.config, env.state.section("accountant"))


def _sbatch_counts(
    nodes: int | None, cpus: int | None, sets: tuple[str, ...]
) -> tuple[int | None, int | None, str | None]:
    """``--nodes`` and ``--cpus`` as sbatch's ``_opt_verify`` settles ``-N`` and ``-n``:
    ``-N`` alone runs a task (a CPU) on each node; fewer tasks than nodes sets the nodes
    to the tasks, with sbatch's warning. (A job of more nodes than CPUs, which Slurm never
    holds, got a larger JOBSIZE factor than the job sbatch makes.) Left as given beside a
    ``--set`` of either field. The warning is said once the jobs are submitted."""
    given = {item.partition("=")[0].strip() for item in sets}
    if nodes is None or {"num_nodes", "request_cpus"} & given:
        return nodes, cpus, None
    if cpus is None:
        return nodes, nodes, None
    if cpus < nodes:
        return cpus, cpus, f"can't run {cpus} processes on {nodes} nodes, setting nnodes to {cpus}"
    return nodes, cpus, None


def _file_objects(jobs_file: str, job_id: str | None) -> list[Any]:
    """The job objects of ``--file``, their ids checked, and ``--id`` beside them.

    Raises:
        InputError: the file is refused, or an id is one no scheduler hands out.
        click.UsageError: ``--id`` would be ignored.
    """
    from fairshare_cli.core.operations.submit_ids import check_file_ids

    objs = file_objects(jobs_file)
    check_file_ids(objs, jobs_file)
    if job_id is not None:
        _check_id_beside_file(objs, job_id)
    return objs


def _check_id_beside_file(objs: list[Any], job_id: str) -> None:
    """``fs submit --file F --id ID`` names the id of F's one job object, which gives none:
    refused when it would be ignored (more objects, or one with an id), else held to the
    forms ``--id`` takes alone.

    Raises:
        click.UsageError: it would be ignored.
        InputError: an id no scheduler hands out.
    """
    from fairshare_cli.core.operations.submit_ids import check_new_id

    if len(objs) != 1 or not isinstance(objs[0], dict) or "id" in objs[0]:
        raise click.UsageError(
            "--id is ignored with --file unless the file lists one job object without an id;"
            " put the ids in the file, or drop --id"
        )
    count = objs[0].get("count", 1)
    check_new_id(job_id, count if type(count) is int else 1)


def _option_object(
    owner: str | None,
    fields: dict[str, Any],
    sets: tuple[str, ...],
    count: int,
    job_id: str | None,
) -> dict[str, Any]:
    """The job object of ``fs submit``'s options, its id (``--id`` or ``--set id=``) one a
    scheduler hands out (:func:`~fairshare_cli.core.operations.submit_ids.check_new_id`)."""
    from fairshare_cli.core.operations.submit_ids import check_new_id

    obj = job_object(owner or _default_owner(), fields, sets, count)
    given = obj.get("id", job_id)
    if isinstance(given, str | int) and not isinstance(given, bool):
        check_new_id(str(given), count)
    return obj


def submit_summary(ids: list[str], verbose: bool) -> str:
    """``Submitted 1000 jobs as cluster 7``; ``verbose`` adds the ids."""
    clusters = list(dict.fromkeys(i.split(".", 1)[0] for i in ids))
    where = (
        f"as cluster {clusters[0]}"
        if len(clusters) == 1
        else f"as {len(clusters)} clusters ({clusters[0]} ... {clusters[-1]})"
    )
    line = f"Submitted {len(ids)} job{'s' if len(ids) != 1 else ''} {where}"
    return f"{line}: {', '.join(ids)}" if verbose else line


def _hold(env: Env, running: list[Job], source: str) -> None:
    """Running jobs submitted hold their slot (else the first free one that fits)."""
    if not running:
        return
    from fairshare_cli.cli.running import hold_slots
    from fairshare_cli.core.htcondor.placement import Running
    from fairshare_cli.core.htcondor.pool import submitter_of
    from fairshare_cli.core.operations.node_fit import NodeFit

    name = submitter_of(env.config)
    fit = NodeFit(env.config)  # a Slurm job is placed on its partition's nodes
    hold_slots(
        env,
        [
            Running(
                submitter=name(job),
                job_id=job.id,
                start_time=job.start_time if job.start_time is not None else env.now,
                slot=job.slot,
                job=job,
                label=f"{source}: job {job.id}",
                partition=fit.runs_in(job),
            )
            for job in running
        ],
    )


class _NegativeValueCommand(click.Command):
    """A command whose arguments may be negative numbers (``fs prio 1 -3``, as condor_prio
    and scontrol take them): a token ``-N`` is an argument; any other unknown option is
    refused as Click refuses it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        takes_value = {
            name: not getattr(param, "is_flag", False)
            for param in self.get_params(ctx)
            if isinstance(param, click.Option)
            for name in param.opts + param.secondary_opts
        }
        tokens = iter(args)
        for token in tokens:
            if token == "--":
                break
            name = token.split("=", 1)[0]
            if name in takes_value:
                if takes_value[name] and "=" not in token:
                    next(tokens, None)  # the option's value
            elif token.startswith("-") and token[1:] and not token[1:].isdigit():
                raise click.NoSuchOption(token, ctx=ctx)
        return super().parse_args(ctx, args)


@click.command("prio", cls=_NegativeValueCommand, context_settings={"ignore_unknown_options": True})
@click.argument("job_id", metavar="JOBID", shell_complete=job_ids)
@click.argument("value", metavar="VALUE")
@click.option(
    "--slurm",
    is_flag=True,
    help="Set the Slurm admin priority (scontrol update job priority=VALUE) instead of "
    "HTCondor's JobPrio: 0 (holds the job) to 4294967293.",
)
@dry_run_option
@common_options
@pass_options
def prio(
    opts: GlobalOptions,
    job_id: str,
    value: str,
    slurm: bool,
    dry_run: bool,
) -> None:
    """Set a job's priority (like condor_prio -p, or scontrol update priority= with --slurm).

    \b
    Examples:
      fs submit --id 12 --count 2 --owner alice && fs prio 12.0 5   # JobPrio = 5
      fs submit --id 12 --count 2 --owner alice && fs prio 12 -3    # all of cluster 12
      fs submit --id 7 --owner bob --account hep && fs prio 7 100000 --slurm  # Slurm

    The first is condor_prio -p 5 12.0; sprio shows an admin priority with factors 0.
    """
    from fairshare_cli.core.names import c_number_text, shown

    try:  # (as strtol reads it, scontrol's and condor_prio's: not 1_000 nor other digits)
        if not c_number_text(value):
            raise ValueError(value)
        number = int(value)
    except ValueError:
        raise InputError(f'priority "{shown(value)}": expected a whole number') from None
    said = shown(str(number))  # (up to 4,300 digits: echoed shortened)
    if slurm and not 0 <= number <= SLURM_PRIORITY_MAX:
        raise InputError(f"priority {said}: expected 0 to {SLURM_PRIORITY_MAX} for a Slurm job")
    if not INT64_MIN <= number <= INT64_MAX:
        raise InputError(f"priority {said}: expected a whole number that fits in 64 bits")
    from fairshare_cli.core.operations.queue import set_priority

    with mutate_state(opts, dry_run, queue_only=True) as env:
        env.state, hit = set_priority(
            env.state, job_id, number, slurm=slurm, where=str(env.state_path)
        )
    what = "admin priority" if slurm else "JobPrio"  # (said once the state is written)
    click.echo(f"{_prefix(dry_run)}Set {what} of {_ids_of(hit)} to {number}")


@click.command("rm")
@click.argument("job_ids", nargs=-1, required=True, metavar="JOBID...", shell_complete=job_ids)
@dry_run_option
@common_options
@pass_options
def rm(
    opts: GlobalOptions,
    job_ids: tuple[str, ...],
    dry_run: bool,
) -> None:
    """Remove jobs from the queue (like condor_rm / scancel); CLUSTER removes all its jobs.

    \b
    Examples:
      fs submit --id 12 --count 3 --owner alice && fs rm 12.0 12.2   # two of its jobs
      fs submit --id 12 --count 3 --owner alice && fs rm 12 --dry-run  # all, not written
    """
    from fairshare_cli.core.operations.queue import remove

    with mutate_state(opts, dry_run) as env:
        env.state, gone = remove(env.config, env.state, env.now, job_ids, where=str(env.state_path))
    click.echo(  # (once the state is written)
        f"{_prefix(dry_run)}Removed {len(gone)} job{'s' if len(gone) != 1 else ''}: {_ids_of(gone)}"
    )


@click.command("release")
@click.argument("job_ids", nargs=-1, required=True, metavar="JOBID...", shell_complete=job_ids)
@dry_run_option
@common_options
@pass_options
def release(opts: GlobalOptions, job_ids: tuple[str, ...], dry_run: bool) -> None:
    """Release held jobs (like scontrol release / condor_release); CLUSTER: all its jobs.

    \b
    Examples:
      fs submit --id 7 --owner bob --account hep && fs prio 7 0 --slurm && fs release 7

    A released Slurm job is eligible from --now and ages from its accrue time, which a hold
    keeps unless priority.enforce_limits (AccountingStorageEnforce=limits) is set: then it
    ages from --now. A job not held is left as it is, and a note names it.
    """
    from fairshare_cli.core.operations.queue_release import not_released
    from fairshare_cli.core.operations.queue_release import release as release_jobs

    with mutate_state(opts, dry_run, queue_only=True) as env:
        env.state, freed = release_jobs(
            env.config, env.state, env.now, job_ids, where=str(env.state_path)
        )
    for wanted in not_released(job_ids, freed):  # (condor_release's words; exit 0 as scontrol)
        click.echo(f"fs: note: job {wanted} not held to be released", err=True)
    click.echo(  # (once the state is written)
        f"{_prefix(dry_run)}Released {len(freed)} job{'s' if len(freed) != 1 else ''}"
        + (f": {_ids_of(freed)}" if freed else "")
    )


def _ids_of(jobs: list[Job]) -> str:
    """``12.0, 12.1`` the jobs' ids, the first :data:`_IDS_SHOWN` and ``(+N more)``: a
    cluster of a million jobs was a line of 10 MB (condor_rm says one line a cluster)."""
    from fairshare_cli.io.importers.common import summary_names

    return summary_names([job.id for job in jobs], _IDS_SHOWN)


#: How many job ids a summary line of fs rm, fs prio and fs release names.
_IDS_SHOWN = 12
