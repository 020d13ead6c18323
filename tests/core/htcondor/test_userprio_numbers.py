"""``userprio_numbers``: the group numbers and display order of ``CollectInfo``."""

from __future__ import annotations

from fairshare_cli.core.float32 import FLT_MAX
from fairshare_cli.core.htcondor.userprio_numbers import numbered_rows
from fairshare_cli.core.htcondor.userprio_row import UserprioRow


def _row(name: str, group: str, *, is_group: bool = False, key: float = 0.0) -> UserprioRow:
    return UserprioRow(
        name, is_group, group, 1.0, 1.0, 1.0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, sort_key=key
    )


B = _row("group_B", "group_B", is_group=True, key=0.5)
A = _row("group_a", "group_a", is_group=True, key=0.25)
NONE = _row("<none>", "<none>", is_group=True, key=3.4e38)
U1 = _row("group_a.u1@d", "group_a")
U2 = _row("u2@d", "<none>")


def _numbers(rows: list[UserprioRow], groups: list[UserprioRow], **kw: object) -> list[tuple]:
    args = {"renumbered": True, "ads_read": 5, "configured": None, "show_priority": False}
    args.update(kw)
    out = numbered_rows(rows, groups, show_usage=False, **args)  # type: ignore[arg-type]
    return [(r.name, r.group_id, r.display_order) for r in out]


def test_groups_by_name_case_counting_none_last() -> None:
    """group_B (0x42) before group_a (0x61): 1 and 2; <none> 0 and FLT_MAX; users take
    their group's."""
    rows = [A, B, NONE, U1, U2]
    assert _numbers(rows, [A, B, NONE]) == [
        ("group_a", 2.0, 2.0),
        ("group_B", 1.0, 1.0),
        ("<none>", 0.0, FLT_MAX),
        ("group_a.u1@d", 2.0, 2.0),
        ("u2@d", 0.0, FLT_MAX),
    ]


def test_without_none_its_users_take_the_first_groups_order() -> None:
    """<none>'s ad not read: its users copy the first group by name (group_B), whose
    order with the priority columns is its sort key 0.5; a user whose group's ad was not
    read keeps -2 x ads read and no order."""
    assert _numbers([U2, U1], [B], show_priority=True) == [
        ("u2@d", 0.0, 0.5),
        ("group_a.u1@d", -10.0, None),
    ]


def test_not_renumbered_keeps_the_places() -> None:
    """No user inside a group read: a group keeps its place, negated (breadth-first from
    <none> in the negotiator's ad; unknown, NaN, in the collector's), no order."""
    got = _numbers([A, B, U2], [A, B], renumbered=False, configured=["group_a", "group_B"])
    assert got == [("group_a", -2.0, None), ("group_B", -3.0, None), ("u2@d", 0.0, None)]
    unknown = _numbers([A], [A], renumbered=False)
    assert unknown[0][1] != unknown[0][1]  # NaN
