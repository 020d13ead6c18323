"""The WMSHistory share corrector, with the seed's example configuration.

The seed's numbers are the average number of running jobs over exactly the slice
(``history_report = "average"``); the accounting's buckets are in ``test_history_report``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import DiracCorrectionConfig as CorrectionSettings
from fairshare_cli.core.config import DiracCorrectionInstance as CorrectorInstance
from fairshare_cli.core.config import DiracSlice
from fairshare_cli.core.dirac.correction import (
    DiracHistorySink,
    HistoryCorrector,
    RunningHistory,
    apply_correction,
    history_from_json,
    history_to_json,
    record_cycle,
)
from fairshare_cli.core.dirac.history_report import average_running, slice_history
from fairshare_cli.core.dirac.taskqueues import CorrectionFails
from fairshare_cli.core.state import SectionError
from fairshare_cli.core.usage import UsageRecord as Record

WEEK, HOUR = 604800, 3600
NOW = 1_800_000_000.0

# The seed's GroupsInstance: week slice weight 80 max 2, hour slice weight 20 max 5, global 3.
SEED = CorrectorInstance(
    name="GroupsInstance",
    max_global_correction=3,
    slices=(DiracSlice(WEEK, 80, 2), DiracSlice(HOUR, 20, 5)),
)


def running(*spans: tuple[str, str, float, float | None, int]) -> RunningHistory:
    history = RunningHistory()
    for group, owner, start, end, jobs in spans:
        history.add(group, owner, start, end, jobs)
    return history


def test_seed_three_times_a_third_and_not_at_all() -> None:
    # Shares 275 : 525 : 200 (s = 0.275, 0.525, 0.2). Over the whole week A ran 33 jobs and B 7,
    # so A used 0.825 = 3 x its share, B 0.175 = 1/3 of its share, C nothing.
    history = running(
        ("A", "a", NOW - WEEK, None, 33),
        ("B", "b", NOW - WEEK, None, 7),
    )
    shares = {"A": 275.0, "B": 525.0, "C": 200.0}
    corrector = HistoryCorrector(
        CorrectionSettings(True, (SEED,), history_report="average"), history, NOW
    )
    corrected, factors = corrector(shares, None)
    # A: week clamp(1/3, 1/2, 2) = 1/2 -> x 0.8 = 0.4; hour 1/3 x 0.2 = 1/15; sum 7/15.
    # B: week clamp(3) = 2 -> 1.6; hour 3 x 0.2 = 0.6; sum 2.2.
    # C: absent from both slices: 2 + 5 = 7 (unweighted, as the code does) -> global max 3.
    assert factors == pytest.approx({"A": 7 / 15, "B": 2.2, "C": 3.0}, rel=1e-14)
    assert corrected == pytest.approx({"A": 275 * 7 / 15, "B": 525 * 2.2, "C": 600.0}, rel=1e-14)


def test_documented_rule_weights_absent_entities() -> None:
    history = running(("A", "a", NOW - WEEK, None, 33), ("B", "b", NOW - WEEK, None, 7))
    settings_ = CorrectionSettings(
        True, (SEED,), absent_entities="weighted", history_report="average"
    )
    _, factors = HistoryCorrector(settings_, history, NOW)(
        {"A": 275.0, "B": 525.0, "C": 200.0}, None
    )
    assert factors["C"] == pytest.approx(2 * 0.8 + 5 * 0.2, rel=1e-15)  # 2.6, within the clamp


def test_absent_in_the_last_hour_only() -> None:
    # B stopped two hours ago: it is present in the week slice and absent in the hour slice.
    history = running(("A", "a", NOW - WEEK, None, 1), ("B", "b", NOW - WEEK, NOW - 2 * HOUR, 1))
    _, factors = HistoryCorrector(
        CorrectionSettings(True, (SEED,), history_report="average"), history, NOW
    )({"A": 1000.0, "B": 1000.0}, None)
    b_week = WEEK - 2 * HOUR
    total = WEEK + b_week
    a_week = min(max(0.5 / (WEEK / total), 0.5), 2) * 0.8
    b_week_factor = min(max(0.5 / (b_week / total), 0.5), 2) * 0.8
    assert factors["A"] == pytest.approx(a_week + 0.5 * 0.2, rel=1e-14)  # hour: 0.5/1 -> 1/2
    assert factors["B"] == pytest.approx(min(b_week_factor + 5, 3), rel=1e-14)


def test_no_history_means_no_correction() -> None:
    # A slice without any data discards the whole history (the hour slice here).
    history = running(("A", "a", NOW - WEEK, NOW - 2 * HOUR, 5))
    shares = {"A": 1000.0, "B": 1000.0}
    got = HistoryCorrector(
        CorrectionSettings(True, (SEED,), history_report="average"), history, NOW
    )(shares, None)
    assert got == (shares, {"A": 1.0, "B": 1.0})


def test_slices_without_usage_from_these_entities_are_skipped() -> None:
    # Only group Z (not in the task queues) ran: T = 0 in both slices, nothing changes.
    history = running(("Z", "z", NOW - WEEK, None, 5))
    got = HistoryCorrector(
        CorrectionSettings(True, (SEED,), history_report="average"), history, NOW
    )({"A": 1.0}, None)
    assert got == ({"A": 1.0}, {"A": 1.0})


def test_in_group_history_by_dn_never_corrects_and_by_user_does() -> None:
    instance = CorrectorInstance(
        "lhcb_userInstance", group="lhcb_user", max_global_correction=3, slices=SEED.slices
    )
    history = running(
        ("lhcb_user", "alice", NOW - WEEK, None, 3), ("lhcb_user", "bob", NOW - WEEK, None, 1)
    )
    shares = {"alice": 500.0, "bob": 500.0}
    code = HistoryCorrector(
        CorrectionSettings(True, (instance,), history_report="average"), history, NOW
    )
    assert code(shares, "lhcb_user") == (shares, {"alice": 1.0, "bob": 1.0})
    assert code(shares, None) == (shares, {"alice": 1.0, "bob": 1.0})  # no global instance
    docs = HistoryCorrector(
        CorrectionSettings(True, (instance,), in_group_history="user", history_report="average"),
        history,
        NOW,
    )
    _, factors = docs(shares, "lhcb_user")
    # alice used 3/4 against a share of 1/2: 2/3 in both slices -> 0.8·2/3 + 0.2·2/3 = 2/3.
    assert factors == pytest.approx({"alice": 2 / 3, "bob": 2 * 0.8 + 2 * 0.2}, rel=1e-14)


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from("ABCDE"), st.integers(min_value=1, max_value=10_000), min_size=1
    ),
    st.dictionaries(
        st.sampled_from("ABCDEZ"), st.floats(min_value=0.01, max_value=1e4), min_size=1
    ),
    st.integers(min_value=1, max_value=9),
)
def test_corrections_stay_within_the_global_clamp(
    shares: dict[str, int], usage: dict[str, float], top: int
) -> None:
    instance = CorrectorInstance("i", max_global_correction=top, slices=SEED.slices)
    _, factors = apply_correction(
        {k: float(v) for k, v in shares.items()}, instance, [usage, usage]
    )
    assert all(1 / top - 1e-15 <= f <= top + 1e-15 for f in factors.values())


@pytest.mark.parametrize(
    ("steps", "start", "end", "average"),
    [
        pytest.param([(0, 2), (50, -2)], 0, 100, 1.0, id="half-the-time"),
        pytest.param([(0, 2)], 50, 100, 2.0, id="still-running"),
        pytest.param([(-100, 4), (-50, -4)], 0, 100, 0.0, id="before-the-span"),
        pytest.param([(10, 1), (20, 3), (30, -4)], 0, 40, 1.25, id="steps"),
        pytest.param([(90, 5), (110, -5)], 0, 100, 0.5, id="crosses-the-end"),
    ],
)
def test_average_running(
    steps: list[tuple[float, float]], start: float, end: float, average: float
) -> None:
    assert average_running(steps, start, end) == pytest.approx(average, rel=1e-15)


def test_history_json_round_trip_and_merge() -> None:
    history = running(("g", "a", 0, 10, 2), ("g", "a", 10, 20, 2), ("h", "b", 5, None, 1))
    raw = history_to_json(history)
    assert raw == {"running_jobs": {"g": {"a": [[0, 2], [20, -2]]}, "h": {"b": [[5, 1]]}}}
    assert history_from_json(raw) == history
    assert history_from_json(None) == RunningHistory()


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param([], id="not-object"),
        pytest.param({"running_jobs": []}, id="groups-not-object"),
        pytest.param({"running_jobs": {"g": {"a": [[1]]}}}, id="short-step"),
        pytest.param({"running_jobs": {"g": {"a": 3}}}, id="steps-not-list"),
    ],
)
def test_bad_history_sections_are_refused(raw: object) -> None:
    with pytest.raises(SectionError, match="dirac"):
        history_from_json(raw)


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param([7, True], id="bool-delta"),
        pytest.param([7, 1, 2], id="three-numbers"),
        pytest.param(["7", 1], id="time-as-text"),
        pytest.param((7, 1), id="not-a-list"),
        pytest.param([7, None], id="null-delta"),
    ],
)
def test_a_bad_step_among_good_ones_is_named(bad: object) -> None:
    """The steps are checked a kind at a time; the one refused is named by its place."""
    raw = {"running_jobs": {"g": {"a": [[1, 2], [3.5, -2], bad, [9, 1]]}}}
    with pytest.raises(SectionError, match=r"running_jobs\.g\.a\[2\] must be \[time, delta\]"):
        history_from_json(raw)


def test_steps_of_integers_past_64_bits_are_read_as_written() -> None:
    """A number too large for msgspec's integers is still a number: the steps are read one
    by one, as written, in time order."""
    raw = {"running_jobs": {"g": {"a": [[2**70, 1], [3, -(2**66)]]}}}
    assert history_from_json(raw).events == {("g", "a"): [(3, -(2**66)), (2**70, 1)]}


number = st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(number, number), max_size=30))
def test_steps_read_are_the_pairs_written_in_time_order(pairs: list[tuple[float, float]]) -> None:
    """Any steps of two numbers (ints or floats, in any order) read as those pairs, sorted."""
    raw = {"running_jobs": {"g": {"a": [list(p) for p in pairs]}}}
    assert history_from_json(raw).events == {("g", "a"): sorted(pairs)}


def test_history_sink_adds_to_or_rebuilds_the_section() -> None:
    old = history_to_json(running(("g", "a", 0, 10, 1)))
    sink = DiracHistorySink(old, rebuild=False)
    sink.add(Record("a", 10, 30, dirac_group="g", slots=2))
    sink.add(Record("a", 0, 30))  # not DIRAC work
    sink.add(Record("b", 40, None, dirac_group="g", slots=3))
    got = history_from_json(sink.finish())
    assert got.events == {("g", "a"): [(0, 1), (10, 1), (30, -2)], ("g", "b"): [(40, 3)]}
    assert average_running(got.events[("g", "a")], 0, 30) == pytest.approx(50 / 30)
    rebuilt = DiracHistorySink(old, rebuild=True)
    rebuilt.add(Record("a", 10, 30, dirac_group="g", slots=2))
    assert rebuilt.finish() == {"running_jobs": {"g": {"a": [[10, 2], [30, -2]]}}}


def test_history_sink_drops_the_changes_that_cancel() -> None:
    """Two jobs of a ending at 30 and 50 as two of its jobs start there: no step at 30 or
    50 (their changes sum to 0, and a zero change is no step), the others kept."""
    sink = DiracHistorySink(None, rebuild=True)
    for start, end in ((10, 30), (30, 50), (20, 50), (50, 60), (50, None)):
        sink.add_batch([Record("a", start, end, dirac_group="g", slots=1)])
    assert sink.finish() == {"running_jobs": {"g": {"a": [[10, 1], [20, 1], [60, -1]]}}}


def test_record_cycle_counts_started_and_stopped_jobs() -> None:
    """Two jobs start at 100; at 150 one starts and one is preempted (the changes cancel
    and leave no step); at 200 one stops. Over [100, 300]: 2 for 100 s, 1 for 100 s."""
    section = record_cycle(None, [("g", "a"), ("g", "a")], [], 100)
    section = record_cycle(section, [("g", "a")], [("g", "a")], 150)
    section = record_cycle(section, [], [("g", "a")], 200)
    assert section == {"running_jobs": {"g": {"a": [[100, 2], [200, -1]]}}}
    assert average_running(history_from_json(section).events[("g", "a")], 100, 300) == 1.5


def test_slice_history_groups_owners() -> None:
    history = running(("g", "a", NOW - 100, None, 2), ("g", "b", NOW - 100, None, 1))
    events = history.events
    assert slice_history(events, "", 100, NOW, report="average") == {"g": 3.0}
    assert slice_history(events, "g", 100, NOW, "user", "average") == {"a": 2.0, "b": 1.0}
    assert set(slice_history(events, "g", 100, NOW, report="average")) == {
        ("dn", "a"),
        ("dn", "b"),
    }


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 1000), st.floats(0, 500), st.integers(1, 5)), max_size=12),
    st.floats(0, 1000),
    st.floats(0, 1000),
)
def test_folding_keeps_every_later_average(
    intervals: list[tuple[float, float, int]], cutoff: float, width: float
) -> None:
    """History folded at a cutoff gives the same average over any window after it."""
    from fairshare_cli.core.dirac.correction import RunningHistory, fold_before

    history = RunningHistory()
    for start, length, jobs in intervals:
        history.add("g", "o", start, start + length if length else None, jobs)
    before = list(history.events.get(("g", "o"), []))
    fold_before(history, cutoff)
    after = history.events.get(("g", "o"), [])
    end = cutoff + width + 1.0
    assert average_running(after, cutoff, end) == pytest.approx(
        average_running(before, cutoff, end), abs=1e-9
    )


_RECORDS = st.lists(
    st.tuples(
        st.sampled_from(["a", "b"]),
        st.integers(0, 40),
        st.none() | st.integers(0, 40),
        st.sampled_from(["g", "h", None]),
        st.integers(0, 3),
    ),
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_RECORDS, max_size=4), st.integers(0, 45), st.booleans())
def test_batches_charge_as_record_by_record(
    batches: list[list[tuple[str, int, int | None, str | None, int]]], cutoff: int, old: bool
) -> None:
    """add_batch (which skips a batch ended wholly before the cutoff at once) and finish
    give the section that add gives record by record, onto an old history or none."""
    section = history_to_json(running(("g", "a", 0, 10, 1), ("h", "b", 5, None, 2)))
    made = [
        [
            Record(o, float(s), None if e is None else float(e), dirac_group=g, slots=n)
            for o, s, e, g, n in batch
        ]
        for batch in batches
    ]
    one, many = (DiracHistorySink(section, not old, float(cutoff)) for _ in range(2))
    for batch in made:
        for record in batch:
            one.add(record)
        many.add_batch(batch)
    assert many.finish() == one.finish()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 30), st.integers(-3, 3)), max_size=12),
    st.integers(0, 30),
)
def test_folding_sums_the_steps_before_the_cutoff(
    steps: list[tuple[int, int]], cutoff: int
) -> None:
    """fold_before finds the steps before the cutoff by bisection: they become one step at
    the cutoff (with one already there), in the order they are summed by definition."""
    from fairshare_cli.core.dirac.correction import fold_before

    events = sorted({float(t): float(d) for t, d in steps if d}.items())
    history = RunningHistory({("g", "o"): list(events)})
    fold_before(history, float(cutoff))
    early = [d for t, d in events if t < cutoff]
    late = [(t, d) for t, d in events if t >= cutoff]
    if early:
        total = sum(early) + (late.pop(0)[1] if late and late[0][0] == cutoff else 0.0)
        late = ([(float(cutoff), total)] if total else []) + late
    assert history.events.get(("g", "o"), []) == late


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 30), st.sampled_from([1, -1, 0.1, -0.3, 2.5])), max_size=8),
    _RECORDS,
)
def test_finish_sums_each_time_and_sorts_by_time(
    old_steps: list[tuple[int, float]], records: list[tuple[str, int, int | None, str | None, int]]
) -> None:
    """finish: at each time, the old step plus the records' changes there (a start adds
    its slots, an end takes them off, in record order), zero sums left out, the pairs in
    time order; the same floats as summing the old step first and sorting the pairs (a
    time an old history gives twice: its last step; a history no record adds to: as read)."""
    section = {"running_jobs": {"g": {"a": [[float(t), d] for t, d in old_steps]}}}
    old = history_from_json(section).events.get(("g", "a"), [])
    sink = DiracHistorySink(section, rebuild=False)
    changes: dict[tuple[str, str], dict[float, float]] = {}
    for o, s, e, g, n in records:
        sink.add(Record(o, float(s), None if e is None else float(e), dirac_group=g, slots=n))
        if g is None or n == 0 or (e is not None and e <= s):
            continue
        mine = changes.setdefault((g, o), {})
        for t, d in ((s, n), *(() if e is None else ((e, -n),))):
            mine[float(t)] = mine.get(float(t), 0) + d
    want = {("g", "a"): old} if old and ("g", "a") not in changes else {}
    for key, mine in changes.items():
        steps = dict(old) if key == ("g", "a") else {}  # (an old time twice: the last)
        for t, d in mine.items():
            steps[t] = steps.get(t, 0) + d
        if any(steps.values()):
            want[key] = sorted((t, d) for t, d in steps.items() if d != 0)
    assert history_from_json(sink.finish()).events == want


def test_shares_summing_to_zero_fail_before_the_history_is_read() -> None:
    """``BaseHistoryCorrector.applyCorrection`` normalises the shares first (dividing by
    their sum), so shares summing to 0 raise even with no history at all."""
    instance = CorrectorInstance("i", slices=(DiracSlice(),))
    with pytest.raises(CorrectionFails):
        apply_correction({"g1": 0.0, "g2": 0.0}, instance, [{}])
    assert apply_correction({}, instance, [{}]) == ({}, {})
