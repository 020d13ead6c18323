"""The real schedulers' knob names as aliases of the config keys, and as did-you-mean hints.

``[accountant] PRIORITY_HALFLIFE = 3600`` is read as ``priority_halflife``;
``[priority] PriorityDecayHalfLife = "7-0"`` as ``decay_halflife``. Knob names match
without regard to case, as HTCondor's config and ``slurm.conf`` read them. A knob written
in the wrong table, or misspelt, gets a hint naming the key to write and where.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

from fairshare_cli.io.unmodelled_knobs import effect_hint

#: Per table (``*`` for a name the admin chooses): the real knob name -> the config key.
KNOBS: dict[str, dict[str, str]] = {
    "pool": {
        "UID_DOMAIN": "uid_domain",
        "ACCOUNTANT_LOCAL_DOMAIN": "local_domains",
        "START": "start",
        "RANK": "rank",
        "CONSUMPTION_POLICY": "consumption_policy",
        "NUM_CLAIMS": "num_claims",
        "CONSUMPTION_CPUS": "consumption_cpus",
        "CONSUMPTION_MEMORY": "consumption_memory",
        "CONSUMPTION_DISK": "consumption_disk",
    },
    "accountant": {
        "PRIORITY_HALFLIFE": "priority_halflife",
        "DEFAULT_PRIO_FACTOR": "default_prio_factor",
        "NICE_USER_PRIO_FACTOR": "nice_user_prio_factor",
        "REMOTE_PRIO_FACTOR": "remote_prio_factor",
    },
    "negotiator": {
        "NEGOTIATOR_USE_SLOT_WEIGHTS": "use_slot_weights",
        "SLOT_WEIGHT": "slot_weight",
        "NEGOTIATOR_SLOT_CONSTRAINT": "slot_constraint",
        "NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT": "slot_poolsize_constraint",
        "NEGOTIATOR_SUBMITTER_CONSTRAINT": "submitter_constraint",
        "NEGOTIATOR_JOB_CONSTRAINT": "job_constraint",
        "NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION": "allow_quota_oversubscription",
        "PREEMPTION_REQUIREMENTS": "preemption_requirements",
        "PREEMPTION_RANK": "preemption_rank",
        "NEGOTIATOR_PRE_JOB_RANK": "pre_job_rank",
        "NEGOTIATOR_POST_JOB_RANK": "post_job_rank",
        "GROUP_SORT_EXPR": "group_sort_expr",
        "GROUP_QUOTA_ROUND_ROBIN_RATE": "group_quota_round_robin_rate",
        "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS": "group_quota_max_allocation_rounds",
        "NEGOTIATOR_STRICT_ENFORCE_QUOTA": "strict_enforce_quota",
        "NEGOTIATOR_USE_WEIGHTED_DEMAND": "use_weighted_demand",
        "GROUP_ACCEPT_SURPLUS": "accept_surplus",
        "GROUP_AUTOREGROUP": "autoregroup",
        "NEGOTIATOR_CONSIDER_PREEMPTION": "consider_preemption",
        "NEGOTIATOR_DEPTH_FIRST": "depth_first",
        "NEGOTIATOR_MATCHLIST_CACHING": "matchlist_caching",
        "NEGOTIATOR_IGNORE_USER_PRIORITIES": "ignore_user_priorities",
        "CONCURRENCY_LIMIT_DEFAULT": "concurrency_limit_default",
        "NEGOTIATOR_INTERVAL": "interval",
        "NEGOTIATOR_CYCLE_DELAY": "cycle_delay",
        "NEGOTIATOR_MIN_INTERVAL": "min_interval",
    },
    "machines": {
        "NUM_SLOTS": "slots",
        "START": "start",
        "RANK": "rank",
        "SLOT_TYPE_1_PARTITIONABLE": "partitionable",
        "CONSUMPTION_POLICY": "consumption_policy",
        "NUM_CLAIMS": "num_claims",
        "CONSUMPTION_CPUS": "consumption_cpus",
        "CONSUMPTION_MEMORY": "consumption_memory",
        "CONSUMPTION_DISK": "consumption_disk",
    },
    "groups.*": {
        "GROUP_QUOTA": "quota",
        "GROUP_QUOTA_DYNAMIC": "dynamic_quota",
        "GROUP_ACCEPT_SURPLUS": "accept_surplus",
        "GROUP_AUTOREGROUP": "autoregroup",
        "GROUP_PRIO_FACTOR": "prio_factor",
    },
    "priority": {
        "PriorityType": "type",
        "PriorityDecayHalfLife": "decay_halflife",
        "PriorityCalcPeriod": "calc_period",
        "PriorityUsageResetPeriod": "usage_reset_period",
        "PriorityMaxAge": "max_age",
        "PriorityFavorSmall": "favor_small",
        "PriorityFlags": "flags",
        "FairShareDampeningFactor": "dampening_factor",
        "EnforcePartLimits": "enforce_part_limits",
        "OverTimeLimit": "over_time_limit",
        "KillWait": "kill_wait",
        "AccountingStorageTRES": "accounting_storage_tres",
        "GresTypes": "gres_types",
    },
    "priority.weights": {
        "PriorityWeightAge": "age",
        "PriorityWeightFairshare": "fairshare",
        "PriorityWeightJobSize": "jobsize",
        "PriorityWeightPartition": "partition",
        "PriorityWeightQOS": "qos",
        "PriorityWeightAssoc": "assoc",
        "PriorityWeightTRES": "tres",
    },
    "partitions.*": {
        "PriorityJobFactor": "priority_job_factor",
        "PriorityTier": "priority_tier",
        "MaxTime": "max_time",
        "DefaultTime": "default_time",
        "MaxNodes": "max_nodes",
        "MinNodes": "min_nodes",
        "OverTimeLimit": "over_time_limit",
        "Default": "default",
        "TRESBillingWeights": "billing_weights",
    },
    "qos.*": {"Priority": "priority", "UsageFactor": "usage_factor"},
    "accounts.*": {"Parent": "parent", "Fairshare": "shares", "Priority": "priority"},
    "dirac": {"VirtualOrganization": "vo"},
    "dirac.groups.*": {
        "JobShare": "job_share",
        "AllowBackgroundTQs": "allow_background_tqs",
        "VO": "vo",
    },
    "dirac.correction": {"EnableSharesCorrection": "enabled"},
    "dirac.correction.instances": {
        "Group": "group",
        "MaxGlobalCorrection": "max_global_correction",
    },
    "dirac.correction.instances.slices": {
        "TimeSpan": "time_span",
        "Weight": "weight",
        "MaxCorrection": "max_correction",
    },
    "dirac.job_description": {
        "DefaultCPUTime": "default_cpu_time",
        "MinCPUTime": "min_cpu_time",
        "MaxCPUTime": "max_cpu_time",
        "DefaultPriority": "default_priority",
        "MinPriority": "min_priority",
        "MaxPriority": "max_priority",
    },
    "dirac.pilot": {"CheckVersion": "check_version", "Version": "versions", "Project": "project"},
}

#: Per table: knobs named by a prefix and a name the admin chooses -> the config key whose
#: table they fill (``CONCURRENCY_LIMIT_DEFAULT_LICENSE = 2`` is ``{ license = 2 }``).
PREFIX_KNOBS: dict[str, dict[str, str]] = {
    "negotiator": {"CONCURRENCY_LIMIT_DEFAULT_": "concurrency_limit_scope_defaults"},
}

#: Keys of a ``[[machines]]`` entry that name a slot's ClassAd attribute (or the startd knob
#: that sets it), which the entry takes in ``attributes``.
_SLOT_ATTRIBUTES = {"CPUS": "Cpus", "NUM_CPUS": "Cpus", "MEMORY": "Memory", "DISK": "Disk",
                    "GPUS": "GPUs"}  # fmt: skip

_NAMED = re.compile(r'^(groups|partitions|qos|accounts|dirac\.groups)\.(?:"[^"]*"|[^.]+)$')


def table_pattern(where: str) -> str:
    """``groups."group_physics"`` -> ``groups.*``; ``machines[3]`` -> ``machines``."""
    where = re.sub(r"\[\d+\]", "", where)
    return _NAMED.sub(r"\1.*", where)


def _shown(pattern: str, key: str) -> str:
    table = pattern.replace(".*", ".<name>")
    return f"{table}.{key}" if table else key


def apply_aliases(
    table: Mapping[str, Any], where: str, allowed: Collection[str], fail: Callable[[str], None]
) -> Mapping[str, Any]:
    """``table`` with this table's knob names renamed to config keys.

    Raises (through ``fail``):
        ConfigError: a knob and its key are both set.
    """
    if all(key in allowed for key in table):  # first: 10,000 account tables (bench chain)
        return table
    pattern = table_pattern(where)
    knobs = {k.upper(): v for k, v in KNOBS.get(pattern, {}).items()}
    if not knobs:
        return table
    prefixes = PREFIX_KNOBS.get(pattern, {})
    out: dict[str, Any] = {}
    for key, value in table.items():
        target = knobs.get(key.upper()) if key not in allowed else None
        found = _prefixed(key, prefixes) if target is None and key not in allowed else None
        if found is not None:
            target, name = found
            where_key = f"{where}.{target}" if where else target
            if target in table:
                fail(f"{where_key} is set twice: as '{target}' and as the knob '{key}'")
            out.setdefault(target, {})[name] = value
            continue
        if target is None:
            out.setdefault(key, value)
            continue
        if target in table or target in out:
            where_key = f"{where}.{target}" if where else target
            fail(f"{where_key} is set twice: as '{target}' and as its knob name '{key}'")
        out[target] = value
    return out


def _prefixed(key: str, prefixes: Mapping[str, str]) -> tuple[str, str] | None:
    """(config key, name) of a prefixed knob (``CONCURRENCY_LIMIT_DEFAULT_LICENSE`` ->
    (``concurrency_limit_scope_defaults``, ``LICENSE``)); None when ``key`` is no such knob."""
    for prefix, target in prefixes.items():
        if key.upper().startswith(prefix) and len(key) > len(prefix):
            return target, key[len(prefix) :]
    return None


def knob_keys(knob: str) -> list[str]:
    """The dotted config keys a real knob name stands for, as ``--set`` takes them
    (``PRIORITY_HALFLIFE`` -> ``accountant.priority_halflife``; a table of entries the
    admin names or numbers as ``groups.<name>.quota``, ``machines.<N>.start``)."""
    return [
        _shown(pattern, key).replace("machines.", "machines.<N>.", 1)
        for pattern, knobs in KNOBS.items()
        for name, key in knobs.items()
        if name.upper() == knob.upper()
    ]


def bare_knob_keys(key: str, top: Collection[str]) -> list[str]:
    """The dotted config keys a real knob name given alone as a dotted key stands for
    (``PRIORITY_HALFLIFE``: it names no table); ``[]`` for a dotted key, one of ``top`` (the
    config's tables) or no knob name."""
    return [] if "." in key or key in top else knob_keys(key)


def _group_knob(key: str) -> str | None:
    """A hint for a group's knob written with its group's name, as condor_config writes it
    (``GROUP_QUOTA_group_cms``): the group's table and key; None for any other key, and for
    one nearly a longer knob of the same start (``GROUP_QUOTA_ROUND_ROBIN_RAT``)."""
    import difflib  # (only to tell a group's knob from a misspelt one: an error's hint)

    upper = key.upper()
    for knob, target in sorted(KNOBS["groups.*"].items(), key=lambda item: -len(item[0])):
        if upper.startswith(knob + "_") and len(key) > len(knob) + 1:
            longer = [
                k.upper() for t in KNOBS.values() for k in t if k.upper().startswith(knob + "_")
            ]
            if difflib.get_close_matches(upper, longer, n=1, cutoff=0.8):
                return None
            table = f'groups."{key[len(knob) + 1 :]}"'
            return f" ({key} is {table}.{target}; write it as {target} in [{table}])"
    return None


def knob_hint(key: str, where: str, close: bool = True) -> str | None:
    """A hint for an unknown key that is (or, if ``close``, nearly is) a knob name; for
    one of the knobs fs does not model, what it changes."""
    unmodelled = effect_hint(key)
    if unmodelled is not None:
        return unmodelled
    upper = {
        k.upper(): (pattern, k, v) for pattern, knobs in KNOBS.items() for k, v in knobs.items()
    }
    found = upper.get(key.upper())
    attribute = _SLOT_ATTRIBUTES.get(key.upper()) if table_pattern(where) == "machines" else None
    if attribute is not None:
        example = f"attributes = {{ {attribute} = N }}"
        return f" (a slot's {attribute} is one of its attributes: {example}, per slot)"
    grouped = _group_knob(key) if found is None else None
    if grouped is not None:
        return grouped
    if found is None and not close:
        return None
    if found is None:
        import difflib  # (only to suggest a name: not on every config's read)

        close_ = difflib.get_close_matches(key.upper(), list(upper), n=1, cutoff=0.8)
        if not close_:
            return None
        pattern, knob, target = upper[close_[0]]
        return f" (did you mean '{knob}', that is {_shown(pattern, target)}?)"
    pattern, knob, target = found
    return (
        f" ({knob} is {_shown(pattern, target)}; write it in [{pattern.replace('.*', '.<name>')}])"
    )


def is_knob(key: str) -> bool:
    """Whether ``key`` spells a knob name exactly, case and all (``PriorityDecayHalfLife``,
    not ``weight`` for DIRAC's ``Weight``)."""
    return any(key in knobs for knobs in KNOBS.values())


def knob_table(key: str) -> str | None:
    """The table a knob named ``key`` (any case) is written in (``priority``,
    ``dirac.correction.instances.slices``); None for a name that is no knob."""
    wanted = key.upper()
    for pattern, knobs in KNOBS.items():
        if any(k.upper() == wanted for k in knobs):
            return pattern
    return None
