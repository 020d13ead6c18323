"""Slurm's config sections: priority (and its weights), partitions, qos and accounts."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import timezone, tzinfo
from typing import Any

from fairshare_cli.core.config import (
    AccountSpec,
    MachineSpec,
    PartitionSpec,
    PriorityWeights,
    QosSpec,
    SlurmPriorityConfig,
    part_enforce_type,
)
from fairshare_cli.core.limits import UINT32_MAX
from fairshare_cli.core.slurm.billing import billing_weights
from fairshare_cli.core.slurm.factors import effective_algorithm, parse_tres_weights
from fairshare_cli.core.slurm.fairshare import ALGORITHMS
from fairshare_cli.core.timestr import (
    STORED_INFINITE_MAX_AGE,
    TimeStringError,
    format_slurm_time,
    slurm_conf_minutes,
    time_str2secs,
)
from fairshare_cli.errors import ConfigError, did_you_mean
from fairshare_cli.io.config.reader import Reader, named_tables, plain_names
from fairshare_cli.io.config.slurm_tres import gres_types, tracked_weights, untracked_weight

NO_STRINGS: tuple[str, ...] = ()


DEFAULT_SHARES: int | str = 1


RESET_PERIODS = ("NONE", "NOW", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY")


#: The ``[priority]`` keys (the backfill ones: :data:`BACKFILL_LIMITS`).
PRIORITY_KEYS = (
    "type",
    "fairshare",
    "decay_halflife",
    "calc_period",
    "usage_reset_period",
    "usage_reset_time_zone",
    "max_age",
    "favor_small",
    "flags",
    "dampening_factor",
    "usage_normalization",
    "weights",
    "enforce_limits",
    "enforce_part_limits",
    "output_compat",
    "bf_max_job_test",
    "bf_window",
    "bf_resolution",
    "bf_interval",
    "over_time_limit",
    "kill_wait",
    "accounting_storage_tres",
    "gres_types",
)


def read_priority(top: Reader, file: str, prof: Mapping[str, Any]) -> SlurmPriorityConfig:
    d = SlurmPriorityConfig()
    r = Reader(
        top.table.get("priority", {}),
        "priority",
        file,
        PRIORITY_KEYS,
    )
    ptype = r.get("type", r.string, d.type)
    if ptype not in ("multifactor", "basic"):
        r.fail(f'priority.type: expected "multifactor" or "basic", got "{ptype}"')
    algo = r.get("fairshare", r.string, prof["priority.fairshare"])
    if algo not in ALGORITHMS:
        extra = did_you_mean(algo, ALGORITHMS)
        r.fail(f'priority.fairshare: expected one of {", ".join(ALGORITHMS)}, got "{algo}"{extra}')
    reset = r.get("usage_reset_period", r.string, "NONE")
    if reset.upper() not in RESET_PERIODS:
        r.fail(
            f'priority.usage_reset_period: Bad value "{reset}" for PriorityUsageResetPeriod '
            f"(expected one of {', '.join(RESET_PERIODS)})"
        )
    halflife = _stored_minutes(r, "decay_halflife", d.decay_halflife)
    calc = _calc_period(r, d.calc_period)
    if 0 < halflife < 1:
        r.fail(
            f"priority.decay_halflife: expected 0 or at least 1 second, got {halflife:g} "
            "(the decay factor 1 - 0.693/half-life would not be positive)"
        )
    if calc < 60:
        given = r.table["calc_period"]
        unit = "" if isinstance(given, str) else ' (a TOML number is seconds: write "1" or 60)'
        r.fail(
            f'priority.calc_period: Bad value "{given}" for '
            f"PriorityCalcPeriod (must be at least 1 minute){unit}"
        )
    if halflife == 0 and "usage_reset_period" not in r.table:  # (read_config.c: an unset
        # PriorityUsageResetPeriod alone; a NONE given starts with no decay nor reset)
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
        usage_reset_time_zone=_time_zone(r),
        max_age=_stored_minutes(r, "max_age", d.max_age),
        favor_small=r.get("favor_small", r.boolean, d.favor_small),
        flags=tuple(f.upper() for f in r.get("flags", r.string_list, NO_STRINGS)),
        dampening_factor=_dampening_factor(r, algo, d.dampening_factor),
        usage_normalization=norm,
        weights=tracked_weights(r, _weights(r, file, prof)),
        enforce_limits=r.get("enforce_limits", r.boolean, d.enforce_limits),
        enforce_part_limits=_enforce_part_limits(r, d.enforce_part_limits),
        output_compat=_output_compat(r, d.output_compat),
        bf_max_job_test=_backfill(r, "bf_max_job_test", d.bf_max_job_test),
        bf_window=_backfill(r, "bf_window", d.bf_window),
        bf_resolution=_backfill(r, "bf_resolution", d.bf_resolution),
        bf_interval=_backfill(r, "bf_interval", d.bf_interval),
        over_time_limit=over_time_limit(r, "priority", d.over_time_limit),
        kill_wait=r.int_("kill_wait", d.kill_wait, lo=0, hi=65535),
        accounting_storage_tres=r.get("accounting_storage_tres", r.string, None),
        gres_types=gres_types(r),
    )


def _dampening_factor(r: Reader, algo: str, default: int) -> int:
    """``dampening_factor`` (``FairShareDampeningFactor``, a ``uint16_t``): 0 too, which
    slurmctld takes, but not where classic or depth-oblivious fair share divides by it
    (``_set_assoc_fs_factor``: a factor of 0, or NaN for no usage), which fs does not
    model; Fair Tree and ``linear`` never read it."""
    value: int = r.int_("dampening_factor", default, lo=0, hi=65535)
    flags = r.get("flags", r.string_list, NO_STRINGS)
    if value == 0 and effective_algorithm(algo, flags) in ("classic", "depth_oblivious"):
        r.fail(
            "priority.dampening_factor: 0 under classic or depth-oblivious fair share, where "
            "slurmctld divides by it (a FairShare of 0, NaN for no usage), which fs does not "
            "model; expected 1 to 65535, or 0 under Fair Tree"
        )
    return value


#: The largest ``OverTimeLimit`` in minutes short of UNLIMITED (``INFINITE16`` is 65535).
MAX_OVER_TIME_LIMIT = 65534


def over_time_limit(r: Reader, section: str, default: float | None) -> Any:
    """``over_time_limit``: seconds (a string: minutes, ``"UNLIMITED"``), whole minutes,
    at most :data:`MAX_OVER_TIME_LIMIT` of them, as slurmctld keeps it (a ``uint16_t`` of
    minutes)."""
    value = r.dur("over_time_limit", default, minutes=True)
    if value is None or math.isinf(value):
        return value
    if value % 60 or value > MAX_OVER_TIME_LIMIT * 60:
        given = r.table["over_time_limit"]
        r.fail(
            f"{section}.over_time_limit: expected whole minutes, at most {MAX_OVER_TIME_LIMIT}"
            f' (OverTimeLimit), or "UNLIMITED", got {given!r}'
            + (" (a TOML number is seconds)" if not isinstance(given, str) else "")
        )
    return value


#: The backfill ``SchedulerParameters`` and their largest values (``_load_config`` in
#: ``src/plugins/sched/backfill/backfill.c``: ``MAX_BF_MAX_JOB_TEST``, ``MAX_BACKFILL_WINDOW``
#: in minutes, ``MAX_BACKFILL_RESOLUTION``, ``MAX_BACKFILL_INTERVAL``); each is at least 1.
BACKFILL_LIMITS: dict[str, int] = {
    "bf_max_job_test": 1000000,
    "bf_window": 30 * 24 * 60,
    "bf_resolution": 3600,
    "bf_interval": 10800,
}


def _backfill(r: Reader, key: str, default: int) -> int:
    value: int = r.int_(key, default, lo=1, hi=BACKFILL_LIMITS[key])
    return value


def _enforce_part_limits(r: Reader, default: str) -> str:
    value = r.get("enforce_part_limits", r.string, default)
    known = part_enforce_type(value)
    if known is None:
        r.fail(
            f'priority.enforce_part_limits: Bad EnforcePartLimits "{value}" '
            '(expected "NO", "ANY" or "ALL"; "YES" is "ANY")'
        )
    return known or default


def _output_compat(r: Reader, default: str) -> str:
    value = r.get("output_compat", r.string, default)
    if value not in ("current", "22.05"):
        r.fail(f'priority.output_compat: expected "current" or "22.05", got "{value}"')
    return value


def _weights(parent: Reader, file: str, prof: Mapping[str, Any]) -> PriorityWeights:
    r = Reader(
        parent.table.get("weights", {}),
        "priority.weights",
        file,
        ("age", "fairshare", "jobsize", "partition", "qos", "assoc", "tres"),
    )

    def weight(v: Any, k: str) -> int:
        return r.integer(v, k, lo=0, hi=UINT32_MAX)

    tres_raw = r.table.get("tres", {})
    tres_text = tres_raw if isinstance(tres_raw, str) else None
    tres: dict[str, float] = {}
    if tres_text is not None:
        try:
            tres = parse_tres_weights(tres_text)
        except ValueError as exc:
            r.fail(f"priority.weights.tres: {exc}")
    elif not isinstance(tres_raw, Mapping):
        r.fail('priority.weights.tres: expected a table like { cpu = 1000 } or "CPU=1000,Mem=2G"')
    else:
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
        tres_text=tres_text,
    )


def read_partitions(
    top: Reader, file: str, machines: Sequence[MachineSpec] = ()
) -> dict[str, PartitionSpec]:
    """``[partitions]``; a partition a machine names is one of them, as slurmctld will
    not start on a ``PartitionName`` line naming a node it has no ``NodeName`` line for.

    Raises:
        ConfigError: naming the key of a bad value, or the machine naming an unknown
            partition.
    """
    r0 = named_tables(top, "partitions")
    out: dict[str, PartitionSpec] = {}
    priority = top.table.get("priority")
    tracked = priority.get("accounting_storage_tres") if isinstance(priority, Mapping) else None
    tracked = tracked if isinstance(tracked, str) else None  # (else [priority] refuses it)
    for name, body in r0.table.items():
        keys: tuple[str, ...] = ("priority_job_factor", "default", "max_time", "default_time")
        keys += ("priority_tier", "max_nodes", "min_nodes", "billing_weights", "over_time_limit")
        r = Reader(body, f"partitions.{name}", file, keys)
        weights = r.get("billing_weights", r.string, None)
        if weights:
            try:
                parsed = billing_weights(weights)
            except ValueError as exc:
                r.fail(f"partitions.{name}.billing_weights: {exc}")
            compat = priority.get("output_compat") if isinstance(priority, Mapping) else None
            key = f"partitions.{name}.billing_weights"
            why = untracked_weight(parsed, tracked, key, compat or "current")
            if why:
                r.fail(why)
        out[name] = PartitionSpec(
            name=name,
            priority_job_factor=r.int_("priority_job_factor", 1, lo=0, hi=65533),
            default=r.get("default", r.boolean, False),
            max_time=r.dur("max_time", None, minutes=True),
            default_time=_default_time(r, name),
            priority_tier=r.int_("priority_tier", 1, lo=0, hi=65533),
            max_nodes=r.int_("max_nodes", None, lo=0, hi=UINT32_MAX - 1),
            min_nodes=r.int_("min_nodes", 0, lo=0, hi=UINT32_MAX - 1),
            billing_weights=weights or None,
            over_time_limit=over_time_limit(r, f"partitions.{name}", None),
        )
    for i, machine in enumerate(machines):
        for name in machine.partitions:
            if name not in out:
                known = ", ".join(out) or "none"
                r0.fail(
                    f'machines[{i}] ({machine.name}).partitions: unknown partition "{name}"'
                    f"{did_you_mean(name, out)}; add [partitions.{name}] or name one of the"
                    f" [partitions]: {known}"
                )
    return out


#: The ``[priority]`` keys slurm.conf gives in minutes, read as slurmctld reads them.
MINUTES_KNOBS = {"max_age": "PriorityMaxAge", "decay_halflife": "PriorityDecayHalfLife"}


def _calc_period(r: Reader, default: float) -> float:
    """``calc_period``: a Slurm time string read as slurmctld reads ``PriorityCalcPeriod``
    (``time_str2mins`` in a C ``int``, times 60, as for ``max_age``: an overflow wrapped or
    refused; INFINITE refused, as its -1 minutes are below 1), or a plain number of
    seconds. What is below a minute is the caller's to refuse."""

    def read(value: Any, where: str) -> float:
        if not isinstance(value, str):
            return float(r.duration(value, where, minutes=True))
        try:
            infinite = math.isinf(time_str2secs(value))
            stored = 0.0 if infinite else slurm_conf_minutes(value, "PriorityCalcPeriod")
        except TimeStringError as exc:
            r.fail(f"{where}: {exc}; a plain number is seconds")
        if infinite or stored == STORED_INFINITE_MAX_AGE:
            r.fail(
                f'{where}: Bad value "{value}" for PriorityCalcPeriod (expected a finite period)'
            )
        return stored

    return r.get("calc_period", read, default)


def _stored_minutes(r: Reader, key: str, default: float) -> float:
    """``max_age`` or ``decay_halflife``: a Slurm time string read as slurmctld reads
    its knob (:func:`~fairshare_cli.core.timestr.slurm_conf_minutes`: an overflow of its
    ``int`` wrapped or refused, INFINITE a finite 4294967236 seconds, which ``max_age``
    keeps as infinite), or a plain number of seconds."""

    def read(value: Any, where: str) -> float:
        if not isinstance(value, str):
            return float(r.duration(value, where, minutes=True))
        try:
            stored = slurm_conf_minutes(value, MINUTES_KNOBS[key])
        except TimeStringError as exc:
            r.fail(f"{where}: {exc}; a plain number is seconds")
        if key == "max_age" and stored == STORED_INFINITE_MAX_AGE:
            return math.inf
        return stored

    return r.get(key, read, default)


def _time_zone(r: Reader) -> tzinfo:
    """``usage_reset_time_zone``: an IANA name (``"Europe/Berlin"``), loaded here (the
    core reads no time zone database); ``"UTC"``, the default, loads nothing."""
    name = r.get("usage_reset_time_zone", r.string, "UTC")
    if name.upper() == "UTC":
        return timezone.utc
    from zoneinfo import ZoneInfo

    try:
        return ZoneInfo(name)
    except (KeyError, ValueError, OSError):  # (not found: ZoneInfoNotFoundError, a KeyError)
        r.fail(
            f'priority.usage_reset_time_zone: "{name}" is no time zone of this system\'s'
            " database (nor of the tzdata package); expected an IANA name such as"
            ' "Europe/Berlin" (the local time of the host slurmctld runs on), or "UTC"'
        )
        return timezone.utc  # (not reached: fail raises)


def _default_time(r: Reader, name: str) -> float | None:
    """``default_time``, at most ``max_time`` (slurmctld ignores a larger ``DefaultTime``,
    logging "DefaultTime exceeds MaxTime": ``_build_single_partitionline_info``)."""
    value: float | None = r.dur("default_time", None, minutes=True)
    top = r.dur("max_time", None, minutes=True)
    if value is not None and top is not None and value > top:
        r.fail(
            f"partitions.{name}.default_time: {format_slurm_time(value)} exceeds max_time"
            f" {format_slurm_time(top)}; slurmctld ignores such a DefaultTime: lower it or"
            " remove it"
        )
    return value


def read_qos(top: Reader, file: str) -> dict[str, QosSpec]:
    r0 = named_tables(top, "qos")
    out: dict[str, QosSpec] = {}
    for name, body in r0.table.items():
        r = Reader(body, f"qos.{name}", file, ("priority", "usage_factor"))
        out[name] = QosSpec(
            name=name,
            priority=r.int_("priority", 0, lo=0, hi=UINT32_MAX),
            usage_factor=r.num("usage_factor", 1.0, lo=0.0),
        )
    return out


def read_accounts(top: Reader, file: str) -> dict[str, AccountSpec]:
    r0 = named_tables(top, "accounts")
    out: dict[str, AccountSpec] = {}
    for name, body in r0.table.items():
        out[name] = _plain_account(name, body) or _read_account(name, body, file)
    if out:
        # Parents, cycles and shares of the association tree (fairshare_cli.core.slurm.assoc_tree).
        from fairshare_cli.core.slurm.assoc_tree import check_tree

        try:
            check_tree(out)
        except ConfigError as exc:
            r0.fail(str(exc))
    return out


def _read_account(name: str, body: Any, file: str) -> AccountSpec:
    """One ``[accounts.<name>]`` table, every key checked (naming the key when wrong)."""
    r = Reader(body, f"accounts.{name}", file, ("parent", "shares", "users", *ASSOC_PRIORITY_KEYS))
    users_raw = r.table.get("users", {})
    if not isinstance(users_raw, Mapping):
        r.fail(f"accounts.{name}.users: expected a table like {{ alice = 1 }}")
    r.check_names(users_raw, "users")
    users = {u: r.shares(v, f"accounts.{name}.users.{u}") for u, v in users_raw.items()}
    parent = None if name == "root" else r.get("parent", r.name, "root")
    if name == "root" and r.has("parent"):
        r.fail("accounts.root.parent: the root account has no parent")
    return AccountSpec(
        name=name,
        parent=parent,
        shares=r.get("shares", r.shares, DEFAULT_SHARES),
        users=users,
        **_assoc_priority(r, name, users),
    )


_PLAIN_KEYS = frozenset(("parent", "shares", "users"))
_INT = {int}


def _plain_account(name: str, body: Any) -> AccountSpec | None:
    """What :func:`_read_account` reads from a table of the usual shape (a parent name,
    whole shares, users with whole shares and good names), read without its general
    checks (a 10,000-account tree in a tenth of the time); None sends any other table
    there, which reads it or names what is wrong."""
    if type(body) is not dict or not body.keys() <= _PLAIN_KEYS or name == "root":
        return None
    parent = body.get("parent", "root")
    shares = body.get("shares", DEFAULT_SHARES)
    users = body.get("users", {})
    if type(parent) is not str or not parent or type(shares) is not int or type(users) is not dict:
        return None
    if not 0 <= shares <= UINT32_MAX or not plain_names({parent: parent}):
        return None
    if users:
        values = users.values()
        if set(map(type, values)) != _INT or min(values) < 0 or max(values) > UINT32_MAX:
            return None
        if not plain_names(users):
            return None
    return AccountSpec(
        name=name, parent=parent, shares=shares, users=dict(users), priority=None, user_priority={}
    )


ASSOC_PRIORITY_KEYS = ("priority", "user_priority")


def _assoc_priority(r: Reader, name: str, users: Mapping[str, Any]) -> dict[str, Any]:
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
