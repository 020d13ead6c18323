"""How a config file's value and an import's compare, for ``--into`` merges
(:mod:`fairshare_cli.io.toml_merge`): plain values, and durations by the time they read as;
and a value as TOML writes it, for the messages that show one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def plain(value: Any) -> Any:
    """``value`` (a tomlkit item, or the fragment's) as plain dicts, lists and values."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


#: Keys read as Slurm time strings in minutes (``slurm.conf`` reads them so), compared by
#: the time they read as: ``PriorityCalcPeriod=1`` (slurm.conf) and ``00:01:00``
#: (``scontrol show config``) are one minute, and merging one after the other is no clash.
SLURM_MINUTES = frozenset(
    {
        "priority.calc_period",
        "priority.decay_halflife",
        "priority.max_age",
        "partitions.*.max_time",
        "partitions.*.default_time",
    }
)


def same(a: Any, b: Any, path: list[str]) -> bool:
    """The file's value ``a`` of the key at ``path`` is the import's ``b``."""
    a = a.unwrap() if hasattr(a, "unwrap") else a
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if a != b and _minutes_key(path):
        stored = path in (["priority", "max_age"], ["priority", "decay_halflife"])
        seconds = _seconds(a, stored)
        return seconds is not None and seconds == _seconds(b, stored)
    return bool(a == plain(b))


def _minutes_key(path: list[str]) -> bool:
    if len(path) == 3 and path[0] == "partitions":
        path = [path[0], "*", path[2]]
    return ".".join(path) in SLURM_MINUTES


def _seconds(value: Any, stored: bool = False) -> float | None:
    """What a duration key's value reads as (a string in whole minutes, rounded up; a
    number in seconds), as the config reader reads it (``stored``: as slurmctld stores
    ``PriorityMaxAge`` and ``PriorityDecayHalfLife``); None when it is neither."""
    from fairshare_cli.core.timestr import TimeStringError, slurm_conf_minutes, time_str2mins

    if isinstance(value, str):
        try:
            return slurm_conf_minutes(value, "") if stored else time_str2mins(value) * 60
        except TimeStringError:
            return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


#: Arrays longer than this are written through tomlkit's parser (:func:`leaf`).
LONG_ARRAY = 64


def leaf(value: Any) -> Any:
    """``value`` as an import's leaf for tomlkit: plain; a long array of values (no tables,
    no arrays) made at once, as tomlkit would write it. (tomlkit 0.15's ``item(list)``
    appends value by value, re-indexing the array each time: 8,000 CPU segments merged in
    12 s. Its items are made here: plain text as it is, between quotes, the rest by
    ``item``, each a few times faster than its parser reads them: 65,536 host names in 1 s,
    where parsed they took 7 s.)"""
    value = plain(value)
    if not isinstance(value, list) or len(value) <= LONG_ARRAY:
        return value
    if any(isinstance(v, (list, dict)) for v in value):
        return value
    import tomlkit
    from tomlkit.items import Array, String, StringType, Trivia, Whitespace

    items: list[Any] = []
    for k, v in enumerate(value):
        if k:
            items += (Whitespace(","), Whitespace(" "))
        plain_text = type(v) is str and v.isascii() and v.isprintable() and _unquoted(v)
        items.append(String(StringType.SLB, v, v, Trivia()) if plain_text else tomlkit.item(v))
    array = Array(items, Trivia())
    array.trivia.trail = "\n"  # (as item() ends a value: its line, then the next)
    return array


def _unquoted(text: str) -> bool:
    """Whether ``text`` holds no character a TOML basic string escapes (a quote, a
    backslash; printable ASCII has no other)."""
    return '"' not in text and "\\" not in text


def toml_text(value: Any) -> str:
    """``value`` written as TOML writes it (``true``, ``"soon"``, ``{a = 1}``): how a
    message shows a value the user wrote in TOML, where Python's ``repr`` said ``True``,
    ``'soon'`` and ``{'a': 1}``."""
    import tomlkit

    if isinstance(value, Mapping):
        table = tomlkit.inline_table()
        table.update(value)
        return str(table.as_string())
    return str(tomlkit.item(value).as_string())
