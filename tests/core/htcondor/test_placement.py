"""Placing running work on slots (core/htcondor/placement.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.batches import JobBatch
from fairshare_cli.core.config import Config, MachineSpec
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.negotiator import Claim
from fairshare_cli.core.htcondor.negotiator.slots import Slot
from fairshare_cli.core.htcondor.placement import (
    Running,
    charge_claims,
    fill_leftovers,
    place_running,
)
from fairshare_cli.core.jobs import Job

MACHINES = (
    MachineSpec("small", count=2, slots=2, attributes={"Cpus": 1, "Memory": 1024}),
    MachineSpec("big", count=1, slots=1, attributes={"Cpus": 4, "Memory": 8192}),
)


def test_named_slot_else_first_free_that_fits() -> None:
    big_job = Job(id="1.0", owner="a", requirements="TARGET.Memory >= 4096")
    work = [
        Running("a@d", "9.0", 0.0, slot="slot2@small002"),
        Running("a@d", "1.0", 0.0, job=big_job),
        Running("a@d", "2.0", 0.0),
        Running("a@d", "3.0", 0.0, cpus=2),  # only big fits, and it is taken
    ]
    placed = place_running(work, {}, MACHINES, 100.0)
    assert {c.job_id: c.slot for c in placed.new} == {
        "9.0": "slot2@small002",
        "1.0": "slot1@big001",
        "2.0": "slot1@small001",
    }
    assert [w.job_id for w in placed.unplaced] == ["3.0"]


def test_work_already_holding_a_claim_stays() -> None:
    held = {"slot1@big001": Claim("slot1@big001", "a@d", "1.0", 5.0)}
    placed = place_running([Running("a@d", "1.0", 7.0)], held, MACHINES, 100.0)
    assert placed.new == () and placed.claims == held


def test_unknown_named_slot_falls_back_and_is_reported() -> None:
    placed = place_running([Running("a@d", "1.0", 0.0, slot="slot9@nowhere")], {}, MACHINES, 1.0)
    assert [c.slot for c in placed.new] == ["slot1@small001"]
    assert [(w.job_id, s) for w, s in placed.moved] == [("1.0", "slot1@small001")]


@given(st.lists(st.tuples(st.sampled_from(["a@d", "b@d"]), st.integers(1, 5)), max_size=12))
def test_one_claim_per_slot_and_every_piece_accounted_for(
    pieces: list[tuple[str, int]],
) -> None:
    work = [Running(sub, f"{i}.0", 0.0, cpus=cpus) for i, (sub, cpus) in enumerate(pieces)]
    placed = place_running(work, {}, MACHINES, 0.0)
    slots = [c.slot for c in placed.new]
    assert len(slots) == len(set(slots)) <= 5
    assert len(placed.new) + len(placed.unplaced) == len(work)


def test_charge_claims_adds_only_what_is_not_recorded() -> None:
    """Recorded use (5 weighted) covers 3 claims of weight 1: nothing added; 7 claims: +2."""
    config = Config()
    state = acct.add_match(acct.EMPTY, config, "a@d", 5.0, 0.0, slots=5)
    claims = [Claim(f"slot{i}@m", "a@d", f"{i}.0", 0.0) for i in range(7)]
    same = charge_claims(state, config, claims[:3], lambda s: 1.0, 10.0)
    assert same.records["a@d"].weighted_resources_used == 5.0
    more = charge_claims(state, config, claims, lambda s: 1.0, 10.0)
    assert more.records["a@d"].weighted_resources_used == 7.0
    assert more.records["a@d"].resources_used == 7


def test_work_taking_a_named_slot_displaces_its_holder() -> None:
    held = {"slot1@big001": Claim("slot1@big001", "a@d", "1.0", 5.0)}
    placed = place_running([Running("b@d", "2.0", 7.0, slot="slot1@big001")], held, MACHINES, 9)
    assert placed.claims["slot1@big001"].submitter == "b@d"
    assert placed.displaced == (held["slot1@big001"],)


def test_a_big_piece_does_not_hide_the_free_small_slots() -> None:
    work = [Running("a@d", "1.0", 0.0, cpus=4), Running("a@d", "2.0", 0.0)]
    placed = place_running(work, {}, MACHINES, 0.0)
    assert [c.slot for c in placed.new] == ["slot1@big001", "slot1@small001"]


def _cpus(spec: MachineSpec, slot: Slot) -> float:
    """A dynamic slot's ``SLOT_WEIGHT = Cpus``."""
    return float(dict(slot.resources)["Cpus"])


@given(
    st.lists(st.sampled_from([1, 2, 4]), min_size=1, max_size=12),
    st.lists(st.sampled_from([0, 1, 2]), min_size=1, max_size=3, unique=True),
)
def test_filling_leftovers_of_the_matched_slots_named_equals_listing_the_pool(
    requests: list[int], matched_machines: list[int]
) -> None:
    """The schedd fills only the partitionable slots it matched (``fs simulate`` names
    them: the pool is not listed each cycle): the same claims as when ``fill_leftovers``
    finds them among every slot of the pool (static slots first in the configuration,
    then three 8-CPU partitionable slots), one 2-CPU dynamic slot already on each."""
    machines = [
        MachineSpec(name="s", count=2, slots=1, attributes={"Cpus": 1}),
        MachineSpec(name="p", count=3, slots=1, partitionable=True, attributes={"Cpus": 8}),
    ]
    claims = {
        f"slot1_1@p{m:03d}": Claim(f"slot1_1@p{m:03d}", "u@d", f"9.{m}", 0.0, 2.0, (("Cpus", 2.0),))
        for m in range(1, 4)
    }
    matched = [(f"slot1_1@p{m + 1:03d}", "u@d") for m in matched_machines]
    idle = [
        (JobBatch(Job(id=f"1.{i}", owner="u", request_cpus=c)), "u@d")
        for i, c in enumerate(requests)
    ]
    named = [(1, f"p{m + 1:03d}", 1) for m in sorted(matched_machines)]
    whole = fill_leftovers(machines, claims, matched, idle, 100.0, _cpus)
    assert whole == fill_leftovers(machines, claims, matched, idle, 100.0, _cpus, named)
    assert sum(c.weight or 0.0 for c in whole) <= 6 * len(matched)  # 6 CPUs left on each


def test_the_leftover_of_a_matched_slot_takes_jobs_in_order_until_none_fits() -> None:
    """By hand: 8 CPUs, 2 carved (slot1_1): jobs of 4, 2, 4 and 1 CPUs take slot1_2 (4)
    and slot1_3 (2); then nothing is left for the 4 nor the 1."""
    machines = [MachineSpec(name="p", count=2, slots=1, partitionable=True, attributes={"Cpus": 8})]
    claims = {"slot1_1@p001": Claim("slot1_1@p001", "u@d", "9.0", 0.0, 2.0, (("Cpus", 2.0),))}
    idle = [
        (JobBatch(Job(id=f"1.{i}", owner="u", request_cpus=c)), "u@d")
        for i, c in enumerate([4, 2, 4, 1])
    ]
    got = fill_leftovers(
        machines, claims, [("slot1_1@p001", "u@d")], idle, 100.0, _cpus, [(0, "p001", 1)]
    )
    assert [(c.slot, c.job_id, c.weight) for c in got] == [
        ("slot1_2@p001", "1.0", 4.0),
        ("slot1_3@p001", "1.1", 2.0),
    ]
