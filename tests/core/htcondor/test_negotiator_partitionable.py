"""Partitionable slots, checked against HTCondor's rules.

The rules, from HTCondor's source: the startd carves a dynamic slot of the job's request
rounded by ``MODIFY_REQUEST_EXPR_REQUEST*`` (25.0: ``quantize(RequestCpus,{1})``,
``quantize(RequestMemory,{128})``, ``quantize(RequestDisk,{1024})``; when the rounded
request no longer fits, the request as it is: ``Resource.cpp``); the dynamic slot is named
``slot1_<lowest free number>@host`` (``IdDispenser``); the partitionable slot publishes what
is left, and its ``WithinResourceLimits`` (``MY.Cpus > 0 && TARGET.RequestCpus <=
MY.Cpus && MY.Memory > 0 && ...``) decides whether more fits; the match costs the
``SLOT_WEIGHT`` of the carved slot (``Cpus``, so its CPUs); the group-quota pool is
``Σ SLOT_WEIGHT`` over all slot ads with slot weights, else ``count_effective_slots``
(a partitionable slot counts its ``Cpus``, every other ad 1: ``matchmaker.cpp``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from negotiation_helpers import CURRENT, LEGACY, NOW, J, jobs, run

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.groups import GroupConfig, QuotaKnobs, build_group_tree
from fairshare_cli.core.htcondor.negotiator import Claim, CycleResult, expand_slots, pool_size
from fairshare_cli.core.htcondor.negotiator.partitionable import add_dynamic_slots, quantize
from fairshare_cli.core.htcondor.negotiator.slots import Slot

UNWEIGHTED = replace(CURRENT, use_slot_weights=False)


def pslots(count: int, cpus: int, memory: int, **policy: Any) -> list[MachineSpec]:
    """``count`` machines ``big001`` ... of one partitionable slot each."""
    attrs = {"Cpus": cpus, "Memory": memory}
    return [MachineSpec(name="big", count=count, attributes=attrs, partitionable=True, **policy)]


def claims_of(result: CycleResult, kept: list[Claim] | None = None) -> list[Claim]:
    """The claims after committing ``result`` (as ``fs negotiate`` records them)."""
    out = {c.slot: c for c in kept or []}
    for m in result.matches:
        out[m.slot] = Claim(m.slot, m.submitter, m.job_id, NOW, m.weight, m.resources)
    return list(out.values())


def test_quantize_is_classads() -> None:
    """``quantize(x, {q})``: q when x <= q, else the next multiple of q (``fnCall.cpp``)."""
    assert [quantize(x, 128) for x in (0, 1, 128, 129, 1000, 1024)] == [
        128,
        128,
        128,
        256,
        1024,
        1024,
    ]


def test_a_pslot_takes_one_match_per_cycle_charged_its_whole_slot_weight() -> None:
    """No consumption policy (``Matchmaker::negotiate``): the matched ad leaves the cycle
    ("Delete ad from list") and ``AddMatch`` charges ``GetSlotWeight`` of the
    partitionable slot's ad, ``Cpus`` = 16. The startd carves 4 CPUs and 1000 MB rounded to
    1024; the dynamic slot's own weight (4, its ``Cpus``) is what its claim holds. The 16
    CPUs are one slot ad: the other jobs find the pool exhausted."""
    queue = [
        J(id=f"1.{i}", owner="a", request_cpus=c, request_memory=1000)
        for i, c in enumerate((4, 4, 8, 2))
    ]
    result = run(pslots(1, 16, 65536), queue, knobs=CURRENT)
    assert [(m.job_id, m.slot, m.weight, m.charge) for m in result.matches] == [
        ("1.0", "slot1_1@big001", 4.0, 16.0)
    ]
    assert [dict(m.resources) for m in result.matches] == [{"Cpus": 4, "Memory": 1024}]
    assert [r for _, _, r in result.iter_unmatched()] == ["pool_exhausted"] * 3
    # group-quota pool before the cycle: SLOT_WEIGHT of the 16-CPU partitionable slot
    assert result.pool_size == 16.0


def test_a_submitter_with_nothing_used_may_take_a_whole_pslot() -> None:
    """Two submitters of EUP 0.5 share a pie of 16 (one 16-CPU partitionable slot): each
    limit is 16 × 0.5 = 8. ``SubmitterLimitPermits`` lets a, with nothing used and a
    limit above 0, take the slot costing 16 > 8; nothing is left for b."""
    queue = jobs("a", 2, 1) + jobs("b", 2, 2)
    result = run(pslots(1, 16, 65536), queue, knobs=CURRENT)
    assert [(m.submitter, m.charge) for m in result.matches] == [("a@example.org", 16.0)]
    assert {s.name: s.limit for s in result.submitters} == {
        "a@example.org": 8.0,
        "b@example.org": 8.0,
    }


def test_pre_job_rank_sends_a_job_to_the_smallest_pslot_that_fits() -> None:
    """25.0's ``NEGOTIATOR_PRE_JOB_RANK`` (``param_info.in``) is ``(10000000 * My.Rank) +
    (1000000 * (RemoteOwner =?= UNDEFINED)) - (100000 * Cpus) - Memory``: an 8-CPU
    slot ranks 1000000 - 800000 - 8192 = 191808, a 2-CPU one 1000000 - 200000 - 8192 =
    791808, so the 1-CPU job goes to the 2-CPU slot though it comes later in the pool, and
    is charged its 2 CPUs; the 8-CPU slot takes the second job."""
    machines = [
        MachineSpec(name="big", attributes={"Cpus": 8, "Memory": 8192}, partitionable=True),
        MachineSpec(name="small", attributes={"Cpus": 2, "Memory": 8192}, partitionable=True),
    ]
    result = run(machines, jobs("a", 2, 1), knobs=CURRENT)
    assert [(m.job_id, m.slot, m.charge) for m in result.matches] == [
        ("1.0", "slot1_1@small001", 2.0),
        ("1.1", "slot1_1@big001", 8.0),
    ]


def test_consumption_policy_takes_several_matches_each_charged_what_it_consumes() -> None:
    """``CONSUMPTION_POLICY = True``: the slot stays in the cycle; each match consumes
    ``quantize(RequestCpus,{1})`` CPUs and ``quantize(RequestMemory,{128})`` MB and is
    charged ``SlotWeight`` before less after (``cp_deduct_assets``): 16-12 = 4, 12-8 = 4,
    8-0 = 8. The 2-CPU job finds 0 CPUs (``cp_sufficient_assets`` fails)."""
    queue = [
        J(id=f"1.{i}", owner="a", request_cpus=c, request_memory=1000)
        for i, c in enumerate((4, 4, 8, 2))
    ]
    result = run(pslots(1, 16, 65536, consumption_policy=True), queue, knobs=CURRENT)
    assert [(m.job_id, m.slot, m.weight, m.charge or m.weight) for m in result.matches] == [
        ("1.0", "slot1_1@big001", 4.0, 4.0),
        ("1.1", "slot1_2@big001", 4.0, 4.0),
        ("1.2", "slot1_3@big001", 8.0, 8.0),
    ]
    assert [dict(m.resources) for m in result.matches] == [
        {"Cpus": 4, "Memory": 1024},
        {"Cpus": 4, "Memory": 1024},
        {"Cpus": 8, "Memory": 1024},
    ]
    assert list(result.iter_unmatched()) == [("1.3", "a@example.org", "pool_exhausted")]


def test_consumption_policy_stops_at_num_claims() -> None:
    """``NUM_CLAIMS = 2``: two claim ids, so two matches this cycle (the third job's
    ``matchmakingProtocol`` finds no claim id and the ad leaves the cycle)."""
    queue = jobs("a", 3, 1, request_cpus=4)
    result = run(pslots(1, 16, 65536, consumption_policy=True, num_claims=2), queue, knobs=CURRENT)
    assert [m.slot for m in result.matches] == ["slot1_1@big001", "slot1_2@big001"]


def test_consumption_policy_charges_resources_even_without_slot_weights() -> None:
    """Slot weights off: the pie is one slot ad (16 × 1 = limit 1), yet the match is
    charged the ``SlotWeight`` (``Cpus``) it consumes, 4 (``cp_deduct_assets`` reads the
    ad's ``SlotWeight``, not ``GetSlotWeight``); 4 >= 1 ends the turn. The claim holds the
    dynamic slot's unweighted 1."""
    queue = jobs("a", 2, 1, request_cpus=4)
    result = run(pslots(1, 16, 65536, consumption_policy=True), queue, knobs=UNWEIGHTED)
    assert [(m.weight, m.charge) for m in result.matches] == [(1.0, 4.0)]
    assert [r for _, _, r in result.iter_unmatched()] == ["submitter_limit"]


def test_consumption_policy_charge_is_the_slot_weight_taken_away() -> None:
    """``SLOT_WEIGHT = Cpus * Cpus``: a 4-CPU job on 16 CPUs is charged 16² - 12² = 112,
    the next one 12² - 8² = 80; each dynamic slot's own weight is 4² = 16."""
    knobs = replace(CURRENT, slot_weight="Cpus * Cpus")
    queue = jobs("a", 2, 1, request_cpus=4)
    result = run(pslots(1, 16, 65536, consumption_policy=True), queue, knobs=knobs)
    assert [(m.weight, m.charge) for m in result.matches] == [(16.0, 112.0), (16.0, 80.0)]


def test_consumption_policy_charge_follows_integer_division_in_the_slot_weight() -> None:
    """``SLOT_WEIGHT = Cpus + Memory/1024``, integer division in ClassAds; one 4-CPU
    8192 MB slot (weight 4 + 8 = 12), alice and bob at EUP 0.5 with 600 MB jobs (each
    consumes 1 CPU and ``quantize(600,{128})`` = 640 MB). Limits 0.5 x 12 = 6. Memory
    goes 8192, 7552, 6912, 6272, 5632 (/1024: 8, 7, 6, 6, 5), so alice's matches cost
    12 - 10 = 2, 10 - 8 = 2, 8 - 7 = 1 (used 5), and her fourth, 7 - 5 = 2, is refused
    (5 + 2 > 6); bob's first costs 2 and leaves no CPU. Each dynamic slot's own weight is
    1 + 640/1024 = 1 (a charge of None is that own weight)."""
    knobs = replace(CURRENT, slot_weight="Cpus + Memory/1024")
    queue = jobs("alice", 4, 1, request_memory=600) + jobs("bob", 2, 2, request_memory=600)
    result = run(pslots(1, 4, 8192, consumption_policy=True), queue, knobs=knobs)
    charged = [
        (m.job_id, m.weight if m.charge is None else m.charge, m.weight) for m in result.matches
    ]
    assert charged == [
        ("1.0", 2.0, 1.0),
        ("1.1", 2.0, 1.0),
        ("1.2", 1.0, 1.0),
        ("2.0", 2.0, 1.0),
    ]


def test_consumption_policy_does_not_carve_the_request_as_asked() -> None:
    """1000 MB left, a 1000 MB job: it consumes ``quantize(1000,{128})`` = 1024 > 1000,
    so ``cp_sufficient_assets`` fails (without a policy the startd would carve 1000)."""
    machines = pslots(1, 4, 1000, consumption_policy=True)
    result = run(machines, jobs("a", 1, 1, request_memory=1000), knobs=CURRENT)
    assert result.matches == []


def test_memory_bound_carving() -> None:
    """A consumption policy on 4096 MB, jobs of 1 CPU and 1500, 1500, 1500, 1000 MB: 1500 rounds to 1536 (12 ×
    128); two carve 3072 MB and leave 1024, where 1500 > 1024 does not fit (its slot was
    taken); 1000 rounds to 1024 = what is left, so the fourth job takes it, 13 CPUs stay
    idle but the slot is spent (``MY.Memory > 0`` fails)."""
    queue = [
        J(id=f"1.{i}", owner="a", request_memory=mb)
        for i, mb in enumerate((1500, 1500, 1500, 1000))
    ]
    result = run(pslots(1, 16, 4096, consumption_policy=True), queue, knobs=CURRENT)
    assert [(m.job_id, m.slot, dict(m.resources)) for m in result.matches] == [
        ("1.0", "slot1_1@big001", {"Cpus": 1, "Memory": 1536}),
        ("1.1", "slot1_2@big001", {"Cpus": 1, "Memory": 1536}),
        ("1.3", "slot1_3@big001", {"Cpus": 1, "Memory": 1024}),
    ]
    assert list(result.iter_unmatched()) == [("1.2", "a@example.org", "matching_slots_taken")]


def test_rounded_request_that_does_not_fit_is_carved_as_asked() -> None:
    """1000 MB left, a 1000 MB job: rounded to 1024 it no longer fits, so the startd
    retries without the edits (``MUST_MODIFY_REQUEST_EXPRS = false``) and carves 1000."""
    result = run(pslots(1, 4, 1000), jobs("a", 1, 1, request_memory=1000), knobs=CURRENT)
    assert [dict(m.resources) for m in result.matches] == [{"Cpus": 1, "Memory": 1000}]


def test_ended_claim_gives_its_resources_back() -> None:
    """After 4 + 4 + 8 (a consumption policy), removing the 8-CPU claim (slot1_3) frees 8 CPUs: an 8-CPU job
    fits again and gets the lowest free number, slot1_3; a 1-CPU job does not (0 left)."""
    machines = pslots(1, 16, 65536, consumption_policy=True)
    first = run(
        machines,
        [J(id=f"1.{i}", owner="a", request_cpus=c) for i, c in enumerate((4, 4, 8))],
        knobs=CURRENT,
    )
    held = [c for c in claims_of(first) if c.slot != "slot1_3@big001"]
    queue = [J(id="2.0", owner="b", request_cpus=8), J(id="3.0", owner="b", request_cpus=1)]
    result = run(machines, queue, knobs=CURRENT, claims=held)
    assert [(m.job_id, m.slot, m.weight) for m in result.matches] == [
        ("2.0", "slot1_3@big001", 8.0)
    ]


def test_priority_preemption_of_a_dynamic_slot_keeps_its_resources() -> None:
    """Two 2-CPU dynamic slots of b (EUP 100, running 7200 s) fill a 4-CPU partitionable
    slot. The legacy ``PREEMPTION_REQUIREMENTS`` (``TotalJobRuntime > 3600 &&
    RemoteUserPrio > SubmitterUserPrio * 1.2``: 7200 > 3600, 100 > 0.5 × 1.2) let a
    (EUP 0.5) preempt: its 2-CPU job takes slot1_1 as it is (``WithinResourceLimits`` on the
    dynamic slot: 2 <= 2); its 3-CPU job fits neither dynamic slot nor the 0 CPUs left."""
    claims = [
        Claim(
            f"slot1_{k}@big001",
            "b@example.org",
            f"1.{k - 1}",
            NOW - 7200,
            1.0,
            (("Cpus", 2), ("Memory", 1024)),
        )
        for k in (1, 2)
    ]
    queue = [
        J(
            id=f"1.{k}",
            owner="b",
            status="running",
            request_cpus=2,
            slot=f"slot1_{k + 1}@big001",
            start_time=NOW - 7200,
        )
        for k in (0, 1)
    ] + [J(id="2.0", owner="a", request_cpus=2), J(id="2.1", owner="a", request_cpus=3)]
    prios = {"b@example.org": 100.0, "a@example.org": 0.5}
    result = run(pslots(1, 4, 8192), queue, prios=prios, knobs=LEGACY, claims=claims)
    assert [
        (m.job_id, m.slot, m.reason, m.preempted_job, dict(m.resources)) for m in result.matches
    ] == [("2.0", "slot1_1@big001", "priority", "1.0", {"Cpus": 2, "Memory": 1024})]
    assert list(result.iter_unmatched()) == [("2.1", "a@example.org", "no_matching_slot")]


def test_without_slot_weights_a_pslot_takes_one_match_per_cycle() -> None:
    """``NEGOTIATOR_USE_SLOT_WEIGHTS = False``: no leftover claiming
    (``CLAIM_PARTITIONABLE_LEFTOVERS`` follows it) and the negotiator drops a matched ad for
    the cycle, so 2 partitionable slots take 2 of 4 jobs; each match costs 1."""
    result = run(pslots(2, 8, 8192), jobs("a", 4, 1), knobs=UNWEIGHTED)
    assert [(m.slot, m.weight) for m in result.matches] == [
        ("slot1_1@big001", 1.0),
        ("slot1_1@big002", 1.0),
    ]


def test_pool_size_counts_carved_slots() -> None:
    """16 CPUs (a consumption policy) carved 4, 4, 8: with slot weights Σ SLOT_WEIGHT = 0 (what is left) + 4 +
    4 + 8 = 16; without, ``count_effective_slots`` = 0 CPUs left + 3 dynamic slots = 3;
    before any claim, 16 either way."""
    machines = pslots(1, 16, 65536, consumption_policy=True)
    queue = [J(id=f"1.{i}", owner="a", request_cpus=c) for i, c in enumerate((4, 4, 8))]
    held = claims_of(run(machines, queue, knobs=CURRENT))
    assert pool_size(machines, held, CURRENT, NOW) == 16.0
    assert pool_size(machines, held, UNWEIGHTED, NOW) == 3.0
    assert pool_size(machines, [], UNWEIGHTED, NOW) == 16.0


def test_group_quota_on_a_pool_of_pslots_without_consumption_policy() -> None:
    """Two 8-CPU partitionable slots, group_a's quota 0.25 × 16 = 4, group_b's 12: each
    group's first match takes a whole slot (group_a's charge 8 > 4 is allowed, nothing used
    yet), so each gets one job and the pool is spent."""
    quotas = QuotaKnobs(allow_quota_oversubscription=False, use_slot_weights=True)
    tree = build_group_tree(
        [GroupConfig("group_a", dynamic_quota=0.25), GroupConfig("group_b", dynamic_quota=0.75)]
    )
    queue = jobs("a", 8, 1, accounting_group="group_a.a") + jobs(
        "b", 8, 2, accounting_group="group_b.b", request_cpus=2
    )
    result = run(pslots(2, 8, 65536), queue, knobs=replace(CURRENT, quotas=quotas), tree=tree)
    assert sorted((m.group, m.charge, dict(m.resources)["Cpus"]) for m in result.matches) == [
        ("group_a", 8.0, 1),
        ("group_b", 8.0, 2),
    ]


def test_group_quota_on_a_pool_of_pslots() -> None:
    """Two 8-CPU partitionable slots with a consumption policy: the quota pool is 16 (Σ SLOT_WEIGHT). group_a gets
    0.25 × 16 = 4, group_b 0.75 × 16 = 12, no surplus. group_a's 1-CPU jobs take 4 CPUs
    (4 jobs); group_b's 2-CPU jobs take 12 CPUs (6 jobs). Each group's limit is in CPUs,
    as each match costs its carved CPUs."""
    quotas = QuotaKnobs(allow_quota_oversubscription=False, use_slot_weights=True)
    tree = build_group_tree(
        [GroupConfig("group_a", dynamic_quota=0.25), GroupConfig("group_b", dynamic_quota=0.75)]
    )
    queue = jobs("a", 8, 1, accounting_group="group_a.a") + jobs(
        "b", 8, 2, accounting_group="group_b.b", request_cpus=2
    )
    machines = pslots(2, 8, 65536, consumption_policy=True)
    result = run(machines, queue, knobs=replace(CURRENT, quotas=quotas), tree=tree)
    cpus: dict[str, float] = {}
    for m in result.matches:
        cpus[m.group or ""] = cpus.get(m.group or "", 0.0) + dict(m.resources)["Cpus"]
    assert cpus == {"group_a": 4.0, "group_b": 12.0}
    assert result.pool_size == 16.0


def _leftovers(machines: list[MachineSpec], claims: list[Claim]) -> list[Slot]:
    slots = [Slot(i, *where) for i, where in enumerate(expand_slots(machines))]
    add_dynamic_slots(slots, machines, claims, lambda c: {})
    return slots


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.tuples(st.integers(1, 6), st.integers(0, 5000)), max_size=6),
            st.lists(st.integers(0, 20), max_size=4),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_carved_plus_leftover_is_the_totals(
    steps: list[tuple[list[tuple[int, int]], list[int]]],
) -> None:
    """After any sequence of cycles and removals, on each partitionable slot the carved
    resources and what is left add up to its totals (never more than it has), every claim
    was charged its carved CPUs, and weighted use returns to 0 once every claim ends."""
    machines = pslots(2, 8, 8192)
    held: list[Claim] = []
    in_use = 0.0
    cluster = 1
    for queue_spec, removals in steps:
        queue = [
            J(id=f"{cluster + i}.0", owner="u", request_cpus=c, request_memory=mb)
            for i, (c, mb) in enumerate(queue_spec)
        ]
        cluster += len(queue)
        result = run(machines, queue, knobs=CURRENT, claims=held)
        held = claims_of(result, held)
        in_use += sum(m.weight for m in result.matches)
        for r in removals:
            if held:
                gone = held.pop(r % len(held))
                in_use -= gone.weight or 0.0
        slots = _leftovers(machines, held)
        for parent in (s for s in slots if s.partitionable):
            carved = [s for s in slots if s.parent is parent]
            for resource, total in (("Cpus", 8), ("Memory", 8192)):
                used = sum(dict(s.resources)[resource] for s in carved)
                assert used + dict(parent.resources)[resource] == total
        assert all(c.weight == dict(c.resources)["Cpus"] for c in held)
        assert in_use == sum(dict(c.resources)["Cpus"] for c in held)
    for c in held:
        in_use -= c.weight or 0.0
    assert in_use == 0.0


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 6), st.integers(0, 5000)), max_size=10),
    st.integers(1, 8),
)
def test_consumption_charges_add_up_to_the_slot_weight_taken(
    queue_spec: list[tuple[int, int]], num_claims: int
) -> None:
    """With a consumption policy each charge is ``SlotWeight`` before less after
    (``cp_deduct_assets``), so on each partitionable slot the charges of one cycle add up
    to its weight at the start less its weight at the end (``Cpus * Cpus``: 8² - left²),
    whatever the jobs; and no slot takes more than ``num_claims`` matches."""
    knobs = replace(CURRENT, slot_weight="Cpus * Cpus")
    machines = pslots(2, 8, 8192, consumption_policy=True, num_claims=num_claims)
    queue = [
        J(id=f"{i + 1}.0", owner=f"u{i % 2}", request_cpus=c, request_memory=mb)
        for i, (c, mb) in enumerate(queue_spec)
    ]
    result = run(machines, queue, knobs=knobs)
    for host in ("big001", "big002"):
        mine = [m for m in result.matches if m.slot.endswith(f"@{host}")]
        assert len(mine) <= num_claims
        left = 8 - sum(dict(m.resources)["Cpus"] for m in mine)
        charged = sum(m.weight if m.charge is None else m.charge for m in mine)
        assert charged == 64 - left * left


def test_consumption_policy_requirements_see_what_the_job_consumes() -> None:
    """``cp_override_requested``: while the slot's ``Requirements`` are evaluated the job's
    ``RequestMemory`` is what it would consume. ``CONSUMPTION_MEMORY = 100``: a 2000 MB job
    passes ``TARGET.RequestMemory <= MY.Memory`` on 1000 MB (100 <= 1000) and is carved
    100 MB; without the policy it does not fit."""
    queue = jobs("a", 1, 1, request_memory=2000)
    machines = pslots(1, 4, 1000, consumption_policy=True, consumption_memory="100")
    result = run(machines, queue, knobs=CURRENT)
    assert [dict(m.resources) for m in result.matches] == [{"Cpus": 1, "Memory": 100}]
    assert run(pslots(1, 4, 1000), queue, knobs=CURRENT).matches == []


def test_a_consumption_that_is_a_boolean_consumes_1_or_0() -> None:
    """``CONSUMPTION_CPUS = TARGET.RequestCpus > 0``: ``cp_compute_consumption`` reads it
    with ``EvalFloat`` (``EvaluateAttrNumber``: a boolean is a number, true 1.0), so each
    2-CPU job consumes 1 CPU of 4: four matches, dynamic slots of 1 CPU and 1024 MB
    (``quantize(1024,{128})``), each charged 1 (``Cpus`` before less after); the fifth
    finds no CPU left. A boolean was taken as no number: no match at all."""
    queue = jobs("a", 5, 1, request_cpus=2, request_memory=1024)
    machines = pslots(
        1, 4, 8192, consumption_policy=True, consumption_cpus="TARGET.RequestCpus > 0"
    )
    result = run(machines, queue, knobs=CURRENT)
    charged = [m.weight if m.charge is None else m.charge for m in result.matches]
    assert [(m.slot, dict(m.resources)) for m in result.matches] == [
        (f"slot1_{n}@big001", {"Cpus": 1, "Memory": 1024}) for n in (1, 2, 3, 4)
    ]
    assert charged == [1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize(
    ("weight", "weights"),
    [
        # read only what stanza, claim state, kind and resources fix: once per such shape
        pytest.param("Cpus", [1, 4, 1, 2], id="cpus"),
        pytest.param("Memory / 1000.0", [2.048, 4.096, 1.024, 1.024], id="memory"),
        pytest.param("ifThenElse(DynamicSlot =?= true, 10, Cpus)", [1, 4, 10, 10], id="kind"),
        # read a slot's own name: once per slot
        pytest.param("Cpus * SlotID", [1 * 1, 4 * 2, 1 * 1, 2 * 1], id="slot-id"),
    ],
)
def test_pool_size_sums_each_slot_ads_weight(weight: str, weights: list[float]) -> None:
    """``Matchmaker::sumSlotWeights`` (matchmaker.cpp): Σ SLOT_WEIGHT over every slot ad,
    ad by ad. By hand, on one machine of two partitionable slots of 4 CPUs and 4096 MB, two
    claims carved out of the first (1 CPU and 1024 MB, 2 CPUs and 1024 MB): the first
    publishes 1 CPU and 2048 MB left, the second its totals, the dynamic slots their own
    (and their partitionable slot's ``SlotID``), summed in that order."""
    machines = [
        MachineSpec(
            name="big",
            count=1,
            slots=2,
            attributes={"Cpus": 4, "Memory": 4096},
            partitionable=True,
        )
    ]
    held = [
        Claim("slot1_2@big001", "u1@d", "2.0", NOW, 2.0, (("Cpus", 2), ("Memory", 1024))),
        Claim("slot1_1@big001", "u0@d", "1.0", NOW, 1.0, (("Cpus", 1), ("Memory", 1024))),
    ]
    by_hand = 0.0
    for w in weights:
        by_hand += w
    assert pool_size(machines, held, replace(CURRENT, slot_weight=weight), NOW) == by_hand
