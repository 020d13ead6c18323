"""``fs import squeue``: pending and running jobs from squeue --json or scontrol show jobs."""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain, compress, repeat
from operator import attrgetter, eq, is_, not_
from typing import TYPE_CHECKING, Any

import click
from msgspec.structs import replace

from fairshare_cli.cli.context import Env, mutate_state
from fairshare_cli.cli.imports._slurm_state import (
    last_decay_option,
    plural,
    report,
    resolve_last_decay,
    store_slurm,
)
from fairshare_cli.cli.options import GlobalOptions, common_options, dry_run_option, pass_options
from fairshare_cli.core.jobs import Job, job_to_json, parse_jobs
from fairshare_cli.core.operations.queue import ended_by_dump
from fairshare_cli.core.slurm.billing import Billing
from fairshare_cli.core.slurm.usage import SlurmUsage
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.slurm_jobs import FinishedJob, JobDump
from fairshare_cli.io.importers.squeue import ImportedJob

if TYPE_CHECKING:
    from fairshare_cli.core.config import Config
    from fairshare_cli.core.slurm.snapshot import PriorityMismatch


@click.command("squeue")
@click.argument("file", metavar="FILE")
@last_decay_option()
@click.option(
    "--site-factor-from-priority",
    is_flag=True,
    help="Set a pending job's site factor to what its printed Priority holds beyond the "
    "factors (for a SiteFactor set with scontrol update, which neither dump prints).",
)
@click.option(
    "--no-site-factor",
    is_flag=True,
    help="Set every job's site factor to 0 (the dump's SiteFactor too).",
)
@dry_run_option
@common_options
@pass_options
def command(
    opts: GlobalOptions,
    file: str,
    last_decay: str | None,
    site_factor_from_priority: bool,
    no_site_factor: bool,
    dry_run: bool,
) -> None:
    """Put Slurm's pending and running jobs into the queue (- for stdin).

    \b
    Examples:
      squeue --json > jobs.json && fs import squeue jobs.json
      scontrol show jobs > jobs.txt
      fs import squeue jobs.txt --last-decay 2026-11-21T23:13:20Z

    scontrol -o show jobs (one line a job) reads as scontrol show jobs. Jobs keep
    Slurm's job ids (an array's pending tasks: the array's id, as sprio prints it),
    submit/eligible/accrue times, partitions, QOS, account, CPUs, memory (the TRES's
    mem) and nice; a job already in the queue with the same id is replaced.
    Running jobs accrue usage at every later decay pass, as slurmctld charges them. A
    job's site factor is the dump's SiteFactor (site_factor), else 0; a pending job whose
    printed Priority the imported usage does not give is named, not absorbed; one printed
    with Priority 0 is held (sprio leaves it out). Finished jobs are listed as ignored;
    one the queue holds is over there (completed).
    """
    from fairshare_cli.io.importers.squeue import read_jobs

    if site_factor_from_priority and no_site_factor:
        raise click.UsageError(
            "--site-factor-from-priority and --no-site-factor exclude each other"
        )
    dump = read_jobs(file)
    _refuse_later_jobs(dump.jobs, opts.when())
    with mutate_state(opts, dry_run) as env:
        env.jobs_source = file  # (the dump's jobs are the queue's new ones)
        when = resolve_last_decay(last_decay, env.now)
        ignored: list[str] = []  # (the finished jobs first, once the queue is read)
        _settle(dump.jobs, when, no_site_factor)
        running = [*compress(dump.jobs, map(eq, map(_STATUS_OF, dump.jobs), repeat("running")))]
        slurm, missing = _charge_running(env, running, when)
        slurm, refined = _refine(env, slurm, running, dump.finished)
        store_slurm(env, slurm)
        ignored += missing
        basic = env.config.priority.type == "basic"  # (printed: its first-in-first-out count)
        _check_names(env.config, file, dump.jobs)  # (before any priority is worked out)
        sites = _wanted_site_factors(env, slurm, dump.jobs, ignored, site_factor_from_priority)
        new = _new_jobs(env, dump.jobs, sites)
        unexplained = _mismatches(env, slurm, dump.jobs, new) if slurm.usage and not basic else []
        written = _written(dump.jobs, new)
        kept, same = _kept(env, dict(zip(map(_ID_OF, new), written, strict=True)))
        kept, ended = ended_by_dump(kept, dict.fromkeys(dump.skipped, "completed"))
        over = set(ended)
        ignored[:0] = [f"{j} (finished)" for j in dump.skipped if j not in over]
        section = [*map(job_to_json, kept), *written]
        queue = [*kept, *new]
        env.state = env.state.with_section("jobs", section)
        env.written_jobs = (section, queue, same)  # checked from these, not parsed again
        held = [*map(_STATUS_OF, dump.jobs)].count("held")  # (printed Priority 0)
        text = (
            f"{file}: {plural(len(new), 'job')} ({len(new) - len(running) - held} pending, "
            f"{f'{held} held, ' if held else ''}{len(running)} running) into {env.state_path}"
        )
        if refined:
            text += f"; usage of {plural(len(refined), 'association')} made exact from their jobs"
        if sites:
            text += "; site factor from Priority: " + ", ".join(
                f"{k}={v}" for k, v in sites.items()
            )
        if ended:
            text += f"; ended {plural(len(ended), 'queued job')} the dump lists finished: "
            text += ", ".join(ended)
        text += _unexplained(unexplained, last_decay is None, _incr_only(env)) + _held(
            env, [j for j in new if j.status == "idle"]
        )
    report(dry_run, text, ignored)  # (once the state is checked and written)
    _note_release(dump, env.config, file)


def _check_names(config: Config, file: str, dumped: list[ImportedJob]) -> None:
    """Refuse a job naming a partition, QOS or account the config lacks, as the state's
    check would (:func:`~fairshare_cli.core.operations.node_fit.check_slurm_names`), before
    the printed priorities are checked: the error names the dump and says what brings the
    table. Jobs alike in those names are checked once.

    Raises:
        InputError: naming ``file`` and the job.
    """
    from fairshare_cli.core.operations.node_fit import check_slurm_names

    seen: set[tuple[str | None, str | None, str | None, str]] = set()
    for item in dumped:
        job = item.job
        key = (job.partition, job.qos, job.account, job.owner)
        if key not in seen:
            seen.add(key)
            check_slurm_names(config, job, f"{file}: job {job.id}", imported=True)


def _wanted_site_factors(
    env: Env, slurm: SlurmUsage, dumped: list[ImportedJob], ignored: list[str], wanted: bool
) -> dict[str, int]:
    """The site factors ``--site-factor-from-priority`` sets (none unless asked), or why
    there are none, added to ``ignored`` (unasked: why the printed priorities go unchecked,
    :func:`_note_unchecked`)."""
    if not wanted:
        _note_unchecked(env, slurm, dumped, ignored)
        return {}
    if env.config.priority.type == "basic":
        ignored.append("site factors (priority/basic weighs no factors)")
        return {}
    if not slurm.usage:
        ignored.append("site factors (no usage imported yet: import scontrol-assoc first)")
        return {}
    return _site_factors(env, slurm, dumped, ignored)


def _note_unchecked(
    env: Env, slurm: SlurmUsage, dumped: list[ImportedJob], ignored: list[str]
) -> None:
    """Add to ``ignored`` that the pending jobs' printed priorities were not checked when
    the state holds no Slurm usage yet (the dump imported before the usage): a site factor
    set with ``scontrol update``, which only the printed Priority shows, would else be lost
    without a word."""
    if slurm.usage or env.config.priority.type == "basic":
        return
    if any(item.printed_priority and item.job.status == "idle" for item in dumped):
        ignored.append(
            "printed priorities (not checked, no usage imported yet: import scontrol-assoc "
            "first, then this dump again)"
        )


def _note_release(dump: JobDump, config: Config, file: str) -> None:
    """Note a dump of Slurm 22.05 or older read under a config that prints as 23.02 on do
    (``fs sprio -l`` then has 26.05's columns, which that cluster's sprio does not print)."""
    if dump.before_23_02 and config.priority.output_compat != "22.05":
        click.echo(
            f"fs: note: {file} is Slurm 22.05's scontrol show jobs (TRES=, where 23.02 and "
            'later print ReqTRES=): set [priority] output_compat = "22.05" for fs sprio and '
            "fs sshare to print as that cluster's sprio and sshare do",
            err=True,
        )


def _refuse_later_jobs(dumped: list[ImportedJob], now: float) -> None:
    """Refuse a dump whose latest submit time (a running job's start) is after ``now``, as
    ``fs import condor-q`` refuses one (a FAIRSHARE_NOW left set: such jobs are in no
    view at ``now``).

    Raises:
        InputError: naming the job, its time and ``--now`` (or where the time came from).
    """
    from fairshare_cli.cli.imports._dump_time import latest, refuse_later_dump

    times = []
    for item in dumped:
        job = item.job
        if job.submit_time is not None:
            times.append((job.submit_time, f"{item.where}: job {job.id}'s submit time"))
        if job.status == "running" and job.start_time is not None:
            times.append((job.start_time, f"{item.where}: job {job.id}'s start time"))
    found = latest(times)
    if found is not None:
        text = any(isinstance(item.place, int) for item in dumped)  # (scontrol's, not JSON)
        later = "the dump is of a later time" + (_LOCAL_TIMES if text else "")
        refuse_later_dump(found[1], found[0], now, later)


#: Why a text dump's times may lie after the time it was taken: scontrol prints its host's
#: local time without a zone, which fs reads as UTC.
_LOCAL_TIMES = (
    " (or of a host east of UTC: scontrol prints local times, which fs reads as UTC; "
    "capture it with TZ=UTC scontrol show jobs)"
)


def _held(env: Env, pending: list[Job]) -> str:
    """``; 1 job its partitions' limits hold back (never started): 30 PartitionNodeLimit
    (partition "batch": MaxNodes 4, the job asks for 8 nodes)``, or nothing."""
    from fairshare_cli.core.operations.node_fit import NodeFit

    fit = NodeFit(env.config)
    held = [(job.id, why) for job in pending if (why := fit.pending(job)) is not None]
    if not held:
        return ""
    listed = ", ".join(f"{job_id} {why}" for job_id, why in held[:_HELD_SHOWN])
    more = f", ... ({len(held)} in all)" if len(held) > _HELD_SHOWN else ""
    return (
        f"; {plural(len(held), 'job')} its partitions' limits hold back (never started): "
        f"{listed}{more}"
    )


#: How many held jobs the summary names.
_HELD_SHOWN = 5


def _kept(env: Env, written: dict[str, dict[str, Any]]) -> tuple[list[Job], frozenset[str]]:
    """The queue's jobs the dump does not replace (``written``: the dump's job objects by
    id), and the ids whose object the dump writes is the one the queue holds. The whole
    queue is read first: a malformed job is refused even where the dump would replace it
    (a state file is never overwritten over a fault); a job object equal to the one the
    dump writes for its id is that valid job, and is not read again.

    Raises:
        StateError: the queue is malformed.
    """
    source = f"{env.state_path}: jobs"
    same: list[frozenset[str]] = []

    def read(raw: Any) -> list[Job]:
        queue = [] if raw is None else raw
        rest, equal = _not_written(queue, written)
        try:
            jobs = parse_jobs(rest, source)
        except InputError:
            parse_jobs(queue, source)  # names the fault at its place in the queue
            raise
        same.append(equal)
        return jobs

    kept = [j for j in env.decode("jobs", read) if j.id not in written]
    return kept, same[0]


def _not_written(queue: Any, written: dict[str, dict[str, Any]]) -> tuple[Any, frozenset[str]]:
    """The objects of ``queue`` other than those equal to the dump's object of their id
    (compared in C), and the ids of those; or ``queue`` itself (and no id) where leaving
    some out could hide a fault: not a list of objects, an id twice, a ``count`` (jobs
    whose ids the others might repeat), a ``true`` or ``false`` (equal to 1 or 0, but no
    number)."""
    if type(queue) is not list or set(map(type, queue)) - {dict} or not written:
        return queue, frozenset()
    ids: list[Any] = [*map(dict.get, queue, repeat("id"))]
    try:
        if len(set(ids)) != len(ids) or any(map(dict.__contains__, queue, repeat("count"))):
            return queue, frozenset()
    except TypeError:  # an id that is no string (a list): the reader words it
        return queue, frozenset()
    find: Callable[[Any], Any] = written.get
    same = [*map(eq, map(find, ids), queue)]
    values = chain.from_iterable(map(dict.values, compress(queue, same)))
    if bool in set(map(type, values)):  # (true == 1: a flag where the dump has a number)
        return queue, frozenset()
    return [*compress(queue, map(not_, same))], frozenset(compress(ids, same))


_ID_OF, _JOB_OF = attrgetter("id"), attrgetter("job")
#: (an imported job's status)
_STATUS_OF = attrgetter("job.status")


def _settle(jobs: list[ImportedJob], when: float, no_site_factor: bool) -> None:
    """A pending job with ``AccrueTime=Unknown`` (not accruing age: held back by limits)
    accrues from the pass ``when`` (AGE 0 at it); ``--no-site-factor``: each job's site
    factor 0. The jobs without an accrue time (or with a site factor) found in C."""
    for item in compress(jobs, map(is_, map(_ACCRUE_OF, jobs), repeat(None))):
        if item.job.status == "idle":
            item.job, item.json_form = replace(item.job, accrue_time=when), False
    for item in compress(jobs, map(_SITE_OF, jobs)) if no_site_factor else ():
        item.job, item.json_form = replace(item.job, site_factor=0), False


_ACCRUE_OF, _SITE_OF = attrgetter("job.accrue_time"), attrgetter("job.site_factor")


def _written(dumped: list[ImportedJob], jobs: list[Job]) -> list[dict[str, Any]]:
    """The JSON form of each job: the object it was read from when that is its form and
    the job is as read (``json_form``), else :func:`job_to_json` of it."""
    return [
        item.obj if item.json_form and job is item.job else job_to_json(job)
        for item, job in zip(dumped, jobs, strict=True)
    ]


def _incr_only(env: Env) -> bool:
    """Whether slurmctld keeps each job's priority at its highest (``PriorityFlags``)."""
    from fairshare_cli.core.slurm.factors import parse_flags

    return "INCR_ONLY" in parse_flags(env.config.priority.flags)


def _new_jobs(env: Env, dumped: list[ImportedJob], sites: dict[str, int]) -> list[Job]:
    """The dump's jobs as the queue takes them: with the site factors found (``sites``),
    and under ``INCR_ONLY`` each pending job of one partition and QOS with the priority
    slurmctld stored for it (``slurm_priority``: its highest, which orders the queue;
    an admin-set one is the admin's); under ``priority/basic`` every pending job with
    its own (the order it was given at submission, ``fs simulate`` goes by)."""
    new = [*map(_JOB_OF, dumped)]
    if sites:
        new = [replace(j, site_factor=sites[j.id]) if j.id in sites else j for j in new]
    basic = env.config.priority.type == "basic"
    if not basic and not _incr_only(env):
        return new
    return [
        replace(job, slurm_priority=item.printed_priority)
        if job.status == "idle"
        and item.printed_priority
        and job.admin_priority is None
        and (basic or (len(job.partitions) < 2 and "," not in (job.qos or "")))
        else job
        for item, job in zip(dumped, new, strict=True)
    ]


#: What a printed priority above every factor's sum may be: a site factor no dump prints.
_SITE_HINT = (
    " (a site factor, set with scontrol update and printed in no dump? "
    "--site-factor-from-priority reads it off the printed Priority)"
)


def _unexplained(
    mismatches: list[PriorityMismatch], no_last_decay: bool, incr_only: bool = False
) -> str:
    """The summary's words for printed priorities the dumps do not give (none: nothing),
    with a pointer to ``--last-decay`` when it was not given (the priorities are those of
    slurmctld's last pass, taken as ``--now``). Under ``INCR_ONLY`` a printed priority
    above the computed one is slurmctld's highest so far, named apart."""
    from fairshare_cli.io.importers.common import summary_names

    kept = [m for m in mismatches if incr_only and m.printed > m.computed]
    mismatches = [m for m in mismatches if m not in kept]
    text = ""
    if kept:
        named = [f"{m.job_id} ({m.printed}, computed {m.computed})" for m in kept]
        text = (
            f"; {plural(len(kept), 'job')} printed above {'its' if len(kept) == 1 else 'their'}"
            f" factors, kept at the highest (PriorityFlags=INCR_ONLY): {summary_names(named)}"
        )
    if not mismatches:
        return text
    count = len(mismatches)
    named = [f"{m.job_id} (printed {m.printed}, computed {m.computed})" for m in mismatches]
    hint = (
        " (without --last-decay, slurmctld's last decay pass is taken as --now: give the "
        "time it ran before the dump)"
        if no_last_decay
        else _SITE_HINT
        if all(m.printed > m.computed for m in mismatches)
        else ""
    )
    return text + (
        f"; {count} printed {'priority' if count == 1 else 'priorities'} the dumps "
        f"do not give: {summary_names(named)}{hint}"
    )


def _charge_running(
    env: Env, running: list[ImportedJob], when: float
) -> tuple[SlurmUsage, list[str]]:
    """The Slurm section with the ``running`` jobs as its running charges (from the last
    pass on), and the jobs left out."""
    from dataclasses import replace

    from fairshare_cli.cli.slurm_usage import view_usage
    from fairshare_cli.core.slurm.snapshot import RunningJob, at_pass, running_charges

    # (the queue's running jobs charged up to their time limits, not the dump's pass;
    # those the dump shows running have not ended)
    still = {item.job.id for item in running}
    state = at_pass(view_usage(env, running_on=still)[0], when, env.config)
    billing = Billing.of_config(env.config)
    charged: list[RunningJob] = []
    ignored: list[str] = []
    for item in running:
        job = item.job
        account, user = job.account, job.owner
        spec = env.config.accounts.get(account) if account else None
        if spec is None or user not in spec.users or job.start_time is None:
            ignored.append(f"{job.id} ({account}/{user}: no association)")
            continue
        start = float(job.start_time)
        rate = billing.of_dumped(job, item.billing)
        charged.append(RunningJob(account or "", user, rate, job.qos, start, job.id))
    return replace(state, running=running_charges(charged, env.config)), ignored


def _refine(
    env: Env, slurm: SlurmUsage, running: list[ImportedJob], finished: list[FinishedJob]
) -> tuple[SlurmUsage, list[tuple[str, str]]]:
    """Usage the dump's ``running`` and ``finished`` jobs account for in full, to every
    decimal."""
    from fairshare_cli.core.slurm.snapshot import JobCharge, refine_usage

    charges = [JobCharge(f.account, f.user, f.billing, f.qos, f.start, f.end) for f in finished]
    billing = Billing.of_config(env.config)
    for item in running:
        job = item.job
        if job.account and job.start_time is not None:
            rate = billing.of_dumped(job, item.billing)
            charges.append(JobCharge(job.account, job.owner, rate, job.qos, job.start_time, None))
    return refine_usage(slurm, charges, env.config)


def _printed(dumped: list[ImportedJob], jobs: list[Job]) -> list[tuple[Job, int]]:
    """Each job with the priority its dump printed (jobs with none left out)."""
    return [
        (job, item.printed_priority)
        for item, job in zip(dumped, jobs, strict=True)
        if item.printed_priority is not None
    ]


def _mismatches(
    env: Env, slurm: SlurmUsage, dumped: list[ImportedJob], jobs: list[Job]
) -> list[PriorityMismatch]:
    """The pending jobs whose printed priority the imported state does not give them
    (a site factor set with scontrol update, a pass between the dumps): reported, not
    absorbed."""
    from fairshare_cli.core.slurm.snapshot import priority_mismatches

    return priority_mismatches(env.config, slurm, _printed(dumped, jobs), env.now)


def _site_factors(
    env: Env, slurm: SlurmUsage, jobs: list[ImportedJob], ignored: list[str]
) -> dict[str, int]:
    """Site factors read off the printed priorities; none under ``INCR_ONLY``, where a
    printed priority may be a higher one kept from an earlier pass (noted in ``ignored``)."""
    if _incr_only(env):
        ignored.append(
            "site factors (PriorityFlags=INCR_ONLY: a printed Priority may be a higher one "
            "kept from an earlier pass)"
        )
        return {}
    from fairshare_cli.core.slurm.snapshot import site_factors

    return site_factors(env.config, slurm, _printed(jobs, [j.job for j in jobs]), env.now)
