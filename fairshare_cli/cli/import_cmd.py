"""``fs import``: usage history and real tools' dumps into the state or config."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import click

from fairshare_cli.cli.context import mutate_state
from fairshare_cli.cli.imports._counted_twice import (
    counted_already,
    counting_slurm_sink,
    warn_counted_twice,
)
from fairshare_cli.cli.imports._slurm_state import last_decay_option, resolve_last_decay
from fairshare_cli.cli.main import ListedGroup, command_words, examples_noted
from fairshare_cli.cli.options import (
    GlobalOptions,
    common_options,
    dry_run_option,
    pass_options,
)
from fairshare_cli.core.operations.import_usage import HISTORY_SINKS, ImportSummary
from fairshare_cli.core.usage import Batches, SinkFactory, UsageRecord, batches_of, record_end
from fairshare_cli.errors import EmptyInput, InputError, UnreadableInput
from fairshare_cli.io.history import FORMATS, HISTORY_TEXT
from fairshare_cli.io.spool import spooled
from fairshare_cli.render.progress import counted_batches

if TYPE_CHECKING:
    from fairshare_cli.cli.context import Env
    from fairshare_cli.core.config import Config
    from fairshare_cli.core.slurm.billing import Allocations
    from fairshare_cli.core.usage import HistorySink
    from fairshare_cli.io.usage_store import ImportLog

#: Inputs larger than this (bytes) show a progress bar when stderr is a terminal.
LARGE_INPUT = 50_000_000

rebuild_option = click.option(
    "--rebuild",
    is_flag=True,
    help="Forget recorded usage (keeping set factors, floors, ceilings) and replay from scratch.",
)


#: What each kind reads, added to a refusal of a file that is no text at all (a folder,
#: binary data), so that the line says which input was expected.
READS = {
    "condor-config": "a condor_config file or condor_config_val -dump output",
    "condor-history": "condor_history -json or -long output",
    "condor-q": "condor_q -json or -long output",
    "condor-status": "condor_status -json or -long output",
    "condor-userprio": "condor_userprio -l output",
    "dirac-cfg": "a DIRAC configuration, .cfg text",
    "history": HISTORY_TEXT,
    "sacct": "sacct -P output",
    "sacctmgr": "sacctmgr -P show assoc, sacctmgr show qos or sacctmgr dump output",
    "scontrol-assoc": "scontrol show assoc_mgr output",
    "slurm-conf": "a slurm.conf",
    "squeue": "squeue --json or scontrol show jobs output",
    "sshare": "sshare -a -l -P output",
}


class ImportGroup(ListedGroup):
    """``fs import``: the history kinds here, plus one module per dump kind in ``imports/``."""

    instead: ClassVar[
        Mapping[str, str]
    ] = {  # (close matches said nothing for sprio, and scontrol-assoc for all three)
        "sprio": "fs sprio computes it from the queue fs import squeue reads (squeue --json "
        "or scontrol show jobs output)",
        "scontrol": "fs import scontrol-assoc reads show assoc_mgr, fs import squeue show "
        "jobs, fs import slurm-conf show config or show partition",
    }

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
        return examples_noted(cmd)

    def invoke(self, ctx: click.Context) -> Any:
        """The import, without the cyclic collector: a dump of 100,000 jobs is millions of
        objects and no cycle, and each collection walks all of them again (``fs import
        squeue`` of 100,000 jobs: a third of its time)."""
        from fairshare_cli.io.gc_pause import gc_paused

        line = command_words(ctx)  # (the kind and its own)
        try:
            with gc_paused():
                return super().invoke(ctx)
        except InputError as exc:
            kind = ctx.invoked_subcommand or ""
            if kind not in READS or isinstance(exc, EmptyInput):
                raise
            message = str(exc)
            if isinstance(exc, UnreadableInput):
                message += f" (fs import {kind} reads {READS[kind]})"
            from fairshare_cli.io.importers.sniff import wrong_file_hint

            exc.args = (wrong_file_hint(kind, self._file_of(ctx, line), message),)
            raise exc from None  # (its own type, whatever its constructor takes)

    def _file_of(self, ctx: click.Context, line: list[str]) -> str | None:
        """The FILE an import's command line names (``line``: the kind, then its own
        arguments), None when it cannot tell."""
        cmd = self.get_command(ctx, line[0]) if line else None
        if cmd is None:
            return None
        with cmd.make_context(line[0], line[1:], parent=ctx, resilient_parsing=True) as sub:
            file = sub.params.get("file")
        return file if isinstance(file, str) else None


@click.group("import", cls=ImportGroup)
def import_group() -> None:
    """Import usage history and real tools' dumps into the state or config."""


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
    metavar="SECONDS",
    help="Account as a negotiator cycling every SECONDS (at least 0.001; or a Slurm time "
    "string, 5:00) would (default: exactly); --now counts as one more cycle (give one on "
    "the grid to match the negotiator).",
)
@click.option(
    "--cycle-start",
    metavar="WHEN",
    help="A time the cycle grid passes through (default: epoch multiples of --cycle).",
)
@rebuild_option
@dry_run_option
@common_options
@pass_options
def history(
    opts: GlobalOptions,
    file: str,
    fmt: str,
    cycle: str | None,
    cycle_start: str | None,
    rebuild: bool,
    dry_run: bool,
) -> None:
    """Charge a usage history (CSV or JSON lines; - for stdin) to every model.

    \b
    Examples:
      fs import history sample_configs/history.csv --state new.json
      fs import history sample_configs/history.csv --cycle 300 --state cycled.json

    Each record: owner, accounting_group, account, partition, qos, dirac_group, start,
    end (empty: still running), slots, cpus, nice_user, tres (a slot's TRES as sacct
    prints AllocTRES; docs/jobs.md). The HTCondor accountant replays it exactly
    (as if it updated at every start and end); with --cycle, as a negotiator on that grid
    of cycles would: a start is a match made that far into its cycle, an end is seen at
    the next cycle.
    """
    counted: list[int] = []
    sinks = {**HISTORY_SINKS, "slurm": counting_slurm_sink(counted)}
    if cycle is not None or cycle_start is not None:
        sinks["accountant"] = cycle_sink(cycle, cycle_start)
    from fairshare_cli.io.history import read_records_batched

    with spooled(file, READS["history"], lazy=True) as path:
        _import(
            lambda: read_records_batched(path, fmt, file),
            file,
            rebuild,
            dry_run,
            opts,
            sinks,
            lines=(path, fmt),
        )
    if counted and counted[0]:
        warn_counted_twice(file, counted[0], [], "record")


def cycle_sink(cycle: str | None, cycle_start: str | None) -> SinkFactory:
    """The accountant's sink for ``--cycle`` / ``--cycle-start``: ``--cycle`` read as
    ``fs simulate --cycle`` reads it (seconds, or a Slurm time string).

    Raises:
        click.UsageError: ``--cycle-start`` without ``--cycle``, or a cycle that is not a
            number of seconds of at least ``MIN_CYCLE`` (a millisecond).
        InputError: a ``--cycle`` that is no number and no Slurm time string.
    """
    from fairshare_cli.cli.options import duration
    from fairshare_cli.core.epoch import parse_time
    from fairshare_cli.core.htcondor.cycle_replay import cycle_problem, make_cycle_history_sink
    from fairshare_cli.core.names import c_number_text

    if cycle is None:
        raise click.UsageError("--cycle-start needs --cycle SECONDS")
    try:  # (a number is checked by cycle_problem alone: 0 and 1e400 in its words)
        seconds = float(cycle) if c_number_text(cycle) else duration(cycle, "--cycle")
    except ValueError:  # (no number: a Slurm time string, 5:00, or refused in its words)
        seconds = duration(cycle, "--cycle")
    problem = cycle_problem(seconds, cycle)
    if problem is not None:
        raise click.UsageError(problem)
    phase = parse_time(cycle_start, "--cycle-start") if cycle_start is not None else 0.0
    factory: SinkFactory = make_cycle_history_sink(seconds, phase)
    return factory


@import_group.command("condor-history")
@click.argument("file", metavar="FILE")
@rebuild_option
@dry_run_option
@common_options
@pass_options
def condor_history(
    opts: GlobalOptions,
    file: str,
    rebuild: bool,
    dry_run: bool,
) -> None:
    """Charge jobs from condor_history -json or -long output (- for stdin).

    \b
    Example:
      condor_history -json > jobs.json && fs import condor-history jobs.json

    Each job ad counts one slot of RequestCpus from JobCurrentStartDate to CompletionDate,
    charged to its AccountingGroup or User; ads of jobs that never ran are skipped, an ad
    with no end holds a slot, an object with no JobStatus nor job time is refused, and so
    is a job still in the queue (idle, running, held: use fs import condor-q). Read ad by
    ad (newest first is fine): memory stays flat.
    """
    import os

    from fairshare_cli.io.condor_history import read_condor_history
    from fairshare_cli.io.history_lines import by_line, condor_history_line
    from fairshare_cli.render.negotiate import progress_bar

    with spooled(file, READS["condor-history"], documents=True, lazy=True) as path:
        large = sys.stderr.isatty() and os.path.getsize(path) > LARGE_INPUT
        with progress_bar(large, "reading " + file) as bar:
            progress = bar if large else None
            with by_line(condor_history_line(path), file):  # (a refused record: its ad's line)
                _import(
                    lambda: read_condor_history(path, file, progress), file, rebuild, dry_run, opts
                )


def _import(
    records: Callable[[], Iterable[UsageRecord]],
    label: str,
    rebuild: bool,
    dry_run: bool,
    opts: GlobalOptions,
    sinks: Mapping[str, SinkFactory] = HISTORY_SINKS,
    last_decay: float | None = None,
    lines: tuple[str, str] | None = None,
) -> None:
    """Feed every record to every model and to the usage history store as it is read
    (re-reading an unsorted source once); one write of the state, the store committed
    once it is on the disk, just before its rename. ``last_decay``: the Slurm usage is
    first moved to slurmctld's pass at that time, the records charged on its grid.
    ``lines``: a history file (path, format) whose records after ``--now`` are named by line."""
    from fairshare_cli.core.operations.import_usage import import_usage
    from fairshare_cli.io.history_lines import by_line, history_line, refuse_after_now
    from fairshare_cli.io.history_sort import sorted_by_start
    from fairshare_cli.io.usage_store import SECTION, import_log

    running: list[tuple[int, UsageRecord]] = []

    def watched(items: Iterable[UsageRecord]) -> Batches:
        """The records (a list at a time), noting those still running (afresh at each
        reading)."""
        return Batches(watching(batches_of(items)))

    def watching(batches: Iterable[list[UsageRecord]]) -> Iterator[list[UsageRecord]]:
        running.clear()
        done = 0
        for batch in batches:
            if not all(map(record_end, batch)):  # (None or an end at 0: a truth test in C)
                running.extend((done + i, r) for i, r in enumerate(batch, 1) if r.end is None)
            done += len(batch)
            yield batch

    with mutate_state(opts, dry_run) as env:
        if last_decay is not None:
            from fairshare_cli.cli.imports._slurm_state import at_last_decay

            at_last_decay(env, last_decay, rebuild)
        marks_before = env.state.section(SECTION)  # (the store: open until the state is saved)
        log = env.until_saved(import_log(env.state_path, marks_before, rebuild, dry_run))

        def counting() -> Iterable[UsageRecord]:  # a count on stderr for long imports
            read = records()
            if lines is not None:
                read = Batches(refuse_after_now(batches_of(read), env.now, *lines, label))
            return Batches(counted_batches(read, f"importing {label}", "records"))

        feed = counting if log is None else (lambda: log.tee(counting()))
        line_of = None if lines is None else history_line(*lines)
        with by_line(line_of, label):  # (a record a model refuses named by its line)
            env.state, done = import_usage(
                env.config,
                env.state,
                env.now,
                lambda: watched(feed()),
                label=label,
                rebuild=rebuild,
                sinks=sinks,
                # the second reading, in start order through the external sort (flat memory)
                resort=lambda _unsorted: watched(sorted_by_start(feed())),
            )
        from fairshare_cli.cli.running import hold_history_running

        unheld = hold_history_running(env, running, label, rebuild)
        if log is not None:  # the usage history store (fs whatif replays from it)
            _finish_log(env, log, unheld, rebuild)
    # (once the store and the state are written: a failed write imported nothing)
    prefix = "(dry run, nothing written) " if dry_run else ""
    count = done.records
    click.echo(
        f"{prefix}Imported {count} usage record{'s' if count != 1 else ''} "
        f"from {label} into {env.state_path}"
    )
    _warn_slurm(done, bool(env.config.accounts))


def _finish_log(env: Env, log: ImportLog, unheld: Iterable[UsageRecord], rebuild: bool) -> None:
    """The import's last rows in the usage history store: the use of running slots that
    found no slot (it stops now) and, after a ``--rebuild``, the claims no record opened
    (charged from now on); its marks put in the state, committed once the state is on the
    disk."""
    from fairshare_cli.io.usage_store import SECTION

    log.add((r, None) for r in unheld)
    if rebuild:
        from fairshare_cli.core.operations.usage_log import reopened_claims

        with env.section_errors():
            log.add(reopened_claims(env.config, env.state, env.now))
    marks = log.finish(env.now, env.config.pool.usage_history_window)
    env.state = env.state.with_section(SECTION, marks.to_json())
    env.before_rename = log.commit


def _warn_slurm(done: ImportSummary, has_accounts: bool) -> None:
    """Say on stderr what usage Slurm could not place (``done``, an import's summary): users
    with no association (when the config has any), accounts the config lacks; a long list
    named by its first names and how many more."""
    from fairshare_cli.io.importers.common import summary_names  # (a long list: +N more)

    unplaced = done.slurm_unplaced
    if unplaced and has_accounts:
        click.echo(
            f"fs: warning: Slurm: ignored the usage of {len(unplaced)} user"
            f"{'s' if len(unplaced) != 1 else ''} with no association: "
            f"{summary_names(unplaced)}",
            err=True,
        )
    unknown = done.slurm_unknown_accounts
    if unknown:
        its, them = ("its", "it") if len(unknown) == 1 else ("their", "them")
        click.echo(
            f"fs: warning: Slurm: the config has no account {summary_names(unknown)}: {its} "
            "usage counts "
            f"towards root alone (as a deleted account's does) until [accounts] names {them} "
            "(fs import sacctmgr)",
            err=True,
        )


@import_group.command("sacct")
@click.argument("file", metavar="FILE")
@last_decay_option("the state's pass grid, epoch multiples of priority.calc_period in a new state")
@rebuild_option
@dry_run_option
@common_options
@pass_options
def sacct(
    opts: GlobalOptions,
    file: str,
    last_decay: str | None,
    rebuild: bool,
    dry_run: bool,
) -> None:
    """Charge jobs from sacct output (sacct -P; - for stdin) to every model.

    \b
    Example:
      sacct -a -X -P -o JobID,User,Account,Partition,QOS,AllocCPUS,AllocTRES,Start,End > jobs.txt
      fs import sacct jobs.txt --now 2026-11-21T23:30:00Z --last-decay 2026-11-21T23:28:20Z

    Jobs still running at --now (End after it, or Unknown) keep accruing; steps and jobs
    that never started are skipped. Times without a zone are read as UTC. A job bills
    its AllocTRES under its partition's billing_weights (TRESBillingWeights), else its CPUs.
    With --last-decay the Slurm usage is charged on slurmctld's own grid of passes, the
    one through that pass.
    """
    from fairshare_cli.core.slurm.billing import Billing, billing_notes
    from fairshare_cli.io.history_lines import by_line
    from fairshare_cli.io.inputs import open_input
    from fairshare_cli.io.sacct import read_sacct

    when = opts.when()  # a bad --now (--last-decay) is reported before the file is opened
    last = None if last_decay is None else resolve_last_decay(last_decay, when)
    with open_input(file) as fh:
        records, on_line, skipped, allocated = read_sacct(fh, file, when)
    found: list[Allocations] = []
    twice: list[list[str]] = []

    def slurm_sink(
        config: Config, section: Any, now: float, rebuild: bool, presorted: bool = True
    ) -> HistorySink:
        """The Slurm sink (each record billed by its ``tres``, its job's ``AllocTRES``,
        under its partition's ``TRESBillingWeights``), the jobs it bills otherwise than
        slurmctld did noted, and those the state's usage counts already."""
        found[:] = [billing_notes(records, allocated, Billing.of_config(config))]
        ids = {a.record: a.job_id for a in allocated}
        twice[:] = [] if rebuild else [counted_already(section, records, on_line, ids)]
        return HISTORY_SINKS["slurm"](config, section, now, rebuild, presorted)

    sinks = {**HISTORY_SINKS, "slurm": slurm_sink}

    def line_of(record: UsageRecord) -> int | None:
        return next((n for r, n in zip(records, on_line, strict=True) if r == record), None)

    with by_line(line_of, file):  # (a record a model refuses named by its line)
        _import(lambda: records, file, rebuild, dry_run, opts, sinks, last_decay=last)
    if found:
        _note_billing(found[0])
    if twice and twice[0]:
        warn_counted_twice(file, len(twice[0]), twice[0])
    if skipped:
        click.echo(
            f"fs: note: skipped {skipped} line{'s' if skipped != 1 else ''} of no usage: job "
            "steps, jobs that never started (or start after --now), jobs with no CPUs",
            err=True,
        )


def _note_billing(found: Allocations) -> None:
    """Name on stderr the jobs ``fs import sacct`` billed other than slurmctld did."""
    from fairshare_cli.cli.imports._slurm_state import plural
    from fairshare_cli.io.importers.common import summary_names

    if found.unweighted:
        jobs = found.unweighted
        click.echo(
            f"fs: note: charged {plural(len(jobs), 'job')} "
            f"{'its' if len(jobs) == 1 else 'their'} CPUs "
            f"where AllocTRES bills otherwise: {summary_names(jobs)}; Slurm charges the "
            "billing (a partition's TRESBillingWeights), which the config does not set "
            "(partitions.<name>.billing_weights)",
            err=True,
        )
    if found.differ:
        click.echo(
            f"fs: note: {plural(len(found.differ), 'job')} billed otherwise than "
            f"AllocTRES says: {summary_names(found.differ)}; charged the config's "
            "billing_weights (check them against the cluster's TRESBillingWeights)",
            err=True,
        )
