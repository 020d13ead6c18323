"""``fs userprio``'s flat order: two stable sorts give the (field, name) key's order.

``sorted_rows`` sorts by name, then stably by the field alone (descending with
``reverse=True``, which keeps ties in their order); ``with_rows`` puts a few more rows into
an ordered list by bisection. Both must give ``sorted(rows, key=sort_key(...))``, the order
the view used before, for any values: ties, -0.0 beside 0.0, ints beside floats, and NaN
(where ``<`` orders nothing, both fall back to the key itself).
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.htcondor.userprio import UserprioRow
from fairshare_cli.core.htcondor.userprio_order import sort_key, sort_order, sorted_rows, with_rows
from fairshare_cli.core.htcondor.userprio_query import SORT_KEYS

value = st.sampled_from([0.0, -0.0, 1.0, 1, 2.5, math.nan, math.inf]) | st.floats()
row = st.builds(
    UserprioRow,
    name=st.text(alphabet="abc@.", min_size=1, max_size=4),
    is_group=st.booleans(),
    group=st.just("<none>"),
    effective_priority=value,
    real_priority=value,
    priority_factor=value,
    resources_in_use=st.integers(0, 3),
    weighted_resources_in_use=value,
    accumulated_usage_hours=value,
    weighted_accumulated_usage_hours=value,
    begin_usage_time=value,
    last_usage_time=value,
)


def _unique(rows: list[UserprioRow]) -> list[UserprioRow]:
    return list({r.name: r for r in rows}.values())  # names are unique, as records' keys


@settings(max_examples=250, deadline=None)
@given(
    st.lists(row, max_size=12).map(_unique),
    st.sampled_from(SORT_KEYS),
    st.booleans(),
    st.booleans(),
)
def test_two_sorts_are_the_keys_order(
    rows: list[UserprioRow], sort: str, show_priority: bool, show_usage: bool
) -> None:
    field, descending = sort_order(sort, show_priority, show_usage)
    at = None if field is None else UserprioRow._fields.index(field)
    want = sorted(rows, key=sort_key(at, descending))
    assert sorted_rows(rows, at, descending) == want
    if at is not None and all(r[at] == r[at] for r in rows):  # no NaN: any input order
        assert sorted_rows(sorted(rows, key=lambda r: r.name), at, descending) == want


@settings(max_examples=250, deadline=None)
@given(
    st.lists(row, max_size=12).map(_unique),
    st.integers(0, 12),
    st.sampled_from(SORT_KEYS),
)
def test_rows_put_in_place_are_the_keys_order(rows: list[UserprioRow], cut: int, sort: str) -> None:
    field, descending = sort_order(sort, True, True)
    at = None if field is None else UserprioRow._fields.index(field)
    key = sort_key(at, descending)
    ordered = sorted(rows[cut:], key=key)
    assert with_rows(ordered, rows[:cut], at, descending) == sorted(ordered + rows[:cut], key=key)


def test_the_keys_are_the_views_old_keys() -> None:
    """(field, name) ascending, (-field, name) for in-use and last-usage, name alone."""
    r = UserprioRow("n", False, "<none>", 3.0, 1.0, 2.0, 0, 4.0, 0.0, 5.0, 0.0, 6.0)
    keys = {s: sort_key(*_at(sort_order(s, True, True)))(r) for s in SORT_KEYS}
    assert keys == {
        "priority": (3.0, "n"),
        "name": "n",
        "usage": (5.0, "n"),
        "factor": (2.0, "n"),
        "in-use": (-4.0, "n"),
        "last-usage": (-6.0, "n"),
    }
    assert sort_order("priority", False, True) == ("weighted_accumulated_usage_hours", False)
    assert sort_order("priority", False, False) == (None, False)


def _at(order: tuple[str | None, bool]) -> tuple[int | None, bool]:
    field, descending = order
    return (None if field is None else UserprioRow._fields.index(field)), descending
