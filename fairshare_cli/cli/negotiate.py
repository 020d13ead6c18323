"""``fs negotiate``: one negotiation cycle, previewed (``--dry-run``) or committed."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from fairshare_cli.cli.complete import job_ids
from fairshare_cli.cli.context import Env, load_env, mutate_state
from fairshare_cli.cli.htcondor_inputs import load_inputs
from fairshare_cli.cli.options import (
    GlobalOptions,
    common_options,
    dry_run_option,
    no_empty_path,
    output_options,
    pass_options,
    wide_option,
)

if TYPE_CHECKING:  # the negotiator loads when the command runs (`--help` stays light)
    from fairshare_cli.core.htcondor.negotiator import CycleResult
    from fairshare_cli.core.operations.negotiate import CycleInputs


def _run_cycle(
    env: Env, inputs: CycleInputs, explain: str | None, show_progress: bool
) -> CycleResult:
    from fairshare_cli.core.operations.negotiate import run_cycle
    from fairshare_cli.render.negotiate import progress_bar

    with progress_bar(show_progress) as progress:
        return run_cycle(env.config, inputs, env.now, explain_job=explain, progress=progress)


def _show(
    result: CycleResult, fmt: str, explain: str | None, committed: str | None, wide: bool = False
) -> None:
    from fairshare_cli.render.formats import emit_rows
    from fairshare_cli.render.negotiate import (
        explain_lines,
        render_cycle,
        write_cycle_json,
        write_cycle_lines,
    )

    for note in result.notes:
        click.echo(f"fs: note: {note}", err=True)
    if committed is not None and (explain is not None or fmt != "table"):
        click.echo(committed, err=True)  # (stdout holds the explanation or the rows)
    if explain is not None:
        if fmt == "table":
            click.echo("\n".join(explain_lines(explain, result.explain)))
        elif fmt == "ndjson":  # one event per line (each with its own keys)
            from fairshare_cli.core.jsontext import dumps_line

            for e in result.explain:
                click.echo(dumps_line({"job_id": explain, **e}))
        else:
            emit_rows({"job_id": explain, "events": result.explain}, None, "json")
        return
    if fmt == "json":
        write_cycle_json(result, sys.stdout)
    elif fmt in ("ndjson", "csv"):
        write_cycle_lines(result, fmt, sys.stdout)
    else:
        render_cycle(result, committed, wide=wide)


@click.command("negotiate")
@click.option(
    "--explain",
    metavar="JOBID",
    shell_complete=job_ids,
    help="Tell the story of one idle job in this cycle instead of the whole cycle.",
)
@click.option(
    "--jobs-file",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    callback=no_empty_path,
    help="Read the job queue from this JSON file instead of the state (with --dry-run).",
)
@dry_run_option
@wide_option
@output_options
@common_options
@pass_options
def negotiate(
    opts: GlobalOptions,
    explain: str | None,
    jobs_file: str | None,
    dry_run: bool,
    wide: bool,
) -> None:
    """Run one negotiation cycle, like condor_negotiator; --dry-run only shows it.

    \b
    Examples:
      fs negotiate --dry-run --config sample_configs/pool.toml
      fs negotiate --dry-run --jobs-file sample_configs/jobs.json --explain 106.0
      fs negotiate --json     # commit: matched jobs start, usage is charged

    Shows which job goes to which slot and why, each submitter's pie share and
    limit, and why idle jobs stay idle. Without --dry-run the matches are written to
    the state: jobs run on their slots and the accountant charges their submitters.
    ndjson prints one line per match, submitter and unmatched job; csv the matches.
    """
    fmt = opts.output
    if explain is not None and not explain.strip():  # (said "--explain : no idle job ...")
        raise click.BadParameter(
            "an empty job id; give an idle job's id (5.0), or leave --explain out",
            param_hint="'--explain'",
        )
    if explain is not None and opts.side is not None:  # (its story is no rows to compare)
        raise click.UsageError(
            "fs whatif compares the cycle's submitters and matches; --explain tells one job's"
            " story, which it does not compare: leave --explain out"
        )
    if explain is not None and fmt == "csv":
        raise click.UsageError(
            "--explain prints a story of events with no fixed columns: use table, json or ndjson"
        )
    show_progress = sys.stderr.isatty()
    if dry_run:
        from fairshare_cli.io.gc_pause import gc_paused

        with gc_paused():  # a cycle builds no cycles; collecting among 50,000 slots costs 1/4
            env = load_env(opts)
            inputs = load_inputs(env, jobs_file)
            result = _run_cycle(env, inputs, explain, show_progress)
            _show(result, fmt, explain, None, wide)
        return
    if jobs_file:
        raise click.UsageError(
            "--jobs-file only works with --dry-run: a committed cycle updates the queue "
            "in the state (submit the jobs there first)"
        )
    from fairshare_cli.core.operations.negotiate import commit

    with mutate_state(opts) as env:
        inputs = load_inputs(env, None)
        result = _run_cycle(env, inputs, explain, show_progress)
        env.state = commit(env.config, env.state, inputs, result, env.now)
    done = f"Committed {len(result.matches)} match(es) to {env.state_path}."
    _show(result, fmt, explain, done, wide)
