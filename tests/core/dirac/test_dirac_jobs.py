"""Raw job objects into task queues: the fast path agrees with one-job-at-a-time insertion."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS, DiracGroupSpec
from fairshare_cli.core.dirac.jobs import (
    _definition_key,
    _entry,
    task_queues_from_objects,
)
from fairshare_cli.core.dirac.requirements import definer
from fairshare_cli.core.dirac.taskqueues import build_task_queues
from fairshare_cli.errors import InputError

DEFAULT_CPU_TIME = 86400  # DIRAC's JobDescription/DefaultCPUTime when unset

GROUPS = {
    "user": DiracGroupSpec("user"),
    "prod": DiracGroupSpec("prod", job_share=4000, job_sharing=True),
}


def queues(objs: list[dict[str, Any]]) -> list[tuple[int, str, int, tuple[tuple[int, int], ...]]]:
    got = task_queues_from_objects(objs, "jobs.json", GROUPS, DIRAC_CPU_SEGMENTS)
    return [(q.tq_id, q.definition.owner, q.definition.cpu_time, q.priority_counts) for q in got]


def job(i: int, owner: str = "alice", group: str | None = "user", **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": f"{i}.0", "owner": owner, **extra}
    if group is not None:
        out["dirac_group"] = group
    return out


def test_only_waiting_dirac_jobs_count() -> None:
    objs = [
        job(1),
        job(2, status="running"),
        job(3, group=None),
        job(4, status=None, user_priority=None, dirac_requirements=None),
        job(5, owner="bob", status="held"),
    ]
    assert queues(objs) == [(1, "alice", DEFAULT_CPU_TIME, ((1, 2),))]


def test_requirements_make_the_definition() -> None:
    objs = [
        job(1, dirac_requirements={"cpu_time": 3000, "sites": ["B", "A"], "platform": "el9"}),
        job(2, dirac_requirements={"platform": "el9", "sites": ["A", "B"], "cpu_time": 2000}),
        job(3, dirac_requirements={"cpu_time": 2000, "sites": ["A"], "platforms": ["el9"]}),
        job(4, dirac_requirements={"cpu_time": 2000, "sites": ["A"], "platforms": ["el9"],
                                   "platform": "el8"}),
    ]  # fmt: skip
    got = task_queues_from_objects(objs, "jobs.json", GROUPS, DIRAC_CPU_SEGMENTS)
    assert [(q.definition.sites, q.definition.platforms, q.jobs) for q in got] == [
        (("A", "B"), ("el9",), 2),
        (("A",), ("el9",), 1),
        (("A",), ("el8", "el9"), 1),
    ]


def test_count_expands_and_overflowing_queues_replay_in_order() -> None:
    # alice fills one queue of 5000 with 4999 + 1 jobs; bob's queue comes before her second.
    objs = [
        job(1, count=4999),
        job(2, owner="bob"),
        job(3, count=2, user_priority=3),
    ]
    assert queues(objs) == [
        (1, "alice", DEFAULT_CPU_TIME, ((1, 4999), (3, 1))),
        (2, "bob", DEFAULT_CPU_TIME, ((1, 1),)),
        (3, "alice", DEFAULT_CPU_TIME, ((3, 1),)),
    ]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["alice", "bob"]),
            st.sampled_from(["user", "prod"]),
            st.sampled_from([None, 100, 3000, 3600, 90000]),
            st.sampled_from([None, ["A"], ["A", "B"], ["B", "A"]]),
            st.integers(min_value=0, max_value=10),
            st.integers(min_value=1, max_value=4),
        ),
        max_size=60,
    )
)
def test_fast_path_equals_one_job_at_a_time(rows: list[tuple[Any, ...]]) -> None:
    objs = []
    for i, (owner, group, cpu, sites, prio, count) in enumerate(rows):
        req: dict[str, Any] = {}
        if cpu is not None:
            req["cpu_time"] = cpu
        if sites is not None:
            req["sites"] = sites
        objs.append(job(i, owner, group, user_priority=prio, count=count, dirac_requirements=req))
    define = definer(GROUPS, DIRAC_CPU_SEGMENTS)
    for limit in (3, 5000):
        one_by_one = build_task_queues(
            ((_definition_key(e), e[2], e[3]) for e in map(_entry, objs)), define, limit
        )
        if limit == 5000:
            assert task_queues_from_objects(objs, "j", GROUPS, DIRAC_CPU_SEGMENTS) == one_by_one
        singles = [(_definition_key(e), e[2], 1) for e in map(_entry, objs) for _ in range(e[3])]
        assert build_task_queues(singles, define, limit) == one_by_one


def test_input_order_only_changes_ids() -> None:
    rng = random.Random(5)
    objs = [job(i, rng.choice("ab"), user_priority=rng.randrange(4)) for i in range(200)]
    shuffled = list(objs)
    rng.shuffle(shuffled)
    a = task_queues_from_objects(objs, "j", GROUPS, DIRAC_CPU_SEGMENTS)
    b = task_queues_from_objects(shuffled, "j", GROUPS, DIRAC_CPU_SEGMENTS)
    assert {(q.definition, q.priority_counts) for q in a} == {
        (q.definition, q.priority_counts) for q in b
    }


@pytest.mark.parametrize(
    ("objs", "message"),
    [
        pytest.param([job(1, colour="red")], "job 1.0: unknown job field 'colour'", id="field"),
        pytest.param([job(1), job(1)], "job 1.0 is given twice (job objects 1 and 2, counting from 1); give each job its own id", id="duplicate"),
        pytest.param([job(1, count=2), job(2), {"id": "1.1", "owner": "x"}],
                     "job 1.1 is given twice (job objects 1 and 3, counting from 1); give each job its own id", id="duplicate-after-count"),
        pytest.param([job(1, count=0)], "job 1.0: count: expected a whole number of at least 1",
                     id="count"),
        pytest.param([job(1, status="waiting")], "job 1.0: status: expected one of", id="status"),
        pytest.param([job(1, dirac_requirements={"sites": [["A"]]})],
                     "job 1.0: dirac_requirements values must be numbers, names or lists",
                     id="nested-list"),
        pytest.param([job(1, dirac_requirements={"cpu_time": "long"})],
                     "job 1.0: dirac_requirements.cpu_time: expected whole seconds, got "
                     "'long'", id="cpu-time"),
        pytest.param([job(1, dirac_requirements={"cpu_time": -1})],
                     "job 1.0: dirac_requirements.cpu_time: -1: DIRAC's JobManager "
                     "refuses the job (cpuTime out of bounds", id="cpu-time-negative"),
        pytest.param([job(1, dirac_requirements={"tags": "gpu"}), job(2, user_priority="1")],
                     "job 2.0: user_priority: expected a number, got '1'", id="priority"),
        pytest.param([job(1, user_priority=float("nan"))],
                     "job 1.0: user_priority: expected a finite number", id="priority-nan"),
        pytest.param(["job"], "job object 1 (counting from 1): expected a job object, got a string", id="not-object"),
    ],
)  # fmt: skip
def test_bad_jobs(objs: list[Any], message: str) -> None:
    with pytest.raises(InputError) as info:
        task_queues_from_objects(objs, "jobs.json", GROUPS, DIRAC_CPU_SEGMENTS)
    assert str(info.value).startswith("jobs.json: ")
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("value", "names"),
    [
        pytest.param("GPU", ("GPU",), id="one-name"),
        pytest.param("GPU, MultiProcessor", ("GPU", "MultiProcessor"), id="comma-list"),
        pytest.param(" GPU ", ("GPU",), id="blanks-around"),
        pytest.param(" , ", (), id="blanks-only"),
        pytest.param(["a b", "a,b", "b"], ("a", "a b", "b"), id="list-items-split"),
    ],
)
def test_requirement_names_read_as_diraccfg_lists(value: Any, names: tuple[str, ...]) -> None:
    """``List.fromChar``: split at ",", strip each piece, drop the empty ones (a blank inside
    a name stays)."""
    (queue,) = task_queues_from_objects(
        [job(1, dirac_requirements={"tags": value})], "j", GROUPS, DIRAC_CPU_SEGMENTS
    )
    assert queue.definition.tags == names
