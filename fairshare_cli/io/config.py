"""Read and validate the TOML pool config into a frozen :class:`Config` (docs/config.md)."""

from __future__ import annotations

import difflib
import math
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from fairshare_cli.core.config import (
    DIRAC_CPU_SEGMENTS,
    PROFILE_DEFAULTS,
    AccountantConfig,
    AccountSpec,
    Config,
    DiracConfig,
    DiracCorrectionConfig,
    DiracCorrectionInstance,
    DiracGroupSpec,
    DiracSlice,
    GroupSpec,
    MachineSpec,
    NegotiatorConfig,
    PartitionSpec,
    PoolConfig,
    PriorityWeights,
    QosSpec,
    SlurmPriorityConfig,
)
from fairshare_cli.core.dirac.taskqueues import valid_cpu_segments
from fairshare_cli.core.timestr import TimeStringError, time_str2mins, time_str2secs
from fairshare_cli.errors import ConfigError
from fairshare_cli.io.knob_aliases import apply_aliases, knob_hint

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

T = TypeVar("T")
Table = Mapping[str, Any]

UINT32_MAX = 2**32 - 1
#: ClassAd integers are 64-bit signed.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
#: The most slots a pool may expand to: every slot is a ClassAd held in memory.
MAX_POOL_SLOTS = 1_000_000
NO_STRINGS: tuple[str, ...] = ()
DEFAULT_SHARES: int | str = 1
RESET_PERIODS = ("NONE", "NOW", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY")
FAIRSHARE_ALGORITHMS = ("linear", "classic", "fair_tree", "depth_oblivious")


def read_toml(path: Path) -> dict[str, Any]:
    """Parse ``path`` as TOML.

    Raises:
        ConfigError: the file is missing, unreadable or not valid TOML.
    """
    try:
        with path.open("rb") as fh:
            data: dict[str, Any] = tomllib.load(fh)
            return data
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist") from None
    except OSError as exc:
        raise ConfigError(f"config file {path} cannot be read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"config file {path} is not UTF-8 text (byte {exc.start}); expected a TOML file"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
    except (ValueError, RecursionError) as exc:  # an over-long integer, too deep a nesting
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None


def load_config(path: Path, overrides: Mapping[str, Any] | None = None) -> Config:
    """Read, override (``whatif --set``) and validate the config at ``path``.

    Raises:
        ConfigError: naming the file and key, for anything invalid.
    """
    raw = read_toml(path)
    if overrides:
        raw = apply_overrides(raw, overrides, str(path))
    return build_config(raw, str(path))


def apply_overrides(
    raw: dict[str, Any], overrides: Mapping[str, Any], where: str
) -> dict[str, Any]:
    """Return a copy of ``raw`` with dotted ``key=value`` overrides set.

    Quoted parts keep dots: ``groups."group_physics".quota``.

    Raises:
        ConfigError: a path runs through a value that is not a table.
    """
    import copy

    out = copy.deepcopy(raw)
    for dotted, value in overrides.items():
        parts = split_dotted(dotted)
        node: Any = out
        for part in parts[:-1]:
            if isinstance(node, list):
                try:
                    node = node[int(part)]
                    continue
                except (ValueError, IndexError):
                    raise ConfigError(f"{where}: --set {dotted}: no item {part}") from None
            nxt = node.setdefault(part, {})
            if not isinstance(nxt, (dict, list)):
                raise ConfigError(f"{where}: --set {dotted}: {part} is not a table")
            node = nxt
        if isinstance(node, list):
            raise ConfigError(f"{where}: --set {dotted}: cannot replace a whole [[...]] entry")
        node[parts[-1]] = value
    return out


def split_dotted(key: str) -> list[str]:
    """Split a dotted TOML key, honouring double-quoted parts."""
    parts: list[str] = []
    buf = ""
    quoted = False
    for ch in key:
        if ch == '"':
            quoted = not quoted
        elif ch == "." and not quoted:
            parts.append(buf)
            buf = ""
        else:
            buf += ch
    parts.append(buf)
    return [p.strip() for p in parts]


class _Reader:
    """Checks one TOML table: known keys only, typed values, a clear error otherwise."""

    def __init__(self, table: Any, where: str, file: str, allowed: tuple[str, ...]) -> None:
        self.file = file
        self.where = where
        if not isinstance(table, Mapping):
            self.fail(f"{where}: expected a table, got {_kind(table)}")
        self.table: Table = apply_aliases(table, where, allowed, self.fail)  # knob names
        for key in self.table:
            if key not in allowed:
                hint = difflib.get_close_matches(key, allowed, n=1)
                extra = f" (did you mean '{hint[0]}'?)" if hint else ""
                extra = knob_hint(key, where, close=not hint) or extra
                known = ", ".join(allowed) if allowed else "none"
                self.fail(f"unknown key '{self.key(key)}'{extra}; known keys: {known}")

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
            self.fail(f"{key}: expected a string, got {_kind(value)}")
        return str(value)

    def boolean(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            self.fail(f"{key}: expected true or false, got {_kind(value)}")
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
            self.fail(f"{key}: expected a number, got {_kind(value)}")
        v = float(value)
        if math.isnan(v) or math.isinf(v):
            self.fail(f"{key}: expected a finite number, got {value}")
        if lo is not None and (v <= lo if lo_open else v < lo):
            rel = "above" if lo_open else "at least"
            self.fail(f"{key}: expected a number {rel} {lo:g}, got {value}")
        if hi is not None and v > hi:
            self.fail(f"{key}: expected a number at most {hi:g}, got {value}")
        return v

    def integer(self, value: Any, key: str, lo: int | None = None, hi: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{key}: expected a whole number, got {_kind(value)}")
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
            except TimeStringError as exc:
                self.fail(f"{key}: {exc}")
            return secs
        v = self.number(value, key)
        if v < 0:
            self.fail(f"{key}: expected a duration of 0 or more seconds, got {value}")
        return v

    def string_list(self, value: Any, key: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(f"{key}: expected a list of strings, got {_kind(value)}")
        return tuple(value)

    def shares(self, value: Any, key: str) -> int | str:
        if isinstance(value, str):
            if value.lower() != "parent":
                self.fail(f'{key}: expected a whole number of shares or "parent", got "{value}"')
            return "parent"
        return self.integer(value, key, lo=0, hi=UINT32_MAX)


def _kind(value: Any) -> str:
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
    return type(value).__name__


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
    top = _Reader(raw, "", file, TOP_KEYS)
    pool = _pool(top, file)
    prof = PROFILE_DEFAULTS[pool.defaults]
    return Config(
        path=file,
        pool=pool,
        accountant=_accountant(top, file, prof),
        negotiator=_negotiator(top, file, prof),
        machines=_machines(top, file),
        groups=_groups(top, file),
        priority=_priority(top, file, prof),
        partitions=_partitions(top, file),
        qos=_qos(top, file),
        accounts=_accounts(top, file),
        dirac=_dirac(top, file),
    )


def _pool(top: _Reader, file: str) -> PoolConfig:
    r = _Reader(
        top.table.get("pool", {}),
        "pool",
        file,
        ("name", "uid_domain", "local_domains", "defaults", "state"),
    )
    defaults = r.get("defaults", r.string, "legacy")
    if defaults not in PROFILE_DEFAULTS:
        r.fail(f'pool.defaults: expected "legacy" or "current", got "{defaults}"')
    state = r.get("state", r.string, "") or None
    return PoolConfig(
        name=r.get("name", r.string, "pool"),
        uid_domain=r.get("uid_domain", r.string, "localdomain"),
        local_domains=r.get("local_domains", r.string_list, ()),
        defaults=defaults,  # type: ignore[arg-type]
        state=state,
    )


def _accountant(top: _Reader, file: str, prof: Mapping[str, Any]) -> AccountantConfig:
    r = _Reader(
        top.table.get("accountant", {}),
        "accountant",
        file,
        ("priority_halflife", "default_prio_factor", "nice_user_prio_factor", "remote_prio_factor"),
    )

    def factor(v: Any, k: str) -> float:
        return r.number(v, k, lo=1.0)

    return AccountantConfig(
        priority_halflife=r.get("priority_halflife", r.duration, 86400.0),
        default_prio_factor=r.get(
            "default_prio_factor", factor, prof["accountant.default_prio_factor"]
        ),
        nice_user_prio_factor=r.get(
            "nice_user_prio_factor", factor, prof["accountant.nice_user_prio_factor"]
        ),
        remote_prio_factor=r.get(
            "remote_prio_factor", factor, prof["accountant.remote_prio_factor"]
        ),
    )


def _negotiator(top: _Reader, file: str, prof: Mapping[str, Any]) -> NegotiatorConfig:
    d = NegotiatorConfig()
    r = _Reader(
        top.table.get("negotiator", {}),
        "negotiator",
        file,
        (
            "use_slot_weights",
            "slot_weight",
            "allow_quota_oversubscription",
            "preemption_requirements",
            "preemption_rank",
            "pre_job_rank",
            "post_job_rank",
            "group_sort_expr",
            "group_quota_round_robin_rate",
            "group_quota_max_allocation_rounds",
            "strict_enforce_quota",
            "use_weighted_demand",
            "accept_surplus",
            "autoregroup",
        ),
    )
    return NegotiatorConfig(
        use_slot_weights=r.get("use_slot_weights", r.boolean, prof["negotiator.use_slot_weights"]),
        slot_weight=r.get("slot_weight", r.string, d.slot_weight),
        allow_quota_oversubscription=r.get(
            "allow_quota_oversubscription",
            r.boolean,
            prof["negotiator.allow_quota_oversubscription"],
        ),
        preemption_requirements=r.get(
            "preemption_requirements", r.string, prof["negotiator.preemption_requirements"]
        ),
        preemption_rank=r.get("preemption_rank", r.string, d.preemption_rank),
        pre_job_rank=r.get("pre_job_rank", r.string, d.pre_job_rank),
        post_job_rank=r.get("post_job_rank", r.string, d.post_job_rank),
        group_sort_expr=r.get("group_sort_expr", r.string, d.group_sort_expr),
        group_quota_round_robin_rate=r.num(
            "group_quota_round_robin_rate", d.group_quota_round_robin_rate, lo=1.0
        ),
        group_quota_max_allocation_rounds=r.int_(
            "group_quota_max_allocation_rounds", d.group_quota_max_allocation_rounds, lo=1
        ),
        strict_enforce_quota=r.get("strict_enforce_quota", r.boolean, d.strict_enforce_quota),
        use_weighted_demand=r.get("use_weighted_demand", r.boolean, d.use_weighted_demand),
        accept_surplus=r.get("accept_surplus", r.boolean, d.accept_surplus),
        autoregroup=r.get("autoregroup", r.boolean, d.autoregroup),
    )


def _machines(top: _Reader, file: str) -> tuple[MachineSpec, ...]:
    items = top.table.get("machines", [])
    if not isinstance(items, list):
        top.fail("machines: expected an array of tables ([[machines]])")
    out: list[MachineSpec] = []
    names: set[str] = set()
    total = 0
    for i, item in enumerate(items):
        r = _Reader(
            item,
            f"machines[{i}]",
            file,
            ("name", "count", "slots", "attributes", "start", "rank", "partitions"),
        )
        if not r.has("name"):
            r.fail(f"machines[{i}].name: required (machines are named <name>001, <name>002, ...)")
        name = r.get("name", r.string, "")
        if name in names:
            r.fail(f"machines[{i}].name: '{name}' is used by an earlier [[machines]] entry")
        names.add(name)
        attrs = r.table.get("attributes", {})
        if not isinstance(attrs, Mapping):
            r.fail(f"machines[{i}].attributes: expected a table of attribute = value")
        for k, v in attrs.items():
            at = f"machines[{i}].attributes.{k}"
            if not isinstance(v, (str, int, float, bool)):
                r.fail(f"{at}: expected a string, number or boolean")
            if isinstance(v, float) and not math.isfinite(v):
                r.fail(f"{at}: expected a finite number, got {v}")
            if isinstance(v, int) and not isinstance(v, bool) and not INT64_MIN <= v <= INT64_MAX:
                r.fail(f"{at}: expected a whole number that fits in 64 bits, got {v}")
        count = r.int_("count", 1, lo=0, hi=MAX_POOL_SLOTS)
        slots = r.int_("slots", 1, lo=1, hi=MAX_POOL_SLOTS)
        total += count * slots
        if total > MAX_POOL_SLOTS:
            r.fail(
                f"machines[{i}]: the [[machines]] entries expand to more than "
                f"{MAX_POOL_SLOTS:,} slots (count x slots); expected a smaller pool"
            )
        out.append(
            MachineSpec(
                name=name,
                count=count,
                slots=slots,
                attributes=dict(attrs),
                start=r.get("start", r.string, "true"),
                rank=r.get("rank", r.string, "0"),
                partitions=r.get("partitions", r.string_list, ()),
            )
        )
    return tuple(out)


def _groups(top: _Reader, file: str) -> dict[str, GroupSpec]:
    table = top.table.get("groups", {})
    r0 = _Reader(table, "groups", file, tuple(table) if isinstance(table, Mapping) else ())
    out: dict[str, GroupSpec] = {}
    lowered: dict[str, str] = {}
    for name, body in r0.table.items():
        where = f'groups."{name}"'
        if not name or name.startswith(".") or name.endswith(".") or ".." in name:
            r0.fail(f"{where}: a group name is dot-separated words")
        if name == "<none>":
            r0.fail(f'{where}: "<none>" is the root group and cannot be configured')
        if name.lower() in lowered:
            r0.fail(
                f'{where}: same name as groups."{lowered[name.lower()]}" '
                "(group names are case-insensitive)"
            )
        lowered[name.lower()] = name
        r = _Reader(
            body,
            where,
            file,
            ("quota", "dynamic_quota", "accept_surplus", "autoregroup", "prio_factor"),
        )
        quota = r.num("quota", None, lo=0.0, hi=2147483647.0)
        dyn = r.num("dynamic_quota", None, lo=0.0, hi=1.0)
        out[name] = GroupSpec(
            name=name,
            quota=quota,
            dynamic_quota=dyn,
            accept_surplus=r.get("accept_surplus", r.boolean, None),
            autoregroup=r.get("autoregroup", r.boolean, None),
            prio_factor=r.num("prio_factor", None, lo=1.0),
        )
    for name, spec in out.items():
        parent = spec.parent
        if parent is not None and parent not in out:
            r0.fail(
                f'groups."{name}": its parent group "{parent}" is not configured; '
                f'add [groups."{parent}"]'
            )
    return out


def _priority(top: _Reader, file: str, prof: Mapping[str, Any]) -> SlurmPriorityConfig:
    d = SlurmPriorityConfig()
    r = _Reader(
        top.table.get("priority", {}),
        "priority",
        file,
        (
            "type",
            "fairshare",
            "decay_halflife",
            "calc_period",
            "usage_reset_period",
            "max_age",
            "favor_small",
            "flags",
            "dampening_factor",
            "usage_normalization",
            "weights",
            "enforce_limits",
            "output_compat",
        ),
    )
    ptype = r.get("type", r.string, d.type)
    if ptype not in ("multifactor", "basic"):
        r.fail(f'priority.type: expected "multifactor" or "basic", got "{ptype}"')
    algo = r.get("fairshare", r.string, prof["priority.fairshare"])
    if algo not in FAIRSHARE_ALGORITHMS:
        hint = difflib.get_close_matches(algo, FAIRSHARE_ALGORITHMS, n=1)
        extra = f" (did you mean '{hint[0]}'?)" if hint else ""
        r.fail(
            f"priority.fairshare: expected one of {', '.join(FAIRSHARE_ALGORITHMS)}, "
            f'got "{algo}"{extra}'
        )
    reset = r.get("usage_reset_period", r.string, "NONE")
    if reset.upper() not in RESET_PERIODS:
        r.fail(
            f'priority.usage_reset_period: Bad value "{reset}" for PriorityUsageResetPeriod '
            f"(expected one of {', '.join(RESET_PERIODS)})"
        )
    halflife = r.dur("decay_halflife", d.decay_halflife, minutes=True)
    calc = r.dur("calc_period", d.calc_period, minutes=True)
    if 0 < halflife < 1:
        r.fail(
            f"priority.decay_halflife: expected 0 or at least 1 second, got {halflife:g} "
            "(the decay factor 1 - 0.693/half-life would not be positive)"
        )
    if math.isinf(calc):
        r.fail(
            f'priority.calc_period: Bad value "{r.table["calc_period"]}" for '
            "PriorityCalcPeriod (expected a finite period)"
        )
    if calc < 60:
        r.fail(
            f'priority.calc_period: Bad value "{r.table["calc_period"]}" for '
            "PriorityCalcPeriod (must be at least 1 minute)"
        )
    if halflife == 0 and reset.upper() == "NONE":
        r.fail(
            "priority.decay_halflife: You have to either have PriorityDecayHalfLife != 0 or "
            "PriorityUsageResetPeriod set to something or the priority plugin will result "
            "in rolling over."
        )
    norm = r.get("usage_normalization", r.string, d.usage_normalization)
    if norm not in ("total", "capacity"):
        r.fail(f'priority.usage_normalization: expected "total" or "capacity", got "{norm}"')
    return SlurmPriorityConfig(
        type=ptype,
        fairshare=algo,
        decay_halflife=halflife,
        calc_period=calc,
        usage_reset_period=reset.upper(),
        max_age=r.dur("max_age", d.max_age, minutes=True),
        favor_small=r.get("favor_small", r.boolean, d.favor_small),
        flags=tuple(f.upper() for f in r.get("flags", r.string_list, NO_STRINGS)),
        dampening_factor=r.int_("dampening_factor", d.dampening_factor, lo=1, hi=65535),
        usage_normalization=norm,
        weights=_weights(r, file, prof),
        enforce_limits=r.get("enforce_limits", r.boolean, d.enforce_limits),
        output_compat=_output_compat(r, d.output_compat),
    )


def _output_compat(r: _Reader, default: str) -> str:
    value = r.get("output_compat", r.string, default)
    if value not in ("current", "22.05"):
        r.fail(f'priority.output_compat: expected "current" or "22.05", got "{value}"')
    return value


def _weights(parent: _Reader, file: str, prof: Mapping[str, Any]) -> PriorityWeights:
    r = _Reader(
        parent.table.get("weights", {}),
        "priority.weights",
        file,
        ("age", "fairshare", "jobsize", "partition", "qos", "assoc", "tres"),
    )

    def weight(v: Any, k: str) -> int:
        return r.integer(v, k, lo=0, hi=UINT32_MAX)

    tres_raw = r.table.get("tres", {})
    if not isinstance(tres_raw, Mapping):
        r.fail("priority.weights.tres: expected a table like { cpu = 1000 }")
    tres = {
        str(k).lower(): r.number(v, f"priority.weights.tres.{k}", lo=0.0, hi=UINT32_MAX)
        for k, v in tres_raw.items()
    }
    return PriorityWeights(
        age=r.get("age", weight, prof["priority.weights.age"]),
        fairshare=r.get("fairshare", weight, prof["priority.weights.fairshare"]),
        jobsize=r.get("jobsize", weight, prof["priority.weights.jobsize"]),
        partition=r.get("partition", weight, prof["priority.weights.partition"]),
        qos=r.get("qos", weight, prof["priority.weights.qos"]),
        assoc=r.get("assoc", weight, 0),
        tres=tres,
    )


def _named_tables(top: _Reader, key: str) -> _Reader:
    table = top.table.get(key, {})
    return _Reader(table, key, top.file, tuple(table) if isinstance(table, Mapping) else ())


def _partitions(top: _Reader, file: str) -> dict[str, PartitionSpec]:
    r0 = _named_tables(top, "partitions")
    out: dict[str, PartitionSpec] = {}
    for name, body in r0.table.items():
        r = _Reader(
            body, f"partitions.{name}", file, ("priority_job_factor", "default", "max_time")
        )
        out[name] = PartitionSpec(
            name=name,
            priority_job_factor=r.int_("priority_job_factor", 1, lo=0, hi=65533),
            default=r.get("default", r.boolean, False),
            max_time=r.dur("max_time", None, minutes=True),
        )
    return out


def _qos(top: _Reader, file: str) -> dict[str, QosSpec]:
    r0 = _named_tables(top, "qos")
    out: dict[str, QosSpec] = {}
    for name, body in r0.table.items():
        r = _Reader(body, f"qos.{name}", file, ("priority", "usage_factor"))
        out[name] = QosSpec(
            name=name,
            priority=r.int_("priority", 0, lo=0, hi=UINT32_MAX),
            usage_factor=r.num("usage_factor", 1.0, lo=0.0),
        )
    return out


def _accounts(top: _Reader, file: str) -> dict[str, AccountSpec]:
    r0 = _named_tables(top, "accounts")
    out: dict[str, AccountSpec] = {}
    for name, body in r0.table.items():
        r = _Reader(
            body, f"accounts.{name}", file, ("parent", "shares", "users", *ASSOC_PRIORITY_KEYS)
        )
        users_raw = r.table.get("users", {})
        if not isinstance(users_raw, Mapping):
            r.fail(f"accounts.{name}.users: expected a table like {{ alice = 1 }}")
        users = {u: r.shares(v, f"accounts.{name}.users.{u}") for u, v in users_raw.items()}
        parent = None if name == "root" else r.get("parent", r.string, "root")
        if name == "root" and r.has("parent"):
            r.fail("accounts.root.parent: the root account has no parent")
        out[name] = AccountSpec(
            name=name,
            parent=parent,
            shares=r.get("shares", r.shares, DEFAULT_SHARES),
            users=users,
            **_assoc_priority(r, name, users),
        )
    if out:
        # Parents, cycles and shares of the association tree (fairshare_cli.core.slurm.assoc_tree).
        from fairshare_cli.core.slurm.assoc_tree import build_tree

        try:
            build_tree(out)
        except ConfigError as exc:
            r0.fail(str(exc))
    return out


ASSOC_PRIORITY_KEYS = ("priority", "user_priority")


def _assoc_priority(r: _Reader, name: str, users: Mapping[str, Any]) -> dict[str, Any]:
    """``priority`` and ``user_priority = { user = N }`` of an account (Slurm's uint32)."""
    table = r.table.get("user_priority", {})
    if not isinstance(table, Mapping):
        r.fail(f"accounts.{name}.user_priority: expected a table like {{ alice = 10 }}")
    for user in table:
        if user not in users:
            r.fail(f'accounts.{name}.user_priority.{user}: "{user}" is not in users')
    return {
        "priority": r.int_("priority", None, lo=0, hi=UINT32_MAX - 1),
        "user_priority": {
            u: r.integer(v, f"accounts.{name}.user_priority.{u}", lo=0, hi=UINT32_MAX - 1)
            for u, v in table.items()
        },
    }


def _dirac(top: _Reader, file: str) -> DiracConfig:
    """``[dirac]``: groups, share correction and the code-versus-docs switches.

    DIRAC reads JobShare and every corrector option as an integer and silently falls back
    to the default on anything else; here a non-integer is an error instead.
    """
    r = _Reader(
        top.table.get("dirac", {}),
        "dirac",
        file,
        ("groups", "correction", "job_priority_weighting", "cpu_segments"),
    )
    groups_raw = r.table.get("groups", {})
    names = tuple(groups_raw) if isinstance(groups_raw, Mapping) else ()
    g0 = _Reader(groups_raw, "dirac.groups", file, names)
    groups: dict[str, DiracGroupSpec] = {}
    for name, body in g0.table.items():
        g = _Reader(
            body, f"dirac.groups.{name}", file, ("job_share", "job_sharing", "allow_background_tqs")
        )
        groups[name] = DiracGroupSpec(
            name=name,
            job_share=g.int_("job_share", 1000, lo=0),
            job_sharing=g.get("job_sharing", g.boolean, False),
            allow_background_tqs=g.get("allow_background_tqs", g.boolean, False),
        )
    weighting = r.get("job_priority_weighting", _choice(r, ("average", "sum")), "average")
    segments = r.get("cpu_segments", _int_list(r), DIRAC_CPU_SEGMENTS)
    if not valid_cpu_segments(segments):
        r.fail(
            "dirac.cpu_segments: expected strictly increasing positive whole numbers of seconds "
            "(DIRAC would silently fall back to its default segments)"
        )
    c = _Reader(
        r.table.get("correction", {}),
        "dirac.correction",
        file,
        ("enabled", "instances", "absent_entities", "in_group_history"),
    )
    inst_raw = c.table.get("instances", [])
    if not isinstance(inst_raw, list):
        c.fail("dirac.correction.instances: expected an array of tables")
    instances = [_dirac_instance(body, i, file) for i, body in enumerate(inst_raw)]
    seen: dict[str, str] = {}
    for i, inst in enumerate(instances):
        key = inst.group or "<between groups>"
        if key in seen:
            what = f"group '{inst.group}'" if inst.group else "groups"
            c.fail(
                f"dirac.correction.instances[{i}]: instance '{inst.name}' corrects the same "
                f"{what} as '{seen[key]}'; DIRAC refuses two correctors for one key"
            )
        seen[key] = inst.name
        if inst.group and inst.group not in groups:
            c.fail(
                f"dirac.correction.instances[{i}].group: '{inst.group}' is not in "
                f"[dirac.groups] (known: {', '.join(sorted(groups)) or 'none'})"
            )
    return DiracConfig(
        groups=groups,
        correction=DiracCorrectionConfig(
            enabled=c.get("enabled", c.boolean, False),
            instances=tuple(instances),
            absent_entities=c.get(
                "absent_entities", _choice(c, ("max_correction", "weighted")), "max_correction"
            ),
            in_group_history=c.get("in_group_history", _choice(c, ("dn", "user")), "dn"),
        ),
        job_priority_weighting=weighting,
        cpu_segments=tuple(segments),
    )


def _dirac_instance(body: Any, i: int, file: str) -> DiracCorrectionInstance:
    """One ``[[dirac.correction.instances]]`` table, with DIRAC's defaults."""
    where = f"dirac.correction.instances[{i}]"
    ir = _Reader(body, where, file, ("name", "group", "max_global_correction", "slices"))
    slices_raw = ir.table.get("slices", [])
    if not isinstance(slices_raw, list):
        ir.fail(f"{where}.slices: expected a list of {{ time_span, weight, max_correction }}")
    slices: list[DiracSlice] = []
    for j, sb in enumerate(slices_raw):
        at = f"{where}.slices[{j}]"
        sr = _Reader(sb, at, file, ("time_span", "weight", "max_correction"))
        span = sr.get("time_span", sr.duration, 604800.0)
        if span <= 0 or not float(span).is_integer():
            sr.fail(
                f"{at}.time_span: expected a whole number of seconds above 0 "
                f"(or a time string), got {sr.table['time_span']!r}"
            )
        slices.append(
            DiracSlice(
                time_span=int(span),
                weight=sr.int_("weight", 1, lo=0),
                max_correction=sr.int_("max_correction", 3, lo=1),
            )
        )
    if sum(s.weight for s in slices) <= 0:
        ir.fail(
            f"{where}.slices: the slice weights sum to zero; give at least one slice a "
            "positive weight (DIRAC divides each weight by their sum)"
        )
    return DiracCorrectionInstance(
        name=ir.get("name", ir.string, f"instance{i}"),
        group=ir.get("group", ir.string, ""),
        max_global_correction=ir.int_("max_global_correction", 5, lo=1),
        slices=tuple(slices),
    )


def _choice(reader: _Reader, choices: tuple[str, ...]) -> Callable[[Any, str], str]:
    """A converter accepting one of ``choices``."""

    def convert(value: Any, key: str) -> str:
        text = reader.string(value, key)
        if text not in choices:
            wanted = ", ".join(f'"{c}"' for c in choices)
            reader.fail(f'{key}: expected one of {wanted}, got "{text}"')
        return text

    return convert


def _int_list(reader: _Reader) -> Callable[[Any, str], tuple[int, ...]]:
    """A converter for a list of positive whole numbers."""

    def convert(value: Any, key: str) -> tuple[int, ...]:
        if not isinstance(value, list):
            reader.fail(f"{key}: expected a list of whole numbers, got {_kind(value)}")
        return tuple(reader.integer(v, f"{key}[{k}]", lo=1) for k, v in enumerate(value))

    return convert


def check_expressions(config: Config) -> None:
    """Parse every ClassAd expression of the config (negotiator knobs, machine start/rank).

    Loading a config does not parse them (most commands never evaluate one); ``fs config
    check`` and the HTCondor views call this so that a typo names the file and key.

    Raises:
        ConfigError: naming the file and key of the first expression that does not parse.
    """
    from fairshare_cli.core.htcondor.classads import check_expression

    neg = config.negotiator
    texts = [
        (f"[negotiator] {key}", getattr(neg, key))
        for key in (
            "slot_weight",
            "preemption_requirements",
            "preemption_rank",
            "pre_job_rank",
            "post_job_rank",
            "group_sort_expr",
        )
    ]
    for spec in config.machines:
        texts += [
            (f"machine {spec.name} start", spec.start),
            (f"machine {spec.name} rank", spec.rank),
        ]
    for key, text in texts:
        if text is not None and text.strip():
            check_expression(text, f"{config.path}: {key}", ConfigError)
