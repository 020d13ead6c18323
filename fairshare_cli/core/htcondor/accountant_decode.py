"""The accountant section's records in one msgspec pass (``fs userprio`` over 20,000 submitters).

:func:`~fairshare_cli.core.htcondor.accountant.accountant_from_json` reads a record field by
field: the checks of :mod:`record_checks`, then a number per field. This module checks and
converts the whole ``records`` object in C (:func:`msgspec.convert` into a struct whose
constraints are the same rule: known fields only, ``true``/``false`` for ``is_group``, finite
numbers, each field's least value from :data:`record_checks.LEAST`, whole numbers up to
``INT32_MAX`` for the C ints), then builds the records. It is stricter, never looser, than the
exact reader: anything it refuses or does not expect (a float where an int is stored, an
integer beyond 64 bits, a key that is not a string) returns None, and the exact reader reads
the section again and words the error (``tests/core/htcondor/test_accountant_decode.py``
holds the two equal).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import MISSING, fields
from typing import Annotated, Any, Protocol

import msgspec

from fairshare_cli.core.htcondor.accountant import ROOT_GROUP, CustomerRecord, accountant_from_json
from fairshare_cli.core.htcondor.record_checks import C_INTS, LEAST, TIMES
from fairshare_cli.core.limits import INT32_MAX, TIME_MAX, TIME_MIN


class StoredRecord(Protocol):
    """A stored record as a view reads it: a :class:`CustomerRecord` or a decoded struct
    (which has no ``name``: the records' keys are the names)."""

    @property
    def is_group(self) -> bool: ...

    @property
    def priority(self) -> float: ...

    @property
    def last_update(self) -> float | None: ...

    @property
    def priority_factor(self) -> float | None: ...

    @property
    def resources_used(self) -> int: ...

    @property
    def weighted_resources_used(self) -> float: ...

    @property
    def hier_weighted_resources_used(self) -> float: ...

    @property
    def accumulated_usage(self) -> float: ...

    @property
    def weighted_accumulated_usage(self) -> float: ...

    @property
    def begin_usage_time(self) -> float: ...

    @property
    def last_usage_time(self) -> float: ...

    @property
    def uncharged_time(self) -> float: ...

    @property
    def weighted_uncharged_time(self) -> float: ...

    @property
    def floor(self) -> int: ...

    @property
    def ceiling(self) -> int: ...


_BIG = sys.float_info.max  # a float bound that refuses NaN and the infinities too


def _field_type(name: str, kind: Any) -> Any:
    """The msgspec type of a record field: its Python type with the field's range."""
    if kind == "bool":
        return bool
    least = LEAST.get(name)
    if name in C_INTS:
        return Annotated[int, msgspec.Meta(ge=int(least or 0), le=INT32_MAX)]
    if kind == "int":
        return int if least is None else Annotated[int, msgspec.Meta(ge=int(least))]
    low, high = (TIME_MIN, TIME_MAX) if name in TIMES else (-_BIG if least is None else least, _BIG)
    number = Annotated[float, msgspec.Meta(ge=low, le=high)]
    return number | None if "None" in str(kind) else number


def _body_type() -> Any:
    """A struct with CustomerRecord's stored fields, types, defaults and ranges."""
    spec = [
        (f.name, _field_type(f.name, f.type), f.default)
        for f in fields(CustomerRecord)
        if f.name != "name" and f.default is not MISSING
    ]
    return msgspec.defstruct("_Body", spec, forbid_unknown_fields=True, gc=False)


_BODY = _body_type()
_RECORDS = dict[str, _BODY]  # type: ignore[valid-type]
_STORED = msgspec.structs.fields(_BODY)


def fast_bodies(records: Any) -> dict[str, Any] | None:
    """The records of ``records`` (the section's ``records`` object) as read-only structs
    with a record's attributes but no ``name`` (:class:`StoredRecord`), or None when the
    exact reader must read them (anything unusual, any error)."""
    if type(records) is not dict:
        return None
    try:
        bodies: dict[str, Any] = msgspec.convert(records, _RECORDS, strict=True)
    except msgspec.ValidationError:
        return None
    root = bodies.get(ROOT_GROUP)
    if root is not None:  # AddMatch charges <none>'s subtree usage with its own
        root.hier_weighted_resources_used = root.weighted_resources_used
    return bodies


def fast_records(records: Any) -> dict[str, CustomerRecord] | None:
    """The records of ``records`` as the exact reader reads them, or None when it must."""
    bodies = fast_bodies(records)
    if bodies is None:
        return None
    names = [f.name for f in _STORED]
    out: dict[str, CustomerRecord] = {}
    new = object.__new__
    set_attr = object.__setattr__  # as CustomerRecord's own (frozen) __init__ sets them
    as_tuple = msgspec.structs.astuple
    for name, body in bodies.items():
        rec = new(CustomerRecord)
        set_attr(rec, "name", name)
        for field, value in zip(names, as_tuple(body), strict=True):
            set_attr(rec, field, value)
        out[name] = rec
    return out


def stored_records(raw: Any) -> Mapping[str, StoredRecord]:
    """The ``accountant`` section's records for a view that only reads them (``fs
    userprio``): :func:`fast_bodies` when it can, else the exact reader's records.

    Raises:
        SectionError: the section is malformed (the exact reader's message).
    """
    if type(raw) is dict:
        bodies = fast_bodies(raw.get("records", {}))
        if bodies is not None:
            return bodies
    return accountant_from_json(raw).records
