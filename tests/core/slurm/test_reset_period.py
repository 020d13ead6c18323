"""``PriorityUsageResetPeriod``'s boundaries in slurmctld's local time (core/slurm/reset_period.py).

Every expected time is derived by hand from ``_next_reset`` and ``_decay_thread``
(``priority_multifactor.c``, 22.05.11 and 26.05.3 alike): ``localtime_r`` of the last reset,
the time set to 00:00:00, ``slurm_mktime`` (``mktime`` with ``tm_isdst = -1``); ``DAILY``
then adds ``SECS_PER_DAY``, ``WEEKLY`` ``SECS_PER_DAY * (7 - tm_wday)``, the others take
the first of the next month, quarter or year. Europe/Berlin is UTC+1 (CET), UTC+2 (CEST)
from 2026-03-29 01:00 UTC to 2026-10-25 01:00 UTC; America/New_York UTC-5 in November.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from fairshare_cli.core.slurm.reset_period import latest_reset, next_reset

BERLIN = ZoneInfo("Europe/Berlin")


def _t(text: str) -> float:
    """Epoch seconds of a UTC time written without its zone."""
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.timezone.utc).timestamp()


@pytest.mark.parametrize(
    ("period", "after", "expected"),
    [
        pytest.param("DAILY", "2026-11-21T13:00:00", "2026-11-22T00:00:00", id="daily"),
        pytest.param("WEEKLY", "2026-11-21T13:00:00", "2026-11-22T00:00:00", id="weekly-sat"),
        pytest.param("WEEKLY", "2026-11-22T13:00:00", "2026-11-29T00:00:00", id="weekly-sun"),
        pytest.param("MONTHLY", "2026-12-05T13:00:00", "2027-01-01T00:00:00", id="monthly"),
        pytest.param("QUARTERLY", "2026-11-21T13:00:00", "2027-01-01T00:00:00", id="quarter"),
        pytest.param("QUARTERLY", "2026-02-01T00:00:00", "2026-04-01T00:00:00", id="q1"),
        pytest.param("YEARLY", "2026-11-21T13:00:00", "2027-01-01T00:00:00", id="yearly"),
    ],
)
def test_next_reset_in_utc(period: str, after: str, expected: str) -> None:
    assert next_reset(period, _t(after)) == _t(expected)


@pytest.mark.parametrize(
    ("zone", "period", "after", "expected"),
    [
        # 13:00 CET: midnight CET (23:00 UTC the day before) + 86400 s.
        pytest.param(BERLIN, "DAILY", "2026-11-21T12:00:00", "2026-11-21T23:00:00", id="cet"),
        # Saturday 13:00 CET: to Sunday 00:00 CET.
        pytest.param(BERLIN, "WEEKLY", "2026-11-21T12:00:00", "2026-11-21T23:00:00", id="week"),
        # April 1st 00:00 CEST.
        pytest.param(BERLIN, "MONTHLY", "2026-03-15T12:00:00", "2026-03-31T22:00:00", id="month"),
        # 07:00 EST: midnight EST is 05:00 UTC.
        pytest.param(
            ZoneInfo("America/New_York"), "DAILY", "2026-11-21T12:00:00", "2026-11-22T05:00:00",
            id="est",
        ),
        # Sunday 29 March has 23 hours: 00:00 CET + 86400 s is Monday 01:00 CEST, and from
        # there Monday 00:00 CEST + 86400 s is Tuesday's midnight again.
        pytest.param(BERLIN, "DAILY", "2026-03-28T23:00:00", "2026-03-29T23:00:00", id="spring"),
        pytest.param(BERLIN, "DAILY", "2026-03-29T23:00:00", "2026-03-30T22:00:00", id="spring+1"),
        # Sunday 25 October has 25 hours: 00:00 CEST + 86400 s is 23:00 CET that same day,
        # whose own next is itself (its day's midnight is still 00:00 CEST).
        pytest.param(BERLIN, "DAILY", "2026-10-24T22:00:00", "2026-10-25T22:00:00", id="fall"),
        pytest.param(BERLIN, "DAILY", "2026-10-25T22:00:00", "2026-10-25T22:00:00", id="fall+1"),
    ],
)  # fmt: skip
def test_next_reset_in_local_time(zone: dt.tzinfo, period: str, after: str, expected: str) -> None:
    assert next_reset(period, _t(after), zone) == _t(expected)


@pytest.mark.parametrize(
    ("upto", "expected"),
    [
        # Before the 23:00 CET boundary of 25 October: the reset of the 24th (22:00 UTC).
        pytest.param("2026-10-25T21:55:00", None, id="before"),
        # From it every pass resets: the boundary stays the next reset ...
        pytest.param("2026-10-25T22:30:00", "2026-10-25T22:30:00", id="every-pass"),
        pytest.param("2026-10-26T12:00:00", "2026-10-26T12:00:00", id="next-day"),
        # ... until the catch-up: the 22:05 pass (the first more than a day after it) moves
        # it to 26 October 22:00, which the 22:10 pass resets at.
        pytest.param("2026-10-26T22:10:00", "2026-10-26T22:10:00", id="moved"),
        pytest.param("2026-10-26T22:55:00", "2026-10-26T22:10:00", id="after-it"),
        # Then midnight CET again (23:00 UTC).
        pytest.param("2026-10-26T23:05:00", "2026-10-26T23:00:00", id="midnight"),
    ],
)
def test_a_daily_boundary_that_is_its_own_next_resets_at_every_pass_for_a_day(
    upto: str, expected: str | None
) -> None:
    """Passes every 300 s on the epoch grid; the last reset was the pass at 24 October
    22:00 UTC (00:00 CEST on the 25th)."""
    last = _t("2026-10-24T22:00:00")
    got = latest_reset("DAILY", BERLIN, 300.0, 0.0, last, _t(upto))
    assert got == (None if expected is None else _t(expected))
    # Walked from inside the window (the pass a command stored), the same.
    if expected is not None and _t(upto) > _t("2026-10-25T22:00:00"):
        inside = _t("2026-10-25T22:00:00")
        assert latest_reset("DAILY", BERLIN, 300.0, 0.0, inside, _t(upto)) == _t(expected)


def test_utc_boundaries_walk_as_before() -> None:
    """A month of DAILY resets in UTC: the latest is the first pass at or after midnight
    (00:00 on the 300 s grid), after last_reset only."""
    utc = dt.timezone.utc
    last = _t("2026-11-01T00:00:00")
    got = latest_reset("DAILY", utc, 300.0, 0.0, last, _t("2026-11-21T13:07:00"))
    assert got == _t("2026-11-21T00:00:00")
    assert (
        latest_reset("DAILY", utc, 300.0, 0.0, _t("2026-11-21T00:00:00"), _t("2026-11-21T13:07:00"))
        is None
    )
