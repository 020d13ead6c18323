"""Options every command shares, as small decorators."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

OUTPUT_FORMATS = ("table", "json", "ndjson", "csv")


def common_options(func: F) -> F:
    """``--config``, ``--state`` and ``--now`` (with their FAIRSHARE_* variables)."""
    func = click.option(
        "--now",
        "now",
        envvar="FAIRSHARE_NOW",
        metavar="WHEN",
        help="Evaluate at this time: epoch seconds or ISO-8601 (default: the clock).",
    )(func)
    func = click.option(
        "--state",
        "state_path",
        envvar="FAIRSHARE_STATE",
        metavar="PATH",
        type=click.Path(dir_okay=False),
        help="State file (default: [pool] state in the config, else the user state dir).",
    )(func)
    func = click.option(
        "--config",
        "config_path",
        envvar="FAIRSHARE_CONFIG",
        metavar="PATH",
        type=click.Path(dir_okay=False),
        help="Pool config (default: ./fairshare.toml, else the user config dir).",
    )(func)
    return func


def output_options(func: F) -> F:
    """``--output table|json|ndjson|csv`` and ``--json`` as a shorthand."""
    func = click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="Shorthand for --output json.",
    )(func)
    func = click.option(
        "--output",
        "output",
        type=click.Choice(OUTPUT_FORMATS),
        default=None,
        help="Output format  [default: table]",
    )(func)
    return func


def output_format(output: str | None, as_json: bool) -> str:
    """The format chosen by ``--output`` / ``--json`` (table when neither is given).

    Raises:
        click.UsageError: ``--json`` with an ``--output`` other than json.
    """
    if as_json and output not in (None, "json"):
        raise click.UsageError(f"--json and --output {output} disagree; give one of them")
    return "json" if as_json else (output or "table")


def dry_run_option(func: F) -> F:
    """``--dry-run``: show the change, write nothing."""
    return click.option(
        "--dry-run",
        is_flag=True,
        help="Show what would change; do not write the state.",
    )(func)
