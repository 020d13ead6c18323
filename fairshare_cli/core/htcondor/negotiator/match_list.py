"""Consumption-policy slots handed back to a live match list (25.0's ``MatchListType``).

After a match on a partitionable slot with a consumption policy, ``matchmakingProtocol``
gives the slot, ranked afresh for the job (``returnPslotToMatchList``), back to the match
list the job's autocluster is popping, when the job still matches what is left.
``MatchListType::insert_candidate`` puts it at the head of the list and walks it down past
every entry it ranks strictly above (``sort_compare``), stopping at the first one it does
not: a leftover that still ranks above the next candidate goes behind the candidates the
list holds (the list is sorted best first), one that does not stays first. The next jobs
of the autocluster in the turn pop the list in that order (an entry the submitter limit or
a concurrency limit refuses is dropped); a new list (another autocluster, submitter or
spin) ranks every slot afresh. Dropping changes nothing here: a refused entry would be
refused again, as the turn's usage and the limits' counts only grow.

A job the popped list has nothing for is given the reasons its build counted
(``MatchListType::get_diagnostics``), the submitter limit's counting the pops' refusals
too: a concurrency limit only when the build refused a candidate for one. The build tests
every candidate, the submitter limit before the concurrency limits; a refusal while
popping is not counted. Jobs of one autocluster each asking a limit of one slot: the
first builds the list with every slot (the limit is not yet taken) and takes one, the
second pops the others, each refused, and is rejected with "no match found"
(``match_list_used_up``).

Here the list is the autocluster's ranked groups and, when preemption is considered, its
claimed candidates, as they were when it was built (the rest, popped from the last match
on; an unclaimed entry is in it if the unclaimed limit admitted it then, a priority
preemption if the submitter limit did, a machine-rank one always), with the slots handed
back before the rest and behind it (:class:`~.turn.Returned`). A claimed entry ranks by
the full ``sort_compare`` key (pre-job rank, job rank, post-job rank, preemption state,
``PREEMPTION_RANK``): under the default ranks an unclaimed leftover outranks every claimed
slot, so it goes behind them and the next jobs preempt them first, where their limit
allows.
"""

from __future__ import annotations

from typing import Protocol

from fairshare_cli.core.htcondor.negotiator.candidates import Candidates
from fairshare_cli.core.htcondor.negotiator.carving import Carver
from fairshare_cli.core.htcondor.negotiator.claimed import Allowed
from fairshare_cli.core.htcondor.negotiator.common import (
    NO_PREEMPTION,
    PRIO_PREEMPTION,
    RANK_PREEMPTION,
)
from fairshare_cli.core.htcondor.negotiator.queue import AutoCluster
from fairshare_cli.core.htcondor.negotiator.slots import Slot, SlotClass
from fairshare_cli.core.htcondor.negotiator.turn import Key, LimitTest, Turn, permits

#: what a search gives: the slot (None: no match), its preemption state, the reason
Found = tuple[Slot | None, int, str]


class Searcher(Protocol):
    """What :func:`find_live` needs of the :class:`.matchmaking.Matchmaker` (which imports
    this module)."""

    carver: Carver | None

    def search(
        self, turn: Turn, ac: AutoCluster, only_rank: bool, test: LimitTest | None
    ) -> tuple[Slot | None, int, str]: ...

    def take_unclaimed(
        self,
        cls: SlotClass,
        ac: AutoCluster,
        test: LimitTest | None,
        turn: Turn,
        taken: SlotClass | None,
    ) -> Slot: ...

    def claimed_view(self, turn: Turn, ac: AutoCluster, only_rank: bool) -> Allowed: ...

    limit_behind: str | None

    def reject_reason(
        self, turn: Turn, ac: AutoCluster, only_rank: bool, limit_rejected: bool
    ) -> str: ...


def list_diagnostics(
    mm: Searcher, turn: Turn, ac: AutoCluster, only_rank: bool, test: LimitTest, found: Found
) -> Found:
    """``found`` with 25.0's reason (``Matchmaker::negotiate``) for a job whose
    ``ConcurrencyLimits`` is an expression (``test``): a concurrency limit first, whatever
    else refused, when the build of the list it popped refused a candidate for one (noted
    when a search builds the list); otherwise not, even if the pops refused one for it."""
    slot, tier, reason = found
    if not turn.cached:
        turn.list_refused_limit = test.refused or _build_refuses(mm, turn, ac, only_rank, test)
    if slot is not None or (reason == "concurrency_limit" and turn.list_refused_limit):
        return found
    if reason == "concurrency_limit":  # (refused while popping only: not counted)
        reason = mm.reject_reason(turn, ac, only_rank, False)
        if reason == "matching_slots_taken":  # (no slot it matches is taken: some were passed)
            reason = "match_list_used_up"
    elif turn.list_refused_limit:  # (named first; a limit that refused too still counts)
        if reason in ("submitter_limit", "group_quota"):
            mm.limit_behind = reason
        reason = "concurrency_limit"
    return slot, tier, reason


def _build_refuses(
    mm: Searcher, turn: Turn, ac: AutoCluster, only_rank: bool, test: LimitTest
) -> bool:
    """Whether the build of the list refused a candidate the submitter limit admitted for a
    concurrency limit (``matchmakingAlgorithm`` tests every candidate, the limit with what
    the turn used before it, then the limits; the search stopped at its match, or where
    the limit refused the cheapest slot)."""
    carver = mm.carver
    for group in [] if only_rank else ac.groups or []:
        for cls in group:
            if cls.head >= len(cls.slots):
                continue
            cost = carver.cost(cls, ac.ad) if cls.partitionable and carver else cls.weight
            if cost is None or not permits(turn.list_used_unclaimed, turn.limit_unclaimed, cost):
                continue
            if not test.allows(cls):
                return True
    claimed = mm.claimed_view(turn, ac, only_rank)
    ci = claimed.first_live()
    name = turn.sub.name
    while (head := claimed.get(ci)) is not None:
        ci += 1
        _, cls, tier = head
        if cls.head >= len(cls.slots) or (tier != RANK_PREEMPTION and cls.remote == name):
            continue
        admitted = tier == RANK_PREEMPTION or (
            not only_rank and permits(turn.list_used, turn.limit, cls.weight)
        )
        if admitted and not test.allows(cls):
            return True
    return False


def find_live(
    mm: Searcher, turn: Turn, ac: AutoCluster, only_rank: bool, test: LimitTest | None
) -> tuple[Slot | None, int, str]:
    """:meth:`.Matchmaker.find` popping a live list that got slots back: those before
    its rest, the rest, then those behind it. A refusal by the unclaimed limit among the
    slots handed back makes the job's reason the limit's."""
    carver = mm.carver
    assert carver is not None
    best, rejected = pop_returned(turn.returned.front, turn, ac, carver, test)
    if best is None:
        slot, tier, reason = mm.search(turn, ac, only_rank, test)
        if slot is not None:
            return slot, tier, reason
        turn.returned.group = len(ac.groups or [])  # (the rest popped to its end)
        turn.returned.last = ()  # (every key ranks above the empty one)
        best, behind = pop_returned(turn.returned.back, turn, ac, carver, test)
        if best is None:
            if (rejected or behind) and reason not in ("submitter_limit", "group_quota"):
                reason = "group_quota" if turn.limit_unclaimed < turn.limit else "submitter_limit"
            return None, NO_PREEMPTION, reason
    return mm.take_unclaimed(best, ac, test, turn, None), NO_PREEMPTION, ""


def hand_back(
    turn: Turn,
    ac: AutoCluster,
    taken: SlotClass | None,
    dslot: Slot,
    carver: Carver,
    candidates: Candidates,
    claimed: Allowed,
) -> None:
    """After a match carved ``dslot``: its partitionable slot, when it takes more this
    cycle and still matches the job, goes back into the turn's live list
    (``returnPslotToMatchList``). ``taken``: the class of the list's rest it was popped
    from (None: it was one handed back before); ``claimed``: the claimed candidates the
    list was built with (none when it holds unclaimed slots only)."""
    pslot = dslot.parent
    if pslot is None or carver.spent(dslot):
        return
    key = candidates.unclaimed_key(carver.snap.slot_class[pslot.index], ac.ad)
    if key is None:
        return
    groups = ac.groups or []
    if taken is not None:
        turn.returned.group = next(
            (g for g, group in enumerate(groups) if taken in group), len(groups)
        )
        if turn.returned.group < len(groups):
            turn.returned.last = ac.group_keys[turn.returned.group]
    rest = _rest_key(turn, ac, carver)
    turn.returned.insert(pslot, key, _claimed_key(turn, claimed, rest, key))


def _rest_key(turn: Turn, ac: AutoCluster, carver: Carver) -> Key | None:
    """The key of the next unclaimed entry of the list's rest (None: none is left): the
    first group from the last match's on with a free slot the unclaimed limit admitted
    when the list was built (``SubmitterLimitPermits`` before ``add_candidate``)."""
    groups, keys = ac.groups or [], ac.group_keys
    for g in range(turn.returned.group, len(groups)):
        for cls in groups[g]:
            if cls.head >= len(cls.slots):
                continue
            cost = carver.cost(cls, ac.ad) if cls.partitionable else cls.weight
            if cost is not None and permits(turn.list_used_unclaimed, turn.limit_unclaimed, cost):
                return keys[g]
    return None


def _claimed_key(turn: Turn, claimed: Allowed, rest: Key | None, key: Key) -> Key | None:
    """The key of the rest's next entry, claimed ones included, as far as it decides where
    a slot ranked ``key`` goes (``rest``, the unclaimed one, when no claimed entry left
    ranks as high as ``key`` or ``key`` does not outrank ``rest``). A claimed entry is in
    the rest when it ranks no higher than the last match popped from it, has a free slot,
    and the list took it when it was built: a machine-rank preemption always, a priority
    one the submitter may preempt when it fitted ``limitUsed`` under ``submitterLimit``
    then (``SubmitterLimitPermits`` before ``add_candidate``)."""
    if rest is not None and not key > rest:
        return rest  # (it stays before the rest whatever claimed entry comes next)
    last = turn.returned.last
    ci = claimed.first_live()
    while (head := claimed.get(ci)) is not None and head[0] >= key:
        ci += 1
        entry_key, cls, tier = head
        if (last is not None and entry_key > last) or cls.head >= len(cls.slots):
            continue  # (popped, or taken)
        if tier == RANK_PREEMPTION or (
            tier == PRIO_PREEMPTION and permits(turn.list_used, turn.limit, cls.weight)
        ):
            return entry_key
    return rest


def pop_returned(
    entries: list[tuple[Slot, Key]],
    turn: Turn,
    ac: AutoCluster,
    carver: Carver,
    test: LimitTest | None,
) -> tuple[SlotClass | None, bool]:
    """Pop handed-back entries (``pop_candidate``) until one the unclaimed limit and the
    concurrency limits let the job take: (its class or None, whether the limit refused
    one)."""
    rejected = False
    while entries:
        pslot = entries.pop(0)[0]
        cls = carver.snap.slot_class[pslot.index]
        if cls.head >= len(cls.slots) or cls.slots[cls.head] is not pslot:
            continue
        cost = carver.cost(cls, ac.ad)
        if cost is None:
            continue
        if not permits(turn.used_unclaimed, turn.limit_unclaimed, cost):
            rejected = True
            continue
        if test is not None and not test.allows(cls):
            continue
        return cls, rejected
    return None, rejected
