"""``NEGOTIATOR_CONSIDER_PREEMPTION = False`` (``[negotiator] consider_preemption = false``).

What ``matchmaker.cpp`` does when ``ConsiderPreemption`` is off: ``trimStartdAds`` drops the
claimed slots (no candidate may be preempted, for priority or for machine rank) after the
pool's weight was summed (``untrimmedSlotWeightTotal``: the pie is still the whole pool);
``filter_submitters_no_idle`` drops submitters without idle jobs before
``calculateNormalizationFactor``; the first spin respects submitter limits too; the
submitter limit is ``submitterLimitUnclaimed``; a spin with ``pieLeft <= 0`` halts; and,
without slot weights, a match refused for the submitter limit ends the submitter's turn
("Hit submitter limit: done negotiating").
"""

from __future__ import annotations

from dataclasses import replace

from negotiation_helpers import CURRENT, LEGACY, NOW, J, jobs, matched_per_submitter, pool, run

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator import Claim

OFF = replace(LEGACY, consider_preemption=False)
NO_PREQ = replace(LEGACY, preemption_requirements="false")


def test_claimed_slots_are_never_preempted_for_priority() -> None:
    """The claims of ``test_priority_preemption_needs_preemption_requirements`` (where the
    legacy profile preempts both): with preemption off no slot is left to match, the pool
    size stays 2 (untrimmed), and the newcomer's jobs find the pool used up."""
    claims = [Claim(f"slot1@exec00{i}", "hog@example.org", f"9.{i}", NOW - 7200) for i in (1, 2)]
    queue = [J(f"9.{i}", "hog", status="running") for i in (1, 2)] + jobs("new", 2, 1)
    prios = {"hog@example.org": 100.0}
    usage = {"hog@example.org": 2.0}
    assert len(run(pool(2), queue, prios=prios, usage=usage, claims=claims).matches) == 2
    result = run(pool(2), queue, prios=prios, usage=usage, claims=claims, knobs=OFF)
    assert result.matches == []
    assert result.pool_size == 2
    assert [(u.submitter, u.reason, u.count) for u in result.unmatched] == [
        ("new@example.org", "pool_exhausted", 2)
    ]


def test_claimed_slots_are_never_preempted_for_machine_rank() -> None:
    """The machine ranks the vip's job above the one it runs: rank preemption, unless
    preemption is off."""
    machines = [
        MachineSpec(
            name="exec", count=1, attributes={"Cpus": 1, "Memory": 4096}, rank='Owner == "vip"'
        )
    ]
    claims = [Claim("slot1@exec001", "joe@example.org", "9.0", NOW - 10)]
    queue = [J("9.0", "joe", status="running"), J("1.0", "vip")]
    usage = {"joe@example.org": 1.0}
    on = run(machines, queue, usage=usage, claims=claims, knobs=CURRENT)
    assert [m.reason for m in on.matches] == ["rank"]
    off = replace(CURRENT, consider_preemption=False)
    assert run(machines, queue, usage=usage, claims=claims, knobs=off).matches == []


def test_submitters_without_idle_jobs_leave_the_pie_before_it_is_shared() -> None:
    """Pool of 6, the hog (EUP 0.5, no idle job) holds 2; a (EUP 1) and b (EUP 2) have 10
    idle jobs each; nothing is preempted either way (PREEMPTION_REQUIREMENTS false).

    On: spin 1 shares among hog, a, b: max 2, normal 2/0.5 + 2/1 + 2/2 = 7, slot weight
    total 6; a's limit 6·2/7 = 1.71 → 1 match (a second one would pass the limit), b's
    6·1/7 = 0.86 → 1 (the first match of a spin may round up). Spin 2 without the hog:
    normal 3, a 6·2/3 − 1 = 3, b 6·1/3 − 1 = 1: a takes the last 2 free slots → a 3, b 1.

    Off: the hog is filtered out first: normal 3, a's limit 4, b's 2, pie 6 > 0; a takes 4
    slots, its whole limit and all the unclaimed ones (its other 6 wait for the submitter
    limit), and b finds the pool used up → a 4, b 0.
    """
    claims = [Claim(f"slot1@exec00{i}", "hog@example.org", f"9.{i}", NOW - 60) for i in (1, 2)]
    queue = (
        [J(f"9.{i}", "hog", status="running") for i in (1, 2)] + jobs("a", 10, 1) + jobs("b", 10, 2)
    )
    prios = {"hog@example.org": 0.5, "a@example.org": 1.0, "b@example.org": 2.0}
    usage = {"hog@example.org": 2.0}
    on = run(pool(6), queue, prios=prios, usage=usage, claims=claims, knobs=NO_PREQ)
    assert matched_per_submitter(on) == {"a@example.org": 3, "b@example.org": 1}
    assert on.spins == 2
    off = replace(NO_PREQ, consider_preemption=False)
    result = run(pool(6), queue, prios=prios, usage=usage, claims=claims, knobs=off)
    assert matched_per_submitter(result) == {"a@example.org": 4}
    assert result.spins == 1
    assert {m.slot for m in result.matches} == {f"slot1@exec00{i}" for i in (3, 4, 5, 6)}
    assert [(u.submitter, u.reason) for u in result.unmatched] == [
        ("a@example.org", "submitter_limit"),
        ("b@example.org", "pool_exhausted"),
    ]


def test_a_submitter_limit_refusal_ends_the_turn_without_slot_weights() -> None:
    """Pool of 3, a and b at EUP 0.5: limits 3·1/2 = 1.5 each. a's job 1.0 matches; 1.1
    would bring a to 2 > 1.5: refused for the submitter limit. With preemption on the turn
    goes on to job 3.0 (Requirements false: no matching slot); off, the turn ends there
    and 3.0 waits for the submitter limit too. b matches 1 either way; spin 2 gives each
    3/2 − 1 = 0.5 < the smallest slot weight 1, so the cycle ends."""
    queue = [*jobs("a", 2, 1), J("3.0", "a", job_prio=-1, requirements="false")]
    queue += jobs("b", 2, 2)
    reasons = {}
    for knobs in (LEGACY, OFF):
        result = run(pool(3), queue, knobs=knobs)
        assert matched_per_submitter(result) == {"a@example.org": 1, "b@example.org": 1}
        reasons[knobs.consider_preemption] = {j: r for j, _, r in result.iter_unmatched()}
    assert reasons[True] == {
        "1.1": "submitter_limit",
        "3.0": "no_matching_slot",
        "2.1": "submitter_limit",
    }
    assert reasons[False] == {
        "1.1": "submitter_limit",
        "3.0": "submitter_limit",
        "2.1": "submitter_limit",
    }
