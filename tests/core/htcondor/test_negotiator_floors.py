"""Submitter floors and ceilings in a negotiation cycle (``matchmaker.cpp``, HTCondor 25.0).

The rules, read from ``Matchmaker::negotiationTime``, ``findBelowFloorSubmitters``,
``negotiateWithGroup``, ``calculateSubmitterLimit`` and ``negotiate``:

- Floor round: before the pool's (or each group's) pie spins, the submitters whose
  ``Floor`` is above 0 and whose weighted usage is below it negotiate alone, in one spin
  (the ``do ... while`` ends on ``isFloorRound``). The normalization and the pie are theirs
  alone; each one's limit is ``min(Floor, limit)`` — the floor itself, not what is left of
  it; the full round that follows starts from the usage the floor round left.
- Ceiling: ``submitterCeiling = Ceiling - (int) WeightedResourcesUsed`` (``-1`` = INT_MAX),
  at least 0; a turn with no headroom (or less than the smallest slot weight) is skipped
  and the submitter is done for the cycle (``MM_DONE``); within a turn, matching stops once
  the slots matched in it reach the headroom (``MM_RESUME``: the next spin finds no
  headroom and drops it).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from negotiation_helpers import (
    CURRENT,
    LEGACY,
    NOW,
    J,
    jobs,
    matched_per_submitter,
    pool,
    run,
)

from fairshare_cli.core.htcondor.groups import GroupConfig, build_group_tree
from fairshare_cli.core.htcondor.negotiator import Claim

ALICE, BOB = "alice@example.org", "bob@example.org"
PRIOS = {BOB: 1.5}  # alice at EUP 0.5


def _queue() -> list[J]:
    return jobs("alice", 4, 1) + jobs("bob", 4, 2)


def test_without_floor_or_ceiling_the_pie_decides() -> None:
    """4 slots; alice EUP 0.5, bob EUP 1.5, 4 idle jobs each. Spin 1: max 1.5, normal
    1.5/0.5 + 1.5/1.5 = 4; alice's share 1.5/(0.5·4) = 0.75 → limit 3, bob's 0.25 → 1.
    alice (better EUP) goes first: alice 3, bob 1."""
    result = run(pool(4), _queue(), prios=PRIOS)
    assert matched_per_submitter(result) == {ALICE: 3, BOB: 1}


def test_a_submitter_below_its_floor_is_served_first_up_to_it() -> None:
    """bob has floor 3, uses 0 < 3: the floor round has bob alone (max 1.5, normal 1,
    share 1, limit 4 − 0 = 4, capped at the floor: 3) and bob takes 3 slots before alice
    negotiates. The full round: alice's limit 3, bob's 0.25·4 − 3 < 0 → 0; one slot is
    left and alice takes it: bob 3, alice 1 (the reverse of the pie alone)."""
    result = run(pool(4), _queue(), prios=PRIOS, floors={BOB: 3})
    assert [m.submitter for m in result.matches] == [BOB, BOB, BOB, ALICE]


def test_a_floor_the_submitter_already_reaches_gives_no_floor_round() -> None:
    """bob holds 3 claimed slots with floor 3: usage 3 is not below it, so no floor round;
    the 3 free slots go by the pie: normal 4 over a pool of 6, alice's limit 0.75·6 = 4.5,
    bob's 0.25·6 − 3 < 0: alice takes all 3."""
    claims = [Claim(f"slot1@exec00{i}", BOB, f"9.{i}", NOW - 60) for i in (1, 2, 3)]
    queue = [J(f"9.{i}", "bob", status="running") for i in (1, 2, 3)] + _queue()
    result = run(pool(6), queue, prios=PRIOS, usage={BOB: 3.0}, claims=claims, floors={BOB: 3})
    assert matched_per_submitter(result) == {ALICE: 3}


def test_the_floor_round_limit_is_the_floor_not_what_is_left_of_it() -> None:
    """Pool of 6; bob holds 1 (usage 1 < floor 3). Floor round: bob alone, share 1,
    limit 6 − 1 = 5, capped at the floor 3 — not at 3 − 1 = 2 — so bob takes 3 new slots
    (4 in use, past its floor). Full round: 2 free slots; alice's limit 0.75·6 = 4.5, bob's
    0.25·6 − 4 < 0: alice takes both. A floor net of usage would give bob 2 and alice 3."""
    claims = [Claim("slot1@exec001", BOB, "9.0", NOW - 60)]
    queue = [J("9.0", "bob", status="running"), *jobs("alice", 5, 1), *jobs("bob", 5, 2)]
    result = run(pool(6), queue, prios=PRIOS, usage={BOB: 1.0}, claims=claims, floors={BOB: 3})
    assert [m.submitter for m in result.matches] == [BOB, BOB, BOB, ALICE, ALICE]


def test_the_floor_round_shares_among_the_submitters_below_their_floors() -> None:
    """Pool of 4; alice (EUP 0.5) and bob (EUP 1.5) both have floor 3. The floor round has
    both: normal 4, alice's limit 3 (min(3, 3)), bob's min(3, 1) = 1; one spin only, so
    after alice 3 and bob 1 the round ends and the full round finds the pool used up."""
    result = run(pool(4), _queue(), prios=PRIOS, floors={ALICE: 3, BOB: 3})
    assert [m.submitter for m in result.matches] == [ALICE, ALICE, ALICE, BOB]


def test_a_ceiling_caps_matches_and_the_rest_goes_to_the_others() -> None:
    """alice's ceiling 2: spin 1 alice stops at 2 (headroom 2 − 0), bob takes his limit 1.
    Spin 2 (normal 4 again): alice's headroom 2 − 2 = 0, skipped and done; bob's limit
    1 − 1 = 0, resumes. Spin 3 without alice: bob's share 1, limit 4 − 1 = 3, and he
    takes the last slot: alice 2, bob 2; alice's 2 others wait for her ceiling."""
    result = run(pool(4), _queue(), prios=PRIOS, ceilings={ALICE: 2})
    assert matched_per_submitter(result) == {ALICE: 2, BOB: 2}
    reasons = {(u.submitter, u.reason): u.count for u in result.unmatched}
    assert reasons[(ALICE, "ceiling")] == 2


def test_a_ceiling_already_reached_gets_no_turn() -> None:
    """alice holds 2 slots with ceiling 2: headroom 0, her turn is skipped; bob takes the
    2 free slots (his limit in spin 1: normal 4, 0.25·4 = 1; spin 2 without alice:
    share 1, 4 − 1 = 3)."""
    claims = [Claim(f"slot1@exec00{i}", ALICE, f"9.{i}", NOW - 60) for i in (1, 2)]
    queue = [J(f"9.{i}", "alice", status="running") for i in (1, 2)] + _queue()
    result = run(
        pool(4), queue, prios=PRIOS, usage={ALICE: 2.0}, claims=claims, ceilings={ALICE: 2}
    )
    assert matched_per_submitter(result) == {BOB: 2}


def test_ceiling_zero_stops_a_submitter_and_minus_one_is_unlimited() -> None:
    """Ceiling 0: no headroom, alice never negotiates and bob's spins take all 4 slots.
    Ceiling -1 (the default) is INT_MAX: the plain pie, alice 3 and bob 1."""
    stopped = run(pool(4), _queue(), prios=PRIOS, ceilings={ALICE: 0})
    assert matched_per_submitter(stopped) == {BOB: 4}
    unlimited = run(pool(4), _queue(), prios=PRIOS, ceilings={ALICE: -1})
    assert matched_per_submitter(unlimited) == {ALICE: 3, BOB: 1}


def test_a_floor_above_the_ceiling_stops_at_the_ceiling() -> None:
    """bob: floor 3, ceiling 2. The floor round's limit is 3 but the headroom is 2: bob
    takes 2 and is done; the full round skips him (headroom 0) and alice takes 2."""
    result = run(pool(4), _queue(), prios=PRIOS, floors={BOB: 3}, ceilings={BOB: 2})
    assert [m.submitter for m in result.matches] == [BOB, BOB, ALICE, ALICE]


def test_without_preemption_the_floor_round_drops_submitters_without_idle_jobs() -> None:
    """Pool of 4; carol (EUP 0.5, floor 5) runs 1 job on exec001 and has no idle one; bob
    (EUP 1.5, floor 3) and alice (EUP 0.5, no floor) have 4 idle jobs each.

    Preemption on: the floor round normalizes over bob and carol (max 1.5, normal
    1 + 3 = 4): bob's limit min(3, 0.25·4) = 1, he takes 1. Full round, spin 1 (normal
    3 + 1 + 3 = 7): alice 1.5/(0.5·7)·4 = 1.71 → 1 match, bob 0.57 − 1 → 0, carol done;
    spin 2 without carol (normal 4): alice 0.75·4 − 1 = 2, the last free slot: alice 2,
    bob 1.

    ``NEGOTIATOR_CONSIDER_PREEMPTION = False``: ``filter_submitters_no_idle`` drops carol
    before the normalization, so bob is alone (share 1, limit min(3, 4 − 0) = 3) and takes
    the 3 free slots; the pool stays 4 (untrimmed) and alice finds it used up."""
    carol = "carol@example.org"
    claims = [Claim("slot1@exec001", carol, "9.0", NOW - 60)]
    queue = [J("9.0", "carol", status="running"), *_queue()]
    kw: dict[str, Any] = {
        "prios": {BOB: 1.5, carol: 0.5},
        "usage": {carol: 1.0},
        "claims": claims,
        "floors": {BOB: 3, carol: 5},
    }
    on = run(pool(4), queue, **kw)
    assert [m.submitter for m in on.matches] == [BOB, ALICE, ALICE]
    off = run(pool(4), queue, knobs=replace(LEGACY, consider_preemption=False), **kw)
    assert [m.submitter for m in off.matches] == [BOB, BOB, BOB]
    assert off.pool_size == 4


def test_with_group_quotas_each_group_has_its_floor_round() -> None:
    """group_a (quota 4) holds x (EUP 0.5) and y (EUP 1.5, floor 3), 4 jobs each; pool 4.
    The group negotiates for 4: without the floor its pie (normal 4, slot weight total
    min(4, 4)) gives x 3 and y 1; with it, the group's floor round (``findBelowFloor
    Submitters`` over the group's submitters) gives y min(3, 4) = 3 first and x the last."""
    tree = build_group_tree([GroupConfig("group_a", quota=4)])
    x, y = "group_a.x@example.org", "group_a.y@example.org"
    queue = jobs("x", 4, 1, accounting_group="group_a.x") + jobs(
        "y", 4, 2, accounting_group="group_a.y"
    )
    plain = run(pool(4), queue, prios={y: 1.5}, tree=tree)
    assert matched_per_submitter(plain) == {x: 3, y: 1}
    floored = run(pool(4), queue, prios={y: 1.5}, tree=tree, floors={y: 3})
    assert [m.submitter for m in floored.matches] == [y, y, y, x]


def test_with_slot_weights_the_floor_caps_the_turn_not_the_unclaimed_test() -> None:
    """Slot weights on, 4 slots of 4 CPUs (weight 4 each, pool 16); alice EUP 1.5 with floor
    6, bob EUP 0.5, 4 jobs each. ``calculateSubmitterLimit`` caps ``submitterLimit`` at the
    floor after it has set ``submitterLimitUnclaimed``, and ``matchmakingAlgorithm`` tests
    an unclaimed slot against the latter. Floor round, alice alone: share 1, limit 16
    (unclaimed 16), capped at 6. Her first slot: 0 + 4 <= 16; ``negotiate`` goes on as
    ``limitUsed`` 4 < 6; her second: 4 + 4 = 8 <= 16 (not 6); then 8 >= 6 stops her. The
    full round: normal 1.5/1.5 + 1.5/0.5 = 4, bob's share 0.75 -> 12, alice's
    0.25 x 16 - 8 < 0 -> 0; bob takes the 2 slots left. A floor also capping the
    unclaimed test would give alice 1 (4 + 4 > 6) and bob 3."""
    result = run(
        pool(4, Cpus=4),
        jobs("alice", 4, 1) + jobs("bob", 4, 2),
        prios={ALICE: 1.5, BOB: 0.5},
        knobs=CURRENT,
        floors={ALICE: 6},
    )
    assert [m.submitter for m in result.matches] == [ALICE, ALICE, BOB, BOB]
    assert [m.weight for m in result.matches] == [4.0] * 4


@given(
    slots=st.integers(1, 10),
    idle=st.lists(st.integers(0, 6), min_size=3, max_size=3),
    eups=st.lists(st.sampled_from([0.5, 1.0, 1.5, 4.0]), min_size=3, max_size=3),
    ceilings=st.lists(st.integers(-1, 5), min_size=3, max_size=3),
    floor=st.integers(0, 8),
)
@settings(max_examples=60, deadline=None)
def test_ceilings_cap_and_a_lone_floor_is_served(
    slots: int, idle: list[int], eups: list[float], ceilings: list[int], floor: int
) -> None:
    """No submitter gets more than its ceiling (nothing in use, so headroom = ceiling);
    the one submitter with a floor and no ceiling gets at least min(floor, its jobs, the
    pool): alone in the floor round its share is 1 and its limit the whole pool."""
    names = ["a", "b", "c"]
    queue = [j for i, n in enumerate(names) for j in jobs(n, idle[i], i + 1)]
    full = [f"{n}@example.org" for n in names]
    ceilings[0] = -1
    result = run(
        pool(slots),
        queue,
        prios=dict(zip(full, eups, strict=True)),
        floors={full[0]: floor},
        ceilings=dict(zip(full, ceilings, strict=True)),
    )
    got = matched_per_submitter(result)
    for name, ceiling in zip(full, ceilings, strict=True):
        if ceiling >= 0:
            assert got.get(name, 0) <= ceiling
    assert got.get(full[0], 0) >= min(floor, idle[0], slots)
    assert len(result.matches) <= slots
