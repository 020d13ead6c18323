"""The factors of Slurm's multifactor priority, one job at a time (``priority_multifactor.c``).

``PriorityFlags`` parsing, the age and job-size factors, a job's TRES counts and the final
clamp to ``uint32``; :mod:`fairshare_cli.core.slurm.priority` puts them together per row.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from fairshare_cli.core.limits import UINT32_MAX
from fairshare_cli.errors import InputError

#: ``PriorityMaxAge=INFINITE`` is stored as ``(uint32)(-1 * 60)``.
INFINITE_MAX_AGE = 4294967236.0


#: A time limit of INFINITE minutes.
INFINITE_MINUTES = float(UINT32_MAX)


#: The units a ``PriorityWeightTRES`` weight may end in (``get_unit_type``), 1024 apart.
TRES_WEIGHT_UNITS = "KMGTP"
#: What ``strtod`` reads of a weight (leading blanks only before a number).
_STRTOD = re.compile(r"(?:\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)?")


def parse_tres_weights(text: str) -> dict[str, float]:
    """``PriorityWeightTRES`` as ``slurm_get_tres_weight_array`` reads it (``CPU=1000,
    Mem=2G,GRES/gpu=3000``): comma-separated ``type[/name]=value[unit]`` items (empty ones
    skipped), names without regard to case (here in lower case), a later item overriding
    an earlier one. A unit divides the weight by 1024 per step above the TRES's base unit
    (``slurmdb_get_tres_base_unit``: M for mem and bb, none for the others), as
    ``get_convert_unit_val`` does; anything after the unit letter is not read. That
    function multiplies in a C ``int`` (22.05 and 26.05 alike): a ``T`` or ``P`` on any
    other TRES makes 1024^4 and more, a signed overflow (undefined: the same loop built by
    gcc 12 keeps ``2T`` at 2 and makes ``2P`` 2/1024 at -O0, and inlined at -O2 divides
    both by 0, infinity), so such a weight is refused.

    Raises:
        ValueError: what makes slurmctld stop (``fatal``) with this string, and the
            values fs does not model (hexadecimal, infinite or NaN weights, a ``T`` or
            ``P`` unit on a TRES other than mem and bb).
    """
    out: dict[str, float] = {}
    for item in filter(None, text.split(",")):
        kind, _, value = item.lstrip("=").partition("=")  # strtok_r skips leading '='
        kind, _, name = kind.partition("/")
        if not kind or not value:
            raise ValueError(f'"{item}" is an invalid TRES weight entry')
        weight = _tres_weight(kind, item, value)
        out[f"{kind}/{name}".lower() if name else kind.lower()] = weight
    return out


def _tres_weight(kind: str, item: str, value: str) -> float:
    """One item's weight: ``strtod`` of ``value``, divided as its unit says."""
    if re.match(r"\s*[+-]?(?:inf|nan|0x)", value, re.IGNORECASE):
        raise ValueError(f'"{item}": fs reads decimal weights only')
    number = _STRTOD.match(value)
    digits = number.group() if number else ""
    weight = float(digits) if digits else 0.0
    if math.isinf(weight):
        raise ValueError(f'weight "{digits}" is out of range in "{item}"')
    rest = value[len(digits) :]
    if rest:
        unit = rest[0].upper()
        if unit not in TRES_WEIGHT_UNITS:
            raise ValueError(
                f"invalid unit type '{rest[0]}' in \"{item}\" (possible units: K, M, G, T, P)"
            )
        base = 2 if kind.lower() in ("mem", "bb") else 0
        steps = TRES_WEIGHT_UNITS.index(unit) + 1 - base
        if steps > 3:  # (1024^4 in a C int: signed overflow, undefined)
            raise ValueError(
                f'"{item}": a {unit} unit on a TRES other than mem and bb is 1024^{steps},'
                " which overflows Slurm's int (get_convert_unit_val): what slurmctld"
                " reads depends on its compiler; give the weight as a plain number"
            )
        if steps > 0:
            weight /= 1024.0**steps
    return weight


#: The names ``read_config.c`` searches ``PriorityFlags`` for (``MAX_TRES`` is found in
#: ``MAX_TRES_GRES`` too), 22.05 and 26.05 alike.
FLAG_NAMES = (
    "ACCRUE_ALWAYS", "SMALL_RELATIVE_TO_TIME", "CALCULATE_RUNNING", "DEPTH_OBLIVIOUS",
    "NO_FAIR_TREE", "INCR_ONLY", "MAX_TRES", "NO_NORMAL_ALL", "NO_NORMAL_ASSOC",
    "NO_NORMAL_PART", "NO_NORMAL_QOS", "NO_NORMAL_TRES",
)  # fmt: skip


def unknown_flags(flags: Iterable[str]) -> list[str]:
    """The ``PriorityFlags`` words in which slurmctld finds no flag, and which it ignores
    without a word (it searches the value for each name in any case): ``FAIR_TREE``, a
    flag of Slurm 14.11 to 19.05, or a misspelt one (``NO_NORMAL_QSO``)."""
    return [word for word in flags if not any(name in word.upper() for name in FLAG_NAMES)]


def parse_flags(flags: Iterable[str]) -> frozenset[str]:
    """``PriorityFlags`` as Slurm reads them: a case-insensitive substring search.

    Returns the set of flag names in effect, with ``FAIR_TREE`` unless ``NO_FAIR_TREE`` or
    ``DEPTH_OBLIVIOUS`` clears it and ``NO_NORMAL_ALL`` expanded to its four flags.
    """
    text = ",".join(flags).upper()
    out = {"FAIR_TREE"}
    for word in ("ACCRUE_ALWAYS", "SMALL_RELATIVE_TO_TIME", "CALCULATE_RUNNING", "INCR_ONLY"):
        if word in text:
            out.add(word)
    if "DEPTH_OBLIVIOUS" in text:
        out.add("DEPTH_OBLIVIOUS")
        out.discard("FAIR_TREE")
    elif "NO_FAIR_TREE" in text:
        out.add("NO_FAIR_TREE")
        out.discard("FAIR_TREE")
    if "MAX_TRES_GRES" in text:
        out.add("MAX_TRES_GRES")
    elif "MAX_TRES" in text:
        out.add("MAX_TRES")
    if "NO_NORMAL_ALL" in text:
        out.update(("NO_NORMAL_ASSOC", "NO_NORMAL_PART", "NO_NORMAL_QOS", "NO_NORMAL_TRES"))
    for word in ("NO_NORMAL_ASSOC", "NO_NORMAL_PART", "NO_NORMAL_QOS", "NO_NORMAL_TRES"):
        if word in text:
            out.add(word)
    return frozenset(out)


def effective_algorithm(fairshare: str, flags: Iterable[str]) -> str:
    """The fair-share algorithm: the ``fairshare`` knob, or what slurm.conf flags select.

    ``DEPTH_OBLIVIOUS`` in the flags selects depth-oblivious; ``NO_FAIR_TREE`` turns
    ``fair_tree`` into ``classic``.
    """
    parsed = parse_flags(flags)
    if "DEPTH_OBLIVIOUS" in parsed:
        return "depth_oblivious"
    if "NO_FAIR_TREE" in parsed and fairshare == "fair_tree":
        return "classic"
    return fairshare


def age_factor(accrue_time: float | None, now: float, max_age: float) -> float:
    """``diff / PriorityMaxAge`` capped at 1; 0 when the job has not started accruing."""
    if accrue_time is None:
        return 0.0
    diff = int(now - accrue_time) if accrue_time < now else 0
    if max_age <= 0:
        return 1.0
    if math.isinf(max_age):
        max_age = INFINITE_MAX_AGE
    return diff / max_age if diff < max_age else 1.0


def job_size_factor(
    min_nodes: int,
    cpu_cnt: int,
    node_count: int,
    cluster_cpus: int,
    *,
    favor_small: bool,
    relative_to_time: bool,
    time_limit_minutes: float = 1.0,
) -> float:
    """``_get_job_size_factor``: nodes and CPUs against the cluster's size, in [0, 1]."""
    if not node_count or not cluster_cpus:
        return 0.0
    min_nodes = max(min_nodes, 1)
    if relative_to_time:
        size = min_nodes * cluster_cpus / node_count
        if cpu_cnt > size:
            size = float(cpu_cnt)
        tl = time_limit_minutes if time_limit_minutes > 0 else 1.0
        f = size / tl / cluster_cpus
        if favor_small:
            f = 1.0 - f
    elif favor_small:
        f = (node_count - min_nodes) / node_count if node_count > min_nodes else 0.0
        if cpu_cnt:
            f = (f + (cluster_cpus - cpu_cnt) / cluster_cpus) / 2.0
    else:
        f = min_nodes / node_count
        if cpu_cnt:
            f = (f + cpu_cnt / cluster_cpus) / 2.0
    return min(max(f, 0.0), 1.0)


def clamp_priority(value: float) -> int:
    """Below 1 becomes 1; truncate toward zero; above 2^32−1 becomes 2^32−1."""
    if value < 1:
        value = 1.0
    p = int(value)
    return min(p, UINT32_MAX)


def job_tres_value(job: Any, name: str) -> float:
    """A job's count of TRES ``name`` (its ``attributes`` for any but CPUs, memory and
    nodes); ``gres/NAME`` not given is the sum of its typed requests (``gres/NAME:TYPE``),
    as ``_set_type_tres_cnt`` adds them to the job's ``gres/NAME`` count. ``name`` (in
    lower case) matches an attribute in any case (``"gres/GPU": 2`` is ``gres/gpu``), as
    ``assoc_mgr_find_tres_pos`` finds a GRES's TRES (``xstrcasecmp``)."""
    if name in ("cpu", "billing"):
        return float(job.request_cpus)
    if name == "mem":
        return float(job.request_memory)
    if name == "node":
        return float(job.num_nodes or 1)
    attrs = getattr(job, "attributes", {}) or {}
    value = attrs.get(name)
    if isinstance(value, (int, float)):
        return float(value)
    if not all(map(str.islower, attrs)):  # (a TRES is found by its name in any case)
        attrs = {k.lower(): v for k, v in reversed(attrs.items())}
        value = attrs.get(name)
        if isinstance(value, (int, float)):
            return float(value)
    if name.startswith("gres/") and ":" not in name:  # the typed requests' sum
        typed = name + ":"
        return float(sum(v for k, v in attrs.items() if k.startswith(typed) and _count(v)))
    return 0.0


def _count(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def job_user(owner: str) -> str:
    """The Slurm user name of a job owner (``alice@example.org`` -> ``alice``)."""
    return owner.split("@", 1)[0]


def running_qos(qos: str | None, defined: Mapping[str, Any] | None = None) -> str | None:
    """The QOS a running job of ``qos`` is charged under: a job of several QOS runs under
    one, and fs, which does not keep which, takes the one ``_get_qos_info`` gives it at
    submission, the first of the list sorted by priority (``priority_sort_qos_desc``:
    highest first, ties as named; ``defined``: the config's ``[qos]``, whose ``priority``
    it reads, a QOS it lacks at 0); a job of one QOS under it."""
    if not qos or "," not in qos:
        return qos
    names = [name for name in qos.split(",") if name]
    if not names:
        return None
    table = defined or {}
    return max(names, key=lambda n: table[n].priority if n in table else 0)


def split_qos(where: str, qos: str | None, several: bool = True) -> tuple[str, ...]:
    """The QOS a job names: ``"low,high"`` (a job of several QOS, Slurm 24.11 on) ->
    ``("low", "high")``; empty or None -> ``()``. A name given twice counts once, empty
    names are skipped (``_get_qos_ptr_list``, through ``strtok``). One rule for
    ``fs submit``, the imports, the state's checks and sprio, so that no job is taken that
    sprio then refuses. ``several``: whether the Slurm modelled takes a list (not 22.05).

    Raises:
        InputError: (``where``: what names the job) a list where ``several`` is False, or
            a list naming fewer than two QOS, which slurmctld refuses (a trailing comma).
    """
    if not qos or "," not in qos:
        return (qos,) if qos else ()
    if not several:
        raise InputError(
            f'{where}: QOS "{qos}": Slurm 22.05 takes one QOS a job (several came with '
            '24.11: priority.output_compat = "current")'
        )
    names = tuple(dict.fromkeys(q for q in qos.split(",") if q))
    if len(names) < 2:
        raise InputError(
            f'{where}: QOS "{qos}" names {"one QOS" if names else "no QOS"}: slurmctld '
            "refuses a list of fewer than two (a trailing comma)"
        )
    return names
