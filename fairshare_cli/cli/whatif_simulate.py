"""``fs whatif --set KEY=VALUE simulate --workload W``: one workload under both policies.

The simulation runs twice over the same state and workload, under the current config
("before") and under the changed one ("after"); nothing is duplicated: both runs are
``fs simulate``'s own (:func:`~fairshare_cli.cli.simulate.simulation`). The rows come
out as one series per policy: json/ndjson/csv rows carry a first field ``policy``, the
table a first column; ``--plot`` overlays the two runs (solid before, dashed after) and a
terminal gets two sparklines per entity.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from fairshare_cli.cli.context import Env
    from fairshare_cli.core.operations.sim_row import SimRow
    from fairshare_cli.core.operations.simulate import SimResult


def compare_simulations(
    ctx: click.Context,
    command: click.Command,
    argv: list[str],
    settings: str,
    set_after: Callable[[], None],
) -> None:
    """Run ``fs simulate argv`` before and after ``set_after`` puts the overrides in
    place, then show both series.

    Raises:
        FairshareError: bad options, config, state or workload (either side).
    """
    from fairshare_cli.cli.options import GlobalOptions

    before, opts, (plot, series), html = _run(ctx, command, argv)
    set_after()
    after, _, _, _ = _run(ctx, command, argv)
    assert isinstance(opts, GlobalOptions)
    if html is not None:  # --html FILE: the sweep's page of the two runs
        from fairshare_cli.cli.sweep_result import simulate_page

        simulate_page(html[0], [("before", *before), ("after", *after)], html[1])
    show_both(before[1].rows, after[1].rows, opts.output, plot, settings, series)
    if html is not None and opts.output == "table":  # (as the plot's and fs sweep's page)
        click.echo(f"Page written to {html[0]}", err=True)


def _run(
    ctx: click.Context, command: click.Command, argv: list[str]
) -> tuple[tuple[Env, SimResult], object, tuple[str | None, bool], tuple[str, str] | None]:
    """One ``fs simulate`` run (its options parsed as the command parses them): what it
    ran on and its result, its global options, its ``--plot`` and ``--series``, and its
    ``--html`` with the scheduler."""
    from fairshare_cli.cli.options import GlobalOptions
    from fairshare_cli.cli.simulate import simulation

    with (
        view_usage(ctx, command, "simulate"),
        view_context(ctx, command, "simulate", list(argv)) as sub,
    ):
        params = dict(sub.params)
        opts = sub.find_object(GlobalOptions)
        assert opts is not None
        plot = params.pop("plot")
        series = params.pop("series")
        html = params.pop("html", None)
        if plot is not None:  # (an empty path too: refused)
            from fairshare_cli.io.plot import check_plot_path

            check_plot_path(plot)  # before the runs, not after them
        run = simulation(opts, **params)
    return run, opts, (plot, series), None if html is None else (html, params["scheduler"])


def show_both(
    before: Sequence[SimRow],
    after: Sequence[SimRow],
    fmt: str,
    plot: str | None,
    settings: str,
    series: bool = False,
) -> None:
    """Both series: rows tagged by policy, the overlaid plot or the terminal chart."""
    import sys

    from fairshare_cli.cli.simulate import emit_series, series_table

    rows = [*before, *after]
    policy = ["before"] * len(before) + ["after"] * len(after)
    if plot:
        from fairshare_cli.io.plot import plot_simulation

        plot_simulation(before, plot, after=after)
    if fmt != "table":
        emit_series(rows, fmt, policy)
        return
    click.echo(f"fs simulate with {settings}: before (current config), then after")
    if series:
        click.echo(series_table(rows, policy), nl=False)
    else:
        from fairshare_cli.render.sim_summary import summary_table

        click.echo(summary_table(rows, policy), nl=False)
    if plot:
        click.echo(f"Plot written to {plot} (before solid, after dashed)", err=True)
    elif sys.stdout.isatty():
        from fairshare_cli.render.sim_chart import spark_chart

        click.echo("\n" + spark_chart(before, after=after), nl=False)


class _ViewContext(click.Context):
    """A view's context under ``fs whatif``: its path, which its help's usage line starts
    with, is ``fs whatif VIEW``, where Click's puts whatif's own arguments in between
    (``fs whatif {userprio|sprio|...} [ARGS]... userprio``: the view named twice)."""

    @property
    def command_path(self) -> str:
        above = "" if self.parent is None else self.parent.command_path
        return f"{above} {self.info_name or ''}".strip()


def view_context(
    ctx: click.Context, command: click.Command, view: str, argv: list[str]
) -> click.Context:
    """``command.make_context(view, argv, parent=ctx)``, in a :class:`_ViewContext`."""
    sub = _ViewContext(command, info_name=view, parent=ctx, **command.context_settings)
    with sub.scope(cleanup=False):
        command.parse_args(sub, argv)
    return sub


@contextlib.contextmanager
def view_usage(ctx: click.Context, command: click.Command, view: str) -> Iterator[None]:
    """A bad option of the view points at ``fs whatif --help`` and ``fs VIEW --help``.

    Raises:
        click.UsageError: the view's, pointing at whatif's help and the view's.
    """
    from fairshare_cli.cli.context import WHATIF_SIDE

    said: set[str] = ctx.meta.setdefault(_SAID, set())
    # (a view's notes wait for the after side: none is printed before its refusal)
    held: list[str] | None = ctx.meta.setdefault(_HELD, [])
    if ctx.meta.get(WHATIF_SIDE) != "before" or view == "simulate":
        held = None
    try:
        with contextlib.redirect_stderr(_SaidOnce(sys.stderr, said, held)):
            yield
    except click.UsageError as exc:
        setattr(exc, "view_help", f"{ctx.find_root().command_path} {view}")  # noqa: B010
        exc.ctx = ctx
        raise
    for line in ctx.meta.pop(_HELD, []) if held is None else ():
        sys.stderr.write(line)


#: ``ctx.meta`` key of the notes and warnings a comparison's sides have printed.
_SAID = "fairshare_cli.whatif_said"
#: ``ctx.meta`` key of the notes and warnings of the before side, printed after the after's.
_HELD = "fairshare_cli.whatif_held"


class _SaidOnce(io.TextIOBase):
    """Standard error that drops an ``fs: note:`` or ``fs: warning:`` line printed once
    already: the comparison runs the view twice, and what both sides say is said once
    (an argument sshare ignores, a group the config lacks); with ``held``, such a line is
    kept there instead (the before side's, until the after side has run); every other
    write as it is."""

    def __init__(self, stream: Any, said: set[str], held: list[str] | None = None) -> None:
        super().__init__()
        self._stream = stream
        self._said = said
        self._held = held

    @property
    def encoding(self) -> str:  # type: ignore[override]  # (the stream's, as click asks)
        return str(getattr(self._stream, "encoding", "utf-8"))

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self._stream, "errors", None)

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text.startswith(("fs: note: ", "fs: warning: ")) and text.endswith("\n"):
            if text in self._said:
                return len(text)
            self._said.add(text)
            if self._held is not None:
                self._held.append(text)
                return len(text)
        return int(self._stream.write(text))

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return bool(self._stream.isatty())
