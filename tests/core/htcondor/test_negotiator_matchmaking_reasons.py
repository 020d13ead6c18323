"""Why a job is left unmatched when more than one thing refused it: HTCondor 25.0's
``Matchmaker::negotiate`` names, in order, a concurrency limit, then
``PREEMPTION_REQUIREMENTS == False``, then insufficient priority, then the submitter limit
(``src/condor_negotiator.V6/matchmaker.cpp``). ``matchmakingAlgorithm`` tests every slot
still unmatched: an unclaimed one against the submitter limit (``rejForSubmitterLimit``),
one claimed by another submitter that the machine does not prefer the job for against
``PREEMPTION_REQUIREMENTS`` first (``rejPreemptForPolicy``). A slot the job's own submitter
holds is passed over without either.

The numbers are derived by hand from ``calculateSubmitterLimit`` and
``SubmitterLimitPermits``: every submitter's EUP is 0.5, slot weights are 1 (Cpus = 1),
and the current profile's ``PREEMPTION_REQUIREMENTS`` is ``false`` (HTCondor 25.0's
default).
"""

from __future__ import annotations

from negotiation_helpers import CURRENT, NOW, J, jobs, pool, run

from fairshare_cli.core.htcondor.groups import GroupConfig, build_group_tree
from fairshare_cli.core.htcondor.negotiator import Claim


def _claims(*pairs: tuple[str, str]) -> tuple[list[Claim], list[J], dict[str, float]]:
    """Claims of (slot, accounting name) pairs, their running jobs and the usage they weigh."""
    claims: list[Claim] = []
    running: list[J] = []
    usage: dict[str, float] = {}
    for n, (slot, name) in enumerate(pairs):
        claims.append(Claim(slot, f"{name}@example.org", f"9.{n}", NOW - 7200))
        owner = name.rsplit(".", 1)[-1]
        group = name if "." in name else None
        running.append(J(f"9.{n}", owner, accounting_group=group, status="running"))
        usage[f"{name}@example.org"] = usage.get(f"{name}@example.org", 0.0) + 1.0
    return claims, running, usage


def test_preemption_requirements_is_named_before_the_submitter_limit() -> None:
    """3 slots, bob holds slot1@exec001, alice has three jobs. Spin 1: shares 0.5/(0.5 x
    2) = 0.5, alice's limit 0.5 x 3 - 0 = 1.5. 1.0 takes slot1@exec002; for 1.1,
    slot1@exec003 would make 1 + 1 > 1.5 (refused by the limit) and bob's slot is refused
    by PREEMPTION_REQUIREMENTS: HTCondor names the latter (fs named the limit). The limit
    still refused it, so alice resumes in spin 2 (bob, with no idle job, is done): limit
    1.0 x 3 - 1 = 2, and 1.1 takes slot1@exec003."""
    claims, running, usage = _claims(("slot1@exec001", "bob"))
    queue = running + jobs("alice", 3, 1)
    result = run(pool(3), queue, usage=usage, knobs=CURRENT, claims=claims, explain="1.1")
    assert [(m.job_id, m.slot) for m in result.matches] == [
        ("1.0", "slot1@exec002"),
        ("1.1", "slot1@exec003"),
    ]
    assert result.spins == 2
    rejected = [e for e in result.explain if e["event"] == "rejected"]
    assert [(e["spin"], e["reason"]) for e in rejected] == [(1, "preemption_requirements")]
    assert [(j, r) for j, _, r in result.iter_unmatched()] == [("1.2", "preemption_requirements")]


def test_a_group_at_its_quota_waits_for_preemption_requirements() -> None:
    """4 slots, group_a's static quota 2 held by dave's two claims, bob (<none>) holds a
    third; alice (group_a) has one job. group_a negotiates a pie of min(4, 2) = 2: alice's
    share 0.5/(0.5 x 2) = 0.5, limit 0.5 x 2 - 0 = 1, unclaimed limit min(1, 2 - 2) = 0.
    The free slot1@exec004 is refused (0 used, 0 allowed: no rounding up), dave's and bob's
    slots by PREEMPTION_REQUIREMENTS: HTCondor says PREEMPTION_REQUIREMENTS == False, fs
    said group_quota."""
    claims, running, usage = _claims(
        ("slot1@exec001", "group_a.dave"),
        ("slot1@exec002", "group_a.dave"),
        ("slot1@exec003", "bob"),
    )
    tree = build_group_tree([GroupConfig("group_a", quota=2)])
    queue = [*running, J("1.0", "alice", accounting_group="group_a.alice")]
    result = run(pool(4), queue, usage=usage, knobs=CURRENT, claims=claims, tree=tree)
    assert result.matches == []
    assert [(j, r) for j, _, r in result.iter_unmatched()] == [("1.0", "preemption_requirements")]


def test_the_submitters_own_slot_is_no_preemption_refusal() -> None:
    """As above with group_a's quota 3 and alice's own claim on slot1@exec003 (alice's
    limit 0.5 x 3 - 1 = 0.5, unclaimed min(0.5, 3 - 3) = 0), her job matching only her own
    slot and the free one: her own slot is passed over without a test, so only the limit
    refused it (group_quota, HTCondor's submitter limit)."""
    claims, running, usage = _claims(
        ("slot1@exec001", "group_a.dave"),
        ("slot1@exec002", "group_a.dave"),
        ("slot1@exec003", "group_a.alice"),
    )
    tree = build_group_tree([GroupConfig("group_a", quota=3)])
    own_or_free = 'Name == "slot1@exec003" || Name == "slot1@exec004"'
    job = J("1.0", "alice", accounting_group="group_a.alice", requirements=own_or_free)
    result = run(pool(4), [*running, job], usage=usage, knobs=CURRENT, claims=claims, tree=tree)
    assert [(j, r) for j, _, r in result.iter_unmatched()] == [("1.0", "group_quota")]
