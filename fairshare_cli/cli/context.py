"""Load what a command needs: config, state and ``now``; and the read-modify-write cycle."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from fairshare_cli.core.config import Config
from fairshare_cli.core.jobs import parse_time
from fairshare_cli.core.state import SectionError, State
from fairshare_cli.errors import ConfigError, InputError, StateError
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
    config_path: Path
    state_path: Path
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def decode(self, name: str, decoder: Callable[[Any], T]) -> T:
        """Decode one state section, naming the state file on failure.

        Raises:
            StateError: the section is malformed.
        """
        from fairshare_cli.core.operations.validate import check_known_keys

        try:
            raw = self.state.section(name)
            check_known_keys(name, raw)
            return decoder(raw)
        except SectionError as exc:
            raise StateError(f"state file {self.state_path}: {exc}") from None


#: Config overrides set by ``fs whatif --set`` for the view it runs (read-only commands).
WHATIF_OVERRIDES: dict[str, Any] = {}


def load_env(
    config_path: str | None,
    state_path: str | None,
    now: str | None,
    overrides: Mapping[str, Any] | None = None,
) -> Env:
    """Config, state and ``now`` for a read-only command.

    Raises:
        FairshareError: any of them is missing or invalid.
    """
    if overrides is None and WHATIF_OVERRIDES:
        overrides = WHATIF_OVERRIDES
    when = resolve_now(now)
    cpath = resolve_config_path(config_path)
    config = load_config(cpath, overrides)
    spath = resolve_state_path(state_path, config)
    return Env(
        config=config,
        state=load_state(spath),
        now=when,
        config_path=cpath,
        state_path=spath,
        overrides=dict(overrides or {}),
    )


@contextlib.contextmanager
def mutate_state(
    config_path: str | None, state_path: str | None, now: str | None, dry_run: bool = False
) -> Iterator[Env]:
    """Lock the state, load it, let the caller replace ``env.state``, then save once.

    Nothing is written when the body raises or when ``dry_run`` is set.

    Raises:
        FairshareError: loading failed; the state file is untouched.
    """
    when = resolve_now(now)
    cpath = resolve_config_path(config_path)
    config = load_config(cpath)
    spath = resolve_state_path(state_path, config)
    with state_lock(spath):
        env = Env(
            config=config, state=load_state(spath), now=when, config_path=cpath, state_path=spath
        )
        before = env.state
        _check_loaded(env)
        yield env
        if env.state is not before:
            _check_written(before, env, spath)
            if not dry_run:
                save_state(spath, env.state)


def _check_loaded(env: Env) -> None:
    """Refuse a section with keys this fs would drop when it writes the state back.

    Raises:
        StateError: naming the state file, the section and the key.
    """
    from fairshare_cli.core.operations.validate import check_known_keys

    for name, raw in env.state.sections.items():
        try:
            check_known_keys(name, raw)
        except SectionError as exc:
            raise StateError(f"state file {env.state_path}: {exc}") from None


def _check_written(before: State, env: Env, spath: Path) -> None:
    """What is about to be written must be what every view can read (exit 2 if not).

    Raises:
        StateError: a section a view would refuse; InputError: a job a view would refuse.
    """
    from fairshare_cli.core.operations.validate import check_state

    try:
        check_state(before, env.state, env.config, f"state file {spath}")
    except SectionError as exc:
        raise StateError(
            f"refusing to write state file {spath}: {exc}; nothing was written"
        ) from None


def require(condition: bool, message: str) -> None:
    """Raise an :class:`InputError` with ``message`` unless ``condition``."""
    if not condition:
        raise InputError(message)
