"""The changing state of a negotiation cycle (everything else is in the snapshot)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from fairshare_cli.core.batches import IdBatch
from fairshare_cli.core.htcondor.concurrency import LimitCounts, Limits
from fairshare_cli.core.htcondor.groups import ROOT
from fairshare_cli.core.htcondor.negotiator.notes import CountedNotes
from fairshare_cli.core.htcondor.negotiator.results import JoblessMatch, Match
from fairshare_cli.core.htcondor.negotiator.snapshot import Snapshot

if TYPE_CHECKING:
    from fairshare_cli.core.htcondor.negotiator.carving import Carver
    from fairshare_cli.core.htcondor.negotiator.slots import Slot
    from fairshare_cli.core.htcondor.negotiator.turn import Turn


class CycleState:
    """What the pie spins change: usage, matches, free slots, the group negotiating.

    Attributes:
        usage: submitter -> weighted resources in use (the accountant's, then each match
            adds its slot weight and each preemption takes the preempted one's off).
        group_usage: group -> the same, summed over its submitters.
        group_quota: group -> the quota it negotiates with this cycle.
        negotiating_group: the group whose submitters negotiate now (``<none>`` without
            group quotas).
        matches: the matches so far, in order.
        available: slots not matched yet.
        limits: the accountant's concurrency-limit counts, matches included.
        spins: pie spins so far, over every group.
        left_to_schedd: (submitter, jobs) a depth-first match left to the schedd
            (``NEGOTIATOR_DEPTH_FIRST``, :mod:`.depth_first`), in order.
        rematched: ids of ``left_to_schedd`` a re-offered request's match took.
        jobless: the matches no job takes on slots no claim held (:mod:`.depth_first`).
        notes: where the cycle departs from HTCondor (:mod:`.notes`).
    """

    __slots__ = (
        "available",
        "group_quota",
        "group_usage",
        "jobless",
        "left_to_schedd",
        "limits",
        "matches",
        "negotiating_group",
        "notes",
        "rematched",
        "spins",
        "usage",
    )

    def __init__(self, snap: Snapshot) -> None:
        self.usage = dict(snap.usage)
        self.group_usage = dict(snap.group_usage)
        self.group_quota: dict[str, float] = {}
        self.negotiating_group = ROOT
        self.matches: list[Match] = []
        self.available = snap.matchable
        start = snap.limit_counts
        self.limits = LimitCounts(start.maxima, start.default, start.scopes)
        self.limits.counts = dict(start.counts)
        self.spins = 0
        self.left_to_schedd: list[tuple[str, IdBatch]] = []
        self.notes = CountedNotes()
        self.rematched: set[str] = set()
        self.jobless: list[JoblessMatch] = []

    def charge(
        self,
        turn: Turn,
        slot: Slot,
        weight: float,
        carver: Carver | None,
        group_of: Callable[[str], str | None],
        limits: Limits,
    ) -> None:
        """``AddMatch`` within the cycle: ``turn``'s submitter holds ``weight`` more (and
        its turn has used it), a claimed slot's holder that much less (``RemoveMatch``),
        the slot leaves the pool unless ``carver`` puts its leftover back, and the match
        takes ``limits`` (``IncrementLimits``)."""
        usage, group_usage, claim, sub = self.usage, self.group_usage, slot.claim, turn.sub
        if claim is not None:
            old = claim.submitter
            old_group = group_of(old) or ROOT
            usage[old] = max(0.0, usage.get(old, 0.0) - weight)
            group_usage[old_group] = max(0.0, group_usage.get(old_group, 0.0) - weight)
        usage[sub.name] = usage.get(sub.name, 0.0) + weight
        g = sub.group or ROOT
        group_usage[g] = group_usage.get(g, 0.0) + weight
        if carver is None or claim is not None or carver.spent(slot):
            self.available -= 1
        if limits:
            self.limits.add(limits)
        turn.used += weight
        turn.used_unclaimed += weight if claim is None else 0.0
