"""``fs sprio``'s own options, and what they make of its listing: the format (``-o``,
``$SPRIO_FORMAT``, ``-l``), ``-v``'s block, and the listing written as sprio writes it."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, TextIO

import click
import msgspec

from fairshare_cli.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Iterable

    from fairshare_cli.cli.context import Env
    from fairshare_cli.core.slurm.priority import PriorityContext
    from fairshare_cli.render.sprio import SprioFormat


class SprioOptions(msgspec.Struct, frozen=True):
    """sprio's own options (``-l``, ``-w``, ``-j``, ``-u``, ``-p``, ``-S``, ``-o``, ...)."""

    long_: bool
    weights: bool
    norm: bool
    job_flag: bool
    jobs: str | None
    users: str | None
    partitions: str | None
    sort: str | None
    fmt_spec: str | None
    noheader: bool
    verbose: int
    jobs_file: str | None
    fmt: str
    clusters: str | None = None
    clusters_given: str = "-M"  # (or $SLURM_CLUSTERS, which sprio reads when -M is not given)
    sibling: bool = False
    #: ``fs whatif``'s side and notes: a job that side's config takes to no partition is
    #: left out, and noted, for the other side's may take it (the change to compare)
    whatif: tuple[str, list[str]] | None = None
    #: every ``-j`` list given, in order (each read, and a bad id refused, as sprio reads
    #: each), ``jobs`` the last; the ``-u`` lists before ``users``
    job_lists: tuple[str, ...] = ()
    user_lists: tuple[str, ...] = ()
    #: an argument sprio takes for no option (``Unrecognized option: x``)
    stray: str | None = None


def verbose_block(opts: SprioOptions, compat: str, stream: TextIO) -> None:
    """``-v``'s block on ``stream``, as sprio's ``_print_options`` prints it while it reads
    its options (before it asks slurmctld anything); ``-vv`` adds ``-j``'s items."""
    from fairshare_cli.cli.sprio_lists import printed_job_ids
    from fairshare_cli.render import sprio as render

    def given(text: str | None) -> tuple[str, ...]:
        return () if text is None else (text,)

    block = render.verbose_block(
        given_format(opts),
        given(opts.jobs),
        given(opts.partitions),
        given(opts.users),
        opts.verbose,
        job_flag=opts.job_flag,
        job_list=() if opts.jobs is None else printed_job_ids(opts.jobs, compat),
    )
    click.echo(block, nl=False, file=stream)


def given_format(opts: SprioOptions) -> str | None:
    """The format given: ``-o``'s, else ``$SPRIO_FORMAT`` (set, even empty) unless ``-l``
    is given: sprio's ``opts.c`` reads the variable only when neither ``-o`` nor ``-l``
    set its ``override_format_env`` (22.05 and today alike), so it wins over ``-n``'s and
    ``-w``'s layouts, not over ``-l``'s; None: sprio's own layout."""
    if opts.fmt_spec is not None:
        return opts.fmt_spec
    return None if opts.long_ else os.environ.get("SPRIO_FORMAT")


def listing_spec(
    opts: SprioOptions, env: Env, ctx: PriorityContext, *, cluster_column: bool = False
) -> tuple[SprioFormat, list[str]]:
    """The listing's parsed format and its warnings (printing nothing); ``cluster_column``:
    the default short format's CLUSTER column (``--sibling``).

    Raises:
        InputError: the format has invalid fields and no valid one.
    """
    from fairshare_cli.render import sprio as render

    spec = given_format(opts)
    if spec is None:
        spec = render.default_format(
            ctx.weights,
            long=opts.long_,
            norm=opts.norm,
            show_user=opts.users is not None,  # (sprio.c: -u given, whatever it names)
            compat=env.config.priority.output_compat,
            cluster=cluster_column,
        )
    parsed, warnings = render.parse_format(spec, env.config.priority.output_compat)
    if warnings and not parsed.fields:  # nothing valid to list: refused, not a blank listing
        source = "-o" if opts.fmt_spec is not None else "SPRIO_FORMAT"
        raise InputError(f"{warnings[0]} ({source} has no valid field)")
    return parsed, warnings


def write_lines(chunks: Iterable[str], stream: TextIO) -> None:
    """The listing's pieces on ``stream`` as ``click.echo`` writes them, without its scan
    of each piece for ANSI codes (to strip them when the stream is not a terminal) where a
    piece is ASCII text without an escape character (which any stream writes as UTF-8
    would)."""
    write = stream.write
    for chunk in chunks:
        if chunk.isascii() and "\x1b" not in chunk:
            write(chunk)
        else:
            stream.flush()  # what was written before comes first
            click.echo(chunk, nl=False, file=stream)
    stream.flush()
