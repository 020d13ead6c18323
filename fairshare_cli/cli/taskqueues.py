"""``fs taskqueues``: DIRAC task queues, their priorities, shares and first-try chances."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from fairshare_cli.cli.context import load_env
from fairshare_cli.cli.options import (
    GlobalOptions,
    common_options,
    no_empty_path,
    output_options,
    pass_options,
    wide_option,
)
from fairshare_cli.errors import InputError, StateError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from fairshare_cli.cli.context import Env
    from fairshare_cli.core.config import Config
    from fairshare_cli.core.dirac.correction import HistoryCorrector
    from fairshare_cli.core.dirac.jobs import ReplayHook
    from fairshare_cli.core.dirac.pilot import Pilot
    from fairshare_cli.core.dirac.taskqueues import (
        GroupPolicy,
        JobPriorityWeighting,
        NewQueueHook,
        ShareCorrector,
        TaskQueue,
        TaskQueueRow,
    )


@click.command("taskqueues")
@click.option(
    "--jobs-file",
    "jobs_file",
    metavar="FILE",
    callback=no_empty_path,
    help="Read the waiting jobs from this JSON list of job objects instead of the state.",
)
@click.option(
    "--pilot",
    "pilot_settings",
    multiple=True,
    metavar="KEY=VALUE",
    help="Show only the queues a pilot of this description matches, with the chance it takes "
    "its job from each (DIRAC's resource description: CPUTime and Site (required), "
    "GridCE, Platform, JobType, Tag, RequiredTag, NumberOfProcessors, WholeNode, MaxRAM, Owner, "
    "OwnerGroup, ReleaseVersion or DIRACVersion (checked as [dirac.pilot] says; none given: "
    "a note), ReleaseProject, VirtualOrganization; lists comma-separated; repeatable). "
    "Without OwnerGroup it is a generic pilot, given its VO's groups as DIRAC's matcher gives "
    "them: every group [dirac.groups] lists, or, where groups name a vo and [dirac] vo is "
    "unset, those of the pilot's VirtualOrganization.",
)
@wide_option
@output_options
@common_options
@pass_options
def taskqueues(
    opts: GlobalOptions,
    jobs_file: str | None,
    pilot_settings: tuple[str, ...],
    wide: bool,
) -> None:
    """Show DIRAC task queues and their priorities, like DIRAC's TaskQueueDB.

    \b
    Examples:
      fs taskqueues --config sample_configs/pool.toml --jobs-file sample_configs/dirac-jobs.json
      fs taskqueues --json --jobs-file sample_configs/dirac-jobs.json
      fs taskqueues --pilot CPUTime=86400 --pilot Site=LCG.CERN.cern --pilot ReleaseVersion=v9

    Waiting (idle) jobs with a dirac_group form task queues; each row shows the queue's priority
    as DIRAC stores it, its share of all priority, the share correction applied to its entity,
    and the chance a pilot matching every queue tries it first. With --pilot, only the queues
    that pilot matches, and the chance it takes its job from each (the matcher's matchAndGetJob).
    """
    from fairshare_cli.core.dirac.insert_time import queues_left_as_made
    from fairshare_cli.core.dirac.jobs import unlisted_groups
    from fairshare_cli.core.dirac.priorities import task_queue_rows
    from fairshare_cli.io.gc_pause import gc_paused
    from fairshare_cli.render.formats import emit_rows
    from fairshare_cli.render.taskqueues import (
        JSON_FIELDS,
        NO_JOBS,
        NO_MATCH,
        render_taskqueues,
        taskqueue_records,
    )

    env = load_env(opts)
    dirac = env.config.dirac
    pilot = read_pilot(pilot_settings, env.config) if pilot_settings else None
    weighting = dirac.job_priority_weighting
    corrector, unrecorded = _corrector(env)
    kept, replay_with = insert_time_replay(dirac.groups, weighting, corrector)  # type: ignore[arg-type]
    with gc_paused():
        queues = _task_queues(env, jobs_file, replay_with)
        unlisted = unlisted_groups(queues, dirac.groups)
        for group, jobs, extra in unlisted:
            warn_unlisted_group(group, f"{jobs} waiting job{'s' * (jobs != 1)}", extra)
            opts.named.add(("dirac", "groups", group))  # (fs whatif --set adding it: meant)
        may_fail = corrector is not None and corrector.may_fail
        left = queues_left_as_made(queues, dirac.groups, corrector, may_fail)
        for group, count in left.counts.items():
            warn_left_as_made(group, count, left.failed_at, left.reason)
        rows = task_queue_rows(queues, dirac.groups, corrector, weighting, kept)  # type: ignore[arg-type]
    empty = NO_MATCH if pilot is not None and rows else NO_JOBS
    if pilot is not None:
        rows = rows_for_pilot(rows, pilot, dirac.groups, [group for group, _, _ in unlisted])
    no_history = _no_history_note(opts, env, unrecorded and bool(rows))
    fmt = opts.output
    if fmt == "table":
        from fairshare_cli.render.fit import terminal_width

        width = None if wide else terminal_width()
        click.echo(render_taskqueues(rows, width, empty), nl=False)
        if no_history is not None:  # (on stderr, under the table: Correction 1 everywhere)
            click.echo(f"fs: note: {no_history}", err=True)
    else:
        emit_rows(taskqueue_records(rows), JSON_FIELDS, fmt)
    _pilot_notes(opts, pilot)  # (on stderr, under the rows they explain)


def _task_queues(env: Env, jobs_file: str | None, replay_with: ReplayHook) -> list[TaskQueue]:
    """The task queues of the waiting jobs of ``jobs_file`` (a job queued after ``--now``
    refused), else of the state's queue.

    Raises:
        FairshareError: a malformed jobs file or state queue, or a job queued later.
    """
    from fairshare_cli.core.dirac.description import waiting_description
    from fairshare_cli.core.dirac.jobs import task_queues_from_objects
    from fairshare_cli.io.dirac_jobs import task_queues_from_file

    dirac = env.config.dirac
    if jobs_file is not None:
        return task_queues_from_file(
            jobs_file,
            dirac.groups,
            dirac.cpu_segments,
            dirac.job_description,
            replay_with,
            on_latest=lambda when, job: _refuse_queued_later(jobs_file, job, when, env.now),
        )
    raw = env.state.section("jobs")
    if raw is not None and not isinstance(raw, list):
        raise StateError(f"state file {env.state_path}: jobs must be a list of jobs")
    source = f"state file {env.state_path}: jobs"
    return task_queues_from_objects(
        raw or [],
        source,
        dirac.groups,
        dirac.cpu_segments,
        waiting_description(dirac.job_description),
        replay_with,
    )


def _refuse_queued_later(jobs_file: str, job: str, when: float, now: float) -> None:
    """Refuse the jobs file's latest job when queued after ``now``, as ``fs sprio``,
    ``fs negotiate`` and ``fs quota`` do: the task queues at ``--now`` hold no such job.

    Raises:
        InputError: naming the job, its ``submit_time`` and ``--now``.
    """
    from fairshare_cli.cli.imports._dump_time import later_job, refuse_later_dump

    refuse_later_dump(f"{jobs_file}: job {job}'s submit_time", when, now, later_job("queued"))


def _pilot_notes(opts: GlobalOptions, pilot: Pilot | None) -> None:
    """On stderr, the notes on how DIRAC's matcher reads the ``--pilot`` description; under
    ``fs whatif``, added to its notes once instead (both sides read the same description)."""
    notes = [f"--pilot {note}" for note in pilot.notes] if pilot is not None else []
    if opts.side is not None:
        opts.notes.extend(note for note in notes if note not in opts.notes)
        return
    for note in notes:
        click.echo(f"fs: note: {note}", err=True)


def _corrector(env: Env) -> tuple[HistoryCorrector | None, bool]:
    """The share corrector of the config and the state's running history (None when the
    correction is off), and whether that history is empty (so every correction is 1).

    Raises:
        StateError: the state's ``dirac`` section is malformed.
    """
    from fairshare_cli.core.dirac.correction import HistoryCorrector, history_from_json

    correction = env.config.dirac.correction
    if not correction.enabled:
        return None, False
    history = env.decode("dirac", history_from_json)
    return HistoryCorrector(correction, history, env.now), not history.events


def _no_history_note(opts: GlobalOptions, env: Env, unrecorded: bool) -> str | None:
    """The note that no correction applies for want of running history (None: one does);
    under ``fs whatif``, added to its notes once, whichever side finds it."""
    if not unrecorded:
        return None
    note = NO_HISTORY.format(state=env.state_path)
    if opts.side is not None and note not in opts.notes:
        opts.notes.append(note)
    return note


#: Why every correction is 1 with the share correction on: the state holds no running
#: history, and DIRAC's corrector changes nothing for a slice without accounting data.
NO_HISTORY = (
    "share correction is on, but state file {state} holds no running history, so no "
    "correction applies (as in DIRAC with no accounting data); 'fs import history FILE' "
    "or committed 'fs negotiate' cycles record it"
)


def rows_for_pilot(
    rows: list[TaskQueueRow],
    pilot: Pilot,
    groups: Mapping[str, GroupPolicy],
    unlisted: list[str],
) -> list[TaskQueueRow]:
    """The rows of the queues ``pilot`` matches, with its chance of taking each; a pilot
    without ``OwnerGroup`` is a generic pilot, given every listed group (a warning names
    the ``unlisted`` groups of waiting jobs it cannot reach); a group has JobSharing as the
    Registry reads it, by its exact name (an unlisted group has none)."""
    from fairshare_cli.core.dirac.pilot import generic_pilot, pilot_rows

    generic = pilot.owner_groups is None
    pilot = generic_pilot(pilot, list(groups))
    if generic:
        warn_generic_pilot(unlisted, list(pilot.owner_groups or ()))
    return pilot_rows(rows, pilot, lambda g: g in groups and groups[g].job_sharing)


def warn_generic_pilot(unlisted: list[str], listed: list[str]) -> None:
    """On stderr: a pilot without ``OwnerGroup`` takes no job of the ``unlisted`` groups
    (those not even the collation makes one of the ``listed`` ones)."""
    from fairshare_cli.core.dirac.pilot import outside_generic_pilot

    outside = outside_generic_pilot(unlisted, listed)
    if not outside:
        return
    names = ", ".join(f"'{group}'" for group in outside)
    click.echo(
        "fs: warning: --pilot gives no OwnerGroup: DIRAC's matcher gives such a (generic) "
        f"pilot its VO's groups, those [dirac.groups] lists, so it takes no job of {names} "
        "(--pilot OwnerGroup=NAME,... names the groups of a pilot that does)",
        err=True,
    )


def read_pilot(settings: tuple[str, ...], config: Config) -> Pilot:
    """The ``--pilot`` description, refused where DIRAC's matcher refuses it, in its order:
    the groups of a generic pilot (``[dirac.groups]``' and ``[dirac] vo``), then its
    version (``[dirac.pilot]``), then the rest
    (:func:`~fairshare_cli.core.dirac.pilot.pilot_from_settings`).

    Raises:
        InputError: a setting the matcher would not take, naming it.
    """
    from fairshare_cli.core.dirac.pilot import pilot_from_settings

    dirac = config.dirac
    groups = [(name, spec.vo) for name, spec in dirac.groups.items()]
    try:
        return pilot_from_settings(settings, dirac.pilot, groups, dirac.vo)
    except ValueError as exc:
        raise InputError(f"--pilot {exc}") from None


def warn_unlisted_group(group: str, jobs: str, extra: str) -> None:
    """On stderr: ``[dirac.groups]`` does not list ``group`` (of ``jobs``), which DIRAC
    gives the default share (``extra``: a did-you-mean text or "")."""
    click.echo(
        f"fs: warning: dirac_group '{group}' ({jobs}) is not in [dirac.groups]{extra}; "
        "DIRAC gives it the default share 1000",
        err=True,
    )


def insert_time_replay(
    groups: Mapping[str, GroupPolicy],
    weighting: JobPriorityWeighting,
    correct: ShareCorrector | None = None,
) -> tuple[dict[int, float], ReplayHook]:
    """``(kept, replay_with)``: where a group has queues DIRAC's recalculation for all does not
    set, the jobs are queued again one by one and ``kept`` fills with the priorities
    ``insertJob`` left on them (:mod:`~fairshare_cli.core.dirac.insert_time`)."""
    from fairshare_cli.core.dirac.correction import HistoryCorrector
    from fairshare_cli.core.dirac.insert_time import InsertTimePriorities, queues_left_as_made

    kept: dict[int, float] = {}

    def replay_with(queues: list[TaskQueue]) -> NewQueueHook | None:
        may_fail = isinstance(correct, HistoryCorrector) and correct.may_fail
        left = queues_left_as_made(queues, groups, correct, may_fail).counts
        if not left:
            return None
        kept.clear()
        recorder = InsertTimePriorities(groups, list(left), weighting, kept)
        return recorder

    return kept, replay_with


def warn_left_as_made(
    group: str, left: int, failed_at: str | None = None, reason: str = ""
) -> None:
    """On stderr: ``left`` queues of ``group`` are not set by DIRAC's recalculation for all
    (an owner named ``all`` with several queues, or its share correction failed before it
    reached the group: ``failed_at``), but by ``insertJob``'s."""
    if failed_at is not None:
        where = f"group '{failed_at}'" if failed_at else "the groups"
        click.echo(
            f"fs: warning: dirac_group '{group}': DIRAC's share correction of {where} divides "
            f"by zero ({reason}), so each TaskQueuesAgent cycle fails "
            f"before it sets this group's priorities; its {left} queue{'s' * (left != 1)} "
            f"{'keeps' if left == 1 else 'keep'} what insertJob's recalculation set when a "
            "queue of the group was made (the default share 1000, uncorrected, over the jobs "
            "queued so far), as shown",
            err=True,
        )
        return
    click.echo(
        f"fs: warning: dirac_group '{group}' has an owner named 'all' with several task "
        "queues: DIRAC's recalculateTQSharesForAll then sets only all's priorities; its "
        f"other {left} queue{'s' * (left != 1)} {'keeps' if left == 1 else 'keep'} what "
        "insertJob's recalculation set when a queue of the group was made (the default share "
        "1000, uncorrected, over the jobs queued so far), as shown, unless a TaskQueuesAgent "
        "cycle ran before all had a second queue",
        err=True,
    )
