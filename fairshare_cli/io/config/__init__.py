"""Read and validate the TOML pool config into a frozen :class:`Config` (docs/config.md)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fairshare_cli.core.config import (
    DEFAULT_CONSUMPTION,
    PROFILE_DEFAULTS,
    Config,
    NegotiatorConfig,
    PoolConfig,
)
from fairshare_cli.core.limits import MAX_LINE
from fairshare_cli.errors import ConfigError
from fairshare_cli.io.config.dirac import read_dirac
from fairshare_cli.io.config.htcondor import (
    read_accountant,
    read_groups,
    read_machines,
    read_negotiator,
    read_pool,
)
from fairshare_cli.io.config.reader import Reader, StringExpected
from fairshare_cli.io.config.slurm import (
    PRIORITY_KEYS,
    read_accounts,
    read_partitions,
    read_priority,
    read_qos,
)
from fairshare_cli.io.config.slurm_tres import check_machine_gres
from fairshare_cli.io.inputs import (
    cannot_be_read,
    is_a_folder,
    no_such_file,
    open_bytes,
    read_regular,
)
from fairshare_cli.io.toml import loads_file

__all__ = [
    "TOP_KEYS",
    "BareValue",
    "added_tables",
    "apply_overrides",
    "build_config",
    "build_overridden",
    "canonical_key",
    "check_expressions",
    "load_config",
    "read_toml",
    "same_key_twice",
    "sample_hint",
    "split_dotted",
]


def read_toml(path: Path, what: str = "config file") -> dict[str, Any]:
    """Parse ``path`` as TOML.

    A config must be a regular file (fs reads it on every run; a named pipe would make a
    view wait for ever); any other TOML input (``what``: a sweep spec) may be a pipe, which
    is read once.

    Raises:
        ConfigError: the file is missing, unreadable, no regular file (a config), empty
            (whitespace only: a file truncated or never written) or not valid TOML.
    """
    text = ""
    try:
        data = read_regular(path) if what == "config file" else _read_bounded(path, what)
        text = data.decode("utf-8-sig")  # (a leading byte-order mark: skipped)
        if not text.strip():
            start = f"'fs init --force {path}' writes one" if what == "config file" else ""
            raise ConfigError(f"{what} {path} is empty" + (f"; {start}" if start else ""))
        return loads_file(text, what, path)
    except FileNotFoundError:
        raise ConfigError(f"{no_such_file(str(path))}{sample_hint(path)}") from None
    except IsADirectoryError:
        raise ConfigError(is_a_folder(str(path))) from None
    except OSError as exc:
        raise ConfigError(cannot_be_read(what, str(path), exc)) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{what} {path} is not UTF-8 text (byte {exc.start}); expected a TOML file"
        ) from None


def _read_bounded(path: Path, what: str) -> bytes:
    """The bytes of the TOML input ``path`` that may be a pipe (a sweep spec), opened as
    every input is (:func:`~fairshare_cli.io.inputs.open_bytes`) and read to at most
    :data:`~fairshare_cli.core.limits.MAX_LINE` bytes: a pipe that never ends (``fs sweep
    run <(yes)``) was read until memory ran out.

    Raises:
        ConfigError: it holds more than that.
        OSError: as ``open_bytes``.
    """
    fh = open_bytes(str(path))
    try:
        data = fh.read(MAX_LINE + 1)
    finally:
        if str(path) != "-":  # (stdin is not this reading's to close, as spool.spooled)
            fh.close()
    if len(data) > MAX_LINE:
        raise ConfigError(
            f"{what} {path} is longer than {MAX_LINE >> 20} MiB; expected a TOML file"
        )
    return data


def sample_hint(path: Path) -> str:
    """How to get the sample pool that ``fs --help``, the README and docs/ name
    (``sample_configs/pool.toml``), which an installed fs does not find in the folder it
    runs in: ``fs init --example sample_configs`` writes it there."""
    if (path.parent.name, path.name) != ("sample_configs", "pool.toml"):
        return ""
    return f" 'fs init --example {path.parent}' writes the sample pool there"


def load_config(path: Path, overrides: Mapping[str, Any] | None = None) -> Config:
    """Read, override (``whatif --set``) and validate the config at ``path``.

    Raises:
        ConfigError: naming the file and key, for anything invalid.
    """
    try:
        raw = read_toml(path)
        if overrides:
            raw = apply_overrides(raw, overrides, str(path))
        return build_config(raw, str(path))
    except ConfigError as exc:  # (a state or a sweep spec given as --config: where it goes)
        from fairshare_cli.io.importers.sniff import POOL_CONFIG, other_file

        raise other_file(exc, str(path), POOL_CONFIG) from None


@dataclass(frozen=True)
class BareValue:
    """A ``--set`` value written unquoted that TOML reads as a boolean or a number
    (``false``, ``1``, ``22.05``): that value, or the text as written where the key takes
    a string only (a ClassAd expression, ``priority.output_compat``): see
    :func:`build_overridden`."""

    value: Any
    text: str


def build_overridden(
    raw: dict[str, Any], overrides: Mapping[str, Any], file: str, label: str = "--set"
) -> Config:
    """The config ``raw`` (read from ``file``) with ``fs whatif``'s ``--set`` keys applied.

    A :class:`BareValue` the key refuses and whose text it takes is its text
    (``negotiator.preemption_requirements=false`` is the expression ``false``); an error
    the keys cause names the ``--set`` key and value (``label``: where the keys come from,
    a sweep's ``[[axis]]``), not the file.

    Raises:
        ConfigError: a ``--set`` key or value is invalid (naming it), or the file is.
    """
    try:
        return build_config(apply_overrides(raw, overrides, file), file)
    except ConfigError:
        pass
    taken = {key: _as_taken(raw, key, value) for key, value in overrides.items()}
    try:
        return build_config(apply_overrides(raw, taken, file), file)
    except ConfigError:
        for key, value in taken.items():  # (the first setting refused alone is named)
            build_config(apply_overrides(raw, {key: value}, label), label)
        raise


def _as_taken(raw: dict[str, Any], key: str, value: Any) -> Any:
    """``value``, or the text of a :class:`BareValue` whose key takes a string only (then
    the text's own error, if any, names what the key takes: ``22.06`` for
    ``priority.output_compat``)."""
    if not isinstance(value, BareValue):
        return value
    try:
        build_config(apply_overrides(raw, {key: value}, "--set"), "--set")
    except StringExpected:  # (the file builds alone: the refusal is this key's)
        return value.text
    except ConfigError:
        pass
    return value


def apply_overrides(
    raw: dict[str, Any], overrides: Mapping[str, Any], where: str
) -> dict[str, Any]:
    """Return a copy of ``raw`` with dotted ``key=value`` overrides set (a
    :class:`BareValue` as its value).

    Quoted parts keep dots: ``groups."group_physics".quota``.

    Raises:
        ConfigError: a path runs through a value that is not a table.
    """
    import copy

    out = copy.deepcopy(raw)
    for dotted, value in overrides.items():
        parts = split_dotted(dotted)
        node: Any = out
        table = ""  # (as the reader names it: machines[0], groups."group_physics.hep")
        at = where if where == "--set" else f"{where}: --set"  # (not "--set: --set")
        for i, part in enumerate(parts[:-1]):
            if isinstance(node, list):  # (an index as written, 0 up: -1 named the last)
                if not (part.isascii() and part.isdigit()) or int(part) >= len(node):
                    raise ConfigError(f"{at} {dotted}: no item {part}")
                node = node[int(part)]
                table += f"[{int(part)}]"
                continue
            _refuse_unquoted_name(node, parts, i, f"{at} {dotted}")
            nxt = node.setdefault(part, {})
            if not isinstance(nxt, (dict, list)):
                raise ConfigError(f"{at} {dotted}: {part} is not a table")
            node = nxt
            table += ("." if table else "") + (f'"{part}"' if "." in part else part)
        if isinstance(node, list):
            raise ConfigError(f"{at} {dotted}: cannot replace a whole [[...]] entry")
        _set_key(node, table, parts[-1], value.value if isinstance(value, BareValue) else value)
    return out


def _refuse_unquoted_name(node: dict[str, Any], parts: list[str], i: int, label: str) -> None:
    """A name with dots written unquoted (``groups.group_physics.hep.prio_factor``, where
    the config has ``[groups."group_physics.hep"]``) is refused, naming the key to write:
    split at its dots it names another table, or a new one.

    Raises:
        ConfigError: ``parts[i:k]`` joined with dots is a table of ``node`` and the
            parts as split name nothing there.
    """
    part = parts[i]
    written = node.get(part)
    if isinstance(written, dict) and parts[i + 1] in written:
        return
    for k in range(len(parts) - 1, i + 1, -1):
        name = ".".join(parts[i:k])
        if isinstance(node.get(name), dict):
            key = ".".join(f'"{p}"' if "." in p else p for p in parts[:i])
            key += ("." if key else "") + f'"{name}".' + ".".join(parts[k:])
            raise ConfigError(
                f"{label}: {name} is one name (a table with dots in its name): quote it, "
                f"as in --set '{key}=VALUE'"
            )


def added_tables(
    raw: Mapping[str, Any], overrides: Mapping[str, Any], named: Collection[tuple[str, ...]] = ()
) -> list[tuple[str, str, str]]:
    """For each ``--set`` key that adds a named table (a group, account, partition, QOS)
    the config does not have: the key, the table (``groups."group_physics.hepp"``) and the
    closest name the config has, as a did-you-mean text (or ""), for a line saying so: a
    typo would otherwise change nothing but a new, empty entry. A table the view's data
    ``named`` (its key parts: jobs in a DIRAC group the config does not list) is meant: no
    closest name."""
    from fairshare_cli.errors import did_you_mean

    found = []
    for dotted in overrides:
        parts = split_dotted(dotted)
        node: Any = raw
        for i, part in enumerate(parts[:-1]):
            if not isinstance(node, Mapping):
                break
            if part not in node:
                if i > 0 and node and all(isinstance(v, Mapping) for v in node.values()):
                    table = ".".join(f'"{p}"' if "." in p else p for p in parts[: i + 1])
                    meant = tuple(parts[: i + 1]) in named
                    found.append((dotted, table, "" if meant else did_you_mean(part, list(node))))
                break
            node = node[part]
    return found


def _set_key(node: dict[str, Any], table: str, key: str, value: Any) -> None:
    """Set ``key`` of the config table ``node`` (named ``table``), a real knob name as its
    config key, in place of what the file sets under either name (``--set
    accountant.PRIORITY_HALFLIFE=3600`` over a file's ``priority_halflife``, or the
    reverse, said the key was set twice)."""
    key, knobs = _knob_key(table, key)
    for old in [k for k in node if k != key and knobs.get(k.upper()) == key]:
        del node[old]
    node[key] = value


def _knob_key(table: str, key: str) -> tuple[str, dict[str, str]]:
    """The config key ``key`` names in ``table`` (a knob name's key, else ``key``), and
    the table's knob names (upper case) -> keys."""
    from fairshare_cli.io.knob_aliases import KNOBS, table_pattern

    knobs = {k.upper(): v for k, v in KNOBS.get(table_pattern(table), {}).items()}
    return (key if key in knobs.values() else knobs.get(key.upper(), key)), knobs


def canonical_key(dotted: str) -> str:
    """``dotted`` with a real knob name as its last part written as its config key
    (``accountant.PRIORITY_HALFLIFE`` -> ``accountant.priority_halflife``), as the config
    file takes it: what a ``--set`` key changes is then told by its name."""
    parts = split_dotted(dotted)
    table = ""
    for part in parts[:-1]:
        if part.isdigit():
            table += f"[{part}]"
        else:
            table += ("." if table else "") + (f'"{part}"' if "." in part else part)
    key, _ = _knob_key(table, parts[-1])
    if key == parts[-1]:
        return dotted
    cut = dotted.rstrip().rfind(parts[-1])
    return dotted[:cut] + key + dotted[cut + len(parts[-1]) :]


def same_key_twice(keys: list[str]) -> tuple[int, int] | None:
    """The first two of ``keys`` (dotted config keys) that name one config key, however
    each is spelt (a knob name and its key, ``accountant.PRIORITY_HALFLIFE`` beside
    ``accountant.priority_halflife``; a name quoted and not; the same text twice): their
    indexes, or None when each names its own. Given both, only the last would count."""
    first: dict[tuple[str, ...], int] = {}
    for k, key in enumerate(keys):
        at = first.setdefault(tuple(split_dotted(canonical_key(key))), k)
        if at != k:
            return at, k
    return None


def split_dotted(key: str) -> list[str]:
    """Split a dotted TOML key, honouring quoted parts (``"..."``, or TOML's literal
    ``'...'``); an unquoted ``[N]`` is the part ``N`` (``machines[0].count``, as the
    config's errors name an entry of ``[[machines]]``, is ``machines.0.count``).

    Raises:
        ConfigError: a quote left open (``groups."group_physics.quota``: it took the rest).
    """
    parts: list[str] = []
    buf = ""
    quote = ""  # (the quote of the part being read, if any)
    at = 0
    while at < len(key):
        ch = key[at]
        index = None if quote or ch != "[" else _INDEX.match(key, at)
        if index is not None:
            parts.append(buf)
            buf, at = index.group(1), index.end()
            continue
        if ch == quote or (not quote and ch in "\"'"):
            quote = "" if quote else ch
        elif ch == "." and not quote:
            parts.append(buf)
            buf = ""
        else:
            buf += ch
        at += 1
    if quote:
        kind = "double" if quote == '"' else "single"
        raise ConfigError(
            f"the key {key}: a {kind} quote is not closed; quote a whole name, as in "
            'groups."group_physics.hep".quota'
        )
    parts.append(buf)
    return [p.strip() for p in parts]


#: An entry's index as the config's errors write it (``machines[0]``).
_INDEX = re.compile(r"\[(\d+)\]")


TOP_KEYS = (
    "pool",
    "accountant",
    "negotiator",
    "machines",
    "groups",
    "priority",
    "partitions",
    "qos",
    "accounts",
    "dirac",
)


def build_config(raw: Mapping[str, Any], file: str) -> Config:
    """Validate a parsed TOML document into a :class:`Config`, applying the profile.

    Raises:
        ConfigError: naming the file and the key, for anything invalid.
    """
    top = Reader(raw, "", file, TOP_KEYS)
    pool = read_pool(top, file)
    prof = PROFILE_DEFAULTS[pool.defaults]
    config = Config(
        path=file,
        pool=pool,
        accountant=read_accountant(top, file, prof),
        negotiator=read_negotiator(top, file, prof),
        machines=(machines := read_machines(top, file, pool)),
        groups=read_groups(top, file),
        priority=read_priority(top, file, prof),
        partitions=read_partitions(top, file, machines),
        qos=read_qos(top, file),
        accounts=read_accounts(top, file),
        dirac=read_dirac(top, file),
    )
    check_expressions(config)  # on load: every command that loads a config
    check_machine_gres(Reader(raw.get("priority", {}), "priority", file, PRIORITY_KEYS), machines)
    return config


#: The ``[negotiator]`` keys whose values are ClassAd expressions.
_NEGOTIATOR_EXPRESSIONS = (
    "slot_weight",
    "preemption_requirements",
    "preemption_rank",
    "pre_job_rank",
    "post_job_rank",
    "group_sort_expr",
    "slot_constraint",
    "slot_poolsize_constraint",
    "submitter_constraint",
    "job_constraint",
)

#: The consumption-policy keys (``[pool]`` and ``[[machines]]``) whose values are ClassAd
#: expressions.
_CONSUMPTION_EXPRESSIONS = ("consumption_cpus", "consumption_memory", "consumption_disk")


def check_expressions(config: Config) -> None:
    """Parse every ClassAd expression of the config (negotiator knobs, ``start``, ``rank`` and
    the ``consumption_*`` expressions of the pool and of each machine).

    :func:`build_config` calls this, so every command that loads a config (an import
    too, which never evaluates one) refuses a typo or an oversized expression, naming the
    file and key.

    The built-in texts (:data:`BUILTIN_EXPRESSIONS`, what a config that sets none of these
    keys holds) are known to parse and are skipped, so a config without expressions of
    its own (every Slurm-only or DIRAC-only one) never imports ``classad2``.

    Raises:
        ConfigError: naming the file and key of the first expression that does not parse.
    """
    neg = config.negotiator
    texts = [(f"[negotiator] {key}", getattr(neg, key)) for key in _NEGOTIATOR_EXPRESSIONS]
    texts += [("[pool] start", config.pool.start), ("[pool] rank", config.pool.rank)]
    texts += [(f"[pool] {key}", getattr(config.pool, key)) for key in _CONSUMPTION_EXPRESSIONS]
    for spec in config.machines:
        texts += [
            (f"machine {spec.name} start", spec.start),
            (f"machine {spec.name} rank", spec.rank),
        ]
        texts += [
            (f"machine {spec.name} {key}", getattr(spec, key)) for key in _CONSUMPTION_EXPRESSIONS
        ]
    for key, text in texts:
        if text is not None and text.strip() and text not in BUILTIN_EXPRESSIONS:
            from fairshare_cli.core.htcondor.classads import check_expression

            check_expression(text, f"{config.path}: {key}", ConfigError)


#: The expression texts a config holds for keys it does not set (the dataclass and profile
#: defaults): :func:`check_expressions` skips them (``tests`` parse each one).
BUILTIN_EXPRESSIONS = frozenset(
    text
    for text in (
        *(getattr(NegotiatorConfig(), key) for key in _NEGOTIATOR_EXPRESSIONS),
        PoolConfig().start,
        PoolConfig().rank,
        *DEFAULT_CONSUMPTION.values(),
        *(
            value
            for prof in PROFILE_DEFAULTS.values()
            for key, value in prof.items()
            if key.startswith("negotiator.") and isinstance(value, str)
        ),
    )
    if text and text.strip()
)
