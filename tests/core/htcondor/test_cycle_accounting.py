"""Per-cycle accounting, hand-checked against Accountant.cpp's rules.

Half-life 100 s throughout, so one 100 s cycle halves: beta = 0.5.
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import AccountantConfig, Config, GroupSpec, PoolConfig
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.cycle_accounting import (
    CycleAccountant,
    add_match_at,
    change_matches_at,
    check_match_at,
    check_matches,
    check_partitionable_matches,
    remove_match_at,
    stays_put,
    update_priorities,
)
from fairshare_cli.core.htcondor.cycle_replay import CycleReplay
from fairshare_cli.core.htcondor.pool import priorities_at
from fairshare_cli.core.htcondor.replay import AccountantReplay
from fairshare_cli.core.usage import UsageRecord

H = 100.0


def cfg(**kw: object) -> Config:
    acc = AccountantConfig(priority_halflife=H, default_prio_factor=1.0)
    return Config(accountant=acc, pool=PoolConfig(uid_domain="d"), **kw)  # type: ignore[arg-type]


def test_match_made_inside_a_cycle_records_its_uncharged_time() -> None:
    """A match 40 s into the cycle at 0, updates at 100, 200, 300 (end at 150, seen at 200).

    AddMatch at 40 (LastUpdateTime 0): UnchargedTime = -40, ResourcesUsed = 1.
    Update at 100 (dt 100): recent = 1 + (-40)/100 = 0.6, P = 0.5*0.5 + 0.6*0.5 = 0.55,
    accumulated = 1*100 - 40 = 60, BeginUsageTime = 100 (first update with usage > 0),
    LastUsageTime = 100. The group <none> has HierWeightedResourcesUsed 1 > 0, which
    replaces its recent usage without the correction: P = 0.5*0.5 + 1*0.5 = 0.75; its
    accumulated usage has the correction: 60.
    The job ends at 150; the cycle at 200 updates first (still held: recent 1,
    P = 0.55*0.5 + 1*0.5 = 0.775, accumulated 160, last usage 200), then CheckMatches
    removes it with no uncharged time (200 - max(40, 200) = 0). At 300 nothing is held:
    P = 0.775*0.5 = 0.3875, clamped to 0.5; accumulated stays 160, last usage 200.
    """
    config = cfg()
    s = update_priorities(acct.EMPTY, config, 0.0)
    s = add_match_at(s, config, "u@d", 1.0, 40.0)
    assert s.records["u@d"].uncharged_time == -40.0
    s = update_priorities(s, config, 100.0)
    u, none = s.records["u@d"], s.records["<none>"]
    assert u.priority == pytest.approx(0.55)
    assert (u.accumulated_usage, u.begin_usage_time, u.last_usage_time) == (60.0, 100.0, 100.0)
    assert u.uncharged_time == 0.0
    assert none.priority == pytest.approx(0.75)
    assert none.accumulated_usage == 60.0
    s = update_priorities(s, config, 200.0)
    s = remove_match_at(s, config, "u@d", 1.0, 200.0, start=40.0)
    u = s.records["u@d"]
    assert u.priority == pytest.approx(0.775)
    assert (u.accumulated_usage, u.resources_used, u.uncharged_time) == (160.0, 0, 0.0)
    u = update_priorities(s, config, 300.0).records["u@d"]
    assert u.priority == 0.5
    assert (u.accumulated_usage, u.last_usage_time) == (160.0, 200.0)


def test_removal_between_updates_is_charged_exactly() -> None:
    """RemoveMatch at 70 (held since 0, last update 0): UnchargedTime += 70 - max(0, 0).

    Update at 100: recent = 0 + 70/100 = 0.7, P = 0.5*0.5 + 0.7*0.5 = 0.6, accumulated 70.
    """
    config = cfg()
    s = update_priorities(acct.EMPTY, config, 0.0)
    s = add_match_at(s, config, "u@d", 1.0, 0.0)
    s = remove_match_at(s, config, "u@d", 1.0, 70.0, start=0.0)
    u = update_priorities(s, config, 100.0).records["u@d"]
    assert u.priority == pytest.approx(0.6)
    assert u.accumulated_usage == 70.0


def test_edit_between_cycles_is_charged_over_the_whole_interval() -> None:
    """setprio 10 at 50 between the cycles at 0 and 100, two slots held since 0.

    HTCondor's SetPriority runs no update, so the update at 100 decays the edited value
    over the whole interval: P = 10*0.5 + 2*(1 - 0.5) = 6 (not 10*0.5**0.5 + 2*(1 -
    0.5**0.5) = 7.657..., which an update at the edit would give).
    """
    config = cfg()
    s = update_priorities(acct.EMPTY, config, 0.0)
    s = add_match_at(s, config, "u@d", 2.0, 0.0, slots=2)
    s = acct.set_priority(s, config, "u@d", 10.0, 50.0)
    assert s.records["u@d"].last_update == 0.0
    assert update_priorities(s, config, 100.0).records["u@d"].priority == pytest.approx(6.0)


def test_import_on_a_cycle_grid() -> None:
    """The first test's job as a history record: start 40, end 150, cycles every 100 s.

    On the grid: u@d P = 0.775, accumulated 160 s, begin 100, last usage 200 at now 200.
    The default (exact) replay charges 110 s: P after [40, 150] from 0.5 with one slot,
    then decay to 200: p150 = 1 - 0.5*0.5**1.1, p200 = max(p150*0.5**0.5, 0.5).
    """
    config = cfg()
    rec = UsageRecord(owner="u", start=40.0, end=150.0)
    grid = CycleReplay(config, None, 200.0, rebuild=False, cycle=100.0, cycle_start=0.0)
    grid.add(rec)
    u = acct.accountant_from_json(grid.finish()).records["u@d"]
    assert u.priority == pytest.approx(0.775)
    assert (u.accumulated_usage, u.begin_usage_time, u.last_usage_time) == (160.0, 100.0, 200.0)
    exact = AccountantReplay(config, None, 200.0, rebuild=False)
    exact.add(rec)
    e = acct.accountant_from_json(exact.finish()).records["u@d"]
    assert e.accumulated_usage == pytest.approx(110.0)
    p150 = 1 - 0.5 * 0.5**1.1
    assert e.priority == pytest.approx(max(p150 * 0.5**0.5, 0.5))


def test_import_grid_phase_and_group_without_correction() -> None:
    """Grid through 30 (cycles ..., 30, 130, 230); g.u@d starts at 80 with 2 slots, runs on.

    Match 50 s into the cycle at 30: UnchargedTime = -50 per slot, -100 in all. Update at
    130: the user: recent = 2 - 100/100 = 1, P = 0.5*0.5 + 1*0.5 = 0.75, accumulated
    2*100 - 100 = 100. The group g: subtree usage 2, no correction: P = 0.5*0.5 + 2*0.5 =
    1.25 (its accumulated usage is corrected: 100). now = 180 (between cycles): the final
    update over 50 s, beta = 0.5**0.5: P = 0.75*b + 2*(1 - b), accumulated 100 + 2*50 = 200.
    """
    config = cfg(groups={"g": GroupSpec(name="g")})
    grid = CycleReplay(config, None, 180.0, rebuild=False, cycle=100.0, cycle_start=30.0)
    grid.add(UsageRecord(owner="u", accounting_group="g.u", start=80.0, end=None, slots=2))
    recs = acct.accountant_from_json(grid.finish()).records
    b = 0.5**0.5
    assert recs["g.u@d"].priority == pytest.approx(0.75 * b + 2 * (1 - b))
    assert recs["g.u@d"].accumulated_usage == pytest.approx(200.0)
    assert recs["g"].priority == pytest.approx(1.25 * b + 2 * (1 - b))
    assert recs["g"].accumulated_usage == pytest.approx(200.0)


def test_factor_is_stored_on_first_write_and_kept() -> None:
    """GetPriorityFactor stores the factor it derives; later config changes leave it.

    Default factor 1 when u@d is first written (a match): stored 1. With the default
    raised to 5 the record keeps 1, a new record v@d gets 5, and after delete u@d is
    derived afresh: 5. An old record with no stored factor derives from today's config.
    """
    config = cfg()
    s = update_priorities(acct.EMPTY, config, 0.0)
    s = add_match_at(s, config, "u@d", 1.0, 0.0)
    assert s.records["u@d"].priority_factor == 1.0
    later = cfg()
    later = Config(
        accountant=AccountantConfig(priority_halflife=H, default_prio_factor=5.0),
        pool=later.pool,
    )
    tree = acct.GroupTree({})
    assert acct.priority_factor(s.records["u@d"], later, tree) == 1.0
    s = add_match_at(s, later, "v@d", 1.0, 0.0)
    assert s.records["v@d"].priority_factor == 5.0
    s = acct.delete(s, "u@d")
    assert acct.priority_factor(acct.CustomerRecord(name="u@d"), later, tree) == 5.0


def test_group_records_get_the_remote_factor_with_local_domains() -> None:
    """A group name has no domain, so with local_domains set it is not local.

    remote_prio_factor 1e4: group_a (no prio_factor) and <none> get 1e4; group_b with
    prio_factor 2 gets 2; a local user 1; a remote user 1e4. The group's effective
    priority is RUP x factor: 0.5 x 1e4 = 5000.
    """
    acc = AccountantConfig(priority_halflife=H, default_prio_factor=1.0, remote_prio_factor=1e4)
    config = Config(
        accountant=acc,
        pool=PoolConfig(uid_domain="d", local_domains=("d",)),
        groups={
            "group_a": GroupSpec(name="group_a"),
            "group_b": GroupSpec(name="group_b", prio_factor=2.0),
        },
    )
    tree = acct.GroupTree(config.groups)
    factors = {
        n: acct.derived_factor(n, config, tree)
        for n in ("group_a", "group_b", "<none>", "u@d", "x@else")
    }
    assert factors == {"group_a": 1e4, "group_b": 2.0, "<none>": 1e4, "u@d": 1.0, "x@else": 1e4}
    rec = acct.view(acct.EMPTY, config, 0.0)["group_a"]
    assert acct.effective_priority(rec, acct.priority_factor(rec, config, tree)) == 5000.0


def test_committed_cycle_sees_an_ended_claim() -> None:
    """apply_matches = UpdatePriorities, CheckMatches, then the matches.

    u@d's job 1.0 held slot1@m001 from 0 (cycle at 0); by the cycle at 100 it is no longer
    running. The update at 100 charges the whole interval (P = 0.5*0.5 + 1*0.5 = 0.75,
    accumulated 100), then CheckMatches removes the claim with nothing uncharged.
    """
    from fairshare_cli.core.htcondor.claims import NegotiatorState
    from fairshare_cli.core.htcondor.negotiator import Claim, CycleResult
    from fairshare_cli.core.jobs import Job
    from fairshare_cli.core.operations.negotiate import apply_matches

    config = cfg()
    s = update_priorities(acct.EMPTY, config, 0.0)
    s = add_match_at(s, config, "u@d", 1.0, 0.0)
    neg = NegotiatorState({"slot1@m001": Claim("slot1@m001", "u@d", "1.0", 0.0)})
    jobs = [Job(id="1.0", owner="u", status="completed")]
    empty = CycleResult([], [], [], [], 0.0, 0, 0, {}, {})
    _, s, neg = apply_matches(empty, jobs, s, neg, config, 100.0)
    u = s.records["u@d"]
    assert not neg.claims
    assert (u.resources_used, u.accumulated_usage, u.uncharged_time) == (0, 100.0, 0.0)
    assert u.priority == pytest.approx(0.75)


GRID = 100.0
on_grid = st.builds(
    lambda owner, start, length, slots, running: UsageRecord(
        owner=owner[0],
        accounting_group=owner[1],
        start=start * GRID,
        end=None if running else min(start + length, 40) * GRID,
        slots=slots,
    ),
    st.sampled_from([("alice", None), ("bob", "g.h.bob"), ("carol", "g.carol")]),
    st.integers(0, 39),
    st.integers(1, 10),
    st.integers(1, 4),
    st.booleans(),
)
GROUPS = {"g": GroupSpec("g", quota=10), "g.h": GroupSpec("g.h", quota=5)}


@settings(max_examples=60, deadline=None)
@given(st.lists(on_grid, min_size=1, max_size=10))
def test_grid_aligned_history_accounts_as_the_exact_replay(records: list[UsageRecord]) -> None:
    """Starts and ends on cycle times leave no uncharged time and no end waits for a later
    cycle, so per-cycle accounting charges exactly what the continuous replay charges; its
    priorities are stored with six decimals at each cycle a record is updated (the
    continuous replay's at ``now`` only), so they agree to 5e-7 a start or end."""
    config = cfg(groups=GROUPS)
    now = 40 * GRID
    grid = CycleReplay(config, None, now, rebuild=False, cycle=GRID)
    exact = AccountantReplay(config, None, now, rebuild=False, presorted=False)
    for r in sorted(records, key=lambda r: r.start):
        grid.add(r)
        exact.add(r)
    a = acct.accountant_from_json(grid.finish()).records
    b = acct.accountant_from_json(exact.finish()).records
    assert a.keys() == b.keys()
    for name in a:
        assert a[name].accumulated_usage == pytest.approx(b[name].accumulated_usage)
        slack = 5e-7 * (2 * len(records) + 1)
        assert a[name].priority == pytest.approx(b[name].priority, rel=1e-9, abs=slack)
        assert a[name].resources_used == b[name].resources_used


@settings(max_examples=60, deadline=None)
@given(st.lists(on_grid, min_size=1, max_size=10), st.floats(1.0, 99.0))
def test_off_grid_usage_is_charged_to_the_cycle_that_sees_the_end(
    records: list[UsageRecord], shift: float
) -> None:
    """Shift every record by ``shift`` seconds off the grid: a user's accumulated usage is
    then the sum over records of (first cycle at or after the end) - start, capped at now."""
    config = cfg()
    now = 45 * GRID
    grid = CycleReplay(config, None, now, rebuild=False, cycle=GRID)
    expected: dict[str, float] = {}
    for r in sorted(records, key=lambda r: r.start):
        moved = r._replace(accounting_group=None, start=r.start + shift)
        if r.end is not None:
            moved = moved._replace(end=r.end + shift)
        grid.add(moved)
        start_cycle = moved.start - shift
        seen = now if moved.end is None else max(moved.end - shift + GRID, start_cycle + GRID)
        name = f"{r.owner}@d"
        expected[name] = expected.get(name, 0.0) + moved.slots * (min(seen, now) - moved.start)
    got = acct.accountant_from_json(grid.finish()).records
    for name, usage in expected.items():
        assert got[name].accumulated_usage == pytest.approx(usage)


def test_a_record_starting_and_ending_at_now_on_a_cycle_charges_nothing() -> None:
    """start = end = now = a cycle time: the match and its end fall in one instant."""
    grid = CycleReplay(cfg(), None, 300.0, rebuild=False, cycle=100.0)
    grid.add(UsageRecord(owner="u", start=300.0, end=300.0))
    grid.add(UsageRecord(owner="v", start=250.0, end=300.0))
    records = acct.accountant_from_json(grid.finish()).records
    assert "u@d" not in records
    # v: match 50 s into the cycle at 200, end seen at 300: charged 300 - 250 = 50 s
    assert (records["v@d"].accumulated_usage, records["v@d"].resources_used) == (50.0, 0)


def test_none_counts_its_own_usage_as_subtree_usage() -> None:
    """AddMatch's subtree loop starts at the assigned group's name, <none> included, so
    <none>'s HierWeightedResourcesUsed equals its own weighted usage. An older state that
    stored 0 there is read that way: 10 slots held since 0, update at 100 (beta 0.5):
    P = 0.5*0.5 + 10*0.5 = 5.25; a new ungrouped match 40 s into the cycle adds 1 to both,
    and <none> (subtree usage, no correction) then follows 11."""
    raw = {
        "records": {
            "<none>": {
                "is_group": True,
                "last_update": 0.0,
                "resources_used": 10,
                "weighted_resources_used": 10.0,
            }
        }
    }
    config = cfg()
    s = acct.accountant_from_json(raw)
    assert s.records["<none>"].hier_weighted_resources_used == 10.0
    s = update_priorities(s, config, 100.0)
    assert s.records["<none>"].priority == pytest.approx(5.25)
    s = add_match_at(s, config, "u@d", 1.0, 140.0)
    none = update_priorities(s, config, 200.0).records["<none>"]
    assert none.priority == pytest.approx(5.25 * 0.5 + 11 * 0.5)


def test_check_matches_makes_the_counts_those_of_the_claims() -> None:
    """A stale ``condor_userprio -l`` (g.alice 8 slots, bob 3) beside the claims (g.alice 2
    of weight 1.5, nobody else): ``CheckResources`` counts records per customer, a group
    the records of the submitters assigned to it (``Accountant.cpp``). Afterwards g.alice
    and g hold 2 / 3.0, bob 0 / 0.0; the subtree usage and uncharged times are left as
    they were (no usage is charged for the correction)."""
    config = cfg(groups={"g": GroupSpec(name="g")})
    state = update_priorities(acct.AccountantState(records={}), config, 0.0)
    state = add_match_at(state, config, "g.alice@d", 8.0, 0.0, slots=8)
    state = add_match_at(state, config, "bob@d", 3.0, 0.0, slots=3)
    before = state.records
    fixed = check_matches(state, config, [("g.alice@d", 1.5), ("g.alice@d", 1.5)], 0.0)
    recs = fixed.records
    assert (recs["g.alice@d"].resources_used, recs["g.alice@d"].weighted_resources_used) == (
        2,
        3.0,
    )
    assert (recs["g"].resources_used, recs["g"].weighted_resources_used) == (2, 3.0)
    assert (recs["bob@d"].resources_used, recs["bob@d"].weighted_resources_used) == (0, 0.0)
    assert (recs["<none>"].resources_used, recs["<none>"].weighted_resources_used) == (0, 0.0)
    assert recs["g"].hier_weighted_resources_used == before["g"].hier_weighted_resources_used
    assert recs["bob@d"].uncharged_time == before["bob@d"].uncharged_time


def test_check_matches_leaves_an_agreeing_accountant_alone() -> None:
    config = cfg()
    state = add_match_at(acct.AccountantState(records={}), config, "a@d", 2.0, 0.0, slots=2)
    assert check_matches(state, config, [("a@d", 1.0), ("a@d", 1.0)], 0.0) is state


def test_check_matches_creates_the_record_of_a_claim_holder_without_one() -> None:
    """A claimed slot of a customer the accountant never saw: ``AddMatch`` creates it."""
    config = cfg()
    state = update_priorities(acct.AccountantState(records={}), config, 50.0)
    fixed = check_matches(state, config, [("new@d", 1.0)], 50.0)
    assert fixed.records["new@d"].resources_used == 1
    assert fixed.records["new@d"].last_update == 50.0


def test_check_match_at_reweighs_a_partitionable_match_at_the_next_cycle() -> None:
    """A 4-CPU job matched at 0 on a 16-CPU partitionable slot (SLOT_WEIGHT = Cpus), group g.

    matchmaker.cpp ``matchmakingProtocol`` calls ``AddMatch`` with the partitionable slot's
    ad: SlotWeight 16 on g.u@d and g (ResourcesUsed 1), HierWeightedResourcesUsed 16 on g.
    Update at 100 (dt 100, beta 0.5): P = 0.5*0.5 + 16*0.5 = 8.25, WeightedAccumulatedUsage
    16*100 = 1600. CheckMatches then removes the slot1@ record (unclaimed partitionable
    slot: ``CheckClaimedOrMatched`` is 0; StartTime 0 < LastUpdateTime 100, so 0 uncharged
    time) and adds the claimed slot1_1@ at its own SlotWeight 4 (100 - LastUpdateTime = 0):
    WeightedResourcesUsed 4, ResourcesUsed still 1, g's subtree usage 4.
    Update at 200: P = 8.25*0.5 + 4*0.5 = 6.125, usage 1600 + 4*100 = 2000 (2000 - 800 =
    (16 - 4) * 100 more than a slot held at its own weight from the start).
    """
    config = cfg(groups={"g": GroupSpec(name="g")})
    s = update_priorities(acct.EMPTY, config, 0.0)
    s = add_match_at(s, config, "g.u@d", 16.0, 0.0)
    s = update_priorities(s, config, 100.0)
    u = s.records["g.u@d"]
    assert (u.priority, u.weighted_accumulated_usage) == (8.25, 1600.0)
    s = check_match_at(s, config, "g.u@d", 16.0, 4.0, 100.0)
    u, g = s.records["g.u@d"], s.records["g"]
    assert (u.resources_used, u.weighted_resources_used) == (1, 4.0)
    assert (u.uncharged_time, u.weighted_uncharged_time) == (0.0, 0.0)
    assert (g.resources_used, g.weighted_resources_used, g.hier_weighted_resources_used) == (
        1,
        4.0,
        4.0,
    )
    s = update_priorities(s, config, 200.0)
    u, g = s.records["g.u@d"], s.records["g"]
    assert (u.priority, u.weighted_accumulated_usage, u.accumulated_usage) == (6.125, 2000.0, 200.0)
    assert (g.priority, g.weighted_accumulated_usage) == (6.125, 2000.0)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["a@d", "b@d"]), st.integers(1, 64), st.integers(0, 64)),
        max_size=6,
    )
)
def test_check_partitionable_matches_moves_weight_not_slots(
    matches: list[tuple[str, int, int]],
) -> None:
    """Re-weighting right after an update charges nothing and keeps the slot counts: each
    submitter's weighted use goes from Σ match cost to Σ own weight (own ≤ cost, as a
    dynamic slot is carved from its partitionable slot)."""
    config = cfg()
    s = update_priorities(acct.EMPTY, config, 0.0)
    for name, cost, _ in matches:
        s = add_match_at(s, config, name, float(cost), 0.0)
    s = update_priorities(s, config, 50.0)
    before = dict(s.records)
    pending = [(name, float(cost), float(min(own, cost))) for name, cost, own in matches]
    s = check_partitionable_matches(s, config, pending, 50.0)
    for name in ("a@d", "b@d"):
        if name not in before:
            continue
        own = sum(w for n, _, w in pending if n == name)
        rec = s.records[name]
        assert rec.resources_used == before[name].resources_used
        assert rec.weighted_resources_used == pytest.approx(own)
        assert rec.weighted_accumulated_usage == before[name].weighted_accumulated_usage
        assert rec.weighted_uncharged_time == 0.0


def _bits(state: acct.AccountantState) -> list[tuple[str, str]]:
    """Every record, in order, with each number as its repr (−0.0 is not 0.0 here)."""
    return [(n, repr(msgspec.structs.astuple(r))) for n, r in state.records.items()]


_GROUPED = {"g": GroupSpec(name="g"), "g.sub": GroupSpec(name="g.sub", prio_factor=2.0)}
_NAMES = ["u@d", "g.v@d", "g.sub.w@d", "new@d"]
_EVENT = st.tuples(
    st.sampled_from(["add", "remove", "check"]),
    st.sampled_from(_NAMES),
    st.sampled_from([0.0, 1.0, 2.5, 4.0]),
    st.integers(1, 3),
)


@settings(max_examples=120, deadline=None)
@given(
    groups=st.booleans(),
    start=st.floats(0.0, 50.0),
    cycles=st.lists(
        st.tuples(st.floats(1.0, 400.0), st.lists(_EVENT, max_size=4)), min_size=1, max_size=12
    ),
)
def test_cycle_accountant_is_the_eager_accountant(
    groups: bool, start: float, cycles: list[tuple[float, list[tuple[str, str, float, int]]]]
) -> None:
    """The accountant ``fs simulate`` keeps (records idle at the floor skipped by the update)
    equals every record updated every cycle, number for number, after every cycle: the
    update, then ends (``RemoveMatch`` at the cycle), ``CheckMatches`` re-weighing
    partitionable matches, and new matches. Gaps of up to 400 s on a 100 s half-life decay
    a record to the floor within a few cycles, so records enter and leave the skipped set."""
    config = cfg(groups=_GROUPED) if groups else cfg()
    seed = acct.CustomerRecord(
        name="u@d",
        priority=3.0,
        last_update=start,
        resources_used=1,
        weighted_resources_used=1.0,
        hier_weighted_resources_used=0.0,
    )
    eager = acct.AccountantState(records={"u@d": seed})
    live = CycleAccountant(eager, config)
    t = start
    for gap, events in cycles:
        t += gap
        eager = update_priorities(eager, config, t)
        live.update(t)
        for kind, name, weight, slots in events:
            if kind == "add":
                eager = add_match_at(eager, config, name, weight, t, slots)
                live.add_match(name, weight, t, slots)
            elif kind == "remove":
                eager = remove_match_at(eager, config, name, weight, t, t - gap / 2, slots)
                live.remove_match(name, weight, t, t - gap / 2, slots)
            else:
                matches = [(name, weight + 1.0, weight)] * slots
                eager = check_partitionable_matches(eager, config, matches, t)
                live.check_matches(matches, t)
        assert _bits(live.state()) == _bits(eager)
        names = [*_NAMES, "nobody@d", "<none>", "g"]
        for when in (t, t + gap / 3):  # as the cycle and the rows read them, and later
            prio, read = priorities_at(eager, config, when), live.priorities(when)
            assert [repr(read(n)) for n in names] == [repr(prio(n)) for n in names]
            want = [prio(n).effective_priority for n in names]
            assert repr(live.effective_priorities(names, when)) == repr(want)
        view = live.view()
        for n, rec in eager.records.items():  # a skipped record reads the same at t
            seen = acct.advance(view.records[n], t, H)
            assert repr(msgspec.structs.astuple(seen)) == repr(msgspec.structs.astuple(rec))


def test_cycle_accountant_skips_a_record_idle_at_the_floor() -> None:
    """A record at RUP 0.5 holding nothing is left alone by the update (its last update
    stays that of the update that left it there); one that still decays is updated. With
    a 100 s half-life, RUP 0.6 idle decays to 0.6·0.5 = 0.3, clamped to 0.5 at the first
    update (t = 100): from then on it stays put. State reads bring it to the last update."""
    config = cfg()
    rec = acct.CustomerRecord(name="u@d", priority=0.6, last_update=0.0)
    live = CycleAccountant(acct.AccountantState(records={"u@d": rec}), config)
    live.update(100.0)
    assert live.view().records["u@d"].priority == 0.5
    assert live.view().records["u@d"].last_update == 100.0
    live.update(200.0)
    assert live.view().records["u@d"].last_update == 100.0  # skipped
    assert live.state().records["u@d"].last_update == 200.0
    live.add_match("u@d", 1.0, 250.0)  # brought to 200, then AddMatch: −(250 − 200)
    assert live.view().records["u@d"].uncharged_time == -50.0
    live.update(300.0)  # held 50 s of 100: recent 0.5, P = 0.5·0.5 + 0.5·0.5 = 0.5, used
    assert live.view().records["u@d"].last_update == 300.0
    assert live.view().records["u@d"].resources_used == 1


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("priority", 0.5000001),
        ("resources_used", 1),
        ("weighted_resources_used", 0.5),
        ("hier_weighted_resources_used", 1.0),
        ("uncharged_time", -1.0),
        ("accumulated_usage", -0.0),
    ],
)
def test_a_record_that_the_next_update_changes_does_not_stay_put(field: str, value: object) -> None:
    rec = acct.CustomerRecord(name="u@d", priority=0.5, last_update=0.0)
    assert stays_put(rec)
    assert not stays_put(msgspec.structs.replace(rec, **{field: value}))
    waiting = msgspec.structs.replace(rec, accumulated_usage=10.0, begin_usage_time=0.0)
    assert not stays_put(waiting)  # the next update sets BeginUsageTime
    assert stays_put(msgspec.structs.replace(waiting, begin_usage_time=5.0))


def test_each_match_is_stored_with_six_decimals_in_turn() -> None:
    """``AddMatch`` adds the slot ad's ``SlotWeight`` (1/3, as evaluated) to the stored sum
    and writes the result with ``%f``: 0.333333, then 0.333333 + 0.3333333... = 0.6666663...
    stored 0.666666, then 0.9999993... stored 0.999999, on the submitter, on ``<none>`` and
    on ``<none>``'s subtree usage (one step of 1.0 would store 1.0). ``RemoveMatch`` takes
    back the resource record's ``SlotWeight`` as stored (0.333333): 0.666666, 0.333333, 0."""
    config = cfg()
    s = update_priorities(acct.AccountantState(records={}), config, 0.0)
    third = 1 / 3
    s = change_matches_at(s, config, [("a@d", third, None)] * 3, 0.0)
    for name in ("a@d", "<none>"):
        assert s.records[name].weighted_resources_used == 0.999999
        assert s.records[name].resources_used == 3
    assert s.records["<none>"].hier_weighted_resources_used == 0.999999
    seen = []
    for _ in range(3):
        s = change_matches_at(s, config, [("a@d", acct.as_stored(third), 0.0)], 0.0)
        seen.append(s.records["a@d"].weighted_resources_used)
    assert seen == [0.666666, 0.333333, 0.0]
    assert s.records["<none>"].hier_weighted_resources_used == 0.0


def test_a_factor_not_stored_yet_is_read_as_it_is_stored() -> None:
    """``GROUP_PRIO_FACTOR`` 1.2345678: ``GetPriorityFactor`` stores it as ``%f`` writes it,
    1.234568. The cycle's first read (``calculateNormalizationFactor``'s search for the
    largest EUP) returns 1.2345678, but that value cancels out of every share; every later
    read gets the stored one, so the negotiator's EUP of a new submitter is 0.5 x 1.234568
    = 0.617284 (not 0.6172839). ``fs userprio``, HTCondor's first read, keeps it unrounded."""
    config = cfg(groups={"group_a": GroupSpec(name="group_a", prio_factor=1.2345678)})
    read = priorities_at(acct.AccountantState(records={}), config, 0.0)("group_a.alice@d")
    assert read.effective_priority == 0.617284
    record = acct.CustomerRecord(name="group_a.alice@d")
    tree = acct.GroupTree(config.groups)
    assert acct.priority_factor(record, config, tree) == 1.2345678
