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
from fairshare_cli.core.htcondor.claims import claim_weight, negotiator_from_json, slot_weigher
from fairshare_cli.core.operations.negotiate import negotiate
from fairshare_cli.core.operations.queue import remove
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
