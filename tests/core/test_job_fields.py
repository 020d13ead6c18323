"""``read_job_fields`` (through ``parse_job``) takes the common field values inline (negotiate-batches benchmark): the
result, and the message of a refused value, must be those of each field's own parser."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.job_fields import JOB_FIELDS, check_job_field
from fairshare_cli.core.jobs import Job, job_to_json, parse_job
from fairshare_cli.core.limits import INT64_MAX, INT64_MIN, TIME_MAX, TIME_MIN
from fairshare_cli.errors import InputError


def reference(obj: dict[str, Any], where: str) -> Job:
    """The job as every field's parser reads it (no inline path), ``Job.__init__`` built."""
    kw = {k: check_job_field(k, v, where) for k, v in obj.items() if v is not None}
    return Job(**kw)


def outcome(fn: Any, obj: dict[str, Any]) -> tuple[str, object]:
    try:
        return "ok", fn(obj, "jobs file x: job 0")
    except InputError as exc:
        return "error", str(exc)


_edges = st.sampled_from(
    [0, -1, 1, INT64_MIN, INT64_MAX, INT64_MIN - 1, INT64_MAX + 1, TIME_MIN, TIME_MAX]
)
_numbers = st.one_of(
    st.integers(),
    _edges,
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.integers(min_value=int(TIME_MIN) - 2, max_value=int(TIME_MAX) + 2),
)
_texts = st.one_of(st.text(max_size=6), st.just("alice"), st.just("a b"), st.just("x@y@z"))
_values = st.one_of(st.none(), _numbers, _texts, st.lists(st.integers(), max_size=1))
_keys = st.sampled_from(
    [
        "job_prio",
        "request_cpus",
        "request_memory",
        "num_nodes",
        "admin_priority",
        "submit_time",
        "start_time",
        "requirements",
        "rank",
        "concurrency_limits",
        "owner",
        "accounting_group",
        "slot",
        "id",
        "status",
        "nice_user",
        "user_priority",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(_keys, _values, max_size=6), st.sampled_from(["1.0", 7, "a b"]))
def test_inline_fields_read_as_their_parsers(fields: dict[str, Any], job_id: Any) -> None:
    obj = {"id": job_id, "owner": "alice", **fields}
    if obj.get("id") is None or obj.get("owner") is None:
        return  # parse_job names the missing field before any value
    got = outcome(lambda o, w: parse_job(o, w)[0], obj)
    want = outcome(reference, obj)
    if want[0] == "ok" and not isinstance(want[1], Job):
        pytest.fail("reference gave no job")
    if isinstance(want[1], Job) and want[1].status not in (
        "idle",
        "running",
        "held",
        "completed",
        "removed",
    ):
        assert got[0] == "error"  # the status rule comes after every field
        return
    assert got == want
    if got[0] == "ok":
        assert isinstance(got[1], Job) and isinstance(want[1], Job)
        for name in Job.__struct_fields__:  # types too: 1 and 1.0 compare equal
            a, b = getattr(got[1], name), getattr(want[1], name)
            assert type(a) is type(b) and (a == b or (a != a and b != b)), name


def _json_reference(job: Job) -> dict[str, Any]:
    """The JSON form as ``asdict`` gives it, fields at their defaults left out."""
    from msgspec.structs import asdict

    defaults = Job(id="", owner="")
    return {
        key: "INFINITE" if value == math.inf else value
        for key, value in asdict(job).items()
        if key in ("id", "owner") or value != getattr(defaults, key)
    }


_int64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
_json_values = st.fixed_dictionaries(
    {"id": st.sampled_from(["1", "12.3"]), "owner": st.just("alice")},
    optional={
        "submit_time": st.floats(min_value=0, max_value=2e9),
        "time_limit": st.sampled_from([0, 60.5, "INFINITE", "1-00:00:00"]),
        "run_time": st.sampled_from([0, 5.0, "UNLIMITED"]),
        "nice_user": st.booleans(),
        "user_priority": st.sampled_from([1, 1.0, 2.5, 0]),
        "request_cpus": st.integers(min_value=0, max_value=64),
        "status": st.sampled_from(["idle", "running", "held"]),
        "partition": st.sampled_from(["batch", "batch,express"]),
        "attributes": st.dictionaries(  # (ClassAd literals: whole numbers of 64 bits)
            st.sampled_from(["gpus", "Site"]),
            st.one_of(_int64, st.text(max_size=3), st.lists(_int64, max_size=2)),
        ),
        "dirac_requirements": st.sampled_from([{}, {"Sites": ["A", "B"]}]),
    },
)


@settings(max_examples=300, deadline=None)
@given(_json_values)
def test_job_to_json_is_asdict_without_defaults(obj: dict[str, Any]) -> None:
    """Same keys in the same order, same values and types, containers copied."""
    job = parse_job(obj, "jobs")[0]
    got, want = job_to_json(job), _json_reference(job)
    assert list(got.items()) == list(want.items())
    assert [type(v) for v in got.values()] == [type(v) for v in want.values()]
    for key in ("attributes", "dirac_requirements"):
        if key in got:
            assert got[key] is not getattr(job, key)


def test_a_node_count_left_out_stays_apart_from_one_node() -> None:
    """``num_nodes`` left out (every state written before the count could be told apart:
    one node was left out too) reads as None, ``-N`` not given, and is written back left
    out; ``"num_nodes": 1`` (``-N 1``) reads as 1 and is written back."""
    from fairshare_cli.core.jobs import parse_jobs

    objs = [{"id": "1", "owner": "a"}, {"id": "2", "owner": "a", "num_nodes": 1}]
    jobs = parse_jobs(objs, "s: jobs")
    assert [job.num_nodes for job in jobs] == [None, 1]
    assert [job_to_json(job) for job in jobs] == objs
    assert [
        job.num_nodes for job in parse_job({"id": "3", "owner": "a", "num_nodes": None}, "w")
    ] == [None]


def test_every_field_of_a_job_is_read_and_named_in_suggestions() -> None:
    # the fields an unknown key is compared with are exactly the record's
    assert set(Job.__struct_fields__) == JOB_FIELDS
    with pytest.raises(InputError, match="did you mean 'request_cpus'"):
        parse_job({"id": "1", "owner": "u", "request_cpu": 2}, "jobs file x: job 0")


@pytest.mark.parametrize(("value", "read"), [(12, "12"), ("12.0", "12.0"), (-3, "-3")])
def test_a_job_id_written_as_a_whole_number_is_its_text(value: Any, read: str) -> None:
    assert check_job_field("id", value, "jobs.json: job object 1") == read


@pytest.mark.parametrize(
    ("value", "shown"),
    [(12.0, "12.0"), (5.1, "5.1"), (math.nan, "nan"), (math.inf, "inf"), (-math.inf, "-inf"),
     (1e308, "1e+308"), (1e16, "1e+16")],
)  # fmt: skip
def test_a_job_id_written_as_a_number_with_a_dot_is_refused(value: float, shown: str) -> None:
    """``5.10`` read ``5.1`` (job 1 of cluster 5, not job 10); ``NaN``, ``Infinity`` and
    ``1e308`` were taken as the ids ``nan``, ``inf`` and ``1e+308``, printed so by every
    view."""
    with pytest.raises(InputError) as caught:
        check_job_field("id", value, "jobs.json: job object 1")
    assert str(caught.value) == (
        f"jobs.json: job object 1: id: expected a string or a whole number, got {shown}: "
        'write an id with a dot as text ("12.0"); as a number it loses digits (5.10 reads 5.1)'
    )
