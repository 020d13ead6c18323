"""The summary kept as rows arrive equals the summary of every row held at once."""

from __future__ import annotations

from functools import reduce
from itertools import pairwise
from operator import add

from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.core.operations.sim_row import SimRow
from fairshare_cli.render.sim_summary import (
    KIND_ORDER,
    EntitySummary,
    Summary,
    summarize,
    summary_table,
    summary_text,
)

START = 1_795_262_400.0

slots = st.one_of(
    st.integers(0, 50_000).map(float),
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
)
row = st.builds(
    SimRow,
    time=st.integers(0, 5).map(lambda k: START + 60 * k),
    kind=st.sampled_from([*KIND_ORDER, "other"]),
    name=st.sampled_from(["a@d", "b@d", "group_x", "pool", "u"]),
    slots=slots,
    effective_priority=st.none() | st.floats(0.5, 1e6),
    pending=st.none() | st.integers(0, 10),
)


def _held(rows: list[SimRow]) -> list[EntitySummary]:
    """Every row held, each entity's series summed from 0 left to right (``sum`` in Python
    3.11) over the run's cycles and its largest the first of the largest (``max``), as the
    table did."""
    series: dict[tuple[str, str], list[SimRow]] = {}
    for r in rows:
        series.setdefault((r.kind, r.name), []).append(r)
    order = {k: i for i, k in enumerate(KIND_ORDER)}
    cycles = len({r.time for r in rows})  # a mean over the run's cycles, absent ones 0
    return [
        EntitySummary(
            kind,
            name,
            len(run),
            reduce(add, (r.slots for r in run), 0) / cycles,
            max(r.slots for r in run),
            run[-1],
        )
        for (kind, name), run in sorted(
            series.items(), key=lambda kv: (order.get(kv[0][0], len(order)), kv[0])
        )
    ]


@given(rows=st.lists(row, max_size=40), cuts=st.lists(st.integers(0, 40), max_size=6))
def test_summary_in_pieces_equals_the_summary_of_all_rows(
    rows: list[SimRow], cuts: list[int]
) -> None:
    """Rows handed over in any pieces (a cycle's, or none) sum up as all of them at once."""
    summary = Summary()
    bounds = [0, *sorted(c for c in cuts if c <= len(rows)), len(rows)]
    for lo, hi in pairwise(bounds):
        summary.add(rows[lo:hi])
    assert summary.entities() == summarize(rows) == _held(rows)
    assert summary.times == {r.time for r in rows}
    assert summary_text([("", summary)]) == summary_table(rows)


@given(rows=st.lists(row, max_size=30), tags=st.lists(st.sampled_from(["before", "after"])))
def test_each_policy_is_summed_up_apart(rows: list[SimRow], tags: list[str]) -> None:
    """``fs whatif ... simulate``: a policy's lines are the summary of its rows alone."""
    policy = (tags * len(rows))[: len(rows)] if tags else ["before"] * len(rows)
    text = summary_table(rows, policy)
    if not rows:
        assert text == "(nothing simulated)\n"
        return
    lines = text.splitlines()[2:]
    for tag in dict.fromkeys(policy):
        mine = [r for r, p in zip(rows, policy, strict=True) if p == tag]
        alone = summary_table(mine).splitlines()[2:]
        assert [line[7:] for line in lines if line.startswith(f"{tag:<7}")] == alone


def test_a_mean_by_hand() -> None:
    """a@d holds 2, 2 and 0 slots over three cycles: a mean of 4/3, a largest of 2, and
    its last row at the third cycle."""
    rows = [SimRow(START + 60 * k, "submitter", "a@d", s, 1.5) for k, s in enumerate([2, 2, 0])]
    summary = Summary()
    for r in rows:
        summary.add([r])
    (only,) = summary.entities()
    assert (only.cycles, only.mean_slots, only.max_slots, only.last) == (3, 4 / 3, 2, rows[2])
    assert summary_text([("", summary)]).splitlines()[0] == (
        "3 cycles from 2026-11-21T12:00:00Z to 2026-11-21T12:02:00Z; means are over the "
        "cycles (--series prints every cycle)"
    )
