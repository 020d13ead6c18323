"""``NEGOTIATOR_SLOT_CONSTRAINT``: the slot ads the negotiator fetches from the collector.

25.0's ``Matchmaker::obtainAdsFromCollector`` adds it to its query of slot ads, and the
collector sends only the ads it is true on (``query_scanFunc``: ``EvalExprToBool`` of the
public ad, no target, then ``IsBooleanValueEquiv``: true or a non-zero number; undefined, an
error or a string are not). The other slots are not in the cycle: never matched, not in the
pool size, the pie's slot total, what group quotas share or the smallest slot weight
(``negotiationTime`` takes them all from the ads it fetched, before the
``NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT`` picks among those), and the attributes their
``START`` and ``RANK`` read are not significant (``compute_significant_attrs``).

The ad is the one the startd publishes: the attributes the negotiator adds to a claimed
slot (``addRemoteUserPrios``: ``RemoteUserPrio``, ``RemoteUserResourcesInUse``,
``RemoteGroup``...) are undefined on it. Two things fs does not model are refused, in one
line naming the key: a constraint that reads ``CurrentRank`` or ``AccountingGroup`` (the
startd's values of a claimed slot, which fs does not keep), and one that leaves out a
claimed slot (``Accountant::CheckMatches`` then finds no ad for the claim and removes the
match from the accountant: its submitter's usage drops and stops being charged).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.classads import Ad, Compiled, Evaluator
from fairshare_cli.core.htcondor.negotiator.partitionable import fresh_slots
from fairshare_cli.core.htcondor.negotiator.results import Claim, NegotiatorKnobs, SubmitterPrio
from fairshare_cli.core.htcondor.negotiator.running import RunningJobs
from fairshare_cli.core.htcondor.negotiator.slots import (
    Slot,
    claim_values,
    compile_knob,
    slot_ad,
    slot_values,
    stanza_slot_names,
)
from fairshare_cli.errors import ConfigError

KEY = "[negotiator] slot_constraint"

#: What the negotiator adds to a claimed slot's ad after it fetched it (lower case).
ADDED_BY_NEGOTIATOR = frozenset(
    {
        "remoteuserprio",
        "remoteuserresourcesinuse",
        "remotegroup",
        "remotegroupresourcesinuse",
        "remotegroupquota",
    }
)
#: The startd's attributes of a claimed slot whose values fs does not keep (lower case).
UNKNOWN = frozenset({"currentrank", "accountinggroup"})


class SlotFilter:
    """Which slots the collector sends the negotiator (:meth:`fetched`)."""

    def __init__(self, ev: Evaluator, machines: Sequence[MachineSpec], text: str) -> None:
        self.ev, self.machines, self.text = ev, machines, text
        self.empty = Ad({}, {}, ev, "empty")
        self._exprs: dict[tuple[int, bool], Compiled] = {}

    def _expr(self, stanza: int, claimed: bool) -> Compiled:
        found = self._exprs.get((stanza, claimed))
        if found is None:
            names = stanza_slot_names(self.machines[stanza], claimed) - ADDED_BY_NEGOTIATOR
            found = compile_knob(self.ev, self.text, names, "slot_constraint")
            assert found is not None
            read = {r.lower() for r in (*found.my_refs, *found.target_refs)} & UNKNOWN
            if read:
                raise ConfigError(
                    f"{KEY} reads {', '.join(sorted(read))}: fs does not know a claimed "
                    "slot's value of it as the collector holds it"
                )
            self._exprs[(stanza, claimed)] = found
        return found

    def fetched(self, slot: Slot, now: float) -> bool:
        """Whether the constraint is true on the slot's ad as the collector holds it."""
        spec = self.machines[slot.stanza]
        values = slot_values(spec, slot, now)
        claim = slot.claim
        if claim is not None:
            owner = claim.submitter.split("@")[0]
            added = claim_values(claim, SubmitterPrio(0.5), owner, now)
            values.update((k, v) for k, v in added.items() if k.lower() not in ADDED_BY_NEGOTIATOR)
        expr = self._expr(slot.stanza, claim is not None)
        return self.ev.is_true(expr, slot_ad(spec, values, self.ev), self.empty, cached=False)


def left_out(
    ev: Evaluator,
    machines: Sequence[MachineSpec],
    text: str | None,
    slots: Sequence[Slot],
    now: float,
) -> frozenset[int]:
    """The pool indexes of the ``slots`` the constraint leaves out (none when unset).

    Raises:
        ConfigError: it does not parse, reads what fs does not know, or leaves out a
            claimed slot.
    """
    if text is None:
        return frozenset()
    keep = SlotFilter(ev, machines, text)
    out = frozenset(slot.index for slot in slots if not keep.fetched(slot, now))
    for slot in slots:
        if slot.index in out and slot.claim is not None:
            raise ConfigError(
                f"{KEY} is not true on {slot.name}, claimed by {slot.claim.submitter}: "
                "25.0's CheckMatches would then drop that claim from the accountant, which "
                "fs does not model"
            )
    return out


def fetch(
    ev: Evaluator,
    machines: Sequence[MachineSpec],
    knobs: NegotiatorKnobs,
    claims: list[Claim],
    running: RunningJobs,
    now: float,
) -> tuple[list[Slot] | None, frozenset[int], Collection[int]]:
    """A cycle's slots as the collector sends them: with the constraint, the slots (made
    here, claims held), those it leaves out, and the stanzas of those it sends; without,
    (None, none, every stanza).

    Raises:
        ConfigError: as :func:`left_out`.
    """
    text = knobs.slot_constraint
    if text is None:
        return None, frozenset(), range(len(machines))
    slots = fresh_slots(machines, claims, running.jobs)
    out = left_out(ev, machines, text, slots, now)
    return slots, out, {slot.stanza for slot in slots if slot.index not in out}
