"""Job-queue edits: ``fs submit``, ``fs prio``, ``fs rm`` (the state's ``jobs`` section)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from fairshare_cli.cli.context import Env, mutate_state, refuse_going_back
from fairshare_cli.cli.options import common_options, dry_run_option
from fairshare_cli.core.jobs import Job, job_to_json, parse_jobs
from fairshare_cli.core.limits import INT64_MAX, INT64_MIN, UINT32_MAX
from fairshare_cli.core.operations.validate import check_jobs_against_config
from fairshare_cli.errors import InputError


def _queue(env: Env) -> list[Job]:
    return env.decode(
        "jobs", lambda raw: parse_jobs([] if raw is None else raw, f"{env.state_path}: jobs")
    )


def _store(env: Env, jobs: Iterable[Job]) -> None:
    env.state = env.state.with_section("jobs", [job_to_json(j) for j in jobs])


def _release(env: Env, gone: list[Job]) -> None:
    """Running jobs removed: their slots are released and their usage stops now."""
    from fairshare_cli.core.dirac.correction import record_cycle
    from fairshare_cli.core.htcondor import accountant as acct
    from fairshare_cli.core.htcondor.pool import (
        negotiator_from_json,
        negotiator_to_json,
        release_jobs,
    )
    from fairshare_cli.core.state import SectionError
    from fairshare_cli.errors import StateError

    accountant = env.decode("accountant", acct.accountant_from_json)
    negotiator = env.decode("negotiator", negotiator_from_json)
    accountant, negotiator = release_jobs(gone, accountant, negotiator, env.config, env.now)
    _slurm_charges(env, gone, stop=True)
    state = env.state.with_section("accountant", acct.accountant_to_json(accountant))
    state = state.with_section("negotiator", negotiator_to_json(negotiator))
    stopped = [(j.dirac_group, j.owner) for j in gone if j.status == "running" and j.dirac_group]
    if stopped:
        try:
            dirac = record_cycle(state.section("dirac"), [], stopped, env.now)
        except SectionError as exc:
            raise StateError(f"state file {env.state_path}: {exc}") from None
        state = state.with_section("dirac", dirac)
    env.state = state


def _slurm_charges(env: Env, jobs: list[Job], stop: bool) -> None:
    """Running Slurm jobs accrue usage from their start (submit) until removed (rm)."""
    from fairshare_cli.core.slurm import snapshot
    from fairshare_cli.core.slurm.usage import usage_from_json, usage_to_json

    if not any(j.status == "running" for j in jobs) or not env.config.accounts:
        return
    slurm = env.decode("slurm", usage_from_json)
    if stop:
        slurm = snapshot.stop_charges(slurm, [j.id for j in jobs], env.now)
    else:
        slurm = snapshot.charge_running_jobs(slurm, jobs, env.config, env.now)
    env.state = env.state.with_section("slurm", usage_to_json(slurm))


def _matches(job: Job, wanted: str) -> bool:
    """``12.3`` names one job; ``12`` names every job of cluster 12 (as condor_rm does)."""
    return job.id == wanted or ("." not in wanted and job.id.split(".", 1)[0] == wanted)


def _prefix(dry_run: bool) -> str:
    return "(dry run, nothing written) " if dry_run else ""


NICE_LIMIT = 2147483645  # NICE_OFFSET − 3


def _check_slurm_fields(env: Env, job: Job) -> None:
    """Reject a job naming a partition, QOS or account the config does not define, or with
    a nice or site factor Slurm refuses."""
    if abs(job.nice) > NICE_LIMIT:
        raise InputError(f"job {job.id}: Invalid --nice value, out of range (+/- {NICE_LIMIT})")
    if abs(job.site_factor) > NICE_LIMIT:
        raise InputError(f"job {job.id}: SiteFactor value out of range (+/- {NICE_LIMIT})")
    cfg = env.config
    for name in job.partitions:
        if cfg.partitions and name not in cfg.partitions:
            raise InputError(f'job {job.id}: unknown partition "{name}" (see [partitions])')
    if job.qos is not None and cfg.qos and job.qos not in cfg.qos:
        raise InputError(f'job {job.id}: unknown QOS "{job.qos}" (see [qos])')
    if job.account is not None and cfg.accounts and job.account not in cfg.accounts:
        raise InputError(f'job {job.id}: unknown account "{job.account}" (see [accounts])')
    _check_association(env, job)


def _check_association(env: Env, job: Job) -> None:
    """A Slurm job needs its user's association in its account (default: the user's
    first), as ``sbatch`` does; a job naming no account, partition or QOS is not Slurm's."""
    cfg = env.config
    if not cfg.accounts or (job.account is None and job.partition is None and job.qos is None):
        return
    from fairshare_cli.core.slurm.factors import job_user

    user = job_user(job.owner)
    account = job.account
    if account is None:
        if any(user in spec.users for spec in cfg.accounts.values()):
            return
    elif user in cfg.accounts[account].users:
        return
    where = f' in account "{account}"' if account else ""
    raise InputError(
        f'job {job.id}: user "{user}" has no association{where} (sbatch: "Invalid account '
        'or account/partition combination specified"); add it to [accounts]'
    )


def _next_cluster(jobs: list[Job]) -> int:
    best = 0
    for job in jobs:
        head = job.id.split(".", 1)[0]
        if head.isdigit():
            best = max(best, int(head))
    return best + 1


@click.command("submit")
@click.option("--file", "jobs_file", metavar="FILE", help="Submit the job objects in a JSON file.")
@click.option("--id", "job_id", metavar="ID", help="Job id (default: the next free number).")
@click.option("--owner", metavar="USER", help="Owner (default: $USER).")
@click.option("--count", type=click.IntRange(min=1), default=1, help="N identical jobs ID.0...")
@click.option("--account", metavar="NAME", help="Slurm account.")
@click.option("--partition", metavar="LIST", help="Slurm partition(s), comma-separated.")
@click.option("--qos", metavar="NAME", help="Slurm QOS.")
@click.option("--cpus", "request_cpus", type=click.IntRange(min=0), help="CPUs requested.")
@click.option("--memory", "request_memory", type=click.IntRange(min=0), help="Memory (MB).")
@click.option("--nodes", "num_nodes", type=click.IntRange(min=1), help="Nodes requested.")
@click.option("--time-limit", metavar="TIME", help="Time limit (seconds or a Slurm time).")
@click.option("--nice", type=int, help="Slurm nice value.")
@click.option("--accounting-group", metavar="GROUP", help="HTCondor accounting group.")
@click.option("--dirac-group", metavar="GROUP", help="DIRAC group.")
@click.option("--job-prio", type=int, help="HTCondor JobPrio.")
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="FIELD=VALUE",
    help="Any job field (DESIGN §4), VALUE in JSON or plain text; repeatable.",
)
@dry_run_option
@common_options
def submit(
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
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    """Add jobs to the queue (like sbatch / condor_submit).

    \b
    Examples:
      fs submit --owner alice --account hep --partition batch --cpus 4 --time-limit 1:00:00
      fs submit --owner bob --count 10 --accounting-group group_physics.bob
      fs submit --file jobs.json --dry-run
    The submit time is --now unless given with --set submit_time=...
    """
    from fairshare_cli.cli.sshare import invoking_user

    with mutate_state(config_path, state_path, now, dry_run, queue_only=True) as env:
        queue = _queue(env)
        if jobs_file is not None:
            objs = _read_objects(Path(jobs_file))
        else:
            obj: dict[str, Any] = {"owner": owner or invoking_user() or "nobody"}
            for key, value in (
                ("account", account),
                ("partition", partition),
                ("qos", qos),
                ("request_cpus", request_cpus),
                ("request_memory", request_memory),
                ("num_nodes", num_nodes),
                ("time_limit", time_limit),
                ("nice", nice),
                ("accounting_group", accounting_group),
                ("dirac_group", dirac_group),
                ("job_prio", job_prio),
            ):
                if value is not None:
                    obj[key] = value
            for item in sets:
                key, eq, text = item.partition("=")
                if not eq:
                    raise InputError(f"--set {item}: expected FIELD=VALUE")
                try:
                    obj[key.strip()] = json.loads(text)
                except (ValueError, RecursionError):  # not JSON: plain text
                    obj[key.strip()] = text
            if count > 1:
                obj["count"] = count
            objs = [obj]
        next_id = _next_cluster(queue)
        for obj in objs:
            obj.setdefault("submit_time", env.now)
            if "id" not in obj:
                obj["id"] = job_id if job_id is not None and len(objs) == 1 else str(next_id)
                next_id += 1
        new = parse_jobs(objs, jobs_file or "fs submit")
        taken = {j.id for j in queue}
        source = jobs_file or "fs submit"
        for job in new:
            if job.id in taken:
                raise InputError(
                    f"{source}: job id {job.id} is already in the queue of {env.state_path}"
                )
            try:
                _check_slurm_fields(env, job)
            except InputError as exc:
                raise InputError(f"{source}: {exc}") from None
        check_jobs_against_config(zip(_each_job(objs), new, strict=True), env.config, source)
        if any(job.status == "running" for job in new):  # running jobs are charged from now
            refuse_going_back(env.state, env.now, env.state_path)
        _store(env, [*queue, *new])
        _slurm_charges(env, new, stop=False)
        ids = ", ".join(j.id for j in new)
        click.echo(
            f"{_prefix(dry_run)}Submitted {len(new)} job{'s' if len(new) != 1 else ''}: {ids}"
        )


def _each_job(objs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The object of each parsed job (``count`` identical jobs share theirs)."""
    return [o for o in objs for _ in range(o.get("count", 1))]


def _read_objects(path: Path) -> list[dict[str, Any]]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"jobs file {path} does not exist") from None
    except OSError as exc:
        raise InputError(f"jobs file {path} cannot be read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"jobs file {path} is not valid JSON (line {exc.lineno})") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"jobs file {path} is not UTF-8 text (byte {exc.start})") from None
    except (ValueError, RecursionError) as exc:  # a huge integer, too deep a nesting
        raise InputError(f"jobs file {path} is not valid JSON: {exc}") from None
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list) or not all(isinstance(o, dict) for o in raw):
        raise InputError(f"jobs file {path}: expected a job object or a list of them")
    return [dict(o) for o in raw]


@click.command("prio")
@click.argument("job_id", metavar="JOBID")
@click.argument("value", metavar="VALUE")
@click.option(
    "--slurm",
    is_flag=True,
    help="Set the Slurm admin priority (scontrol update job priority=VALUE) instead of "
    "HTCondor's JobPrio; 0 holds the job.",
)
@dry_run_option
@common_options
def prio(
    job_id: str,
    value: str,
    slurm: bool,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    """Set a job's priority (like condor_prio -p, or scontrol update priority= with --slurm).

    \b
    Examples:
      fs prio 12.0 5             # JobPrio = 5 (condor_prio -p 5 12.0)
      fs prio 12 -- -3           # every job of cluster 12
      fs prio 7 100000 --slurm   # Slurm admin priority; sprio shows it, factors 0
    """
    try:
        number = int(value)
    except ValueError:
        raise InputError(f'priority "{value}": expected a whole number') from None
    if slurm and not 0 <= number <= UINT32_MAX:
        raise InputError(f"priority {number}: expected 0 to {UINT32_MAX} for a Slurm job")
    if not INT64_MIN <= number <= INT64_MAX:
        raise InputError(f"priority {number}: expected a whole number that fits in 64 bits")
    with mutate_state(config_path, state_path, now, dry_run, queue_only=True) as env:
        queue = _queue(env)
        hit = [j for j in queue if _matches(j, job_id)]
        if not hit:
            raise InputError(f'no job "{job_id}" in the queue')
        out = []
        for job in queue:
            if _matches(job, job_id):
                if slurm:
                    job = replace(job, admin_priority=number)
                    if number == 0:
                        job = replace(job, status="held")
                else:
                    job = replace(job, job_prio=number)
            out.append(job)
        _store(env, out)
        what = "admin priority" if slurm else "JobPrio"
        click.echo(f"{_prefix(dry_run)}Set {what} of {', '.join(j.id for j in hit)} to {number}")


@click.command("rm")
@click.argument("job_ids", nargs=-1, required=True, metavar="JOBID...")
@dry_run_option
@common_options
def rm(
    job_ids: tuple[str, ...],
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    """Remove jobs from the queue (like condor_rm / scancel); CLUSTER removes all its jobs.

    \b
    Examples:
      fs rm 12.0 13
      fs rm 5 --dry-run
    """
    with mutate_state(config_path, state_path, now, dry_run) as env:
        queue = _queue(env)
        for wanted in job_ids:
            if not any(_matches(j, wanted) for j in queue):
                raise InputError(f'no job "{wanted}" in the queue')
        gone = [j for j in queue if any(_matches(j, w) for w in job_ids)]
        _store(env, [j for j in queue if j not in gone])
        if any(j.status == "running" for j in gone):
            _release(env, gone)
        click.echo(
            f"{_prefix(dry_run)}Removed {len(gone)} job{'s' if len(gone) != 1 else ''}: "
            f"{', '.join(j.id for j in gone)}"
        )
