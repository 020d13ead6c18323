"""The table reader every section uses: known keys only, typed values, one-line errors."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from fairshare_cli.core.limits import UINT32_MAX
from fairshare_cli.core.names import MAX_NAME_LENGTH, TOML_TIME_NAMES, name_problem, shown
from fairshare_cli.core.timestr import TimeStringError, time_str2mins, time_str2secs, unit_hint
from fairshare_cli.errors import ConfigError, did_you_mean, same_but_case
from fairshare_cli.io.knob_aliases import apply_aliases, is_knob, knob_hint, knob_table

T = TypeVar("T")
Table = Mapping[str, Any]


class StringExpected(ConfigError):
    """A key that takes a string only was given another value (``fs whatif --set
    KEY=false`` then takes the text: :func:`fairshare_cli.io.config.build_overridden`)."""


#: The scheduler whose config a top-level table holds (``[pool]``: every one's).
_SCHEDULER = {
    "accountant": "htcondor",
    "negotiator": "htcondor",
    "machines": "htcondor",
    "groups": "htcondor",
    "priority": "slurm",
    "accounts": "slurm",
    "partitions": "slurm",
    "qos": "slurm",
    "dirac": "dirac",
}


def _both(close: str, knob: str | None, key: str, where: str) -> str:
    """One hint from the closest key of the table and a knob the key names: ``[group."g"]``
    is close to ``groups`` and also DIRAC's ``Group`` knob (written elsewhere), and the
    admin is told both, the table's key first; but not a knob of another scheduler's
    section than the table's, where the table has a close key (``[priority] weight``:
    ``weights``, not DIRAC's ``Weight``), unless the key spells that knob exactly
    (``[accountant] PriorityDecayHalfLife`` is Slurm's, whatever key is close to it)."""
    if close and knob is not None and where and not is_knob(key):
        table = knob_table(key)
        theirs = None if table is None else _SCHEDULER.get(table.split(".")[0])
        ours = _SCHEDULER.get(where.split(".")[0])
        if theirs and ours and theirs != ours:
            return close
    if not close or knob is None:
        return knob or close
    return f"{close[:-1]} {knob.strip()[1:]}"


class Reader:
    """Checks one TOML table: known keys only, typed values, a clear error otherwise."""

    def __init__(
        self, table: Any, where: str, file: str, allowed: tuple[str, ...] | frozenset[str]
    ) -> None:
        self.file = file
        self.where = where
        if not isinstance(table, Mapping):
            self.fail(f"{where}: expected a table, got {kind(table)}")
        self.table: Table = apply_aliases(table, where, allowed, self.fail)  # knob names
        names = allowed if isinstance(allowed, tuple) else tuple(sorted(allowed))
        # ``in`` on 10,000 account names: a set, not a scan of the tuple (quadratic).
        members = allowed if isinstance(allowed, frozenset) else frozenset(allowed)
        for key in self.table:
            if key not in members:
                extra = did_you_mean(key, names)
                if same_but_case(key, names) is None:  # ([Priority]: the table, no knob)
                    extra = _both(extra, knob_hint(key, where, close=not extra), key, where)
                known = ", ".join(names) if names else "none"
                self.fail(f"unknown key '{self.key(key)}'{extra}; known keys: {known}")

    def check_names(self, table: Mapping[str, Any], sub: str = "") -> None:
        """Every key of ``table`` is a name (``fairshare_cli.core.names``: no blanks, no
        control characters, at most one ``@``)."""
        if plain_names(table):
            return
        for name in table:
            problem = name_problem(name, submitter=True)
            if problem is not None:
                at = self.key(sub) if sub else self.where
                self.fail(f"{at}: {problem}")

    def key(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def fail(self, message: str) -> None:
        raise ConfigError(f"{self.file}: {message}")

    def has(self, key: str) -> bool:
        return key in self.table

    def get(self, key: str, convert: Callable[[Any, str], T], default: T) -> T:
        if key not in self.table:
            return default
        return convert(self.table[key], self.key(key))

    def num(self, key: str, default: Any, **limits: Any) -> Any:
        """A number with optional ``lo``/``hi``/``lo_open`` limits, or ``default``."""
        return self.get(key, lambda v, k: self.number(v, k, **limits), default)

    def int_(self, key: str, default: Any, **limits: Any) -> Any:
        """A whole number with optional ``lo``/``hi`` limits, or ``default``."""
        return self.get(key, lambda v, k: self.integer(v, k, **limits), default)

    def dur(self, key: str, default: Any, minutes: bool = False) -> Any:
        """A duration in seconds (Slurm time strings rounded up to minutes if asked)."""
        return self.get(key, lambda v, k: self.duration(v, k, minutes=minutes), default)

    # converters -----------------------------------------------------------------------
    def string(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            raise StringExpected(f"{self.file}: {key}: expected a string, got {kind(value)}")
        return str(value)

    def name(self, value: Any, key: str) -> str:
        """A name (``fairshare_cli.core.names``: not blank, no control characters)."""
        text = self.string(value, key)
        problem = name_problem(text)
        if problem is not None:
            self.fail(f"{key}: {problem}")
        return text

    def name_list(self, value: Any, key: str) -> tuple[str, ...]:
        """A list of names (see :meth:`name`)."""
        names = self.string_list(value, key)
        for k, text in enumerate(names):
            self.name(text, f"{key}[{k}]")
        return names

    def boolean(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            self.fail(f"{key}: expected true or false, got {kind(value)}")
        return bool(value)

    def number(
        self,
        value: Any,
        key: str,
        lo: float | None = None,
        hi: float | None = None,
        lo_open: bool = False,
    ) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(f"{key}: expected a number, got {kind(value)}")
        try:
            v = float(value)
        except OverflowError:  # (a whole number of 400 digits: no float holds it)
            v = math.inf
        if math.isnan(v) or math.isinf(v):
            self.fail(f"{key}: expected a finite number, got {shown(str(value))}")
        if lo is not None and (v <= lo if lo_open else v < lo):
            rel = "above" if lo_open else "at least"
            self.fail(f"{key}: expected a number {rel} {lo:g}, got {value}")
        if hi is not None and v > hi:
            self.fail(f"{key}: expected a number at most {hi:g}, got {value}")
        return v

    def integer(self, value: Any, key: str, lo: int | None = None, hi: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{key}: expected a whole number, got {kind(value)}")
        if lo is not None and value < lo:
            self.fail(f"{key}: expected a whole number of at least {lo}, got {value}")
        if hi is not None and value > hi:
            self.fail(f"{key}: expected a whole number of at most {hi}, got {value}")
        return int(value)

    def duration(self, value: Any, key: str, minutes: bool = False) -> float:
        """Seconds; a string is a Slurm time string (rounded up to minutes if ``minutes``)."""
        if isinstance(value, str):
            try:
                secs = time_str2mins(value) * 60 if minutes else time_str2secs(value)
            except TimeStringError as exc:  # (the one form not named in the message)
                self.fail(
                    f"{key}: {exc}; a plain number is seconds{unit_hint(value, 'the number ')}"
                )
            return secs
        v = self.number(value, key)
        if v < 0:
            self.fail(f"{key}: expected a duration of 0 or more seconds, got {value}")
        return v

    def string_list(self, value: Any, key: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(f"{key}: expected a list of strings, got {kind(value)}")
        return tuple(value)

    def shares(self, value: Any, key: str) -> int | str:
        if isinstance(value, str):
            if value.lower() != "parent":
                self.fail(f'{key}: expected a whole number of shares or "parent", got "{value}"')
            return "parent"
        return self.integer(value, key, lo=0, hi=UINT32_MAX)


def plain_names(names: Mapping[str, Any]) -> bool:
    """Whether every key of ``names`` is plainly a good name for ``name_problem`` (with
    ``submitter``): text, not empty, not too long, printable, no space and no ``@``; one
    check of them all joined (a 10,000-user config in a tenth of the time). False says
    only to check each one."""
    try:
        joined = "".join(names)
    except TypeError:  # a key that is not text
        return False
    return (
        joined.isprintable()
        and " " not in joined
        and "@" not in joined
        and "" not in names
        and max(map(len, names), default=0) <= MAX_NAME_LENGTH
    )


def kind(value: Any) -> str:
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, str):
        return f'string "{value}"'
    if isinstance(value, (int, float)):
        return f"number {value}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a table"
    if type(value) in TOML_TIME_NAMES:  # (as TOML names and writes them)
        from fairshare_cli.io.toml_values import toml_text

        return f"{TOML_TIME_NAMES[type(value)]} {toml_text(value)}"
    return type(value).__name__


def named_tables(top: Reader, key: str) -> Reader:
    table = top.table.get(key, {})
    reader = Reader(table, key, top.file, frozenset(table) if isinstance(table, Mapping) else ())
    reader.check_names(reader.table)
    return reader


def choice(reader: Reader, choices: tuple[str, ...]) -> Callable[[Any, str], str]:
    """A converter accepting one of ``choices``."""

    def convert(value: Any, key: str) -> str:
        text = reader.string(value, key)
        if text not in choices:
            wanted = ", ".join(f'"{c}"' for c in choices)
            reader.fail(f'{key}: expected one of {wanted}, got "{text}"')
        return text

    return convert


def int_list(reader: Reader) -> Callable[[Any, str], tuple[int, ...]]:
    """A converter for a list of positive whole numbers."""

    def convert(value: Any, key: str) -> tuple[int, ...]:
        if not isinstance(value, list):
            reader.fail(f"{key}: expected a list of whole numbers, got {kind(value)}")
        return tuple(reader.integer(v, f"{key}[{k}]", lo=1) for k, v in enumerate(value))

    return convert
