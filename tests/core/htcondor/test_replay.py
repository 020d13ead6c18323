"""History replay into the accountant: exact, and independent of record order."""

from __future__ import annotations

import heapq
import json
import math
import random
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import (
    AccountantConfig,
    Config,
    GroupSpec,
    NegotiatorConfig,
    PoolConfig,
)
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.replay import AccountantReplay
from fairshare_cli.core.usage import UnsortedHistory, UsageRecord, parse_record
from fairshare_cli.errors import InputError

DAY = 86400.0
CONFIG = Config(
    pool=PoolConfig(uid_domain="d"),
    accountant=AccountantConfig(priority_halflife=DAY),
    groups={"g": GroupSpec("g", quota=10), "g.h": GroupSpec("g.h", quota=5)},
)
NOW = 10 * DAY


def replay(records: list[UsageRecord], presorted: bool) -> acct.AccountantState:
    sink = AccountantReplay(CONFIG, None, NOW, rebuild=False, presorted=presorted)
    for r in records:
        sink.add(r)
    return acct.accountant_from_json(sink.finish())


def by_events(records: list[UsageRecord]) -> acct.AccountantState:
    """The same history through add_match/remove_match, one event at a time."""
    events = []
    for r in records:
        name = acct.submitter_name(r.owner, r.accounting_group, False, "d")
        events.append((r.start, name, r.slots))
        if r.end is not None:
            events.append((r.end, name, -r.slots))
    state = acct.EMPTY
    for t, name, slots in sorted(events, key=lambda e: e[0]):
        if slots > 0:
            state = acct.add_match(state, CONFIG, name, float(slots), t, slots=slots)
        else:
            state = acct.remove_match(state, CONFIG, name, float(-slots), t, slots=-slots)
    return acct.bring_up_to_date(state, CONFIG, NOW)


owners = st.sampled_from([("alice", None), ("bob", "g.h.bob"), ("carol", "g.carol")])
record = st.builds(
    lambda o, start, length, slots, running: UsageRecord(
        owner=o[0],
        accounting_group=o[1],
        start=start,
        end=None if running else min(start + length, NOW),
        slots=slots,
    ),
    owners,
    st.floats(0, 9 * DAY),
    st.floats(0, 3 * DAY),
    st.integers(1, 8),
    st.booleans(),
)


def close(a: acct.AccountantState, b: acct.AccountantState, slack: float = 1e-6) -> None:
    assert set(a.records) == set(b.records)
    for name, ra in a.records.items():
        rb = b.records[name]
        for f in (
            "priority",
            "weighted_accumulated_usage",
            "accumulated_usage",
            "weighted_resources_used",
            "hier_weighted_resources_used",
        ):
            x, y = getattr(ra, f), getattr(rb, f)
            assert math.isclose(x, y, rel_tol=1e-9, abs_tol=slack), (name, f, x, y)
        for f in ("begin_usage_time", "last_usage_time"):
            assert getattr(ra, f) == getattr(rb, f), (name, f)


@settings(max_examples=60, deadline=None)
@given(st.lists(record, min_size=1, max_size=12), st.randoms(use_true_random=False))
def test_order_does_not_matter(records: list[UsageRecord], rnd: random.Random) -> None:
    ordered = sorted(records, key=lambda r: r.start)
    shuffled = list(records)
    rnd.shuffle(shuffled)
    close(replay(ordered, presorted=True), replay(shuffled, presorted=False))


@settings(max_examples=60, deadline=None)
@given(st.lists(record, min_size=1, max_size=10))
def test_replay_equals_match_bookkeeping(records: list[UsageRecord]) -> None:
    """The replay charges its events without the six decimals the accountant stores at
    each AddMatch/RemoveMatch (and at the end): they agree to 5e-7 an event."""
    replayed = replay(sorted(records, key=lambda r: r.start), presorted=True)
    close(replayed, by_events(records), slack=5e-7 * (2 * len(records) + 2))


def test_unsorted_input_is_detected() -> None:
    sink = AccountantReplay(CONFIG, None, NOW, rebuild=False, presorted=True)
    sink.add(UsageRecord(owner="a", start=100.0, end=200.0))
    with pytest.raises(UnsortedHistory):
        sink.add(UsageRecord(owner="a", start=50.0, end=60.0))


def test_hand_checked_replay() -> None:
    """Ten slots for one day from a fresh record, then idle for a day."""
    sink = AccountantReplay(CONFIG, None, 2 * DAY, rebuild=False)
    sink.add(UsageRecord(owner="u", start=0.0, end=DAY, slots=10))
    state = acct.accountant_from_json(sink.finish())
    u = state.records["u@d"]
    assert u.priority == pytest.approx((10 - 9.5 / 2) / 2)
    assert u.weighted_accumulated_usage == 10 * DAY
    # BeginUsageTime: set by the first update that finds usage (the end's, at DAY)
    assert u.begin_usage_time == DAY
    assert u.last_usage_time == DAY
    g = state.records["<none>"]
    assert g.weighted_accumulated_usage == 10 * DAY


def test_group_subtree_usage() -> None:
    state = replay(
        [UsageRecord(owner="bob", accounting_group="g.h.bob", start=0.0, end=None, slots=4)],
        presorted=True,
    )
    assert state.records["g"].priority == pytest.approx(4 - 3.5 * 0.5**10)
    assert state.records["g"].weighted_accumulated_usage == 0.0  # own submitters only
    assert state.records["g.h"].weighted_accumulated_usage == 4 * NOW


@pytest.mark.parametrize(
    ("obj", "needle"),
    [
        ({"owner": "a", "start": "5", "end": "4"}, "end is before start"),
        ({"start": 1}, "missing required field 'owner'"),
        ({"owner": "a", "start": 1, "slots": "two"}, "whole number"),
        ({"owner": "a", "start": 1, "slots": -1}, "0 or more"),
        ({"owner": "a", "start": "yesterday"}, "ISO-8601"),
    ],
)
def test_bad_records(obj: dict[str, object], needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        parse_record(obj, "f line 2")


#: Records on a quarter-day grid: many ends at other records' starts and at each other.
tied_records = st.lists(
    st.builds(
        lambda o, start, length, slots, cpus, running: UsageRecord(
            owner=o[0],
            accounting_group=o[1],
            start=start,
            end=None if running else start + length,
            slots=slots,
            cpus=cpus,
        ),
        owners,
        st.integers(0, 32).map(lambda k: k * 0.25 * DAY),  # ties: ends at starts
        st.integers(0, 8).map(lambda k: k * 0.25 * DAY),
        st.integers(0, 3),
        st.integers(1, 4),
        st.booleans(),
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(
    records=tied_records,
    half_life=st.sampled_from([0.0, DAY, 3600.0]),
    cut=st.integers(0, 25),
)
def test_add_batch_is_add_record_by_record_to_the_bit(
    records: list[UsageRecord], half_life: float, cut: int
) -> None:
    """add_batch (its events sorted into place, _apply inline) writes the very
    section that add, record by record, writes: the same floats, bit for bit."""
    records = sorted(records, key=lambda r: r.start)
    config = _with_half_life(half_life)
    one = AccountantReplay(config, None, NOW, rebuild=False)
    for r in records:
        one.add(r)
    batched = AccountantReplay(config, None, NOW, rebuild=False)
    batched.add_batch(records[:cut])
    batched.add_batch(records[cut:])
    assert batched.finish() == one.finish()


@settings(max_examples=60, deadline=None)
@given(records=tied_records, cut=st.integers(0, 25))
def test_ends_a_batch_left_pending_go_on_to_add(records: list[UsageRecord], cut: int) -> None:
    """The ends add_batch leaves pending (after its last start) are applied by the records
    added one by one after it, in their place: the section add alone writes, bit for bit."""
    records = sorted(records, key=lambda r: r.start)
    one = AccountantReplay(CONFIG, None, NOW, rebuild=False)
    for r in records:
        one.add(r)
    mixed = AccountantReplay(CONFIG, None, NOW, rebuild=False)
    mixed.add_batch(records[:cut])
    for r in records[cut:]:
        mixed.add(r)
    assert json.dumps(mixed.finish()) == json.dumps(one.finish())


usage = st.floats(min_value=0.0, max_value=1e6)
#: Stored records the replay starts from: RUPs below 0.5, usage in use (weighted without
#: slots too), uncharged times, and groups updated after the records start.
stored_record = st.builds(
    acct.CustomerRecord,
    name=st.just(""),
    priority=st.floats(min_value=0.0, max_value=1e4),
    last_update=st.none() | st.floats(min_value=-DAY, max_value=0.0),
    resources_used=st.integers(0, 5),
    weighted_resources_used=usage | st.just(0.0),
    hier_weighted_resources_used=usage | st.just(0.0),
    accumulated_usage=usage | st.just(0.0),
    weighted_accumulated_usage=usage,
    begin_usage_time=st.just(0.0) | st.floats(min_value=-DAY, max_value=0.0),
    last_usage_time=st.floats(min_value=-DAY, max_value=0.0),
    uncharged_time=st.just(0.0) | st.floats(min_value=0.0, max_value=DAY),
    weighted_uncharged_time=st.just(0.0) | st.floats(min_value=0.0, max_value=DAY),
)
group_update = st.none() | st.integers(0, 32).map(lambda k: k * 0.25 * DAY)
stored_names = ["alice@d", "g.h.bob@d", "g.carol@d", "g", "g.h", "<none>"]


@settings(max_examples=150, deadline=None)
@given(
    records=tied_records,
    stored=st.lists(stored_record, min_size=6, max_size=6),
    group_updates=st.lists(group_update, min_size=3, max_size=3),
    half_life=st.sampled_from([0.0, DAY, 3600.0]),
)
def test_add_batch_inline_update_is_update_one_priority(
    records: list[UsageRecord],
    stored: list[acct.CustomerRecord],
    group_updates: list[float | None],
    half_life: float,
) -> None:
    """add_batch's inline copy of ``UpdateOnePriority`` gives what add gives through
    :func:`decay.update_one_priority`, bit for bit (printed with repr), from any stored
    records: with or without a last update, RUPs below 0.5, weighted usage without slots,
    uncharged times, and groups updated after the events that reach them."""
    records = sorted(records, key=lambda r: r.start)
    for rec, name in zip(stored, stored_names, strict=True):
        rec.name, rec.is_group = name, "@" not in name
    for rec, when in zip(stored[3:], group_updates, strict=True):
        rec.last_update = when
    section = acct.accountant_to_json(acct.AccountantState({r.name: r for r in stored}))
    config = Config(
        pool=CONFIG.pool,
        accountant=AccountantConfig(priority_halflife=half_life),
        negotiator=NegotiatorConfig(use_slot_weights=True, slot_weight="Cpus * 0.1 + 0.2"),
        groups=CONFIG.groups,
    )
    one = AccountantReplay(config, section, NOW, rebuild=False)
    for r in records:
        one.add(r)
    batched = AccountantReplay(config, section, NOW, rebuild=False)
    batched.add_batch(records)
    assert json.dumps(batched.finish()) == json.dumps(one.finish())


def heap_replay(config: Config, records: list[UsageRecord]) -> dict[str, object]:
    """The replay's events applied one at a time through :meth:`AccountantReplay._apply`,
    the pending ends popped from one heap of (end, record number), each end before a start
    at or after it: the order add and add_batch (its drain inline) must give."""
    sink = AccountantReplay(config, None, NOW, rebuild=False)
    pending: list[tuple[float, int, Any, int, float]] = []
    for count, r in enumerate(records, 1):
        if r.slots == 0:
            continue
        name = acct.submitter_name(r.owner, r.accounting_group, r.nice_user, "d")
        plan = sink._plans[sink._target(name)]
        w = r.slots * sink.weigh(r.cpus)
        while pending and pending[0][0] <= r.start:
            t, _, ended, ds, dw = heapq.heappop(pending)
            sink._apply(t, ended, ds, dw)
        sink._apply(r.start, plan, r.slots, w)
        if r.end is not None:
            heapq.heappush(pending, (r.end, count, plan, -r.slots, -w))
    while pending:
        t, _, ended, ds, dw = heapq.heappop(pending)
        sink._apply(t, ended, ds, dw)
    return sink.finish()  # type: ignore[no-any-return]


def _rec(owner: str, group: str | None, start: float, end: float | None, slots: int) -> UsageRecord:
    return UsageRecord(
        owner=owner, accounting_group=group, start=start, end=end, slots=slots, cpus=3
    )


@settings(max_examples=150, deadline=None)
@given(records=tied_records, half_life=st.sampled_from([0.0, DAY, 3600.0]))
@example(  # three ends at 0.75 day, two plans sharing group g: their order shows
    records=[
        _rec("carol", "g.carol", 0.0, DAY / 2, 1),
        UsageRecord(owner="bob", accounting_group="g.h.bob", start=0.0, end=0.75 * DAY, cpus=1),
        _rec("carol", "g.carol", 0.0, 0.75 * DAY, 2),
        _rec("carol", "g.carol", DAY / 2, None, 2),
        _rec("carol", "g.carol", DAY / 2, 0.75 * DAY, 2),
    ],
    half_life=DAY,
)
def test_pending_ends_in_the_order_of_one_heap_to_the_bit(
    records: list[UsageRecord], half_life: float
) -> None:
    """add_batch and add apply the events in the order of a heap of (end, record number):
    the same section, bit for bit (printed with repr, so that 0.0 and -0.0 differ), with
    ends at the same time as each other and as starts. Slot weights of a tenth of a CPU
    make the sums depend on their order."""
    records = sorted(records, key=lambda r: r.start)
    config = Config(
        pool=CONFIG.pool,
        accountant=AccountantConfig(priority_halflife=half_life),
        negotiator=NegotiatorConfig(use_slot_weights=True, slot_weight="Cpus * 0.1 + 0.2"),
        groups=CONFIG.groups,
    )
    expected = json.dumps(heap_replay(config, records))
    batched = AccountantReplay(config, None, NOW, rebuild=False)
    batched.add_batch(records)
    assert json.dumps(batched.finish()) == expected
    one = AccountantReplay(config, None, NOW, rebuild=False)
    for r in records:
        one.add(r)
    assert json.dumps(one.finish()) == expected


def test_begin_usage_time_is_the_next_pool_event() -> None:
    """Accountant::UpdatePriorities updates every record at each update, and
    UpdateOnePriority sets BeginUsageTime at the first that finds AccumulatedUsage > 0: the
    first event of the pool (any submitter's start or end) after the record's first match.
    a starts at 100 (until 1000), d at 100 too, b and c at 130, b ends at 200, c runs on.
    a and d: the event at 100 is their own match (Δt = 0 finds nothing); the next is 130:
    begin 130 (not a's end at 1000, not d's finish at --now). b and c: 200 (b's end). The
    group <none>, matched at 100: 130."""
    records = [
        UsageRecord(owner="a", start=100.0, end=1000.0),
        UsageRecord(owner="d", start=100.0, end=None),
        UsageRecord(owner="b", start=130.0, end=200.0),
        UsageRecord(owner="c", start=130.0, end=None),
    ]
    for presorted in (True, False):
        state = replay(records, presorted)
        begins = {n: r.begin_usage_time for n, r in state.records.items()}
        assert begins == {"a@d": 130.0, "d@d": 130.0, "b@d": 200.0, "c@d": 200.0,
                          "<none>": 130.0, "g": 0.0, "g.h": 0.0}  # fmt: skip
        batched = AccountantReplay(CONFIG, None, NOW, rebuild=False)
        batched.add_batch(records)
        assert acct.accountant_from_json(batched.finish()) == state


def test_a_stored_match_begins_at_the_first_event_after_it() -> None:
    """x@d was matched at 50 after the accountant's update there (a committed cycle's
    AddMatch: ResourcesUsed 1, BeginUsageTime 0, last update 50). The replayed record of a
    at 100 is the pool's next update: x's begin is 100 (UpdateOnePriority finds 1 x 50 s),
    though the replay never touches x's record otherwise."""
    x = acct.CustomerRecord(
        name="x@d", last_update=50.0, resources_used=1, weighted_resources_used=1.0
    )
    section = acct.accountant_to_json(acct.AccountantState(records={"x@d": x}))
    sink = AccountantReplay(CONFIG, section, NOW, rebuild=False)
    sink.add_batch([UsageRecord(owner="a", start=100.0, end=200.0)])
    state = acct.accountant_from_json(sink.finish())
    assert state.records["x@d"].begin_usage_time == 100.0
    assert state.records["x@d"].accumulated_usage == NOW - 50.0
    assert state.records["a@d"].begin_usage_time == 200.0


def _with_half_life(half_life: float) -> Config:
    """The test pool (CONFIG) with another half-life."""
    return Config(
        pool=CONFIG.pool,
        accountant=AccountantConfig(priority_halflife=half_life),
        groups=CONFIG.groups,
    )


@settings(max_examples=100, deadline=None)
@given(records=tied_records, half_life=st.sampled_from([0.0, DAY, 3600.0]))
def test_decay_factors_remembered_or_forgotten_are_decay_factor(
    records: list[UsageRecord], half_life: float
) -> None:
    """add_batch remembers each Δt's decay factor (``decay_factor``, β = 0.5 ** (Δt /
    half-life) of ``Accountant::UpdateOnePriority``), forgetting them all once it holds
    BETAS_KEPT: kept for the whole replay or forgotten at every second Δt, the section is
    the one add writes, bit for bit."""
    from fairshare_cli.core.htcondor import replay as replay_module

    records = sorted(records, key=lambda r: r.start)
    config = _with_half_life(half_life)
    one = AccountantReplay(config, None, NOW, rebuild=False)
    for r in records:
        one.add(r)
    expected = json.dumps(one.finish())
    for kept in (2, replay_module.BETAS_KEPT):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(replay_module, "BETAS_KEPT", kept)
            batched = AccountantReplay(config, None, NOW, rebuild=False)
            batched.add_batch(records)
            assert len(batched._betas) <= kept
            assert json.dumps(batched.finish()) == expected
