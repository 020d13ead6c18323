"""The accountant reader (``accountant_decode``): its msgspec pass agrees with its exact reader.

The exact reader (``_exact_record``: ``record_checks``, then field by field) is the rule; the
msgspec pass must read every record it accepts to the same record, and refuse every other
so that the exact reader reads it or words the error, never reading again what the pass
accepted. Hypothesis draws
record bodies around every rule: unknown fields, booleans and nulls where numbers belong,
floats in int fields, values below a field's least, C ints beyond ``INT32_MAX``, integers
beyond 64 bits, NaN and the infinities (which the state file never holds, but a section built
in memory may).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor import accountant_decode as dec
from fairshare_cli.core.htcondor.customer_record import STORED_FIELDS
from fairshare_cli.core.limits import INT32_MAX, TIME_MAX, TIME_MIN
from fairshare_cli.core.state import SectionError

FIELDS = list(STORED_FIELDS)

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
    """The exact reader's result for every record, or its error message."""
    try:
        return acct.AccountantState(
            records={n: dec._exact_record(n, b) for n, b in raw["records"].items()}
        )
    except SectionError as exc:
        return str(exc)


def read(raw: Any) -> acct.AccountantState | str:
    try:
        return acct.accountant_from_json(raw)
    except SectionError as exc:
        return str(exc)


def one_pass(records: Any) -> bool:
    """Whether the msgspec pass takes the whole object at once."""
    try:
        msgspec.convert(records, dec._RECORDS, strict=True)
    except msgspec.ValidationError:
        return False
    return True


def fields_of(rec: Any) -> tuple[Any, ...]:
    """Every stored field with its type (1 and 1.0 compare equal; the state keeps types)."""
    return tuple((getattr(rec, f), type(getattr(rec, f))) for f in FIELDS)


@settings(max_examples=400, deadline=None)
@given(sections)
def test_fast_reader_reads_what_the_exact_reader_reads(records: dict[str, Any]) -> None:
    raw = {"records": records}
    want = exact(raw)
    got = read(raw)
    event("one pass" if one_pass(records) else "record by record")
    assert type(got) is type(want)
    if isinstance(want, str):
        assert got == want
        return
    assert isinstance(got, acct.AccountantState)
    assert list(got.records) == list(want.records)
    for name, rec in want.records.items():
        assert type(got.records[name]) is acct.CustomerRecord
        assert got.records[name] == rec
        assert fields_of(got.records[name]) == fields_of(rec)


@settings(max_examples=200, deadline=None)
@given(sections)
def test_fast_reader_never_accepts_what_the_exact_reader_refuses(
    records: dict[str, Any],
) -> None:
    raw = {"records": records}
    if isinstance(exact(raw), str):
        assert not one_pass(records)
        with pytest.raises(SectionError):
            dec.stored_records(raw)
    for name, body in records.items():
        if isinstance(exact({"records": {name: body}}), str):
            with pytest.raises(msgspec.ValidationError):
                msgspec.convert(body, acct.CustomerRecord, strict=True)


def test_the_exact_reader_reads_only_what_the_pass_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A record the pass refuses (a float where an int is stored) is read by the exact
    reader; the records the pass accepts are not read again."""
    read_exactly: list[str] = []
    exact_record = dec._exact_record

    def counted(name: Any, body: Any) -> acct.CustomerRecord:
        read_exactly.append(name)
        return exact_record(name, body)

    monkeypatch.setattr(dec, "_exact_record", counted)
    records = {"u@d": {"priority": 3.0}, "v@d": {"resources_used": 2.0}, "w@d": {}}
    got = dec.stored_records({"records": records})
    assert read_exactly == ["v@d"]
    assert got["v@d"].resources_used == 2 and type(got["v@d"].resources_used) is int
    assert got["u@d"] == acct.CustomerRecord(name="u@d", priority=3.0)


def test_a_written_section_takes_the_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
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
    want = exact(raw)
    monkeypatch.setattr(dec, "_exact_record", None)  # not called
    fast = dec.stored_records(raw)
    assert fast["<none>"].hier_weighted_resources_used == 4.0
    assert fast == want.records  # type: ignore[union-attr]


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
