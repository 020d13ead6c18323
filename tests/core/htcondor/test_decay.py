"""decay.py's BeginUsageTime rule (``Accountant::UpdateOnePriority``), hand-checked and
pinned to the copy :func:`advanced_values` holds inline."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.htcondor.customer_record import CustomerRecord
from fairshare_cli.core.htcondor.decay import advanced_values, awaits_begin, begin_at_update

times = st.floats(min_value=0.0, max_value=2e9)
records = st.builds(
    CustomerRecord,
    name=st.just("u@d"),
    last_update=st.none() | times,
    resources_used=st.integers(min_value=0, max_value=50),
    accumulated_usage=st.just(0.0) | st.floats(min_value=0.0, max_value=1e9),
    begin_usage_time=st.just(0.0) | times,
    uncharged_time=st.just(0.0) | st.floats(min_value=-1e6, max_value=1e6),
)


def test_begin_is_the_update_that_finds_usage() -> None:
    """UpdateOnePriority: ``AccumulatedUsage += ResourcesUsed·TimePassed + UnchargedTime``,
    then ``BeginUsageTime = T`` when that is above 0 and the begin time is 0. A slot matched
    at 100 (last update 100): an update at 100 finds nothing (Δt = 0), one at 130 finds
    30 s: begin 130. A match made 40 s after the update at 100 (uncharged -40): the update
    at 200 finds 100 - 40 = 60: begin 200. An idle record finds nothing; a set begin stays."""
    matched = CustomerRecord(name="u@d", last_update=100.0, resources_used=1)
    assert awaits_begin(matched)
    assert begin_at_update(matched, 100.0) == 0.0
    assert begin_at_update(matched, 130.0) == 130.0
    late = CustomerRecord(name="u@d", last_update=100.0, resources_used=1, uncharged_time=-40.0)
    assert begin_at_update(late, 200.0) == 200.0
    idle = CustomerRecord(name="u@d", last_update=100.0)
    assert not awaits_begin(idle)
    assert begin_at_update(idle, 500.0) == 0.0
    begun = CustomerRecord(name="u@d", last_update=100.0, resources_used=1, begin_usage_time=7.0)
    assert not awaits_begin(begun)
    assert begin_at_update(begun, 500.0) == 7.0


@settings(max_examples=400, deadline=None)
@given(records, times)
def test_advanced_values_begin_is_begin_at_update(rec: CustomerRecord, now: float) -> None:
    """The begin time advanced_values gives (inline) is :func:`begin_at_update`'s."""
    assert advanced_values(rec, now, 3600.0)[3] == begin_at_update(rec, now)


@settings(max_examples=400, deadline=None)
@given(records, times)
def test_only_a_record_that_awaits_its_begin_gets_one(rec: CustomerRecord, now: float) -> None:
    """A begin time set by an update is never set again, and one is only ever set on a
    record :func:`awaits_begin` names."""
    begin = begin_at_update(rec, now)
    if rec.begin_usage_time != 0:
        assert begin == rec.begin_usage_time
    elif begin != 0:
        assert awaits_begin(rec)
        assert begin == now


def test_a_replayed_record_is_updated_as_its_customer_record() -> None:
    """A ReplayedRecord carries the numbers of the record it copies and gives them back;
    update_one_priority changes it as it changes the record. One slot in use since 0 (RUP
    3.0, half-life 100 s), updated at 100: β = 0.5, RUP 3.0·0.5 + 1·0.5 = 2.0,
    accumulated usage 100, begin 100 (UpdateOnePriority's first usage found)."""
    from fairshare_cli.core.htcondor.decay import ReplayedRecord, update_one_priority

    rec = CustomerRecord(
        name="u@d", priority=3.0, last_update=0.0, resources_used=1,
        weighted_resources_used=1.0, priority_factor=2.0, floor=3,
    )  # fmt: skip
    copy = ReplayedRecord(rec)
    assert copy.record() == rec
    update_one_priority(copy, 100.0, 100.0)
    changed = CustomerRecord(
        name="u@d", priority=3.0, last_update=0.0, resources_used=1,
        weighted_resources_used=1.0, priority_factor=2.0, floor=3,
    )  # fmt: skip
    update_one_priority(changed, 100.0, 100.0)
    assert copy.record() == changed
    assert (changed.priority, changed.accumulated_usage, changed.begin_usage_time) == (
        2.0,
        100.0,
        100.0,
    )
    assert changed.last_usage_time == 100.0 and changed.last_update == 100.0
