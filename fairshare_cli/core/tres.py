"""A job's TRES as text: sacct's ``AllocTRES`` (and squeue's and scontrol's TRES) read
into counts, and the text a usage record keeps them in.

sacct prints a job's TRES as ``name=count`` items (``slurmdb_make_tres_string_from_simple``
in ``src/common/slurmdb_defs.c``, 22.05 and 26.05 alike): ``cpu=2,mem=8G,node=1,
billing=6,gres/gpu=1``. Memory, a ``bb/...`` burst buffer and a ``gpumem`` count in MB,
printed with a unit (``convert_num_unit`` from ``UNIT_MEGA``); a count of ``INFINITE64``
is printed ``NONE``; any other count is a whole number. slurmctld prints the TRES that
``scontrol show jobs`` and ``squeue --json`` show (``assoc_mgr_make_tres_str_from_array``
with ``TRES_STR_CONVERT_UNITS``, ``src/common/assoc_mgr.c``, 22.05 and 26.05 alike) in the
same items, but for two: a ``gpumem`` count is a bare number, and a ``fs/...`` or
``ic/...`` count is printed with a unit from a bare count (``convert_num_unit`` from
``UNIT_NONE``: ``fs/disk=2K`` is 2048). One reader reads them all
(:func:`alloc_tres_counts`). A usage record keeps the counts as :func:`tres_text` writes
them (memory in MB, no unit) and :func:`tres_counts` reads them back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from fairshare_cli.core.names import json_shown, shown
from fairshare_cli.errors import InputError

#: MB per unit of a TRES count Slurm prints in MB with a unit (``mem=8G``, ``bb/cray=1T``).
MB_PER_UNIT = {"K": 1 / 1024, "M": 1.0, "G": 1024.0, "T": 1024.0**2, "P": 1024.0**3}


def _scale(name: str, unit: str) -> float | None:
    """What a count of the TRES ``name`` (lower case) printed with ``unit`` (a text's last
    character) is multiplied by: in MB for memory, a ``gpumem`` and burst buffers
    (:func:`_in_mb`); in ones for ``fs/...`` and ``ic/...`` (``K`` is 1024); None: the
    TRES is printed without a unit, or ``unit`` is none."""
    unit = unit.upper()
    if unit not in MB_PER_UNIT:
        return None
    if _in_mb(name):
        return MB_PER_UNIT[unit]
    if name.split("/")[0] in ("fs", "ic"):
        return MB_PER_UNIT[unit] * 1024.0**2  # (MB_PER_UNIT counts from M: K is 1/1024)
    return None


def _in_mb(name: str) -> bool:
    """Whether sacct prints the TRES ``name`` (lower case) in MB with a unit: memory, a
    ``gpumem`` (``gres/gpumem``) and burst buffers (``bb/...``)."""
    return name == "mem" or name.rpartition("/")[2] == "gpumem" or name.split("/")[0] == "bb"


def alloc_tres_counts(
    text: str, where: str, field: str = "AllocTRES", printer: str = "sacct"
) -> dict[str, float]:
    """The counts of a TRES text as sacct, squeue or scontrol print it (``cpu=2,mem=8G,
    node=1,gres/gpu=1``), by lower-case name; memory (and the other sizes) in MB, a
    ``fs/...`` or ``ic/...`` count in ones. An empty text has none; an item ``NONE`` (an
    infinite count) is left out.

    Args:
        where: names the input line in messages; ``field``: the field the text is in;
        ``printer``: the command that printed it, in messages.

    Raises:
        InputError: naming ``where`` and the item: not ``name=count``, a count that is not
            a number, negative, infinite or beyond a double once in MB (``mem=1e308G``).
    """
    out: dict[str, float] = {}
    if not text.strip():
        return out
    for item in text.split(","):
        name, equals, value = item.strip().partition("=")
        name, value = name.lower(), value.strip()
        if equals and name and value == "NONE":
            continue
        scale = _scale(name, value[-1:])
        if scale is not None:
            value = value[:-1]
        try:
            number = float(value) * (1.0 if scale is None else scale)
        except ValueError:
            number = None
        if number is None or not (equals and name):
            raise InputError(
                f"{where}: {field} {shown(item.strip())}: expected name=count, a number "
                f"(memory with a unit: K, M, G, T or P), as {printer} prints it"
            )
        if not math.isfinite(number) or number < 0:
            raise InputError(
                f"{where}: {field} {shown(item.strip())}: expected a finite count of 0 or more "
                f"(as {printer} prints it)"
            )
        out[name] = number
    return out


def tres_text(counts: Mapping[str, float]) -> str | None:
    """A job's allocated TRES as a usage record keeps them (``UsageRecord.tres``):
    ``name=count`` by lower-case name, comma-separated, in the order given (memory in
    MB), ``billing`` left out (what slurmctld billed: the weights bill again); None when
    nothing is left. Counts are written so that :func:`tres_counts` reads them back
    exactly (a whole count as an integer, any other as its ``repr``)."""
    items = [
        f"{name}={int(count) if count.is_integer() and abs(count) < 2**53 else repr(count)}"
        for name, count in counts.items()
        if name != "billing"
    ]
    return ",".join(items) or None


def tres_counts(text: str) -> dict[str, float]:
    """The counts :func:`tres_text` wrote, by name.

    Raises:
        InputError: ``text`` is not ``name=count,...`` of finite counts of 0 or more.
    """
    out: dict[str, float] = {}
    for item in text.split(","):
        name, equals, value = item.partition("=")
        try:
            count = float(value)
        except ValueError:
            count = math.nan
        if not (name and equals and 0 <= count < math.inf):
            raise InputError(
                f"usage record TRES {text!r}: expected name=count,... (counts of 0 or more), "
                f"as fs writes them; got {item!r}"
            )
        out[name] = count
    return out


def history_tres(value: object, cpus: int | None, where: str) -> tuple[int | None, str | None]:
    """A usage history record's ``tres`` field (what one of its slots was allocated, as
    sacct prints ``AllocTRES``) beside its ``cpus`` (None: not given): the CPUs (``cpus``,
    else the text's ``cpu``) and the text the record keeps (:func:`tres_text`; None:
    nothing but ``billing``).

    Raises:
        InputError: naming ``where``: not a text :func:`alloc_tres_counts` reads, or a
            ``cpu`` that is not a whole number or not ``cpus``.
    """
    if not isinstance(value, str):
        raise InputError(
            f'{where}: tres: expected a text such as "cpu=2,mem=8G", got {json_shown(value)}'
        )
    counts = alloc_tres_counts(value, where, "tres")
    cpu = counts.get("cpu")
    if cpu is not None and (not cpu.is_integer() or cpu >= 2**63):
        raise InputError(f"{where}: tres cpu={cpu:g}: expected a whole number of CPUs")
    if cpu is not None and cpus is not None and cpu != cpus:
        raise InputError(
            f"{where}: tres cpu={cpu:g} but cpus {cpus}: the CPUs of one slot, given twice "
            "differently; give them once, or alike"
        )
    return (int(cpu) if cpus is None and cpu is not None else cpus), tres_text(counts)
