"""Every state-section and job decoder refuses malformed JSON with its own error class.

A hostile-input pass found decoders that let a ``TypeError`` escape (a dict where a status
string belongs, a null ``id``); any JSON value must give a result or a clear error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS, DiracGroupSpec
from fairshare_cli.core.dirac.correction import history_from_json
from fairshare_cli.core.dirac.jobs import task_queues_from_objects
from fairshare_cli.core.htcondor.accountant import accountant_from_json
from fairshare_cli.core.htcondor.claims import negotiator_from_json
from fairshare_cli.core.jobs import parse_jobs, parse_jobs_one_by_one
from fairshare_cli.core.slurm.usage import usage_from_json
from fairshare_cli.core.state import SectionError
from fairshare_cli.core.usage import parse_record
from fairshare_cli.errors import FairshareError
from fairshare_cli.io.jobs import load_job_batches


def _batches(objs: list[Any]) -> object:
    """The batches of a jobs file holding ``objs`` (the one jobs-file reader)."""
    import json
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json") as fh:
        json.dump(objs, fh)
        fh.flush()
        return load_job_batches(fh.name)


KEYS = st.sampled_from(
    ["records", "claims", "rr_times", "last_cycle", "usage", "running", "last_decay_ran",
     "running_jobs", "id", "owner", "count", "status", "submit_time", "request_cpus",
     "time_limit", "dirac_group", "dirac_requirements", "cpu_time", "account", "user", "rate",
     "start", "end", "priority", "is_group", "job_id", "submitter", "start_time", "slots",
     "nice_user", "lhcb_user", "a@b", "weight"]
)  # fmt: skip
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "x", "1", "idle", "running", "lhcb_user", "2026-11-21T12:00:00Z"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)
JOB = st.fixed_dictionaries(
    {"id": st.one_of(st.none(), st.sampled_from(["1", "2.0"])), "owner": SCALARS},
    optional={"status": JSON, "count": JSON, "request_cpus": JSON, "submit_time": JSON},
)
GROUPS = {"lhcb_user": DiracGroupSpec(name="lhcb_user", job_share=1000)}

DECODERS: dict[str, Callable[[Any], object]] = {
    "accountant": accountant_from_json,
    "negotiator": negotiator_from_json,
    "slurm": usage_from_json,
    "dirac": history_from_json,
    "parse_jobs_one_by_one": lambda x: parse_jobs_one_by_one(x, "s"),
    "parse_jobs": lambda x: parse_jobs(x, "s"),
    "batches": lambda x: _batches(x if isinstance(x, list) else [x]),
    "task_queues": lambda x: task_queues_from_objects(
        x if isinstance(x, list) else [x], "s", GROUPS, DIRAC_CPU_SEGMENTS
    ),
    "record": lambda x: parse_record(x if isinstance(x, dict) else {"owner": x}, "s"),
}


@pytest.mark.parametrize("name", sorted(DECODERS))
@settings(max_examples=150, deadline=None)
@given(value=JSON | st.lists(JOB, max_size=3))
def test_decoders_raise_only_their_own_errors(name: str, value: Any) -> None:
    message = "decoded"
    try:
        DECODERS[name](value)
    except (SectionError, FairshareError) as exc:  # anything else fails the test
        message = str(exc)
    assert message.strip(), "an error must say what is wrong"


@pytest.mark.parametrize(
    "obj",
    [
        {"id": "1", "owner": "a", "status": {"x": 1}},
        {"id": None, "owner": "a"},
        {"id": "1", "owner": None},
    ],
)
def test_found_cases(obj: dict[str, Any]) -> None:
    for name in ("parse_jobs_one_by_one", "parse_jobs", "batches"):
        with pytest.raises(FairshareError):
            DECODERS[name]([obj])


def _slurm_config() -> Any:
    from fairshare_cli.io.config import build_config

    return build_config({"accounts": {"a": {"shares": 1, "users": {"u1": 1}}}}, "test.toml")


@pytest.mark.parametrize("count", [None, 2])
def test_the_state_check_checks_the_jobs_that_changed(count: int | None) -> None:
    """Of a queue written again, the jobs whose objects are unchanged are not checked
    against the config again (job 1's unknown account stays); one that changed is (job 2:
    refused, named); a ``count`` object stands for each of its jobs."""
    from fairshare_cli.core.jobs import parse_jobs_one_by_one
    from fairshare_cli.core.operations.validate import check_state
    from fairshare_cli.core.state import State
    from fairshare_cli.errors import InputError

    config = _slurm_config()
    old: list[dict[str, Any]] = [
        {"id": "1", "owner": "u1", "account": "zz"},
        {"id": "2", "owner": "u1", "account": "a"},
    ]
    if count is not None:
        old.append({"id": "3", "owner": "u1", "account": "a", "count": count})
    before = State(sections={"jobs": old})
    again = [dict(o) for o in old]
    check_state(before, State(sections={"jobs": again}), config, "s")
    written = (again, parse_jobs_one_by_one(again, "s"), frozenset[str]())
    check_state(before, State(sections={"jobs": again}), config, "s", written)
    changed = [dict(o) for o in old]
    changed[1]["account"] = "zz"
    with pytest.raises(InputError, match='s: jobs: job 2: unknown account "zz"'):
        check_state(before, State(sections={"jobs": changed}), config, "s")
    if count is None:  # the ids the command found equal are not compared again; others are
        told = (changed, parse_jobs_one_by_one(changed, "s"), frozenset({"1"}))
        with pytest.raises(InputError, match='s: jobs: job 2: unknown account "zz"'):
            check_state(before, State(sections={"jobs": changed}), config, "s", told)
        told = (changed, told[1], frozenset({"1", "2"}))
        check_state(before, State(sections={"jobs": changed}), config, "s", told)
