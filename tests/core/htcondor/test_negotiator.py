"""One negotiation cycle: the seed's statements as tests, with hand-checked numbers."""

from __future__ import annotations

import pytest
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

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.groups import GroupConfig, build_group_tree
from fairshare_cli.core.htcondor.negotiator import Claim
from fairshare_cli.errors import ConfigError, InputError

EUPS = {"a@example.org": 5.0, "b@example.org": 10.0, "c@example.org": 20.0}


@pytest.mark.parametrize("knobs", [LEGACY, CURRENT], ids=["legacy", "current"])
def test_eup_5_10_20_saturating_a_pool_get_4_2_1(knobs: object) -> None:
    queue = jobs("a", 100, 1) + jobs("b", 100, 2) + jobs("c", 100, 3)
    result = run(pool(70), queue, prios=EUPS, knobs=knobs)  # type: ignore[arg-type]
    assert matched_per_submitter(result) == {
        "a@example.org": 40,
        "b@example.org": 20,
        "c@example.org": 10,
    }
    shares = {s.name: s.share for s in result.submitters}
    assert shares["a@example.org"] == pytest.approx(4 / 7)
    assert shares["c@example.org"] == pytest.approx(1 / 7)


def test_unused_slice_is_repartitioned_by_the_inverse_ratio() -> None:
    # a wants only 10 of its 40; the 30 left go to b and c on the next spin:
    # b's limit 2/3·70 − 20 = 26.67 → 26 more, c gets the last 4.
    queue = jobs("a", 10, 1) + jobs("b", 100, 2) + jobs("c", 100, 3)
    result = run(pool(70), queue, prios=EUPS)
    assert matched_per_submitter(result) == {
        "a@example.org": 10,
        "b@example.org": 46,
        "c@example.org": 14,
    }
    assert result.spins == 2


def test_a_later_spin_whose_slices_are_all_below_one_slot_leaves_slots_idle() -> None:
    """EUP 1, 2, 3 on 10 slots, each with plenty of jobs (``negotiateWithGroup``): max 3,
    normalFactor 3/1 + 3/2 + 3/3 = 5.5, shares 6/11, 3/11, 2/11, limits 5.45, 2.73, 1.82.
    Spin 1 matches 5, 2, 1 (a next match would pass each limit). Spin 2: limits 0.45,
    0.73, 0.82, all below minSlotWeight 1, so each turn is skipped (MM_RESUME); pieLeft
    stays 2.0 and nobody left, so the spins end with 2 of the 10 slots unmatched."""
    prios = {"a@example.org": 1.0, "b@example.org": 2.0, "c@example.org": 3.0}
    queue = jobs("a", 10, 1) + jobs("b", 10, 2) + jobs("c", 10, 3)
    result = run(pool(10), queue, prios=prios)
    assert matched_per_submitter(result) == {
        "a@example.org": 5,
        "b@example.org": 2,
        "c@example.org": 1,
    }
    assert result.spins == 2
    limits = {s.name: s.limit for s in result.submitters}
    assert limits == pytest.approx(
        {"a@example.org": 60 / 11, "b@example.org": 30 / 11, "c@example.org": 20 / 11}
    )


def test_usage_counts_against_the_slice() -> None:
    # equal EUPs, 10 slots; a already holds 4 of a pool of 10 (+4 claimed) → limit 7 − 4 = 3
    claims = [Claim(f"slot1@exec{i:03d}", "a@example.org", f"9.{i}", NOW - 60) for i in (1, 2)]
    queue = jobs("a", 20, 1) + jobs("b", 20, 2)
    result = run(pool(10), queue, usage={"a@example.org": 2.0}, claims=claims)
    per = matched_per_submitter(result)
    assert per["a@example.org"] == 3  # share 5 − usage 2
    assert per["b@example.org"] == 5
    assert all(m.reason == "no_preemption" for m in result.matches)


def test_jobs_go_in_job_priority_order() -> None:
    queue = [
        J("1.0", "a", job_prio=0),
        J("2.0", "a", job_prio=10),
        J("3.0", "a", job_prio=5),
    ]
    result = run(pool(2), queue)
    assert [m.job_id for m in result.matches] == ["2.0", "3.0"]
    assert [u.job_ids for u in result.unmatched] == [["1.0"]]


def test_equal_priorities_go_by_submit_time_in_legacy_and_by_id_today() -> None:
    queue = [J("1.0", "a", submit_time=200.0), J("2.0", "a", submit_time=100.0)]
    assert [m.job_id for m in run(pool(1), queue).matches] == ["2.0"]
    assert [m.job_id for m in run(pool(1), queue, knobs=CURRENT).matches] == ["1.0"]


def test_unmatchable_high_priority_job_does_not_block_a_lower_one() -> None:
    queue = [
        J("1.0", "a", job_prio=10, requirements="TARGET.Memory > 100000"),
        J("2.0", "a", job_prio=9),
    ]
    result = run(pool(1), queue)
    assert [m.job_id for m in result.matches] == ["2.0"]
    assert [(u.job_ids, u.reason) for u in result.unmatched] == [(["1.0"], "no_matching_slot")]


def test_rejected_job_skips_its_cluster_in_legacy_and_its_autocluster_today() -> None:
    queue = [
        J("1.0", "a", requirements="TARGET.Memory > 100000"),
        J("1.1", "a"),
    ]
    assert run(pool(2), queue).matches == []  # 7.x: the rest of cluster 1 is skipped
    assert [m.job_id for m in run(pool(2), queue, knobs=CURRENT).matches] == ["1.1"]


def test_nice_user_only_gets_what_nobody_else_wants() -> None:
    prios = {"nice-user.bob@example.org": 0.5 * 1e7}
    queue = jobs("alice", 6, 1) + jobs("bob", 10, 2, nice_user=True)
    result = run(pool(10), queue, prios=prios)
    assert matched_per_submitter(result) == {
        "alice@example.org": 6,
        "nice-user.bob@example.org": 4,
    }
    alice_slots = {m.slot for m in result.matches if m.submitter == "alice@example.org"}
    assert len(alice_slots) == 6


def test_priority_preemption_needs_preemption_requirements() -> None:
    claims = [Claim(f"slot1@exec00{i}", "hog@example.org", f"9.{i}", NOW - 7200) for i in (1, 2)]
    running = [J(f"9.{i}", "hog", status="running") for i in (1, 2)]
    prios = {"hog@example.org": 100.0}
    usage = {"hog@example.org": 2.0}
    queue = running + jobs("new", 2, 1)
    # legacy: ran over an hour and the hog's EUP is more than 1.2 × the newcomer's
    # (spin 1: limit 2·200/201 = 1.99; the first job builds the match list and preempts
    # 9.1, 0 + 1 <= 1.99; the second pops the list, where a preemption may also fit the
    # unclaimed limit, and nothing is used on unclaimed slots: 9.2 in the same spin)
    legacy = run(pool(2), queue, prios=prios, usage=usage, claims=claims)
    assert [(m.reason, m.preempted_job) for m in legacy.matches] == [
        ("priority", "9.1"),
        ("priority", "9.2"),
    ]
    assert legacy.spins == 1
    # not long enough: PREEMPTION_REQUIREMENTS is false, nothing is preempted
    young = [Claim(c.slot, c.submitter, c.job_id, NOW - 600) for c in claims]
    result = run(pool(2), queue, prios=prios, usage=usage, claims=young)
    assert result.matches == []
    assert result.unmatched[0].reason == "preemption_requirements"
    # current profile: PREEMPTION_REQUIREMENTS = false
    assert run(pool(2), queue, prios=prios, usage=usage, claims=claims, knobs=CURRENT).matches == []


def test_machine_rank_preempts_whatever_preemption_requirements_says() -> None:
    machines = [
        MachineSpec(
            name="exec",
            count=1,
            attributes={"Cpus": 1, "Memory": 4096},
            rank='TARGET.Owner == "vip"',
        )
    ]
    claims = [Claim("slot1@exec001", "joe@example.org", "9.0", NOW - 10)]
    queue = [J("9.0", "joe", status="running"), J("1.0", "vip")]
    result = run(machines, queue, usage={"joe@example.org": 1.0}, claims=claims, knobs=CURRENT)
    assert [(m.job_id, m.reason, m.preempted_job) for m in result.matches] == [
        ("1.0", "rank", "9.0")
    ]


@pytest.mark.parametrize("knobs", [LEGACY, CURRENT], ids=["legacy", "current"])
def test_machine_rank_preempts_the_submitters_own_claim(knobs: object) -> None:
    """``matchmakingAlgorithm`` tests a claimed slot's ``RANK > CurrentRank`` before it
    asks whether the slot's remote user is the submitter itself: only priority
    preemption spares one's own claim. The slot ranks by ``JobPrio``: joe's running 9.0
    (JobPrio 0) has CurrentRank 0, his idle 1.0 (JobPrio 5) rank 5 > 0, so 1.0 takes the
    slot and 9.0 is preempted, though joe is at his limit (1 slot of a 1-slot pool: only
    machine-rank preemption is considered). A job the slot ranks the same (JobPrio 0)
    does not preempt it."""
    machines = [
        MachineSpec(
            name="exec", count=1, attributes={"Cpus": 1, "Memory": 4096}, rank="TARGET.JobPrio"
        )
    ]
    claims = [Claim("slot1@exec001", "joe@example.org", "9.0", NOW - 10)]
    running = J("9.0", "joe", status="running", job_prio=0)
    for prio, want in ((5, [("1.0", "rank", "9.0")]), (0, [])):
        queue = [running, J("1.0", "joe", job_prio=prio)]
        result = run(
            machines,
            queue,
            usage={"joe@example.org": 1.0},
            claims=claims,
            knobs=knobs,  # type: ignore[arg-type]
        )
        assert [(m.job_id, m.reason, m.preempted_job) for m in result.matches] == want


def test_slot_weights_charge_cpus() -> None:
    machines = [MachineSpec(name="big", count=2, slots=1, attributes={"Cpus": 4, "Memory": 8192})]
    queue = jobs("a", 5, 1) + jobs("b", 5, 2)
    result = run(machines, queue, knobs=CURRENT)
    assert result.pool_size == 8
    assert [m.weight for m in result.matches] == [4.0, 4.0]
    assert matched_per_submitter(result) == {"a@example.org": 1, "b@example.org": 1}


def test_job_rank_picks_the_preferred_slot() -> None:
    machines = [
        MachineSpec(name="small", count=2, attributes={"Cpus": 1, "Memory": 1024}),
        MachineSpec(name="big", count=1, attributes={"Cpus": 1, "Memory": 65536}),
    ]
    result = run(machines, [J("1.0", "a", rank="TARGET.Memory")])
    assert [m.slot for m in result.matches] == ["slot1@big001"]


def test_group_quotas_cap_each_group() -> None:
    tree = build_group_tree(
        [GroupConfig("group_a", quota=3), GroupConfig("group_b", quota=7, accept_surplus=True)]
    )
    queue = jobs("x", 10, 1, accounting_group="group_a.x") + jobs(
        "y", 10, 2, accounting_group="group_b.y"
    )
    result = run(pool(12), queue, tree=tree)
    per = matched_per_submitter(result)
    assert per["group_a.x@example.org"] == 3
    # group_b takes its 7 plus the 2 slots nobody (but it) can use, as surplus
    assert per["group_b.y@example.org"] == 9
    assert result.group_limits["group_a"] == 3


def test_explain_tells_the_story_of_one_job() -> None:
    result = run(pool(1), jobs("a", 2, 1), explain="1.1")
    events = [e["event"] for e in result.explain]
    assert events[0] == "submitter"
    assert "turn" in events
    assert events[-1] == "unmatched"
    assert result.explain[-1]["reason"] == "pool_exhausted"


def test_bad_job_expression_names_the_job_and_text() -> None:
    with pytest.raises(InputError, match=r"job 1\.0 requirements: cannot parse .*'Memory >'"):
        run(pool(1), [J("1.0", "a", requirements="Memory >")])


def test_bad_machine_expression_names_the_machine() -> None:
    machines = [MachineSpec(name="exec", count=1, start="Owner ==")]
    with pytest.raises(ConfigError, match=r"machine exec start: cannot parse .*'Owner =='"):
        run(machines, [J("1.0", "a")])


def test_group_with_no_quota_and_no_surplus_gets_nothing() -> None:
    tree = build_group_tree([GroupConfig("group_a", quota=0), GroupConfig("group_b", quota=4)])
    queue = jobs("x", 2, 1, accounting_group="group_a.x") + jobs(
        "y", 2, 2, accounting_group="group_b.y"
    )
    result = run(pool(4), queue, tree=tree, explain="1.0")
    assert matched_per_submitter(result) == {"group_b.y@example.org": 2}
    assert {u.reason for u in result.unmatched} == {"group_quota"}
    assert result.explain[-1] == {"event": "unmatched", "reason": "group_quota"}


def test_legacy_priority_preemption_needs_half_a_point_better_eup() -> None:
    # 20 % better but not 0.5 better: 7.x's hard-coded PriorityDelta refuses, before
    # PREEMPTION_REQUIREMENTS is evaluated, counting rejPreemptForPrio: "insufficient priority"
    claims = [Claim("slot1@exec001", "hog@example.org", "9.0", NOW - 7200)]
    queue = [J("9.0", "hog", status="running"), J("1.0", "new")]
    prios = {"hog@example.org": 0.9, "new@example.org": 0.5}
    usage = {"hog@example.org": 1.0}
    result = run(pool(1), queue, prios=prios, usage=usage, claims=claims)
    assert result.matches == []
    assert result.unmatched[0].reason == "insufficient_priority"
    prios["hog@example.org"] = 1.0
    result = run(pool(1), queue, prios=prios, usage=usage, claims=claims)
    assert [(m.reason, m.preempted_job) for m in result.matches] == [("priority", "9.0")]
