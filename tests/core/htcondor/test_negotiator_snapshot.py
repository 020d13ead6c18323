"""What splits claimed slots into slot classes (:class:`Snapshot`).

A claimed slot is a candidate only through preemption: priority preemption needs
``PREEMPTION_REQUIREMENTS`` true (``Matchmaker::matchmakingAlgorithm`` in HTCondor's
``matchmaker.cpp`` skips a claimed slot where it is not), rank preemption a machine
``RANK`` that prefers the new job to the one running (``candidateRankValue >
curRankValue``). When the first reads nothing and is false and every ``RANK`` reads
nothing, no claimed slot is ever a candidate, so ``PREEMPTION_RANK`` and the negotiator's
job ranks are never evaluated on one, and what they read (``TotalJobRuntime``,
``SlotID``, ...) does not split claimed slots.
"""

from __future__ import annotations

from dataclasses import replace

from msgspec.structs import replace as with_fields
from negotiation_helpers import CURRENT, NOW, J, jobs, pool, submitter_of

from fairshare_cli.core.htcondor.negotiator import Claim, SubmitterPrio
from fairshare_cli.core.htcondor.negotiator.results import NegotiatorKnobs
from fairshare_cli.core.htcondor.negotiator.snapshot import CycleInputs, Snapshot

#: Six one-slot machines, four held by u1 (started at four times), two free.
CLAIMS = [
    Claim(f"slot1@exec{k:03d}", "u1@example.org", f"9.{k}", NOW - 600 * k) for k in (1, 2, 3, 4)
]
RUNNING = [J(id=f"9.{k}", owner="u1", status="running") for k in (1, 2, 3, 4)]


def _snapshot(
    knobs: NegotiatorKnobs,
    rank: str | None = None,
    claims: list[Claim] = CLAIMS,
    running: list[J] = RUNNING,
) -> Snapshot:
    machines = [with_fields(spec, rank=rank) for spec in pool(6)]
    queue = [*running, *jobs("u2", 2, 10)]
    inputs = CycleInputs(
        machines,
        claims,
        queue,
        submitter_of,
        lambda name: SubmitterPrio(0.5, 0.0, -1, 0),
        None,
        knobs,
        NOW,
    )
    return Snapshot(inputs, False)


def test_claims_that_can_never_be_taken_share_a_class() -> None:
    # PREEMPTION_REQUIREMENTS = false, no RANK: the default PREEMPTION_RANK reads
    # TotalJobRuntime (four values here) but is never evaluated on these slots
    snap = _snapshot(CURRENT)
    assert [len(c.slots) for c in snap.claimed_classes] == [4]
    assert len(snap.unclaimed_classes) == 1  # the free slots' class key reads SlotID


def test_priority_preemption_splits_by_what_preemption_reads() -> None:
    knobs = replace(CURRENT, preemption_requirements="RemoteUserPrio > SubmitterUserPrio")
    snap = _snapshot(knobs)
    # PREEMPTION_RANK reads TotalJobRuntime: one class per start time
    assert [len(c.slots) for c in snap.claimed_classes] == [1, 1, 1, 1]


def test_a_rank_that_reads_the_job_splits_as_well() -> None:
    snap = _snapshot(CURRENT, rank='TARGET.Owner == "u2"')
    assert [len(c.slots) for c in snap.claimed_classes] == [1, 1, 1, 1]


def test_a_constant_rank_keeps_them_together() -> None:
    snap = _snapshot(CURRENT, rank="5")
    assert [len(c.slots) for c in snap.claimed_classes] == [4]


def test_holders_share_a_class_only_where_nothing_reads_the_holder() -> None:
    # a second holder's claims: no claim attribute is read and no claimed slot can be a
    # candidate, so the holders' slots share one class (matchmaking.py skips a candidate
    # of the submitter's own only on the candidate path)
    claims = [*CLAIMS, Claim("slot1@exec005", "u3@example.org", "8.0", NOW - 60)]
    running = [*RUNNING, J(id="8.0", owner="u3", status="running")]
    never = _snapshot(CURRENT, claims=claims, running=running)
    assert [(len(c.slots), c.remote) for c in never.claimed_classes] == [(5, None)]
    knobs = replace(CURRENT, preemption_requirements="RemoteUserPrio > SubmitterUserPrio")
    split = _snapshot(knobs, claims=claims, running=running)
    assert sorted({c.remote for c in split.claimed_classes}) == ["u1@example.org", "u3@example.org"]
