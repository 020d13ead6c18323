"""sprio's table (``compute_table``), its listing and its ``--json`` text against a plain
reference (``tests/core/slurm/priority_reference.py``): the same rows, the same bytes and
the same errors, on generated queues of every kind."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.jobs import Job, parse_jobs
from fairshare_cli.core.jsontext import dumps_columns
from fairshare_cli.core.limits import NICE_LIMIT
from fairshare_cli.core.slurm.assoc_tree import AccountDef, build_tree, set_usage
from fairshare_cli.core.slurm.factors import parse_flags
from fairshare_cli.core.slurm.fairshare import compute_fairshare
from fairshare_cli.core.slurm.priority import (
    PartitionInfo,
    PriorityContext,
    PriorityRow,
    QosInfo,
    Weights,
)
from fairshare_cli.core.slurm.priority_table import (
    PriorityTable,
    TableBuilder,
    compute_rows,
    compute_table,
)
from fairshare_cli.errors import InputError
from fairshare_cli.render import sprio as render
from fairshare_cli.render.sprio_table import listing_chunks
from tests.core.slurm.priority_reference import reference_json, reference_lines, reference_rows

DAY = 86400.0
NOW = 100 * DAY
TRES: tuple[dict[str, float], ...] = (
    {},
    {"cpu": 100.0},
    {"cpu": 100.0, "mem": 0.5},
    {"cpu": 2.5, "node": 7.0},
)


def _context(tres: dict[str, float], flags: list[str], max_age: float, w: int) -> PriorityContext:
    tree = build_tree(
        [
            AccountDef("A", shares=40),
            AccountDef("B", parent="A", shares=30, users={"user1": 1}),
            AccountDef("C", parent="A", shares=10, users={"user2": 1, "user3": 1}),
            AccountDef("D", shares=60, users={"user1": 2}),
        ]
    )
    set_usage(tree, {("B", "user1"): 0.2, ("C", "user2"): 0.25, ("D", "user1"): 0.1})
    compute_fairshare(tree, "linear", capacity=1.0)
    return PriorityContext(
        weights=Weights(
            age=w, assoc=w // 3, fairshare=10000, jobsize=1000, partition=w, qos=1000, tres=tres
        ),
        max_age=max_age,
        favor_small=False,
        flags=parse_flags(flags),
        algorithm="linear",
        tree=tree,
        partitions={
            "batch": PartitionInfo("batch", 1, tres={"cpu": 64.0, "mem": 1000.0}),
            "express": PartitionInfo("express", 4, max_time=3600.0, tres={"cpu": 16.0}),
        },
        qos={"normal": QosInfo("normal", 0), "high": QosInfo("high", 100)},
        node_count=8,
        cluster_cpus=64,
        default_partition="batch",
        default_qos="normal",
        assoc_factors={("B", "user1"): 0.75},
    )


#: Times as floats, or whole seconds as integers (the exact reader keeps those).
times = (
    st.floats(NOW - 30 * DAY, NOW + DAY) | st.integers(8_640_000 - 2_592_000, 8_726_400) | st.none()
)
#: Owners and accounts (the last has no association: the queue is the row path's).
WHO = [("user1", "B"), ("user1", "D"), ("user1", None), ("user2", "C"), ("user3", "C"),
       ("user1@site", "B"), ("user3", "B")]  # fmt: skip
job_objects = st.fixed_dictionaries(
    {
        "who": st.sampled_from(WHO[:-1] * 12 + WHO[-1:]),
        "partition": st.sampled_from([None, "batch", "express", "batch,express", "express,batch"]),
        "qos": st.sampled_from([None, "normal", "high"]),
        "status": st.sampled_from(["idle", "idle", "idle", "running", "held"]),
        "submit_time": times,
        "accrue_time": st.none() | times,
        "time_limit": st.none() | st.floats(0, 1e6, exclude_min=True),  # (0: INFINITE)
        "num_nodes": st.integers(1, 4),
        "request_cpus": st.integers(0, 64),
        "request_memory": st.integers(0, 4000),
        "site_factor": st.sampled_from([0, 0, 7, -3, NICE_LIMIT]),  # (Slurm's edges)
        "nice": st.sampled_from([0, 0, 10, -10, NICE_LIMIT, -NICE_LIMIT]),
    }
)


def _job(i: int, obj: dict[str, Any]) -> dict[str, Any]:
    owner, account = obj.pop("who")
    return {"id": str(i), "owner": owner, "account": account, **obj}


queues = st.lists(job_objects, max_size=12).flatmap(
    lambda objs: st.permutations(range(1, len(objs) + 1)).map(
        lambda ids: [_job(i, dict(o)) for i, o in zip(ids, objs, strict=True)]
    )
)
contexts = st.builds(
    _context,
    st.sampled_from(TRES),
    st.sampled_from([[], ["CALCULATE_RUNNING"], ["NO_NORMAL_PART", "NO_NORMAL_TRES"]]),
    st.sampled_from([14 * DAY, 0.0, 3.0]),
    st.sampled_from([0, 1000, 3]),
)


def _fields(row: PriorityRow) -> tuple[str, ...]:
    """Every field of a row, as text (``repr``: floats to the last bit)."""
    return tuple(repr(getattr(row, k)) for k in PriorityRow.__slots__)


def _expected(jobs: list[Any], ctx: PriorityContext) -> list[PriorityRow] | str:
    """The reference's rows in sprio's default order (``-S i``), or its error."""
    try:
        rows = reference_rows(jobs, ctx, NOW, listed_at=NOW + 60)
    except InputError as exc:
        return str(exc)
    return sorted(rows, key=lambda r: r.sort_key)


def _table(jobs: list[Any], ctx: PriorityContext) -> PriorityTable | str:
    try:
        return compute_table(jobs, ctx, NOW, listed_at=NOW + 60)
    except InputError as exc:
        return str(exc)


def _both_kinds(objs: list[dict[str, Any]]) -> list[list[Any]]:
    """The queue as the decoder's records and as the exact parser's."""
    decoded = msgspec.json.decode(json.dumps(objs), type=list[Job])
    return [decoded, parse_jobs(objs, "jobs.json")]


def _same(jobs: list[Any], ctx: PriorityContext, spec: str | None = None) -> None:
    """The table's rows (or error), lines in ``spec`` and ``--json`` text are the
    reference's."""
    want = _expected(jobs, ctx)
    table = _table(jobs, ctx)
    if isinstance(want, str) or isinstance(table, str):
        assert table == want
        return
    rows = table.rows()
    assert [_fields(r) for r in rows] == [_fields(r) for r in want]
    assert [_fields(r) for r in compute_rows(jobs, ctx, NOW, listed_at=NOW + 60)] == [
        _fields(r) for r in reference_rows(jobs, ctx, NOW, listed_at=NOW + 60, listing=False)
    ]
    if spec is None:
        return
    fmt, _ = render.parse_format(spec)
    text = "".join(listing_chunks(fmt, table, ctx.weights, header=False, cluster="c%l"))
    assert text == reference_lines(fmt, want, ctx.weights, "c%l")
    json_text = dumps_columns(render.json_columns(table), len(table))
    assert json_text == reference_json(want)


@settings(max_examples=200, deadline=None)
@given(queues, contexts)
def test_table_rows_are_the_references(objs: list[dict[str, Any]], ctx: PriorityContext) -> None:
    """Every field of every row, in sprio's default order (``-S i``), and every error, are
    the reference's; :func:`compute_rows` gives them in the jobs' order."""
    for jobs in _both_kinds(objs):
        _same(jobs, ctx)


@settings(max_examples=100, deadline=None)
@given(queues, contexts, st.integers(0, 40))
def test_a_queue_given_in_pieces_is_the_table_of_the_whole(
    objs: list[dict[str, Any]], ctx: PriorityContext, cut: int
) -> None:
    """A :class:`TableBuilder` handed the jobs in two lists, its shares made as the jobs
    come (a small queue) or all at once (a large one), gives the table of the whole queue,
    or its error."""
    for jobs in _both_kinds(objs):
        want = _table(jobs, ctx)
        for queue_size in (0, len(jobs) + len(ctx.tree.users)):
            builder = TableBuilder(ctx, NOW, listed_at=NOW + 60, queue_size=queue_size)
            try:
                builder.add(jobs[:cut])
                builder.add(jobs[cut:])
                got: PriorityTable | str = builder.table()
            except InputError as exc:
                got = str(exc)
            if isinstance(want, str) or isinstance(got, str):
                assert got == want
            else:
                assert [_fields(r) for r in got.rows()] == [_fields(r) for r in want.rows()]


def _format(fields: list[tuple[str, int, bool]]) -> str:
    return " ".join(
        f"%{'.' if right else ''}{width or ''}{letter}" for letter, width, right in fields
    )


formats = st.sampled_from(
    [
        "%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10n %.10Q %.11N %.20T",
        "%.15i %9r %.8u %.8o %10y %10a %10b %10f %10j %10p %10n %10q %20t",
        "%.15i %9r %.10Y %.10S %.10A %.10F %.10J %.10P %.10Q %.20T",
    ]
) | st.lists(
    st.tuples(st.sampled_from("isruoncYySAaBbFfJjPpQqNTt"), st.integers(0, 12), st.booleans()),
    max_size=8,
).map(_format)


@settings(max_examples=200, deadline=None)
@given(queues, contexts, formats)
def test_table_text_is_the_references(
    objs: list[dict[str, Any]], ctx: PriorityContext, spec: str
) -> None:
    """The job lines of any format (cells cut, numbers too wide for their cells, zero
    widths) and the ``--json`` text are the reference's, byte for byte."""
    (jobs,) = _both_kinds(objs)[:1]
    _same(jobs, ctx, spec)


@pytest.mark.parametrize(
    "change",
    [
        {"admin_priority": 5},
        {"admin_priority": 4294967293},  # the largest scontrol takes
        {"id": "12.3"},
        {"id": "002"},
        {"id": 'x"\\'},
        {"id": "\u00e9"},
        {"account": "nope"},
        {"submit_time": None},
    ],
)
def test_queues_of_every_kind_are_listed(change: dict[str, Any]) -> None:
    """An admin-set priority, ids that are not plain numbers (or need escaping in JSON),
    an unknown account, no submit nor accrue time: the reference's rows, text or error."""
    ctx = _context(TRES[1], [], 14 * DAY, 1000)
    base = {"owner": "user1", "account": "B", "partition": "batch,express",
            "submit_time": NOW - DAY}  # fmt: skip
    objs = [{"id": "2", **base}, {**base, "id": "3", **change}, {"id": "1", **base}]
    for jobs in _both_kinds(objs)[1:]:
        _same(jobs, ctx, "%.15i %9r %.8u %.8o %10y %.10Y %.10A %10a %.20T %N %S")


def test_attributes_that_change_tres_are_read() -> None:
    """A TRES weight on a GRES reads job attributes: each job's TRES its own."""
    ctx = _context({"cpu": 1.0, "gres/gpu": 10.0}, [], 14 * DAY, 1000)
    objs: list[dict[str, Any]] = [
        {"id": str(i), "owner": "user1", "account": "B", "submit_time": NOW - DAY,
         "attributes": {"RequestGpus": i}}
        for i in (1, 2, 0)
    ]  # fmt: skip
    objs.append({"id": "4", "owner": "user1", "account": "B", "submit_time": NOW - DAY})
    _same(parse_jobs(objs, "jobs.json"), ctx, "%.15i %.10Y %.20T %20t")


def test_rows_out_of_order_are_sorted_by_number() -> None:
    """Ids are listed by number (``-S i``), not as text; each job's partitions in order."""
    ctx = _context(TRES[1], [], 14 * DAY, 1000)
    objs = [
        {"id": i, "owner": "user2", "account": "C", "partition": "express,batch",
         "submit_time": NOW - DAY}
        for i in ("10", "9", "100")
    ]  # fmt: skip
    table = compute_table(parse_jobs(objs, "jobs.json"), ctx, NOW)
    assert list(zip(table.job_ids, [p.partition for p in table.parts], strict=True)) == [
        ("9", "express"), ("9", "batch"), ("10", "express"), ("10", "batch"),
        ("100", "express"), ("100", "batch"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("ids", "want"),
    [
        (["1", "2", "10"], ["1", "2", "10"]),
        (["01", "2"], ["01", "2"]),  # (01 is 1)
        (["2", "01"], ["01", "2"]),
        (["9", "0"], ["0", "9"]),
        (["8", "9\n1"], ["8", "9\n1"]),  # (not a number: last)
        (["9\n1", "8"], ["8", "9\n1"]),
        (["7", "1 "], ["7", "1 "]),
    ],
)
def test_ids_in_order_as_text_but_not_as_numbers_are_sorted(
    ids: list[str], want: list[str]
) -> None:
    """Ids each longer or after the one before as text are in order only when each is a
    plain number: a leading zero, a non-digit or a line break in one has the rows sorted."""
    ctx = _context(TRES[1], [], 14 * DAY, 1000)
    jobs = [Job(id=i, owner="user2", account="C", submit_time=NOW - DAY) for i in ids]
    assert compute_table(jobs, ctx, NOW).job_ids == want


def sited_queues(
    min_size: int, max_size: int, sites: list[list[int]]
) -> st.SearchStrategy[list[dict[str, Any]]]:
    """Queues of ``min_size`` to ``max_size`` jobs whose site factors are drawn from one
    of ``sites`` and nices from one of a few lists (one value, or several)."""
    return st.tuples(
        st.lists(job_objects, min_size=min_size, max_size=max_size),
        st.sampled_from(sites),
        st.sampled_from([[0], [10], [0, 10], [NICE_LIMIT, -10], [-NICE_LIMIT]]),
        st.randoms(use_true_random=False),
    ).map(
        lambda q: [
            {**_job(i, dict(o)), "site_factor": q[3].choice(q[1]), "nice": q[3].choice(q[2])}
            for i, o in enumerate(q[0], start=1)
        ]
    )


#: Long queues whose sites and nices take one or two values (a value a row is printed once,
#: or put in the template when it is the only one).
long_queues = sited_queues(16, 48, [[0], [7], [0, 7], [NICE_LIMIT], [-3, NICE_LIMIT]])


@settings(max_examples=60, deadline=None)
@given(long_queues, contexts, formats)
def test_few_sites_and_nices_print_as_the_reference(
    objs: list[dict[str, Any]], ctx: PriorityContext, spec: str
) -> None:
    """Site and nice columns of one or a few values (printed once a value, or part of the
    line's template) give the reference's bytes, cut or too wide for their cells alike."""
    (jobs,) = _both_kinds(objs)[:1]
    _same(jobs, ctx, spec + " %.10S %5N %N")


def _mixed(items: list[tuple[dict[str, Any], Any, dict[str, Any]]]) -> list[dict[str, Any]]:
    out = []
    for i, (obj, who, change) in enumerate(items, start=1):
        job = _job(i, dict(obj))
        if who is not None:
            job.update({"owner": who[0], "account": who[1]}, **change)
        out.append(job)
    return out


#: Queues with jobs that are not Slurm jobs (an owner without association naming no
#: account): with neither partition nor QOS they have no rows, with one the row path fails.
mixed_queues = st.lists(
    st.tuples(
        job_objects,
        st.sampled_from([None, ("htc", None), ("htc@site", None)]),
        st.sampled_from([{}, *[{"partition": None, "qos": None}] * 5]),
    ),
    max_size=12,
).map(_mixed)


@settings(max_examples=150, deadline=None)
@given(mixed_queues, contexts, formats)
def test_jobs_that_are_not_slurm_jobs_as_the_reference(
    objs: list[dict[str, Any]], ctx: PriorityContext, spec: str
) -> None:
    """Jobs of an owner with no association and no account, partition nor QOS have no
    rows; with a partition or a QOS the error names the job, as the reference's."""
    for jobs in _both_kinds(objs):
        _same(jobs, ctx, spec)


#: Ids as text: plain numbers of several lengths, with leading zeros (``007`` is 7), one
#: number twice (``7`` and ``007``), zero, and ids that are not plain numbers.
ID_TEXTS = ["1", "7", "8", "9", "10", "99", "100", "0", "007", "08", "0010", "12.3", "x"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(ID_TEXTS), unique=True, max_size=8).flatmap(
        lambda ids: st.lists(job_objects, min_size=len(ids), max_size=len(ids)).map(
            lambda objs: [{**_job(0, dict(o)), "id": i} for i, o in zip(ids, objs, strict=True)]
        )
    ),
    contexts,
)
def test_ids_in_any_order_are_the_references(
    objs: list[dict[str, Any]], ctx: PriorityContext
) -> None:
    """Ids in any order, of any length, with leading zeros, two that name one number, ids
    that are not plain numbers: the rows in the reference's order (``-S i``)."""
    for jobs in _both_kinds(objs):
        _same(jobs, ctx, "%.15i %9r %.10Y")


def test_a_builder_with_left_out_notes_each_job_of_no_partition_and_lists_the_rest() -> None:
    """With :attr:`TableBuilder.left_out` (``fs whatif``), each job naming no partition
    where none is the default is noted and gets no row, those of one kind alike (a kind's
    shares are kept once made: a kind refused is made again for its next job); the rows
    are the table of the other jobs. Without it the first such job is refused."""
    ctx = msgspec.structs.replace(_context({}, [], 7 * DAY, 1000), default_partition=None)
    jobs = [
        Job(id=str(i), owner="user2", account="C", submit_time=NOW - DAY, partition=part)
        for i, part in ((1, None), (2, "batch"), (3, None), (4, "express"))
    ]
    builder = TableBuilder(ctx, NOW)
    builder.left_out = []
    builder.add(jobs)
    assert [why.split(":")[0] for why in builder.left_out] == ["job 1", "job 3"]
    assert "names no partition, and no partition (batch, express)" in builder.left_out[0]
    kept = [_fields(r) for r in builder.table().rows()]
    assert kept == [_fields(r) for r in compute_table([jobs[1], jobs[3]], ctx, NOW).rows()]
    with pytest.raises(InputError, match=r"^job 1: names no partition"):
        TableBuilder(ctx, NOW).add(jobs)
