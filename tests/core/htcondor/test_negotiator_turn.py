"""The submitter-limit test of a preempting candidate, on both paths of
``matchmakingAlgorithm`` (HTCondor 25.0 ``matchmaker.cpp``): building the match list for
the first job of an autocluster, and popping it for the next ones."""

from __future__ import annotations

import pytest

from fairshare_cli.core.htcondor.negotiator.common import PRIO_PREEMPTION, RANK_PREEMPTION
from fairshare_cli.core.htcondor.negotiator.queue import Submitter
from fairshare_cli.core.htcondor.negotiator.turn import Turn, preempt_permits


def _turn(limit: float, used: float, used_unclaimed: float, *, popped: bool) -> Turn:
    """A turn whose match list for autocluster 0 was built with nothing used; ``popped``:
    the search under way is the next job's, which pops it."""
    turn = Turn(Submitter("a@d", 500.0, None, -1), limit, limit)
    turn.start_search(0, False)
    turn.used, turn.used_unclaimed = used, used_unclaimed
    if popped:
        turn.start_search(0, False)
    return turn


@pytest.mark.parametrize(
    ("tier", "limit", "used", "used_unclaimed", "popped", "expected"),
    [
        # building: a priority preemption fits limitUsed under the limit (2 + 2 > 2.93)
        pytest.param(PRIO_PREEMPTION, 2.93, 2.0, 0.0, False, False, id="build-prio-over"),
        pytest.param(PRIO_PREEMPTION, 2.93, 0.0, 0.0, False, True, id="build-prio-fits"),
        # building: machine rank is not tested ("regardless of user priorities")
        pytest.param(RANK_PREEMPTION, 0.0, 5.0, 0.0, False, True, id="build-rank-untested"),
        # popping: over the limit, but 0 used on unclaimed slots rounds up once
        pytest.param(PRIO_PREEMPTION, 2.93, 2.0, 0.0, True, True, id="pop-prio-unclaimed"),
        # popping: neither fits (2 + 2 > 2.93 twice, and 2 used: no rounding up)
        pytest.param(PRIO_PREEMPTION, 2.93, 2.0, 2.0, True, False, id="pop-prio-neither"),
        # popping: machine rank is tested too; a limit of 0 lets nothing round up
        pytest.param(RANK_PREEMPTION, 0.0, 1.0, 0.0, True, False, id="pop-rank-no-slice"),
        pytest.param(RANK_PREEMPTION, 2.93, 3.0, 0.0, True, True, id="pop-rank-unclaimed"),
    ],
)
def test_preempt_permits(
    tier: int, limit: float, used: float, used_unclaimed: float, popped: bool, expected: bool
) -> None:
    turn = _turn(limit, used, used_unclaimed, popped=popped)
    assert preempt_permits(turn, tier, 2.0 if tier == PRIO_PREEMPTION else 1.0) is expected


def test_a_new_autocluster_or_rank_mode_builds_a_new_list() -> None:
    """The list is the autocluster's and ``only_consider_startd_rank``'s: another
    autocluster, or the switch to machine rank only, builds a new one (not popped)."""
    turn = Turn(Submitter("a@d", 500.0, None, -1), 3.0, 3.0)
    turn.start_search(0, False)
    turn.start_search(0, False)
    assert turn.cached
    turn.start_search(1, False)
    assert not turn.cached
    turn.start_search(1, True)
    assert not turn.cached
