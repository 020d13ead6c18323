"""``Returned.insert``: where 25.0's ``MatchListType::insert_candidate``
(``src/condor_negotiator.V6/matchmaker.cpp``) puts a consumption-policy slot handed back to
a live match list. It starts at the head and moves down past every entry it ranks strictly
above (``sort_compare``), stopping at the first it does not."""

from __future__ import annotations

from fairshare_cli.core.htcondor.negotiator.common import NO_PREEMPTION
from fairshare_cli.core.htcondor.negotiator.slots import Slot
from fairshare_cli.core.htcondor.negotiator.turn import Key, Returned


def _key(pre: float) -> Key:
    """An unclaimed candidate's key with pre-job rank ``pre`` (job rank and post 0)."""
    return (pre, 0.0, 0.0, NO_PREEMPTION, -3.4028234663852886e38)


def _names(entries: list[tuple[Slot, Key]]) -> list[str]:
    return [slot.machine for slot, _ in entries]


def test_a_leftover_above_the_next_candidate_goes_behind_the_list() -> None:
    """p (-307168) outranks the rest's next entry (q, -808192): behind the rest."""
    returned = Returned()
    returned.insert(Slot(0, 0, "p", 1), _key(-307168.0), _key(-808192.0))
    assert (_names(returned.front), _names(returned.back)) == ([], ["p"])


def test_a_leftover_that_ties_the_next_candidate_stays_first() -> None:
    """An equal key is not ranked strictly above (``sort_compare`` is false): it stays at
    the head, before the rest; so does one ranked below."""
    for pre in (-307168.0, -400000.0):
        returned = Returned()
        returned.insert(Slot(0, 0, "p", 1), _key(pre), _key(-307168.0))
        assert (_names(returned.front), _names(returned.back)) == (["p"], [])


def test_the_walk_passes_the_entries_handed_back_before_it() -> None:
    """p (-307168) does not outrank the rest's next entry (-300000): it stays first. q
    (-206144) outranks p and the rest's next entry: it goes past both, to the end. p
    popped, its leftover (-206144) outranks the rest's next entry and ties q: it goes
    behind the rest, before q."""
    returned = Returned()
    returned.insert(Slot(0, 0, "p", 1), _key(-307168.0), _key(-300000.0))
    returned.insert(Slot(1, 1, "q", 1), _key(-206144.0), _key(-300000.0))
    assert (_names(returned.front), _names(returned.back)) == (["p"], ["q"])
    returned.front.pop(0)
    returned.insert(Slot(0, 0, "p", 1), _key(-206144.0), _key(-300000.0))
    assert (_names(returned.front), _names(returned.back)) == ([], ["p", "q"])


def test_with_nothing_left_in_the_rest_the_leftover_stays_with_the_handed_back() -> None:
    """No rest (None): a slot that does not outrank the first entry handed back behind the
    rest stays before it."""
    returned = Returned()
    returned.insert(Slot(0, 0, "p", 1), _key(-1.0), None)
    returned.insert(Slot(1, 1, "q", 1), _key(-2.0), None)
    assert (_names(returned.front), _names(returned.back)) == ([], ["q", "p"])
