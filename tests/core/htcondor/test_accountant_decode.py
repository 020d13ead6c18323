"""The one-pass accountant reader (``accountant_decode``) agrees with the exact reader.

The exact reader (``accountant_from_json`` field by field, ``record_checks``) is the rule; the
msgspec pass must read every section it accepts to the same records, and hand every other
section back (None) so that the exact reader accepts it or words the error. Hypothesis draws
record bodies around every rule: unknown fields, booleans and nulls where numbers belong,
floats in int fields, values below a field's least, C ints beyond ``INT32_MAX``, integers
beyond 64 bits, NaN and the infinities (which the state file never holds, but a section built
in memory may).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor import accountant_decode as dec
from fairshare_cli.core.limits import INT32_MAX, TIME_MAX, TIME_MIN
from fairshare_cli.core.state import SectionError

FIELDS = [f.name for f in dataclasses.fields(acct.CustomerRecord) if f.name != "name"]

numbers = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(min_value=-2.0, max_value=3.0),
    st.integers(min_value=-3, max_value=10),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 0.0, -0.0, 1, 1.0, 0.5, -1, 2.5, INT32_MAX, INT32_MAX + 1]),
)
odd = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), "1", [], {}]),
)
value = st.one_of(numbers, numbers, numbers, odd)
body: st.SearchStrategy[dict[str, Any]] = st.dictionaries(
    st.sampled_from([*FIELDS, "prio", "Priority"]),
    value,
    max_size=6,
)
finite = st.floats(allow_nan=False, allow_infinity=False)
times = st.floats(min_value=TIME_MIN, max_value=TIME_MAX) | st.sampled_from(
    [TIME_MIN, TIME_MAX, TIME_MAX + 1, 4e11, -1e12]
)
usage = st.floats(min_value=0.0, max_value=1e12) | st.integers(min_value=0, max_value=10**6)
valid_field = {
    "is_group": st.booleans(),
    "priority": finite | st.integers(-5, 5),
    "last_update": st.none() | times,
    "priority_factor": st.none() | st.floats(min_value=1.0, max_value=1e6) | st.just(1),
    "resources_used": st.integers(min_value=0, max_value=2**40),
    "floor": st.integers(min_value=0, max_value=INT32_MAX),
    "ceiling": st.integers(min_value=-1, max_value=INT32_MAX),
    "begin_usage_time": times | finite,
    "last_usage_time": times,
}
valid_body = st.fixed_dictionaries({}, optional={f: valid_field.get(f, usage) for f in FIELDS})
body = st.one_of(valid_body, valid_body, body)
names = st.sampled_from(["<none>", "u@d", "v@d", "grp", "grp.sub@d", "nice-user.x@d"])
sections: st.SearchStrategy[dict[str, Any]] = st.dictionaries(
    names, st.one_of(body, st.sampled_from([None, 1, []])), max_size=4
)


def exact(raw: Any) -> acct.AccountantState | str:
    """The exact reader's result, or its error message."""
    saved = dec.fast_records
    dec.fast_records = lambda records: None  # type: ignore[assignment]
    try:
        return acct.accountant_from_json(raw)
    except SectionError as exc:
        return str(exc)
    finally:
        dec.fast_records = saved


def read(raw: Any) -> acct.AccountantState | str:
    try:
        return acct.accountant_from_json(raw)
    except SectionError as exc:
        return str(exc)


def fields_of(rec: Any) -> tuple[Any, ...]:
    """Every stored field with its type (1 and 1.0 compare equal; the state keeps types)."""
    return tuple((getattr(rec, f), type(getattr(rec, f))) for f in FIELDS)


@settings(max_examples=400, deadline=None)
@given(sections)
def test_fast_reader_reads_what_the_exact_reader_reads(records: dict[str, Any]) -> None:
    raw = {"records": records}
    want = exact(raw)
    got = read(raw)
    event("one pass" if dec.fast_bodies(records) is not None else "exact reader")
    assert type(got) is type(want)
    if isinstance(want, str):
        assert got == want
        return
    assert isinstance(got, acct.AccountantState)
    assert list(got.records) == list(want.records)
    for name, rec in want.records.items():
        assert type(got.records[name]) is acct.CustomerRecord
        assert got.records[name] == rec
        assert hash(got.records[name]) == hash(rec)
        assert fields_of(got.records[name]) == fields_of(rec)
    stored = dec.stored_records(raw)
    assert {n: fields_of(r) for n, r in stored.items()} == {
        n: fields_of(r) for n, r in want.records.items()
    }


@settings(max_examples=200, deadline=None)
@given(sections)
def test_fast_reader_never_accepts_what_the_exact_reader_refuses(
    records: dict[str, Any],
) -> None:
    raw = {"records": records}
    if isinstance(exact(raw), str):
        assert dec.fast_bodies(records) is None
        with pytest.raises(SectionError):
            dec.stored_records(raw)


def test_a_written_section_takes_the_fast_path() -> None:
    """A section as ``fs`` writes it (sparse fields omitted) is read in the one pass, the
    root's subtree usage set from its own as the exact reader sets it."""
    state = acct.AccountantState(
        records={
            "<none>": acct.CustomerRecord(
                name="<none>", is_group=True, priority=3.5, weighted_resources_used=4.0
            ),
            "u@d": acct.CustomerRecord(
                name="u@d", priority=0.5, last_update=100.0, priority_factor=1.0, floor=2
            ),
        }
    )
    raw = acct.accountant_to_json(state)
    fast = dec.fast_records(raw["records"])
    assert fast is not None
    assert fast["<none>"].hier_weighted_resources_used == 4.0
    assert fast == exact(raw).records  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ({"u@d": {"prio": 1}}, "accountant.records.u@d: unknown field 'prio'"),
        ({"u@d": {"is_group": 1}}, "accountant.records.u@d.is_group: expected true/false"),
        ({"u@d": {"priority_factor": 0.5}}, "priority_factor: expected 1 or more, got 0.5"),
        ({"u@d": {"floor": 1.5}}, "floor: expected a whole number up to"),
        ({"u@d": {"priority": float("nan")}}, "priority: expected a finite number"),
        ({"u@d": {"last_usage_time": 4e11}}, "last_usage_time: expected a time between"),
    ],
)
def test_errors_keep_the_exact_readers_words(records: dict[str, Any], message: str) -> None:
    with pytest.raises(SectionError, match=message.replace(".", r"\.").replace("(", r"\(")):
        dec.stored_records({"records": records})
