"""sprio's listing (``render/sprio_table.listing_chunks``) of site and nice columns that
mix integers with bools or floats (which a reader never gives, a table may hold): the
reference's bytes, whichever way the columns are printed (``%d``, ``%.0f`` or texts by
value)."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.slurm.priority import PriorityContext
from fairshare_cli.core.slurm.priority_table import compute_table
from fairshare_cli.errors import InputError
from fairshare_cli.render import sprio as render
from fairshare_cli.render.sprio_table import listing_chunks
from tests.core.slurm.priority_reference import reference_lines
from tests.core.slurm.test_priority_table import NOW, _both_kinds, _job, contexts, job_objects

VALUES = [0, 1, 7, -3, True, False, 0.0, -0.0, 2.0, 7.5, 2**60, float(2**60)]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(job_objects, min_size=1, max_size=40),
    contexts,
    st.lists(st.sampled_from(VALUES), min_size=1, max_size=3),
    st.lists(st.sampled_from(VALUES), min_size=1, max_size=3),
    st.randoms(use_true_random=False),
    st.sampled_from(["%.10S %5N %N", "%S %.3N", "%.15i %.10S %.10N"]),
)
def test_mixed_sites_and_nices_print_as_the_reference(
    objs: list[dict[str, Any]],
    ctx: PriorityContext,
    sites: list[Any],
    nices: list[Any],
    rnd: Any,
    spec: str,
) -> None:
    """Bools print as the integers they equal, ``-0.0`` as ``-0``: texts made once a
    value never merge values that print differently."""
    (jobs,) = _both_kinds([_job(i, dict(o)) for i, o in enumerate(objs, start=1)])[:1]
    try:
        table = compute_table(jobs, ctx, NOW, listed_at=NOW + 60)
    except InputError:
        return
    rows = len(table)
    table = msgspec.structs.replace(
        table,
        sites=[rnd.choice(sites) for _ in range(rows)],
        nices=[rnd.choice(nices) for _ in range(rows)],
    )
    fmt, _ = render.parse_format(spec)
    want = reference_lines(fmt, table.rows(), ctx.weights, "c")
    assert "".join(listing_chunks(fmt, table, ctx.weights, header=False, cluster="c")) == want


#: Age columns of one or two values (the signs of zero print apart: -0 and 0).
AGES = [[1.0], [0.0, -0.0], [-0.0], [1.0, 0.5], [1e-9, 1.0], [float("nan")], [float("inf"), 1.0]]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(job_objects, min_size=1, max_size=60),
    contexts,
    st.sampled_from(AGES),
    st.randoms(use_true_random=False),
    st.sampled_from(["%.10A %.10a", "%A %.3a", "%.15i %.10A"]),
)
def test_ages_of_few_values_print_as_the_reference(
    objs: list[dict[str, Any]],
    ctx: PriorityContext,
    ages: list[float],
    rnd: Any,
    spec: str,
) -> None:
    """An age column of one or two values (every job past PriorityMaxAge: all 1.0) prints
    each value's text made once, ``-0.0`` apart from ``0.0``, as the reference does."""
    (jobs,) = _both_kinds([_job(i, dict(o)) for i, o in enumerate(objs, start=1)])[:1]
    try:
        table = compute_table(jobs, ctx, NOW, listed_at=NOW + 60)
    except InputError:
        return
    if not len(table):
        return
    table = table.taken([i % len(table) for i in range(64)])  # (enough rows to tell "few")
    picked = [rnd.choice(ages) for _ in range(len(table))]
    weight = float(ctx.weights.age)
    table = msgspec.structs.replace(
        table, age_factors=picked, weighted_ages=[a * weight for a in picked]
    )
    fmt, _ = render.parse_format(spec)
    want = reference_lines(fmt, table.rows(), ctx.weights, "c")
    assert "".join(listing_chunks(fmt, table, ctx.weights, header=False, cluster="c")) == want
