"""A sweep spec (``fs sweep SPEC.toml``): the base run, the axes, and the points they make.

The spec is the TOML document already parsed; this module checks it whole (every key
known, every value of the right kind, no empty axis) and lists the points: the cross
product of the axes (``mode = "product"``, the first axis varying slowest) or their
values side by side (``mode = "zip"``, axes of equal length). A point is the config
overrides ``fs whatif --set`` would take, in axis order. Paths stay as written: the
command resolves them against the spec's folder.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairshare_cli.core.names import TOML_TIME_NAMES
from fairshare_cli.errors import InputError, did_you_mean

#: Top-level keys of a spec, and what each must be.
SPEC_KEYS: dict[str, type | tuple[type, ...]] = {
    "config": str,
    "state": str,
    "workload": str,
    "history": str,
    "now": (str, int, float),
    "until": (str, int, float),
    "cycle": (str, int, float),
    "scheduler": str,
    "backfill": bool,
    "mode": str,
    "axis": list,
}
AXIS_KEYS = ("key", "values")
SCHEDULERS = ("htcondor", "slurm")
MODES = ("product", "zip")
#: More points than this is a typo, not a sweep.
MAX_POINTS = 100_000


@dataclass(frozen=True)
class Axis:
    """One knob and the values it takes (TOML values, as ``--set KEY=VALUE`` parses them)."""

    key: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class SweepSpec:
    """A checked spec. ``until`` and ``cycle`` stay as written (``fs simulate`` reads them);
    ``cycle`` None means each point's pool's (``fs simulate`` without ``--cycle``), ``now``
    None the clock, read once when the sweep starts."""

    config: str
    until: str
    cycle: str | None
    axes: tuple[Axis, ...]
    workload: str | None = None
    state: str | None = None
    history: str | None = None
    now: str | None = None
    scheduler: str = "htcondor"
    backfill: bool = False
    mode: str = "product"


def spec_from_toml(data: Mapping[str, Any], label: str) -> SweepSpec:
    """The spec in ``data`` (a parsed TOML document), checked whole.

    Raises:
        InputError: an unknown or missing key, a value of the wrong kind, an unknown
            scheduler or mode, an empty axis, zip axes of unequal length, a key twice.
    """
    _check_keys(data, label)
    scheduler = data.get("scheduler", "htcondor")
    if scheduler not in SCHEDULERS:
        raise InputError(f"{label}: scheduler '{scheduler}' is not one of htcondor, slurm")
    mode = data.get("mode", "product")
    if mode not in MODES:
        raise InputError(f"{label}: mode '{mode}' is not one of product, zip")
    axes = tuple(_axis(a, k, label) for k, a in enumerate(data["axis"], start=1))
    if not axes:
        raise InputError(f"{label}: no [[axis]]; a sweep needs at least one")
    seen: set[str] = set()
    for axis in axes:
        if axis.key in seen:
            raise InputError(f"{label}: axis '{axis.key}' is given twice")
        seen.add(axis.key)
    spec = SweepSpec(
        config=data["config"],
        workload=data.get("workload"),
        until=str(data.get("until", "1-0")),
        cycle=None if data.get("cycle") is None else str(data["cycle"]),
        axes=axes,
        state=data.get("state"),
        history=data.get("history"),
        now=None if data.get("now") is None else str(data["now"]),
        scheduler=scheduler,
        backfill=data.get("backfill", False),
        mode=mode,
    )
    if mode == "zip" and len({len(a.values) for a in axes}) > 1:
        lengths = ", ".join(f"{a.key} {len(a.values)}" for a in axes)
        raise InputError(f'{label}: mode = "zip" needs axes of one length ({lengths})')
    if point_count(spec) > MAX_POINTS:
        raise InputError(f"{label}: {point_count(spec)} points is over {MAX_POINTS:,}")
    _refuse_repeats(spec, label)
    return spec


def _same(value: Any) -> Any:
    """``value`` as a key under which equal config values meet (``3600`` and ``3600.0``;
    a list or a table by its items)."""
    if isinstance(value, list):
        return tuple(_same(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((k, _same(v)) for k, v in value.items()))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return (type(value).__name__, value)


def _refuse_repeats(spec: SweepSpec, label: str) -> None:
    """Refuse a value given twice on one axis (``mode = "product"``) or a point given
    twice (``"zip"``): its points would run, and be ranked, twice.

    Raises:
        InputError: naming the axis and the value, or the two points.
    """
    if spec.mode == "zip":
        first: dict[Any, int] = {}
        for index, combo in enumerate(zip(*(a.values for a in spec.axes), strict=True)):
            at = first.setdefault(tuple(_same(v) for v in combo), index)
            if at != index:
                raise InputError(f"{label}: points {at} and {index} are the same point")
        return
    for k, axis in enumerate(spec.axes, start=1):
        seen: set[Any] = set()
        for value in axis.values:
            if _same(value) in seen:
                raise InputError(f"{label}: axis {k} ({axis.key}): {value!r} is given twice")
            seen.add(_same(value))


def _check_keys(data: Mapping[str, Any], label: str) -> None:
    """Every key known and of its kind; the required ones present.

    Raises:
        InputError: the first key that is not.
    """
    for key, value in data.items():
        kind = SPEC_KEYS.get(key)
        if kind is None:
            raise InputError(f"{label}: unknown key '{key}'{did_you_mean(key, SPEC_KEYS)}")
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise InputError(f"{label}: '{key}' has the wrong type ({_type_name(value)})")
    for key in ("config", "axis"):
        if key not in data:
            raise InputError(f"{label}: '{key}' is missing (see docs/sweep.md)")
    for key in ("config", "state", "workload", "history"):
        path = data.get(key)
        if path is not None and "\0" in path:  # (no file has one: a ValueError traceback)
            raise InputError(f"{label}: '{key}' holds a NUL character; give a file's path")
        if path is not None and not path.strip():  # (the spec's folder: "is a directory")
            raise InputError(f"{label}: '{key}' is an empty path; give a file's path")


def _axis(raw: Any, k: int, label: str) -> Axis:
    """The ``k``-th ``[[axis]]`` table, checked."""
    where = f"{label}: axis {k}"
    if not isinstance(raw, Mapping):
        raise InputError(f"{where}: expected a table with key and values")
    for key in raw:
        if key not in AXIS_KEYS:
            raise InputError(f"{where}: unknown key '{key}'{did_you_mean(key, AXIS_KEYS)}")
    key = raw.get("key")
    if not isinstance(key, str) or not key.strip():
        raise InputError(
            f"{where}: 'key' must be a dotted config key, e.g. accountant.priority_halflife"
        )
    values = raw.get("values")
    if not isinstance(values, list):
        raise InputError(f"{where} ({key}): 'values' must be a list")
    if not values:
        raise InputError(f"{where} ({key}): 'values' is empty")
    return Axis(key.strip(), tuple(values))


def _type_name(value: Any) -> str:
    names = {bool: "a boolean", str: "a string", list: "a list", dict: "a table"}
    names.update(TOML_TIME_NAMES)
    return names.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__
    )


def point_count(spec: SweepSpec) -> int:
    """How many points the axes make."""
    if spec.mode == "zip":
        return len(spec.axes[0].values)
    count = 1
    for axis in spec.axes:
        count *= len(axis.values)
    return count


def points(spec: SweepSpec) -> list[dict[str, Any]]:
    """Each point's overrides (``{key: value}`` in axis order), in sweep order."""
    keys = [a.key for a in spec.axes]
    if spec.mode == "zip":
        combos: Any = zip(*(a.values for a in spec.axes), strict=True)
    else:
        combos = itertools.product(*(a.values for a in spec.axes))
    return [dict(zip(keys, combo, strict=True)) for combo in combos]
