"""``fs taskqueues`` share correction read through the WMSHistory accounting report.

DIRAC's WMSHistory corrector asks the accounting for ``AverageNumberOfJobs`` with
``lastSeconds = TimeSpan`` (``ReportGeneratorHandler`` refuses under 3600 s, and one failed
slice drops the instance's whole history). ``WMSHistoryPlotter._reportAverageNumberOfJobs``
sums ``Jobs / entriesInBucket`` over the buckets ``AccountingDB.retrieveBucketedData`` finds
and divides by ``len(calculateBuckets(start, end))``. The query's start is the span's first
bucket start S0; ``__queryType`` adds 3600 and rounds down to a bucket again; buckets are 900 s
while ``now − start`` ≤ 2 days, 9000 s up to 10 days, a record every 900 s (taken here at
each quarter-hour, ``now`` included) in its 15-minute bucket until ``compactBuckets`` moves
it; a bucket's ``Jobs / entriesInBucket`` is the mean of the records that saw the entity.
Every expected number is derived by hand from that.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import HistoryTaskQueues

NOW = "2026-11-21T12:00:00Z"  # epoch 1795262400: a multiple of 900, 5400 past one of 9000
POOL = """
[dirac.groups.g1]
job_share = 1000
[dirac.groups.g2]
job_share = 1000
[dirac.correction]
enabled = true
[[dirac.correction.instances]]
name = "Groups"
max_global_correction = 3
slices = [ {{ time_span = {span}, weight = 1, max_correction = 3 }} ]
"""
JOBS = [
    {"id": "1.0", "owner": "u1", "dirac_group": "g1"},
    {"id": "2.0", "owner": "u2", "dirac_group": "g2"},
]


@pytest.fixture
def taskqueues(
    history_taskqueues: Callable[..., HistoryTaskQueues],
) -> Callable[..., tuple[list[dict[str, Any]], str]]:
    """``fs import history H.csv --rebuild`` then ``fs taskqueues --json`` (rows, stderr)."""

    def go(config: str, history: str) -> tuple[list[dict[str, Any]], str]:
        rows, stderr, _ = history_taskqueues(config, history, JOBS)
        return rows, stderr

    return go


def test_a_two_hour_slice_reads_the_last_hour_only(taskqueues: Callable[..., Any]) -> None:
    """g1 ran 3 jobs from 10:00 to 11:00; g2 runs 1 from 10:00 on. Slice 7200 s at 12:00.

    Start 10:00 (a 900 s bucket start); + 3600 -> the buckets from 11:00: the records of
    11:00, 11:15, 11:30, 11:45 and 12:00. g1 has none (it stopped at 11:00): absent, so its
    factor is MaxCorrection 3 (unweighted); g2 1 in each: 5 / 8 bins, T = 5 / 8 (g2 alone),
    usage 1: 0.5 / 1 = 0.5 (× weight 1).
    Global clamp [1/3, 3]: g1 3000, g2 500. The average over [10:00, 12:00] (g1 1.5, g2 1)
    gave fs 833.333 and 1250 (``history_report = "average"`` still does).
    """
    history = "u1,g1,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z,3\nu2,g2,2026-11-21T10:00:00Z,,1\n"
    rows, _ = taskqueues(POOL.format(span=7200), history)
    assert [(r["priority"], r["correction"]) for r in rows] == [(3000.0, 3.0), (500.0, 0.5)]
    average = POOL.format(span=7200).replace(
        "enabled = true", 'enabled = true\nhistory_report = "average"'
    )
    rows, _ = taskqueues(average, history)
    assert [r["priority"] for r in rows] == [833.333, 1250.0]


def test_uneven_buckets_weigh_the_last_two_days_ten_times(
    taskqueues: Callable[..., Any],
) -> None:
    """A week's slice: g1 runs 1 job all week, g2 1 job for the last two days only.

    now n = 1795262400; S = n − 604800, 3600 past a 9000 s bucket start (n − S > 2 days,
    so 9000 s buckets there): S0 = n − 608400; S0 + 3600 rounds down to S0 again. Records
    every 900 s; those before n − 172800 are compacted into 9000 s buckets: 49 of them, from
    S0 to n − 176400 (the last holds 4 records); then 193 of 900 s, n − 172800 to n. Bins:
    ``calculateBuckets(S, n)``: 49 + 186 = 235.
    g1: 1 in every bucket: 242 / 235. g2: the 193 recent buckets only: 193 / 235.
    T = 435 / 235; usage g1 242 / 435, g2 193 / 435; shares 0.5 each:
    g1 0.5 · 435 / 242 = 0.8987603 -> 898.7603 ('%.4f'), read back 898.760;
    g2 0.5 · 435 / 193 = 1.1269430 -> 1126.9430, read back 1126.94.
    The plain average (g1 1, g2 2/7) gave 642.857 and 2250.
    """
    history = "u1,g1,2026-11-01T00:00:00Z,,1\nu2,g2,2026-11-19T12:00:00Z,,1\n"
    rows, _ = taskqueues(POOL.format(span=604800), history)
    assert [r["priority"] for r in rows] == [898.76, 1126.94]
    assert [r["correction"] for r in rows] == pytest.approx([217.5 / 242, 217.5 / 193], rel=1e-12)


def test_a_slice_under_an_hour_switches_the_instance_off(
    run: Callable[..., Any], taskqueues: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    """Slices of 1800 s and 86400 s: the accounting refuses ``lastSeconds`` 1800 ("must be
    more than 3600"), ``updateHistoryKnowledge`` then empties the whole history, and
    ``applyCorrection`` returns the shares as they came: 1000 each, factor 1. (Either
    report: the plain average gave g1 3 of 4 running in both slices, g1 0.5 / 0.75 = 2/3,
    g2 2 -> 666.667 and 2000.) fs config check says why."""
    config = POOL.replace(
        "slices = [ {{ time_span = {span}, weight = 1, max_correction = 3 }} ]",
        "slices = [ { time_span = 1800 }, { time_span = 86400 } ]",
    )
    history = "u1,g1,2026-11-20T00:00:00Z,,3\nu2,g2,2026-11-20T00:00:00Z,,1\n"
    for extra in ("", 'history_report = "average"\n'):
        rows, _ = taskqueues(
            config.replace("enabled = true\n", "enabled = true\n" + extra), history
        )
        assert [(r["priority"], r["correction"]) for r in rows] == [(1000.0, 1.0), (1000.0, 1.0)]
    check = run("config", "check", "--config", str(write_config(config)))
    assert check.exit_code == 0, check.stderr
    assert (
        "dirac.correction.instances[0]: a slice shorter than 3600 s; DIRAC's accounting "
        "refuses such a report ('lastSeconds must be more than 3600'), so instance 'Groups' "
        "never corrects"
    ) in check.stderr


MONITORING = POOL.replace('name = "Groups"\n', 'name = "Groups"\ncorrector = "MonitoringHistory"\n')


def test_monitoring_history_averages_each_group_from_its_first_record(
    taskqueues: Callable[..., Any],
) -> None:
    """The MonitoringHistory corrector's OpenSearch report, a day's slice at 12:00
    (``MonitoringDB.retrieveBucketedData``, ``metric = "avg"``): 15-minute buckets (the
    span is at most ``1d``), a snapshot each quarter-hour from n − 86400 to n, both ends
    included; per group, the mean of the buckets from its first record to its last, empty
    ones 0.

    g1 ran 2 jobs from 00:00 to 01:00 and from 10:00 to 11:00: 8 snapshots of 2 (00:00 to
    00:45, 10:00 to 10:45), buckets 00:00 to 10:45: 44; 16 / 44 = 4/11. g2 runs 1 from
    the day before: 97 buckets of 1: 1. T = 15/11; shares 0.5: g1 0.5 / (4/15) = 1.875,
    g2 0.5 / (11/15) = 15/22 = 0.681818 (inside [1/3, 3]): 1875 and 681.8182 ('%.4f',
    read back 681.818). The plain average (g1 2 · 7200 / 86400 = 1/6 over T = 7/6: 0.5 · 7
    = 3.5 -> 3; g2 0.5 · 7/6 = 0.583333) gave 3000 and 583.333, as it still does with
    ``history_report = "average"``.
    """
    history = (
        "u1,g1,2026-11-21T00:00:00Z,2026-11-21T01:00:00Z,2\n"
        "u1,g1,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z,2\n"
        "u2,g2,2026-11-20T00:00:00Z,,1\n"
    )
    rows, _ = taskqueues(MONITORING.format(span=86400), history)
    assert [r["priority"] for r in rows] == [1875.0, 681.818]
    assert [r["correction"] for r in rows] == pytest.approx([1.875, 15 / 22], rel=1e-15)
    average = MONITORING.format(span=86400).replace(
        "enabled = true", 'enabled = true\nhistory_report = "average"'
    )
    rows, _ = taskqueues(average, history)
    assert [r["priority"] for r in rows] == [3000.0, 583.333]


IN_G1 = """
[dirac.groups.g1]
job_share = 1000
[dirac.correction]
enabled = true
in_group_history = "user"
[[dirac.correction.instances]]
name = "InG1"
group = "g1"
corrector = "{corrector}"
slices = [ {{ time_span = 86400 }} ]
"""


def test_monitoring_in_group_report_reads_groups_named_by_a_character(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """g1's owners u1 (3 jobs all day) and u2 (1), one queue each: 500 each before
    correction. ``MonitoringHistoryCorrector`` asks for ``UserGroup = "g1"``, a string that
    ``retrieveBucketedData`` iterates: UserGroup ``g`` or ``1``, groups that ran nothing, so
    the report is empty ("Empty history data"), the instance has no history and corrects
    nothing: 500 and 500. fs read g1 itself (u1 3/4: 0.5 / 0.75 = 2/3 -> 333.333, u2 2 ->
    1000), as the documented reading (``history_report = "average"``) still does. fs config
    check says so, and for a WMSHistory instance that its report counts every job status."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        json.dumps(
            [
                {"id": "1.0", "owner": "u1", "dirac_group": "g1"},
                {"id": "2.0", "owner": "u2", "dirac_group": "g1"},
            ]
        ),
        encoding="utf-8",
    )
    csv = tmp_path / "history.csv"
    csv.write_text(
        "owner,dirac_group,start,end,slots\n"
        "u1,g1,2026-11-20T00:00:00Z,,3\nu2,g1,2026-11-20T00:00:00Z,,1\n",
        encoding="utf-8",
    )
    config = IN_G1.format(corrector="MonitoringHistory")
    for extra, expected in (
        ("", [500.0, 500.0]),
        ('history_report = "average"\n', [333.333, 1000.0]),
    ):
        cfg = write_config(config.replace("enabled = true\n", "enabled = true\n" + extra))
        common = ["--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW]
        assert run("import", "history", str(csv), "--rebuild", *common).exit_code == 0
        result = run("taskqueues", *common, "--jobs-file", str(jobs), "--json")
        assert result.exit_code == 0, result.stderr
        assert [r["priority"] for r in json.loads(result.stdout)] == expected
    check = run("config", "check", "--config", str(write_config(config)))
    assert check.exit_code == 0, check.stderr
    assert (
        "dirac.correction.instances[0]: DIRAC's in-group MonitoringHistory report matches "
        "UserGroup against each character of 'g1' (the condition is a string, not a list), so "
        "instance 'InG1' reads only groups named by one of those characters, as fs does"
    ) in check.stderr
    check = run(
        "config", "check", "--config", str(write_config(IN_G1.format(corrector="WMSHistory")))
    )
    assert check.exit_code == 0, check.stderr
    assert (
        "dirac.correction.instances[0]: DIRAC's in-group WMSHistory report has no Running "
        "condition: it counts the owners' jobs in every JobDB status (waiting, done, failed, "
        "... until the JobCleaningAgent removes them); the history fs keeps holds running jobs "
        "only, so instance 'InG1' compares running jobs alone"
    ) in check.stderr
