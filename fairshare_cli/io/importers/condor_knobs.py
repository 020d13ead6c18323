"""HTCondor knobs -> our config keys (docs/config.md names each key's knob).

:func:`fragment_from_knobs` maps the knobs the pool config models, under their real names,
to a config fragment, and names every other knob as ignored. Values are read as HTCondor
reads them (core/htcondor/knob_values.py): a number or a boolean as a literal, else as a
ClassAd expression evaluated on its own (``5 * 60``); the accountant's three factors as
``atof`` reads them, refused unless a plain number; what the daemon stops on is an error
naming the knob's line. Expressions (``START``, ``SLOT_WEIGHT``) stay text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairshare_cli.core.htcondor.knob_values import (
    atof_whole,
    param_boolean,
    param_double,
    param_integer,
    param_long,
)
from fairshare_cli.core.limits import INT32_MAX
from fairshare_cli.core.names import check_name, shown
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.as_config import Origins
from fairshare_cli.io.importers.condor_config import ConfigFile
from fairshare_cli.io.importers.condor_config_macros import DAEMONS
from fairshare_cli.io.unmodelled_knobs import UNMODELLED, neutral, unmodelled_warning


def _atof(text: str, knob: str, where: str) -> float:
    return atof_whole(text, where)


def _ranged_int(least: int, most: int) -> Convert:
    """``param_integer`` with its range (``GROUP_QUOTA_MAX_ALLOCATION_ROUNDS``: 1 to
    1,000,000,000 in param_info.in; outside, the negotiator stops: "too low"/"too high")."""

    def convert(text: str, knob: str, where: str) -> int:
        value = param_integer(text, knob, where)
        if not least <= value <= most:
            raise InputError(f"{where}: expected {least} to {most:,}, got '{text.strip()}'")
        return value

    return convert


def _seconds(positive: bool) -> Convert:
    """Whole seconds, as ``param_integer`` reads them: above 0 (``NEGOTIATOR_INTERVAL``:
    a pool whose timer never fires again is not one fs can simulate) or 0 or more, and
    within an ``int`` (a value beyond it is "out of bounds for an integer": the negotiator
    stops on it)."""

    def convert(text: str, knob: str, where: str) -> int:
        value = param_long(text, knob, where)
        if value < (1 if positive else 0):
            what = "a whole number of seconds above 0" if positive else "0 or more seconds"
            raise InputError(f"{where}: expected {what}, got '{shown(text)}'")
        if value > INT32_MAX:
            raise InputError(
                f"{where}: expected at most {INT32_MAX} seconds (HTCondor reads an int; "
                f"beyond it the negotiator stops), got '{shown(text)}'"
            )
        return value

    return convert


def _number(text: str, knob: str, where: str) -> int | float:
    value = param_double(text, knob, where)
    return int(value) if value == int(value) and abs(value) < 2**53 else value


def _expr(text: str, knob: str, where: str) -> str:
    if not text.strip():
        raise InputError(f"{where}: expected a ClassAd expression, got nothing")
    return text.strip()


#: (the knob's text, its name, where it was set) -> its value.
Convert = Callable[[str, str, str], Any]

#: Knob -> (config section, key, converter).
SIMPLE: dict[str, tuple[str, str, Convert]] = {
    "UID_DOMAIN": ("pool", "uid_domain", lambda t, k, w: check_name(t.strip(), w)),
    # The startd's: every slot's Start and Rank unless condor-status brings its own.
    "START": ("pool", "start", _expr),
    "RANK": ("pool", "rank", _expr),
    "PRIORITY_HALFLIFE": ("accountant", "priority_halflife", _number),
    "DEFAULT_PRIO_FACTOR": ("accountant", "default_prio_factor", _atof),
    "NICE_USER_PRIO_FACTOR": ("accountant", "nice_user_prio_factor", _atof),
    "REMOTE_PRIO_FACTOR": ("accountant", "remote_prio_factor", _atof),
    "NEGOTIATOR_USE_SLOT_WEIGHTS": ("negotiator", "use_slot_weights", param_boolean),
    "SLOT_WEIGHT": ("negotiator", "slot_weight", _expr),
    "NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION": (
        "negotiator",
        "allow_quota_oversubscription",
        param_boolean,
    ),
    "PREEMPTION_REQUIREMENTS": ("negotiator", "preemption_requirements", _expr),
    "PREEMPTION_RANK": ("negotiator", "preemption_rank", _expr),
    "NEGOTIATOR_PRE_JOB_RANK": ("negotiator", "pre_job_rank", _expr),
    "NEGOTIATOR_POST_JOB_RANK": ("negotiator", "post_job_rank", _expr),
    "GROUP_SORT_EXPR": ("negotiator", "group_sort_expr", _expr),
    "GROUP_QUOTA_ROUND_ROBIN_RATE": ("negotiator", "group_quota_round_robin_rate", param_double),
    "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS": (
        "negotiator",
        "group_quota_max_allocation_rounds",
        _ranged_int(1, 1_000_000_000),
    ),
    "NEGOTIATOR_STRICT_ENFORCE_QUOTA": ("negotiator", "strict_enforce_quota", param_boolean),
    "NEGOTIATOR_USE_WEIGHTED_DEMAND": ("negotiator", "use_weighted_demand", param_boolean),
    "GROUP_ACCEPT_SURPLUS": ("negotiator", "accept_surplus", param_boolean),
    "GROUP_AUTOREGROUP": ("negotiator", "autoregroup", param_boolean),
    "NEGOTIATOR_CONSIDER_PREEMPTION": ("negotiator", "consider_preemption", param_boolean),
    "NEGOTIATOR_DEPTH_FIRST": ("negotiator", "depth_first", param_boolean),
    "NEGOTIATOR_MATCHLIST_CACHING": ("negotiator", "matchlist_caching", param_boolean),
    "NEGOTIATOR_IGNORE_USER_PRIORITIES": ("negotiator", "ignore_user_priorities", param_boolean),
    "NEGOTIATOR_SLOT_CONSTRAINT": ("negotiator", "slot_constraint", _expr),
    "NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT": ("negotiator", "slot_poolsize_constraint", _expr),
    "NEGOTIATOR_SUBMITTER_CONSTRAINT": ("negotiator", "submitter_constraint", _expr),
    "NEGOTIATOR_JOB_CONSTRAINT": ("negotiator", "job_constraint", _expr),
    "CONCURRENCY_LIMIT_DEFAULT": ("negotiator", "concurrency_limit_default", param_double),
    # When cycles start: fs simulate's and fs sweep's cycle unless --cycle says otherwise.
    "NEGOTIATOR_INTERVAL": ("negotiator", "interval", _seconds(True)),
    "NEGOTIATOR_CYCLE_DELAY": ("negotiator", "cycle_delay", _seconds(False)),
    "NEGOTIATOR_MIN_INTERVAL": ("negotiator", "min_interval", _seconds(False)),
    # The startd's, for its partitionable slots unless condor-status brings their own.
    "CONSUMPTION_POLICY": ("pool", "consumption_policy", param_boolean),
    "NUM_CLAIMS": ("pool", "num_claims", param_integer),
    "CONSUMPTION_CPUS": ("pool", "consumption_cpus", _expr),
    "CONSUMPTION_MEMORY": ("pool", "consumption_memory", _expr),
    "CONSUMPTION_DISK": ("pool", "consumption_disk", _expr),
}

#: ``CONCURRENCY_LIMIT_DEFAULT_<SCOPE>``: the default maximum of the limits ``scope.name``.
SCOPE_DEFAULT = "CONCURRENCY_LIMIT_DEFAULT_"

#: Per-group knobs: prefix -> (group key, converter).
PER_GROUP: dict[str, tuple[str, Convert]] = {
    "GROUP_QUOTA_DYNAMIC_": ("dynamic_quota", param_double),
    "GROUP_QUOTA_": ("quota", _number),
    "GROUP_ACCEPT_SURPLUS_": ("accept_surplus", param_boolean),
    "GROUP_AUTOREGROUP_": ("autoregroup", param_boolean),
    "GROUP_PRIO_FACTOR_": ("prio_factor", param_double),
}


#: The daemon that reads each knob (the negotiator unless named here): its own
#: ``SUBSYS.KNOB`` setting wins over ``KNOB`` (``lookup_macro``), another daemon's is not
#: its knob.
READER = {
    "UID_DOMAIN": "SCHEDD",  # (the owner@domain of the jobs it queues)
    "START": "STARTD",
    "RANK": "STARTD",
    "CONSUMPTION_POLICY": "STARTD",
    "NUM_CLAIMS": "STARTD",
    "CONSUMPTION_CPUS": "STARTD",
    "CONSUMPTION_MEMORY": "STARTD",
    "CONSUMPTION_DISK": "STARTD",
}


def reader_view(conf: ConfigFile) -> dict[str, str]:
    """Each knob name -> the setting its daemon reads: ``NEGOTIATOR.PRIORITY_HALFLIFE``
    over ``PRIORITY_HALFLIFE``, whichever comes first in the files."""
    view = {key: key for key in conf.raw}
    for key in conf.raw:
        prefix, dot, knob = key.partition(".")
        if dot and knob and READER.get(knob, "NEGOTIATOR") == prefix:
            view.pop(key, None)
            view[knob] = key
    return view


def fragment_from_knobs(
    conf: ConfigFile, label: str, readings: dict[str, ConfigFile] | None = None
) -> tuple[dict[str, Any], list[str], list[str], Origins]:
    """The config fragment, the knobs it took (real names), the knobs ignored, and where
    each value of the fragment was set (``FILE:LINE: KNOB``).

    ``pool.defaults`` is ``"current"``: knobs a config file leaves out take HTCondor 25's
    defaults, as the daemons would. A file read from ``label`` none of whose knobs the
    config models is not an HTCondor configuration (an empty file, another tool's), unless
    it reads ``use`` templates or says where HTCondor is (a stock install's). A
    knob set for its daemon (``NEGOTIATOR.PRIORITY_HALFLIFE``) wins over the plain one,
    which that daemon does not read then (it is taken as the knob's, not counted as
    ignored). ``readings`` holds the files as other daemons read them (where
    they read them otherwise): each knob is taken from its reader's reading, ``conf``
    being the negotiator's.

    Raises:
        InputError: a modelled knob whose value does not read as its type, or that
            names a macro set nowhere that HTCondor takes from the machine (in a file,
            not a dump), or no modelled knob at all.
    """
    fragment: dict[str, Any] = {"pool": {"defaults": "current"}}
    readings = readings or {}
    view = reader_view(conf)
    groups = _group_names(conf, view)
    lower_groups = {g.lower(): g for g in groups}
    used: list[str] = []
    origins = Origins(label)
    if groups:  # (each group's table: GROUP_NAMES gave it)
        named = f"{conf.where[view['GROUP_NAMES']]}: {conf.names[view['GROUP_NAMES']]}"
        for group in groups:
            origins.add(("groups", group), named)
    shadowed: set[str] = set()  # (KNOB, where the daemon's SUBSYS.KNOB is taken instead)
    for knob, key, reading in _by_reader(conf, readings, lower_groups):
        reading.expanded(key)  # (every knob's macros are checked, modelled or not)
        if _take(fragment, reading, knob, key, lower_groups, origins):
            used.append(reading.names[key])
            if key != knob:
                shadowed.add(knob)
    used += _old_names(fragment, conf, view, origins)
    taken = set(used)
    ignored = [
        conf.names[key] for key in conf.raw if conf.names[key] not in taken and key not in shadowed
    ]
    if not used and not _stock(conf):
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
    fragment = {k: fragment[k] for k in order if k in fragment}
    return fragment, used, ignored, origins


#: The group knobs' older names, read when the new one is set blank (``param_defined``
#: holds for a knob with a built-in default unless a file blanks it; GroupEntry.cpp,
#: ``hgq_negotiate_with_all_groups``).
OLD_NAMES = {
    "GROUP_QUOTA_ROUND_ROBIN_RATE": "HFS_ROUND_ROBIN_RATE",
    "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS": "HFS_MAX_ALLOCATION_ROUNDS",
}


#: Older names read when the new one is unset or blank (``param`` returns nothing for
#: either; matchmaker.cpp's ``negotiationTime`` then logs the old name as obsolete).
UNSET_OLD_NAMES = {"NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT": "GROUP_DYNAMIC_MACH_CONSTRAINT"}


def _old_names(
    fragment: dict[str, Any], conf: ConfigFile, view: dict[str, str], origins: Origins
) -> list[str]:
    """Put the older names the negotiator reads (:data:`OLD_NAMES`,
    :data:`UNSET_OLD_NAMES`) into ``fragment`` under their new names' keys; the names of
    those taken."""
    taken = []
    for new, old in (*OLD_NAMES.items(), *UNSET_OLD_NAMES.items()):
        key, old_key = view.get(new), view.get(old)
        if key is None and new not in UNSET_OLD_NAMES:
            continue  # the new name's built-in default holds
        if old_key is None or (key and (conf.expanded(key, "NEGOTIATOR") or "").strip()):
            continue
        text = conf.expanded(old_key, "NEGOTIATOR", strict=True) or ""
        if not text.strip():
            continue
        section, field, convert = SIMPLE[new]
        where = f"{conf.where[old_key]}: {conf.names[old_key]}"
        fragment.setdefault(section, {})[field] = convert(text, conf.names[old_key], where)
        origins.add((section, field), where)
        taken.append(conf.names[old_key])
    return taken


#: Knobs only an HTCondor configuration sets, all of which a stock ``condor_config`` sets.
_STOCK = ("RELEASE_DIR", "LOCAL_CONFIG_FILE", "LOCAL_CONFIG_DIR")


def _stock(conf: ConfigFile) -> bool:
    """The files are an HTCondor configuration that leaves every knob fs takes at its
    default (a stock install's ``condor_config`` and ``config.d``): they read ``use``
    templates or set where HTCondor is and what else it reads."""
    return bool(conf.templates) or any(knob in conf.raw for knob in _STOCK)


def _by_reader(
    conf: ConfigFile, readings: dict[str, ConfigFile], groups: dict[str, str]
) -> list[tuple[str, str, ConfigFile]]:
    """``(knob, key, reading)`` for each knob of the files, taken from the reading of the
    daemon that reads it: from ``readings`` where they hold that daemon's, else ``conf``.

    Raises:
        InputError: what :func:`_refuse_unheld` refuses.
    """
    others = set(readings)
    found = []
    for daemon, reading in (("", conf), *readings.items()):
        view = reader_view(reading)
        mine = {daemon} if daemon else set(DAEMONS) - others
        _refuse_unheld(reading, view, groups, mine)
        found += [(k, key, reading) for k, key in view.items() if READER.get(k, DAEMONS[0]) in mine]
    return found


def _refuse_unheld(
    conf: ConfigFile, view: dict[str, str], groups: dict[str, str], daemons: set[str]
) -> None:
    """Refuse a knob fs takes from ``conf`` for one of ``daemons`` that a ``use`` template
    set last, to a value fs does not hold (unless its daemon's own ``SUBSYS.KNOB`` setting
    wins over it).

    Raises:
        InputError: naming the ``use`` line, the template and the knob.
    """
    for key, (where, template) in conf.templated.items():
        prefix, dot, knob = key.partition(".")
        if not dot:
            knob = key
        elif READER.get(knob, "NEGOTIATOR") != prefix:
            continue  # (another daemon's setting)
        if READER.get(knob, "NEGOTIATOR") not in daemons:
            continue
        if view.get(knob, key) not in (key, knob) or not _modelled(knob, groups):
            continue
        name = conf.names.get(key, key)
        raise InputError(
            f"{where}: use {template} sets {name}, which fs takes, to a value fs does not "
            f"hold; set {name} after this line, or import condor_config_val -dump output, "
            "which holds what the template sets"
        )


def _modelled(knob: str, groups: dict[str, str]) -> bool:
    """The pool config models the knob ``knob`` (a group's knob: of a group named)."""
    return (
        knob in SIMPLE
        or knob in ("ACCOUNTANT_LOCAL_DOMAIN", "GROUP_NAMES")
        or (knob.startswith(SCOPE_DEFAULT) and len(knob) > len(SCOPE_DEFAULT))
        or _per_group(knob, groups) is not None
    )


def undefined(conf: ConfigFile, readings: dict[str, ConfigFile]) -> list[str]:
    """Warnings for the macros set nowhere, with no built-in default, that the knobs fs
    took (and the lines read) name, each once: taken as empty (``lookup_macro`` finds
    nothing), as HTCondor takes them unless the daemon's environment sets them."""
    found = dict(conf.undefined)
    for reading in readings.values():
        found.update(reading.undefined)
    return list(found)


def unmodelled_settings(conf: ConfigFile) -> list[str]:
    """A warning for each knob the negotiator reads that changes which jobs match, or in
    what order, and that fs does not model (:mod:`fairshare_cli.io.unmodelled_knobs`),
    when set to anything but the setting under which it changes nothing."""
    warnings = []
    view = reader_view(conf)
    for knob in UNMODELLED:
        key = view.get(knob)
        if key is None or any(
            knob in needs and not _is_true(conf, view, needed) for needed, needs in NEEDS.items()
        ):
            continue
        where = conf.where[key]
        try:
            text = conf.expanded(key, "NEGOTIATOR") or ""
        except InputError:  # (macros too deep: the setting as written)
            text = conf.raw[key]
        if not neutral(knob, text, f"{where}: {conf.names[key]}"):
            warnings.append(unmodelled_warning(knob, conf.names[key], text, where))
    return warnings


#: Unmodelled knobs that change nothing without ``NEGOTIATOR_CONSIDER_PREEMPTION``
#: (matchmaker.cpp): the negotiator ignores the first (``Matchmaker::reinitialize`` logs
#: it); the second concerns dynamic slots only, which are claimed, and claimed slots are
#: then trimmed from the candidates (``trimStartdAds_PreemptionLogic``); the last two
#: re-evaluate expressions of preempting entries only, and a list rebuilt from unclaimed
#: slots alone finds no slot the one used up would not have given.
NEEDS_PREEMPTION = (
    "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION",
    "ALLOW_PSLOT_PREEMPTION",
    "PREEMPTION_REQUIREMENTS_STABLE",
    "PREEMPTION_RANK_STABLE",
)


#: Knob -> the unmodelled knobs that change nothing when it is false: without a match list
#: (``NEGOTIATOR_MATCHLIST_CACHING``) there is nothing to keep stable.
NEEDS = {
    "NEGOTIATOR_CONSIDER_PREEMPTION": NEEDS_PREEMPTION,
    "NEGOTIATOR_MATCHLIST_CACHING": NEEDS_PREEMPTION[2:],
}


def _is_true(conf: ConfigFile, view: dict[str, str], knob: str) -> bool:
    """The boolean ``knob``, true by default, as the negotiator reads it
    (:func:`fragment_from_knobs` has refused a value that is not a boolean)."""
    key = view.get(knob)
    if key is None:
        return True
    text = conf.expanded(key, "NEGOTIATOR") or ""
    return not text.strip() or param_boolean(text, conf.names[key], conf.where[key])


def unmodelled(conf: ConfigFile) -> list[str]:
    """A warning naming the ``use`` templates read whose values fs does not hold, none of
    which it takes."""
    warnings = []
    if conf.templates:
        warnings.append(
            f"read {len(conf.templates)} use template{'s' if len(conf.templates) != 1 else ''}"
            f" as setting only knobs fs does not take: {', '.join(conf.templates)}"
        )
    return warnings


def _take(
    fragment: dict[str, Any],
    conf: ConfigFile,
    knob: str,
    key: str,
    groups: dict[str, str],
    origins: Origins,
) -> bool:
    """Put the knob ``knob`` (set as ``key``) into ``fragment``, and where it was set into
    ``origins`` under its path in the fragment; False when the pool config does not model
    it."""
    name = conf.names[key]
    where = f"{conf.where[key]}: {name}"
    hit = _per_group(knob, groups)
    if not _modelled(knob, groups):
        return False
    text = conf.expanded(key, READER.get(knob, "NEGOTIATOR"), strict=True) or ""
    if knob in SIMPLE:
        section, field, convert = SIMPLE[knob]
        if text.strip():
            fragment.setdefault(section, {})[field] = convert(text, name, where)
            origins.add((section, field), where)
    elif knob == "ACCOUNTANT_LOCAL_DOMAIN":
        domain = text.strip()
        local = [check_name(domain, where)] if domain else []
        fragment.setdefault("pool", {})["local_domains"] = local
        origins.add(("pool", "local_domains"), where)
    elif knob.startswith(SCOPE_DEFAULT):
        scope = _scope_default(fragment, knob, name, text, where)
        if scope is not None:
            origins.add(("negotiator", "concurrency_limit_scope_defaults", scope), where)
    elif hit is not None:
        group, field, convert = hit
        if text.strip():
            fragment.setdefault("groups", {}).setdefault(group, {})[field] = convert(
                text, name, where
            )
            origins.add(("groups", group, field), where)
    return True


def _scope_default(
    fragment: dict[str, Any], knob: str, name: str, text: str, where: str
) -> str | None:
    """Put ``CONCURRENCY_LIMIT_DEFAULT_<SCOPE>`` into ``[negotiator]
    concurrency_limit_scope_defaults``; the scope's key, or None when the value is blank."""
    if not text.strip():
        return None
    scope = name[-len(knob) :][len(SCOPE_DEFAULT) :].lower()  # (after any NEGOTIATOR.)
    table = fragment.setdefault("negotiator", {})
    table.setdefault("concurrency_limit_scope_defaults", {})[scope] = param_double(
        text, name, where
    )
    return scope


def _group_names(conf: ConfigFile, view: dict[str, str]) -> list[str]:
    """``GROUP_NAMES``: names (not blank, no control characters), by commas or blanks.

    Raises:
        InputError: a group name that is not a name.
    """
    key = view.get("GROUP_NAMES")
    if key is None:
        return []
    text = conf.expanded(key, "NEGOTIATOR", strict=True) or ""
    where = f"{conf.where[key]}: {conf.names[key]}"
    return [check_name(g, where) for g in text.replace(",", " ").split() if g]


def _per_group(key: str, groups: dict[str, str]) -> tuple[str, str, Convert] | None:
    """``GROUP_QUOTA_group_a.b`` -> (``group_a.b``, ``quota``, converter), for known groups."""
    for prefix, (field, convert) in PER_GROUP.items():
        if key.startswith(prefix):
            group = groups.get(key[len(prefix) :].lower())
            if group is not None:
                return group, field, convert
    return None
