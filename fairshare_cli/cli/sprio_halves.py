"""``fs sprio``'s plain listing of a large queue (a jobs file, or the state's queue kept as
its text), its second half made by a forked child (:mod:`fairshare_cli.io.forked_half`)
while the process makes the first.

The queue's list is split into two lists of job objects
(:func:`~fairshare_cli.io.slurm_jobs.split_jobs`, ``split_text``). Each process decodes and
checks its half as ``--jobs-file`` is read the quick way, makes its
:class:`~fairshare_cli.core.slurm.priority_table.PriorityTable` and that table's text. Each
half's jobs must be in id order (``compute_table`` gives up at the first that is not), so
when the first half's last id is below the second half's first, the two tables are the
whole queue's, and the first text followed by the second is the whole listing, byte for
byte (a table's text is made a row at a time).

Anything else (a half the quick reader or ``compute_table`` turns down, ids out of order,
in a half or across the two, no second CPU) and the process lists the whole queue the
usual way, whose results and messages are the users'; nothing was printed before. A file
whose first ids are out of order (``squeue`` lists jobs by priority) is not split at all
(:func:`~fairshare_cli.io.slurm_jobs.ids_look_in_order`).

A measured hot path (``benchmarks/run.py --rows sprio,sprio-json``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, TextIO

from fairshare_cli.cli.entry import hold
from fairshare_cli.cli.sprio import listing_spec, preamble, priority_inputs, write_lines
from fairshare_cli.errors import FairshareError
from fairshare_cli.io import forked_half

if TYPE_CHECKING:
    from fairshare_cli.cli.context import Env
    from fairshare_cli.cli.sprio import SprioOptions
    from fairshare_cli.core.slurm.priority import PriorityContext
    from fairshare_cli.core.slurm.priority_table import PriorityTable

#: Files below this size (some 9,000 jobs) are listed by one process: starting the child
#: costs about what the halves save (``benchmarks/run.py``'s queues: even at 6,000 jobs,
#: 14 ms saved at 10,000, 0.15 s at 100,000).
MIN_BYTES = 3 * 1024 * 1024 // 2

#: The share of the file the process lists itself, by output format: a little more than
#: half, as the child holds the text it makes before it is released (fresh pages: up to
#: some 35 MB of ``--json`` at 100,000 jobs), while the process makes and writes its own a
#: piece at a time (``benchmarks/run.py --rows sprio,sprio-json``).
FIRST_SHARE = {"table": 0.52, "json": 0.56}

#: A half's pieces of text from its table, made as they are taken (None: it cannot be
#: listed this way).
Texts = Callable[["PriorityTable"], "Iterable[str] | None"]


def listed_in_halves(
    opts: SprioOptions, env: Env, stream: TextIO, min_bytes: int | None = None
) -> bool:
    """List the queue of ``--jobs-file``, or the state's kept as its text (a
    :func:`~fairshare_cli.cli.sprio.plain_listing`), on ``stream`` in two halves, the
    second made by a forked child; False, with nothing printed, when it is not listed
    this way (see the module docstring). ``min_bytes``: the smallest queue listed so, in
    bytes of JSON (:data:`MIN_BYTES`).

    Raises:
        BrokenPipeError: the output's reader went away.
        OSError: writing the output failed.
        RuntimeFailure: the child failed while writing its half.
    """
    from fairshare_cli.io.slurm_jobs import ids_look_in_order

    if not forked_half.usable(stream):
        return False
    split = _split(opts, env, MIN_BYTES if min_bytes is None else min_bytes)
    if split is None or not ids_look_in_order(*split):  # (told before the tree is made)
        return False
    try:
        state, when, tree, ctx = priority_inputs(env)
    except FairshareError:  # (the usual way names it, after the jobs file's errors)
        return False
    data, comma = split
    texts, warnings = _texts(opts, env, ctx)
    half = forked_half.fork_half(
        lambda: _second_half((data, comma), ctx, when, env.now, texts[1], opts.fmt, stream),
        stream,
    )
    if half is None:
        return False
    with half:
        table = _half_table((data, comma, True), ctx, when, env.now, half)
        pieces = None if table is None else texts[0](table)  # (made as they are written)
        report = half.report()
        if table is None or pieces is None or report is None:
            return False
        if not int(table.ids[-1]) < int(report):  # the halves' ids interleave or repeat
            return False
        hold(table, pieces, state, tree, ctx, env, data)  # (never freed: the process ends)
        if opts.fmt == "table":
            preamble(opts, warnings, stream)
        _write(pieces, opts.fmt, stream)
        half.release(stream)
    return True


def _split(opts: SprioOptions, env: Env, min_bytes: int) -> tuple[Any, int] | None:
    """The queue's JSON, as bytes this process may write, and the cut between its halves
    (:func:`~fairshare_cli.io.slurm_jobs.split_jobs`, or ``split_text`` for the state's
    queue kept as its text); None for a queue of less than ``min_bytes`` of JSON (or a
    ``--jobs-file`` that is not a regular file)."""
    from fairshare_cli.io.slurm_jobs import split_jobs, split_text

    share = FIRST_SHARE[opts.fmt]
    if opts.jobs_file is None:
        text = env.state.section_text("jobs")
        return None if text is None or len(text) < min_bytes else split_text(text, share)
    try:
        info = os.stat(opts.jobs_file)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size < min_bytes:
        return None
    return split_jobs(opts.jobs_file, share)


def _texts(
    opts: SprioOptions, env: Env, ctx: PriorityContext
) -> tuple[tuple[Texts, Texts], list[str]]:
    """How each half's table becomes text, the first half's then the second's, and the
    format's warnings (printed once the listing is sure to go this way)."""
    if opts.fmt == "json":
        from fairshare_cli.render.sprio_json import table_chunks as json_chunks

        def json_first(table: PriorityTable) -> Iterable[str] | None:
            return json_chunks(table, closing=False)

        def json_second(table: PriorityTable) -> Iterable[str] | None:
            chunks = json_chunks(table, opening=False)
            return None if chunks is None else chain(chunks, ("\n",))

        return (json_first, json_second), []
    from fairshare_cli.render import sprio as render
    from fairshare_cli.render.sprio_table import table_chunks

    parsed, warnings = listing_spec(opts, env, ctx)
    weights, cluster = ctx.weights, env.config.pool.name
    head = list(islice(render.render_chunks(parsed, [], weights, header=not opts.noheader), 1))

    def first(table: PriorityTable) -> Iterable[str]:
        return chain(head, table_chunks(parsed, table, weights, cluster))

    def second(table: PriorityTable) -> Iterable[str]:
        return table_chunks(parsed, table, weights, cluster)

    return (first, second), warnings


def _half_table(
    half: tuple[Any, int, bool],
    ctx: PriorityContext,
    when: float,
    now: float,
    child: forked_half.Half | None = None,
) -> PriorityTable | None:
    """The table of one half's jobs (:func:`~fairshare_cli.io.slurm_jobs.jobs_half`'s
    arguments); None when the half is not read the quick way, its queue is not a plain one
    (``compute_table``) or it lists no row, or as soon as the ``child`` making the other
    half gives up (the whole file is listed the usual way then)."""
    from fairshare_cli.core.slurm.priority_table import compute_table
    from fairshare_cli.io.slurm_jobs import jobs_half

    jobs = jobs_half(*half)
    if jobs is None or (child is not None and child.gave_up()):
        return None
    hold(jobs)
    try:
        table = compute_table(
            jobs if child is None else _watched(jobs, child),
            ctx,
            when,
            listed_at=now,
            in_order_only=True,
        )
    except (FairshareError, _GaveUp):  # (the usual way names what is wrong)
        return None
    return table if table is not None and table.ids else None


class _GaveUp(Exception):
    """The child making the other half gave up: this half is not needed."""


def _watched(jobs: list[Any], child: forked_half.Half, every: int = 8192) -> Iterator[Any]:
    """The jobs, with a look every ``every`` jobs at whether the ``child`` gave up.

    Raises:
        _GaveUp: it did.
    """
    for start in range(0, len(jobs), every):
        if start and child.gave_up():
            raise _GaveUp
        yield from jobs[start : start + every]


def _second_half(
    split: tuple[Any, int],
    ctx: PriorityContext,
    when: float,
    now: float,
    texts: Texts,
    fmt: str,
    stream: TextIO,
) -> forked_half.Made:
    """The child's work: its half's table and text; its report is its first job id."""
    table = _half_table((*split, False), ctx, when, now)
    pieces = None if table is None else texts(table)
    if table is None or pieces is None:
        return None
    return table.ids[0], pieces, lambda text: _write(text, fmt, stream)


def _write(pieces: Iterable[str], fmt: str, stream: TextIO) -> None:
    """A half's text on ``stream`` (as the usual way writes the listing), flushed."""
    if fmt == "table":
        write_lines(pieces, stream)
        return
    write: Any = stream.write
    for piece in pieces:
        write(piece)
    stream.flush()
