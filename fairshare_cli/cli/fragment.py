"""Configuration fragments from the importers: printed as TOML, or merged with ``--into``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:  # tomlkit only when a fragment is written: `fs import --help` stays light
    from fairshare_cli.io.toml_merge import Fragment

F = TypeVar("F", bound=Callable[..., Any])


def fragment_options(func: F) -> F:
    """``--into CONFIG``, ``--replace``, ``--dry-run`` and ``-v`` for kinds that make
    configuration."""
    func = click.option(
        "-v",
        "--verbose",
        is_flag=True,
        help="List every ignored name, one per line (the summary shows the first few).",
    )(func)
    func = click.option(
        "--dry-run",
        is_flag=True,
        help="With --into: show what would change; write nothing.",
    )(func)
    func = click.option(
        "--replace",
        is_flag=True,
        help="With --into: overwrite keys the config already has with other values.",
    )(func)
    func = click.option(
        "--into",
        "into",
        metavar="CONFIG",
        type=click.Path(dir_okay=False),
        help="Merge into this pool config (keeps its comments and other keys) "
        "instead of printing a TOML fragment.",
    )(func)
    return func


def emit_fragment(
    fragment: Fragment,
    into: str | None,
    replace: bool,
    dry_run: bool,
    summary: str,
    ignored: Iterable[str] = (),
    verbose: bool = False,
) -> None:
    """Print ``fragment`` as TOML (stdout), or merge it into ``into``; summary on stderr.

    ``summary`` says what came in ("12 knobs, 3 groups"); ``ignored`` names what the input
    had that the config does not model: counted on the summary line with the first few
    names, and with ``verbose`` every name after it, one per line.

    Raises:
        ConfigError: ``into`` is not valid TOML, a value differs without ``replace``, or
            the merged config is invalid (nothing written).
    """
    from fairshare_cli.io.config import build_config
    from fairshare_cli.io.toml_merge import fragment_text, merge_into_file

    skipped = sorted(set(ignored))
    note = f"; ignored {len(skipped)}: {_first_names(skipped, verbose)}" if skipped else ""
    if into is None:
        click.echo(fragment_text(fragment), nl=False)
        click.echo(f"{summary}{note}", err=True)
    else:
        report = merge_into_file(Path(into), fragment, replace, build_config, dry_run=dry_run)
        verb = "would merge" if dry_run else "merged"
        changes = f"{len(report.added)} added, {len(report.replaced)} replaced, " + (
            f"{len(report.unchanged)} unchanged"
        )
        click.echo(f"{verb} into {into}: {summary} ({changes}){note}", err=True)
    if verbose:
        for name in skipped:
            click.echo(name, err=True)


def check_fragment(fragment: Fragment, into: str | None, replace: bool) -> None:
    """Refuse now what :func:`emit_fragment` would refuse merging ``fragment`` into
    ``into`` (nothing to check without ``into``), so that a command writing its state
    first writes nothing when the merge would be refused.

    Raises:
        ConfigError: see :func:`emit_fragment`.
    """
    from fairshare_cli.io.config import build_config
    from fairshare_cli.io.toml_merge import merge_into_file

    if into is not None:
        merge_into_file(Path(into), fragment, replace, build_config, dry_run=True)


#: How many ignored names the summary line shows.
SHOWN_NAMES = 12


def _first_names(names: list[str], verbose: bool) -> str:
    """``a, b, c`` and, beyond :data:`SHOWN_NAMES`, how many more (and that ``-v`` lists
    them, unless it is given)."""
    shown = ", ".join(names[:SHOWN_NAMES])
    more = len(names) - SHOWN_NAMES
    if more <= 0:
        return shown
    return f"{shown} (+{more} more{'' if verbose else '; -v lists them'})"
