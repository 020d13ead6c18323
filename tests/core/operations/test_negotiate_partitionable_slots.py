"""Partitionable slots through the library: committed cycles, removals, the accountant.

Each match is charged the partitionable slot's whole ``SLOT_WEIGHT`` (``Cpus`` before the
split: ``Accountant::AddMatch`` on the partitionable slot's ad, matchmaker.cpp), until the
next cycle's ``CheckMatches`` re-weights it to ``Cpus`` of its carved dynamic slot; each
removal gives back the weight the accountant holds for its claim (``RemoveMatch``); so the
accountant's weighted resources in use are always what the claims hold, the carved CPUs
once a later cycle has checked them, and 0 once every job has gone.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import (
    AccountantConfig,
    Config,
    MachineSpec,
    NegotiatorConfig,
    PoolConfig,
)
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import (
    NegotiatorState,
    claim_weight,
    negotiator_from_json,
    slot_weigher,
)
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.negotiate import negotiate
from fairshare_cli.core.operations.queue import remove
from fairshare_cli.core.operations.simulate import SimWindow, simulate
from fairshare_cli.core.state import State

NOW = 1_795_262_400.0  # 2026-11-21T12:00:00Z
CONFIG = Config(
    pool=PoolConfig(uid_domain="example.org"),
    accountant=AccountantConfig(priority_halflife=86400.0),
    negotiator=NegotiatorConfig(use_slot_weights=True, slot_weight="Cpus"),
    machines=(
        MachineSpec(
            name="big", count=2, attributes={"Cpus": 8, "Memory": 8192}, partitionable=True
        ),
    ),
)


def weighted_in_use(state: State, when: float) -> float:
    records = acct.view(acct.accountant_from_json(state.section("accountant")), CONFIG, when)
    return sum(r.weighted_resources_used for n, r in records.items() if "@" in n)


def held_weights(state: State) -> list[float]:
    claims = negotiator_from_json(state.section("negotiator")).claims
    return [claim_weight(c, slot_weigher(CONFIG)) for c in claims.values()]


def carved_cpus(state: State) -> list[float]:
    claims = negotiator_from_json(state.section("negotiator")).claims
    return [dict(c.resources)["Cpus"] for c in claims.values()]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.tuples(st.integers(1, 5), st.integers(0, 4000)), max_size=5),
            st.lists(st.integers(0, 30), max_size=3),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_weighted_use_is_the_carved_cpus_and_returns_to_zero(
    steps: list[tuple[list[tuple[int, int]], list[int]]],
) -> None:
    state = State()
    t = NOW
    cluster = 1
    for new, removals in steps:
        jobs: list[dict[str, Any]] = list(state.section("jobs") or [])
        for cpus, memory in new:
            jobs.append(
                {
                    "id": f"{cluster}.0",
                    "owner": f"u{cluster % 2}",
                    "request_cpus": cpus,
                    "request_memory": memory,
                    "submit_time": t,
                }
            )
            cluster += 1
        state = state.with_section("jobs", jobs)
        state, _ = negotiate(CONFIG, state, t)
        running = [j["id"] for j in state.section("jobs") if j.get("status") == "running"]
        gone = sorted({running[r % len(running)] for r in removals} if running else set())
        if gone:
            t += 60
            state, _ = remove(CONFIG, state, t, gone, where="test")
        carved = carved_cpus(state)
        assert sum(carved) <= 16  # two 8-CPU partitionable slots, never over-carved
        assert abs(weighted_in_use(state, t) - sum(held_weights(state))) < 1e-9
        t += 60
    everything = [j["id"] for j in state.section("jobs")]
    if everything:
        state, _ = remove(CONFIG, state, t, everything, where="test")
    assert carved_cpus(state) == []
    assert weighted_in_use(state, t) == 0.0


T1 = NOW
T2 = NOW + 600.0  # the next cycle
T3 = NOW + 1200.0
BETA = 0.5 ** (600.0 / 86400.0)  # one 600 s interval at half-life 86400 s


def _pool(machine: MachineSpec, weights: bool = True, slot_weight: str = "Cpus") -> Config:
    return Config(
        pool=PoolConfig(uid_domain="example.org"),
        accountant=AccountantConfig(priority_halflife=86400.0, default_prio_factor=1.0),
        negotiator=NegotiatorConfig(use_slot_weights=weights, slot_weight=slot_weight),
        machines=(machine,),
    )


PSLOT = MachineSpec(name="big", attributes={"Cpus": 16, "Memory": 65536}, partitionable=True)
CP_PSLOT = MachineSpec(
    name="big",
    attributes={"Cpus": 16, "Memory": 65536},
    partitionable=True,
    consumption_policy=True,
)
STATIC = MachineSpec(name="small", attributes={"Cpus": 4, "Memory": 8192})


@pytest.mark.parametrize(
    ("config", "cost", "own"),
    [
        # AddMatch on the partitionable slot's ad (matchmaker.cpp: the ad before the split):
        # SlotWeight = Cpus = 16; the dynamic slot's own SlotWeight is its 4 Cpus.
        pytest.param(_pool(PSLOT), 16.0, 4.0, id="pslot-weights-on"),
        # GetSlotWeight without NEGOTIATOR_USE_SLOT_WEIGHTS is 1.0 for either ad.
        pytest.param(_pool(PSLOT, weights=False), 1.0, 1.0, id="pslot-weights-off"),
        # A consumption policy: AddMatch charges CP_MATCH_COST = cp_deduct_assets's
        # SlotWeight before less after, 16*16 - 12*12 = 112 (a _cp_match_000 record); the
        # dynamic slot's own SlotWeight is 4*4 = 16.
        pytest.param(_pool(CP_PSLOT, slot_weight="Cpus * Cpus"), 112.0, 16.0, id="cp-pslot"),
        # A static slot: AddMatch and every CheckMatches see the same ad, SlotWeight 4.
        pytest.param(_pool(STATIC), 4.0, 4.0, id="static-slot"),
    ],
)
def test_match_cost_is_charged_until_the_next_cycles_check_matches(
    config: Config, cost: float, own: float
) -> None:
    """One 4-CPU job of alice matched at T1; cycles at T1 and T2 = T1 + 600 s; read at T3.

    Accountant.cpp: AddMatch at T1 holds ``cost``; UpdatePriorities at T2 charges it over
    600 s (WeightedAccumulatedUsage = 600*cost, P2 = 0.5*beta + cost*(1 - beta) from the
    fresh record's MinPriority 0.5); CheckMatches at T2 RemoveMatches that record (no
    uncharged time: StartTime < LastUpdateTime) and AddMatches the dynamic slot at
    ``own``; the update at T3 charges ``own``: usage 600*(cost + own), P3 = P2*beta +
    own*(1 - beta). ResourcesUsed stays 1 throughout (AccumulatedUsage 1200).
    """
    job = {"id": "1", "owner": "alice", "request_cpus": 4, "request_memory": 1024}
    state = State().with_section("jobs", [{**job, "submit_time": T1}])
    state, result = negotiate(config, state, T1)
    (match,) = result.matches
    claim = negotiator_from_json(state.section("negotiator")).claims[match.slot]
    assert claim.match_cost == (None if cost == own else cost)
    assert claim.weight == own
    rec = acct.accountant_from_json(state.section("accountant")).records["alice@example.org"]
    assert (rec.resources_used, rec.weighted_resources_used) == (1, cost)
    state, result = negotiate(config, state, T2)
    assert result.matches == []
    claim = negotiator_from_json(state.section("negotiator")).claims[match.slot]
    assert (claim.match_cost, claim.weight) == (None, own)
    accountant = acct.accountant_from_json(state.section("accountant"))
    rec = accountant.records["alice@example.org"]
    assert (rec.resources_used, rec.weighted_resources_used) == (1, own)
    assert rec.weighted_accumulated_usage == pytest.approx(600.0 * cost)
    rec = acct.view(accountant, config, T3)["alice@example.org"]
    p2 = acct.as_stored(0.5 * BETA + cost * (1 - BETA))  # (each update stores six decimals)
    assert rec.priority == pytest.approx(acct.as_stored(p2 * BETA + own * (1 - BETA)), rel=1e-12)
    assert rec.weighted_accumulated_usage == pytest.approx(600.0 * (cost + own), rel=1e-12)
    assert rec.accumulated_usage == pytest.approx(1200.0)


def test_a_job_ending_before_the_next_cycle_was_charged_the_match_cost() -> None:
    """The job matched at T1 on the 16-CPU partitionable slot ends before T2: CheckMatches
    at T2 still finds the slot1@ record (SlotWeight 16) and removes it after the update, so
    600 s at 16 were charged and nothing is held after T2 (WeightedResourcesUsed 0)."""
    config = _pool(PSLOT)
    job = {"id": "1", "owner": "alice", "request_cpus": 4, "submit_time": T1}
    state, _ = negotiate(config, State().with_section("jobs", [job]), T1)
    done = [{**j, "status": "completed"} for j in state.section("jobs")]
    state, _ = negotiate(config, state.with_section("jobs", done), T2)
    assert negotiator_from_json(state.section("negotiator")).claims == {}
    rec = acct.accountant_from_json(state.section("accountant")).records["alice@example.org"]
    assert (rec.resources_used, rec.weighted_resources_used) == (0, 0.0)
    assert rec.weighted_accumulated_usage == pytest.approx(600.0 * 16.0)


@pytest.mark.parametrize(
    ("config", "cost", "own"),
    [
        pytest.param(_pool(PSLOT), 16.0, 4.0, id="pslot-weights-on"),
        pytest.param(_pool(CP_PSLOT, slot_weight="Cpus * Cpus"), 112.0, 16.0, id="cp-pslot"),
        pytest.param(_pool(STATIC), 4.0, 4.0, id="static-slot"),
    ],
)
def test_simulate_cycles_charge_the_match_cost_until_the_next_cycle(
    config: Config, cost: float, own: float
) -> None:
    """``fs simulate``'s cycles at T1, T2, T3 (600 s apart) charge as the committed cycles
    of the test above: ``cost`` over T1..T2, ``own`` over T2..T3 (Accountant.cpp
    AddMatch, then CheckMatches at T2), usage 600*(cost + own), P as above."""
    job = Job(id="1", owner="alice", request_cpus=4, request_memory=1024, submit_time=T1)
    window = SimWindow(start=T1, until=1200.0, cycle=600.0)
    result = simulate(config, acct.EMPTY, NegotiatorState(), [], [job], window)
    rec = result.accountant.records["alice@example.org"]
    assert (rec.resources_used, rec.weighted_resources_used) == (1, own)
    assert rec.weighted_accumulated_usage == pytest.approx(600.0 * (cost + own), rel=1e-12)
    p2 = acct.as_stored(0.5 * BETA + cost * (1 - BETA))  # (each update stores six decimals)
    assert rec.priority == pytest.approx(acct.as_stored(p2 * BETA + own * (1 - BETA)), rel=1e-12)


@pytest.mark.parametrize(
    ("run_time", "slots", "own"),
    [
        # both jobs still run at T2: CheckMatches adds slot1_2 at its own 4 beside slot1_1
        pytest.param(None, 2, 8.0, id="leftover-running"),
        # the leftover job ends at T1 + 300: gone before the accountant could see it
        pytest.param(300.0, 1, 4.0, id="leftover-ended-between-cycles"),
    ],
)
def test_simulate_charges_leftover_claims_from_the_next_check_matches(
    run_time: float | None, slots: int, own: float
) -> None:
    """Two 4-CPU jobs of alice on the 16-CPU partitionable slot, slot weights on (so
    ``CLAIM_PARTITIONABLE_LEFTOVERS``): the negotiator matches job 1 (``AddMatch`` of the
    partitionable slot: 16, one ResourcesUsed) and the schedd claims slot1_2 for job 2
    itself (dc_startd.cpp's leftovers), which the negotiator learns only at T2, when
    ``CheckMatches`` scans the startd ads and ``AddMatch``es every claimed slot it has no
    record of (at LastUpdateTime: no uncharged time). So 600 s at 16 (one slot), then
    600 s at ``own`` (``slots`` slots): usage 9600 + 600*own, AccumulatedUsage
    600 + 600*slots, P3 = P2*beta + own*(1 - beta)."""
    jobs = [
        Job(id="1", owner="alice", request_cpus=4, request_memory=1024, submit_time=T1),
        Job(
            id="2",
            owner="alice",
            request_cpus=4,
            request_memory=1024,
            submit_time=T1,
            run_time=run_time,
        ),
    ]
    window = SimWindow(start=T1, until=1200.0, cycle=600.0)
    result = simulate(_pool(PSLOT), acct.EMPTY, NegotiatorState(), [], jobs, window)
    rec = result.accountant.records["alice@example.org"]
    assert (rec.resources_used, rec.weighted_resources_used) == (slots, own)
    assert rec.weighted_accumulated_usage == pytest.approx(9600.0 + 600.0 * own, rel=1e-12)
    assert rec.accumulated_usage == pytest.approx(600.0 + 600.0 * slots, rel=1e-12)
    p2 = acct.as_stored(0.5 * BETA + 16.0 * (1 - BETA))  # (each update stores six decimals)
    assert rec.priority == pytest.approx(acct.as_stored(p2 * BETA + own * (1 - BETA)), rel=1e-12)
