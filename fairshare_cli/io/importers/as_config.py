"""An importer's config fragment checked by the pool config's own reader, a refusal named
at the input line its value came from.

Every ``fs import KIND`` that makes configuration (printed, or merged ``--into`` a config)
records where each value of its fragment came from (:class:`Origins`); :func:`check_fragment`
runs :func:`~fairshare_cli.io.config.build_config` on the fragment, and where the config
refuses it, finds the value it refuses: the first, in the order the input gave them, whose
addition to the values before it makes the config refuse them (found by halving). The
values not yet added are left out of the fragment, their keys taking the config's defaults,
which it accepts; a table (a partition, an account) stays, so a name another value gives
(a machine's partitions, an account's parent) still names it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from fairshare_cli.errors import ConfigError, InputError

#: A value's place in a fragment: table keys and array indexes, ``("machines", 0, "name")``.
Path = tuple[str | int, ...]


class Origins:
    """Where the values of one input's fragment came from, in the order it gave them.

    ``label`` names the input (``FILE``), for a refusal no one value explains.
    """

    def __init__(self, label: str) -> None:
        self.label = label
        self.where: dict[Path, str] = {}

    def add(self, path: Path, where: str) -> None:
        """The value at ``path`` came from ``where`` (``FILE:LINE: KEY``); a value set again
        comes from its last setting, and takes its place in the order."""
        self.where.pop(path, None)
        self.where[path] = where


class Imported(NamedTuple):
    """An importer's fragment and where its values came from."""

    fragment: Mapping[str, Any]
    origins: Origins


def check_fragment(
    fragment: Mapping[str, Any], origins: Origins, config: str | None = None
) -> None:
    """Refuse what the pool config refuses of ``fragment``, naming the input line of the
    value it refuses (its own checks: :func:`~fairshare_cli.io.config.build_config`).

    ``config``: ``fragment`` is the config of that name with the input's values merged in
    (``--into``): they are checked where they will be, among its values (an account's
    parent may be one of its accounts); what it refuses without them is its own fault.

    Raises:
        ConfigError: ``config`` refuses what it holds besides the input's values.
        InputError: the config's message, naming where the value came from; or naming the
            input (``origins.label``) when no one value of it explains the refusal.
    """
    file = config or origins.label
    whole = _refusal(fragment, file)
    if whole is None:
        return
    paths = [path for path in origins.where if _holds(fragment, path)]
    if not paths or _refusal(_without(fragment, paths), file) is not None:
        if config is not None:
            raise whole
        raise InputError(str(whole))
    accepted, refused = 0, len(paths)  # (the first k values: accepted, refused)
    while refused - accepted > 1:
        middle = (accepted + refused) // 2
        if _refusal(_without(fragment, paths[middle:]), file) is None:
            accepted = middle
        else:
            refused = middle
    culprit = paths[refused - 1]
    named = _refusal(_without(fragment, paths[refused:]), origins.where[culprit])
    raise InputError(str(named or whole))


def _refusal(fragment: Mapping[str, Any], file: str) -> ConfigError | None:
    """The config's refusal of ``fragment`` (``file`` naming it), or None."""
    from fairshare_cli.io.config import build_config

    try:
        build_config(fragment, file)
    except ConfigError as exc:
        return exc
    return None


def _holds(fragment: Mapping[str, Any], path: Path) -> bool:
    """Whether ``fragment`` has a value at ``path``."""
    node: Any = fragment
    for part in path:
        if isinstance(part, int):
            if not isinstance(node, list) or not 0 <= part < len(node):
                return False
        elif not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def _without(fragment: Mapping[str, Any], paths: Iterable[Path]) -> dict[str, Any]:
    """A copy of ``fragment`` without the values at ``paths`` (what holds none of them is
    shared, not copied)."""
    tree: dict[Any, Any] = {}
    for path in paths:
        node = tree
        for part in path[:-1]:
            child = node.get(part)
            if child is _GONE:  # (a value around this one goes whole)
                break
            node = child if child is not None else node.setdefault(part, {})
        else:
            node[path[-1]] = _GONE
    out = _pruned(fragment, tree)
    assert isinstance(out, dict)
    return out


#: (a place in :func:`_without`'s tree whose whole value goes)
_GONE: dict[Any, Any] = {}


def _pruned(value: Any, tree: dict[Any, Any]) -> Any:
    if isinstance(value, Mapping):
        return {
            k: v if k not in tree else _pruned(v, tree[k])
            for k, v in value.items()
            if tree.get(k) is not _GONE
        }
    if isinstance(value, list):
        return [
            v if k not in tree else _pruned(v, tree[k])
            for k, v in enumerate(value)
            if tree.get(k) is not _GONE
        ]
    return value
