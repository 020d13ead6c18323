"""The one reader of the accountant section's records: JSON values in, :class:`CustomerRecord`
out (``fs userprio`` reads 20,000 submitters this way).

The whole ``records`` object is checked and converted in C in one pass
(:func:`msgspec.convert` straight into :class:`CustomerRecord`, whose field constraints are
the rule of :mod:`record_checks`: known fields only, ``true``/``false`` for ``is_group``,
finite numbers, each field's least value from :data:`record_checks.LEAST`, whole numbers up
to ``INT32_MAX`` for the C ints, no ``name`` in a body), then each record is named by its
key. The pass is stricter,
never looser, than the exact reader (:func:`_exact_record`: the checks of
:mod:`record_checks`, then a number per field). Where it refuses the object, the records are
taken one by one: each the pass accepts as it is, each it refuses (an error, or what it does
not expect: a float where an int is stored, an integer beyond 64 bits, a key that is not a
string) by the exact reader, which reads it or words the error
(``tests/core/htcondor/test_accountant_decode.py`` holds the two equal).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from fairshare_cli.core.htcondor.customer_record import STORED_FIELDS, CustomerRecord
from fairshare_cli.core.htcondor.groups import ROOT
from fairshare_cli.core.htcondor.record_checks import check_record, finite
from fairshare_cli.core.names import name_problem, names_fit
from fairshare_cli.core.state import SectionError

_RECORDS = dict[str, CustomerRecord]


def stored_records(raw: Any) -> dict[str, CustomerRecord]:
    """The records of the ``accountant`` state section (None: no records), by name.

    Raises:
        SectionError: the section or a record is malformed (the exact reader's message).
    """
    if raw is None:
        return {}
    if not isinstance(raw, Mapping) or not isinstance(raw.get("records", {}), Mapping):
        raise SectionError("accountant: expected an object with 'records'")
    return records_from_json(raw.get("records", {}))


def records_from_json(records: Mapping[Any, Any]) -> dict[str, CustomerRecord]:
    """The section's ``records`` object read into records: one pass, else record by record.

    Raises:
        SectionError: a record is malformed (the exact reader's message).
    """
    _check_names(records)
    if type(records) is dict:
        try:
            out = msgspec.convert(records, _RECORDS, strict=True)
        except (msgspec.ValidationError, UnicodeEncodeError):  # (a lone surrogate: "\udcff")
            pass
        else:
            for name, rec in out.items():  # each record named by its key
                rec.name = name
            root = out.get(ROOT)
            if root is not None:  # AddMatch charges <none>'s subtree usage with its own
                root.hier_weighted_resources_used = root.weighted_resources_used
            return out
    return {name: _one_record(name, body) for name, body in records.items()}


def _check_names(records: Mapping[Any, Any]) -> None:
    """Refuse a record name that is not Unicode text (a lone surrogate, ``"\\udcff"``, which
    ``fs userprio`` crashed printing; the pass takes it), holds a blank or a control
    character (a terminal escape the tables would print as it is), or is empty or longer
    than :data:`~fairshare_cli.core.names.MAX_NAME_LENGTH` (``fs userprio`` printed a
    blank row for ``""``): every door refuses such names, a hand-edited state too. One
    test of every name in C.

    Raises:
        SectionError: naming the record.
    """
    names = [n for n in records if type(n) is str]
    joined = "".join(names)
    if joined.isprintable() and " " not in joined and names_fit(names):
        return  # (a lone surrogate is not printable)
    for name in names:
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            raise SectionError(
                f"accountant.records.{name}: expected a name of Unicode text"
            ) from None
        problem = name_problem(name)
        if problem is not None:
            raise SectionError(f"accountant.records: {problem}")


def _one_record(name: Any, body: Any) -> CustomerRecord:
    """One record: by the pass when it accepts it, else by the exact reader."""
    if type(name) is str and type(body) is dict:
        try:
            rec = msgspec.convert(body, CustomerRecord, strict=True)
        except (msgspec.ValidationError, UnicodeEncodeError):  # (a lone surrogate: "\udcff")
            pass
        else:
            rec.name = name
            if name == ROOT:
                rec.hier_weighted_resources_used = rec.weighted_resources_used
            return rec
    return _exact_record(name, body)


def _exact_record(name: Any, body: Any) -> CustomerRecord:
    """One record read field by field (:func:`record_checks.check_record`, then a number per
    field): what the pass does not expect is read here, and every error is worded here.

    Raises:
        SectionError: the record is malformed (the message names it and the field).
    """
    check_record(name, body, STORED_FIELDS)  # known fields, in range
    kw: dict[str, Any] = {}
    for f in STORED_FIELDS:
        if f not in body:
            continue
        v = body[f]
        if f == "is_group":
            if not isinstance(v, bool):
                raise SectionError(f"accountant.records.{name}.{f}: expected true/false")
            kw[f] = v
        elif v is None and f in ("last_update", "priority_factor"):
            kw[f] = None
        elif isinstance(v, bool) or not isinstance(v, (int, float)) or not finite(v):
            raise SectionError(f"accountant.records.{name}.{f}: expected a finite number")
        else:
            kw[f] = int(v) if f in ("resources_used", "floor", "ceiling") else float(v)
    if name == ROOT:  # AddMatch charges <none>'s subtree usage with its own
        kw["hier_weighted_resources_used"] = kw.get("weighted_resources_used", 0.0)
    return CustomerRecord(name=name, **kw)
