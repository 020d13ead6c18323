"""Configuration fragments from the importers: printed as TOML, or merged with ``--into``."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from fairshare_cli.cli.options import output_file

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
        callback=output_file("config file", writable=False),
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
    echo: Callable[..., None] = click.echo,
) -> None:
    """Print ``fragment`` as TOML (stdout), or merge it into ``into``; summary on stderr
    (both by ``echo``).

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
        echo(fragment_text(fragment), nl=False)
        echo(f"{summary}{note}", err=True)
    else:
        report = merge_into_file(Path(into), fragment, replace, build_config, dry_run=dry_run)
        verb = "would merge" if dry_run else "merged"
        changes = f"{len(report.added)} added, {len(report.replaced)} replaced, " + (
            f"{len(report.unchanged)} unchanged"
        )
        echo(f"{verb} into {into}: {summary} ({changes}){note}", err=True)
    if verbose:
        for name in skipped:
            echo(name, err=True)


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


@contextlib.contextmanager
def merged_last(into: str | None, dry_run: bool) -> Iterator[Callable[..., None]]:
    """A ``click.echo`` for :func:`emit_fragment` whose lines are said once the body is done,
    and the config ``into`` put back as it was (removed, if it was not there) when the body
    fails after merging into it: ``fs import condor-status --into`` merges the machines,
    then writes the claims on them into the state, and a state that cannot be written (a
    full disk, Ctrl-C) leaves neither file changed, nor a line saying it was merged. A
    config that cannot be put back stays merged (machines without claims: run it again)."""
    said: list[tuple[Any, Any]] = []
    path = None if into is None or dry_run else Path(into)
    try:  # (a file only: a link to /dev/zero was read until the memory ran out)
        old: bytes | None = path.read_bytes() if path is not None and path.is_file() else None
    except OSError:
        old = None
    try:
        yield lambda *args, **kwargs: said.append((args, kwargs))
    except BaseException:
        if path is not None:
            _put_back(path, old)
        raise
    for args, kwargs in said:
        click.echo(*args, **kwargs)


def _put_back(path: Path, old: bytes | None) -> None:
    """``path`` with the bytes ``old`` again (None: removed), if it has others."""
    from fairshare_cli.errors import FairshareError
    from fairshare_cli.io.atomic import atomic_write_text

    with contextlib.suppress(OSError, FairshareError):
        if (path.read_bytes() if path.is_file() else None) != old:
            if old is None:
                path.unlink()
            else:
                atomic_write_text(path, [old], "config file", mode=os.stat(path).st_mode & 0o777)
