"""``fs simulate``: negotiation cycles run forward over a workload (nothing is written)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from fairshare_cli.cli.context import Env, load_env
from fairshare_cli.cli.options import (
    FilePath,
    GlobalOptions,
    common_options,
    duration,
    no_empty_path,
    output_file,
    output_options,
    pass_options,
)
from fairshare_cli.cli.resolve import now_source
from fairshare_cli.errors import InputError
from fairshare_cli.render.progress import simulate_bar

if TYPE_CHECKING:
    from fairshare_cli.core.batches import JobBatch
    from fairshare_cli.core.config import Config
    from fairshare_cli.core.jobs import Job
    from fairshare_cli.core.operations.sim_row import SimRow
    from fairshare_cli.core.operations.simulate import SimResult, Simulation
    from fairshare_cli.render.sim_chart import ChartSeries

FIELDS = (
    "time",
    "kind",
    "name",
    "slots",
    "effective_priority",
    "quota",
    "fairshare",
    "pending",
    "capacity",
)


def run_window(
    until: str, cycle: str | float, now: float, spec: str | None = None
) -> tuple[float, float]:
    """``until`` and ``cycle`` in seconds, checked: positive, at most 100,000 cycles, and
    not past the last time fs can print (the year 9999) from ``now``. ``spec``: the sweep
    spec they come from (its keys are named, not the options). A ``cycle`` that is a
    number is the pool's (:func:`pool_cycle`), not one given.

    Raises:
        InputError: a bad duration, too many cycles, or a run past the year 9999.
    """
    from fairshare_cli.core.jsontext import iso
    from fairshare_cli.core.limits import TIME_MAX

    at, u, c, n = (
        ("", "--until", "--cycle", "--now")
        if spec is None
        else (f"{spec}: " if spec else "", "until", "cycle", "now")
    )
    start = (now, n, f'{u} = "{{}}"') if spec is not None else (now, now_source(), f"{u} {{}}")
    span = duration(until, f"{at}{u}", start)
    step = cycle if isinstance(cycle, float) else duration(cycle, f"{at}{c}")
    if span / step > 100_000:
        given = f"{c} {cycle}" if isinstance(cycle, str) else f"the pool's cycle of {cycle:g} s"
        raise InputError(f"{at}{u} {until} / {given} is over 100,000 cycles; use a longer {c}")
    if now + span > TIME_MAX:
        raise InputError(
            f"{at}{n} {iso(now)} with {u} {until} runs past {iso(TIME_MAX)}, the last time "
            f"fs can show; give an earlier {n} or a shorter {u}"
        )
    return span, step


def html_option(func: Callable[..., None]) -> Callable[..., None]:
    """``--html FILE`` (``fs simulate``, ``fs sweep``): one self-contained page."""
    return click.option(
        "--html",
        type=FilePath(),
        metavar="FILE",
        callback=output_file("HTML page"),
        help="Also write one self-contained HTML page: shares over time, metrics (docs/sweep.md).",
    )(func)


@click.command("simulate")
@click.option(
    "--workload",
    type=FilePath(),
    metavar="FILE",
    callback=no_empty_path,
    help="Jobs to submit (a JSON list of job objects, each with its id; submit_time, "
    "run_time in seconds).",
)
@click.option(
    "--until",
    "until",
    default="1-0",
    show_default=True,
    metavar="DURATION",
    help="How long to run: seconds or a Slurm time string.",
)
@click.option(
    "--cycle",
    metavar="SECONDS",
    help="Time between negotiation cycles [default: the pool's, [negotiator] interval "
    "(NEGOTIATOR_INTERVAL, 60), or cycle_delay or min_interval if longer; 60 with "
    "--scheduler slurm].",
)
@click.option(
    "--plot",
    type=FilePath(),
    metavar="PNG",
    help="Also draw slots held and effective priorities over time (matplotlib).",
)
@click.option(
    "--scheduler",
    type=click.Choice(["htcondor", "slurm"]),
    default="htcondor",
    show_default=True,
    help="Negotiation cycles (htcondor) or Slurm's priority order on nodes (slurm).",
)
@click.option(
    "--backfill",
    is_flag=True,
    help="With --scheduler slurm: Slurm's backfill for jobs with time limits.",
)
@html_option
@click.option(
    "--series",
    is_flag=True,
    help="Print every cycle's rows (default: one summary line per submitter, group, Slurm "
    "user and the pool; json, ndjson and csv always give every cycle).",
)
@output_options
@common_options
@pass_options
def simulate(  # noqa: PLR0913  Click passes each option as one keyword argument
    opts: GlobalOptions,
    workload: str | None,
    until: str,
    cycle: str | None,
    plot: str | None,
    scheduler: str,
    backfill: bool,
    series: bool,
    html: str | None,
) -> None:
    """Run negotiation cycles forward over a workload and show who holds what.

    \b
    Examples:
      fs simulate --workload sample_configs/workload.json --until 6:00:00 --cycle 600
      fs simulate --workload sample_configs/workload.json --until 12:00:00 --cycle 300 --json
      fs simulate --workload sample_configs/workload.json --scheduler slurm --backfill --series

    Starts from the state at --now: its queue, claims and priorities. Each cycle, jobs
    whose run_time is up finish, workload jobs whose submit_time has come are queued, and
    one negotiation cycle is committed (with --scheduler slurm: pending jobs start in
    multifactor priority order, first in first out under priority/basic, on their
    partitions' nodes). The table sums each
    submitter, group, Slurm user and the pool up (mean, largest and last holding; last
    priority, quota, fair share, idle jobs); --series and json/ndjson/csv give one row per
    cycle and entity. Without --workload the state's queue is run (refused when it is
    empty). The state file is not changed. --html writes a page with the shares over
    time and the run's metrics (docs/sweep.md).
    """
    if plot is not None:  # (an empty path too: refused)
        from fairshare_cli.io.plot import check_plot_path

        check_plot_path(plot)  # before the run, not after it
    if plot is None and html is None:  # the rows pass once: each view keeps what it needs
        _, run = prepared(opts, workload, until, cycle, scheduler, backfill, starts=False)
        with inputs_frozen():
            stream_rows(run, opts.output, series)
        return
    env, result = simulation(opts, workload, until, cycle, scheduler, backfill)
    if html is not None:
        from fairshare_cli.cli.sweep_result import simulate_page

        simulate_page(html, [("simulate", env, result)], scheduler)
    show_rows(result.rows, opts.output, plot, series)
    if html is not None and opts.output == "table":  # (as the plot's and fs sweep's page)
        click.echo(f"Page written to {html}", err=True)


def simulation(
    opts: GlobalOptions,
    workload: str | None,
    until: str,
    cycle: str | None,
    scheduler: str,
    backfill: bool,
    *,
    progress: bool = True,
) -> tuple[Env, SimResult]:
    """What the simulation ran on and its whole result, every row kept (``fs sweep``
    measures it), under the config ``opts`` loads (``fs whatif`` overrides applied).

    Raises:
        FairshareError: bad options, config, state or workload.
    """
    env, run = prepared(opts, workload, until, cycle, scheduler, backfill, progress=progress)
    with inputs_frozen():
        return env, run.collect()


@contextmanager
def inputs_frozen() -> Iterator[None]:
    """The collector leaves the objects made so far alone: the inputs live through the run,
    it need not walk them again each time it runs."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def prepared(
    opts: GlobalOptions,
    workload: str | None,
    until: str,
    cycle: str | None,
    scheduler: str,
    backfill: bool,
    *,
    progress: bool = True,
    starts: bool = True,
) -> tuple[Env, Simulation]:
    """What the simulation runs on and the simulation, its inputs checked and no cycle run
    yet (what can be refused is refused here, before any row is written); ``starts=False``:
    the jobs that started are not kept (only ``fs sweep``'s measures read them).

    Raises:
        FairshareError: bad options, config, state or workload.
    """
    from fairshare_cli.cli.htcondor_inputs import load_inputs
    from fairshare_cli.cli.simulate_jobs import read_workload, slurm_jobs
    from fairshare_cli.core.operations.simulate import Simulation, SimWindow
    from fairshare_cli.core.operations.slurm_series import slurm_series_of

    if cycle is None:  # the pool's, once the config is read
        duration(until, "--until", (opts.when(), now_source(), "--until {}"))
    else:
        span, step = run_window(until, cycle, opts.when())
    if backfill and scheduler != "slurm":
        raise click.UsageError("--backfill needs --scheduler slurm")
    env = load_env(opts)
    if cycle is None:
        span, step = run_window(until, pool_cycle(env.config, scheduler), env.now)
    if scheduler == "slurm" and not env.config.accounts:
        raise InputError(f"{env.config.path}: --scheduler slurm needs [accounts] in the config")
    inputs = load_inputs(env, None)
    if env.config.accounts:
        from fairshare_cli.core.slurm.usage import usage_from_json

        env.decode("slurm", usage_from_json)  # malformed: refused here, not mid-simulation
    jobs_in = read_workload(env, inputs, workload)
    if not jobs_in and not inputs.jobs:
        if workload:
            raise InputError(
                f"nothing to simulate: --workload {workload} holds no jobs and the state's "
                "queue is empty"
            )
        raise click.UsageError(
            "nothing to simulate: no --workload and the state's queue is empty; pass "
            "--workload FILE (e.g. --workload sample_configs/workload.json)"
        )
    queue: Sequence[Job] = inputs.jobs
    if scheduler == "slurm":  # (the jobs slurmctld takes to no partition)
        queue, jobs_in = slurm_jobs(opts, env.config, inputs, jobs_in, workload)
    _note_held(queue, jobs_in)
    _note_no_machines(env.config)
    return env, Simulation(
        env.config,
        (inputs.accountant, inputs.negotiator),
        (queue, jobs_in),
        SimWindow(env.now, span, step),
        slurm=slurm_series_of(env.config, env.state.section("slurm")),
        progress=simulate_bar() if progress and sys.stderr.isatty() else None,
        scheduler=scheduler,
        backfill=backfill,
        starts=starts,
    )


def _note_held(queue: Sequence[Job], workload: Sequence[JobBatch]) -> None:
    """Say on stderr how many held jobs the run leaves waiting: none of them ever runs."""
    held = sum(j.status == "held" for j in queue)
    held += sum(b.count for b in workload if b.job.status == "held")
    if held:
        jobs = "job never starts" if held == 1 else "jobs never start"
        click.echo(f"fs: note: {held} held {jobs} in this simulation ('fs release' lets a job "
                   "run)", err=True)  # fmt: skip


def _note_no_machines(config: Config) -> None:
    """Say on stderr that a config of no ``[[machines]]`` (a DIRAC-only one, or Slurm's
    before ``fs import slurm-conf``) starts no job: its table holds nothing but zeros."""
    if not any(m.count for m in config.machines):  # (none, or every count 0)
        which = "no [[machines]]" if not config.machines else "no machine (each count is 0)"
        click.echo(f"fs: note: {config.path} has {which}, so no job starts in this "
                   "simulation ('fs import condor-status' or 'fs import slurm-conf' adds "
                   "them)", err=True)  # fmt: skip


def pool_cycle(config: Config, scheduler: str) -> float:
    """The time between cycles when none is given: the HTCondor pool's
    (``NegotiatorConfig.cycle_spacing``), 60 s for Slurm's scheduling."""
    return config.negotiator.cycle_spacing() if scheduler == "htcondor" else 60.0


def show_rows(rows: Sequence[SimRow], fmt: str, plot: str | None, series: bool = False) -> None:
    """Rows in ``fmt`` (a table: the summary, or every row with ``series``); the plot when
    asked for, else a terminal chart on a terminal."""
    if plot:
        from fairshare_cli.io.plot import plot_simulation

        plot_simulation(rows, plot)
    stream_rows([rows], fmt, series, chart=not plot)
    if plot and fmt == "table":
        click.echo(f"Plot written to {plot}", err=True)


def stream_rows(
    cycles: Iterable[Sequence[SimRow]], fmt: str, series: bool, chart: bool = True
) -> None:
    """:func:`show_rows` of rows handed over a cycle at a time, each view keeping only what
    it needs: json, ndjson, csv and ``series`` write the rows as they come, the summary
    keeps a line per entity, the terminal chart (on a terminal, with ``chart``) a value
    per cycle and submitter."""
    from itertools import chain, islice

    if fmt != "table":
        emit_series(chain.from_iterable(cycles), fmt)
        return
    from fairshare_cli.render.sim_chart import ChartSeries, chart_text
    from fairshare_cli.render.sim_summary import Summary, summary_text

    seen = ChartSeries() if chart and sys.stdout.isatty() else None
    if seen is not None:
        cycles = _kept(cycles, seen)
    if series:
        lines = series_lines(chain.from_iterable(cycles))
        while text := "".join(islice(lines, 1000)):
            click.echo(text, nl=False)
    else:
        summary = Summary()
        for rows in cycles:
            summary.add(rows)
        click.echo(summary_text([("", summary)]), nl=False)
    if seen is not None:
        click.echo("\n" + chart_text([("", seen)]), nl=False)


def _kept(cycles: Iterable[Sequence[SimRow]], chart: ChartSeries) -> Iterator[Sequence[SimRow]]:
    """``cycles``, each also handed to ``chart`` on its way."""
    for rows in cycles:
        chart.add(rows)
        yield rows


def emit_series(rows: Iterable[SimRow], fmt: str, policy: Iterable[str] | None = None) -> None:
    """Rows as json, ndjson or csv, written as they come, a thousand at a time (a long
    run's rows are never all held, nor their text); the bytes are those of ``emit_rows``.
    ``policy`` (one label per row, ``fs whatif``) adds a first field ``policy``."""
    import csv
    from itertools import islice

    from fairshare_cli.core.jsontext import Time, dumps_line, jsonable, rows_text
    from fairshare_cli.core.operations.simulate import simulate_rows_json

    fields = FIELDS if policy is None else ("policy", *FIELDS)

    def picked() -> Iterator[dict[str, object]]:
        left, tags = iter(rows), None if policy is None else iter(policy)
        while chunk := list(islice(left, 1000)):
            for r in simulate_rows_json(chunk):
                r["time"] = Time(r["time"])
                if tags is not None:
                    r["policy"] = next(tags)
                yield r

    out = sys.stdout
    if fmt == "json":
        out.writelines(rows_text(picked(), fields))
        out.write("\n")
    elif fmt == "ndjson":
        for r in picked():
            out.write(dumps_line({c: r[c] for c in fields}) + "\n")
    else:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(fields)
        for r in picked():
            writer.writerow(["" if v is None else v for v in map(jsonable, map(r.get, fields))])


def series_table(rows: Iterable[object], policy: Sequence[str] | None = None) -> str:
    """A fixed-width listing (Rich is too slow for tens of thousands of rows); ``policy``
    (one label per row, ``fs whatif``) adds a first column."""
    return "".join(series_lines(rows, policy))


def series_lines(rows: Iterable[object], policy: Sequence[str] | None = None) -> Iterator[str]:
    """:func:`series_table`'s lines (each with its newline), made as the rows come."""
    from fairshare_cli.core.jsontext import iso
    from fairshare_cli.core.operations.sim_row import SimRow

    def num(x: float | int | None, spec: str) -> str:
        return "" if x is None else format(x, spec)

    head = "" if policy is None else f"{'Policy':<7}"
    yield (
        f"{head}{'Time':<20} {'Kind':<10} {'Name':<36} {'Slots':>8} {'EffPrio':>12} "
        f"{'Quota':>9} {'FairShare':>9} {'Pending':>8} {'Capacity':>8}\n"
    )
    for i, r in enumerate(rows):
        assert isinstance(r, SimRow)
        tag = "" if policy is None else f"{policy[i]:<7}"
        yield (
            f"{tag}{iso(r.time) or '':<20} {r.kind:<10} {r.name:<36} {r.slots:>8.0f} "
            f"{num(r.effective_priority, '12.2f'):>12} {num(r.quota, '9.2f'):>9} "
            f"{num(r.fairshare, '9.6f'):>9} {num(r.pending, '8d'):>8} "
            f"{num(r.capacity, '8.0f'):>8}".rstrip()
            + "\n"
        )
