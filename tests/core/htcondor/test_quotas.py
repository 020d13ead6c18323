"""Hierarchical group quotas: the seed's four examples under both profiles, and invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import DEFAULT_GROUP_SORT_EXPR
from fairshare_cli.core.htcondor.classads import evaluate_alone
from fairshare_cli.core.htcondor.groups import (
    GroupConfig,
    GroupNode,
    QuotaKnobs,
    assigned_group,
    build_group_tree,
)
from fairshare_cli.core.htcondor.quotas import (
    QuotaRow,
    group_sort_value,
    negotiate_groups,
    negotiation_order,
    prepare_groups,
    quota_rows,
)
from fairshare_cli.errors import ConfigError, InputError

G = GroupConfig
LEGACY = QuotaKnobs(allow_quota_oversubscription=False, use_slot_weights=False)
CURRENT = QuotaKnobs(allow_quota_oversubscription=True, use_slot_weights=True)

PHYSICS = [
    G("group_physics", quota=100),
    G("group_physics.experiment1", quota=20),
    G("group_physics.experiment2", quota=70),
]
CHEMISTRY = [
    G("group_chemistry", quota=100),
    G("group_chemistry.lab1", quota=40),
    G("group_chemistry.lab2", quota=80),
]
ECON = [
    G("group_econ", dynamic_quota=0.6),
    G("group_econ.project1", dynamic_quota=0.2),
    G("group_econ.project2", dynamic_quota=0.15),
    G("group_econ.project3", dynamic_quota=0.2),
]
STAT = [
    G("group_stat", dynamic_quota=0.5),
    G("group_stat.project1", dynamic_quota=0.4),
    G("group_stat.project2", dynamic_quota=0.3),
    G("group_stat.project3", dynamic_quota=0.4),
]


def _sort(expr: str, values: object) -> object:
    return evaluate_alone(expr, values, "GROUP_SORT_EXPR")  # type: ignore[arg-type]


def rows_for(
    configs: list[GroupConfig],
    knobs: QuotaKnobs,
    pool: float = 100,
    demand: dict[str, float] | None = None,
    usage: dict[str, float] | None = None,
) -> dict[str, QuotaRow]:
    """Quota rows by group, every group saturated (200 jobs) unless ``demand`` is given."""
    tree = build_group_tree(configs)
    if demand is None:
        demand = {c.name: 200 for c in configs}
    submitters = {name: [f"{name}.u@example.org"] for name in demand}
    rows = quota_rows(tree, pool, demand, submitters, usage or {}, knobs, _sort)
    return {r.group: r for r in rows}


def test_physics_legacy_unused_quota_goes_to_parent_submitters() -> None:
    rows = rows_for(PHYSICS, LEGACY)
    assert rows["group_physics.experiment1"].quota == 20
    assert rows["group_physics.experiment2"].quota == 70
    assert rows["group_physics"].quota == 10  # 100 - 20 - 70, for group_physics submitters
    assert rows["group_physics"].subtree_quota == 100
    assert [rows[g].limit for g in ("group_physics", "group_physics.experiment1")] == [10, 20]


def test_physics_current_parent_keeps_full_quota() -> None:
    rows = rows_for(PHYSICS, CURRENT)
    assert rows["group_physics"].quota == 100  # oversubscription: parent keeps its whole Q
    assert rows["group_physics.experiment1"].quota == 20
    assert rows["group_physics.experiment2"].quota == 70


def test_chemistry_legacy_children_scaled_and_remainder_to_parent() -> None:
    rows = rows_for(CHEMISTRY, LEGACY)
    assert rows["group_chemistry.lab1"].quota == pytest.approx(100 * 40 / 120)  # 33.333
    assert rows["group_chemistry.lab2"].quota == pytest.approx(100 * 80 / 120)  # 66.667
    assert rows["group_chemistry"].quota == pytest.approx(0)
    # truncated to 33 and 66; the summed remainders (one slot) go to the parent
    assert rows["group_chemistry.lab1"].limit == 33
    assert rows["group_chemistry.lab2"].limit == 66
    assert rows["group_chemistry"].limit == 1


def test_chemistry_current_static_children_not_scaled() -> None:
    rows = rows_for(CHEMISTRY, CURRENT)
    assert rows["group_chemistry.lab1"].quota == 40
    assert rows["group_chemistry.lab2"].quota == 80
    assert rows["group_chemistry"].quota == 100
    assert rows["group_chemistry.lab1"].limit == 40


def test_econ_legacy_dynamic_quotas() -> None:
    rows = rows_for(ECON, LEGACY)
    assert rows["group_econ.project1"].quota == pytest.approx(12)
    assert rows["group_econ.project2"].quota == pytest.approx(9)
    assert rows["group_econ.project3"].quota == pytest.approx(12)
    assert rows["group_econ"].quota == pytest.approx(27)  # 60 - 33
    assert [rows[f"group_econ.project{i}"].limit for i in (1, 2, 3)] == [12, 9, 12]
    assert rows["group_econ"].limit == 27
    assert rows["<none>"].quota == pytest.approx(40)


def test_econ_current_parent_keeps_sixty() -> None:
    rows = rows_for(ECON, CURRENT)
    assert rows["group_econ"].quota == pytest.approx(60)
    assert rows["group_econ.project2"].quota == pytest.approx(9)


def test_stat_legacy_scaled_dynamic_and_one_slot_for_parent() -> None:
    rows = rows_for(STAT, LEGACY)
    assert rows["group_stat.project1"].quota == pytest.approx(50 * 0.4 / 1.1)  # 18.1818
    assert rows["group_stat.project2"].quota == pytest.approx(50 * 0.3 / 1.1)  # 13.6364
    assert [rows[f"group_stat.project{i}"].limit for i in (1, 2, 3)] == [18, 13, 18]
    assert rows["group_stat"].limit == 1  # 0.1818 + 0.6364 + 0.1818 = 1 slot


def test_stat_current_fractions_dropped() -> None:
    rows = rows_for(STAT, CURRENT)
    assert rows["group_stat"].quota == pytest.approx(50)
    # weights on: no remainder recovery, limits truncated
    assert [rows[f"group_stat.project{i}"].limit for i in (1, 2, 3)] == [18, 13, 18]


def test_remainder_only_goes_where_there_is_demand() -> None:
    demand = {"group_chemistry.lab1": 200, "group_chemistry.lab2": 200}
    rows = rows_for(CHEMISTRY, LEGACY, demand=demand)
    assert rows["group_chemistry"].limit == 0
    assert rows["group_chemistry"].demand == 0


def test_surplus_shared_by_quota_when_accepted() -> None:
    configs = [
        G("a", quota=60, accept_surplus=True),
        G("b", quota=40, accept_surplus=True),
    ]
    # a wants nothing: its 60 are surplus; b may take it
    rows = rows_for(configs, LEGACY, demand={"a": 0, "b": 100})
    assert rows["b"].limit == 100


def test_surplus_not_given_to_groups_that_refuse_it() -> None:
    configs = [G("a", quota=60), G("b", quota=40)]
    rows = rows_for(configs, LEGACY, demand={"a": 0, "b": 100})
    assert rows["b"].limit == 40


def test_strict_enforcement_counts_subtree_usage() -> None:
    rows = rows_for(PHYSICS, CURRENT, usage={"group_physics.experiment1": 95})
    # physics (static 100) has 95 in use in its subtree: 5 more at most for its own users
    assert rows["group_physics"].limit == 5


@pytest.mark.parametrize(
    ("config", "message"),
    [
        pytest.param(G("a", quota=-1), "quota = -1", id="negative-quota"),
        pytest.param(G("a", dynamic_quota=1.5), "dynamic_quota = 1.5", id="dynamic-above-1"),
        pytest.param(G("a.b", quota=1), 'parent group "a"', id="missing-parent"),
    ],
)
def test_bad_group_config(config: GroupConfig, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        build_group_tree([config])


def test_assigned_group_walks_to_deepest_known() -> None:
    tree = build_group_tree(PHYSICS)
    assert assigned_group(tree, "group_physics.experiment1.alice@x").name == (
        "group_physics.experiment1"
    )
    assert assigned_group(tree, "GROUP_PHYSICS.bob@x").name == "group_physics"
    assert assigned_group(tree, "alice@x").name == "<none>"
    assert assigned_group(tree, "group_physics@x").name == "<none>"


@settings(max_examples=60, deadline=None)
@given(
    quotas=st.lists(st.integers(min_value=0, max_value=80), min_size=1, max_size=4),
    pool=st.integers(min_value=1, max_value=200),
)
def test_legacy_children_never_exceed_parent(quotas: list[int], pool: int) -> None:
    configs = [G("p", quota=100)] + [G(f"p.c{i}", quota=q) for i, q in enumerate(quotas)]
    rows = rows_for(configs, LEGACY, pool=pool)
    child_sum = sum(rows[f"p.c{i}"].quota for i in range(len(quotas)))
    assert child_sum + rows["p"].quota == pytest.approx(rows["p"].subtree_quota)
    assert rows["p"].subtree_quota == pytest.approx(min(100, pool))


def test_second_round_with_every_allocation_used_does_not_divide_by_zero() -> None:
    tree = build_group_tree([G("a", quota=10, accept_surplus=True), G("b", quota=10)])
    usage = {"a": 0.0, "b": 0.0}
    calls: list[tuple[int, str, int]] = []
    rounds = {"n": 0}

    def negotiate(group: GroupNode, limit: int) -> None:
        calls.append((len(calls), group.name, limit))
        if group.name == "a":
            usage["a"] = 5.0  # a runs its 5 jobs
        elif group.name == "b":
            usage["b"] = 4.0  # b only finds slots for 4 of its 10
        rounds["n"] += 1

    def use(name: str) -> float:
        return usage.get(name, 0.0)

    demand = {"a": 5.0, "b": 10.0}
    subs = {"a": ["a.x@d"], "b": ["b.y@d"]}
    prepare_groups(tree, 20.0, demand, subs, use, LEGACY)
    logs = negotiate_groups(tree, 20.0, LEGACY, use, negotiate, _sort)
    assert len(logs) == 2
    # round 2: a is under its quota (10) but every allocation is used: HTCondor's 0/0
    assert logs[1].limits["a"] == [0]
    assert logs[0].limits["b"] == [10]


def test_strict_cap_is_the_static_quota_else_the_subtree_quota() -> None:
    """``GroupEntry::strict_enforce_quota``'s cap for a group that takes no surplus:
    ``static_quota ? config_quota : subtree_quota``; none for a group that takes surplus
    (or the root). Pool 100: s (static 30) keeps 30; d (dynamic 0.5) gets half of what the
    static quotas leave, 0.5 × (100 - 30 - 10) = 30 (``hgq_assign_quotas``)."""
    configs = [G("s", quota=30), G("d", dynamic_quota=0.5), G("t", quota=10, accept_surplus=True)]
    rows = rows_for(configs, LEGACY)
    assert rows["s"].strict_cap == 30
    assert rows["d"].strict_cap == pytest.approx(30.0)
    assert rows["t"].strict_cap is None
    assert rows["<none>"].strict_cap is None


_SORT_VALUE = st.one_of(
    st.integers(-3, 3),
    st.floats(allow_nan=False, width=64),
    st.sampled_from([0.0, -0.0, 1, 1.0, True]),
)


@settings(max_examples=150, deadline=None)
@given(
    expr=st.sampled_from(
        [
            DEFAULT_GROUP_SORT_EXPR,
            "GroupResourcesInUse / GroupQuota",
            "1 / GroupQuota",
            "GroupQuota",
            'AccountingGroup == "group_a" ? 1 : GroupResourcesAllocated',
        ]
    ),
    name=st.sampled_from(["<none>", "group_a", "group_b.x"]),
    numbers=st.lists(_SORT_VALUE, min_size=3, max_size=3),
    again=st.booleans(),
)
def test_group_sort_value_is_evaluate_alones(
    expr: str, name: str, numbers: list[object], again: bool
) -> None:
    """The cached sort key is what a fresh evaluation gives, for every type of value: an
    integer 1 and a float 1.0 divide differently in a ClassAd, and 1/-0.0 is -inf."""
    quota, allocated, in_use = numbers
    values = {
        "AccountingGroup": name,
        "GroupQuota": quota,
        "GroupResourcesAllocated": allocated,
        "GroupResourcesInUse": in_use,
    }
    fresh = evaluate_alone(expr, values, "x")
    cached = group_sort_value(expr, values)
    if again:
        cached = group_sort_value(expr, dict(values))
    assert type(cached) is type(fresh)
    assert repr(cached) == repr(fresh)


def test_group_sort_value_tells_integer_from_float_and_zero_from_minus_zero() -> None:
    """``1 / GroupQuota``: 1/2 is the integer 0 in a ClassAd, 1/2.0 is 0.5; 1/0.0 is +inf
    (or an error), 1/-0.0 the other sign. One text, four different results, none of them
    taken from another's cache entry."""
    base = {"AccountingGroup": "g", "GroupResourcesAllocated": 0.0, "GroupResourcesInUse": 0.0}
    results = [
        group_sort_value("1 / GroupQuota", {**base, "GroupQuota": q}) for q in (2, 2.0, 0.0, -0.0)
    ]
    assert results[0] == 0 and type(results[0]) is int
    assert results[1] == 0.5
    assert repr(results[2]) == repr(
        evaluate_alone("1 / GroupQuota", {**base, "GroupQuota": 0.0}, "x")
    )
    assert repr(results[3]) == repr(
        evaluate_alone("1 / GroupQuota", {**base, "GroupQuota": -0.0}, "x")
    )


def test_group_sort_value_reports_a_bad_expression() -> None:
    with pytest.raises(InputError, match=r"\[negotiator\] group_sort_expr"):
        group_sort_value("GroupQuota +", {"GroupQuota": 1.0})


def test_negotiation_order_under_autoregroup_puts_none_last_and_ties_as_gcc_sorts() -> None:
    """``group_order`` with autoregroup: ``<none>`` is before nobody, anybody is before
    ``<none>``, else ``sort_key <``. 17 groups all at key 0 and ``<none>`` also at 0: the
    breadth-first list (``<none>`` first, 18 items) goes through libstdc++'s introsort as
    in ``tests/cli/test_negotiate_group_order.py`` (median item 9 swapped to the front,
    swaps 1↔17 ... 8↔10, ``<none>`` passed at place 9, cut at 9), and the final insertion
    sort moves ``<none>`` to the end; up to 16 items ties keep the breadth-first order."""
    tree = build_group_tree([G(f"group_{i:02d}", quota=1, autoregroup=True) for i in range(1, 18)])
    for g in tree.groups:
        g.sort_key = 0.0
    names = [g.name for g in negotiation_order(tree)]
    expected = [9, 17, 16, 15, 14, 13, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2, 1]
    assert names == [f"group_{i:02d}" for i in expected] + ["<none>"]
    small = build_group_tree([G(f"group_{i:02d}", quota=1, autoregroup=True) for i in range(1, 16)])
    for g in small.groups:
        g.sort_key = 0.0
    assert [g.name for g in negotiation_order(small)] == [g.name for g in small.groups[1:]] + [
        "<none>"
    ]


@pytest.mark.parametrize(
    ("expr", "keys"),
    [
        pytest.param(
            "GroupResourcesInUse > 0",
            {"<none>": 0.0, "group_a": 1.0, "group_b": 0.0},
            id="boolean-as-1-or-0",
        ),
        pytest.param(
            'ifThenElse(AccountingGroup == "group_a", 1e300, GroupQuotaTypo)',
            {"<none>": 3.4028234663852886e38, "group_a": 1e300, "group_b": 3.4028234663852886e38},
            id="undefined-as-FLT_MAX",
        ),
    ],
)
def test_sort_keys_read_the_expression_as_lookupfloat(expr: str, keys: dict[str, float]) -> None:
    """Derived by hand from ``hgq_negotiate_with_all_groups`` (GroupEntry.cpp, 25.0):
    ``ad->LookupFloat(ATTR_SORT_EXPR, v)`` is ``EvaluateAttrNumber``, whose
    ``Value::IsNumber(double&)`` takes a boolean as 1.0 / 0.0; when it fails, ``v =
    FLT_MAX`` (the C float's largest, 3.4028234663852886e38, not DBL_MAX). group_a uses
    1 slot, group_b none: ``GroupResourcesInUse > 0`` is true (1.0) for group_a only, so
    group_b and ``<none>`` (0.0) negotiate before it, where a boolean was taken as no
    number and every group tied; a group whose key is undefined goes before one at 1e300."""
    from fairshare_cli.core.htcondor.quotas import sort_keys

    tree = build_group_tree([G("group_a", quota=3), G("group_b", quota=3)])
    sort_keys(tree, expr, lambda name: 1.0 if name == "group_a" else 0.0, _sort)
    assert {g.name: g.sort_key for g in tree.groups} == keys
    order = [g.name for g in negotiation_order(tree)]
    assert order == sorted(keys, key=lambda n: keys[n])  # (equal keys: breadth-first order)


def test_the_limit_under_a_round_robin_rate_is_the_first_rounds_last_pass() -> None:
    """Derived by hand from ``hgq_negotiate_with_all_groups`` (HTCondor 25.0). 10 slots, no
    slot weights, oversubscription on; group_a and group_b static quota 5, accepting
    surplus, 10 jobs each, nothing in use. Each is allocated 5; maxdelta = 5 - 0 = 5. With
    ``GROUP_QUOTA_ROUND_ROBIN_RATE = 2`` the round negotiates in passes n = 2, 4, 5 with
    limits 0 + 5 x n/5 = 2, 4, 5: the groups negotiate for 5 slots this round, not 2."""
    knobs = QuotaKnobs(
        allow_quota_oversubscription=True, use_slot_weights=False, group_quota_round_robin_rate=2
    )
    configs = [
        G("group_a", quota=5, accept_surplus=True),
        G("group_b", quota=5, accept_surplus=True),
    ]
    rows = rows_for(configs, knobs, pool=10, demand={"group_a": 10, "group_b": 10})
    assert (rows["group_a"].limit, rows["group_b"].limit, rows["<none>"].limit) == (5, 5, 0)
    tree = build_group_tree(configs)
    submitters = {"group_a": ["group_a.x@d"], "group_b": ["group_b.y@d"]}
    prepare_groups(tree, 10, {"group_a": 10, "group_b": 10}, submitters, lambda g: 0.0, knobs)
    one = QuotaKnobs(**{**knobs.__dict__, "group_quota_max_allocation_rounds": 1})
    (log,) = negotiate_groups(tree, 10, one, lambda g: 0.0, lambda g, n: None, _sort)
    assert log.limits == {"group_a": [2, 4, 5], "group_b": [2, 4, 5]}


@pytest.mark.parametrize(
    ("rr_times", "limits"),
    [
        pytest.param(None, {"<none>": 0, "group_g1": 2, "group_g2": 1}, id="never-served"),
        pytest.param(
            {"<none>": 100.0, "group_g1": 100.0, "group_g2": 0.0},
            {"<none>": 0, "group_g1": 1, "group_g2": 2},
            id="g1-served-last-cycle",
        ),
    ],
)
def test_the_remainder_goes_to_the_group_the_round_robin_served_least_recently(
    rr_times: dict[str, float] | None, limits: dict[str, int]
) -> None:
    """Hand-derived from ``GroupEntry.cpp``. 3 slots, weights off (legacy); g1 and g2
    static 1, surplus accepted; ``<none>`` 3 − 2 = 1. Demand 5 each: ``hgq_fairshare`` 1
    each, ``<none>``'s spare 1 split by quota 0.5 / 0.5; ``hgq_recover_remainders`` floors
    both to 1 and round-robins the 1 slot at the root in ``ord_by_rr_time`` order: rr time
    first (a subtree wanting more takes its own ``rr_time``), then quota (1 each), then
    demand. Never served (all 0): g1 and g2 tie, the first (g1) gets it. After a cycle in
    which g1 was served (its ``rr_time`` and the root's set to that cycle, g2's left at 0,
    ``hgq_negotiate_with_all_groups``' last loop), g2 comes first and gets it."""
    groups = [G(g, quota=1, accept_surplus=True) for g in ("group_g1", "group_g2")]
    tree = build_group_tree(groups)
    demand = {"group_g1": 5.0, "group_g2": 5.0}
    submitters = {g: [f"{g}.u@d"] for g in demand}
    rows = quota_rows(tree, 3, demand, submitters, {}, LEGACY, _sort, rr_times)
    assert {r.group: r.limit for r in rows} == limits
