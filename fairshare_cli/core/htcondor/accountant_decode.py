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
from dataclasses import MISSING, fields
from typing import Annotated, Any

import msgspec

from fairshare_cli.core.htcondor.accountant import ROOT_GROUP, CustomerRecord
from fairshare_cli.core.htcondor.record_checks import C_INTS, LEAST
from fairshare_cli.core.limits import INT32_MAX

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
    number = Annotated[float, msgspec.Meta(ge=-_BIG if least is None else least, le=_BIG)]
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


def fast_records(records: Any) -> dict[str, CustomerRecord] | None:
    """The records of ``records`` (the section's ``records`` object) as the exact reader
    reads them, or None when it must read them (anything unusual, any error)."""
    if type(records) is not dict:
        return None
    try:
        bodies = msgspec.convert(records, _RECORDS, strict=True)
    except msgspec.ValidationError:
        return None
    out: dict[str, CustomerRecord] = {}
    new = object.__new__
    set_dict = object.__setattr__
    as_dict = msgspec.structs.asdict
    for name, body in bodies.items():
        values = as_dict(body)
        values["name"] = name
        if name == ROOT_GROUP:  # AddMatch charges <none>'s subtree usage with its own
            values["hier_weighted_resources_used"] = values["weighted_resources_used"]
        # CustomerRecord's own __init__ sets 16 frozen fields one by one (4 us a record):
        # the same instance, its fields' values in its __dict__ (tests: equal, same type).
        rec = new(CustomerRecord)
        set_dict(rec, "__dict__", values)
        out[name] = rec
    return out
