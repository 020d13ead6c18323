"""One slot weight: a claim stores what its match charged; every release gives that back.

The bug this pins: with ``use_slot_weights = true`` and
``slot_weight = "Memory / 1024"`` on a 4096 MB slot, ``fs negotiate`` charged 4 but ``fs rm``
released 2 — the release path evaluated the expression over ``{Cpus}`` alone, got ClassAd
``Undefined`` (an ``IntEnum`` whose value is 2) and took it for a number.
"""

from __future__ import annotations

from typing import Any

import pytest

from fairshare_cli.core.config import (
    AccountantConfig,
    Config,
    GroupSpec,
    MachineSpec,
    NegotiatorConfig,
    PoolConfig,
)
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.claims import negotiator_from_json, negotiator_to_json
from fairshare_cli.core.htcondor.classads import evaluate_alone, is_slot_weight, slot_weight
from fairshare_cli.core.operations.import_usage import import_usage
from fairshare_cli.core.operations.negotiate import negotiate
from fairshare_cli.core.operations.queue import remove
from fairshare_cli.core.state import State
from fairshare_cli.core.usage import UsageRecord

NOW = 1_795_262_400.0  # 2026-11-21T12:00:00Z
HOUR = 3600.0


def config(expr: str, groups: bool = False, memory: int = 4096, cpus: int = 1) -> Config:
    return Config(
        pool=PoolConfig(uid_domain="example.org"),
        accountant=AccountantConfig(priority_halflife=86400.0),
        negotiator=NegotiatorConfig(use_slot_weights=True, slot_weight=expr),
        machines=(MachineSpec(name="exec", count=1, attributes={"Cpus": cpus, "Memory": memory}),),
        groups={"g": GroupSpec("g", quota=10)} if groups else {},
    )


def queue(*jobs: dict[str, Any]) -> State:
    return State().with_section("jobs", list(jobs))


def in_use(state: State, when: float, cfg: Config) -> dict[str, tuple[float, float]]:
    records = acct.view(acct.accountant_from_json(state.section("accountant")), cfg, when)
    return {
        n: (r.weighted_resources_used, r.hier_weighted_resources_used) for n, r in records.items()
    }


def test_undefined_is_not_a_number() -> None:
    """classad2 hands Undefined over as an IntEnum equal to 2; the bridge refuses it."""
    value = evaluate_alone("Memory / 1024", {"Cpus": 1}, "test")
    assert isinstance(value, int) and value == 2  # the trap
    assert not is_slot_weight(value)
    assert slot_weight(value) == 1.0


@pytest.mark.parametrize(
    ("value", "weight", "usable"),
    [
        pytest.param(4, 4.0, True, id="int"),
        pytest.param(2.5, 2.5, True, id="real"),
        pytest.param(0, 0.0, True, id="zero"),
        pytest.param(True, 1.0, True, id="true-is-1-as-EvalFloat-reads-it"),
        pytest.param(False, 0.0, True, id="false-is-0"),
        pytest.param(-3, 1.0, False, id="negative-falls-back"),
        pytest.param("4", 1.0, False, id="string"),
    ],
)
def test_slot_weight_mirrors_get_slot_weight(value: object, weight: float, usable: bool) -> None:
    """``Accountant::GetSlotWeight``: EvalFloat fails or the weight is negative -> 1.0."""
    assert slot_weight(value) == weight
    assert is_slot_weight(value) is usable


def test_negotiate_charges_4_and_rm_releases_4() -> None:
    """4096 MB / 1024 = 4 charged by AddMatch; RemoveMatch gives the same 4 back."""
    cfg = config("Memory / 1024")
    state, result = negotiate(cfg, queue({"id": "1.0", "owner": "alice"}), NOW)
    assert [m.weight for m in result.matches] == [4.0]
    assert negotiator_from_json(state.section("negotiator")).claims["slot1@exec001"].weight == 4.0
    assert in_use(state, NOW, cfg)["alice@example.org"] == (4.0, 0.0)
    assert in_use(state, NOW, cfg)["<none>"] == (4.0, 4.0)  # <none> is its own subtree
    state, gone = remove(cfg, state, NOW + 600, ["1"], where="state")
    assert [j.id for j in gone] == ["1.0"]
    assert in_use(state, NOW + 600, cfg)["alice@example.org"] == (0.0, 0.0)
    assert in_use(state, NOW + 600, cfg)["<none>"] == (0.0, 0.0)


def test_old_claim_without_weight_releases_what_was_charged() -> None:
    """A state written before claims stored weights: release the slot's weight, 4."""
    cfg = config("Memory / 1024")
    state, _ = negotiate(cfg, queue({"id": "1.0", "owner": "alice"}), NOW)
    section = negotiator_to_json(negotiator_from_json(state.section("negotiator")))
    del section["claims"]["slot1@exec001"]["weight"]
    old = state.with_section("negotiator", section)
    assert negotiator_from_json(section).claims["slot1@exec001"].weight is None
    after, _ = remove(cfg, old, NOW + 600, ["1.0"], where="state")
    assert in_use(after, NOW + 600, cfg)["alice@example.org"] == (0.0, 0.0)


def test_release_uses_the_stored_weight_even_if_the_config_changed() -> None:
    """Charged 4 at 4096 MB; the machine is now 8192 MB (weight 8): still 4 comes back."""
    state, _ = negotiate(config("Memory / 1024"), queue({"id": "1.0", "owner": "a"}), NOW)
    bigger = config("Memory / 1024", memory=8192)
    after, _ = remove(bigger, state, NOW + 60, ["1.0"], where="state")
    assert in_use(after, NOW + 60, bigger)["a@example.org"] == (0.0, 0.0)


def test_group_and_hierarchy_are_released_too() -> None:
    cfg = config("2 * Cpus", groups=True, cpus=3)
    state, result = negotiate(
        cfg, queue({"id": "1.0", "owner": "bob", "accounting_group": "g.bob"}), NOW
    )
    assert [m.weight for m in result.matches] == [6.0]
    assert in_use(state, NOW, cfg)["g"] == (6.0, 6.0)
    after, _ = remove(cfg, state, NOW + 60, ["1"], where="state")
    assert in_use(after, NOW + 60, cfg)["g"] == (0.0, 0.0)
    assert in_use(after, NOW + 60, cfg)["g.bob@example.org"] == (0.0, 0.0)


def test_history_import_charges_undefined_weight_as_1() -> None:
    """A usage record names no machine: ``Memory / 1024`` is Undefined there, so a slot
    weighs 1.0 (not 2, the Undefined enum's value). Two slots for one hour from a fresh
    record: weighted accumulated usage 2 × 1.0 × 3600 = 7200 slot-seconds."""
    cfg = config("Memory / 1024")
    record = UsageRecord(owner="alice", start=NOW - 2 * HOUR, end=NOW - HOUR, slots=2, cpus=4)
    state, done = import_usage(cfg, State(), NOW, lambda: [record], label="h")
    assert done.records == 1
    rec = acct.accountant_from_json(state.section("accountant")).records["alice@example.org"]
    assert rec.weighted_accumulated_usage == 7200.0
    assert rec.accumulated_usage == 7200.0
    assert rec.weighted_resources_used == 0.0


def test_history_import_charges_cpus_expressions() -> None:
    """``2 * Cpus`` over a record of one 4-CPU slot for an hour: 8 × 3600 = 28800."""
    cfg = config("2 * Cpus")
    record = UsageRecord(owner="alice", start=NOW - 2 * HOUR, end=NOW - HOUR, cpus=4)
    state, _ = import_usage(cfg, State(), NOW, lambda: [record], label="h")
    rec = acct.accountant_from_json(state.section("accountant")).records["alice@example.org"]
    assert rec.weighted_accumulated_usage == 28800.0


def test_simulate_gives_back_what_finished_jobs_were_charged() -> None:
    """Jobs of one hour on a 4096 MB slot weighing 4: after they finish, 0 is in use, and
    each hour charged 4 × 3600 weighted slot-seconds (the first job finishes at the
    cycle of NOW + 1 h, the second starts then and finishes at NOW + 2 h)."""
    from fairshare_cli.core.htcondor.claims import NegotiatorState
    from fairshare_cli.core.jobs import parse_jobs
    from fairshare_cli.core.operations.simulate import SimWindow, simulate

    cfg = config("Memory / 1024")
    work = parse_jobs(
        [{"id": f"1.{k}", "owner": "alice", "run_time": HOUR, "submit_time": NOW} for k in (0, 1)],
        "w",
    )
    result = simulate(cfg, acct.EMPTY, NegotiatorState(), [], work, SimWindow(NOW, 3 * HOUR, HOUR))
    rec = acct.view(result.accountant, cfg, NOW + 3 * HOUR)["alice@example.org"]
    assert rec.weighted_resources_used == 0.0
    assert rec.weighted_accumulated_usage == 2 * 4 * HOUR


def test_check_matches_gives_back_the_stored_weight() -> None:
    """A job that stopped running is seen by the next committed cycle (``CheckMatches``):
    its claim goes and the 4 it was charged come back (not SLOT_WEIGHT over Cpus alone)."""
    cfg = config("Memory / 1024")
    state, _ = negotiate(cfg, queue({"id": "1.0", "owner": "alice"}), NOW)
    jobs = state.section("jobs")
    state = state.with_section("jobs", [{**jobs[0], "status": "completed"}])
    state, result = negotiate(cfg, state, NOW + 100)
    assert result.matches == []
    assert negotiator_from_json(state.section("negotiator")).claims == {}
    assert in_use(state, NOW + 100, cfg)["alice@example.org"] == (0.0, 0.0)
