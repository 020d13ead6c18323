"""HTCondor knobs -> our config keys (docs/config.md names each key's knob).

:func:`fragment_from_knobs` maps the knobs the pool config models, under their real names,
to a config fragment, and names every other knob as ignored. Values are read as HTCondor
reads them: booleans case-insensitively (``True``/``false``), numbers plain or as constant
ClassAd expressions (``24 * 3600``, as ``param_double`` evaluates them; a non-number is an
error naming the knob's line), expressions as text.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from fairshare_cli.core.limits import INT32_MAX
from fairshare_cli.core.names import check_name
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.condor_config import ConfigFile


def _bool(text: str, where: str) -> bool:
    low = text.strip().lower()
    if low in ("true", "t", "yes", "1"):
        return True
    if low in ("false", "f", "no", "0"):
        return False
    raise InputError(f"{where}: expected True or False, got '{text}'")


def _float(text: str, where: str) -> float:
    try:  # (strtod's number: Python's float also takes 1_000)
        value = float(text.strip()) if "_" not in text else _constant(text, where)
    except ValueError:
        value = _constant(text, where)
    if not math.isfinite(value):  # (1e400: an infinity no int() nor pool config takes)
        raise InputError(f"{where}: expected a finite number, got '{text}'")
    return value


def _constant(text: str, where: str) -> float:
    """A number written as an expression (``24 * 3600``), as ``param_double`` and
    ``param_integer`` read one that is not a plain number: a ClassAd expression evaluated
    in an empty ad, whose number (a boolean counting 1 or 0) is the knob's value; an
    attribute, a string or an error is no number.

    Raises:
        InputError: naming the knob's line and the text.
    """
    from fairshare_cli.core.htcondor.classads import check_expression_size, evaluate_alone

    wrong = InputError(f"{where}: expected a number, got '{text}'")
    if not text.strip():
        raise wrong
    check_expression_size(text, where)
    try:
        value = evaluate_alone(text.strip(), {}, where)
    except InputError:
        raise wrong from None
    if type(value) is bool:
        return float(value)
    if type(value) in (int, float):
        return float(value)  # type: ignore[arg-type]
    raise wrong


def _int(text: str, where: str) -> int:
    value = _float(text, where)
    if value != int(value):
        raise InputError(f"{where}: expected a whole number, got '{text}'")
    return int(value)


def _seconds(positive: bool) -> Convert:
    """Whole seconds, as ``param_integer`` reads them: above 0 (``NEGOTIATOR_INTERVAL``:
    a pool whose timer never fires again is not one fs can simulate) or 0 or more, and
    within an ``int`` (a value beyond it is "out of bounds for an integer": the negotiator
    stops on it)."""

    def convert(text: str, where: str) -> int:
        value = _int(text, where)
        if value < (1 if positive else 0):
            what = "a whole number of seconds above 0" if positive else "0 or more seconds"
            raise InputError(f"{where}: expected {what}, got '{text}'")
        if value > INT32_MAX:
            raise InputError(
                f"{where}: expected at most {INT32_MAX} seconds (HTCondor reads an int; "
                f"beyond it the negotiator stops), got '{text}'"
            )
        return value

    return convert


def _number(text: str, where: str) -> int | float:
    value = _float(text, where)
    return int(value) if value == int(value) and abs(value) < 2**53 else value


def _expr(text: str, where: str) -> str:
    if not text.strip():
        raise InputError(f"{where}: expected a ClassAd expression, got nothing")
    return text.strip()


Convert = Callable[[str, str], Any]

#: Knob -> (config section, key, converter).
SIMPLE: dict[str, tuple[str, str, Convert]] = {
    "UID_DOMAIN": ("pool", "uid_domain", lambda t, w: check_name(t.strip(), w)),
    # The startd's: every slot's Start and Rank unless condor-status brings its own.
    "START": ("pool", "start", _expr),
    "RANK": ("pool", "rank", _expr),
    "PRIORITY_HALFLIFE": ("accountant", "priority_halflife", _number),
    "DEFAULT_PRIO_FACTOR": ("accountant", "default_prio_factor", _float),
    "NICE_USER_PRIO_FACTOR": ("accountant", "nice_user_prio_factor", _float),
    "REMOTE_PRIO_FACTOR": ("accountant", "remote_prio_factor", _float),
    "NEGOTIATOR_USE_SLOT_WEIGHTS": ("negotiator", "use_slot_weights", _bool),
    "SLOT_WEIGHT": ("negotiator", "slot_weight", _expr),
    "NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION": (
        "negotiator",
        "allow_quota_oversubscription",
        _bool,
    ),
    "PREEMPTION_REQUIREMENTS": ("negotiator", "preemption_requirements", _expr),
    "PREEMPTION_RANK": ("negotiator", "preemption_rank", _expr),
    "NEGOTIATOR_PRE_JOB_RANK": ("negotiator", "pre_job_rank", _expr),
    "NEGOTIATOR_POST_JOB_RANK": ("negotiator", "post_job_rank", _expr),
    "GROUP_SORT_EXPR": ("negotiator", "group_sort_expr", _expr),
    "GROUP_QUOTA_ROUND_ROBIN_RATE": ("negotiator", "group_quota_round_robin_rate", _float),
    "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS": ("negotiator", "group_quota_max_allocation_rounds", _int),
    "NEGOTIATOR_STRICT_ENFORCE_QUOTA": ("negotiator", "strict_enforce_quota", _bool),
    "NEGOTIATOR_USE_WEIGHTED_DEMAND": ("negotiator", "use_weighted_demand", _bool),
    "GROUP_ACCEPT_SURPLUS": ("negotiator", "accept_surplus", _bool),
    "GROUP_AUTOREGROUP": ("negotiator", "autoregroup", _bool),
    "NEGOTIATOR_CONSIDER_PREEMPTION": ("negotiator", "consider_preemption", _bool),
    "CONCURRENCY_LIMIT_DEFAULT": ("negotiator", "concurrency_limit_default", _float),
    # When cycles start: fs simulate's and fs sweep's cycle unless --cycle says otherwise.
    "NEGOTIATOR_INTERVAL": ("negotiator", "interval", _seconds(True)),
    "NEGOTIATOR_CYCLE_DELAY": ("negotiator", "cycle_delay", _seconds(False)),
    "NEGOTIATOR_MIN_INTERVAL": ("negotiator", "min_interval", _seconds(False)),
    # The startd's, for its partitionable slots unless condor-status brings their own.
    "CONSUMPTION_POLICY": ("pool", "consumption_policy", _bool),
    "NUM_CLAIMS": ("pool", "num_claims", _int),
    "CONSUMPTION_CPUS": ("pool", "consumption_cpus", _expr),
    "CONSUMPTION_MEMORY": ("pool", "consumption_memory", _expr),
    "CONSUMPTION_DISK": ("pool", "consumption_disk", _expr),
}

#: ``CONCURRENCY_LIMIT_DEFAULT_<SCOPE>``: the default maximum of the limits ``scope.name``.
SCOPE_DEFAULT = "CONCURRENCY_LIMIT_DEFAULT_"

#: Per-group knobs: prefix -> (group key, converter).
PER_GROUP: dict[str, tuple[str, Convert]] = {
    "GROUP_QUOTA_DYNAMIC_": ("dynamic_quota", _float),
    "GROUP_QUOTA_": ("quota", _number),
    "GROUP_ACCEPT_SURPLUS_": ("accept_surplus", _bool),
    "GROUP_AUTOREGROUP_": ("autoregroup", _bool),
    "GROUP_PRIO_FACTOR_": ("prio_factor", _float),
}


def fragment_from_knobs(
    conf: ConfigFile, label: str
) -> tuple[dict[str, Any], list[str], list[str]]:
    """The config fragment, the knobs it took (real names), and the knobs ignored.

    ``pool.defaults`` is ``"current"``: knobs a config file leaves out take HTCondor 25's
    defaults, as the daemons would. A file read from ``label`` none of whose knobs the
    config models is not an HTCondor configuration (an empty file, another tool's).

    Raises:
        InputError: a modelled knob whose value does not read as its type, or no
            modelled knob at all.
    """
    fragment: dict[str, Any] = {"pool": {"defaults": "current"}}
    used: list[str] = []
    ignored: list[str] = []

    def put(section: str, key: str, value: Any) -> None:
        fragment.setdefault(section, {})[key] = value

    groups = _group_names(conf)
    lower_groups = {g.lower(): g for g in groups}
    for key in conf.raw:
        name = conf.names[key]
        where = f"{conf.where[key]}: {name}"
        text = conf.expanded(key) or ""
        if key in SIMPLE:
            section, field, convert = SIMPLE[key]
            if text.strip():
                put(section, field, convert(text, where))
            used.append(name)
        elif key == "ACCOUNTANT_LOCAL_DOMAIN":
            domain = text.strip()
            put("pool", "local_domains", [check_name(domain, where)] if domain else [])
            used.append(name)
        elif key == "GROUP_NAMES" or _scope_default(fragment, key, name, text, where):
            used.append(name)
        elif (hit := _per_group(key, lower_groups)) is not None:
            group, field, convert = hit
            if text.strip():
                fragment.setdefault("groups", {}).setdefault(group, {})[field] = convert(
                    text, where
                )
            used.append(name)
        else:
            ignored.append(name)
    if not used:
        found = (
            f"none of its {len(ignored)} knobs is one the pool config models"
            if ignored
            else "no knob settings"
        )
        raise InputError(
            f"{label}: {found}; expected a condor_config file or condor_config_val -dump output"
        )
    for group in groups:
        fragment.setdefault("groups", {}).setdefault(group, {})
    if "groups" in fragment:
        fragment["groups"] = dict(sorted(fragment["groups"].items(), key=lambda kv: kv[0].lower()))
    order = ("pool", "accountant", "negotiator", "groups")
    return {k: fragment[k] for k in order if k in fragment}, used, ignored


def _scope_default(fragment: dict[str, Any], key: str, name: str, text: str, where: str) -> bool:
    """Put ``CONCURRENCY_LIMIT_DEFAULT_<SCOPE>`` into ``[negotiator]
    concurrency_limit_scope_defaults``; False for any other knob."""
    if not key.startswith(SCOPE_DEFAULT) or len(key) == len(SCOPE_DEFAULT):
        return False
    if text.strip():
        table = fragment.setdefault("negotiator", {})
        table.setdefault("concurrency_limit_scope_defaults", {})[
            name[len(SCOPE_DEFAULT) :].lower()
        ] = _float(text, where)
    return True


def _group_names(conf: ConfigFile) -> list[str]:
    """``GROUP_NAMES``: names (not blank, no control characters), by commas or blanks.

    Raises:
        InputError: a group name that is not a name.
    """
    text = conf.expanded("GROUP_NAMES") or ""
    where = f"{conf.where.get('GROUP_NAMES', '')}: GROUP_NAMES"
    return [check_name(g, where) for g in text.replace(",", " ").split() if g]


def _per_group(key: str, groups: dict[str, str]) -> tuple[str, str, Convert] | None:
    """``GROUP_QUOTA_group_a.b`` -> (``group_a.b``, ``quota``, converter), for known groups."""
    for prefix, (field, convert) in PER_GROUP.items():
        if key.startswith(prefix):
            group = groups.get(key[len(prefix) :].lower())
            if group is not None:
                return group, field, convert
    return None
