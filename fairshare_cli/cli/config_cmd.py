"""``fs config check`` and ``fs init``."""

from __future__ import annotations

import dataclasses
import math
from datetime import tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from fairshare_cli.cli.main import ListedGroup
from fairshare_cli.cli.options import (
    GlobalOptions,
    config_option,
    no_empty_path,
    output_options,
    pass_options,
)
from fairshare_cli.cli.resolve import resolve_config_path
from fairshare_cli.errors import InputError

if TYPE_CHECKING:  # the config model loads when a command runs (`--help` stays light)
    from fairshare_cli.core.config import Config


#: What an admin may type to change the config, which is a file they edit.
EDIT_WORDS = ("set", "get", "edit", "unset", "show")


class ConfigGroup(ListedGroup):
    """``fs config``: ``check`` alone. ``fs config set KEY=VALUE`` (as ``git config``
    reads) was refused as "No such command 'set'", which left the admin without the next
    step: the config is a file they edit, and ``fs whatif --set`` tries a change first."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name in EDIT_WORDS and self.get_command(ctx, name) is None:
            raise click.UsageError(
                f"fs config has no '{name}': the pool config is a TOML file you edit (every "
                "key, its knob and its default: docs/config.md); 'fs config check' shows its "
                "path and values, and 'fs whatif --set KEY=VALUE VIEW' shows what a change "
                "would do before you make it",
                ctx,
            )
        return super().resolve_command(ctx, args)


@click.group("config", cls=ConfigGroup)
def config_group() -> None:
    """Check a pool config and print its effective values.

    The config is a TOML file you edit ('fs init' writes a commented one; every key:
    docs/config.md); 'fs whatif --set KEY=VALUE VIEW' shows a change before you make it.
    """


@config_group.command("check")
@config_option
@output_options
@pass_options
def check(opts: GlobalOptions) -> None:
    """Validate a pool config and print every effective value (profile applied).

    \b
    Example:
      fs config check --config sample_configs/pool.toml

    Exit 0 when valid; exit 2 with one line naming the key when not. --output json
    prints the values nested; ndjson and csv one key (dotted) and value per row.
    """
    from fairshare_cli.errors import ConfigError
    from fairshare_cli.io.config import build_config, read_toml  # expressions checked there
    from fairshare_cli.io.importers.sniff import POOL_CONFIG, other_file_refusals
    from fairshare_cli.render.formats import emit_rows

    path = resolve_config_path(opts.config_path)
    with other_file_refusals(str(path), POOL_CONFIG, ConfigError):  # (a state given: where)
        raw = read_toml(path)  # once: for the config and for the missing-defaults warning
        config = build_config(raw, str(path))
    if "defaults" not in (raw.get("pool") or {}):
        click.echo(
            f'fs: warning: {path} sets no [pool] defaults; using "legacy" (HTCondor 7.x, '
            'Slurm 2.0); write defaults = "current" for what today\'s releases do',
            err=True,
        )
    for note in config.dirac.notes:
        click.echo(f"fs: warning: {note}", err=True)
    _warn_slot_weights(config)
    _warn_group_factors(config)
    _warn_dynamic_quota_sums(config)
    _warn_no_vo(config)
    from fairshare_cli.io.importers.slurm_knobs import priority_warnings

    for line in priority_warnings(config.priority, str(path)):
        click.echo(f"fs: warning: {line}", err=True)
    data = _keyed_as_in_the_file(_plain(config))
    fmt = opts.output
    if fmt == "json":
        emit_rows(data, None, "json")
        return
    if fmt in ("ndjson", "csv"):  # one row per effective value, keys dotted as in the table
        rows = [{"key": k, "value": v} for k, v in _flatten(data)]
        emit_rows(rows, ("key", "value"), fmt)
        return
    lines = [f'# profile "{config.pool.defaults}"', f"# {path}: valid; effective values"]
    lines += [
        f"{key} = {_toml(value)}{_unit(key) if value is not None else ''}"
        for key, value in _flatten(data)
    ]
    click.echo("\n".join(lines))  # one write: 60,000 lines for a 10,000-account tree


#: The unit of each duration the table prints as a number (a string in the file is a
#: Slurm time string; what is printed is what it was read as).
_UNITS = {
    "pool.usage_history_window": "seconds",
    "accountant.priority_halflife": "seconds",
    "negotiator.interval": "seconds",
    "negotiator.cycle_delay": "seconds",
    "negotiator.min_interval": "seconds",
    "priority.decay_halflife": "seconds",
    "priority.calc_period": "seconds",
    "priority.max_age": "seconds",
    "priority.bf_window": "minutes",
    "priority.bf_resolution": "seconds",
    "priority.bf_interval": "seconds",
}


def _unit(key: str) -> str:
    """``  # seconds`` after a duration's value (``partitions.NAME.max_time`` and
    ``default_time`` too)."""
    unit = _UNITS.get(key)
    if (
        unit is None
        and key.startswith("partitions.")
        and key.endswith((".max_time", ".default_time"))
    ):
        unit = "seconds"
    return f"  # {unit}" if unit else ""


def _warn_slot_weights(config: Config) -> None:
    """One stderr line per machine stanza whose slots ``slot_weight`` cannot weigh."""
    import enum
    import time

    from fairshare_cli.core.htcondor.claims import unweighable_machines

    for name, value in unweighable_machines(config, time.time()):
        shown = value.name.lower() if isinstance(value, enum.Enum) else repr(value)
        click.echo(
            f'fs: warning: [negotiator] slot_weight "{config.negotiator.slot_weight}" is '
            f'{shown} on the slots of machine "{name}", not a number of 0 or more; '
            "each of them weighs 1.0",
            err=True,
        )


def _warn_group_factors(config: Config) -> None:
    """One stderr line per group whose ``prio_factor`` HTCondor's accountant does not
    store as written (``GetPriorityFactor``, ``SetPriorityFactor``)."""
    for name, spec in config.groups.items():
        factor = spec.prio_factor
        if factor is None or factor >= 1:
            continue
        if factor == 0:
            what = "is the same as unset (HTCondor reads a factor of 0 as none)"
        else:
            what = (
                f"is below 1: its records store 1 (condor_userprio -allusers shows the "
                f"group's factor as {factor:g})"
            )
        click.echo(f'fs: warning: groups."{name}".prio_factor {factor:g} {what}', err=True)


def _warn_dynamic_quota_sums(config: Config) -> None:
    """One stderr line per group (``<none>`` too) whose subgroups' ``dynamic_quota`` sum
    above 1: the negotiator scales each down by the sum, with a warning in its log
    (``GroupEntry::hgq_assign_quotas``: "dynamic quota for group ... rescaled"); and one
    per group that sets both quotas, of which the negotiator reads the static one
    (``GroupEntry::hgq_construct_tree``)."""
    children: dict[str, list[tuple[str, float]]] = {}
    for name, spec in config.groups.items():
        if spec.quota is not None and spec.dynamic_quota is not None:  # (GroupEntry's order)
            click.echo(
                f'fs: warning: groups."{name}" sets quota {spec.quota:g} and dynamic_quota'
                f" {spec.dynamic_quota:g}: the negotiator reads GROUP_QUOTA first and never"
                " the dynamic one; drop one of them",
                err=True,
            )
        if spec.quota is None and spec.dynamic_quota is not None:
            children.setdefault(spec.parent or "<none>", []).append((name, spec.dynamic_quota))
    for parent, dynamic in children.items():
        total = sum(quota for _, quota in dynamic)
        if total - 1 <= 0.0001:  # (HTCondor's own margin)
            continue
        given = ", ".join(f"{name} {quota:g}" for name, quota in dynamic)
        scaled = ", ".join(f"{name} {quota / total:.4g}" for name, quota in dynamic)
        click.echo(
            f"fs: warning: the dynamic_quota of {parent}'s subgroups sum to {total:g} ({given}),"
            f" above 1: the negotiator rescales each to {scaled}",
            err=True,
        )


def _warn_no_vo(config: Config) -> None:
    """One stderr line when ``[dirac.groups]`` lists groups and no VO is named (neither
    ``[dirac] vo`` nor a group's ``vo``): DIRAC's matcher refuses a generic pilot then."""
    from fairshare_cli.core.dirac.pilot_vo import vo_names

    dirac = config.dirac
    if dirac.groups and not dirac.vo and not any(vo_names(g.vo) for g in dirac.groups.values()):
        click.echo(
            "fs: warning: [dirac] names no VO ([dirac] vo and every group's vo unset): "
            "DIRAC's matcher refuses a pilot that gives no OwnerGroup ('No VO requested'), "
            "and so does fs taskqueues --pilot; set [dirac] vo to the services' VO",
            err=True,
        )


_LEAVES = frozenset((str, int, float, bool, type(None)))
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # a record's field names, once per class


def _plain(value: Any) -> Any:
    """Records (the config's structs, dataclasses) as dicts, tuples as lists (like
    ``dataclasses.asdict``, without its deep copies: linear and several times faster on a
    10,000-account config)."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    names = _FIELD_NAMES.get(kind)
    if names is None:
        fields = getattr(kind, "__struct_fields__", None)  # a msgspec struct (the config's)
        if fields is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = tuple(f.name for f in dataclasses.fields(value))
        if fields is not None:
            names = _FIELD_NAMES[kind] = fields
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, tzinfo):  # (a loaded zone: its name, as the file gives it)
        return str(value)
    return value


def _keyed_as_in_the_file(data: dict[str, Any]) -> dict[str, Any]:
    """The config's values under the keys a file sets, without what the config keeps for
    itself: each named table's own name (the key it is under), the weights string as
    written (``fs sprio -w`` prints it; its effective weights are ``tres``) and DIRAC's
    notes (printed as warnings)."""
    data["dirac"].pop("notes")
    data["priority"]["weights"].pop("tres_text")
    named = (data["groups"], data["partitions"], data["qos"], data["accounts"])
    for tables in (*named, data["dirac"]["groups"]):
        for table in tables.values():
            table.pop("name")
    return data


def _flatten(data: Any, prefix: str = "", depth: int = 0) -> list[tuple[str, Any]]:
    """Each value under its dotted key, as ``--set`` takes it (:func:`_key_part`)."""
    out: list[tuple[str, Any]] = []
    if isinstance(data, dict) and data and depth < 7:
        for k, v in data.items():
            if k == "path":
                continue
            part = _key_part(k)
            key = f"{prefix}.{part}" if prefix else part
            if isinstance(v, dict) and v:
                out.extend(_flatten(v, key, depth + 1))
            else:
                out.append((key, v))
    else:
        out.append((prefix, data))
    return out


def _key_part(name: str) -> str:
    """A name as one part of a dotted key ``--set`` reads back (``split_dotted``): as it is,
    or quoted where a dot, blank, quote or bracket in it would split or end it (in
    ``"..."``, or ``'...'`` for a name holding ``"``; ``o'brien`` was printed bare, which
    ``--set`` refused as a quote not closed)."""
    if not any(ch in name for ch in ". \"'["):
        return name
    return f"'{name}'" if '"' in name else f'"{name}"'


def _toml(value: Any) -> str:
    if value is None:
        return "(unset)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isinf(value):
            return '"INFINITE"'
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return str(value)


#: TOML's short escapes (a basic string's); any other control character is ``\\uXXXX``.
_TOML_ESCAPES = {
    "\\": "\\\\",
    '"': '\\"',
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def _toml_string(value: str) -> str:
    """``value`` as a TOML basic string, on one line: a line break or a terminal escape in
    an expression (``"a\\nb"`` in a ClassAd string) printed a line of its own, or its
    escape, in ``fs config check``'s listing of one key a line."""
    return '"' + "".join(_TOML_ESCAPES.get(c) or _toml_char(c) for c in value) + '"'


def _toml_char(char: str) -> str:
    """``char`` as it is, or as TOML's ``\\uXXXX`` (``\\UXXXXXXXX``) where not printable."""
    if char.isprintable():
        return char
    return f"\\u{ord(char):04X}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08X}"


STARTER = """\
# fairshare-cli pool config: every key is optional. Every key, its real knob name and its
# default per profile: docs/config.md (fs --version shows where the docs are installed).
# Check it with:  fs config check --config {name}

[pool]
name = "mypool"
uid_domain = "example.org"        # bare owners become owner@uid_domain  [UID_DOMAIN]
local_domains = ["example.org"]   # other domains get remote_prio_factor
defaults = "{profile}"{pad}# "current": HTCondor 25, Slurm 25; "legacy": HTCondor 7, Slurm 2.0
state = "fairshare-state.json"    # state file, relative to this config

[accountant]
priority_halflife = 86400         # seconds, or a Slurm time string like "1-0"  [PRIORITY_HALFLIFE]
# default_prio_factor = 1.0       # legacy 1, current 1000
# nice_user_prio_factor = 1e7     # legacy 1e7, current 1e10
# remote_prio_factor = 1e4        # legacy 1e4, current 1e7

[negotiator]
# use_slot_weights = false        # legacy false, current true (weight = slot_weight)
# allow_quota_oversubscription = false  # legacy false, current true

[[machines]]
name = "exec"                     # exec001 ... exec010, slots slot1@exec001 ...
count = 10
slots = 8
attributes = {{ Cpus = 1, Memory = 4096, Arch = "X86_64", OpSys = "LINUX" }}
partitions = ["batch"]

[groups."group_physics"]
quota = 40                        # static slots  [GROUP_QUOTA_group_physics]
accept_surplus = true

[groups."group_chemistry"]
dynamic_quota = 0.3               # fraction of the parent  [GROUP_QUOTA_DYNAMIC_...]

[priority]                        # Slurm multifactor
decay_halflife = "7-0"
max_age = "7-0"
[priority.weights]
age = 1000
fairshare = 10000
jobsize = 1000
partition = 1000

[partitions.batch]
default = true

[qos.normal]

[accounts.physics]
shares = 60
users = {{ alice = 1, bob = 1 }}
[accounts.chemistry]
shares = 40
users = {{ carol = 1 }}
"""


def _refuse_starter_options_with_example() -> None:
    """``--profile`` or PATH beside ``--example``: they shape the starter config, which
    ``--example`` does not write (the sample pool's config is as shipped).

    Raises:
        click.UsageError: either was given.
    """
    from click.core import ParameterSource

    ctx = click.get_current_context()
    for name, shown in (("profile", "--profile"), ("path", "PATH")):
        if ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None):
            raise click.UsageError(
                f"{shown} shapes the starter config, which --example does not write (the "
                "sample pool is written as shipped); give one or the other"
            )


PROFILE_HELP = (
    "Behaviour profile written to [pool] defaults: 'current' is what HTCondor 25 and "
    "Slurm 25 ship; 'legacy' is the HTCondor 7.x manual and Slurm 2.0 documentation "
    "(prio factor 1, no slot weights, the 20% preemption rule, linear fair share)."
)


@click.command("init")
@click.argument("path", required=False, default="fairshare.toml")
@click.option(
    "--profile",
    type=click.Choice(["current", "legacy"]),
    default="current",
    show_default=True,
    help=PROFILE_HELP,
)
@click.option(
    "--example",
    "example",
    metavar="DIR",
    callback=no_empty_path,
    help="Instead, write the sample pool (config, state, jobs, history, workload, sweep "
    "spec) into DIR.",
)
@click.option("--force", is_flag=True, help="Overwrite existing files.")
def init(path: str, profile: str, example: str | None, force: bool) -> None:
    """Write a commented starter pool config (default ./fairshare.toml).

    \b
    Examples:
      fs init && fs config check
      fs init --profile legacy old-pool.toml
      fs init --example my-pool && fs userprio --config my-pool/pool.toml
    """
    from fairshare_cli.io.atomic import atomic_write_text, folder_lock, through_link
    from fairshare_cli.io.paths import refuse_dash

    if example is not None:
        from fairshare_cli.cli.about import write_example

        _refuse_starter_options_with_example()

        written = write_example(Path(example), force)
        click.echo(f"Wrote the sample pool to {example}: {', '.join(written)}")
        return
    if not path:  # (Path("") is the current folder: ". is a directory")
        raise InputError("fs init: an empty path; give the path of the config file to write")
    if not path.strip():  # (a config named " " made in silence)
        raise InputError(
            f"fs init: {path!r} is only blanks; give the path of the config file to write"
        )
    refuse_dash(path, "fs init", "config file")
    if path.endswith("/") and path.strip("/"):  # (Path() drops it: pool.toml/ wrote pool.toml)
        raise InputError(
            f"fs init {path}: it ends in '/', so it names a folder; give the path of the "
            "config file to write"
        )
    given = Path(path)
    target = through_link(given)
    with folder_lock(target, "config file"):  # (as merges into it take: one at a time)
        if target.is_dir():
            raise InputError(f"{target} is a directory; give the path of the config file to write")
        if target.exists() and not force:
            raise InputError(f"{given} already exists; use --force to overwrite it")
        pad = " " * max(1, 16 - len(profile))
        # (a name of bytes that are not UTF-8, $'\xff.toml', shown with U+FFFD in the comment)
        name = str(target).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        text = STARTER.format(name=name, profile=profile, pad=pad)
        # (a config --force replaces keeps its permissions: a private one stays private)
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
        atomic_write_text(target, text, "config file", mode)
    through = f" (through the link to {target})" if target != given else ""
    click.echo(
        f"Wrote a starter pool config ({profile} profile) to {given}{through}; check it "
        f"with 'fs config check --config {given}'"
    )
