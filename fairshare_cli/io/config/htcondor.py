"""HTCondor's config sections: pool, accountant, negotiator, machines and groups."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Mapping
from typing import Any

from fairshare_cli.core.config import (
    PROFILE_DEFAULTS,
    AccountantConfig,
    GroupSpec,
    MachineSpec,
    NegotiatorConfig,
    PoolConfig,
)
from fairshare_cli.core.htcondor.concurrency import parse_limits
from fairshare_cli.core.limits import INT32_MAX, INT64_MAX, INT64_MIN, MAX_POOL_SLOTS
from fairshare_cli.core.names import name_problem
from fairshare_cli.io.config.reader import Reader, kind


def read_pool(top: Reader, file: str) -> PoolConfig:
    r = Reader(
        top.table.get("pool", {}),
        "pool",
        file,
        (
            "name",
            "uid_domain",
            "local_domains",
            "defaults",
            "state",
            "usage_history_window",
            "start",
            "rank",
            *CONSUMPTION_KEYS,
        ),
    )
    defaults = r.get("defaults", r.string, "legacy")
    if defaults not in PROFILE_DEFAULTS:
        r.fail(f'pool.defaults: expected "legacy" or "current", got "{defaults}"')
    state = r.get("state", r.string, None)
    if state is not None and (not state.strip() or "\0" in state):
        # (empty: the user state folder in silence, as --state "" did; a NUL: a ValueError)
        what = "an empty path" if not state.strip() else "a path with a NUL character"
        r.fail(f"pool.state: {what}; give the state file's path, or leave the key out")
    return PoolConfig(
        name=r.get("name", r.name, "pool"),
        uid_domain=r.get("uid_domain", r.name, "localdomain"),
        local_domains=r.get("local_domains", r.name_list, ()),
        defaults=defaults,  # type: ignore[arg-type]
        state=state,
        usage_history_window=r.dur("usage_history_window", 90 * 86400.0),
        start=r.get("start", r.string, "true"),
        rank=r.get("rank", r.string, "0"),
        **_consumption(r, "pool", PoolConfig(), True, strict=False),
    )


def read_accountant(top: Reader, file: str, prof: Mapping[str, Any]) -> AccountantConfig:
    r = Reader(
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


def read_negotiator(top: Reader, file: str, prof: Mapping[str, Any]) -> NegotiatorConfig:
    d = NegotiatorConfig()
    r = Reader(
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
            "consider_preemption",
            "depth_first",
            "matchlist_caching",
            "ignore_user_priorities",
            "slot_constraint",
            "slot_poolsize_constraint",
            "submitter_constraint",
            "job_constraint",
            "concurrency_limits",
            "concurrency_limit_default",
            "concurrency_limit_scope_defaults",
            *CYCLE_TIMES,
        ),
    )
    times = {key: _cycle_time(r, key, getattr(d, key)) for key in CYCLE_TIMES}
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
        consider_preemption=r.get("consider_preemption", r.boolean, d.consider_preemption),
        depth_first=r.get("depth_first", r.boolean, d.depth_first),
        matchlist_caching=r.get("matchlist_caching", r.boolean, d.matchlist_caching),
        ignore_user_priorities=r.get("ignore_user_priorities", r.boolean, d.ignore_user_priorities),
        slot_constraint=r.get("slot_constraint", r.string, None),
        slot_poolsize_constraint=r.get("slot_poolsize_constraint", r.string, None),
        submitter_constraint=r.get("submitter_constraint", r.string, None),
        job_constraint=r.get("job_constraint", r.string, None),
        concurrency_limits=r.get("concurrency_limits", _limit_table(r), d.concurrency_limits),
        concurrency_limit_default=r.num(
            "concurrency_limit_default", d.concurrency_limit_default, lo=0.0
        ),
        concurrency_limit_scope_defaults=r.get(
            "concurrency_limit_scope_defaults", _scope_table(r), d.concurrency_limit_scope_defaults
        ),
        **times,
    )


#: ``[negotiator]`` keys of when cycles start: ``NEGOTIATOR_INTERVAL``,
#: ``NEGOTIATOR_CYCLE_DELAY``, ``NEGOTIATOR_MIN_INTERVAL``.
CYCLE_TIMES = ("interval", "cycle_delay", "min_interval")


def _cycle_time(r: Reader, key: str, default: float) -> float:
    """A finite duration: above 0 for ``interval`` (``fs simulate`` needs a cycle), 0 or
    more for the delays. A negative ``interval`` is refused in the words of 0's (it was
    told "a duration of 0 or more seconds", and then 0 was refused)."""
    what = "above 0" if key == "interval" else "of 0 or more"

    def convert(value: Any, where: str) -> float:
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        seconds = r.number(value, where) if number else r.duration(value, where)
        if not math.isfinite(seconds) or seconds < 0 or (key == "interval" and seconds == 0):
            r.fail(f"{where}: expected a finite duration {what} seconds, got {seconds:g}")
        return float(seconds)

    return float(r.get(key, convert, default))


def _limit_table(r: Reader) -> Callable[[Any, str], dict[str, float]]:
    """``[negotiator] concurrency_limits = { NAME = N }``: ``NAME_LIMIT`` (names are
    case-insensitive, as HTCondor's knobs; a name is an attribute name, or two joined by a
    dot)."""

    def convert(value: Any, key: str) -> dict[str, float]:
        if not isinstance(value, Mapping):
            r.fail(f"{key}: expected a table of limit names to numbers, got {kind(value)}")
        out: dict[str, float] = {}
        for name, n in value.items():
            where = f"{key}.{name}"
            if not parse_limits(name) or parse_limits(name)[0][0] != name.lower():
                r.fail(f"{where}: expected a limit name (letters, digits, _; one dot at most)")
            if name.lower() in out:
                r.fail(f"{where}: the same limit as another key (names ignore case)")
            out[name.lower()] = r.number(n, where, lo=0.0)
        return out

    return convert


def _scope_table(r: Reader) -> Callable[[Any, str], dict[str, float]]:
    """``[negotiator] concurrency_limit_scope_defaults = { SCOPE = N }``:
    ``CONCURRENCY_LIMIT_DEFAULT_<SCOPE>``, the maximum of a limit ``SCOPE.name`` that has
    no ``NAME_LIMIT`` of its own (scopes are attribute names; case is ignored)."""

    def convert(value: Any, key: str) -> dict[str, float]:
        if not isinstance(value, Mapping):
            r.fail(f"{key}: expected a table of scope names to numbers, got {kind(value)}")
        out: dict[str, float] = {}
        for name, n in value.items():
            where = f"{key}.{name}"
            if "." in name or not parse_limits(name) or parse_limits(name)[0][0] != name.lower():
                r.fail(f"{where}: expected a scope name (letters, digits and _)")
            if name.lower() in out:
                r.fail(f"{where}: the same scope as another key (names ignore case)")
            out[name.lower()] = r.number(n, where, lo=0.0)
        return out

    return convert


def read_machines(
    top: Reader, file: str, pool: PoolConfig | None = None
) -> tuple[MachineSpec, ...]:
    """``[[machines]]``; an entry without ``start`` / ``rank`` (a partitionable one without
    the consumption-policy keys) takes ``[pool]``'s."""
    pool = pool or PoolConfig()
    items = top.table.get("machines", [])
    if not isinstance(items, list):
        top.fail("machines: expected an array of tables ([[machines]])")
    out: list[MachineSpec] = []
    names: set[str] = set()
    seen_hosts: set[str] = set()
    total = 0
    for i, item in enumerate(items):
        r = Reader(
            item,
            f"machines[{i}]",
            file,
            (
                "name",
                "count",
                "slots",
                "attributes",
                "start",
                "rank",
                "partitions",
                "hosts",
                "partitionable",
                *CONSUMPTION_KEYS,
            ),
        )
        if not r.has("name"):
            r.fail(f"machines[{i}].name: required (machines are named <name>001, <name>002, ...)")
        name = r.get("name", r.name, "")
        if name in names:
            r.fail(f"machines[{i}].name: '{name}' is used by an earlier [[machines]] entry")
        names.add(name)
        attrs = r.table.get("attributes", {})
        if not isinstance(attrs, Mapping):
            r.fail(f"machines[{i}].attributes: expected a table of attribute = value")
        _check_attributes(r, i, attrs)
        hosts, count = _hosts_and_count(r, i, seen_hosts)
        slots = r.int_("slots", 1, lo=1, hi=MAX_POOL_SLOTS)
        split = _partitionable(r, i, attrs)
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
                start=r.get("start", r.string, pool.start),
                rank=r.get("rank", r.string, pool.rank),
                partitions=r.get("partitions", r.name_list, ()),
                hosts=hosts,
                partitionable=split,
                **_consumption(r, f"machines[{i}]", pool, split),
            )
        )
    return tuple(out)


#: ``[[machines]]`` keys of a consumption policy (``CONSUMPTION_POLICY`` and its knobs).
CONSUMPTION_KEYS = (
    "consumption_policy",
    "num_claims",
    "consumption_cpus",
    "consumption_memory",
    "consumption_disk",
)


def _consumption(
    r: Reader, where: str, pool: PoolConfig, partitionable: bool, strict: bool = True
) -> dict[str, Any]:
    """The consumption-policy keys: ``consumption_policy`` (a boolean, only on a
    partitionable slot), ``num_claims`` (a whole number of 1 or more) and the
    ``consumption_*`` expressions, each defaulting to ``pool``'s. With ``strict`` (a
    machine) the others need the policy on; a machine that is not partitionable has none."""
    policy = r.get("consumption_policy", r.boolean, None)
    if policy and not partitionable:
        r.fail(
            f"{where}.consumption_policy: a consumption policy is for a partitionable slot; "
            "add partitionable = true"
        )
    effective = partitionable and (pool.consumption_policy if policy is None else policy)
    given = [k for k in CONSUMPTION_KEYS[1:] if r.has(k)]
    if strict and given and not effective:
        r.fail(f"{where}.{given[0]}: only with consumption_policy = true")
    out: dict[str, Any] = {"consumption_policy": effective}
    out["num_claims"] = (
        int(r.int_("num_claims", 1, lo=1, hi=MAX_POOL_SLOTS))
        if r.has("num_claims")
        else pool.num_claims
    )
    for key in CONSUMPTION_KEYS[2:]:
        text = r.get(key, r.string, getattr(pool, key))
        if not text.strip():
            r.fail(f"{where}.{key}: expected a ClassAd expression, got ''")
        out[key] = text
    return out


def _check_attributes(r: Reader, i: int, attrs: Mapping[str, Any]) -> None:
    """``attributes``: names (not blank, no control characters) to finite literals; a
    resource never negative."""
    for k, v in attrs.items():
        at = f"machines[{i}].attributes.{k}"
        if (problem := name_problem(k)) is not None:
            r.fail(f"machines[{i}].attributes: an attribute name: {problem}")
        if not isinstance(v, (str, int, float, bool)):
            r.fail(f"{at}: expected a string, number or boolean")
        if isinstance(v, float) and not math.isfinite(v):
            r.fail(f"{at}: expected a finite number, got {v}")
        if isinstance(v, int) and not isinstance(v, bool) and not INT64_MIN <= v <= INT64_MAX:
            r.fail(f"{at}: expected a whole number that fits in 64 bits, got {v}")
        if k.lower() in RESOURCE_ATTRIBUTES and type(v) in (int, float) and v < 0:
            r.fail(f"{at}: expected a number of 0 or more (a slot resource), got {v!r}")
        if k.lower() in RESOURCE_ATTRIBUTES and type(v) is float and v > INT64_MAX:
            # (a pool's totals, count x slots x Cpus, would overflow to infinity)
            r.fail(f"{at}: expected a number that fits in 64 bits (a slot resource), got {v!r}")


def _partitionable(r: Reader, i: int, attrs: Mapping[str, Any]) -> bool:
    """``partitionable``: a boolean; a partitionable slot needs whole ``Cpus`` of at least 1
    (the startd carves whole CPUs out of it)."""
    if not r.get("partitionable", r.boolean, False):
        return False
    cpus = {k.lower(): v for k, v in attrs.items()}.get("cpus")
    if type(cpus) is not int or cpus < 1:
        r.fail(
            f"machines[{i}].partitionable: a partitionable slot needs attributes.Cpus, "
            f"a whole number of 1 or more (its total CPUs), got {cpus!r}"
        )
    return True


def _hosts_and_count(r: Reader, i: int, seen: set[str]) -> tuple[tuple[str, ...], int]:
    """``hosts`` (machine names, each once in the pool) and ``count`` (their number if
    named; else given, default 1)."""
    hosts: tuple[str, ...] = r.get("hosts", r.name_list, tuple[str, ...]())
    if len(set(hosts)) != len(hosts) or seen.intersection(hosts):
        r.fail(f"machines[{i}].hosts: each machine may be named only once")
    seen.update(hosts)
    count = r.int_("count", len(hosts) or 1, lo=0, hi=MAX_POOL_SLOTS)
    if hosts and count != len(hosts):
        r.fail(f"machines[{i}].count: {count} but hosts names {len(hosts)} machines")
    return hosts, int(count)


#: Machine attributes that are amounts of a resource: never negative (lower case).
RESOURCE_ATTRIBUTES = frozenset(
    ("cpus", "memory", "disk", "gpus", "swap", "totalcpus", "totalmemory", "totaldisk")
)


def read_groups(top: Reader, file: str) -> dict[str, GroupSpec]:
    table = top.table.get("groups", {})
    r0 = Reader(table, "groups", file, frozenset(table) if isinstance(table, Mapping) else ())
    r0.check_names(r0.table)
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
        r = Reader(
            body,
            where,
            file,
            ("quota", "dynamic_quota", "accept_surplus", "autoregroup", "prio_factor"),
        )
        quota = r.num("quota", None, lo=0.0, hi=float(INT32_MAX))
        dyn = _dynamic_quota(r)
        out[name] = GroupSpec(
            name=name,
            quota=quota,
            dynamic_quota=dyn,
            accept_surplus=r.get("accept_surplus", r.boolean, None),
            autoregroup=r.get("autoregroup", r.boolean, None),
            prio_factor=r.num("prio_factor", None),
        )
    for name, spec in out.items():
        parent = spec.parent
        if parent is not None and parent not in out:
            r0.fail(
                f'groups."{name}": its parent group "{parent}" is not configured; '
                f'add [groups."{parent}"]'
            )
    return out


def _dynamic_quota(r: Reader) -> float | None:
    """A group's ``dynamic_quota``: a fraction of its parent's quota, from 0 to 1, as the
    negotiator reads ``GROUP_QUOTA_DYNAMIC_<name>`` (``param_double(..., 0.0, 1.0)``); a
    number above 1 is refused as a fraction, and a percentage (``60``, ``"60%"``) naming
    the fraction it means.

    Raises:
        ConfigError: not a number from 0 to 1.
    """
    raw: Any = r.table.get("dynamic_quota")
    above = isinstance(raw, (int, float)) and not isinstance(raw, bool) and 1 < raw <= 100
    percent: float | None = None
    if isinstance(raw, str) and raw.strip().endswith("%"):
        with contextlib.suppress(ValueError):
            percent = float(raw.strip()[:-1])
        above = percent is not None and 0 <= percent <= 100
    elif above and float(raw).is_integer():
        percent = float(raw)
    if above:
        hint = "" if percent is None else f"; for {percent:g}% give {percent / 100:g}"
        shown = f'"{raw}"' if isinstance(raw, str) else raw
        r.fail(
            f"{r.key('dynamic_quota')}: a fraction of the parent's quota, from 0 to 1, got"
            f" {shown}{hint}"
        )
    dyn: float | None = r.num("dynamic_quota", None, lo=0.0, hi=1.0)
    return dyn
