"""Task queues and their priorities, checked against the seed's rules and DIRAC's code."""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.dirac.first_try import first_try_probabilities
from fairshare_cli.core.dirac.priorities import added, task_queue_priorities, task_queue_rows
from fairshare_cli.core.dirac.stored import real_priority, stored_priority
from fairshare_cli.core.dirac.taskqueues import (
    DEFAULT_CPU_SEGMENTS,
    TQ_MIN_SHARE,
    ShareCorrector,
    TaskQueue,
    TaskQueueDefinition,
    build_task_queues,
    cpu_segment,
    valid_cpu_segments,
)
from fairshare_cli.core.float32 import float32


@dataclass(frozen=True)
class Group:
    job_share: int = 1000
    job_sharing: bool = False
    allow_background_tqs: bool = False


def definition(owner: str, group: str, cpu_time: int = 3600, **sets: Sequence[str]) -> Hashable:
    """A raw key that :func:`define` turns into a definition."""
    return (owner, group, cpu_time, tuple(sorted((k, tuple(v)) for k, v in sets.items())))


def define(raw: Hashable) -> TaskQueueDefinition:
    owner, group, cpu_time, sets = raw  # type: ignore[misc]
    return TaskQueueDefinition(
        owner, group, cpu_segment(cpu_time), **{k: tuple(sorted(v)) for k, v in sets}
    )


def queues_of(jobs: list[tuple[Hashable, int]]) -> list[TaskQueue]:
    return build_task_queues([(key, prio, 1) for key, prio in jobs], define)


def priorities(
    jobs: list[tuple[Hashable, int]], groups: dict[str, Group], **kw: object
) -> list[float]:
    return [p for p, _ in task_queue_priorities(queues_of(jobs), groups, **kw)]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cpu_time", "segment"),
    [
        pytest.param(0, 360, id="zero"),
        pytest.param(360, 360, id="on-boundary"),
        pytest.param(361, 1800, id="just-above"),
        pytest.param(3601, 21600, id="rounded-up"),
        pytest.param(1080000, 1080000, id="last"),
        pytest.param(5_000_000, 1080000, id="beyond-last"),
    ],
)
def test_cpu_time_rounds_up_to_its_segment(cpu_time: int, segment: int) -> None:
    assert cpu_segment(cpu_time) == segment


@pytest.mark.parametrize(
    ("segments", "ok"),
    [
        pytest.param([60, 600], True, id="increasing"),
        pytest.param([600, 60], False, id="decreasing"),
        pytest.param([60, 60], False, id="repeated"),
        pytest.param([60.5, 600], False, id="not-integer"),
        pytest.param([], False, id="empty"),
    ],
)
def test_cpu_segment_lists_must_strictly_increase(segments: list[object], ok: bool) -> None:
    assert valid_cpu_segments(segments) is ok
    assert valid_cpu_segments(list(DEFAULT_CPU_SEGMENTS))


@pytest.mark.parametrize(
    ("user_priority", "value"),
    [
        pytest.param(-3, float32(1e-5), id="negative"),
        pytest.param(0, float32(1e-5), id="zero"),
        pytest.param(1, 1.0, id="one"),
        pytest.param(9, 9.0, id="nine"),
        pytest.param(10, 1e6, id="ten"),
        pytest.param(100, 1e6, id="above-ten"),
    ],
)
def test_job_priority_clamping(user_priority: int, value: float) -> None:
    assert real_priority(user_priority) == value


def test_seed_job_sharing_group_queues_each_get_one_nth() -> None:
    # Four queues (different CPU segments, two owners) in a JobSharing group of share 1000.
    jobs = [
        (definition("alice", "prod", 300), 1),
        (definition("bob", "prod", 3000), 1),
        (definition("alice", "prod", 20000), 1),
        (definition("bob", "prod", 80000), 1),
        (definition("bob", "prod", 80000), 1),
    ]
    got = priorities(jobs, {"prod": Group(1000, job_sharing=True)})
    assert got == [250.0, 250.0, 250.0, 250.0]


def test_seed_non_sharing_group_queues_get_one_over_n_times_u() -> None:
    # U = 2 owners: alice has N = 3 queues, bob N = 1; share 1000.
    jobs = [
        (definition("alice", "user", 300), 1),
        (definition("alice", "user", 3000), 1),
        (definition("alice", "user", 20000), 1),
        (definition("bob", "user", 300), 1),
    ]
    got = priorities(jobs, {"user": Group(1000)})
    assert got == pytest.approx([1000 / 6, 1000 / 6, 1000 / 6, 500.0], rel=1e-15)
    rows = task_queue_rows(queues_of(jobs), {"user": Group(1000)})
    assert [r.priority for r in rows] == [166.667, 166.667, 166.667, 500.0]  # six digits


def test_seed_user_priorities_reweight_queues_within_the_entity() -> None:
    # alice's queues hold priority-1 jobs and priority-3 jobs: 1:3 of her 500; bob keeps 500.
    jobs = [
        (definition("alice", "user", 300), 1),
        (definition("alice", "user", 300), 1),
        (definition("alice", "user", 3000), 3),
        (definition("bob", "user", 300), 1),
    ]
    got = priorities(jobs, {"user": Group(1000)})
    assert got == [125.0, 375.0, 500.0]


def test_documented_sum_weighting_counts_jobs() -> None:
    # Docs: J = sum of the queue's priorities over the entity's sum: 2 x 1 against 1 x 3.
    jobs = [
        (definition("alice", "user", 300), 1),
        (definition("alice", "user", 300), 1),
        (definition("alice", "user", 3000), 3),
    ]
    assert priorities(jobs, {"user": Group(1000)}, weighting="sum") == [400.0, 600.0]
    assert priorities(jobs, {"user": Group(1000)}) == [250.0, 750.0]


def test_counted_jobs_fill_queues_in_order() -> None:
    # 5 identical jobs at once, then 2 more of priority 2, with 3 per queue: 3, 2 + 1, 1.
    jobs = [(definition("alice", "user"), 1, 5), (definition("bob", "user"), 1, 1)]
    jobs.append((definition("alice", "user"), 2, 2))
    queues = build_task_queues(jobs, define, max_jobs_per_tq=3)
    assert [(q.tq_id, q.definition.owner, q.priority_counts) for q in queues] == [
        (1, "alice", ((1, 3),)),
        (2, "alice", ((1, 2), (2, 1))),
        (3, "bob", ((1, 1),)),
        (4, "alice", ((2, 1),)),
    ]


def test_priority_ten_jobs_take_almost_everything_and_the_floor_holds() -> None:
    jobs = [(definition("alice", "user", 300), 10), (definition("alice", "user", 3000), 0)]
    got = priorities(jobs, {"user": Group(1000)})
    assert got[0] == pytest.approx(1000 * 1e6 / (1e6 + float32(1e-5)), rel=1e-15)
    assert got[1] == TQ_MIN_SHARE  # 1000 * 1e-11 is below the minimum share


def test_background_queues_get_the_minimum_and_leave_the_total() -> None:
    jobs = [(definition("alice", "user", 300), 0), (definition("alice", "user", 3000), 2)]
    allowed = priorities(jobs, {"user": Group(1000, allow_background_tqs=True)})
    assert allowed == [TQ_MIN_SHARE, 1000.0]
    refused = priorities(jobs, {"user": Group(1000)})
    assert refused[1] == pytest.approx(1000 * 2 / (2 + float32(1e-5)), rel=1e-15)


def test_an_entity_of_background_queues_only_divides_nothing() -> None:
    jobs = [(definition("alice", "user", 300), 0), (definition("alice", "user", 3000), -2)]
    assert priorities(jobs, {"user": Group(1000, allow_background_tqs=True)}) == [
        TQ_MIN_SHARE,
        TQ_MIN_SHARE,
    ]


def test_queues_differing_only_in_sites_get_the_sum() -> None:
    jobs = [
        (definition("alice", "user", 300, sites=["A"]), 1),
        (definition("alice", "user", 300, sites=["B"]), 1),
        (definition("alice", "user", 300, banned_sites=["C"]), 1),
        (definition("alice", "user", 3000, sites=["A"]), 1),
    ]
    got = priorities(jobs, {"user": Group(1000)})
    assert got == [750.0, 750.0, 750.0, 250.0]


def test_site_order_does_not_make_a_new_queue() -> None:
    jobs = [
        (definition("alice", "user", 300, sites=["A", "B"]), 1),
        (definition("alice", "user", 300, sites=["B", "A"]), 2),
    ]
    (queue,) = queues_of(jobs)
    assert queue.definition.sites == ("A", "B")
    assert queue.priority_counts == ((1, 1), (2, 1))


def test_a_full_queue_gets_a_sibling_and_siblings_sum() -> None:
    jobs = [(definition("alice", "user"), 1, 1)] * 2 + [(definition("carol", "user"), 1, 1)]
    jobs += [(definition("alice", "user"), 1, 1), (definition("bob", "user"), 1, 1)]
    queues = build_task_queues(jobs, define, max_jobs_per_tq=2)
    assert [(q.tq_id, q.definition.owner, q.jobs) for q in queues] == [
        (1, "alice", 2),
        (2, "carol", 1),
        (3, "alice", 1),
        (4, "bob", 1),
    ]
    got = [p for p, _ in task_queue_priorities(queues, {"user": Group(900)})]
    assert got == [300.0, 300.0, 300.0, 300.0]


@pytest.mark.parametrize(
    ("computed", "stored"),
    [
        pytest.param(1000 / 3, 333.333, id="six-digits-read-back"),
        pytest.param(1e8 / 3, 33333300.0, id="float32-rounds"),
        pytest.param(0.001, 0.001, id="minimum"),
        pytest.param(2 / 3 * 1e-4, 0.0001, id="rounds-up"),
    ],
)
def test_stored_priority(computed: float, stored: float) -> None:
    assert stored_priority(computed) == stored


def exact_first(ps: Sequence[Fraction]) -> list[Fraction]:
    """r_i ∫_0^1 Π_{j≠i}(1 - r_j t) dt by expanding the polynomial exactly."""
    top = max(ps)
    out = []
    for i, p in enumerate(ps):
        coeffs = [Fraction(1)]
        for j, q in enumerate(ps):
            if j == i:
                continue
            r = q / top
            coeffs = [
                a - r * b
                for a, b in zip([*coeffs, Fraction(0)], [Fraction(0), *coeffs], strict=True)
            ]
        out.append(p / top * sum(c / (k + 1) for k, c in enumerate(coeffs)))
    return out


def test_first_try_for_two_queues_is_one_minus_half_the_ratio() -> None:
    assert first_try_probabilities([300.0, 100.0]) == pytest.approx([5 / 6, 1 / 6], rel=1e-15)


@pytest.mark.parametrize("n", [3, 7, 60, 130])
def test_first_try_matches_the_exact_integral(n: int) -> None:
    ps = [Fraction(1 + (k * 37) % 11, 1 + k % 3) for k in range(n)]
    got = first_try_probabilities([float(p) for p in ps])
    want = [float(x) for x in exact_first(ps)]
    assert got == pytest.approx(want, rel=1e-11, abs=1e-300)


@pytest.mark.parametrize("n", [1, 2, 47, 48, 49, 5000])
def test_equal_queues_are_equally_likely_first(n: int) -> None:
    assert first_try_probabilities([7.5] * n) == pytest.approx([1 / n] * n, rel=1e-12)


def test_one_big_queue_against_many_small() -> None:
    # ∫_0^1 (1 - r t)^(n-1) dt = (1 - (1 - r)^n) / (n r) for the big queue.
    n, r = 1000, 0.3
    got = first_try_probabilities([10.0] + [3.0] * (n - 1))
    assert got[0] == pytest.approx((1 - (1 - r) ** n) / (n * r), rel=1e-12)
    assert math.fsum(got) == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0.001, max_value=1e6), min_size=1, max_size=300))
def test_first_try_chances_sum_to_one_and_follow_priority(ps: list[float]) -> None:
    got = first_try_probabilities(ps)
    assert math.fsum(got) == pytest.approx(1.0, abs=1e-9)
    pairs = sorted(zip(ps, got, strict=True))
    assert all(a[1] <= b[1] * (1 + 1e-9) for a, b in itertools.pairwise(pairs))


def _first_try_one_term_at_a_time(ps: list[float], nodes: int = 24) -> list[float]:
    """first_try_probabilities as its formula reads, each term in a Python expression: the
    values the function computes in C (the same operations in the same order)."""
    from fairshare_cli.core.dirac.first_try import _panel_points

    top = max(ps)
    mult: dict[float, int] = {}
    for p in ps:
        mult[p] = mult.get(p, 0) + 1
    ratios = [(p / top, m) for p, m in mult.items()]
    points = _panel_points(sum(r * m for r, m in ratios), len(ps) - 1, nodes)
    log_product = [sum(m * math.log1p(-r * t) for r, m in ratios) for t, _ in points]
    chance = {
        p: r
        * math.fsum(
            w * math.exp(lp - math.log1p(-r * t))
            for (t, w), lp in zip(points, log_product, strict=True)
        )
        for p, (r, _) in zip(mult, ratios, strict=True)
    }
    return [chance[p] for p in ps]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0.001, max_value=1e6), min_size=1, max_size=120))
def test_first_try_is_its_formula_term_by_term(ps: list[float]) -> None:
    assert first_try_probabilities(ps) == _first_try_one_term_at_a_time(ps)


def test_real_priority_remembered_is_real_priority() -> None:
    # TaskQueueDB.__hackJobPriority: int(), clamped to [0.001, 10]; asked twice, the same
    for user_priority, value in ((3.7, 3.0), (0, 1e-5), (12, 1e6), (3.7, 3.0), (3, 3.0)):
        assert real_priority(user_priority) == float32(value)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["alice", "bob", "carol"]),
            st.sampled_from(["user", "prod"]),
            st.sampled_from([300, 3000, 40000]),
            st.integers(min_value=0, max_value=12),
        ),
        min_size=1,
        max_size=40,
    ),
    st.randoms(),
)
def test_entity_priorities_sum_to_the_share_unless_floored(jobs: list, rng) -> None:  # type: ignore[type-arg, no-untyped-def]
    groups = {"user": Group(1000), "prod": Group(3000, job_sharing=True)}
    raw = [(definition(o, g, c), p) for o, g, c, p in jobs]
    got = priorities(raw, groups)
    shuffled = list(raw)
    rng.shuffle(shuffled)
    queues = queues_of(raw)
    by_def = {q.definition: p for q, p in zip(queues, got, strict=True)}
    again = {
        q.definition: p
        for q, p in zip(queues_of(shuffled), priorities(shuffled, groups), strict=True)
    }
    assert by_def == pytest.approx(again, rel=1e-12)  # input order does not matter
    for group, share in (("user", 1000), ("prod", 3000)):
        owners = {q.definition.owner for q in queues if q.definition.group == group}
        if not owners:
            continue
        total = math.fsum(
            p for q, p in zip(queues, got, strict=True) if q.definition.group == group
        )
        floors = sum(
            1
            for q, p in zip(queues, got, strict=True)
            if q.definition.group == group and p == TQ_MIN_SHARE
        )
        assert total == pytest.approx(share, rel=1e-9, abs=floors * TQ_MIN_SHARE + 1e-9)


def test_rows_carry_share_and_first_try() -> None:
    jobs = [(definition("alice", "user", 300), 1), (definition("bob", "user", 300), 1)]
    rows = task_queue_rows(queues_of(jobs), {"user": Group(1000)})
    assert [(r.queue.tq_id, r.priority, r.share, r.correction) for r in rows] == [
        (1, 500.0, 0.5, 1.0),
        (2, 500.0, 0.5, 1.0),
    ]
    assert [r.p_first for r in rows] == pytest.approx([0.5, 0.5], rel=1e-15)


def test_correction_factors_multiply_group_and_owner() -> None:
    def correct(
        shares: dict[str, float], group: str | None
    ) -> tuple[dict[str, float], dict[str, float]]:
        factor = {None: {"user": 2.0}, "user": {"alice": 0.5, "bob": 1.5}}[group]
        return {k: v * factor[k] for k, v in shares.items()}, factor

    jobs = [(definition("alice", "user", 300), 1), (definition("bob", "user", 300), 1)]
    got = task_queue_priorities(queues_of(jobs), {"user": Group(1000)}, correct)
    assert got == [(500.0, 1.0), (1500.0, 3.0)]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["alice", "Alice", "ALICE", "bob", "Bob"]),
            st.sampled_from([360, 3600, 86400]),
            st.floats(min_value=-20, max_value=20, allow_nan=False),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_float_priorities_and_owner_case_are_what_dirac_stores(
    jobs: list[tuple[str, int, float]],
) -> None:
    """Truncating priorities (``int``) first changes nothing; the owner's case makes no
    new queue and no new owner.

    Folding every owner name to lower case can only merge queues that differ in owner
    spelling and then their grouping; so the queue count and the jobs per queue are those
    of the folded input, and each owner entity (case-insensitive) keeps its share.
    """
    groups = {"g": Group(job_share=1000)}
    raw = [(definition(o, "g", c), p) for o, c, p in jobs]
    truncated = [(definition(o, "g", c), float(int(p))) for o, c, p in jobs]
    assert priorities(raw, groups) == priorities(truncated, groups)  # type: ignore[arg-type]
    folded = [(definition(o.lower(), "g", c), p) for o, c, p in jobs]
    mine, theirs = queues_of(raw), queues_of(folded)  # type: ignore[arg-type]
    assert [q.jobs for q in mine] == [q.jobs for q in theirs]
    assert [q.definition.owner.lower() for q in mine] == [q.definition.owner for q in theirs]
    owners = {o.lower() for o, _, _ in jobs}
    by_owner: dict[str, float] = {}
    for q, p in zip(mine, priorities(raw, groups), strict=True):  # type: ignore[arg-type]
        by_owner[q.definition.owner.lower()] = by_owner.get(q.definition.owner.lower(), 0) + p
    assert set(by_owner) == owners


def test_weights_are_added_left_to_right() -> None:
    """``calculate_priority`` sums with Python 3.11's ``sum``: left to right, no compensation.

    By hand: 5 + 6 = 11; 11 + 7/3 (2.3333333333333335) rounds to 13.333333333333334; + 8
    rounds to 21.333333333333336, one unit in the last place above the 21.333333333333332
    that compensated addition (``math.fsum``, Python 3.12's ``sum``) gives.
    """
    weights = [5.0, 6.0, 7 / 3, 8.0]
    assert added(weights) == 21.333333333333336
    assert math.fsum(weights) == 21.333333333333332


def _group_order_seen() -> tuple[list[list[str]], ShareCorrector]:
    """A corrector that changes nothing and records the groups it is handed, in order, each
    time it corrects between groups (the list it fills, and the corrector)."""
    seen: list[list[str]] = []

    def correct(
        shares: dict[str, float], group: str | None
    ) -> tuple[dict[str, float], dict[str, float]]:
        if group is None:
            seen.append(list(shares))
        return dict(shares), dict.fromkeys(shares, 1.0)

    return seen, correct


def test_groups_reach_the_corrector_in_the_order_distinct_gives_them() -> None:
    """``recalculateTQSharesForAll`` corrects the groups ``SELECT DISTINCT(OwnerGroup)`` lists,
    in that order (the corrector adds their usage in it: with three or more groups the order
    can change the last bit). Read through the ``TQOwner`` index (Owner, OwnerGroup, CPUTime),
    that is the order of each group's first owner: bob's 'zz' (queue 2), then carol's 'aa'
    (queue 1), then dave's 'mm', not the names' order."""
    jobs = [
        (definition("carol", "aa"), 1),
        (definition("bob", "zz"), 1),
        (definition("dave", "mm"), 1),
        (definition("erin", "aa"), 1),
    ]
    seen, correct = _group_order_seen()
    groups = {name: Group() for name in ("aa", "mm", "zz")}
    task_queue_priorities(queues_of(jobs), groups, correct)
    assert seen == [["zz", "aa", "mm"]]


def test_an_owners_groups_come_in_the_index_order_by_group() -> None:
    """The ``TQOwner`` index is (Owner, OwnerGroup, CPUTime): b's queues in 'user' (queue 2)
    and 'aaa' (queue 3) are read as (b, aaa) before (b, user), so DISTINCT gives zzz, aaa,
    user, not zzz, user, aaa (b's first queue by CPU time and id alone)."""
    jobs = [
        (definition("a", "zzz"), 1),
        (definition("b", "user"), 1),
        (definition("b", "aaa"), 1),
        (definition("c", "user"), 1),
    ]
    seen, correct = _group_order_seen()
    groups = {name: Group() for name in ("aaa", "user", "zzz")}
    task_queue_priorities(queues_of(jobs), groups, correct)
    assert seen == [["zzz", "aaa", "user"]]
