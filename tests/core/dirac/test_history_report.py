"""The WMSHistory accounting report, derived by hand from ``AccountingDB``.

The week's numbers were also those of DIRAC 9.1.22's ``AccountingDB`` on MariaDB 10.11 (the
records inserted at each quarter-hour, ``compactBuckets`` run at ``now``, then
``WMSHistoryPlotter._reportAverageNumberOfJobs``): 242 / 235 and 193 / 235.
"""

from __future__ import annotations

import pytest

from fairshare_cli.core.dirac.history_report import (
    bucket_length,
    compacted_bucket,
    report_window,
    slice_history,
)

N = 1_795_262_400  # 2026-11-21T12:00:00Z: a multiple of 900, 5400 past a multiple of 9000


@pytest.mark.parametrize(
    ("age", "length"),
    [
        pytest.param(0, 900, id="now"),
        pytest.param(172800, 900, id="two-days"),
        pytest.param(172801, 9000, id="past-two-days"),
        pytest.param(864000, 9000, id="ten-days"),
        pytest.param(864000 + 5401, 18000, id="past-ten-days"),  # n rounded to 9000: n − 5400
        pytest.param(86400 * 600 + 604800, 604800, id="beyond-every-age"),
    ],
)
def test_bucket_length_by_age(age: int, length: int) -> None:
    """``calculateBucketLengthForTime``: the first (age, length) with ``now`` rounded down
    to the length, minus the moment, at most the age."""
    assert bucket_length(N, N - age) == length


def test_report_windows() -> None:
    """lastSeconds 3600 at 12:00: start 11:00, + 3600 -> 12:00 (4 bins, 11:00 to 12:00);
    7200: from 11:00 (8 bins). A week: S = n − 604800 is 3600 past a 9000 s start, so
    n − 608400, + 3600 rounds down to it again; bins: 49 of 9000 s (the 49th, n − 176400 to
    n − 167400, crosses the two-day line), then 186 of 900 s: 235."""
    assert report_window(N, 3600) == (N, 4)
    assert report_window(N, 7200) == (N - 3600, 8)
    assert report_window(N, 604800) == (N - 608400, 235)


def test_compaction_moves_records_older_than_two_days() -> None:
    """``compactBuckets``: a 900 s bucket starting before n − 172800 goes to its 9000 s one."""
    assert compacted_bucket(N, N - 172800) == N - 172800
    assert compacted_bucket(N, N - 173700) == N - 176400
    assert compacted_bucket(N, N - 608400) == N - 608400


def test_a_week_counts_a_long_bucket_once() -> None:
    """g1 runs 1 job all along: 49 buckets of 9000 s (the last holds the 4 records before
    the two-day line) and 193 of 900 s (n − 172800 to n, now's record included): 242 / 235.
    g2 runs 1 from n − 172800: only the 193: 193 / 235."""
    events = {("g1", "u"): [(N - 1_000_000, 1)], ("g2", "u"): [(N - 172800, 1)]}
    assert slice_history(events, "", 604800, N) == pytest.approx(
        {"g1": 242 / 235, "g2": 193 / 235}, rel=1e-15
    )


def test_a_bucket_holds_the_mean_of_the_records_that_saw_the_entity() -> None:
    """g ran 8 jobs for one quarter-hour five days ago: its 9000 s bucket holds one record
    of 8 (``Jobs / entriesInBucket`` = 8), and it is in no other: 8 / 235. The average
    over the week: 8 · 900 / 604800."""
    events = {("g", "u"): [(N - 432000, 8), (N - 432000 + 900, -8)]}
    assert slice_history(events, "", 604800, N) == {"g": 8 / 235}
    average = slice_history(events, "", 604800, N, report="average")
    assert average == pytest.approx({"g": 8 * 900 / 604800}, rel=1e-15)


def test_slice_history_reads_the_report_or_the_average() -> None:
    """7200 s at 12:00: records 11:00 to 12:00 (5) over 8 bins. a (2 since 10:00): 10 / 8;
    b (1 from 11:30): 11:30, 11:45, 12:00: 3 / 8."""
    events = {("g", "a"): [(N - 7200, 2)], ("g", "b"): [(N - 1800, 1)]}
    assert slice_history(events, "", 7200, N) == {"g": 13 / 8}
    assert slice_history(events, "g", 7200, N, "user") == {"a": 10 / 8, "b": 3 / 8}
    assert slice_history(events, "g", 7200, N, "user", "average") == {"a": 2.0, "b": 0.25}
