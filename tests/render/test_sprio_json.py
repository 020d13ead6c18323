"""``fs sprio --json`` of a :class:`PriorityTable` (``render/sprio_json.table_chunks``)
against the reference's text (``json.dumps`` of the rows' plain values), in pieces of a few rows,
and the float texts it puts in (``json.dumps``'s, found in msgspec's text of a column)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.slurm.priority import PriorityContext
from fairshare_cli.core.slurm.priority_table import PriorityTable, compute_table
from fairshare_cli.errors import InputError
from fairshare_cli.render import sprio_json
from tests.core.slurm.priority_reference import reference_json
from tests.core.slurm.test_priority_table import NOW, _both_kinds, contexts, sited_queues

#: Magnitudes where msgspec's digits and ``repr``'s part (below 1e-4, from 1e16), their
#: neighbours, and values whose text holds ``0.0000`` though ``repr`` prints them alike.
EDGES = [0.0, -0.0, 1e-4, 9.99e-5, -9.99e-5, 1e-5, 5e-324, 1e16, -1e16, 9.999e15,
         math.nextafter(1e16, 0), 1.5e300, 10.00001, -20.000003, 1e-300, 1.25e17]  # fmt: skip
floats = st.sampled_from(EDGES) | st.floats(allow_nan=True, allow_infinity=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(floats, max_size=40))
def test_float_texts_are_json_dumps_texts(values: list[float]) -> None:
    """Each text is ``json.dumps``'s; None only when the column's sum is not finite (a NaN,
    an infinity, or an overflow: the caller then writes the general way)."""
    texts = sprio_json._float_texts(values)
    if not math.isfinite(sum(values)):
        assert texts is None
    else:
        assert texts == [json.dumps(v) for v in values]


def _table(jobs: list[Any], ctx: PriorityContext) -> PriorityTable | None:
    try:
        return compute_table(jobs, ctx, NOW, listed_at=NOW + 60)
    except InputError:
        return None


#: Queues of up to 40 jobs whose sites and nices take one value or several (each text
#: between a row's priority and its age factor made once a nice, once a site, or a row at a
#: time).
sited = sited_queues(1, 40, [[0], [7], [0, 7], [-3, 2**40]])


@settings(max_examples=50, deadline=None)
@given(sited, contexts, st.sampled_from([1, 2, 3, 1024]))
def test_table_json_in_pieces_is_the_references(
    objs: list[dict[str, Any]], ctx: PriorityContext, chunk: int
) -> None:
    """Pieces of any number of rows (the last row's end cut back where a piece ends the
    list) join into the reference's bytes."""
    (jobs,) = _both_kinds(objs)[:1]
    table = _table(jobs, ctx)
    if table is None or not len(table):
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sprio_json, "CHUNK_ROWS", chunk)
        pieces = sprio_json.table_chunks(table)
        assert pieces is not None
        text = "".join(pieces)
    assert text == reference_json(table.rows())


@settings(max_examples=30, deadline=None)
@given(
    sited,
    contexts,
    st.sampled_from(["age_factors", "weighted_ages"]),
    st.sampled_from([math.inf, math.nan]),
)
def test_a_table_with_an_age_not_finite_goes_the_general_way(
    objs: list[dict[str, Any]], ctx: PriorityContext, column: str, bad: float
) -> None:
    """An infinite or NaN age factor anywhere (the texts are made a chunk at a time; the
    check is made over the whole table first): no piece, the caller writes the rows the
    general way."""
    import msgspec

    (jobs,) = _both_kinds(objs)[:1]
    table = _table(jobs, ctx)
    if table is None or not len(table):
        return
    values = list(getattr(table, column))
    values[-1] = bad
    assert sprio_json.table_chunks(msgspec.structs.replace(table, **{column: values})) is None
