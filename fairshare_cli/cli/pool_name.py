"""The pool a state was written for: the config's ``[pool] name`` (Slurm's ``ClusterName``),
stored by each write, and one warning when a config naming another pool reads the state.

slurmctld keeps its ``ClusterName`` in a ``clustername`` file beside its state and refuses
to start under another name (``_verify_clustername``: a state shared by two clusters is
corrupted). A state given to the wrong pool's config is read here with a warning instead:
its records are valued under a config they were not charged under. A config that names no
pool (``name`` left at its default) neither compares nor stores a name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from fairshare_cli.core.config import PoolConfig
from fairshare_cli.errors import StateError

if TYPE_CHECKING:
    from pathlib import Path

    from fairshare_cli.core.config import Config
    from fairshare_cli.core.state import State

#: The state section holding the pool's name: ``{"name": "demo"}``.
SECTION = "pool"
#: ``[pool] name`` when the config gives none.
UNNAMED = PoolConfig().name
#: ``ctx.meta`` key set once the warning is given (``fs whatif`` loads the state twice).
_WARNED = "fairshare_cli.other_pool_warned"


def stored_pool(state: State, path: Path) -> str | None:
    """The name of the pool ``state`` was written for (None: not written by a named pool).

    Raises:
        StateError: the section is not ``{"name": TEXT}``.
    """
    raw = state.section(SECTION)
    if raw is None:
        return None
    if isinstance(raw, dict) and set(raw) == {"name"} and isinstance(raw["name"], str):
        return raw["name"]
    raise StateError(
        f'state file {path}: pool: expected {{"name": TEXT}} (the pool it was written for); '
        "fix it or move it aside to start afresh"
    )


def warn_other_pool(state: State, config: Config, path: Path) -> None:
    """One warning on stderr when ``state`` was written for a pool the config does not
    name (once per command).

    Raises:
        StateError: the state's ``pool`` section is malformed.
    """
    stored = stored_pool(state, path)
    name = config.pool.name
    if stored is None or name == UNNAMED or stored == name:
        return
    ctx = click.get_current_context(silent=True)
    meta = {} if ctx is None else ctx.meta
    if meta.get(_WARNED):
        return
    meta[_WARNED] = True
    click.echo(
        f"fs: warning: state file {path} was written for pool {stored!r}, and the config "
        f"{config.path} names pool {name!r} ([pool] name): its records are read under a "
        "config they were not charged under (a write stores the config's name)",
        err=True,
    )


def stamped(state: State, config: Config) -> State:
    """``state`` with the config's pool name, as a write stores it (unchanged when the
    config names no pool, or the state holds that name already)."""
    name = config.pool.name
    if name == UNNAMED or state.section(SECTION) == {"name": name}:
        return state
    return state.with_section(SECTION, {"name": name})
