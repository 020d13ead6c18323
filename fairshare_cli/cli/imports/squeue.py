"""``fs import squeue``: pending and running jobs from squeue --json or scontrol show jobs."""

from __future__ import annotations

import click
from msgspec.structs import replace

from fairshare_cli.cli.context import Env, mutate_state
from fairshare_cli.cli.imports._slurm_state import (
    last_decay_option,
    plural,
    report,
    resolve_last_decay,
    slurm_section,
    store_slurm,
)
from fairshare_cli.cli.options import GlobalOptions, common_options, dry_run_option, pass_options
from fairshare_cli.core.jobs import job_to_json, parse_jobs
from fairshare_cli.io.importers.squeue import ImportedJob, JobDump


@click.command("squeue")
@click.argument("file", metavar="FILE")
@last_decay_option
@click.option(
    "--no-site-factor",
    is_flag=True,
    help="Do not derive site factors from the priorities Slurm printed.",
)
@dry_run_option
@common_options
@pass_options
def command(
    opts: GlobalOptions,
    file: str,
    last_decay: str | None,
    no_site_factor: bool,
    dry_run: bool,
) -> None:
    """Put Slurm's pending and running jobs into the queue (- for stdin).

    \b
    Examples:
      squeue --json > jobs.json && fs import squeue jobs.json
      scontrol show jobs > jobs.txt
      fs import squeue jobs.txt --last-decay 2026-11-21T23:13:20Z
    Jobs keep Slurm's ids (arrays too), submit/eligible/accrue times, partitions, QOS,
    account, CPUs and nice; a job already in the queue with the same id is replaced.
    Running jobs accrue usage at every later decay pass, as slurmctld charges them. A
    pending job's site factor is what its printed Priority holds beyond the factors
    (neither dump prints it); finished jobs are listed as ignored.
    """
    from fairshare_cli.io.importers.squeue import read_jobs

    dump = read_jobs(file)
    with mutate_state(opts, dry_run) as env:
        when = resolve_last_decay(last_decay, env)
        ignored = [f"{j} (finished)" for j in dump.skipped]
        for item in dump.jobs:
            # AccrueTime=Unknown: not accruing age (held back by limits); AGE 0 at the pass.
            if item.obj["status"] == "idle" and "accrue_time" not in item.obj:
                item.set_field("accrue_time", when)
        ignored += _charge_running(env, dump.jobs, when)
        refined = _refine(env, dump)
        sites: dict[str, int] = {}
        if not no_site_factor and not slurm_section(env).usage:
            ignored.append("site factors (no usage imported yet: import scontrol-assoc first)")
        elif not no_site_factor:
            sites = _site_factors(env, dump.jobs)
        new = [
            replace(job, site_factor=sites.get(job.id, job.site_factor))
            for job in (j.job() for j in dump.jobs)
        ]
        ids = {j.id for j in new}
        queue = env.decode(
            "jobs", lambda raw: parse_jobs([] if raw is None else raw, f"{env.state_path}: jobs")
        )
        kept = [j for j in queue if j.id not in ids]
        env.state = env.state.with_section("jobs", [job_to_json(j) for j in [*kept, *new]])
        running = sum(1 for j in new if j.status == "running")
        text = (
            f"{file}: {plural(len(new), 'job')} ({len(new) - running} pending, "
            f"{running} running) into {env.state_path}"
        )
        if refined:
            text += f"; usage of {plural(len(refined), 'association')} made exact from their jobs"
        if sites:
            text += "; site factor from Priority: " + ", ".join(
                f"{k}={v}" for k, v in sites.items()
            )
        report(dry_run, text, ignored)


def _charge_running(env: Env, jobs: list[ImportedJob], when: float) -> list[str]:
    """Running jobs become the Slurm section's running charges (from the last pass on)."""
    from dataclasses import replace

    from fairshare_cli.core.slurm.snapshot import RunningJob, at_pass, running_charges

    state = at_pass(slurm_section(env), when, env.config)
    running: list[RunningJob] = []
    ignored: list[str] = []
    for item in jobs:
        obj = item.obj
        if obj["status"] != "running":
            continue
        account, user = obj.get("account"), obj["owner"]
        spec = env.config.accounts.get(account) if account else None
        if spec is None or user not in spec.users or "start_time" not in obj:
            ignored.append(f"{obj['id']} ({account}/{user}: no association)")
            continue
        start = float(item.job().start_time or when)
        running.append(
            RunningJob(account or "", user, item.billing, obj.get("qos"), start, obj["id"])
        )
    store_slurm(env, replace(state, running=running_charges(running, env.config)))
    return ignored


def _refine(env: Env, dump: JobDump) -> list[tuple[str, str]]:
    """Usage the dump's running and finished jobs account for in full, to every decimal."""
    from fairshare_cli.core.slurm.snapshot import JobCharge, refine_usage

    charges = [
        JobCharge(f.account, f.user, f.billing, f.qos, f.start, f.end) for f in dump.finished
    ]
    for item in dump.jobs:
        obj = item.obj
        if obj["status"] == "running" and obj.get("account") and "start_time" in obj:
            start = item.job().start_time
            assert start is not None
            charges.append(
                JobCharge(obj["account"], obj["owner"], item.billing, obj.get("qos"), start, None)
            )
    state, refined = refine_usage(slurm_section(env), charges, env.config)
    store_slurm(env, state)
    return refined


def _site_factors(env: Env, jobs: list[ImportedJob]) -> dict[str, int]:
    from fairshare_cli.core.slurm.snapshot import site_factors

    listed = [(j.job(), j.printed_priority) for j in jobs if j.printed_priority is not None]
    pairs = [(job, printed) for job, printed in listed if printed is not None]
    return site_factors(env.config, slurm_section(env), pairs, env.now)
