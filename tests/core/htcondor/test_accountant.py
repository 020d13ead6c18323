"""The accountant's numbers: the seeds' worked statements and hand-checked cases."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from fairshare_cli.core.config import AccountantConfig, Config, GroupSpec, PoolConfig
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.decay import awaits_begin, begin_at_update

DAY = 86400.0


def cfg(**kw: object) -> Config:
    return Config(accountant=AccountantConfig(priority_halflife=DAY), **kw)  # type: ignore[arg-type]


def rec(priority: float = 0.5, in_use: float = 0.0, t: float = 0.0) -> acct.CustomerRecord:
    return acct.CustomerRecord(
        name="u@d",
        priority=priority,
        last_update=t,
        resources_used=int(in_use),
        weighted_resources_used=in_use,
    )


def test_rup_halves_each_half_life_when_idle() -> None:
    """Seed: a user at RUP 10 who stops is at 5 one half-life later and 2.5 after two."""
    r = rec(priority=10.0)
    assert acct.advance(r, DAY, DAY).priority == pytest.approx(5.0, rel=1e-15)
    assert acct.advance(r, 2 * DAY, DAY).priority == pytest.approx(2.5, rel=1e-15)


def test_rup_of_100_is_50_then_25() -> None:
    """Seed (priorities-and-preemption): 100 → 50 after one day, 25 after two."""
    r = rec(priority=100.0)
    assert acct.advance(r, DAY, DAY).priority == pytest.approx(50.0)
    assert acct.advance(acct.advance(r, DAY, DAY), 2 * DAY, DAY).priority == pytest.approx(25.0)


def test_constant_usage_converges_to_slots_held() -> None:
    """Seed: a user continuously using ten resources stabilises at ten."""
    r = rec(priority=0.5, in_use=10)
    assert acct.advance(r, 60 * DAY, DAY).priority == pytest.approx(10.0, rel=1e-12)
    # one half-life in: halfway from 0.5 to 10
    assert acct.advance(r, DAY, DAY).priority == pytest.approx(0.5 + 9.5 / 2)


def test_new_user_starts_at_half() -> None:
    new = acct.CustomerRecord(name="new@d")
    assert acct.advance(new, 1000.0, DAY).priority == 0.5
    assert acct.effective_priority(new, 1.0) == 0.5


def test_effective_is_real_times_factor() -> None:
    r = rec(priority=3.0)
    assert acct.effective_priority(r, 4.0) == 12.0
    assert acct.effective_priority(rec(priority=0.1), 10.0) == 5.0  # read clamps RUP to 0.5


def test_half_life_zero_follows_usage_at_once() -> None:
    assert acct.advance(rec(priority=40.0, in_use=3), 1.0, 0.0).priority == 3.0
    assert acct.advance(rec(priority=40.0), 1.0, 0.0).priority == 0.5


def test_uneven_split_equals_one_step() -> None:
    r = rec(priority=7.0, in_use=3)
    one = acct.advance(r, 100000.0, DAY)
    many = r
    for t in (1.0, 17.5, 4000.0, 4001.0, 70000.0, 100000.0):
        many = acct.advance(many, t, DAY)
    assert many.priority == pytest.approx(one.priority, rel=1e-12)
    assert many.accumulated_usage == pytest.approx(one.accumulated_usage)
    assert one.accumulated_usage == 300000.0


def test_accumulated_usage_and_times() -> None:
    """Two slots held from 1000 to 4600: 2 x 3600 = 7200 slot-seconds.

    ``UpdateOnePriority`` sets BeginUsageTime to the update's own time T when the
    accumulated usage is above 0 and BeginUsageTime is 0: the update at 4600, not the start
    of the interval (1000). LastUsageTime is T when ResourcesUsed > 0: 4600.
    """
    r = rec(priority=0.5, in_use=2, t=1000.0)
    after = acct.advance(r, 4600.0, DAY)
    assert after.weighted_accumulated_usage == 7200.0
    assert after.begin_usage_time == 4600.0
    assert after.last_usage_time == 4600.0


def test_begin_usage_time_is_the_first_update_that_finds_usage() -> None:
    """Begin is set once, by the first update whose accumulated usage is above 0.

    Record idle at t=0 (no usage); update at 100: accumulated 0, begin stays 0. A slot is
    held from then; update at 250: accumulated 150 > 0, begin = 250. Update at 400:
    begin already set, stays 250 (accumulated 300).
    """
    r = rec(priority=0.5, in_use=0, t=0.0)
    r = acct.advance(r, 100.0, DAY)
    assert r.begin_usage_time == 0.0
    r = replace(r, resources_used=1, weighted_resources_used=1.0)
    r = acct.advance(r, 250.0, DAY)
    assert (r.begin_usage_time, r.accumulated_usage) == (250.0, 150.0)
    r = acct.advance(r, 400.0, DAY)
    assert (r.begin_usage_time, r.accumulated_usage) == (250.0, 300.0)


def test_clock_going_back_changes_nothing_but_time() -> None:
    r = rec(priority=9.0, in_use=1, t=500.0)
    back = acct.advance(r, 100.0, DAY)
    assert back.priority == 9.0
    assert back.last_update == 100.0


def test_factor_precedence() -> None:
    config = Config(
        pool=PoolConfig(uid_domain="example.org", local_domains=("example.org",)),
        accountant=AccountantConfig(
            default_prio_factor=1.0, nice_user_prio_factor=1e7, remote_prio_factor=1e4
        ),
        groups={
            "group_a": GroupSpec("group_a", quota=1, prio_factor=3.0),
            "group_a.sub": GroupSpec("group_a.sub", quota=1),
        },
    )
    tree = acct.GroupTree(config.groups)

    def f(name: str, explicit: float | None = None) -> float:
        return acct.priority_factor(
            acct.CustomerRecord(name=name, priority_factor=explicit), config, tree
        )

    assert f("alice@example.org") == 1.0
    assert f("alice@remote.net") == 1e4
    assert f("nice-user.alice@example.org") == 1e7
    assert f("group_a.alice@example.org") == 3.0
    assert f("group_a.alice@remote.net") == 3.0  # group factor beats remote
    assert f("group_a.sub.bob@example.org") == 1.0  # only the deepest group's knob counts
    assert f("alice@remote.net", explicit=2.0) == 2.0
    assert f("alice@example.org", explicit=0.5) == 1.0  # stored below 1 counts as 1


def test_group_mapping() -> None:
    tree = acct.GroupTree({"g": GroupSpec("g"), "g.h": GroupSpec("g.h")})
    assert tree.group_of("g.h.alice@d") == "g.h"
    assert tree.group_of("G.H.alice@d") == "g.h"
    assert tree.group_of("g.x.alice@d") == "g"
    assert tree.group_of("g.alice@d") == "g"
    assert tree.group_of("alice@d") == "<none>"
    assert tree.group_of("nope.alice@d") == "<none>"
    assert tree.group_of("g.h") == "g.h"
    assert tree.ancestors("g.h") == ["g.h", "g"]


def test_match_bookkeeping_charges_groups() -> None:
    config = cfg(groups={"g": GroupSpec("g"), "g.h": GroupSpec("g.h")})
    s = acct.add_match(acct.EMPTY, config, "g.h.alice@d", 4.0, 0.0)
    r = s.records
    assert r["g.h.alice@d"].weighted_resources_used == 4.0
    assert r["g.h"].weighted_resources_used == 4.0
    assert r["g.h"].hier_weighted_resources_used == 4.0
    assert r["g"].weighted_resources_used == 0.0
    assert r["g"].hier_weighted_resources_used == 4.0
    later = acct.view(s, config, 100 * DAY)
    assert later["g"].priority == pytest.approx(4.0)  # parent decays on its subtree's usage
    s2 = acct.remove_match(s, config, "g.h.alice@d", 4.0, DAY)
    assert s2.records["g.h"].hier_weighted_resources_used == 0.0
    assert s2.records["g.h.alice@d"].weighted_accumulated_usage == 4 * DAY


def test_reset_usage_keeps_priority() -> None:
    """``ResetAccumulatedUsage`` writes 0, 0 and BeginUsageTime = now, and runs no update.

    Two slots from t=0 (last update 0); reset at DAY: the stored RUP is still 0.5 and the
    accumulated usage 0. The next update (a view at DAY) charges the whole interval since
    the last update, as HTCondor's next cycle would: RUP = 0.5·0.5 + 2·(1 − 0.5) = 1.25 and
    accumulated usage 0 + 2·DAY; begin stays DAY (already set).
    """
    config = cfg()
    s = acct.add_match(acct.EMPTY, config, "u@d", 2.0, 0.0, slots=2)
    s = acct.reset_usage(s, config, ["u@d"], DAY)
    r = s.records["u@d"]
    assert r.weighted_accumulated_usage == 0.0
    assert r.begin_usage_time == DAY
    assert r.priority == 0.5
    seen = acct.view(s, config, DAY)["u@d"]
    assert seen.priority == pytest.approx(0.5 * 0.5 + 2 * 0.5)
    assert seen.weighted_accumulated_usage == 2 * DAY
    assert seen.begin_usage_time == DAY


def test_json_round_trip() -> None:
    config = cfg()
    s = acct.add_match(acct.EMPTY, config, "u@d", 2.0, 10.0, slots=2)
    s = acct.set_factor(s, config, "u@d", 3.0, 20.0)
    back = acct.accountant_from_json(acct.accountant_to_json(s))
    assert back.records == s.records


usage = st.floats(min_value=0, max_value=1e4, allow_nan=False)
prio = st.floats(min_value=0.5, max_value=1e6, allow_nan=False)
dts = st.lists(st.floats(min_value=0.001, max_value=1e7, allow_nan=False), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(p=prio, dt=st.floats(min_value=0, max_value=1e8), h=st.floats(min_value=0, max_value=1e7))
def test_idle_decay_never_raises_priority(p: float, dt: float, h: float) -> None:
    """From a priority as the accountant stores it (six decimals), decay never rounds up
    past it."""
    p = acct.as_stored(p)
    after = acct.advance(rec(priority=p), dt, h)
    assert 0.5 <= after.priority <= p


@settings(max_examples=200, deadline=None)
@given(p=prio, u=usage, steps=dts)
def test_priority_stays_between_start_and_usage(p: float, u: float, steps: list[float]) -> None:
    r = rec(priority=p, in_use=u)
    t = 0.0
    for dt in steps:
        t += dt
        r = acct.advance(r, t, DAY)
        assert r.priority >= 0.5  # (stored with six decimals: within 5e-7 of the bounds)
        assert min(p, max(u, 0.5)) - 1e-9 * max(p, u) - 5e-7 <= r.priority
        assert r.priority <= max(p, u) * (1 + 1e-12) + 5e-7


@settings(max_examples=100, deadline=None)
@given(p=prio, u=usage, steps=dts)
def test_steps_compose(p: float, u: float, steps: list[float]) -> None:
    r = rec(priority=p, in_use=u)
    t = 0.0
    for dt in steps:
        t += dt
        r = acct.advance(r, t, DAY)
    one = acct.advance(rec(priority=p, in_use=u), t, DAY)
    # (each update stores six decimals: at most 5e-7 off a step, decayed since)
    assert math.isclose(r.priority, one.priority, rel_tol=1e-9, abs_tol=5e-7 * (len(steps) + 1))


def _one_change(
    state: acct.AccountantState, config: Config, name: str, weight: float, slots: int, now: float
) -> acct.AccountantState:
    """``AddMatch``/``RemoveMatch`` as one step: every touched record copied and brought up
    to ``now``, then its use changed, clamped and stored with six decimals; every other
    record that awaits its begin time given it (the update of the pool at ``now``): the
    reference for change_uses."""
    tree = acct.GroupTree(config.groups)
    group, hier = acct.charge_targets(name, tree)
    records = acct.all_records(state, config)
    touched = [name, group, *[g for g in hier if g != group]]
    for n, r in records.items():
        if n not in touched and awaits_begin(r):
            records[n] = replace(r, begin_usage_time=begin_at_update(r, now))
    for n in touched:
        r = acct.advance(records.get(n) or acct.CustomerRecord(n, is_group="@" not in n), now, DAY)
        if n in (name, group):
            w = r.weighted_resources_used + weight
            r = replace(
                r,
                resources_used=max(r.resources_used + slots, 0),
                weighted_resources_used=acct.as_stored(w) if w > 0 else 0.0,
            )
        if n in hier:
            hw = r.hier_weighted_resources_used + weight
            r = replace(r, hier_weighted_resources_used=acct.as_stored(hw) if hw > 0 else 0.0)
        records[n] = r
    return acct.AccountantState(records=acct.store_factors(records, config))


@settings(max_examples=150, deadline=None)
@given(
    start=st.lists(
        st.tuples(
            st.sampled_from(["alice@d", "g.h.bob@d", "g.carol@d", "g.x.dave@d"]),
            st.floats(0.0, 8.0),
            st.integers(0, 3),
        ),
        max_size=6,
    ),
    changes=st.lists(
        st.tuples(
            st.sampled_from(["alice@d", "g.h.bob@d", "g.carol@d", "eve@d", "g.h"]),
            st.floats(-6.0, 6.0),
            st.integers(-4, 4),
        ),
        max_size=12,
    ),
    later=st.sampled_from([0.0, 0.5, DAY]),
)
def test_change_uses_is_one_change_at_a_time_to_the_bit(
    start: list[tuple[str, float, int]], changes: list[tuple[str, float, int]], later: float
) -> None:
    """change_uses (one copy of the records, each advanced once) writes what one
    ``AddMatch``/``RemoveMatch`` after another writes: the same floats, bit for bit, with
    records new and stored, clamps at 0, and changes at the state's time or later."""
    config = cfg(groups={"g": GroupSpec("g"), "g.h": GroupSpec("g.h")})
    state = acct.EMPTY
    for name, weight, slots in start:  # a stored state at t = DAY
        state = _one_change(state, config, name, weight, slots, DAY)
    now = DAY + later
    one = state
    for name, weight, slots in changes:
        one = _one_change(one, config, name, weight, slots, now)
    batched = acct.change_uses(state, config, changes, now) if changes else state
    assert json.dumps(acct.accountant_to_json(batched)) == json.dumps(acct.accountant_to_json(one))


def test_replay_start_keeps_only_what_an_admin_set() -> None:
    """``--rebuild`` starts from the stored records with their usage forgotten: the
    group flag, factor, floor and ceiling kept (edits an admin made), every usage, time
    and priority back to a fresh record's; without it the section as stored."""
    stored = acct.CustomerRecord(
        name="u@d",
        is_group=False,
        priority=812.5,
        last_update=1000.0,
        priority_factor=250.0,
        resources_used=4,
        weighted_resources_used=4.0,
        accumulated_usage=3600.0,
        begin_usage_time=10.0,
        last_usage_time=900.0,
        floor=2,
        ceiling=40,
    )
    group = acct.CustomerRecord(name="group_a", is_group=True, priority_factor=10.0)
    section = acct.accountant_to_json(acct.AccountantState({"u@d": stored, "group_a": group}))
    assert acct.replay_start(section, rebuild=False).records["u@d"] == stored
    fresh = acct.replay_start(section, rebuild=True).records
    assert fresh["u@d"] == acct.CustomerRecord(
        name="u@d", priority_factor=250.0, floor=2, ceiling=40
    )
    assert fresh["group_a"] == acct.CustomerRecord(
        name="group_a", is_group=True, priority_factor=10.0
    )


def _behind(in_use: float = 0.0) -> tuple[acct.AccountantState, Config]:
    """a@d last updated at 0 (RUP 10, ``in_use`` slots); b@d at 100: the accountant's
    LastUpdateTime is 100. Half-life 100 s."""
    config = Config(accountant=AccountantConfig(priority_halflife=100.0))
    a = replace(rec(priority=10.0, in_use=in_use, t=0.0), name="a@d")
    b = replace(rec(t=100.0), name="b@d")
    return acct.AccountantState(records={"a@d": a, "b@d": b}), config


def test_an_edit_decays_from_the_accountants_last_update() -> None:
    """In HTCondor every record sits at the accountant's LastUpdateTime (UpdatePriorities
    updates them all); SetPriority writes the value there, and the next update decays it
    from there. -setprio a@d 50 at 200: a view at 200 gives 50 x 0.5**((200 - 100) / 100)
    = 25, not 50 x 0.5**(200 / 100) = 12.5 from a's own last update at 0."""
    s, config = _behind()
    s = acct.set_priority(s, config, "a@d", 50.0, 200.0)
    assert s.records["a@d"].last_update == 100.0
    assert acct.view(s, config, 200.0)["a@d"].priority == 25.0


def test_setaccum_of_a_record_behind_is_charged_from_the_last_update() -> None:
    """SetAccumUsage writes WeightedAccumulatedUsage only. a@d holds 2 slots since 0; the
    accountant's update at 100 charged it 2 x 100; -setaccum 1000 at 200 overwrites that;
    the update at 200 adds 2 x (200 - 100): 1200 (not 1000 + 2 x 200 = 1400). The unweighted
    AccumulatedUsage is 2 x 200 = 400 either way."""
    s, config = _behind(in_use=2)
    s = acct.set_accumulated(s, config, "a@d", 1000.0, 200.0)
    seen = acct.view(s, config, 200.0)["a@d"]
    assert (seen.weighted_accumulated_usage, seen.accumulated_usage) == (1200.0, 400.0)


def test_resetusage_of_a_record_behind_charges_from_the_last_update() -> None:
    """ResetAccumulatedUsage writes 0 and BeginUsageTime = time(0) (150) into the record the
    update at 100 left; the update at 200 adds ResourcesUsed x TimePassed = 2 x 100 = 200
    (not 2 x 200 = 400 from a's own last update); begin stays 150. The RUP is the one a
    steady 2 slots give from 10: 2 + 8 x 0.5**2 = 4."""
    s, config = _behind(in_use=2)
    s = acct.reset_usage(s, config, ["a@d"], 150.0)
    seen = acct.view(s, config, 200.0)["a@d"]
    assert (seen.accumulated_usage, seen.begin_usage_time) == (200.0, 150.0)
    assert seen.priority == pytest.approx(2 + 8 * 0.25)


@settings(max_examples=200, deadline=None)
@given(
    st.floats(min_value=0.0, max_value=1e6),
    st.floats(min_value=0.0, max_value=1e6),
    st.floats(min_value=0.5, max_value=1e6),
)
def test_a_setprio_decays_from_the_last_update_only(lag: float, later: float, p: float) -> None:
    """Whatever a record's own last update, after -setprio P its RUP at the accountant's
    last update L plus Δ is max(P, 0.5) x 0.5**(Δ / h) (idle: UpdateOnePriority's decay),
    P as sent (``as_sent``) and the result each stored with six decimals."""
    config = Config(accountant=AccountantConfig(priority_halflife=DAY))
    old = replace(rec(priority=7.0, t=1e6 - lag), name="a@d")
    s = acct.AccountantState(records={"a@d": old, "b@d": replace(rec(t=1e6), name="b@d")})
    s = acct.set_priority(s, config, "a@d", p, 1e6 + later)
    seen = acct.view(s, config, 1e6 + later)["a@d"]
    stored = acct.as_stored(acct.as_sent(p))
    decayed = max(stored * 0.5 ** (later / DAY), 0.5)
    expected = stored if decayed == max(stored, 0.5) else acct.as_stored(decayed)
    assert seen.priority == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("value", "received", "stored"),
    [
        # 10000 = 0.6103515625 * 2**14; 0.6103515625 * 2147483647 = 1310719999.389...,
        # cut to 1310719999: 10000 * 1310719999 / 1310719999.389... = 9999.99999665...
        pytest.param(10000.0, 1310719999 / 2147483647 * 2**14, 9999.999997, id="setfactor-10000"),
        # 2048 = 0.5 * 2**12; 1073741823.5 cut to 1073741823: 2048 - 2048 / 2147483647
        pytest.param(2048.0, 2048 - 2048 / 2147483647, 2047.999999, id="setprio-2048"),
        # 360000 = 0.6866455078125 * 2**19; 1474559999.313... cut to 1474559999:
        # 360000 * (1 - 0.3133544921875 / 1474559999.313...) = 359999.99992349...
        pytest.param(360000.0, 1474559999 / 2147483647 * 2**19, 359999.999923, id="setaccum"),
        # 3.1234567 = 0.780864175 * 2**2: within 2**2 / 2**31 of it, stored as before
        pytest.param(3.1234567, 1676893046 / 2147483647 * 4, 3.123457, id="small-values-keep"),
        pytest.param(0.0, 0.0, 0.0, id="zero"),
    ],
)
def test_an_edit_is_stored_as_cedar_sends_it(value: float, received: float, stored: float) -> None:
    """``condor_userprio -setprio/-setfactor/-setaccum`` send their double with
    ``Stream::put(double)``: ``(int)(frexp(d) * 2147483647)`` and the exponent, which
    ``Stream::get(double)`` turns back with ``ldexp(frac / 2147483647.0, exp)``; the
    accountant then writes it with ``%f``. Each received value is worked out by hand."""
    assert acct.as_sent(value) == received
    assert acct.as_stored(acct.as_sent(value)) == stored


def test_setfactor_stores_what_arrived() -> None:
    """``-setfactor 10000`` arrives as 9999.99999665... and is stored 9999.999997; ``-setfactor
    1`` arrives as 1 - 1/2147483647, below ``MIN_PRIORITY_FACTOR``, which
    ``SetPriorityFactor`` stores as 1."""
    config = Config(accountant=AccountantConfig(priority_halflife=DAY))
    s = acct.set_factor(acct.AccountantState(records={}), config, "a@d", 10000.0, 1e6)
    assert s.records["a@d"].priority_factor == 9999.999997
    s = acct.set_factor(s, config, "a@d", 1.0, 1e6)
    assert s.records["a@d"].priority_factor == 1.0
