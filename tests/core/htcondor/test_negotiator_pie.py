"""A submitter's slice of a pie spin (``negotiator/pie.py``: ``calculateSubmitterLimit``)."""

from __future__ import annotations

import pytest

from fairshare_cli.core.htcondor.negotiator.pie import PieSpin, sort_submitters, submitter_limit
from fairshare_cli.core.htcondor.negotiator.queue import Submitter
from fairshare_cli.core.htcondor.negotiator.turn import permits


def _spin(group_quota: float, group_usage: float, preempt: bool = True) -> PieSpin:
    """One submitter at EUP 0.5 alone in group_a (max 0.5, normal 1: share 1) on a pool
    the quota trims."""
    return PieSpin(1, 0.5, 1.0, group_quota, group_quota, group_usage, 0.0, "group_a", preempt)


def test_what_the_group_has_left_is_a_c_float() -> None:
    """``calculateSubmitterLimit`` (HTCondor 25.0 ``matchmaker.cpp``) takes ``float
    groupQuota, float groupusage`` and computes ``float maxAllowed = groupQuota -
    groupusage``. Quota 2, usage seven slots of 0.1 = 0.7: (float)0.7 =
    0.699999988079071, 2 − it = 1.300000011920929, exactly half-way between the floats
    1.2999999523162842 and 1.3000000715255737; ties to even: 1.2999999523162842. The
    limit itself (share 1 × 2 − 0 = 2) stays a double."""
    usage = 0.0
    for _ in range(7):
        usage += 0.1
    limit = submitter_limit(_spin(2, usage), eup=0.5, usage=0.0)
    assert limit.limit == 2.0
    assert limit.limit_unclaimed == 1.2999999523162842
    used = 0.0
    for _ in range(12):
        used += 0.1
    assert not permits(used, limit.limit_unclaimed, 0.1)  # 1.2 + 0.1 = 1.3 > 1.29999995


@pytest.mark.parametrize(
    ("group_usage", "left"),
    [
        pytest.param(0.5, 1.5, id="a-float-usage-is-exact"),
        pytest.param(2.5, 0.0, id="over-the-quota-leaves-nothing"),
        pytest.param(0.30000000000000004, 1.7000000476837158, id="rounds-up-too"),
    ],
)
def test_left_in_float(group_usage: float, left: float) -> None:
    """(float)0.30000000000000004 = 0.30000001192092896; 2 − it = 1.699999988079071,
    half-way between the floats 1.6999999284744263 and 1.7000000476837158; ties to even
    give the larger (the double 2 − 0.30000000000000004 = 1.7 is below it)."""
    assert submitter_limit(_spin(2, group_usage), 0.5, 0.0).limit_unclaimed == left


def test_without_preemption_the_limit_is_the_float_left() -> None:
    """``if (!ConsiderPreemption) submitterLimit = submitterLimitUnclaimed``."""
    limit = submitter_limit(_spin(2, 0.7, preempt=False), 0.5, 0.0)
    assert limit.limit == limit.limit_unclaimed == 1.2999999523162842


def _subs(keys: list[tuple[float, float]]) -> list[Submitter]:
    subs = []
    for k, (eup, starvation) in enumerate(keys):
        sub = Submitter(f"s{k:02d}@d", eup, None, -1)
        sub.starvation = starvation
        subs.append(sub)
    return subs


def test_submitters_sort_by_priority_then_starvation_and_no_name() -> None:
    """``submitterLessThan``: the lower priority value first, then the lower
    ``SubmitterStarvation``; the name never counts, so the tied s00 and s03 stay in the
    order they came in (four items: an insertion sort)."""
    subs = _subs([(2.0, 0.0), (1.0, 0.5), (1.0, 0.25), (2.0, 0.0)])
    sort_submitters(subs)
    assert [s.name for s in subs] == ["s02@d", "s01@d", "s00@d", "s03@d"]


def test_seventeen_tied_submitters_end_as_the_introsort_leaves_them() -> None:
    """Derived by hand from libstdc++'s ``std::sort`` on 17 equal items: the median of
    three (items 1, 8, 16) is item 8 when all compare equal, swapped to the front; the
    unguarded partition swaps 1<->16, 2<->15, ..., 8<->9 and cuts at 9; the final insertion
    sort moves nothing: 8, 16, 15, ..., 9, 0, 7, 6, ..., 1."""
    subs = _subs([(0.5, 0.0)] * 17)
    sort_submitters(subs)
    assert [int(s.name[1:3]) for s in subs] == [8, *range(16, 8, -1), 0, *range(7, 0, -1)]
