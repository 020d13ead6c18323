"""The WMSHistory accounting report, derived by hand from ``AccountingDB``, and the
MonitoringHistory report, derived by hand from ``MonitoringDB.retrieveBucketedData``.

The week's numbers were also those of DIRAC 9.1.22's ``AccountingDB`` on MariaDB 10.11 (the
records inserted at each quarter-hour, ``compactBuckets`` run at ``now``, then
``WMSHistoryPlotter._reportAverageNumberOfJobs``): 242 / 235 and 193 / 235.
"""

from __future__ import annotations

import pytest

from fairshare_cli.core.dirac.history_report import (
    bucket_length,
    compacted_bucket,
    monitoring_running,
    monitoring_window,
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


@pytest.mark.parametrize(
    ("span", "length"),
    [
        pytest.param(3600, 60, id="an-hour: 1m"),
        pytest.param(86400, 900, id="a-day: 15m"),
        pytest.param(86401, 1800, id="past-a-day: 30m"),
        pytest.param(604800, 7200, id="a-week: 2h"),
        pytest.param(1209600, 14400, id="two-weeks: 4h"),
        pytest.param(31622400, 345600, id="366-days: 4d"),
        pytest.param(31622401, 604800, id="past-a-year: 7d"),
    ],
)
def test_monitoring_bucket_size_by_span(span: int, length: int) -> None:
    """``_determineBucketSize``: the first of 1h, 6h, 12h, 1d, 2d, 3.5d, 1w, 2w, 1M (30 d),
    ..., 1y (366 d), 10y, 100y at least ``endTime − startTime`` (milliseconds)."""
    window = monitoring_window(N, span)
    assert window is not None
    assert window.length == length


def test_monitoring_window_takes_both_ends_and_weeks_start_on_monday() -> None:
    """``timestamp`` gte n − span, lte n: 3600 s at 12:00 holds 11:00 ... 12:00 (5), each in
    its own minute. Past ten years the bucket is a calendar week: n (Saturday 2026-11-21
    12:00) is in the one from Monday 2026-11-16 00:00, n − 475200. Past a hundred years
    there is no bucket size (the report fails)."""
    window = monitoring_window(N, 3600)
    assert window is not None
    assert window.times == [N - 3600, N - 2700, N - 1800, N - 900, N]
    assert window.buckets == window.times
    decades = monitoring_window(N, 316224001)
    assert decades is not None
    assert (decades.length, decades.buckets[-1]) == (604800, N - 475200)
    assert monitoring_window(N, 3162240001) is None
    assert slice_history({("g", "u"): [(0, 1)]}, "", 3162240001, N, report="monitoring") == {}


def test_monitoring_averages_from_first_to_last_record() -> None:
    """A day at 12:00: 15-minute buckets, one snapshot each. a ran 2 jobs from 00:00 to
    02:00 (8 snapshots, 00:00 to 01:45; the one of 02:00 sees them gone): its buckets run
    00:00 to 01:45, 8 of 2: 2. b ran 2 from 00:00 to 01:00 and from 10:00 to 11:00: 8
    snapshots of 2, buckets 00:00 to 10:45, (10:45 − 00:00) / 900 + 1 = 44: 16 / 44. The
    plain average: a 2 · 7200 / 86400 = 1/6."""
    midnight = N - 43200
    events = {
        ("g", "a"): [(midnight, 2), (midnight + 7200, -2)],
        ("g", "b"): [(midnight, 2), (midnight + 3600, -2), (N - 7200, 2), (N - 3600, -2)],
    }
    got = slice_history(events, "g", 86400, N, "user", "monitoring")
    assert got == {"a": 2.0, "b": 16 / 44}
    average = slice_history(events, "g", 86400, N, "user", "average")
    assert average["a"] == pytest.approx(1 / 6, rel=1e-15)


def test_monitoring_bucket_averages_its_ten_earliest_snapshots() -> None:
    """Two weeks: 4-hour buckets of 16 snapshots. n − 14400 (08:00) starts one: 1 job from
    08:00, 3 from 09:15 (the 6th snapshot) to the window's end. That bucket: the ``terms``
    aggregation gives ten snapshots (equal counts: the earliest), 5 of 1 and 5 of 3: 2 (all
    16 would give 38 / 16). The bucket of 12:00 holds n alone: 3. Two buckets: 2.5."""
    window = monitoring_window(N, 1209600)
    assert window is not None
    assert window.length == 14400
    steps = [(N - 14400, 1.0), (N - 14400 + 4500, 2.0)]
    assert monitoring_running(steps, window) == 2.5


def test_monitoring_sums_a_groups_owners_before_averaging() -> None:
    """Between groups a snapshot's value is the group's running jobs, all owners together:
    a ran 2 from 00:00 to 01:00, b 2 from 10:00 to 11:00, both in g: g's buckets run 00:00 to
    10:45, 16 / 44, not a's 2 plus b's 2."""
    midnight = N - 43200
    events = {
        ("g", "a"): [(midnight, 2), (midnight + 3600, -2)],
        ("g", "b"): [(N - 7200, 2), (N - 3600, -2)],
    }
    assert slice_history(events, "", 86400, N, report="monitoring") == {"g": 16 / 44}


def test_monitoring_in_group_report_takes_groups_named_by_one_character() -> None:
    """``reportCondition["UserGroup"] = "g1"``, a string, iterated as ``["g", "1"]``: the
    in-group report of g1 reads the owners of groups ``g`` and ``1``, not g1's (u ran 1 job
    there all day: absent). x ran 1 in g and 3 in 1 all day: 4 at each of 97 snapshots."""
    events = {
        ("g1", "u"): [(N - 86400, 1)],
        ("g", "x"): [(N - 86400, 1)],
        ("1", "x"): [(N - 86400, 3)],
    }
    assert slice_history(events, "g1", 86400, N, "user", "monitoring") == {"x": 4.0}
    assert slice_history(events, "g1", 86400, N, "user", "average") == {"u": 1.0}
