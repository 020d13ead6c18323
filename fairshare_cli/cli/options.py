"""Options every command shares, as small decorators that fill :class:`GlobalOptions`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from fairshare_cli.cli.context import GlobalOptions, global_options, pass_options

F = TypeVar("F", bound=Callable[..., Any])

OUTPUT_FORMATS = ("table", "json", "ndjson", "csv")

__all__ = ["GlobalOptions", "common_options", "dry_run_option", "output_options", "pass_options"]


def store_option(attr: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A callback that stores the option's value on the command's :class:`GlobalOptions`."""

    def store(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        setattr(global_options(ctx), attr, value)
        return value

    return store


class FilePath(click.Path):
    """``click.Path(dir_okay=False)`` whose refusal names the variable the value came from
    (``FAIRSHARE_CONFIG=.``: 'Invalid value for FAIRSHARE_CONFIG', not for '--config')."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False)

    def fail(
        self, message: str, param: click.Parameter | None = None, ctx: click.Context | None = None
    ) -> Any:
        env = getattr(param, "envvar", None)
        name = getattr(param, "name", None)
        source = ctx.get_parameter_source(name) if ctx is not None and name else None
        if isinstance(env, str) and source is click.core.ParameterSource.ENVIRONMENT:
            raise click.BadParameter(message, ctx=ctx, param_hint=env)
        return super().fail(message, param, ctx)


def config_option(func: F) -> F:
    """``--config`` (with FAIRSHARE_CONFIG)."""
    return click.option(
        "--config",
        "config_path",
        envvar="FAIRSHARE_CONFIG",
        metavar="PATH",
        type=FilePath(),
        help="Pool config (default: ./fairshare.toml, else the user config dir).",
        expose_value=False,
        callback=store_option("config_path"),
    )(func)


def common_options(func: F) -> F:
    """``--config``, ``--state`` and ``--now`` (with their FAIRSHARE_* variables)."""
    func = click.option(
        "--now",
        "now",
        envvar="FAIRSHARE_NOW",
        metavar="WHEN",
        help="Evaluate at this time: epoch seconds or ISO-8601 (default: the clock).",
        expose_value=False,
        callback=store_option("now"),
    )(func)
    func = click.option(
        "--state",
        "state_path",
        envvar="FAIRSHARE_STATE",
        metavar="PATH",
        type=FilePath(),
        help="State file (default: [pool] state in the config, else the user state dir).",
        expose_value=False,
        callback=store_option("state_path"),
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
