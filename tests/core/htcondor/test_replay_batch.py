"""A batch of the history replay applied record by record: the floats event by event gives."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import AccountantConfig, Config, GroupSpec, PoolConfig
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.replay import AccountantReplay
from fairshare_cli.core.htcondor.replay_batch import events_by_record
from fairshare_cli.core.usage import UsageRecord

DAY = 86400.0
CONFIG = Config(
    pool=PoolConfig(uid_domain="d"),
    accountant=AccountantConfig(priority_halflife=DAY),
    groups={"g": GroupSpec("g", quota=10), "g.h": GroupSpec("g.h", quota=5)},
)
NOW = 20 * DAY
NAMES = ["alice@d", "g.h.bob@d", "g.carol@d", "g", "g.h", "<none>"]
OWNERS = [("alice", None), ("bob", "g.h.bob"), ("carol", "g.carol")]


def _stored(**numbers: float) -> dict[str, object]:
    """An accountant section of every record of the pool, each updated at 0 with a begin
    time (none awaits one): ``numbers`` set on each."""
    records = {
        name: acct.CustomerRecord(
            name=name, is_group="@" not in name, last_update=0.0, begin_usage_time=-DAY
        )
        for name in NAMES
    }
    for rec in records.values():
        for key, value in numbers.items():
            setattr(rec, key, value)
    return acct.accountant_to_json(acct.AccountantState(records))


def _rec(who: int, start: float, end: float | None, slots: int = 1) -> UsageRecord:
    owner, group = OWNERS[who]
    return UsageRecord(owner=owner, accounting_group=group, start=start, end=end, slots=slots)


def test_a_record_by_hand() -> None:
    """alice (half-life a day, RUP 0.5, last updated at 0) runs 2 slots from day 1 to day 2;
    bob starts at day 3. By ``Accountant::UpdateOnePriority``: at day 1 nothing was in use
    (RUP stays 0.5); at day 2, β = 0.5: RUP 0.5·0.5 + 2·0.5 = 1.25, accumulated 2·86400;
    at day 3 (the end of the batch's events: bob's start), 1.25·0.5 + 0·0.5 = 0.625."""
    sink = AccountantReplay(CONFIG, _stored(), NOW, rebuild=False)
    sink.add_batch([_rec(0, DAY, 2 * DAY, slots=2), _rec(1, 3 * DAY, None)])
    alice = sink._replayed["alice@d"]
    assert (alice.priority, alice.accumulated_usage) == (1.25, 172800.0)
    assert (alice.last_update, alice.last_usage_time, alice.resources_used) == (2 * DAY, 2 * DAY, 0)
    none = sink._replayed["<none>"]  # alice's group: the same events, the same numbers
    assert (none.priority, none.hier_weighted_resources_used) == (1.25, 0.0)
    assert sink._replayed["g.h.bob@d"].resources_used == 1  # (its start, at day 3)


def test_a_group_runs_through_its_submitters_events_in_order() -> None:
    """g holds carol (her own usage) and g.h's bob (its hierarchical usage only): its
    events are both submitters', in time order, each with its plan's flags."""
    sink = AccountantReplay(CONFIG, _stored(), NOW, rebuild=False)
    carol, bob = sink._target("g.carol@d"), sink._target("g.h.bob@d")
    moves = [(DAY, carol, 1, 1.0), (1.5 * DAY, bob, 2, 2.0)]
    moves += [(2 * DAY, carol, -1, -1.0), (3 * DAY, bob, -2, -2.0)]
    records = events_by_record(moves, sink._plans)
    assert records is not None
    g = next(r for r in records if r[0] is sink._replayed["g"])
    assert g[1] == [0, 1, 2, 3]
    assert (g[2][carol], g[2][bob], g[3][carol], g[3][bob]) == (True, False, True, True)


def test_a_record_that_may_get_its_begin_time_goes_event_by_event() -> None:
    """A record never matched (no begin time) that an event gives slots: None."""
    sink = AccountantReplay(CONFIG, None, NOW, rebuild=False)
    alice = sink._target("alice@d")
    assert events_by_record([(DAY, alice, 1, 1.0)], sink._plans) is None


usage = st.floats(min_value=0.0, max_value=1e6)
tied_records = st.lists(
    st.builds(
        lambda who, start, length, slots, running: _rec(
            who, DAY + start, None if running else DAY + start + length, slots
        ),
        st.integers(0, 2),
        st.integers(0, 32).map(lambda k: k * 0.25 * DAY),  # ties: ends at starts
        st.integers(0, 8).map(lambda k: k * 0.25 * DAY),
        st.integers(0, 3),
        st.booleans(),
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(
    records=tied_records,
    cut=st.integers(0, 25),
    priority=st.floats(min_value=0.5, max_value=1e4),
    weighted=usage | st.just(0.0) | st.just(1e-10),
    accumulated=usage,
    half_life=st.sampled_from([0.0, DAY, 3600.0]),
)
def test_record_by_record_is_event_by_event_to_the_bit(
    records: list[UsageRecord],
    cut: int,
    priority: float,
    weighted: float,
    accumulated: float,
    half_life: float,
) -> None:
    """From stored records that all have a begin time, every batch goes record by record
    (``replay_batch.replay_record``, the inline copy of ``decay.update_one_priority``):
    the very section ``add`` writes record by record through ``update_one_priority``."""
    records = sorted(records, key=lambda r: r.start)
    stored = _stored(
        priority=priority,
        weighted_resources_used=weighted,
        hier_weighted_resources_used=weighted,
        accumulated_usage=accumulated,
    )
    config = Config(
        pool=CONFIG.pool,
        accountant=AccountantConfig(priority_halflife=half_life),
        groups=CONFIG.groups,
    )
    one = AccountantReplay(config, stored, NOW, rebuild=False)
    for r in records:
        one.add(r)
    batched = AccountantReplay(config, stored, NOW, rebuild=False)
    assert not batched.begins  # (every record has its begin time: none awaits it)
    batched.add_batch(records[:cut])
    batched.add_batch(records[cut:])
    assert json.dumps(batched.finish()) == json.dumps(one.finish())
