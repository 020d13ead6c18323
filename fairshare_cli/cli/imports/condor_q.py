"""``fs import condor-q``: the job queue from ``condor_q``; running jobs hold their slots."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from fairshare_cli.cli.imports._dump_time import latest, refuse_later_dump
from fairshare_cli.cli.imports._slurm_state import plural
from fairshare_cli.cli.options import GlobalOptions, common_options, dry_run_option, pass_options

if TYPE_CHECKING:
    from fairshare_cli.io.importers.condor_q import QueuedJob


@click.command("condor-q")
@click.argument("file", metavar="FILE")
@dry_run_option
@common_options
@pass_options
def command(opts: GlobalOptions, file: str, dry_run: bool) -> None:
    """Read condor_q -json or -long output (-allusers, -all; - for stdin) into the queue.

    \b
    Example:
      condor_q -allusers -json > queue.json && fs import condor-q queue.json

    Idle, running and held jobs come in with what the negotiator reads (Requirements,
    Rank, JobPrio, AccountingGroup, NiceUser, RequestCpus/Memory, QDate, ClusterId/ProcId
    and the attributes the expressions name); a job already queued with the same id is
    replaced. Running jobs hold their RemoteHost slot (else the first free slot that fits).
    """
    from fairshare_cli.cli.context import mutate_state
    from fairshare_cli.cli.running import hold_slots
    from fairshare_cli.core.htcondor.placement import Running
    from fairshare_cli.core.htcondor.pool import check_jobs, submitter_of
    from fairshare_cli.core.jobs import job_to_json
    from fairshare_cli.core.operations.queue import ended_by_dump
    from fairshare_cli.io.importers.classad_dumps import open_dump
    from fairshare_cli.io.importers.condor_q import read_queue

    with mutate_state(opts, dry_run) as env:
        groups = frozenset(g.lower() for g in env.config.groups)
        skipped: dict[str, str] = {}
        ignored: set[str] = set()
        with open_dump(file) as fh:
            queued = list(read_queue(fh, file, groups, skipped, ignored))
        _refuse_later_jobs(file, queued, env.now)
        jobs = [q.job for q in queued]
        check_jobs(jobs, env.config, file)
        source = f"state file {env.state_path}: jobs"
        old = env.queue(source)
        ids = {j.id for j in jobs}
        old, ended = ended_by_dump([j for j in old if j.id not in ids], skipped)
        merged = old + jobs
        env.state = env.state.with_section("jobs", [job_to_json(j) for j in merged])
        name = submitter_of(env.config)
        work = [
            Running(
                submitter=name(q.job),
                job_id=q.job.id,
                start_time=q.job.start_time if q.job.start_time is not None else env.now,
                slot=q.job.slot,
                job=q.job,
                label=f"{file}:{q.line}: job {q.job.id}",
            )
            for q in queued
            if q.job.status == "running"
        ]
        placement = hold_slots(env, work)
    counts = {s: sum(1 for j in jobs if j.status == s) for s in ("idle", "running", "held")}
    over = set(ended)
    rest = [j for j in skipped if j not in over]
    prefix = "(dry run, nothing written) " if dry_run else ""
    click.echo(
        f"{prefix}Imported {len(jobs)} jobs from {file} ({counts['idle']} idle, "
        f"{counts['running']} running, {counts['held']} held) into {env.state_path}; "
        f"{len(placement.new)} new claim(s)"
        + _no_slots(counts["running"], bool(env.config.machines))
        + _ended(ended)
        + (f"; ignored {len(rest)} removed/completed: {', '.join(rest)}" if rest else "")
        + _left_out(ignored),
        err=True,
    )


def _no_slots(running: int, machines: bool) -> str:
    """``; 15 running jobs hold no slot: the config has no [[machines]] (...)`` when the
    running jobs found no pool to hold slots in (condor_q imported before condor_status),
    or nothing: their claims, and the use they charge, come with the slots."""
    if not running or machines:
        return ""
    return (
        f"; {plural(running, 'running job')} hold{'s' if running == 1 else ''} no slot: the "
        "config has no [[machines]] (fs import condor-status --into CONFIG brings the slots "
        "and the claims on them)"
    )


def _left_out(ignored: set[str]) -> str:
    """What the summary says of the attributes Requirements or Rank name and fs left out
    (expressions, ``real("INF")`` among them), as ``fs import condor-status`` says of a
    slot's: HTCondor evaluates them, fs's expressions read them as undefined."""
    if not ignored:
        return ""
    names = ", ".join(f"{a} (expression)" for a in sorted(ignored))
    return f"; ignored {len(ignored)} attribute(s) that Requirements or Rank name: {names}"


def _refuse_later_jobs(file: str, queued: list[QueuedJob], now: float) -> None:
    """Refuse a queue whose latest submit or start time is after ``now``, as ``fs import
    condor-userprio`` refuses a LastUpdate after it.

    Raises:
        InputError: naming the job, its time and ``--now``.
    """
    times = []
    for q in queued:
        where = f"{file}:{q.line}: job {q.job.id}'s"
        if q.job.submit_time is not None:
            times.append((q.job.submit_time, f"{where} QDate"))
        if q.job.status == "running" and q.job.start_time is not None:
            times.append((q.job.start_time, f"{where} start time"))
    found = latest(times)
    if found is not None:
        refuse_later_dump(found[1], found[0], now)


def _ended(ids: list[str]) -> str:
    """``; ended 2 queued jobs the dump lists removed/completed: 12.0, 12.1``, or nothing."""
    if not ids:
        return ""
    listed = ", ".join(ids)
    return f"; ended {plural(len(ids), 'queued job')} the dump lists removed/completed: {listed}"
