"""Where a command's config and state are and what time ``now`` is: ``--config``,
``--state`` and ``--now`` resolved (the defaults, links, a missing folder, the clock read
once), and which of them an error names."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from fairshare_cli.errors import ConfigError, InputError

if TYPE_CHECKING:
    from fairshare_cli.core.config import Config


def resolve_config_path(given: str | None) -> Path:
    """``--config``, else ``./fairshare.toml``, else the user config file.

    Raises:
        ConfigError: none exists, a folder to look in cannot be read, or it is standard
            input or a pipe (:func:`~fairshare_cli.io.paths.refuse_stream`).
    """
    from fairshare_cli.io.paths import refuse_stream, user_config_file

    if given:
        refuse_stream(Path(given), "config file")
        return Path(given)
    for candidate in (Path("fairshare.toml"), user_config_file()):
        try:
            if candidate.is_file():
                return candidate
        except OSError as exc:  # a folder we may not look in (another user's HOME)
            raise ConfigError(
                f"cannot look for a config at {candidate}: {exc.strerror}; pass --config PATH "
                "(or set FAIRSHARE_CONFIG)"
            ) from None
    raise ConfigError(
        "no pool config found (looked for ./fairshare.toml and "
        f"{user_config_file()}); run 'fs init' to write one, or 'fs init --example "
        "sample_configs' for the sample pool and pass --config sample_configs/pool.toml"
    )


def resolve_state_path(given: str | None, config: Config, found: bool = False) -> Path:
    """``--state``, else ``[pool] state`` relative to the config file (a link's: the file it
    names), else the user state; a symbolic link as the file it names
    (:func:`~fairshare_cli.io.atomic.through_link`). A ``given`` path that fs ``found``
    itself (a sweep's manifest) may be in a missing folder, as the user state may.

    Raises:
        InputError: the state's folder is missing; a link into a missing folder, or a loop.
        StateError: it is standard input, or a pipe (:func:`~fairshare_cli.io.paths.refuse_stream`).
    """
    from fairshare_cli.io.atomic import through_link
    from fairshare_cli.io.paths import refuse_stream, user_state_file

    if given:
        path = Path(given)
    elif config.pool.state:  # (beside the file a config's link names, as the state's)
        path = through_link(Path(config.path)).parent / config.pool.state
    else:
        found, path = True, user_state_file()
    refuse_stream(path, "state file")
    return through_link(path) if found else existing_folder(through_link(path))


#: ``ctx.meta`` key of the notes printed once the command has run (:func:`note_when_done`).
NOTES_WHEN_DONE = "fairshare_cli.notes_when_done"


def note_when_done(text: str) -> None:
    """``fs: note: text`` on stderr once the command has run well (``cli/main.py``'s group
    prints them; a refusal prints its one error line alone), each text once (``fs whatif``
    runs its view twice)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        click.echo(f"fs: note: {text}", err=True)
        return
    notes = ctx.meta.setdefault(NOTES_WHEN_DONE, [])
    if text not in notes:
        notes.append(text)


def print_notes_when_done(ctx: click.Context) -> None:
    """The notes :func:`note_when_done` kept, on stderr, once the command has run."""
    for note in ctx.meta.pop(NOTES_WHEN_DONE, ()):
        click.echo(f"fs: note: {note}", err=True)


def note_missing_state(path: Path) -> None:
    """A note when a view reads a state file that was named (``--state``,
    ``$FAIRSHARE_STATE``, ``[pool] state``) but does not exist: a mistyped name had read
    as an empty pool, its table of no one, without a word."""
    if not os.path.lexists(path):
        note_when_done(
            f"state file {path} does not exist: read as an empty pool (no usage, no jobs)"
        )


def existing_folder(path: Path) -> Path:
    """``path``, once its folder is known to exist (or ``--create-dirs`` lets fs make it).

    Raises:
        InputError: the folder is missing and ``--create-dirs`` was not given.
    """
    ctx = click.get_current_context(silent=True)
    if path.parent.exists() or (ctx is not None and ctx.meta.get("fs.create_dirs")):
        return path
    raise InputError(
        f"state folder {path.parent} does not exist; create it, or pass --create-dirs "
        "to let fs create it"
    )


def resolve_now(given: str | None) -> float:
    """``--now`` as whole epoch seconds; the clock (read here, once) when absent.

    A fraction of a second is dropped, from ``--now`` and from the clock alike: the
    daemons read the time as ``time(0)`` (whole seconds), so an accountant update at
    12:00:00.7 charges and decays the interval up to 12:00:00 and stamps that second.

    Raises:
        InputError: not epoch seconds or ISO-8601.
    """
    if given is None or given == "":
        return float(math.floor(time.time()))
    from fairshare_cli.core.epoch import parse_time

    return float(math.floor(parse_time(given, now_source())))


def now_source() -> str:
    """``FAIRSHARE_NOW`` when the time came from it, ``--now`` when typed, else (no time
    given: the clock was read) ``the clock``: what an error names."""
    ctx = click.get_current_context(silent=True)
    given = ctx is None
    while ctx is not None:
        source = ctx.get_parameter_source("now")
        if source is click.core.ParameterSource.ENVIRONMENT:
            return "FAIRSHARE_NOW"
        given = given or source is click.core.ParameterSource.COMMANDLINE
        ctx = ctx.parent
    return "--now" if given else "the clock"
