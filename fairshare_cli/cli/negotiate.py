"""``fs negotiate``: one negotiation cycle, previewed (``--dry-run``) or committed."""

from __future__ import annotations

import sys

import click

from fairshare_cli.cli.context import Env, load_env, mutate_state
from fairshare_cli.cli.htcondor_inputs import HTCondorInputs, load_inputs
from fairshare_cli.cli.options import (
    common_options,
    dry_run_option,
    output_format,
    output_options,
)
from fairshare_cli.core.htcondor.negotiator import CycleResult
from fairshare_cli.core.state import SectionError
from fairshare_cli.errors import InputError, StateError


def _run_cycle(
    env: Env, inputs: HTCondorInputs, explain: str | None, show_progress: bool
) -> CycleResult:
    from fairshare_cli.core.htcondor.negotiator import negotiate_cycle
    from fairshare_cli.core.htcondor.pool import (
        group_tree,
        negotiator_knobs,
        priorities_at,
        submitter_of,
    )
    from fairshare_cli.render.negotiate import progress_bar

    idle = (b for b in inputs.batches if b.job.status == "idle")
    if explain is not None and not any(b.holds(explain) for b in idle):
        raise InputError(f"--explain {explain}: no idle job with that id in {inputs.jobs_source}")
    with progress_bar(show_progress) as progress:
        return negotiate_cycle(
            env.config.machines,
            inputs.claims,
            inputs.batches,
            submitter_of(env.config),
            priorities_at(inputs.accountant, env.config, env.now),
            group_tree(env.config),
            negotiator_knobs(env.config),
            env.now,
            explain_job=explain,
            rr_times=inputs.negotiator.rr_times,
            progress=progress,
        )


def _show(result: CycleResult, fmt: str, explain: str | None, committed: str | None) -> None:
    from fairshare_cli.render.formats import emit_rows
    from fairshare_cli.render.negotiate import (
        explain_lines,
        render_cycle,
        write_cycle_json,
        write_cycle_lines,
    )

    if explain is not None:
        if fmt == "table":
            click.echo("\n".join(explain_lines(explain, result.explain)))
        elif fmt == "ndjson":  # one event per line (each with its own keys)
            import json

            from fairshare_cli.render.formats import jsonable

            for e in result.explain:
                click.echo(json.dumps(jsonable({"job_id": explain, **e})))
        else:
            emit_rows({"job_id": explain, "events": result.explain}, None, "json")
        return
    if fmt == "json":
        write_cycle_json(result, sys.stdout)
    elif fmt in ("ndjson", "csv"):
        write_cycle_lines(result, fmt, sys.stdout)
    else:
        render_cycle(result, committed)


@click.command("negotiate")
@click.option(
    "--explain",
    metavar="JOBID",
    help="Tell the story of one idle job in this cycle instead of the whole cycle.",
)
@click.option(
    "--jobs-file",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Read the job queue from this JSON file instead of the state (with --dry-run).",
)
@dry_run_option
@output_options
@common_options
def negotiate(
    explain: str | None,
    jobs_file: str | None,
    dry_run: bool,
    output: str | None,
    as_json: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    """Run one negotiation cycle, like condor_negotiator; --dry-run only shows it.

    \b
    Examples:
      fs negotiate --dry-run --config sample_configs/pool.toml
      fs negotiate --dry-run --explain 12.0
      fs negotiate --json     # commit: matched jobs start, usage is charged
    Shows which job goes to which slot and why, each submitter's pie share and
    limit, and why idle jobs stay idle. Without --dry-run the matches are written to
    the state: jobs run on their slots and the accountant charges their submitters.
    ndjson prints one line per match, submitter and unmatched job; csv the matches.
    """
    fmt = output_format(output, as_json)
    if explain is not None and fmt == "csv":
        raise click.UsageError(
            "--explain prints a story of events with no fixed columns: use table, json or ndjson"
        )
    show_progress = sys.stderr.isatty()
    if dry_run:
        env = load_env(config_path, state_path, now)
        inputs = load_inputs(env, jobs_file)
        result = _run_cycle(env, inputs, explain, show_progress)
        _show(result, fmt, explain, None)
        return
    if jobs_file:
        raise click.UsageError(
            "--jobs-file only works with --dry-run: a committed cycle updates the queue "
            "in the state (submit the jobs there first)"
        )
    from fairshare_cli.core.htcondor import accountant as acct
    from fairshare_cli.core.htcondor.pool import commit_cycle, negotiator_to_json
    from fairshare_cli.core.jobs import job_to_json

    with mutate_state(config_path, state_path, now) as env:
        inputs = load_inputs(env, None)
        result = _run_cycle(env, inputs, explain, show_progress)
        jobs, accountant, negotiator = commit_cycle(
            result, inputs.jobs, inputs.accountant, inputs.negotiator, env.config, env.now
        )
        env.state = (
            env.state.with_section("jobs", [job_to_json(j) for j in jobs])
            .with_section("accountant", acct.accountant_to_json(accountant))
            .with_section("negotiator", negotiator_to_json(negotiator))
        )
        # DIRAC's running-jobs history (share correction) counts the jobs that started.
        by_id = {j.id: j for j in inputs.jobs}

        def dirac_entity(job_id: str | None) -> tuple[str, str] | None:
            job = by_id.get(job_id) if job_id else None
            return (job.dirac_group, job.owner) if job and job.dirac_group else None

        started = [e for m in result.matches if (e := dirac_entity(m.job_id))]
        stopped = [e for m in result.matches if (e := dirac_entity(m.preempted_job))]
        if started or stopped:
            from fairshare_cli.core.dirac.correction import record_cycle

            try:
                dirac = record_cycle(env.state.section("dirac"), started, stopped, env.now)
            except SectionError as exc:
                raise StateError(f"state file {env.state_path}: {exc}") from None
            env.state = env.state.with_section("dirac", dirac)
    _show(result, fmt, explain, f"Committed {len(result.matches)} match(es) to {env.state_path}.")
