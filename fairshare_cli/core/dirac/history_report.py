"""What a DIRAC share corrector reads as an entity's usage in one time slice.

The correctors ask for the ``AverageNumberOfJobs`` report of the last ``TimeSpan`` seconds
(``lastSeconds``). The WMSHistory corrector reads it from the accounting's MySQL buckets
(``AccountingDB.retrieveBucketedData``/``calculateBuckets``/``compactBuckets``,
``WMSHistoryPlotter``). The StatesAccountingAgent records each entity's running jobs every
15 minutes; a record goes to its 15-minute bucket, which the nightly compaction merges into
2.5-hour buckets past two days, 5-hour ones past ten days, and so on. The report sums, over
the buckets whose start is in the window, each bucket's ``Jobs / entriesInBucket`` (the mean
of the records that saw the entity), and divides by the number of buckets of the span. The
window starts at the span's first bucket moved on by an hour (a shift the query makes
"because MySQL and UNIX do not start epoch at the same time"). So a bucket counts once
whatever its length, and a long bucket counts an entity at its mean while it ran.

The MonitoringHistory corrector reads the same snapshots from OpenSearch
(``MonitoringDB.retrieveBucketedData`` with ``metric = "avg"``): per entity, a date histogram
of the span's bucket size (``DBUtils._determineBucketSize``), each bucket the mean of its
snapshots' running jobs, and the mean of those buckets from the entity's first record to its
last (empty buckets between count 0): :func:`monitoring_running`. Pure.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

InGroupHistory = Literal["dn", "user"]
"""How an in-group instance finds owners in the history.

``"dn"`` is DIRAC's code: the history is re-keyed by certificate DN while task queues are
keyed by username, so no owner is ever found and such an instance never corrects.
``"user"`` is what the documentation describes: owners are looked up by username.
"""

HistoryReport = Literal["accounting", "monitoring", "average"]
"""How a slice's usage is read from the running-jobs history.

``"accounting"`` is the WMSHistory accounting report the WMSHistory corrector's code reads,
``"monitoring"`` the OpenSearch report the MonitoringHistory corrector's reads (the module's
docstring); ``"average"`` is what the documentation describes, the average number of
running jobs over exactly ``[now - time_span, now]``.
"""

Entity = Any
"""An entity key in a history: a group name, an owner name, or an unmatchable DN key."""

SHORTEST_REPORT = 3600
"""The shortest ``lastSeconds`` the accounting and monitoring services report on: a slice
below it gets an error, and ``updateHistoryKnowledge`` then drops every slice's history."""

WMS_HISTORY_BUCKETS = (
    (86400 * 2, 900),
    (86400 * 10, 9000),
    (86400 * 35, 18000),
    (86400 * 30 * 6, 86400),
    (86400 * 600, 604800),
)
"""The WMSHistory accounting type's ``bucketsLength``: (age up to, bucket length) seconds."""

LONGEST_BUCKET = 604800
"""``AccountingDB.maxBucketTime``: the length of a bucket older than every age above."""

EPOCH_SHIFT = 3600
"""What ``AccountingDB.__queryType`` adds to both ends of a bucket query before it rounds
them down to a bucket start."""


def average_running(steps: Sequence[tuple[float, float]], start: float, end: float) -> float:
    """Average number of running jobs over ``[start, end]`` (steps: ``(time, delta)``)."""
    running = 0.0
    area = 0.0
    previous = start
    for time, delta in steps:
        if time >= end:
            break
        if time > start:
            area += running * (time - previous)
            previous = time
        running += delta
    area += running * (end - previous)
    return area / (end - start)


def bucket_length(now: int, when: int) -> int:
    """``AccountingDB.calculateBucketLengthForTime``: the length of the bucket holding
    ``when``, seen at ``now``."""
    for age, length in WMS_HISTORY_BUCKETS:
        if max(0, now - now % length - when) <= age:
            return length
    return LONGEST_BUCKET


def bucket_start(now: int, when: int) -> int:
    """The start of the bucket holding ``when`` (``calculateBuckets(when, when)[0][0]``)."""
    return when - when % bucket_length(now, when)


SNAPSHOT_PERIOD = 900
"""The StatesAccountingAgent's ``PollingTime``: one WMSHistory record per entity this often,
taken here at each multiple of it (epoch seconds; the agent's own phase is not known)."""

COMPACTED_AFTER = {length: age for age, length in WMS_HISTORY_BUCKETS}
"""Bucket length -> the age past which ``compactBuckets`` moves such a bucket to a longer one."""


def report_window(now: int, time_span: int) -> tuple[int, int]:
    """The first bucket start a ``lastSeconds = time_span`` report takes, and its divisor.

    Returns:
        ``(first, bins)``: the bucket of ``now - time_span`` rounded down, plus
        :data:`EPOCH_SHIFT`, rounded down to a bucket again (``retrieveBucketedData`` and
        ``__queryType``); and ``len(calculateBuckets(now - time_span, now))``.
    """
    first = bucket_start(now, bucket_start(now, now - time_span) + EPOCH_SHIFT)
    bins = 0
    start = bucket_start(now, now - time_span)
    while start < now:
        bins += 1
        start += bucket_length(now, start)
    return first, max(bins, 1)


def compacted_bucket(now: int, snapshot: int) -> int:
    """The start of the bucket a snapshot's record is in after ``compactBuckets`` at ``now``:
    its 15-minute bucket, moved on to a longer one while older than that length's age."""
    length = SNAPSHOT_PERIOD
    start = snapshot - snapshot % length
    while start < now - now % length - COMPACTED_AFTER.get(length, math.inf):
        longer = bucket_length(now, start)
        if longer <= length:
            break
        length = longer
        start -= start % length
    return start


@dataclass(frozen=True)
class ReportRecords:
    """The records a report takes (:func:`report_records`): their times, the bucket each is
    in, where each one's run of records in the same bucket ends, and the report's divisor."""

    times: list[int]
    buckets: list[int]
    run_end: list[int]
    bins: int


def report_records(now: int, time_span: int) -> ReportRecords:
    """Every record a ``lastSeconds = time_span`` report at ``now`` takes: one every
    :data:`SNAPSHOT_PERIOD` from the window's first bucket start to ``now`` whose bucket
    (after compaction) starts there or later."""
    first, bins = report_window(now, time_span)
    times: list[int] = []
    buckets: list[int] = []
    for snapshot in range(first, now + 1, SNAPSHOT_PERIOD):
        bucket = compacted_bucket(now, snapshot)
        if bucket >= first:
            times.append(snapshot)
            buckets.append(bucket)
    run_end = list(range(1, len(times) + 1))
    for i in range(len(times) - 2, -1, -1):
        if buckets[i] == buckets[i + 1]:
            run_end[i] = run_end[i + 1]
    return ReportRecords(times, buckets, run_end, bins)


def reported_running(steps: Sequence[tuple[float, float]], report: ReportRecords) -> float:
    """``SUM(Jobs / entriesInBucket) / numBins``: each bucket the mean of its records that saw
    jobs running (a record at a step's time sees it), step by step rather than record by
    record (a six-month slice holds 17,280 records)."""
    jobs: dict[int, float] = {}
    entries: dict[int, int] = {}
    times, buckets, run_end = report.times, report.buckets, report.run_end

    def charge(lo: int, hi: int, running: float) -> None:
        while lo < hi:
            end = min(run_end[lo], hi)
            jobs[buckets[lo]] = jobs.get(buckets[lo], 0.0) + running * (end - lo)
            entries[buckets[lo]] = entries.get(buckets[lo], 0) + end - lo
            lo = end

    _charge_steps(steps, times, charge)
    return math.fsum(jobs[b] / entries[b] for b in jobs) / report.bins


def _charge_steps(
    steps: Sequence[tuple[float, float]],
    times: Sequence[int],
    charge: Callable[[int, int, float], None],
) -> None:
    """Walk the running-jobs ``steps`` (time, change) over the snapshot ``times``:
    ``charge(lo, hi, running)`` for each run of snapshots ``times[lo:hi]`` that saw
    ``running`` jobs (none for a run that saw none); a snapshot at a step's time sees it."""
    running = 0.0
    done = 0
    for time, delta in steps:
        upto = bisect.bisect_left(times, time, done)
        if running > 0:
            charge(done, upto, running)
        done = upto
        running += delta
    if running > 0:
        charge(done, len(times), running)


MONITORING_BUCKETS = (
    (3600, 60, 0),
    (21600, 300, 0),
    (43200, 600, 0),
    (86400, 900, 0),
    (172800, 1800, 0),
    (302400, 3600, 0),
    (604800, 7200, 0),
    (1209600, 14400, 0),
    (2592000, 28800, 0),
    (5184000, 43200, 0),
    (7776000, 86400, 0),
    (15552000, 172800, 0),
    (23328000, 259200, 0),
    (31622400, 345600, 0),
    (316224000, 604800, 0),
    (3162240000, 604800, 345600),
)
"""``DBUtils``'s bucket sizes as seconds: (span up to, bucket length, bucket offset). The
spans are its ``1h`` ... ``100y`` (a month 30 days, a year 366); every bucket is a fixed
interval from the epoch, but ``1w``, a calendar week, starts on a Monday (the epoch's
Thursday plus four days). A longer span has no bucket size: the report fails."""

TERMS_SIZE = 10
"""How many snapshots of one histogram bucket the report averages: the ``terms``
aggregation on ``timestamp`` gives its default ten, those with the most documents first,
then the earliest (one record per snapshot here: the earliest ten)."""


@dataclass(frozen=True)
class MonitoringWindow:
    """The snapshots a ``lastSeconds = time_span`` monitoring report takes (``timestamp``
    from ``now − time_span`` to ``now``, both in milliseconds, both ends included) and the
    bucket each is in."""

    times: list[int]
    buckets: list[int]
    length: int


def monitoring_window(now: float, time_span: int) -> MonitoringWindow | None:
    """The report's snapshots, or None when the span has no bucket size (over 100 years).

    ``MonitoringHandler`` sets ``endTime = now`` and ``startTime = now − lastSeconds`` in
    whole milliseconds (``toEpochMilliSeconds`` truncates); the bucket size is the first of
    :data:`MONITORING_BUCKETS` whose span is at least ``endTime − startTime``.
    """
    end_ms = int(now * 1000)
    start_ms = int((now - time_span) * 1000)
    sizes = [
        (length, offset)
        for span, length, offset in MONITORING_BUCKETS
        if end_ms - start_ms <= span * 1000
    ]
    if not sizes:
        return None
    length, offset = sizes[0]
    period_ms = SNAPSHOT_PERIOD * 1000
    first = -(-start_ms // period_ms) * SNAPSHOT_PERIOD
    times = list(range(first, end_ms // period_ms * SNAPSHOT_PERIOD + 1, SNAPSHOT_PERIOD))
    buckets = [t - (t - offset) % length for t in times]
    return MonitoringWindow(times, buckets, length)


def monitoring_running(steps: Sequence[tuple[float, float]], window: MonitoringWindow) -> float:
    """``avg_total_jobs``: the mean, over the histogram buckets from the entity's first
    record to its last, of each bucket's mean running jobs over its snapshots that saw jobs
    running (at most :data:`TERMS_SIZE`, the earliest); a bucket without one counts 0
    (``gap_policy = insert_zeros``). Summed left to right, as ``avg_bucket`` sums."""
    sums: dict[int, float] = {}
    counts: dict[int, int] = {}
    times, buckets = window.times, window.buckets

    def charge(lo: int, hi: int, running: float) -> None:
        for i in range(lo, hi):
            seen = counts.get(buckets[i], 0)
            if seen < TERMS_SIZE:
                counts[buckets[i]] = seen + 1
                sums[buckets[i]] = sums.get(buckets[i], 0.0) + running

    _charge_steps(steps, times, charge)
    if not sums:
        return 0.0
    total = 0.0
    for bucket in sums:  # (in time order: charged so)
        total += sums[bucket] / counts[bucket]
    return total / ((max(sums) - min(sums)) // window.length + 1)


def slice_history(
    events: Mapping[tuple[str, str], Sequence[tuple[float, float]]],
    group: str,
    time_span: float,
    now: float,
    in_group_history: InGroupHistory = "dn",
    report: HistoryReport = "accounting",
) -> dict[Entity, float]:
    """Each entity's usage in a slice of ``time_span`` seconds at ``now`` for one instance.

    For the instance between groups (``group`` empty) entities are groups; otherwise they
    are the owners of ``group``. An entity without running jobs in the report is absent, as it
    is in DIRAC's report. With ``in_group_history="dn"`` owners come back keyed by a stand-in
    for their certificate DN, which never equals a username.
    """
    if report == "monitoring":
        return _monitoring_history(events, group, time_span, now, in_group_history)
    if report == "accounting":
        records = report_records(math.floor(now), int(time_span))
    result: dict[Entity, float] = {}
    for (g, owner), steps in events.items():
        if group and g != group:
            continue
        if report == "accounting":
            value = reported_running(steps, records)
        else:
            value = average_running(steps, now - time_span, now)
        if value > 0:
            entity = _entity(g, owner, group, in_group_history)
            result[entity] = result.get(entity, 0.0) + value
    return result


def _entity(g: str, owner: str, group: str, in_group_history: InGroupHistory) -> Entity:
    """The key a report gives ``owner``'s jobs in group ``g``."""
    if not group:
        return g
    return ("dn", owner) if in_group_history == "dn" else owner


def _monitoring_history(
    events: Mapping[tuple[str, str], Sequence[tuple[float, float]]],
    group: str,
    time_span: float,
    now: float,
    in_group_history: InGroupHistory,
) -> dict[Entity, float]:
    """:func:`slice_history` through the monitoring report: each entity's snapshots are the
    sums over its rows (a group's owners together), so its steps are merged first.

    The in-group report's ``UserGroup`` condition is the group's name as a string, which
    ``retrieveBucketedData`` iterates value by value: one ``term`` per character, so it
    takes the groups named by a single character of the name (``g1``: groups ``g`` and
    ``1``), most often none; a report without data fails, and the instance never corrects.
    """
    window = monitoring_window(now, int(time_span))
    if window is None:
        return {}  # (no bucket size: the report fails, as an empty one does)
    merged: dict[Entity, list[tuple[float, float]]] = {}
    for (g, owner), steps in events.items():
        if group and not (len(g) == 1 and g in group):
            continue
        merged.setdefault(_entity(g, owner, group, in_group_history), []).extend(steps)
    result: dict[Entity, float] = {}
    for entity, steps in merged.items():
        value = monitoring_running(sorted(steps), window)
        if value > 0:
            result[entity] = value
    return result
