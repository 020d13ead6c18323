"""customer_record.py's ``as_stored``: a number as HTCondor's accountant keeps it
(``ClassAdLogAccountantDB::SetAttributeFloat`` writes ``%f`` and the record is read back
from that text), and what it does to the priorities an update leaves."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.htcondor.customer_record import CustomerRecord, as_stored
from fairshare_cli.core.htcondor.decay import advance, stored_record


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_as_stored_is_the_percent_f_text_read_back(value: float) -> None:
    """``%f`` (C's, as Python's ``%`` formats it: six decimals of the exact binary value,
    ties to even) parsed again is what :func:`as_stored` gives, for every finite float."""
    assert as_stored(value) == float("%f" % value)  # noqa: UP031  (C's format)


def test_as_stored_by_hand() -> None:
    """0.86016512 keeps six decimals (condor_userprio -l then prints 860.165 at factor
    1000: the 25.0 capture's ``Priority = 860.165``); 2.0000004 becomes 2.0; a usage of
    whole seconds stays whole; 1e-9 left by a sum that should be 0 is 0."""
    assert as_stored(0.86016512) == 0.860165
    assert "%.16G" % (as_stored(0.86016512) * 1000) == "860.165"
    assert as_stored(2.0000004) == 2.0
    assert as_stored(744000.0) == 744000.0
    assert as_stored(1e-9) == 0.0


def test_a_steady_user_stops_short_of_its_usage() -> None:
    """Cycles every 60 s, half-life one day: 1 − β = 1 − 0.5**(60/86400) = 0.000481. From a
    RUP of 9.9995 with 10 slots held, an update moves it by 0.0005 × 0.000481 = 2.4e-7,
    which six decimals round away: HTCondor's priority stays 9.9995 for ever (any RUP
    within 0.00104 of the usage is stuck), where the exact decay would reach 9.99969
    after 1000 cycles."""
    rec = CustomerRecord(
        name="u@d", priority=9.9995, last_update=0.0, resources_used=10,
        weighted_resources_used=10.0,
    )  # fmt: skip
    for k in range(1, 1001):
        rec = advance(rec, 60.0 * k, 86400.0)
    assert rec.priority == 9.9995
    assert rec.weighted_accumulated_usage == 600000.0  # 10 slots × 60,000 s


def test_a_replayed_record_is_stored_once_written() -> None:
    """A history replay keeps its numbers whole; the update at ``--now`` writes them:
    each float an update or a match changes gets six decimals, the rest stays."""
    rec = CustomerRecord(
        name="u@d", priority=0.8601651, weighted_resources_used=1 / 3,
        hier_weighted_resources_used=2 / 3, accumulated_usage=12.0000004,
        weighted_accumulated_usage=7.25, last_update=100.5, weighted_uncharged_time=-1 / 3,
    )  # fmt: skip
    got = stored_record(rec)
    assert (got.priority, got.weighted_resources_used, got.hier_weighted_resources_used) == (
        0.860165, 0.333333, 0.666667,
    )  # fmt: skip
    assert (got.accumulated_usage, got.weighted_accumulated_usage) == (12.0, 7.25)
    assert (got.weighted_uncharged_time, got.last_update) == (-0.333333, 100.5)
