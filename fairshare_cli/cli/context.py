"""Load what a command needs: config, state and ``now``; and the read-modify-write cycle."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import click

from fairshare_cli.core.config import Config
from fairshare_cli.core.jobs import parse_time
from fairshare_cli.core.state import SectionError, State
from fairshare_cli.errors import ConfigError, StateError
from fairshare_cli.io.config import load_config
from fairshare_cli.io.paths import user_config_file, user_state_file
from fairshare_cli.io.state import load_state, save_state, state_lock

T = TypeVar("T")


def resolve_config_path(given: str | None) -> Path:
    """``--config``, else ``./fairshare.toml``, else the user config file.

    Raises:
        ConfigError: none exists.
    """
    if given:
        return Path(given)
    for candidate in (Path("fairshare.toml"), user_config_file()):
        if candidate.is_file():
            return candidate
    raise ConfigError(
        "no pool config found (looked for ./fairshare.toml and "
        f"{user_config_file()}); run 'fs init' to write one, or pass "
        "--config sample_configs/pool.toml"
    )


def resolve_state_path(given: str | None, config: Config) -> Path:
    """``--state``, else ``[pool] state`` relative to the config file, else the user state."""
    if given:
        return Path(given)
    if config.pool.state:
        return Path(config.path).parent / config.pool.state
    return user_state_file()


def resolve_now(given: str | None) -> float:
    """``--now`` as epoch seconds; the clock (read here, once) when absent.

    Raises:
        InputError: not epoch seconds or ISO-8601.
    """
    if given is None or given == "":
        return time.time()
    return parse_time(given, "--now")


@dataclass
class Env:
    """What a command works with."""

    config: Config
    state: State
    now: float
    state_path: Path

    def decode(self, name: str, decoder: Callable[[Any], T]) -> T:
        """Decode one state section, naming the state file on failure.

        Raises:
            StateError: the section is malformed.
        """
        with self.section_errors():
            return decoder(self.state.section(name))

    @contextlib.contextmanager
    def section_errors(self) -> Iterator[None]:
        """Turn a malformed state section (``SectionError``) into a ``StateError`` naming
        the state file.

        Raises:
            StateError: the body met a malformed section.
        """
        try:
            yield
        except SectionError as exc:
            raise StateError(f"state file {self.state_path}: {exc}") from None


#: ``ctx.meta`` key of the config overrides ``fs whatif --set`` hands to the view it runs.
WHATIF_OVERRIDES = "fairshare_cli.whatif_overrides"


@dataclass
class GlobalOptions:
    """The options every command shares, gathered on Click's context by their callbacks.

    Attributes:
        config_path: ``--config`` (None: ``./fairshare.toml``, else the user config).
        state_path: ``--state`` (None: ``[pool] state``, else the user state).
        now: ``--now`` as given (None: the clock, read once by :meth:`when`).
        output_choice: ``--output``; ``as_json``: ``--json`` (see :attr:`output`).
        overrides: config keys changed by ``fs whatif --set`` (read-only views only).
    """

    config_path: str | None = None
    state_path: str | None = None
    now: str | None = None
    output_choice: str = "table"
    as_json: bool = False
    overrides: Mapping[str, Any] = field(default_factory=dict)
    _when: float | None = field(default=None, repr=False)

    @property
    def output(self) -> str:
        """The format chosen by ``--output`` / ``--json``."""
        return "json" if self.as_json else self.output_choice

    def when(self) -> float:
        """``--now`` as epoch seconds, resolved (and the clock read) once.

        Raises:
            InputError: not epoch seconds or ISO-8601.
        """
        if self._when is None:
            self._when = resolve_now(self.now)
        return self._when


def global_options(ctx: click.Context) -> GlobalOptions:
    """The command's :class:`GlobalOptions`, made on first use (with ``whatif``'s overrides)."""
    found = ctx.find_object(GlobalOptions)
    if found is None:
        found = GlobalOptions(overrides=dict(ctx.meta.get(WHATIF_OVERRIDES, {})))
        ctx.obj = found
    return found


#: Passes the command's :class:`GlobalOptions` as its first argument.
pass_options = click.make_pass_decorator(GlobalOptions)


def load_env(opts: GlobalOptions) -> Env:
    """Config, state and ``now`` for a read-only command (``whatif`` overrides applied).

    Raises:
        FairshareError: any of them is missing or invalid.
    """
    overrides = opts.overrides or None
    when = opts.when()
    cpath = resolve_config_path(opts.config_path)
    config = load_config(cpath, overrides)
    spath = resolve_state_path(opts.state_path, config)
    return Env(config=config, state=load_state(spath), now=when, state_path=spath)


@contextlib.contextmanager
def mutate_state(opts: GlobalOptions, dry_run: bool = False) -> Iterator[Env]:
    """Lock the state, load it, let the caller replace ``env.state``, then save once.

    Nothing is written when the body raises or when ``dry_run`` is set.

    Raises:
        FairshareError: loading failed; the state file is untouched.
    """
    when = opts.when()
    cpath = resolve_config_path(opts.config_path)
    config = load_config(cpath)
    spath = resolve_state_path(opts.state_path, config)
    with state_lock(spath):
        env = Env(config=config, state=load_state(spath), now=when, state_path=spath)
        before = env.state
        with env.section_errors():
            yield env
        if not dry_run and env.state is not before:
            save_state(spath, env.state)
