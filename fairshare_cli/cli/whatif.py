"""``fs whatif``: a view under the current config and under a changed one, compared."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import click

from fairshare_cli.cli.context import (
    WHATIF_NOTES,
    WHATIF_OVERRIDES,
    WHATIF_REDERIVE,
    WHATIF_REPLAY,
    WHATIF_SIDE,
    WHATIF_TABLE,
)
from fairshare_cli.cli.options import OUTPUT_FORMATS, FilePath
from fairshare_cli.errors import InputError
from fairshare_cli.io.spool import stdin_kept

#: Where ``fs whatif --output FMT`` (before the view) is kept for the command.
OUTPUT = "fairshare_cli.whatif_output"
#: Views that only read; ``negotiate`` is forced to ``--dry-run``; ``simulate`` runs the
#: workload under both configs and shows both series.
VIEWS = ("userprio", "sprio", "sshare", "quota", "negotiate", "taskqueues", "simulate")


if TYPE_CHECKING:
    _StrChoice = click.Choice[str]
else:  # click 8.1 (Debian 12) has a Choice that is not generic: subscripting it raises
    _StrChoice = click.Choice


class ViewChoice(_StrChoice):
    """The view: a mistyped one is refused naming the views it is close to (the list when
    none is), and an option in its place (``fs whatif --config FILE sshare``, which click
    reads as the view '--config') is told to follow the view, as that view's option."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if isinstance(value, str) and value not in self.choices:
            from fairshare_cli.cli.main import no_such_command

            if value.startswith("-"):
                _refuse_mistyped_option(value, ctx)
                raise click.UsageError(
                    f"{value} is not an option of fs whatif: give it after the view, as the "
                    f"view's ('fs whatif --set KEY=VALUE VIEW {value} ...')",
                    ctx,
                )
            refusal = no_such_command(value, list(VIEWS), "view")
            if "Did you mean" not in refusal:
                refusal += f" Choose from: {', '.join(VIEWS)}"
            raise click.UsageError(refusal, ctx)
        return str(super().convert(value, param, ctx))


def _refuse_mistyped_option(token: str, ctx: click.Context | None) -> None:
    """Refuse ``token``, an option before the view, as a typo of fs whatif's own option
    when it is close to one and no view has it (``--sett``: 'Did you mean --set?'), where
    it would be told to follow the view, whose refusal then names the view's options."""
    import difflib

    if ctx is None:
        return
    name = token.partition("=")[0]
    root = ctx.find_root()
    group = root.command
    views = (
        [group.get_command(root, view) for view in VIEWS] if isinstance(group, click.Group) else []
    )
    for command in [view for view in views if view is not None]:
        if any(name in param.opts for param in command.params):
            return
    own = [opt for param in ctx.command.params for opt in param.opts if opt.startswith("--")]
    close = difflib.get_close_matches(name, [*own, "--help"])
    if close:
        quoted = ", ".join(repr(option) for option in close)
        hint = f"(Did you mean one of: {quoted}?)" if len(close) > 1 else f"Did you mean {quoted}?"
        raise click.UsageError(f"No such option {name!r}. {hint}", ctx)


def parse_assignment(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with a TOML value (``3``, ``true``, ``"x"``, ``[1, 2]``); bare words are
    strings, and a bare boolean or number is a :class:`~fairshare_cli.io.config.BareValue`
    (its text where the key takes a string).

    Raises:
        InputError: no ``=`` or an empty key.
    """
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise InputError(
            f"--set {text}: expected KEY=VALUE, e.g. accountant.priority_halflife=3600"
        )
    _refuse_bare_knob(key.strip(), raw.strip())
    from fairshare_cli.io.config import BareValue
    from fairshare_cli.io.toml import loads

    try:
        value = loads(f"v = {raw.strip()}")["v"]
    except (ValueError, RecursionError):  # not a TOML value (or too big a one): a string
        return key.strip(), raw.strip()
    if isinstance(value, (bool, int, float)):  # (its text where the key takes a string)
        return key.strip(), BareValue(value, raw.strip())
    return key.strip(), value


def _refuse_bare_knob(key: str, raw: str) -> None:
    """A real knob name alone (``PRIORITY_HALFLIFE``) names no table: ``--set`` takes dotted
    config keys, a knob name only as the last part (``accountant.PRIORITY_HALFLIFE``), as
    the config file takes it in its table. Refused with the keys to write.

    Raises:
        InputError: ``key`` is no top-level config key and is a knob name.
    """
    from fairshare_cli.io.config import TOP_KEYS
    from fairshare_cli.io.knob_aliases import bare_knob_keys

    keys = bare_knob_keys(key, TOP_KEYS)
    if keys:
        spelt = " or ".join(f"--set {k}={raw}" for k in keys)
        raise InputError(
            f"--set {key}={raw}: {key} alone names no table (--set takes dotted config "
            f"keys); write {spelt}"
        )


def _overrides(assignments: tuple[str, ...]) -> dict[str, Any]:
    """The ``--set`` assignments as config keys (a knob name as its key) and values.

    Raises:
        InputError: one is no ``KEY=VALUE``, or two set one key.
    """
    from fairshare_cli.io.config import canonical_key

    pairs = [parse_assignment(text) for text in assignments]
    _refuse_one_key_twice(assignments, [key for key, _ in pairs])
    return {canonical_key(k): v for k, v in pairs}


def _refuse_one_key_twice(assignments: tuple[str, ...], keys: list[str]) -> None:
    """Two ``--set`` keys that name one config key, spelt alike or apart (a knob name and
    its key; a name quoted and not), as ``fs sweep`` refuses two axes on one key: only the
    last would count, and the title would show both.

    Raises:
        InputError: naming both settings and the key.
    """
    from fairshare_cli.io.config import canonical_key, same_key_twice

    pair = same_key_twice(keys)
    if pair is not None:
        first, second = (assignments[k].strip() for k in pair)
        key = canonical_key(keys[pair[0]])
        raise InputError(f"--set {first} and --set {second} both set {key}: give one")


@click.command(
    "whatif", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False}
)
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="KEY=VALUE",
    help="A dotted config key and its new value (repeatable; before or after the view).",
)
@click.option(
    "--rederive-factors",
    is_flag=True,
    help="Read factor changes as if always in force: stored factors the current config "
    "derives are derived again (default: stored factors stay, as in HTCondor; before or "
    "after the view).",
)
@click.option(
    "--history",
    "history_file",
    metavar="FILE",
    type=FilePath(exists=True, allow_dash=True),
    help="Replay this usage history (CSV or JSON lines; - for stdin) for the after side, "
    "instead of the history kept beside the state (before or after the view).",
)
@click.option("--json", "as_json", is_flag=True, help="Print before, after and changes as JSON.")
@click.option(
    "--output",
    type=click.Choice(OUTPUT_FORMATS),
    default=None,
    help="table (default) or json (as --json); simulate takes every format.",
    expose_value=False,  # (read from ctx.meta: the command has as many parameters as it may)
    callback=lambda ctx, _param, value: ctx.meta.__setitem__(OUTPUT, value),
)
@click.option("--wide", is_flag=True, help="Do not fit the table to the terminal.")
@click.argument("view", type=ViewChoice(VIEWS))
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def whatif(
    ctx: click.Context,
    assignments: tuple[str, ...],
    rederive_factors: bool,
    history_file: str | None,
    as_json: bool,
    wide: bool,
    view: str,
    args: tuple[str, ...],
) -> None:
    """Compare a view under the current config and with config keys changed; nothing is written.

    \b
    Examples:
      fs whatif --set accountant.priority_halflife=3600 userprio --config sample_configs/pool.toml
      fs whatif --set 'groups."group_physics".quota=300' quota
      fs whatif --set priority.fairshare=classic sshare -a -l
      fs whatif --set accountant.default_prio_factor=4 simulate --until 6:00:00 \\
        --workload sample_configs/workload.json --plot w.png

    Prints each row's main figures before -> after, its rank change (+3, -1) in the view's
    order (sprio's by job id: -S -Y ranks the jobs by priority), rows that appear or leave,
    and a count of what moved ("no differences" when nothing did).
    With simulate, the workload runs under both configs: rows tagged before/after (a
    "policy" field in json/ndjson/csv), --plot overlays the two runs (after dashed).
    Dotted keys are the config's (docs/config.md), a real knob name as the last part too
    (accountant.PRIORITY_HALFLIFE, not PRIORITY_HALFLIFE alone); quote dotted group names.
    A half-life, slot weight, Slurm decay, QOS usage factor or partition billing_weights
    revalues recorded usage: for those the after side replays the usage history kept
    beside the state (or --history); with none kept, the output says so
    ('fs import history FILE' keeps one).
    Priority factors are read as HTCondor keeps them: a record stores its factor when it
    is first written, so new default/remote/nice-user or group prio_factor values only
    reach records that store none yet (new submitters, old states), not existing ones.
    --rederive-factors reads them as if the new values had always been in force.
    The view takes its own options after its name (fs VIEW --help lists them); sprio's
    -w, which prints the weights and no job, has nothing to compare and is refused.
    """
    from fairshare_cli.cli.whatif_replay import make_replay, needs_replay, replayed_sections
    from fairshare_cli.cli.whatif_simulate import compare_simulations

    assignments, args = take_settings(assignments, args)  # (with --json, --output, --wide,
    overrides = _overrides(assignments)  # --history: the comparison's wherever they are)
    history_file, args = take_history(ctx, history_file, args)
    rederive_factors = rederive_factors or "--rederive-factors" in args
    argv, output = take_output(
        ctx.meta.get(OUTPUT),
        [a for a in args if a not in ("--json", "--wide", "--rederive-factors")],
    )
    output = one_format(view, output, as_json or "--json" in args)
    as_json = output == "json"
    wide = wide or "--wide" in args
    if view == "negotiate" and "--dry-run" not in argv:
        argv.append("--dry-run")
    command = _view_command(ctx, view)
    ctx.meta.update({WHATIF_REDERIVE: False, WHATIF_OVERRIDES: {}, WHATIF_REPLAY: None})
    notes: list[str] = []  # what the after side could not revalue, what a side left out
    ctx.meta.update({WHATIF_SIDE: "before", WHATIF_NOTES: notes, WHATIF_TABLE: not as_json})

    def set_after() -> None:  # the view's options read the overrides from ctx.meta
        ctx.meta[WHATIF_SIDE] = "after"
        ctx.meta[WHATIF_OVERRIDES] = overrides
        ctx.meta[WHATIF_REDERIVE] = rederive_factors
        ctx.meta[WHATIF_NOTES] = notes
        if history_file is not None or needs_replay(overrides):
            ctx.meta[WHATIF_REPLAY] = make_replay(history_file, replayed_sections(overrides), notes)

    one_stdin_reader(history_file, argv)
    with stdin_kept():  # (both sides read one copy of stdin)
        if view == "simulate":
            sim_args = argv if output is None else [*argv, "--output", output]
            compare_simulations(ctx, command, sim_args, settings_text(assignments), set_after)
            for text in notes:  # (stdout holds the two series)
                click.echo(f"fs: note: {text}", err=True)
            return
        before = _view_json(ctx, command, view, argv)
        set_after()
        after = _view_json(ctx, command, view, argv)
        title = f"fs {view} with {settings_text(assignments)}: before -> after"
        _show(view, before, after, notes, title, as_json, wide, _unread(view, overrides))


def one_stdin_reader(history_file: str | None, argv: list[str]) -> None:
    """Refuse two inputs read from stdin (``-``): the comparison reads it once.

    Raises:
        click.UsageError: ``--history -`` and a view's input ``-`` both.
    """
    named = ["--history"] if history_file == "-" else []
    for name in ("--jobs-file", "--workload"):
        if "-" in option_values(name, argv, []):
            named.append(name)
    if len(named) > 1:
        raise click.UsageError(
            f"{' and '.join(named)} both read stdin ('-'); give all but one as a file"
        )


def _unread(view: str, overrides: dict[str, Any]) -> list[str]:
    """A note when no key set is one the view reads (another scheduler's)."""
    from fairshare_cli.core.operations.whatif import unread_note
    from fairshare_cli.io.config import split_dotted

    note = unread_note(view, [split_dotted(key)[0] for key in overrides])
    return [] if note is None else [note]


def _view_command(ctx: click.Context, view: str) -> click.Command:
    """The view's command.

    Raises:
        click.UsageError: a view this version does not have.
    """
    from fairshare_cli.cli.main import cli

    command = cli.get_command(ctx, view)
    if command is None:
        raise click.UsageError(f"the {view} view is not available in this version")
    return command


def _show(
    view: str,
    before: Any,
    after: Any,
    notes: list[str],
    title: str,
    as_json: bool,
    wide: bool,
    unread: list[str],
) -> None:
    """The comparison of the view's two documents, as JSON or as the table; ``unread``
    noted too where nothing differs (no key set is one the view reads)."""
    from fairshare_cli.core.operations.whatif import compare, diff_json, match_changes, rows_of

    matches = match_changes(view, before, after)
    diff = compare(view, rows_of(view, before), rows_of(view, after), matches)
    if not diff.rows:  # ("no differences" alone reads as: the change does nothing)
        jobs = "; its jobs come from the state's queue or --jobs-file FILE"
        notes = [
            f"fs {view} shows no rows under either config, so nothing can differ"
            + (jobs if view in ("sprio", "negotiate", "taskqueues") else ""),
            *notes,
        ]
    if diff.no_differences:
        notes = [*notes, *unread]
    if (
        diff.no_differences
        and not unread
        and view == "sshare"
        and not any(r.get("user") for r in before)
    ):
        notes.append(  # (sshare's default: the accounts and the calling user's own rows)
            "fs sshare shows no user's row here (without -a or -u, sshare lists the calling"
            " user's alone): add -a to compare every user's"
        )
    if as_json:
        from fairshare_cli.core.jsontext import dumps_indented  # (plain JSON values: as json.dumps)

        click.echo(dumps_indented(diff_json(diff, before, after, notes)))
        return
    from fairshare_cli.render.whatif import render_diff

    render_diff(diff, title, wide=wide, notes=notes)


def option_values(name: str, args: Iterable[str], others: list[str]) -> Iterator[str]:
    """The values of option ``name`` in ``args`` (``NAME VALUE`` or ``NAME=VALUE``), one
    by one as they come; every other argument is appended to ``others``.

    Raises:
        click.UsageError: ``name`` last, without its value.
    """
    rest = iter(args)
    for arg in rest:
        if arg == name:
            value = next(rest, None)
            if value is None:
                raise click.UsageError(f"Option '{name}' requires an argument.")
            yield value
        elif arg.startswith(name + "="):
            yield arg.partition("=")[2]
        else:
            others.append(arg)


def take_settings(
    own: tuple[str, ...], args: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every ``--set`` on the line, before the view and after it (no view has a ``--set``
    of its own: ``fs whatif userprio --set K=V`` said "Missing option '--set'"), and the
    view's arguments without them.

    Raises:
        click.UsageError: no ``--set`` at all, or one without its value.
    """
    argv: list[str] = []
    found = [*own, *option_values("--set", args, argv)]
    if not found:
        raise click.UsageError("Missing option '--set KEY=VALUE': the config key to change.")
    return tuple(found), tuple(argv)


def take_history(
    ctx: click.Context, own: str | None, args: tuple[str, ...]
) -> tuple[str | None, tuple[str, ...]]:
    """The ``--history FILE`` given before the view or after it (no view has one of its
    own: ``fs whatif --set K=V userprio --history FILE`` was refused as userprio's unknown
    option), checked as the option before the view is, and the view's arguments without it.

    Raises:
        click.UsageError: its value missing, not a file, or two that differ.
    """
    argv: list[str] = []
    found = own
    for value in option_values("--history", args, argv):
        if found not in (None, value):  # (as fs refuses a file option given twice)
            raise click.UsageError(
                f"--history is given twice ('{found}' and '{value}'); give it once"
            )
        option = next(p for p in ctx.command.params if p.name == "history_file")
        given = FilePath(exists=True, allow_dash=True)
        found = str(given.convert(value, option, ctx))
    return found, tuple(argv)


def take_output(own: str | None, args: list[str]) -> tuple[list[str], str | None]:
    """The view's arguments without ``--output FMT`` (or ``--output=FMT``), and the format
    given there or before the view.

    Raises:
        click.UsageError: a format that is not one, or two that differ.
    """
    argv: list[str] = []
    found = own
    for value in option_values("--output", args, argv):
        if value not in OUTPUT_FORMATS:
            raise click.UsageError(
                f"--output {value!r}: expected one of {', '.join(OUTPUT_FORMATS)}"
            )
        if found not in (None, value):
            raise click.UsageError(f"--output {found} and --output {value} disagree; give one")
        found = value
    return argv, found


def one_format(view: str, output: str | None, as_json: bool) -> str | None:
    """The comparison's format: ``--output``'s, ``json`` for ``--json``, else None (a table).

    Raises:
        click.UsageError: ``--json`` with another ``--output``; ndjson or csv for a view
            other than simulate (the comparison is one document: a table or JSON).
    """
    if as_json and output not in (None, "json"):
        raise click.UsageError(f"--json and --output {output} disagree; give one of them")
    if as_json:
        return "json"
    if output in ("ndjson", "csv") and view != "simulate":
        raise click.UsageError(
            f"--output {output}: fs whatif {view} prints one table or one JSON document "
            "(--output table, --output json or --json)"
        )
    return output


def settings_text(assignments: tuple[str, ...]) -> str:
    """The ``--set`` assignments as given (``enabled=false``, not Python's ``False``)."""
    return ", ".join(" ".join(a.split()) for a in assignments)


def _view_json(ctx: click.Context, command: click.Command, view: str, argv: list[str]) -> Any:
    """Run the view with ``--json`` and return what it printed, parsed."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
    from fairshare_cli.cli.whatif_simulate import view_context, view_usage

    try:
        with (
            view_usage(ctx, command, view),
            contextlib.redirect_stdout(out),
            view_context(ctx, command, view, ["--json", *argv]) as sub,
        ):
            weights = view == "sprio" and bool(sub.params.get("weights"))
            if not weights:
                command.invoke(sub)
        if weights:  # (whatif's own refusal, not sprio's: it points at fs whatif --help)
            raise click.UsageError(
                "fs whatif sprio compares the jobs' priorities and sprio -w prints no "
                "job, only the weights (fs config check shows them): drop -w",
                ctx,
            )
    except click.exceptions.Exit:
        # an option of the view that prints and ends the command (--help, sprio's
        # --helpformat, --usage): what it printed is the answer, not a view to compare
        out.flush()
        click.echo(raw.getvalue().decode("utf-8"), nl=False)
        raise
    out.flush()
    from fairshare_cli.io.inputs import loads

    return loads(raw.getvalue().decode("utf-8"))
