"""``fs sweep``: a grid of policies run through ``fs simulate``, measured and ranked."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from fairshare_cli.cli.options import (
    CIntRange,
    GlobalOptions,
    no_empty_path,
    output_options,
    pass_options,
)
from fairshare_cli.cli.simulate import html_option
from fairshare_cli.core.operations.sweep import METRICS
from fairshare_cli.errors import FairshareError, InputError

if TYPE_CHECKING:
    from fairshare_cli.io.sweep_dir import SweepDir

ENGINES = ("local", "htcondor", "slurm", "dask")


#: ``ctx.meta`` key: the command line gave SPEC first (``fs sweep SPEC``), not ``run``.
_SPEC_FIRST = "fairshare.sweep_spec_first"


class SweepGroup(click.Group):
    """``fs sweep SPEC`` runs the spec (the ``run`` subcommand); ``fs sweep run-point`` and
    ``fs sweep collect`` are subcommands."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            _refuse_mistyped_command(ctx, args[0], list(self.commands))
            args = ["run", *args]
            ctx.meta[_SPEC_FIRST] = True
        return super().parse_args(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from fairshare_cli.cli.main import examples_noted

        return examples_noted(super().get_command(ctx, cmd_name))

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand; a refusal of ``fs sweep SPEC``'s words points to the help of
        what was typed, ``fs sweep --help`` (which says where ``run``'s options are), not
        to ``fs sweep run --help``, a command the user never typed."""
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            if ctx.meta.get(_SPEC_FIRST) and exc.ctx is not None and exc.ctx.parent is ctx:
                exc.ctx = ctx
            raise


def _refuse_mistyped_command(ctx: click.Context, word: str, names: list[str]) -> None:
    """Refuse a SPEC that is no file and is close to a subcommand's name: ``fs sweep colect
    runs/`` said "Got unexpected extra argument (runs/) (see 'fs sweep run --help')".

    Raises:
        click.UsageError: as fs refuses any other mistyped command.
    """
    import os

    from fairshare_cli.cli.main import no_such_command

    if os.path.lexists(word):
        return
    refusal = no_such_command(word, names)
    if "Did you mean" in refusal:
        raise click.UsageError(refusal, ctx)


@click.group("sweep", cls=SweepGroup)
def sweep() -> None:
    """Run a grid of policies through fs simulate and rank them by how fair they were.

    \b
    Examples:
      fs sweep sample_configs/sweep.toml --out runs/ --html sweep.html
      fs sweep sample_configs/sweep.toml --out runs/ --engine slurm
      fs sweep sample_configs/sweep.toml --out runs/ && fs sweep collect runs/ --output csv

    SPEC (TOML) names the config, state, workload, history, now, until, cycle, scheduler,
    backfill and mode, and [[axis]] tables (key, values): any key fs whatif --set takes.
    Each point is 'fs whatif --set KEY=VALUE ... simulate' measured: share error, Jain's
    index, waits, utilisation, jobs finished (docs/sweep.md). 'fs sweep SPEC' is
    'fs sweep run SPEC': its options (--engine, --out, --jobs, --objective, ...) are in
    'fs sweep run --help'.
    """


def objective_option(func: Any) -> Any:
    """``--objective METRIC`` (default share_error)."""
    return click.option(
        "--objective",
        type=click.Choice(list(METRICS)),
        default="share_error",
        show_default=True,
        help="The metric that ranks the points (best first).",
    )(func)


@sweep.command("run")
@click.argument(
    "spec_path", metavar="SPEC", type=click.Path(dir_okay=False), callback=no_empty_path
)
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default="local",
    show_default=True,
    help="Who runs the points: a process pool here, an HTCondor DAG, a Slurm job array, dask.",
)
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False),
    callback=no_empty_path,
    metavar="DIR",
    help="Result folder, one file per point; a rerun skips finished points "
    "[default: SPEC's name with .sweep, beside it].",
)
@click.option(
    "--restart",
    is_flag=True,
    help="Start afresh in DIR: remove its point results (a changed spec is taken) instead "
    "of resuming.",
)
@click.option("--jobs", type=CIntRange(min=1), help="Local processes [default: the CPUs].")
@click.option("--dask-scheduler", metavar="ADDRESS", help="The dask scheduler (--engine dask).")
@click.option("--submit", is_flag=True, help="htcondor/slurm: submit what is written.")
@click.option(
    "--memory",
    type=CIntRange(min=1),
    metavar="MB",
    help="htcondor/slurm: the memory a point's job asks for (MB) [default: 1 GB for "
    "htcondor; the partition's default for slurm].",
)
@objective_option
@html_option
@output_options
@pass_options
def run(  # noqa: PLR0913  click passes each option
    opts: GlobalOptions,
    spec_path: str,
    engine: str,
    out: str | None,
    restart: bool,
    jobs: int | None,
    dask_scheduler: str | None,
    submit: bool,
    memory: int | None,
    objective: str,
    html: str | None,
) -> None:
    """Run every point of SPEC (or write the batch files that run them) and rank them.

    \b
    Examples:
      fs sweep sample_configs/sweep.toml --out runs/ --html sweep.html
      fs sweep sample_configs/sweep.toml --out runs/ --engine htcondor

    The spec is checked whole first (keys, values, every point's config). The last point
    is the base config as it is. With --engine htcondor or slurm nothing runs here: the
    submit files are written to DIR (and submitted with --submit); 'fs sweep collect DIR'
    shows the table once the points are done. A rerun resumes: only points without a
    result run; --restart starts afresh (after a failed point whose fix changed the spec,
    or an input changed in place).
    """
    from fairshare_cli.cli import sweep_engines as engines

    if submit and engine not in ("htcondor", "slurm"):
        raise click.UsageError("--submit goes with --engine htcondor or slurm")
    if memory is not None and engine not in ("htcondor", "slurm"):
        raise click.UsageError("--memory goes with --engine htcondor or slurm")
    if (dask_scheduler is None) != (engine != "dask"):
        raise click.UsageError("--engine dask and --dask-scheduler ADDRESS go together")
    if spec_path == "-" and not out:
        raise click.UsageError("a spec read from standard input (-) needs --out DIR")
    spec = Path(spec_path)
    where = Path(out) if out else spec.with_suffix(".sweep")
    if engine in ("htcondor", "slurm"):
        from fairshare_cli.cli.sweep_batch import check_batch_folder

        check_batch_folder(where, engine)
    folder = engines.prepare(spec, where, restart)
    if engine in ("htcondor", "slurm"):
        engines.write_batch_files(folder, engine, submit, html, memory)
        return
    if engine == "dask":
        assert dask_scheduler is not None
        engines.run_dask(folder, dask_scheduler)
    else:
        engines.run_local(folder, jobs)
    show(folder, objective, opts.output, html)


@sweep.command("run-point", context_settings={"ignore_unknown_options": True})  # (-1: INDEX)
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False), callback=no_empty_path)
@click.argument("index", type=CIntRange(min=0))
def run_point_cmd(folder: str, index: int) -> None:
    """Run one point of a prepared sweep and write its result (what batch jobs run).

    \b
    Examples:
      fs sweep sample_configs/sweep.toml --out runs/ --engine slurm && fs sweep run-point runs/ 3

    Does nothing when the point's result is already there. A point that fails says so
    as the local engine does (point N: ...), and leaves why for fs sweep collect.
    """
    from fairshare_cli.cli.sweep_point import SAID, point_failed, run_point
    from fairshare_cli.io.sweep_dir import SweepDir

    where = SweepDir(folder)
    manifest = where.manifest()
    if index >= len(manifest["points"]):
        raise InputError(f"{folder}: no point {index} (the sweep has {len(manifest['points'])})")
    if where.read_point(index) is not None:
        click.echo(f"point {index} is already done", err=True)
        return
    try:
        result = run_point(manifest, index)
    except FairshareError as exc:
        raise point_failed(where, manifest, index, str(exc), exc.exit_code) from None
    for line in result.pop(SAID):  # (one point a process: said as it is)
        click.echo(line, err=True)
    where.write_point(index, result)


@sweep.command("collect")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False), callback=no_empty_path)
@objective_option
@html_option
@output_options
@pass_options
def collect(opts: GlobalOptions, folder: str, objective: str, html: str | None) -> None:
    """Show the table of a sweep's points, whichever engine ran them.

    \b
    Examples:
      fs sweep sample_configs/sweep.toml --out runs/ --engine htcondor && fs sweep collect runs/
      fs sweep sample_configs/sweep.toml --out runs/ && fs sweep collect runs/ --html sweep.html

    Points without a result yet are left out, and counted on stderr; a point that failed
    is named with its error, and collect then exits with the point's code (2 for bad input).
    """
    from fairshare_cli.io.sweep_dir import SweepDir

    show(SweepDir(folder), objective, opts.output, html)


def show(folder: SweepDir, objective: str, fmt: str, html: str | None) -> None:
    """The table (and the page) of the points done in ``folder``."""
    from fairshare_cli.render.sweep import show_points

    manifest = folder.manifest()
    count = len(manifest["points"])
    done = folder.done(manifest["points"])
    failed = folder.failures(manifest["points"], done)
    if len(done) + len(failed) < count:
        waiting = count - len(done) - len(failed)
        click.echo(f"{waiting} of {count} points have no result yet", err=True)
    for index, found in failed.items():
        click.echo(f"fs: note: point {index} failed: {found['error']}", err=True)
    results = [done[i] for i in sorted(done)]
    keys = [a["key"] for a in manifest["spec"]["axes"]]
    base = manifest.get("base_index")
    if html:
        from fairshare_cli.cli.sweep_result import write_page

        axes = manifest["spec"]["axes"]
        write_page(Path(html), results, axes, objective, f"fs sweep {folder.path}", base)
    try:
        show_points(results, keys, objective, fmt, base)
    except BrokenPipeError:  # (| head -1: the failed points' code, not the reader's 0)
        if not failed:
            raise
    if html:
        click.echo(f"Page written to {html}", err=True)
    if failed:
        stop = FairshareError(
            f"{len(failed)} of {count} points failed (point {min(failed)} first); mend the "
            f"cause and run them again: 'fs sweep run-point {folder.path} INDEX', or the sweep"
        )
        stop.exit_code = failed[min(failed)]["exit_code"]
        raise stop
