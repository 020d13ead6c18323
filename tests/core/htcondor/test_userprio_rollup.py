"""``rolled_up``: ``Accountant::ReportGroups(.., rollup=true)`` of HTCondor 25.0, by hand."""

from __future__ import annotations

from fairshare_cli.core.htcondor.userprio_rollup import group_children, rolled_up
from fairshare_cli.core.htcondor.userprio_row import UserprioRow


def _row(name: str, in_use: int, usage: float, begin: float, last: float, *, group: bool = True):
    return UserprioRow(
        name=name,
        is_group=group,
        group=name if group else "g",
        effective_priority=7.0,
        real_priority=7.0,
        priority_factor=2.0,
        resources_in_use=in_use,
        weighted_resources_in_use=float(in_use),
        accumulated_usage_hours=usage / 3600.0,
        weighted_accumulated_usage_hours=usage / 3600.0,
        begin_usage_time=begin,
        last_usage_time=last,
        table_factor=0.0,
        accumulated_usage=usage,
        weighted_accumulated_usage=usage,
    )


def test_children_sorted_without_case_and_orphans_under_the_root() -> None:
    """hgq_construct_tree: a.B before a.c; x.y's parent x is not configured: <none>."""
    tree = group_children(["a", "a.c", "A.B", "x.y"])
    assert tree == {"<none>": ["a", "x.y"], "a": ["A.B", "a.c"]}


def test_a_subtree_sums_up_and_the_root_holds_the_pool() -> None:
    """a = 1 + (a.b: 2 + a.b.c: 4) = 7 slots, 100 + 200 + 400 = 700 s; <none> 8 + 7 = 15
    slots, 1000 + 700 = 1700 s. Begin: the least of a subtree's, a never-used group's 0
    included (a.b.c never used: a.b's and a's begin become 0; <none> too). Last: the most.
    A group's priority becomes 0 and its table factor the record's (2.0)."""
    rows = [
        _row("<none>", 8, 1000.0, 50.0, 500.0),
        _row("a", 1, 100.0, 10.0, 100.0),
        _row("a.b", 2, 200.0, 20.0, 300.0),
        _row("a.b.c", 4, 400.0, 0.0, 0.0),
        _row("a.b.c.u@d", 4, 400.0, 30.0, 900.0, group=False),
    ]
    out = {r.name: r for r in rolled_up(rows, ["a", "a.b", "a.b.c"])}
    assert (out["a"].resources_in_use, out["a"].weighted_accumulated_usage) == (7, 700.0)
    assert (out["<none>"].resources_in_use, out["<none>"].accumulated_usage) == (15, 1700.0)
    assert out["<none>"].weighted_accumulated_usage_hours == 1700.0 / 3600.0
    assert [out[g].begin_usage_time for g in ("<none>", "a", "a.b")] == [0.0, 0.0, 0.0]
    assert [out[g].last_usage_time for g in ("<none>", "a", "a.b")] == [500.0, 300.0, 300.0]
    assert out["a"].effective_priority == out["a"].real_priority == 0.0
    assert out["a"].table_factor == 2.0
    assert out["a.b.c.u@d"] == rows[4]  # submitters as they were


def test_sums_in_report_groups_order() -> None:
    """The parent's value plus each child's total in turn: (0.1 + 0.2) + 0.3, not
    0.1 + (0.2 + 0.3): 0.6000000000000001 as doubles."""
    rows = [
        _row("<none>", 0, 0.1, 1.0, 1.0),
        _row("a", 0, 0.2, 1.0, 1.0),
        _row("b", 0, 0.3, 1.0, 1.0),
    ]
    out = {r.name: r for r in rolled_up(rows, ["a", "b"])}
    assert out["<none>"].accumulated_usage == (0.1 + 0.2) + 0.3 == 0.6000000000000001
