"""Ephemeral negotiation attributes (seed §3.4.3, reference §5.6) decide real outcomes.

Each test runs the same pool twice with one attribute's value (or the threshold it is
compared with) changed, and checks by hand which slots are preempted or preferred.
"""

from __future__ import annotations

from dataclasses import replace

from negotiation_helpers import LEGACY, NOW, J, jobs, pool, run

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.groups import GroupConfig, QuotaKnobs, build_group_tree
from fairshare_cli.core.htcondor.negotiator import Claim, NegotiatorKnobs

#: Oversubscription on, so a static quota is kept as configured (no scaling to the pool).
OVERSUB = QuotaKnobs(allow_quota_oversubscription=True, use_slot_weights=False)


def _knobs(preq: str, quotas: QuotaKnobs | None = None) -> NegotiatorKnobs:
    return replace(LEGACY, preemption_requirements=preq, quotas=quotas or LEGACY.quotas)


def _claims(holders: list[str]) -> tuple[list[Claim], list[J]]:
    """Claims on exec001… in order, one per holder name (``group.user`` or ``user``)."""
    claims: list[Claim] = []
    running: list[J] = []
    for i, holder in enumerate(holders, start=1):
        group, _, user = holder.rpartition(".")
        job_id = f"9.{i}"
        claims.append(Claim(f"slot1@exec{i:03d}", f"{holder}@example.org", job_id, NOW - 7200))
        running.append(
            J(job_id, user, accounting_group=holder if group else None, status="running")
        )
    return claims, running


def _preempted(result: object) -> list[tuple[str, str, str | None]]:
    return [(m.job_id, m.reason, m.preempted_job) for m in result.matches]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------
# Slot side: the running submitter's group


def _group_pool(quota_a: float, holders: list[str], preq: str) -> object:
    """4 one-slot machines; group_a (quota ``quota_a``) and group_b (quota 3); b.y wants
    more. Priorities: everyone at EUP 10 but b.y at 1 (so 7.x's 0.5 rule never objects)."""
    tree = build_group_tree(
        [GroupConfig("group_a", quota=quota_a), GroupConfig("group_b", quota=3)]
    )
    claims, running = _claims(holders)
    usage: dict[str, float] = {}
    for c in claims:
        usage[c.submitter] = usage.get(c.submitter, 0.0) + 1.0
    prios = {name: 10.0 for name in usage}
    prios["group_b.y@example.org"] = 1.0
    queue = running + jobs("y", 4, 1, accounting_group="group_b.y")
    return run(
        pool(4),
        queue,
        prios=prios,
        usage=usage,
        claims=claims,
        tree=tree,
        knobs=_knobs(preq, OVERSUB),
    )


def test_remote_group_resources_in_use_decides_preemption() -> None:
    # group_b's limit: quota 3, usage 1 -> 2 more slots, both by priority preemption.
    preq = "RemoteGroupResourcesInUse > 2"
    # group_a runs 3 slots: 3 > 2, its first two slots go to b.y
    result = _group_pool(1, ["group_a.x", "group_a.x", "group_a.x", "group_b.y"], preq)
    assert _preempted(result) == [("1.0", "priority", "9.1"), ("1.1", "priority", "9.2")]
    # group_a runs 2 (and zed, in <none>, 1): nobody's group uses more than 2
    result = _group_pool(1, ["group_a.x", "group_a.x", "zed", "group_b.y"], preq)
    assert result.matches == []  # type: ignore[attr-defined]
    assert {u.reason for u in result.unmatched} == {"preemption_requirements"}  # type: ignore[attr-defined]


def test_remote_group_quota_decides_preemption() -> None:
    preq = "RemoteGroupQuota < 2"
    holders = ["group_a.x", "group_a.x", "group_a.x", "group_b.y"]
    # group_a's quota 1 < 2: preempted (twice, group_b's limit)
    result = _group_pool(1, holders, preq)
    assert _preempted(result) == [("1.0", "priority", "9.1"), ("1.1", "priority", "9.2")]
    # quota 3: not
    assert _group_pool(3, holders, preq).matches == []  # type: ignore[attr-defined]


def test_remote_group_names_the_root_group_too() -> None:
    # RemoteGroup is "<none>" for a running submitter outside every group (group quotas
    # in effect): only zed's slot may be taken
    preq = 'RemoteGroup == "<none>"'
    result = _group_pool(1, ["group_a.x", "zed", "group_a.x", "group_b.y"], preq)
    assert _preempted(result) == [("1.0", "priority", "9.2")]
    preq = 'RemoteGroup == "group_a"'
    result = _group_pool(1, ["group_a.x", "zed", "group_a.x", "group_b.y"], preq)
    assert _preempted(result) == [("1.0", "priority", "9.1"), ("1.1", "priority", "9.3")]


def test_submitter_group_resources_in_use_and_quota_decide_preemption() -> None:
    holders = ["group_a.x", "group_a.x", "group_a.x", "group_b.y"]
    # b.y's group uses 1 of its quota 3
    ok = _group_pool(1, holders, "SubmitterGroupResourcesInUse < 2 && SubmitterGroupQuota > 2")
    assert len(ok.matches) == 2  # type: ignore[attr-defined]
    assert _group_pool(1, holders, "SubmitterGroupResourcesInUse < 1").matches == []  # type: ignore[attr-defined]
    assert _group_pool(1, holders, "SubmitterGroupQuota > 3").matches == []  # type: ignore[attr-defined]
    # SubmitterGroup =?= RemoteGroup (the UWCS rule): only same-group claims
    same = _group_pool(
        1, ["group_a.x", "group_b.z", "group_a.x", "group_b.y"], "SubmitterGroup =?= RemoteGroup"
    )
    assert _preempted(same) == [("1.0", "priority", "9.2")]


# ---------------------------------------------------------------------------------------
# Slot side and job side: users


def test_remote_user_resources_in_use_decides_which_slots_go() -> None:
    # joe runs exec001, hog exec002-003. Spin 1: the newcomer's limit 3·20/22 -> 2 slots;
    # joe and hog have no idle jobs and leave, spin 2 leaves the newcomer the whole pool.
    # The slot ads keep the usage of the start of the cycle (hog: 2, joe: 1).
    claims, running = _claims(["joe", "hog", "hog"])
    prios = {"joe@example.org": 10.0, "hog@example.org": 10.0}
    usage = {"joe@example.org": 1.0, "hog@example.org": 2.0}
    queue = running + jobs("new", 3, 1)

    def cycle(preq: str) -> list[tuple[str, str, str | None]]:
        return _preempted(run(pool(3), queue, prios, usage, _knobs(preq), claims))

    assert cycle("RemoteUserResourcesInUse > 1") == [
        ("1.0", "priority", "9.2"),
        ("1.1", "priority", "9.3"),
    ]
    assert cycle("RemoteUserResourcesInUse > 0") == [
        ("1.0", "priority", "9.1"),
        ("1.1", "priority", "9.2"),
        ("1.2", "priority", "9.3"),
    ]


def test_submitter_user_resources_in_use_decides_preemption() -> None:
    # the newcomer runs exec001 and wants exec002 from hog: limit 2·20/21 - 1 = 0.905,
    # which the crumbs rule rounds up to one slot; spin 2 has no limit left
    claims, running = _claims(["new", "hog"])
    prios = {"hog@example.org": 10.0}
    usage = {"new@example.org": 1.0, "hog@example.org": 1.0}
    queue = running + jobs("new", 2, 1)
    refused = run(pool(2), queue, prios, usage, _knobs("SubmitterUserResourcesInUse < 1"), claims)
    assert refused.matches == []
    allowed = run(pool(2), queue, prios, usage, _knobs("SubmitterUserResourcesInUse < 2"), claims)
    assert _preempted(allowed) == [("1.0", "priority", "9.2")]


# ---------------------------------------------------------------------------------------
# Job side: the group being negotiated


def _autoregroup_pool(rank: str) -> list[tuple[str, str]]:
    """small001, small002 (1 GiB) then big001 (64 GiB). group_b (quota 1, autoregroup)
    takes one slot in its own turn, the other two in the autoregroup turn of <none>."""
    machines = [
        MachineSpec(name="small", count=2, attributes={"Cpus": 1, "Memory": 1024}),
        MachineSpec(name="big", count=1, attributes={"Cpus": 1, "Memory": 65536}),
    ]
    tree = build_group_tree([GroupConfig("group_b", quota=1, autoregroup=True)])
    queue = jobs("y", 3, 1, accounting_group="group_b.y", rank=rank)
    result = run(machines, queue, tree=tree)
    return [(m.job_id, m.slot) for m in result.matches]


def test_submitter_autoregroup_flips_the_job_rank() -> None:
    # own turn: -Memory prefers a small slot; autoregroup turn: +Memory the big one
    rank = "ifThenElse(SubmitterAutoregroup, TARGET.Memory, -TARGET.Memory)"
    assert _autoregroup_pool(rank) == [
        ("1.0", "slot1@small001"),
        ("1.1", "slot1@big001"),
        ("1.2", "slot1@small002"),
    ]
    # without the attribute the job always prefers the big slot first
    assert _autoregroup_pool("TARGET.Memory")[0] == ("1.0", "slot1@big001")


def test_submitter_negotiating_group_flips_the_job_rank() -> None:
    rank = 'ifThenElse(SubmitterNegotiatingGroup == "<none>", TARGET.Memory, -TARGET.Memory)'
    assert _autoregroup_pool(rank) == [
        ("1.0", "slot1@small001"),
        ("1.1", "slot1@big001"),
        ("1.2", "slot1@small002"),
    ]
    rank = 'ifThenElse(SubmitterNegotiatingGroup == "group_b", TARGET.Memory, -TARGET.Memory)'
    assert _autoregroup_pool(rank) == [
        ("1.0", "slot1@big001"),
        ("1.1", "slot1@small001"),
        ("1.2", "slot1@small002"),
    ]


def test_submitter_group_and_quota_in_a_job_rank() -> None:
    # two groups, one big and one small slot: each job's Rank reads its own group
    machines = [
        MachineSpec(name="small", count=1, attributes={"Cpus": 1, "Memory": 1024}),
        MachineSpec(name="big", count=1, attributes={"Cpus": 1, "Memory": 65536}),
    ]
    tree = build_group_tree([GroupConfig("group_a", quota=1), GroupConfig("group_b", quota=1)])
    rank = 'ifThenElse(SubmitterGroup == "group_b", TARGET.Memory, -TARGET.Memory)'
    queue = [
        J("1.0", "x", accounting_group="group_a.x", rank=rank),
        J("2.0", "y", accounting_group="group_b.y", rank=rank),
    ]
    result = run(machines, queue, tree=tree)
    assert {m.job_id: m.slot for m in result.matches} == {
        "1.0": "slot1@small001",
        "2.0": "slot1@big001",
    }
    # SubmitterGroupQuota: quota 1 -> (1 - 2) < 0 prefers small, quota 3 -> big
    # (oversubscription on: 3 is kept although the pool has 2 slots)
    rank = "TARGET.Memory * (SubmitterGroupQuota - 2)"
    knobs = _knobs(LEGACY.preemption_requirements or "", OVERSUB)
    for quota, slot in ((1, "slot1@small001"), (3, "slot1@big001")):
        tree = build_group_tree([GroupConfig("group_a", quota=quota)])
        one = run(
            machines,
            [J("1.0", "x", accounting_group="group_a.x", rank=rank)],
            tree=tree,
            knobs=knobs,
        )
        assert [m.slot for m in one.matches] == [slot]
