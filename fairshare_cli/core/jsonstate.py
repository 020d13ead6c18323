"""The state file's JSON text: ``json.dumps(value, indent=2, sort_keys=True, allow_nan=False)``.

The second form of the one JSON writer (:mod:`fairshare_cli.core.jsontext` holds the
``--json`` form and the rules both share): msgspec's text, keys sorted, laid out as
``indent=2``, steered back to the standard library's wherever the two would differ. The
walk that checks a state's values is a measured hot loop (``benchmarks/run.py --rows
import``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from itertools import chain
from typing import Any

import msgspec

from fairshare_cli.core.jsontext import (
    LARGE,
    LEAF_TYPES,
    SMALL,
    Refused,
    refuse,
    repr_float,
    str_keys,
)

_encode_sorted = msgspec.json.Encoder(enc_hook=refuse, order="sorted").encode


def dumps_sorted(value: Any) -> str:
    """``json.dumps(value, indent=2, sort_keys=True, allow_nan=False)``: :func:`sorted_bytes`."""
    return sorted_bytes(value).decode("ascii")


def sorted_bytes(value: Any) -> bytes:
    """``json.dumps(value, indent=2, sort_keys=True, allow_nan=False)`` as (ASCII) bytes:
    the state file's, never copied into a text.

    Raises:
        ValueError, TypeError: as :func:`json.dumps` (a NaN or an infinity; another type).
    """
    try:
        out: bytes | None = msgspec.json.format(_encode_sorted(_plain(value)), indent=2)
    except Refused:
        out = None
    if out is None or not out.isascii() or b"\x7f" in out:
        return json.dumps(value, indent=2, sort_keys=True, allow_nan=False).encode("ascii")
    return out


def _plain(value: Any) -> Any:
    """``value`` for :func:`dumps_sorted`: exact JSON types only, floats finite.

    A measured hot loop (``benchmarks/run.py --rows import``: a 30 MB state at 1M records).
    """
    kind = type(value)
    if kind is list or kind is tuple:
        if kind is list and value and type(value[0]) is list and _rows_of_numbers(value):
            return value
        return value if _all_kept(value) else [_plain(v) for v in value]
    if kind is dict:  # (a job of the state's queue: the same dict)
        kept = _all_kept(str_keys(value).values())
        return value if kept else {k: _plain(v) for k, v in value.items()}
    if kind is str or kind is int or value is None or kind is bool:
        return value
    if kind is float and value - value == 0:  # finite: NaN and infinities are refused
        if SMALL <= abs(value) < LARGE or value == 0.0:
            return value
        return repr_float(value)
    raise Refused


def _all_kept(values: Iterable[Any]) -> bool:
    """Whether :func:`_plain` keeps each of ``values`` as it is (their list or dict kept
    itself): inline, the walk's hot loop (``--rows import-squeue``: 100,000 jobs' values)."""
    for v in values:
        if type(v) not in LEAF_TYPES and not (
            type(v) is float and (SMALL <= abs(v) < LARGE or v == 0)
        ):
            return False
    return True


_INT, _FLOAT, _NUMBER = {int}, {float}, {int, float}


def _rows_of_numbers(rows: list[Any]) -> bool:
    """Whether ``rows`` are lists of one length holding only ints and floats msgspec prints
    as ``repr`` does (finite, zero or from :data:`SMALL` to below :data:`LARGE` in
    magnitude), so that :func:`_plain` keeps it as it is; decided a column at a time in C
    (the DIRAC history's ``[time, delta]`` steps: 450,000 at ``benchmarks/run.py --rows
    import``, a third of the walk's time). False means unsure: the walk decides.
    """
    if set(map(type, rows)) != {list}:
        return False
    lengths = set(map(len, rows))
    if len(lengths) != 1:
        return False
    (width,) = lengths
    flat = list(chain.from_iterable(rows))
    return all(_plain_numbers(flat[i::width]) for i in range(width))


def _plain_numbers(column: list[Any]) -> bool:
    """Whether ``column`` holds only ints and finite floats each zero or from
    :data:`SMALL` to below :data:`LARGE` in magnitude (every int qualifies alone)."""
    kinds = set(map(type, column))
    if kinds == _INT:
        return True
    if kinds == _FLOAT:
        total = sum(column)
        if total - total != 0:  # a NaN or an infinity among them
            return False
        low, high = min(column), max(column)
        if (low >= SMALL and high < LARGE) or (low > -LARGE and high <= -SMALL):
            return True  # (one sign, in range: the common case)
    elif not kinds <= _NUMBER:
        return False
    size = list(map(abs, column))
    if not max(size) < LARGE:  # (huge ints too; then the sum cannot overflow)
        return False
    if kinds != _FLOAT:  # (floats were summed above)
        total = sum(column)
        if total - total != 0:
            return False
    return min(size) >= SMALL or sum(map(SMALL.__gt__, size)) == column.count(0)
