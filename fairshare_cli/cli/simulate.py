"""``fs simulate``: negotiation cycles run forward over a workload (nothing is written)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import click

from fairshare_cli.cli.context import Env, load_env
from fairshare_cli.cli.options import common_options, output_format, output_options
from fairshare_cli.core.timestr import TimeStringError, time_str2secs
from fairshare_cli.errors import InputError

if TYPE_CHECKING:
    from fairshare_cli.cli.htcondor_inputs import HTCondorInputs
    from fairshare_cli.core.jobs import Job

FIELDS = ("time", "kind", "name", "slots", "effective_priority", "quota", "fairshare")


def duration(text: str, what: str) -> float:
    """Seconds from a number or a Slurm time string (``"2-0"`` is two days).

    Raises:
        InputError: neither, or not positive.
    """
    try:
        secs = float(text)
    except ValueError:
        try:
            secs = time_str2secs(text)
        except TimeStringError as exc:
            raise InputError(f"{what}: {exc}") from None
    if not secs > 0 or secs == float("inf"):
        raise InputError(f"{what}: expected a positive duration, got '{text}'")
    return secs


@click.command("simulate")
@click.option(
    "--workload",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Jobs to submit (JSON list; submit_time, run_time in seconds).",
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
    default="60",
    show_default=True,
    metavar="SECONDS",
    help="Time between negotiation cycles (NEGOTIATOR_INTERVAL).",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    metavar="PNG",
    help="Also draw slots held and effective priorities over time (matplotlib).",
)
@output_options
@common_options
def simulate(  # noqa: PLR0913  Click passes each option as one keyword argument
    workload: str | None,
    until: str,
    cycle: str,
    plot: str | None,
    output: str | None,
    as_json: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    """Run negotiation cycles forward over a workload and show who holds what.

    \b
    Examples:
      fs simulate --workload sample_configs/workload.json --until 6:00:00 --cycle 600
      fs simulate --workload jobs.json --until 2-0 --cycle 300 --json
    Starts from the state at --now: its queue, claims and priorities. Each cycle, jobs
    whose run_time is up finish, workload jobs whose submit_time has come are queued, and
    one negotiation cycle is committed. One row per cycle and submitter, group and Slurm
    user. The state file is not changed.
    """
    from fairshare_cli.cli.htcondor_inputs import load_inputs
    from fairshare_cli.core.operations.simulate import (
        SimWindow,
        simulate_rows_json,
        slurm_fairshare_of,
    )
    from fairshare_cli.core.operations.simulate import simulate as run
    from fairshare_cli.render.formats import Time, emit_rows

    span = duration(until, "--until")
    step = duration(cycle, "--cycle")
    if span / step > 100_000:
        raise InputError(
            f"--until {until} / --cycle {cycle} is over 100,000 cycles; use a longer --cycle"
        )
    env = load_env(config_path, state_path, now)
    inputs = load_inputs(env, None)
    if env.config.accounts:
        from fairshare_cli.core.slurm.usage import usage_from_json

        env.decode("slurm", usage_from_json)  # malformed: refused here, not mid-simulation
    jobs_in = _read_workload(env, inputs, workload)
    progress = _progress() if sys.stderr.isatty() else None
    result = run(
        env.config,
        inputs.accountant,
        inputs.negotiator,
        inputs.jobs,
        jobs_in,
        SimWindow(env.now, span, step),
        slurm_fairshare=slurm_fairshare_of(env.config, env.state.section("slurm")),
        progress=progress,
    )
    rows = simulate_rows_json(result.rows)
    for r in rows:
        r["time"] = Time(r["time"])
    if plot:
        from fairshare_cli.io.plot import plot_simulation

        plot_simulation(result.rows, plot)
    fmt = output_format(output, as_json)
    if fmt != "table":
        emit_rows(rows, FIELDS, fmt)
        return
    click.echo(_table(result.rows), nl=False)
    if plot:
        click.echo(f"Plot written to {plot}", err=True)


def _read_workload(env: Env, inputs: HTCondorInputs, workload: str | None) -> list[Job]:
    """The workload's jobs, checked against the queue and the config.

    Raises:
        InputError: a job id already queued, a bad expression or group, an unknown QOS.
    """
    from fairshare_cli.core.htcondor.pool import check_jobs
    from fairshare_cli.core.jobs import parse_jobs
    from fairshare_cli.io.jobs import load_job_objects

    jobs_in = parse_jobs(load_job_objects(workload), workload) if workload else []
    known = {j.id for j in inputs.jobs}
    clash = next((j.id for j in jobs_in if j.id in known), None)
    if clash is not None:
        raise InputError(f"{workload}: job {clash} is already in the state's queue")
    if workload:
        check_jobs(jobs_in, env.config, workload)
    if env.config.accounts:
        # Finished work is charged to Slurm with its QOS usage factor: refuse an unknown
        # QOS here, naming the job, rather than as an anonymous usage record later.
        for source, jobs in ((inputs.jobs_source, inputs.jobs), (workload, jobs_in)):
            for job in jobs:
                if job.qos and job.qos != "normal" and job.qos not in env.config.qos:
                    raise InputError(f'{source}: job {job.id}: unknown QOS "{job.qos}"')
    return jobs_in


def _progress() -> Callable[[float], None]:
    def show(fraction: float) -> None:
        click.echo(f"\rsimulating: {fraction:6.1%}", err=True, nl=fraction >= 1.0)

    return show


def _table(rows: Sequence[object]) -> str:
    """A fixed-width listing (Rich is too slow for tens of thousands of rows)."""
    from fairshare_cli.core.operations.simulate import SimRow
    from fairshare_cli.render.formats import iso

    def num(x: float | None, spec: str) -> str:
        return "" if x is None else format(x, spec)

    lines = [
        f"{'Time':<20} {'Kind':<10} {'Name':<36} {'Slots':>8} {'EffPrio':>12} "
        f"{'Quota':>9} {'FairShare':>9}"
    ]
    for r in rows:
        assert isinstance(r, SimRow)
        lines.append(
            f"{iso(r.time) or '':<20} {r.kind:<10} {r.name:<36} {r.slots:>8.0f} "
            f"{num(r.effective_priority, '12.2f'):>12} {num(r.quota, '9.2f'):>9} "
            f"{num(r.fairshare, '9.6f'):>9}".rstrip()
        )
    return "\n".join(lines) + "\n"
