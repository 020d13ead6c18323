"""``fs import``: usage history and real tools' dumps into the state."""

from __future__ import annotations

import contextlib
import math
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping

import click

from fairshare_cli.cli.context import mutate_state
from fairshare_cli.cli.options import common_options, dry_run_option
from fairshare_cli.core.dirac.correction import make_dirac_history_sink
from fairshare_cli.core.htcondor.replay import make_accountant_history_sink
from fairshare_cli.core.slurm.model import make_slurm_history_sink
from fairshare_cli.core.state import SectionError
from fairshare_cli.core.usage import SinkFactory, UnsortedHistory, UsageRecord
from fairshare_cli.errors import InputError, StateError
from fairshare_cli.io.history import FORMATS, read_condor_history, read_records

#: One sink per subsystem, by state section: each charges records to its own model.
HISTORY_SINKS: dict[str, SinkFactory] = {
    "accountant": make_accountant_history_sink,
    "dirac": make_dirac_history_sink,
    "slurm": make_slurm_history_sink,
}


rebuild_option = click.option(
    "--rebuild",
    is_flag=True,
    help="Forget recorded usage (keeping explicit factors) and replay from scratch.",
)


class ImportGroup(click.Group):
    """``fs import``: the history kinds here, plus one module per dump kind in ``imports/``."""

    def _kinds(self) -> dict[str, str]:
        import pkgutil

        from fairshare_cli.cli import imports

        return {
            m.name.replace("_", "-"): m.name
            for m in pkgutil.iter_modules(imports.__path__)
            if not m.name.startswith("_")
        }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self._kinds()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = self._kinds().get(cmd_name)
        if module is None:
            return super().get_command(ctx, cmd_name)
        import importlib

        cmd = importlib.import_module(f"fairshare_cli.cli.imports.{module}").command
        assert isinstance(cmd, click.Command)
        return cmd


@click.group("import", cls=ImportGroup)
def import_group() -> None:
    """Import usage history and real tools' dumps into the state."""


@import_group.command("history")
@click.argument("file", metavar="FILE")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="auto",
    show_default=True,
    help="Input format (auto: by extension, else by the first character).",
)
@click.option(
    "--cycle",
    type=float,
    metavar="SECONDS",
    help="Account as a negotiator cycling every SECONDS would (default: exactly).",
)
@click.option(
    "--cycle-start",
    metavar="WHEN",
    help="A time the cycle grid passes through (default: epoch multiples of --cycle).",
)
@rebuild_option
@dry_run_option
@common_options
def history(  # noqa: PLR0913  Click passes each option as one keyword argument
    file: str,
    fmt: str,
    cycle: float | None,
    cycle_start: str | None,
    rebuild: bool,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    """Charge a usage history (CSV or JSON lines; - for stdin) to every model.

    \b
    Examples:
      fs import history sample_configs/history.csv --now 2026-11-21T12:00:00Z
      fs import history h.csv --cycle 300 --cycle-start 2026-11-20T00:00:00Z
    Each record: owner, accounting_group, account, partition, qos, dirac_group, start,
    end (empty: still running), slots, cpus. The HTCondor accountant replays it exactly
    (as if it updated at every start and end); with --cycle, as a negotiator on that grid
    of cycles would: a start is a match made that far into its cycle, an end is seen at
    the next cycle.
    """
    sinks = HISTORY_SINKS
    if cycle is not None or cycle_start is not None:
        sinks = {**HISTORY_SINKS, "accountant": cycle_sink(cycle, cycle_start)}
    with spooled(file) as path:
        _import(
            lambda: read_records(path, fmt, label=file),
            file,
            rebuild,
            dry_run,
            config_path,
            state_path,
            now,
            sinks,
        )


def cycle_sink(cycle: float | None, cycle_start: str | None) -> SinkFactory:
    """The accountant's sink for ``--cycle`` / ``--cycle-start``.

    Raises:
        click.UsageError: ``--cycle-start`` without ``--cycle``, or a cycle that is not a
            positive number of seconds.
    """
    from fairshare_cli.core.htcondor.cycle_replay import make_cycle_history_sink
    from fairshare_cli.core.jobs import parse_time

    if cycle is None:
        raise click.UsageError("--cycle-start needs --cycle SECONDS")
    if not (cycle > 0 and math.isfinite(cycle)):
        raise click.UsageError(f"--cycle {cycle}: expected a positive number of seconds")
    phase = parse_time(cycle_start, "--cycle-start") if cycle_start else 0.0
    factory: SinkFactory = make_cycle_history_sink(cycle, phase)
    return factory


@import_group.command("condor-history")
@click.argument("file", metavar="FILE")
@rebuild_option
@dry_run_option
@common_options
def condor_history(
    file: str,
    rebuild: bool,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    """Charge finished jobs from condor_history -json output (- for stdin).

    \b
    Example:
      condor_history -json > jobs.json && fs import condor-history jobs.json
    Each job ad counts one slot of RequestCpus from JobCurrentStartDate to CompletionDate,
    charged to its AccountingGroup or User; ads of jobs that never ran are skipped.
    """
    with spooled(file) as path:
        _import(
            lambda: read_condor_history(path, label=file),
            file,
            rebuild,
            dry_run,
            config_path,
            state_path,
            now,
        )


@contextlib.contextmanager
def spooled(file: str) -> Iterator[str]:
    """A path to read (twice if need be): stdin (``-``) is copied to a temporary file."""
    if file != "-":
        yield file
        return
    with tempfile.NamedTemporaryFile("wb", suffix=".history") as tmp:
        # Bytes as they come: decoding (and its errors) is the reader's job.
        source = getattr(sys.stdin, "buffer", None)
        if source is not None:
            shutil.copyfileobj(source, tmp)
        else:  # pragma: no cover - a text-only stdin
            tmp.write(sys.stdin.read().encode("utf-8", "surrogateescape"))
        tmp.flush()
        yield tmp.name


def _import(
    records: Callable[[], Iterable[UsageRecord]],
    label: str,
    rebuild: bool,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
    history_sinks: Mapping[str, SinkFactory] = HISTORY_SINKS,
) -> None:
    """Feed every record to every sink, then store each sink's section; one write.

    Sinks first stream (records in start order, flat memory); if the file turns out not to
    be in order they are made again to buffer and sort, and the file is read once more.
    """
    with mutate_state(config_path, state_path, now, dry_run) as env:
        for presorted in (True, False):
            try:
                sinks = {
                    name: make(
                        env.config, env.state.section(name), env.now, rebuild, presorted=presorted
                    )
                    for name, make in history_sinks.items()
                }
            except SectionError as exc:
                raise StateError(f"state file {env.state_path}: {exc}") from None
            count = 0
            try:
                for record in records():
                    count += 1
                    try:
                        for sink in sinks.values():
                            sink.add(record)
                    except InputError as exc:  # a sink names the record; add the file
                        raise InputError(f"{label}: {exc}") from None
            except UnsortedHistory:
                continue
            break
        state = env.state
        for name, sink in sinks.items():
            state = state.with_section(name, sink.finish())
        env.state = state
        prefix = "(dry run, nothing written) " if dry_run else ""
        click.echo(
            f"{prefix}Imported {count} usage record{'s' if count != 1 else ''} "
            f"from {label} into {env.state_path}"
        )
        unplaced = sorted(getattr(sinks["slurm"], "ignored", ()))
        if unplaced and env.config.accounts:
            click.echo(
                f"Slurm: ignored the usage of {len(unplaced)} user"
                f"{'s' if len(unplaced) != 1 else ''} with no association: {', '.join(unplaced)}",
                err=True,
            )


@import_group.command("sacct")
@click.argument("file", metavar="FILE")
@rebuild_option
@dry_run_option
@common_options
def sacct(
    file: str,
    rebuild: bool,
    dry_run: bool,
    config_path: str | None,
    state_path: str | None,
    now: str | None,
) -> None:
    """Charge jobs from sacct output (sacct -P; - for stdin) to every model.

    \b
    Example:
      sacct -a -X -P -o JobID,User,Account,Partition,QOS,AllocCPUS,Start,End > jobs.txt
      fs import sacct jobs.txt --now 2026-11-21T23:30:00Z
    Jobs still running at --now (End after it, or Unknown) keep accruing; steps and jobs
    that never started are skipped. Times without a zone are read as UTC.
    """
    from fairshare_cli.cli.context import resolve_now
    from fairshare_cli.io.inputs import open_input
    from fairshare_cli.io.sacct import read_sacct

    when = resolve_now(now)
    with open_input(file) as fh:
        records = list(read_sacct(fh, file, when))
    _import(lambda: records, file, rebuild, dry_run, config_path, state_path, repr(when))
