"""Slurm knobs -> our config keys (docs/config.md names each key's knob).

:data:`KNOBS` maps the slurm.conf knobs the pool config models to config keys; each value is
read as slurmctld reads it (:func:`convert`), and :func:`unset_as_slurm_reads` writes out
what slurmctld reads for the knobs a slurm.conf leaves unset where fs's default is the
profile's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from fairshare_cli.core.config import PROFILE_DEFAULTS, SlurmPriorityConfig, part_enforce_type
from fairshare_cli.core.names import check_name, shown
from fairshare_cli.core.slurm.billing import billing_weights
from fairshare_cli.core.slurm.factors import parse_tres_weights, unknown_flags
from fairshare_cli.core.slurm.gres_types import SHARED, parse_gres_types
from fairshare_cli.core.timestr import TimeStringError, slurm_conf_minutes
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.as_config import Origins

#: slurm.conf knob (lower case) -> path in our config; the value's converter by name.
KNOBS: dict[str, tuple[tuple[str, ...], str]] = {
    "clustername": (("pool", "name"), "lower"),
    "prioritytype": (("priority", "type"), "ptype"),
    "prioritydecayhalflife": (("priority", "decay_halflife"), "minutes"),
    "prioritycalcperiod": (("priority", "calc_period"), "str"),
    "priorityusageresetperiod": (("priority", "usage_reset_period"), "upper"),
    "prioritymaxage": (("priority", "max_age"), "minutes"),
    "priorityfavorsmall": (("priority", "favor_small"), "yesno"),
    "priorityflags": (("priority", "flags"), "flags"),
    "fairsharedampeningfactor": (("priority", "dampening_factor"), "uint16"),
    "priorityweightage": (("priority", "weights", "age"), "uint32"),
    "priorityweightassoc": (("priority", "weights", "assoc"), "uint32"),
    "priorityweightfairshare": (("priority", "weights", "fairshare"), "uint32"),
    "priorityweightjobsize": (("priority", "weights", "jobsize"), "uint32"),
    "priorityweightpartition": (("priority", "weights", "partition"), "uint32"),
    "priorityweightqos": (("priority", "weights", "qos"), "uint32"),
    "priorityweighttres": (("priority", "weights", "tres"), "tres"),
    "accountingstorageenforce": (("priority", "enforce_limits"), "enforce"),
    "enforcepartlimits": (("priority", "enforce_part_limits"), "partenforce"),
    "overtimelimit": (("priority", "over_time_limit"), "overtime"),
    "killwait": (("priority", "kill_wait"), "killwait"),
    "accountingstoragetres": (("priority", "accounting_storage_tres"), "str"),
    "grestypes": (("priority", "gres_types"), "grestypes"),
}

#: The ``SchedulerParameters`` options the backfill simulation reads (``[priority]`` keys
#: of the same names); the others (``defer``, ``bf_continue``, ...) are not modelled.
BACKFILL_OPTIONS = ("bf_max_job_test", "bf_window", "bf_resolution", "bf_interval")


def strtoul(text: str) -> tuple[int, str, bool]:
    """C's ``strtoul(text, &end, 0)`` on an x86-64 host: the number, the text from ``end``
    on, and whether it overflowed (``ERANGE``). Blanks and a sign may lead; ``0x`` starts
    hex, another ``0`` octal (``010`` is 8); a negative number wraps to 64 bits; where no
    number starts, 0 and the whole text."""
    found = re.match(r"[ \t\n\v\f\r]*([+-]?)(0[xX](?=[0-9a-fA-F])|0?)", text)
    assert found is not None  # (every part may be empty)
    base = 16 if found.group(2)[1:] else 8 if found.group(2) else 10
    digits = re.match(r"[0-9a-fA-F]*" if base == 16 else r"[0-7]*" if base == 8 else r"\d*",
                      text[found.end() :])  # fmt: skip
    assert digits is not None
    if not (digits.group() or found.group(2)):
        return 0, text, False  # (no number: end is the text's start)
    rest = text[found.end() + digits.end() :]
    significant = digits.group().lstrip("0")
    if len(significant) > 22 or int(significant or "0", base) >= 2**64:
        return 2**64 - 1, rest, True
    number = int(significant or "0", base)
    return (-number % 2**64 if found.group(1) == "-" else number), rest, False


def slurm_uint(key: str, value: str, where: str, bits: int = 32) -> int:
    """A ``uint16_t`` or ``uint32_t`` knob (``bits``: ``FairShareDampeningFactor``, the
    ``PriorityWeight*``) as ``s_p_handle_uint16`` / ``s_p_handle_uint32`` read it (22.05
    and 26.05 alike): :func:`strtoul` of base 0, so ``010`` is 8 and ``0x10`` 16, a ``k``
    or ``K`` after it times 1024, ``UNLIMITED`` or ``INFINITE`` (any case) the largest.

    Raises:
        InputError: a value slurmctld stops on, in its words, naming ``where``.
    """
    top: int = 2**bits - 1
    number, rest, overflow = strtoul(value)
    if rest[:1] in ("k", "K"):
        number, rest = number * 1024 % 2**64, rest[1:]
    if rest:
        if value.upper() in ("UNLIMITED", "INFINITE"):
            return top
        problem = "is not a valid number"
    elif overflow:
        problem = "is out of range"
    elif value.startswith("-"):
        problem = "is less than zero"
    elif number > top:
        problem = f"is greater than {top}"
    else:
        return number
    raise InputError(
        f'{where}: {key}: "{shown(value)}" {problem}, and slurmctld stops on it (expected a '
        f"whole number up to {top}, UNLIMITED or INFINITE)"
    )


def convert(kind: str, key: str, value: str, where: str) -> Any:
    """The ``value`` of knob ``key`` read as slurmctld reads it (``kind``: its converter's
    name in :data:`KNOBS`).

    Raises:
        InputError: a value slurmctld would not start with, naming ``where``.
    """
    if kind == "str":
        return value
    if kind == "lower":  # ClusterName: the pool's name
        return check_name(value, f"{where}: {key}").lower()
    if kind == "upper":
        return value.upper()
    if kind in ("uint16", "uint32"):
        return slurm_uint(key, value, where, int(kind[4:]))
    if kind == "yesno":
        return slurm_boolean(key, value, where)
    if kind == "ptype":  # (the plugin's file name and type: found in case, whole)
        if value not in ("priority/multifactor", "priority/basic"):
            raise InputError(
                f'{where}: {key}: expected priority/multifactor or priority/basic, got "{value}"'
                " (slurmctld loads no other: cannot create priority context)"
            )
        return value.removeprefix("priority/")
    if kind == "flags":
        return [f.strip().upper() for f in value.split(",") if f.strip()]
    if kind in _CONVERTERS:
        return _CONVERTERS[kind](key, value, where)
    return tres_weights(key, value, where)


def stored_minutes(key: str, value: str, where: str) -> str:
    """``PriorityMaxAge`` or ``PriorityDecayHalfLife`` as written, once slurmctld would
    start with it (:func:`~fairshare_cli.core.timestr.slurm_conf_minutes`; the config
    reads it so too).

    Raises:
        InputError: a time string slurmctld refuses, naming ``where``.
    """
    try:
        slurm_conf_minutes(value, key)
    except TimeStringError as exc:
        raise InputError(f"{where}: {key}: {exc}") from None
    return value


#: What slurm.conf's booleans read as true and as false (``s_p_handle_boolean``).
_TRUE = ("YES", "UP", "TRUE", "1")
_FALSE = ("NO", "DOWN", "FALSE", "0")


def slurm_boolean(key: str, value: str, where: str) -> bool:
    """A slurm.conf boolean (``PriorityFavorSmall``, a partition's ``Default``) as
    ``s_p_handle_boolean`` reads it: YES, UP, TRUE or 1, or NO, DOWN, FALSE or 0, in any
    case (22.05 and 26.05 alike).

    Raises:
        InputError: any other word, which slurmctld stops on, naming ``where``.
    """
    if value.upper() not in _TRUE + _FALSE:
        raise InputError(
            f'{where}: {key}: "{shown(value)}" is not a valid option (expected YES, UP, '
            "TRUE or 1, or NO, DOWN, FALSE or 0)"
        )
    return value.upper() in _TRUE


#: ``INFINITE16``: an ``OverTimeLimit`` of this many minutes is UNLIMITED.
INFINITE16 = 0xFFFF


def over_time_limit(key: str, value: str, where: str, partition: bool = False) -> str | None:
    """``OverTimeLimit`` as ``over_time_limit`` writes it: minutes (a string) or
    ``"UNLIMITED"`` (``scontrol show config`` prints "5 min"). The cluster's is a
    ``uint16_t`` (``s_p_get_uint16``: ``UNLIMITED``, ``INFINITE`` or 65535 are UNLIMITED).
    A partition's is read with ``strtol`` into an ``int`` (``_build_single_partitionline_
    info``): its leading number (``1:00`` is 1, a word 0); a negative one is ignored,
    leaving it unset (None: the cluster's), as 65534 (``NO_VAL16``) does; above that,
    UNLIMITED.

    Raises:
        InputError: the cluster's: not a whole number of minutes slurmctld takes, naming
            ``where``.
    """
    text = value.strip().removesuffix(" min")
    if text.upper() in ("UNLIMITED", "INFINITE"):
        return "UNLIMITED"
    if partition:
        minutes = c_int(strtol(text))
        if minutes < 0 or minutes == INFINITE16 - 1:
            return None
    else:
        minutes = _uint16(key, text, where, hi=INFINITE16)
    return "UNLIMITED" if minutes >= INFINITE16 else str(minutes)


def strtol(text: str) -> int:
    """C's ``strtol(text, NULL, 10)``: the number that ``text`` begins with (after blanks,
    an optional sign), 0 where it begins with none; clamped to a ``long`` (64 bits)."""
    found = re.match(r"\s*([+-]?\d+)", text)
    number = int(found.group(1)) if found else 0
    return max(-(2**63), min(2**63 - 1, number))


def c_int(number: int) -> int:
    """A ``long`` stored in an ``int`` (32 bits, wrapped as gcc on x86-64 does)."""
    return (number + 2**31) % 2**32 - 2**31


def _uint16(key: str, value: str, where: str, hi: int | None = INFINITE16) -> int:
    if not re.fullmatch(r"\d+", value.strip()) or (hi is not None and int(value) > hi):
        limit = f" of at most {hi}" if hi is not None else ""
        raise InputError(f'{where}: {key}: expected a whole number{limit}, got "{value}"')
    return int(value)


def _kill_wait(key: str, value: str, where: str) -> int:
    """``KillWait`` seconds (``scontrol show config`` prints "30 sec")."""
    return _uint16(key, value.strip().removesuffix(" sec"), where)


#: The converters of ``AccountingStorageEnforce``, ``EnforcePartLimits``, ``OverTimeLimit``
#: (the cluster's: never None) and ``KillWait``, by kind: ``(key, value, where)``.
_CONVERTERS: dict[str, Callable[[str, str, str], Any]] = {
    "enforce": lambda _key, value, where: _enforcement("enforce", value, where),
    "partenforce": lambda _key, value, where: _enforcement("partenforce", value, where),
    "overtime": over_time_limit,
    "minutes": lambda key, value, where: stored_minutes(key, value, where),
    "killwait": _kill_wait,
    "grestypes": lambda key, value, where: gres_types(key, value, where),
}


def _enforcement(kind: str, value: str, where: str) -> bool | str:
    """``AccountingStorageEnforce`` (whether it has ``limits``: ``safe`` implies it) or
    ``EnforcePartLimits`` (``NO``, ``ANY`` or ``ALL``; slurmctld will not start on a word
    ``parse_part_enforce_type`` refuses).

    Raises:
        InputError: a bad ``EnforcePartLimits``, naming ``where``.
    """
    if kind == "enforce":
        words = {w.strip().lower() for w in value.split(",")}
        return bool(words & {"limits", "safe"})
    known = part_enforce_type(value)
    if known is None:
        raise InputError(
            f'{where}: Bad EnforcePartLimits: "{value}" (expected NO, ANY, ALL or YES)'
        )
    return known


def scheduler_parameters(key: str, value: str, where: str) -> dict[str, int]:
    """The backfill options of ``SchedulerParameters=bf_window=2880,bf_max_job_test=1000,...``
    (comma-separated, names without regard to case as ``_load_config`` in
    ``src/plugins/sched/backfill/backfill.c`` finds them)."""
    out: dict[str, int] = {}
    for item in value.split(","):
        name, sep, number = item.strip().partition("=")
        if name.lower() not in BACKFILL_OPTIONS:
            continue
        if not sep or not re.fullmatch(r"\d+", number.strip()):
            raise InputError(f'{where}: {key}: {name}: expected a whole number, got "{number}"')
        out[name.lower()] = int(number)
    return out


def tres_weights(key: str, value: str, where: str) -> str:
    """``PriorityWeightTRES`` (``sprio -w`` prints it as written) or a partition's
    ``TRESBillingWeights``, as written, once checked as slurmctld reads it."""
    try:
        (billing_weights if key == "TRESBillingWeights" else parse_tres_weights)(value)
    except ValueError as exc:
        raise InputError(f"{where}: {key}: {exc}") from None
    return value


def gres_types(key: str, value: str, where: str) -> str:
    """``GresTypes`` as written, once slurmctld would start with it
    (:func:`~fairshare_cli.core.slurm.gres_types.parse_gres_types`)."""
    try:
        parse_gres_types(value)
    except ValueError as exc:
        raise InputError(f"{where}: {key}: {exc}") from None
    return value


def shared_gres_select(
    types: tuple[str, str] | None, select: str | None, compat: str = "current"
) -> None:
    """Refuse a GPU-sharing GRES (``mps``, ``shard``) of ``GresTypes`` (``types``: its
    value and ``FILE:LINE: KEY``) unless ``SelectType`` (``select``; unset: the version's
    default, ``select/linear`` in 22.05, ``select/cons_tres`` since 23.11) is
    ``select/cons_tres``: slurmctld stops on it (``gres_init``, 22.05 and 26.05 alike).

    Raises:
        InputError: naming the ``GresTypes`` line.
    """
    shared = [name for name in parse_gres_types(types[0]) if name in SHARED] if types else []
    default = "select/linear" if compat == "22.05" else "select/cons_tres"
    if shared and types and (select or default) != "select/cons_tres":
        given = select or f"unset, so {default} (Slurm {compat})"
        raise InputError(
            f"{types[1]}: gres/{shared[0]} needs SelectType=select/cons_tres (SelectType is "
            f"{given}): slurmctld stops on it (Use of shared gres requires the use of "
            "select/cons_tres)"
        )


def unset_as_slurm_reads(
    fragment: dict[str, Any], knobs: list[str], compat: str = "current"
) -> None:
    """Write into ``fragment`` what slurmctld reads for each ``[priority]`` key whose fs default
    is the profile's and that the file leaves unset: Fair Tree (since Slurm 19.05) and the
    weights ``read_config.c`` sets to 0 (``PROFILE_DEFAULTS["current"]``), where the
    ``legacy`` profile reads Slurm 2.0's ``linear`` and weights of 1. Only a file that sets a
    ``Priority*`` knob (``knobs``, as written) says how the cluster prioritises.

    An unset ``PriorityType`` is ``priority/multifactor`` from Slurm 23.02.5 on (fs's
    default), but ``priority/basic`` for the Slurm 22.05 that ``compat = "22.05"`` models
    (its ``read_config.h``: ``DEFAULT_PRIORITY_TYPE``): written as ``type = "basic"``.
    """
    if not any(knob.lower().startswith("priority") for knob in knobs):
        return
    if compat == "22.05" and not any(knob.lower() == "prioritytype" for knob in knobs):
        fragment.setdefault("priority", {})["type"] = "basic"
    for key, value in PROFILE_DEFAULTS["current"].items():
        section, *path = key.split(".")
        if section == "priority":
            table = fragment.setdefault(section, {})
            for part in path[:-1]:
                table = table.setdefault(part, {})
            table.setdefault(path[-1], value)


#: The weights slurmctld sums to check a job's priority cannot overflow (not the TRES).
SUMMED_WEIGHTS = ("age", "assoc", "fairshare", "jobsize", "partition", "qos")


def weight_sum_warning(weights: Mapping[str, Any], label: str) -> str | None:
    """A warning where the ``PriorityWeight*`` but TRES (``weights``, by config key) sum
    above 4294967295: slurmctld starts, logging ``PriorityWeight values too high, job
    priority value may overflow`` (``read_config.c``, 22.05 and 26.05 alike), and cuts a
    job's priority above it to 4294967295 (``_get_priority_internal``), as fs does. None
    otherwise."""
    total = sum(weights.get(name, 0) for name in SUMMED_WEIGHTS)
    if total <= 0xFFFFFFFF:
        return None
    return (
        f"{label}: the PriorityWeight* sum to {total}, above 4294967295 (slurmctld: "
        '"PriorityWeight values too high, job priority value may overflow"); a job\'s '
        "priority above it is cut to 4294967295, in fs as in slurmctld"
    )


def priority_warnings(priority: SlurmPriorityConfig, label: str) -> list[str]:
    """What ``fs config check`` says of ``[priority]`` (``label``: the config file): each
    flag word slurmctld finds no flag in (and ignores, as fs does), and weights summing
    above 32 bits (:func:`weight_sum_warning`)."""
    out = [
        f"priority.flags: {word}: no flag slurmctld knows; it ignores it, and so does fs"
        for word in unknown_flags(priority.flags)
    ]
    weights = {name: getattr(priority.weights, name) for name in SUMMED_WEIGHTS}
    too_high = weight_sum_warning(weights, f"{label}: [priority.weights]")
    return out + ([too_high] if too_high is not None else [])


def knl_gres_types(types: str | None, plugins: str | None, compat: str) -> str | None:
    """``GresTypes`` (``types``, as written; None: unset) as Slurm 22.05 (to 25.05)
    completes it when ``NodeFeaturesPlugins`` (``plugins``) names a KNL plugin (``knl_`` in
    it, in case: ``xstrstr``) and none of its names is ``hbm`` in any case
    (``_have_hbm_token``): ``,hbm`` added, or ``hbm`` where it is unset or empty ("KNL
    nodes implicitly add GRES type of hbm", ``read_config.c``). None: unchanged, as with
    ``compat`` "current" (Slurm 25.11 dropped it: "Remove automatic setup of hbm gres for
    KNL")."""
    if compat != "22.05" or plugins is None or "knl_" not in plugins:
        return None
    if any(name.lower() == "hbm" for name in (types or "").split(",")):
        return None
    return f"{types},hbm" if types else "hbm"


def knl_hbm(
    fragment: dict[str, Any],
    origins: Origins,
    notes: list[str],
    plugins: tuple[str, str] | None,
    compat: str,
) -> None:
    """``fragment``'s ``gres_types`` with the ``hbm`` a KNL plugin adds
    (:func:`knl_gres_types`; ``plugins``: ``NodeFeaturesPlugins`` and its ``FILE:LINE:
    KEY``), its origin that line, and a note saying so."""
    plugins_text, where = plugins or (None, "")
    priority = fragment.get("priority", {})
    added = knl_gres_types(priority.get("gres_types"), plugins_text, compat)
    if added is not None:
        fragment.setdefault("priority", {})["gres_types"] = gres_types("GresTypes", added, where)
        origins.add(("priority", "gres_types"), where)
        notes.append(
            f'{where}: slurmctld adds hbm to GresTypes ("{added}"), as Slurm 22.05 '
            "does for a KNL plugin (KNL nodes implicitly add GRES type of hbm)"
        )
