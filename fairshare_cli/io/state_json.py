"""The state file's text through msgspec: byte for byte ``json.dumps(v, indent=2,
sort_keys=True, allow_nan=False)``, three times faster on the 30 MB state a 1M-record
``fs import history`` writes (``benchmarks/run.py --rows import``).

The same steering as ``render/fastjson.py`` (shared in ``core/jsontext.py``): floats msgspec
would not print as ``repr`` does (below 1e-4 or from 1e16 in magnitude) go in as ``repr``
text; NaN and infinities, keys that are not strings, non-ASCII text and any type beyond
dict, list, tuple, str, int, float, bool and None go to the standard library, which
prints or refuses them as it always did.
"""

from __future__ import annotations

import json
from itertools import chain
from typing import Any

import msgspec

from fairshare_cli.core.jsontext import LARGE as _LARGE
from fairshare_cli.core.jsontext import SMALL as _SMALL
from fairshare_cli.core.jsontext import Refused as _Refused
from fairshare_cli.core.jsontext import indented, refuse, repr_float


def _str_keys(value: dict[Any, Any]) -> dict[str, Any]:
    """``value`` with its values :func:`_plain` (keys must be exact strings)."""
    for k in value:
        if type(k) is not str:
            raise _Refused
    return {k: _plain(v) for k, v in value.items()}


_encode_sorted = msgspec.json.Encoder(enc_hook=refuse, order="sorted").encode


def _plain(value: Any) -> Any:
    """``value`` for :func:`dumps_sorted`: exact JSON types only, floats finite.

    A measured hot loop (``benchmarks/run.py --rows import``: a 30 MB state at 1M records).
    """
    kind = type(value)
    if kind is list or kind is tuple:
        if kind is list and value and type(value[0]) is list and _rows_of_numbers(value):
            return value
        out = None  # a copy only when an item changes (a list of plain numbers is kept)
        for i, v in enumerate(value):
            k = type(v)
            if (
                k is int
                or k is str
                or v is None
                or k is bool
                or (k is float and (_SMALL <= abs(v) < _LARGE or v == 0.0))
            ):
                if out is not None:
                    out.append(v)
            else:
                if out is None:
                    out = list(value[:i])
                out.append(_plain(v))
        return value if out is None else out
    if kind is dict:
        return _str_keys(value)
    if kind is str or kind is int or value is None or kind is bool:
        return value
    if kind is float and value - value == 0:  # finite: NaN and infinities are refused
        if _SMALL <= abs(value) < _LARGE or value == 0.0:
            return value
        return repr_float(value)
    raise _Refused


_INT = {int}
_FLOAT = {float}
_NUMBER = {int, float}


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
        if (low >= _SMALL and high < _LARGE) or (low > -_LARGE and high <= -_SMALL):
            return True  # (one sign, in range: the common case)
    elif not kinds <= _NUMBER:
        return False
    size = list(map(abs, column))
    if not max(size) < _LARGE:  # (huge ints too; then the sum cannot overflow)
        return False
    if kinds != _FLOAT:  # (floats were summed above)
        total = sum(column)
        if total - total != 0:
            return False
    return min(size) >= _SMALL or sum(map(_SMALL.__gt__, size)) == column.count(0)


def dumps_sorted(value: Any) -> str:
    """``json.dumps(value, indent=2, sort_keys=True, allow_nan=False)``, fast.

    Raises:
        ValueError: a NaN or an infinity (as :func:`json.dumps` raises it).
    """
    try:
        text = indented(_encode_sorted(_plain(value)))
    except _Refused:
        text = None
    if text is None:
        return json.dumps(value, indent=2, sort_keys=True, allow_nan=False)
    return text
