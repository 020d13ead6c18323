"""``fs sprio``: the factors of pending jobs' priorities, like Slurm's ``sprio``."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import click

from fairshare_cli.cli.context import Env, load_env
from fairshare_cli.cli.options import (
    GlobalOptions,
    common_options,
    no_empty_path,
    output_options,
    pass_options,
)
from fairshare_cli.cli.slurm_client import (
    SPRIO_LONG,
    VERSION_REASON,
    cluster_asked,
    cluster_option,
    getopt_command,
    refused_option,
    sprio_help_format,
    usage_option,
)
from fairshare_cli.cli.sprio_format import SprioOptions, listing_spec, verbose_block, write_lines
from fairshare_cli.core.names import first_five
from fairshare_cli.errors import FairshareError, InputError
from fairshare_cli.io.gc_pause import gc_paused

if TYPE_CHECKING:
    from collections.abc import Sequence

    from fairshare_cli.core.jobs import Job
    from fairshare_cli.core.slurm.priority import PriorityContext
    from fairshare_cli.core.slurm.priority_table import PriorityTable, TableBuilder


#: What a ``-j`` without a list stands for (sprio's ``-j::``: ``job_flag`` set, no list).
BARE_JOBS = "\0job_flag"


def read_table(
    path: str, ctx: PriorityContext, when: float, now: float, left_out: list[str] | None = None
) -> TableBuilder:
    """The rows of the jobs in the jobs file ``path``, made a piece of the file at a time
    (as the jobs reader checks it, while its records are in the CPU's cache); with
    ``left_out``, the builder's (:attr:`TableBuilder.left_out`), a job asking a GRES
    slurmctld does not know noted there too (:func:`~fairshare_cli.core.slurm.gres_types.
    known_gres`).

    Raises:
        InputError: the file cannot be read or holds a malformed job; then a job the
            association tree cannot place, or asking a GRES slurmctld does not know (the
            file's own faults come first).
    """
    from fairshare_cli.cli.imports._dump_time import refuse_queued_later
    from fairshare_cli.core.slurm.gres_types import known_gres
    from fairshare_cli.core.slurm.priority_table import JOB_FIELDS, TableBuilder
    from fairshare_cli.io.jobs import JobList, read_jobs

    queue_size = _jobs_in(path)

    class Rows(JobList):
        """The jobs reader's sink: each piece's jobs added to the rows."""

        def __init__(self) -> None:
            super().__init__(JOB_FIELDS)
            self.builder = TableBuilder(ctx, when, listed_at=now, queue_size=queue_size)
            self.builder.left_out = left_out
            self.refusal: InputError | None = None

        def keep(self, jobs: list[Job]) -> None:
            if self.refusal is None:  # (after a refusal the file is still read and checked)
                try:
                    refuse_queued_later(jobs, now)  # (as fs negotiate and fs quota do)
                    self.builder.add(known_gres(jobs, ctx.gres_types, left_out))
                except InputError as exc:
                    self.refusal = exc

    rows = read_jobs(path, Rows, label=path, source=path)
    if rows.refusal is not None:  # a job the tree cannot place: name where it came from
        raise InputError(f"{path}: {rows.refusal}") from None
    return rows.builder


#: What ``--usage`` prints: sprio's ``usage.txt`` (its ``_usage``) under the command's
#: name as typed, without ``-V`` (refused) and with fs's own ``--jobs-file``.
USAGE = (
    "Usage: {command} [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]\n"
    "   [--federation] [--local] [--sibling] [--usage] [-hlnvw] [--jobs-file FILE]\n"
)

#: The bytes of a job object in a jobs file, about (the benchmark's: 160).
_JOB_BYTES = 150


def _jobs_in(path: str) -> int:
    """About how many jobs the jobs file ``path`` holds, told by its size (0: not a file
    whose size is known, such as a pipe)."""
    try:
        return os.stat(path).st_size // _JOB_BYTES if path != "-" else 0
    except OSError:  # (the reader words why it cannot read it)
        return 0


@click.command(
    "sprio",
    cls=getopt_command(SPRIO_LONG, ("-j", "--jobs", BARE_JOBS)),
    context_settings={"help_option_names": ["--help"]},
)
@click.option("-l", "--long", "long_", is_flag=True, help="Long listing (-l).")
@click.option("-w", "--weights", is_flag=True, help="Show the configured weights (-w).")
@click.option("-n", "--norm", is_flag=True, help="Normalised (unweighted) factors (-n).")
@click.option(
    "-j",
    "--jobs",
    multiple=True,
    is_flag=False,
    flag_value=BARE_JOBS,
    metavar="[LIST]",
    help="Only these job ids (comma list; alone: every job, as sprio -j).",
)
@click.option(
    "-u",
    "--user",
    "--users",
    "users",
    multiple=True,
    metavar="LIST",
    help="Only these users (comma list).",
)
@click.option(
    "-p",
    "--partition",
    "partitions",
    multiple=True,
    metavar="LIST",
    help="Only rows in these partitions (comma list).",
)
@click.option(
    "-S", "--sort", "sort", default=None, metavar="KEYS", help="Sort keys, e.g. -Y,i (-S)."
)
@click.option(
    "-o",
    "--format",
    "fmt_spec",
    default=None,
    metavar="FORMAT",
    help="sprio format, e.g. '%.15i %.10Y %.10F' (-o).",
)
@click.option("-h", "--noheader", is_flag=True, help="No header (-h).")
@click.option("-v", "--verbose", count=True, help="Print the options in effect first (-v).")
@click.option(
    "--jobs-file",
    metavar="FILE",
    callback=no_empty_path,
    help="Read jobs from a JSON file, not the state.",
)
@cluster_option
@click.option("--local", is_flag=True, help="No effect: fs's cluster is in no federation.")
@click.option("--federation", is_flag=True, help="No effect: fs's cluster is in no federation.")
@click.option(
    "--sibling", "--sib", is_flag=True, help="Add the CLUSTER column (as sprio --sibling)."
)
@click.option(
    "--helpformat", "help_format", is_flag=True, help="List the fields -o takes and exit."
)
@usage_option(line=USAGE)
@refused_option("-V", "--version", reason=VERSION_REASON)
@click.argument("operands", nargs=-1, metavar="[JOBS]")
@output_options
@common_options
@pass_options
def sprio(  # noqa: PLR0913  Click passes each option as one keyword argument
    common: GlobalOptions,
    long_: bool,
    weights: bool,
    norm: bool,
    jobs: tuple[str, ...],
    users: tuple[str, ...],
    partitions: tuple[str, ...],
    sort: str | None,
    fmt_spec: str | None,
    noheader: bool,
    verbose: int,
    jobs_file: str | None,
    clusters: str | None,
    local: bool,
    federation: bool,
    sibling: bool,
    help_format: bool,
    operands: tuple[str, ...],
) -> None:
    """Show the factors of pending jobs' priorities, like Slurm's sprio.

    \b
    Examples:
      fs sprio --config sample_configs/pool.toml          # like sprio
      fs sprio -l --jobs-file sample_configs/jobs.json    # like sprio -l
      fs sprio -w                                         # the weights
      fs sprio -o '%.15i %.8u %.10Y %.10F' -S -Y --jobs-file sample_configs/jobs.json

    --jobs-file FILE replaces the state's queue (the sample state's is empty).

    Factors are those of the last decay pass (every priority.calc_period) before --now.
    After -j, JOBS (a list after the options) is the job list, as sprio reads it.
    """
    if help_format:  # (opts.c prints it as it reads the option, before any other check)
        click.echo(_help_format(common), nl=False)
        click.get_current_context().exit()  # (as the printing options end: fs whatif too)
    if long_ and fmt_spec is not None:  # (-o '' too: sprio's format is then set)
        raise click.UsageError(
            "Options -o(--format) and -l(--long) are mutually exclusive. "
            "Please remove one and retry."
        )
    listed = [given for given in jobs if given != BARE_JOBS]  # (a bare -j keeps the list)
    # opts.c: with -j given, the first argument left is the job list; any other one (the
    # first argument without -j) is refused
    listed += list(operands[:1]) if jobs else []
    stray = next(iter(operands[1:] if jobs else operands), None)
    # sprio's _opt_env: each of these set, even empty, as getenv finds it; -M wins
    local = local or "SPRIO_LOCAL" in os.environ
    sibling = sibling or "SPRIO_SIBLING" in os.environ
    from_env = clusters is None and "SLURM_CLUSTERS" in os.environ
    clusters = os.environ["SLURM_CLUSTERS"] if from_env else clusters
    opts = SprioOptions(
        long_=long_,
        weights=weights,
        norm=norm,
        job_flag=bool(jobs),
        jobs=listed[-1] if listed else None,  # (as sprio, the last of each wins)
        users=users[-1] if users else None,
        job_lists=tuple(listed),
        user_lists=users[:-1],
        stray=stray,
        partitions=partitions[-1] if partitions else None,
        sort=sort,
        fmt_spec=fmt_spec,
        noheader=noheader,
        verbose=verbose,
        jobs_file=jobs_file,
        fmt=common.output,
        clusters=clusters,
        clusters_given="$SLURM_CLUSTERS" if from_env else "-M",
        # --federation changes nothing: fs's cluster is in no federation, where sprio
        # reports the local cluster alone (slurm_load_job_prio)
        sibling=sibling and not local,
        whatif=None if common.side is None else (common.side, common.notes),
    )
    with gc_paused():
        _sprio(opts, load_env(common, note_missing=jobs_file is None and not weights))


def _help_format(common: GlobalOptions) -> str:
    """What ``--helpformat`` prints (opts.c's ``_help_format``), which needs no config;
    but a config found (``--config``, ``./fairshare.toml``, the user's) that prints Slurm
    22.05's layouts refuses it, as 22.05's sprio has no such option (getopt_long:
    ``unrecognized option '--helpformat'``; sprio 23.02 added it).

    Raises:
        click.UsageError: the config says ``output_compat = "22.05"``.
        ConfigError: ``--config`` names a file that is missing or invalid.
    """
    from fairshare_cli.cli.resolve import resolve_config_path
    from fairshare_cli.errors import ConfigError
    from fairshare_cli.io.config import load_config

    try:
        path = resolve_config_path(common.config_path)
    except ConfigError:  # (no config anywhere: today's sprio's list)
        return sprio_help_format()
    if load_config(path).priority.output_compat == "22.05":
        raise click.UsageError(
            "No such option '--helpformat': Slurm 22.05's sprio has none "
            f'({path}: priority.output_compat = "22.05"); its -o letters are today\'s '
            "but %n, %o and %s"
        )
    return sprio_help_format()


def _sprio(opts: SprioOptions, env: Env) -> None:
    from fairshare_cli.cli.sprio_lists import job_keys

    # -M names fs's one cluster (sprio then reports it alone: no --sibling column)
    compat = env.config.priority.output_compat
    local = cluster_asked(opts.clusters, env.config.pool.name, opts.clusters_given, compat)
    keys = None
    for text in opts.job_lists:  # (read first, each in turn: _build_job_list ends at a bad id)
        keys = job_keys(text, compat)
    if opts.stray is not None:  # (opts.c: an error and its usage text, on stdout)
        where = click.get_current_context()
        click.echo(
            USAGE.format(command=f"{where.find_root().info_name} {where.info_name}"), nl=False
        )
        raise click.UsageError(f"Unrecognized option: {opts.stray}")
    if opts.verbose and opts.fmt == "table":  # (opts.c prints it before asking slurmctld)
        verbose_block(opts, compat, sys.stdout)
    if env.config.priority.type == "basic":  # (sprio.c's three lines, 22.05 and today)
        click.echo(
            "You are not running a supported priority plugin\n(priority/basic).\n"
            "Only 'priority/multifactor' is supported.",
            err=True,
        )
        raise click.exceptions.Exit(1)
    refusal = _sort_refusal(opts.sort, compat)
    ctx, table, others, pending = _listed(opts, env, keys, sort=refusal is None)
    if opts.fmt != "table" and refusal is not None:
        raise refusal
    if opts.fmt != "table":
        from fairshare_cli.render.formats import emit_columns, emit_rows
        from fairshare_cli.render.sprio import WEIGHT_FIELDS, json_columns, weights_row

        if opts.weights:  # (json: one object; ndjson, csv: one row)
            row = weights_row(ctx.weights)
            emit_rows(row if opts.fmt == "json" else [row], WEIGHT_FIELDS, opts.fmt)
        else:
            emit_columns(json_columns(table), len(table), opts.fmt)
        return
    parsed, warnings = listing_spec(opts, env, ctx, cluster_column=opts.sibling and not local)
    for message in warnings:  # (parse_format's, before sprio looks at the jobs)
        click.echo(f"fs: error: {message}", err=True)
    found = pending if _filters_in_sprio(env) else len(table)
    if opts.jobs is not None and not found:  # (-w too: sprio.c tests it before any line)
        click.echo("Unable to find jobs matching user/id(s) specified")
        return
    from fairshare_cli.render.sprio_table import listing_chunks

    if refusal is not None and found and not opts.weights:
        # print_jobs_array prints the header, then sort_job_list refuses the keys; sprio
        # sorts no weights line, nor a list slurmctld sent none of (found: 0)
        write_lines(
            listing_chunks(parsed, table.taken([]), ctx.weights, header=not opts.noheader),
            sys.stdout,
        )
        raise refusal
    chunks = listing_chunks(
        parsed,
        table,
        ctx.weights,
        header=not opts.noheader,
        weights_only=opts.weights,
        compat=env.config.priority.output_compat,
    )
    write_lines(chunks, sys.stdout)
    whole = not (opts.weights or opts.jobs or opts.users or opts.partitions)
    if others and whole:  # (on stderr, under the whole queue's listing: stdout is sprio's)
        click.echo(f"fs: note: {_not_slurm_note(others)}", err=True)


def _sort_refusal(spec: str | None, compat: str) -> InputError | None:
    """The refusal of ``-S spec`` (``Invalid sort specification: x``), None when sprio
    takes its keys (:func:`~fairshare_cli.render.sprio.sort_keys`)."""
    from fairshare_cli.render.sprio import sort_keys

    try:
        sort_keys(spec or "", compat)
    except InputError as exc:
        return exc
    return None


def _filters_in_sprio(env: Env) -> bool:
    """Whether sprio itself picks the rows of ``-j``, ``-u`` and ``-p`` out of every pending
    job (Slurm 23.02 on: ``filter_job_list``), so that ``-j`` naming no pending job prints the
    header alone and "Unable to find jobs" means no job is pending at all; Slurm 22.05's
    slurmctld picked them (``slurm_load_job_prio`` took the lists), and an empty answer to
    ``-j`` was "Unable to find jobs"."""
    return env.config.priority.output_compat != "22.05"


def _not_slurm_note(ids: list[str]) -> str:
    """What sprio leaves out of the queue: jobs whose owner has no association and that
    name no account, partition or QOS (HTCondor's jobs, to fs); the first five named."""
    if len(ids) == 1:
        return (
            f"not listed: job {ids[0]}, not a Slurm job: its owner has no association and it "
            "names no account, partition or QOS ('fs negotiate --dry-run' shows it)"
        )
    some = first_five(ids)
    return (
        f"not listed: {len(ids)} jobs ({some}), not Slurm jobs: their owners have no "
        "association and they name no account, partition or QOS ('fs negotiate --dry-run' "
        "shows them)"
    )


def priority_inputs(env: Env, jobs: Sequence[Job] | None = None) -> tuple[float, PriorityContext]:
    """The time of the last decay pass before ``--now`` and the priority context of the
    association tree then (with the state's Slurm usage, its queue's running jobs ended
    at their limits; ``jobs``: that queue, when read already).

    Raises:
        StateError: the state's Slurm section or queue is malformed.
    """
    from fairshare_cli.cli.slurm_usage import view_usage
    from fairshare_cli.core.slurm import model as slurm
    from fairshare_cli.core.slurm.tree_usage import evaluate

    state, _ = view_usage(env, jobs)
    when, tree = evaluate(env.config, state, env.now, jobs)
    return when, slurm.priority_context(env.config, tree)


def _listed(
    opts: SprioOptions, env: Env, keys: list[str | int] | None, sort: bool = True
) -> tuple[PriorityContext, PriorityTable, list[str], int]:
    """The priority context, the rows asked for (``-j``: ``keys``, ``-u``, ``-p``) in the
    order asked for (``-S``; by job id when not given; an empty ``-S`` keys nothing and
    leaves the queue's order, as ``sort_job_list`` leaves slurmctld's), the ids of the
    pending jobs that are not Slurm jobs and the number of rows before ``-j``, ``-u`` and
    ``-p`` (``sort`` false: the rows unsorted, ``-S`` being refused). A user ``-u`` names whom
    fs does not know is named on stderr.

    Raises:
        InputError: the jobs file's faults; then a job the association tree cannot place,
            named with its source.
        StateError: the state's queue or Slurm section is malformed.
    """
    from fairshare_cli.cli.sprio_lists import items
    from fairshare_cli.core.slurm.priority_table import TableBuilder
    from fairshare_cli.render.sprio import selected_rows, sort_order

    left_out: list[str] | None = None if opts.whatif is None else []
    if opts.jobs_file is None:
        jobs = env.queue()
        when, ctx = priority_inputs(env, jobs)
        builder = TableBuilder(ctx, when, listed_at=env.now, queue_size=len(jobs))
        builder.left_out = left_out
        try:
            builder.add(jobs)
        except InputError as exc:  # a job the tree cannot place: name where it came from
            raise InputError(f"state file {env.state_path}: jobs: {exc}") from None
    else:
        when, ctx = _inputs_after_file_faults(env, opts.jobs_file)
        builder = read_table(opts.jobs_file, ctx, when, env.now, left_out)
    if opts.whatif is not None:
        side, notes = opts.whatif
        notes.extend(f"{side}: left out {why}" for why in left_out or ())
    by_id = opts.sort in (None, "i")
    table = builder.table(in_id_order=by_id)
    if by_id and keys is None and opts.users is None and opts.partitions is None:
        return ctx, table, builder.not_slurm, len(table)
    for text in opts.user_lists:  # (sprio names the unknown users of each -u in turn)
        _users_asked(text, ctx, table, env.config.priority.output_compat)
    users = (
        None
        if opts.users is None
        else _users_asked(opts.users, ctx, table, env.config.priority.output_compat)
    )
    parts = None if opts.partitions is None else items(opts.partitions)
    rows = selected_rows(table, keys, users, parts)
    if not by_id and opts.sort is not None and sort:
        rows = sort_order(table, rows, opts.sort, env.config.priority.output_compat)
    return ctx, table.taken(rows), builder.not_slurm, len(table)


def _users_asked(text: str, ctx: PriorityContext, table: PriorityTable, compat: str) -> list[str]:
    """The users ``-u text`` names whom fs knows (an association, or a pending job), each
    other one named on stderr in sprio's words (which leaves out a name the system does not
    know, ``Invalid user: x``, and lists the others); once a command, though ``fs whatif``
    lists twice (the context's meta, which its views share, keeps what was said)."""
    from fairshare_cli.cli.sprio_lists import user_names

    known = {a.user for a in ctx.tree.users if a.user is not None}
    known.update(share.user for share in table.assocs)
    users, unknown = user_names(text, known, compat)
    click_ctx = click.get_current_context(silent=True)
    said: set[str] = set() if click_ctx is None else click_ctx.meta.setdefault(_SAID, set())
    for message in unknown:
        if message not in said:
            said.add(message)
            click.echo(f"fs: warning: {message}", err=True)  # (the command goes on)
    return users


#: The key in Click's context meta of what ``-u`` has said of unknown users.
_SAID = "fairshare.sprio.unknown_users_said"


def _inputs_after_file_faults(env: Env, jobs_file: str) -> tuple[float, PriorityContext]:
    """:func:`priority_inputs`, whose faults come after the jobs file's own (as the file
    is read first): a fault there has the file read on its own first.

    Raises:
        InputError: the jobs file's faults.
        StateError: the state's Slurm section is malformed.
    """
    try:
        return priority_inputs(env)
    except FairshareError:
        from fairshare_cli.core.slurm.priority_table import JOB_FIELDS
        from fairshare_cli.io.jobs import load_jobs as read_jobs_file

        read_jobs_file(jobs_file, fields=JOB_FIELDS)
        raise
