"""Options every command shares, as small decorators that fill :class:`GlobalOptions`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from fairshare_cli.cli.context import GlobalOptions, global_options, pass_options
from fairshare_cli.core.names import c_number_text
from fairshare_cli.core.timestr import TimeStringError, time_str2secs, unit_hint
from fairshare_cli.errors import InputError

F = TypeVar("F", bound=Callable[..., Any])

OUTPUT_FORMATS = ("table", "json", "ndjson", "csv")

__all__ = ["GlobalOptions", "common_options", "dry_run_option", "output_options", "pass_options"]


def store_option(attr: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A callback that stores the option's value on the command's :class:`GlobalOptions`."""

    def store(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        setattr(global_options(ctx), attr, value)
        return value

    return store


class EnvOption(click.Option):
    """An option that may come from its environment variable: a value click refuses (a
    folder for ``--config``) is named by the variable it came from, not by the option the
    user never typed."""

    def get_error_hint(self, ctx: click.Context | None) -> str:
        from click.core import ParameterSource

        name = self.name
        if (
            ctx is not None
            and name is not None
            and isinstance(self.envvar, str)
            and ctx.get_parameter_source(name) is ParameterSource.ENVIRONMENT
        ):
            return self.envvar
        return super().get_error_hint(ctx)


class FilePath(click.Path):
    """A file's path (``click.Path(dir_okay=False)``), refusing one that ends in ``/``:
    ``--state st.json/`` was read and written as ``st.json`` (the path was normalised),
    where the system says that ``st.json/`` is no folder (``cat st.json/``)."""

    def __init__(self, exists: bool = False, allow_dash: bool = False) -> None:
        super().__init__(dir_okay=False, exists=exists, allow_dash=allow_dash)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        import os

        text = os.fsdecode(value) if isinstance(value, bytes) else str(value)
        if text.rstrip("/") and text.endswith("/"):
            self.fail(
                f"{text!r} ends in '/', so it names a folder; give the file's path", param, ctx
            )
        return super().convert(value, param, ctx)


def config_option(func: F) -> F:
    """``--config`` (with FAIRSHARE_CONFIG)."""
    return click.option(
        "--config",
        "config_path",
        cls=EnvOption,
        envvar="FAIRSHARE_CONFIG",
        metavar="PATH",
        type=FilePath(),
        help="Pool config (default: ./fairshare.toml, else the user config dir).",
        expose_value=False,
        callback=_path_store("config_path", must_exist=True),
    )(func)


def _path_store(attr: str, must_exist: bool = False) -> Callable[..., Any]:
    """A callback that stores a path option (:func:`store_option`), refusing a typed empty
    path (``--config "$UNSET"`` fell back to ./fairshare.toml in silence), one of blanks
    only (as ``[pool] state`` is) and, where ``must_exist``, a missing file named by the
    option's variable, naming the variable (the loader's error would name the file alone,
    to an admin who typed no option) before the loader's words."""
    store = store_option(attr)

    def check(ctx: click.Context, param: click.Parameter, value: Any) -> Any:

        from click.core import ParameterSource

        source = ctx.get_parameter_source(param.name) if param.name else None
        if value == "" and source is ParameterSource.COMMANDLINE:
            raise click.BadParameter("an empty path; give a file's path, or leave it out")
        if value and not value.strip():  # (--state " ": a state file named " " in silence)
            raise click.BadParameter(
                f"{value!r} is only blanks; give a file's path, or leave it out"
            )
        # ("-": the loader says why standard input is no config)
        missing = must_exist and value and value != "-" and _not_there(value)
        if missing and source is ParameterSource.ENVIRONMENT:
            from pathlib import Path

            from fairshare_cli.io.config import sample_hint
            from fairshare_cli.io.inputs import no_such_file

            raise click.BadParameter(f"{no_such_file(value)}{sample_hint(Path(value))}", ctx, param)
        if attr == "config_path" and source is ParameterSource.ENVIRONMENT and value != "-":
            _note_config_elsewhere(ctx, value)
        return store(ctx, param, value)

    return check


def _not_there(path: str) -> bool:
    """No file at ``path``: none, or a symbolic link to none (a link to nothing named by
    FAIRSHARE_CONFIG was told "File ... does not exist." without the variable's name). A
    loop of links is there: the loader says what it is."""
    import os

    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return True
    except OSError:
        return False
    return False


def _note_config_elsewhere(ctx: click.Context, value: str) -> None:
    """Say on stderr that FAIRSHARE_CONFIG names a config other than the
    ``./fairshare.toml`` of the current folder, which it hides (a variable left set from
    another pool), once a command."""
    import os

    here = "fairshare.toml"
    root = ctx.find_root()
    if ctx.resilient_parsing or root.meta.get("fs.config_elsewhere"):
        return
    try:
        elsewhere = os.path.isfile(here) and not os.path.samefile(here, value)
    except OSError:  # (a config that cannot be looked at: the loader says why)
        return
    if elsewhere:
        root.meta["fs.config_elsewhere"] = True
        click.echo(
            f"fs: note: the config is {value} (FAIRSHARE_CONFIG), not ./fairshare.toml of "
            "this folder; pass --config fairshare.toml (or unset FAIRSHARE_CONFIG) for that one",
            err=True,
        )


def no_empty_path(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A callback refusing an empty path, which stood for no path or the current folder
    (``--workload "$UNSET"`` ran the state's queue, ``--out ""`` wrote the default folder,
    ``--example ""`` the sample pool into the current one, all in silence)."""
    if isinstance(value, str) and not value.strip() and not ctx.resilient_parsing:
        more = ", or leave it out" if isinstance(param, click.Option) else ""
        what = f"{value!r} is only blanks" if value else "an empty path"  # (--example " ")
        raise click.BadParameter(f"{what}; give a path{more}", ctx, param)
    return value


def output_file(what: str, writable: bool = True) -> Callable[..., Any]:
    """A callback for an option that names a file fs writes (``--html``, ``--into``):
    refused before any work when its folder is missing (exit 2, naming the folder, as
    ``--plot`` is) or, where ``writable``, read-only (exit 1)."""

    def check(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is not None and not ctx.resilient_parsing:
            from fairshare_cli.io.paths import check_output_file

            check_output_file(value, param.opts[0], what, writable)
        return value

    return check


def _now_store(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Store ``--now`` (:func:`store_option`), refusing a typed empty time: ``--now
    "$UNSET"`` read the clock in silence, which a script that meant a fixed time never
    notices (an empty FAIRSHARE_NOW is unset, as for every variable)."""
    from click.core import ParameterSource

    if (
        value is not None
        and not value.strip()
        and (ctx.get_parameter_source("now") is ParameterSource.COMMANDLINE)
    ):
        raise click.BadParameter(
            "an empty time; give epoch seconds or an ISO-8601 time like "
            "2026-11-21T12:00:00Z, or leave --now out to read the clock"
        )
    return store_option("now")(ctx, param, value)


def common_options(func: F) -> F:
    """``--config``, ``--state`` and ``--now`` (with their FAIRSHARE_* variables)."""
    func = click.option(
        "--now",
        "now",
        cls=EnvOption,
        envvar="FAIRSHARE_NOW",
        metavar="WHEN",
        help="Evaluate at this time: epoch seconds or ISO-8601, UTC unless it names a "
        "zone (default: the clock).",
        expose_value=False,
        callback=_now_store,
    )(func)
    func = click.option(
        "--state",
        "state_path",
        cls=EnvOption,
        envvar="FAIRSHARE_STATE",
        metavar="PATH",
        type=FilePath(),
        help="State file (default: [pool] state in the config, else the user state dir).",
        expose_value=False,
        callback=_path_store("state_path"),
    )(func)
    return config_option(func)


def output_options(func: F) -> F:
    """``--output table|json|ndjson|csv`` and ``--json`` as a shorthand."""
    func = click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="Shorthand for --output json.",
        expose_value=False,
        callback=store_option("as_json"),
    )(func)
    func = click.option(
        "--output",
        "output",
        type=click.Choice(OUTPUT_FORMATS),
        default=None,
        help="Output format  [default: table]",
        expose_value=False,
        callback=store_option("output_choice"),
    )(func)
    return func


def dry_run_option(func: F) -> F:
    """``--dry-run``: show the change, write nothing."""
    return click.option(
        "--dry-run",
        is_flag=True,
        help="Show what would change; do not write the state.",
    )(func)


def wide_option(func: F) -> F:
    """``--wide``: tables at their natural width, however wide the terminal."""
    return click.option(
        "--wide",
        is_flag=True,
        help="Print tables at full width (default: fit the terminal, numbers never cut).",
    )(func)


def _c_int(value: Any) -> int:
    """``int(value)`` for a whole number as C's ``strtol`` reads one: Python's ``int`` also
    reads ``1_000`` (C: 1) and other scripts' digits (``٣``, ``１``; C: none).

    Raises:
        ValueError: ``value`` is text C would not read so (click words it).
    """
    if isinstance(value, str) and not c_number_text(value):
        raise ValueError(value)
    return int(value)


def _c_float(value: Any) -> float:
    """``float(value)`` for a number as C's ``atof`` reads one (as :func:`_c_int`).

    Raises:
        ValueError: ``value`` is text C would not read so (click words it).
    """
    if isinstance(value, str) and not c_number_text(value):
        raise ValueError(value)
    return float(value)


class CFloat(click.types.FloatParamType):
    """``type=float`` for a number as the real tools (C) read it (:func:`_c_float`)."""

    _number_class = staticmethod(_c_float)  # type: ignore[assignment]


class CInt(click.types.IntParamType):
    """``type=int`` for a whole number as the real tools (C) read it (:func:`_c_int`)."""

    _number_class = staticmethod(_c_int)  # type: ignore[assignment]


class CIntRange(click.IntRange):
    """``click.IntRange`` for a whole number as the real tools (C) read it (:func:`_c_int`)."""

    _number_class = staticmethod(_c_int)  # type: ignore[assignment]


def duration(text: str, what: str, start: tuple[float, str, str] | None = None) -> float:
    """Seconds from a number or a Slurm time string (``"2-0"`` is two days). ``start``:
    the time the length runs from, its name (``--now``) and how a length is given
    (``--until {}``), to name the length a point in time given instead would be.

    Raises:
        InputError: neither, or not positive.
    """
    try:
        if not c_number_text(text):  # ("1_000", "٣": Python's float reads them, C's not)
            raise ValueError(text)
        secs = float(text)
    except ValueError:
        try:
            secs = time_str2secs(text)
        except TimeStringError as exc:  # (Slurm's bare M is minutes; ours is seconds)
            _refuse_a_time(text, what, start)
            hint = unit_hint(text)
            raise InputError(f"{what}: {exc}; here a plain number is seconds{hint}") from None
    if not secs > 0 or secs == float("inf"):  # ("INFINITE", "1e400": positive, not finite)
        raise InputError(f"{what}: expected a finite duration above 0 seconds, got '{text}'")
    return secs


def _refuse_a_time(text: str, what: str, start: tuple[float, str, str] | None) -> None:
    """Refuse a point in time (``--until 2026-11-21T18:00:00Z``) given for a duration,
    saying so, and with ``start`` (the time the length runs from, its name and how a
    length is given) the length that time is from it; a text that is no time is left to
    the duration's own refusal.

    Raises:
        InputError: ``text`` reads as an ISO-8601 time.
    """
    from fairshare_cli.core.epoch import parse_time

    try:
        when = parse_time(text, what)
    except InputError:
        return
    told = f'{what}: "{text}" is a point in time, not a duration'
    if start is not None:
        from fairshare_cli.core.jsontext import iso
        from fairshare_cli.core.timestr import format_slurm_time

        since, name = start[0], f"{start[1]} {iso(start[0])}"
        if when > since:
            length = format_slurm_time(when - since)
            give = start[2].format(length)
            raise InputError(f"{told}; it is {length} after {name}: give {give}")
        told += f", and not after {name}, where the run starts"
    raise InputError(
        f"{told}; give a length of time: seconds or a Slurm time string (6:00:00 is six hours)"
    )
