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
#: ``fs whatif --rederive-factors``: stored factors the unchanged config derives are
#: derived again under the changed one (holds "rederive" while such a view runs).
WHATIF_READING: set[str] = set()


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
    state = load_state(spath)
    refuse_going_back(state, when, spath)
    if "rederive" in WHATIF_READING and overrides:
        state = _rederive_factors(state, load_config(cpath), spath)
    return Env(
        config=config,
        state=state,
        now=when,
        config_path=cpath,
        state_path=spath,
        overrides=dict(overrides or {}),
    )


def _rederive_factors(state: State, current: Config, path: Path) -> State:
    """The state with the factors ``current`` derives forgotten (``whatif`` only)."""
    from fairshare_cli.core.htcondor import accountant as acct
    from fairshare_cli.core.htcondor.factors import forget_derived_factors

    if state.section("accountant") is None:
        return state
    try:
        accountant = acct.accountant_from_json(state.section("accountant"))
    except SectionError as exc:
        raise StateError(f"state file {path}: {exc}") from None
    forgotten = forget_derived_factors(accountant, current)
    return state.with_section("accountant", acct.accountant_to_json(forgotten))


@contextlib.contextmanager
def mutate_state(
    config_path: str | None,
    state_path: str | None,
    now: str | None,
    dry_run: bool = False,
    queue_only: bool = False,
) -> Iterator[Env]:
    """Lock the state, load it, let the caller replace ``env.state``, then save once.

    Nothing is written when the body raises or when ``dry_run`` is set. ``now`` may not be
    before the state's last update unless the edit only touches the job queue
    (``queue_only``: a job may be submitted "in the past" to give it an age).

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
        if not queue_only:
            refuse_going_back(env.state, when, spath)
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


def refuse_going_back(state: State, now: float, path: Path) -> None:
    """Refuse a ``--now`` earlier than the state's last update (views and edits alike).

    Raises:
        InputError: naming the state file and its last update.
    """
    from fairshare_cli.core.operations.last_update import state_last_update
    from fairshare_cli.render.formats import iso

    last = state_last_update(state)
    if last is not None and now < last:
        raise InputError(
            f"--now {iso(now) or now} is before the last update of state file {path} "
            f"({iso(last) or last}): a view cannot show the past from decayed values and an "
            "edit cannot go back; give that time or a later one"
        )


def require(condition: bool, message: str) -> None:
    """Raise an :class:`InputError` with ``message`` unless ``condition``."""
    if not condition:
        raise InputError(message)
