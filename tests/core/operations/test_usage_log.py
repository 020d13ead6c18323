"""What a committed cycle adds to the usage history for a partitionable slot's match: the
CPUs its whole-slot charge is weighed on (``charged_cpus``), as the replay weighs a record
(``slot_weight`` over ``Cpus`` alone)."""

from __future__ import annotations

import pytest

from fairshare_cli.core.operations.usage_log import claim_usage
from fairshare_cli.core.state import State
from fairshare_cli.io.config import build_config
from fairshare_cli.io.toml import loads

T0 = 1795132800.0

POOL = """\
[pool]
uid_domain = "example.org"
[negotiator]
use_slot_weights = {weights}
slot_weight = "{slot_weight}"
[[machines]]
name = "m"
count = 1
slots = 1
partitionable = true
attributes = {{ Cpus = 8, Memory = 8192 }}
"""


def _state(match_cost: float | None) -> State:
    claim = {
        "submitter": "alice@example.org", "job_id": "1", "start_time": T0, "weight": 1.0,
        "resources": {"Cpus": 1, "Memory": 1024},
    }  # fmt: skip
    if match_cost is not None:
        claim["match_cost"] = match_cost
    return State(sections={"negotiator": {"claims": {"slot1_1@m001": claim}}})


@pytest.mark.parametrize(
    ("weights", "slot_weight", "cost", "charged"),
    [
        pytest.param("true", "Cpus", 8.0, 8, id="cpus: the slot's 8 free CPUs"),
        # Cpus / 3.0 over the whole slot: 8 / 3.0 = 2.6666666666666665, which 8 CPUs weigh
        pytest.param("true", "Cpus / 3.0", 8 / 3.0, 8, id="a third of the free CPUs"),
        # slot weights off, a consumption policy's cost of 2: every record weighs 1, so no
        # count of CPUs weighs 2; the record is charged its own CPUs
        pytest.param("false", "Cpus", 2.0, None, id="no count weighs the cost"),
    ],
)
def test_a_match_held_at_its_cost_is_recorded_with_the_cpus_that_weigh_it(
    weights: str, slot_weight: str, cost: float, charged: int | None
) -> None:
    config = build_config(loads(POOL.format(weights=weights, slot_weight=slot_weight)), "p")
    [(record, key)] = claim_usage(config, State(sections={}), _state(cost), T0).started
    assert key == f"1 slot1_1@m001 {T0!r} match_cost"
    assert (record.cpus, record.charged_cpus) == (1, charged)


def test_the_next_cycle_ends_the_charge_and_starts_the_dynamic_slot() -> None:
    config = build_config(loads(POOL.format(weights="true", slot_weight="Cpus")), "p")
    usage = claim_usage(config, _state(8.0), _state(None), T0 + 60)
    key = f"1 slot1_1@m001 {T0!r}"
    assert usage.ended == ((f"{key} match_cost", T0 + 60),)
    [(record, started)] = usage.started
    assert (started, record.start, record.cpus, record.charged_cpus) == (key, T0 + 60, 1, None)


def _jobless(*weights: float) -> State:
    """A state whose last cycle made matches no job takes on the partitionable slot."""
    matches = [
        {"slot": "slot1@m001", "submitter": "alice@example.org", "start_time": T0, "weight": w}
        for w in weights
    ]
    return State(sections={"negotiator": {"claims": {}, "jobless_matches": matches}})


def test_matches_no_job_takes_are_recorded_for_the_accountant_alone_until_the_next_cycle() -> None:
    """Two matches no job takes on one slot (each charged the whole slot's 8, then 5 of
    its CPUs) are two records of no CPUs (no work ran) weighed on 8 and 5 CPUs, keyed by
    their place in the cycle; the next cycle, which has none, ends both."""
    config = build_config(loads(POOL.format(weights="true", slot_weight="Cpus")), "p")
    usage = claim_usage(config, State(sections={}), _jobless(8.0, 5.0), T0)
    keys = [f"{i} slot1@m001 {T0!r} jobless" for i in (0, 1)]
    assert [(key, r.owner, r.start, r.cpus, r.charged_cpus) for r, key in usage.started] == [
        (keys[0], "alice@example.org", T0, 0, 8),
        (keys[1], "alice@example.org", T0, 0, 5),
    ]
    ended = claim_usage(config, _jobless(8.0, 5.0), _jobless(), T0 + 60)
    assert ended.ended == ((keys[0], T0 + 60), (keys[1], T0 + 60))
    assert ended.started == ()
