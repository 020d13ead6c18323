"""The streamed reader of ``fs taskqueues`` refuses every field value the job parser refuses.

The msgspec reader once let through values in fields task queues do not read (a
negative ``request_cpus``, a NaN ``user_priority`` on a job without ``dirac_group``). Now
each field is typed as :func:`~fairshare_cli.core.jobs.parse_job` reads it, so for any job
object the reader alone (no fallback) accepts exactly what the parser accepts, except the
few forms it hands to the job parser on purpose (:func:`handed_on`), which the parser then
decides.
Through ``task_queues_from_file`` the message is the parser's own: file, job, field.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS, DiracGroupSpec
from fairshare_cli.core.dirac.requirements import REQUIREMENT_KEYS
from fairshare_cli.core.job_fields import job_label
from fairshare_cli.core.jobs import Job, parse_job
from fairshare_cli.errors import InputError
from fairshare_cli.io import dirac_jobs
from fairshare_cli.io import jobs as jobs_io
from fairshare_cli.io.dirac_jobs import task_queues_from_file

GROUPS = {"user": DiracGroupSpec("user", 1000)}
WHOLE = (
    "job_prio", "request_cpus", "request_memory", "num_nodes", "nice", "site_factor",
    "admin_priority", "slurm_priority", "pre_job_prio1", "pre_job_prio2", "post_job_prio1",
    "post_job_prio2", "current_hosts",
)  # fmt: skip
TIMES = ("submit_time", "eligible_time", "accrue_time", "start_time")
NAMES = ("accounting_group", "account", "qos", "slot", "dirac_group", "owner")

odd = st.sampled_from([True, "3", [1], {"a": 1}, 1.5, -7, math.nan, 2**63, -(2**63) - 1])
whole = st.one_of(st.integers(-3, 5), st.sampled_from([2**63 - 1, -(2**63), 2.0]), odd)
time = st.one_of(
    st.sampled_from(["2026-11-21T12:00:00Z", "2026-11-21 12:00:00", "1795262400", "2026-02-30"]),
    st.sampled_from([0, 1795262400.5, -1e12, 1e12, "soon", "2026-13-01T00:00:00Z"]),
    odd,
)
duration = st.one_of(st.sampled_from([0, 3600, 1.5, -1, "1:00:00", "UNLIMITED", "7-", "x"]), odd)
name = st.one_of(st.sampled_from(["g", "g.sub", "a@b", "a@b@c", "", "a b", "\u00a0x", "é"]), odd)
fields: dict[str, Any] = {
    **dict.fromkeys(WHOLE, whole),
    **dict.fromkeys(TIMES, time),
    **dict.fromkeys(NAMES, name),
    "time_limit": duration,
    "run_time": duration,
    "nice_user": st.one_of(st.booleans(), odd),
    "user_priority": st.one_of(st.sampled_from([1, 0, 2.5, -3, 1e300, 2**64]), odd),
    "status": st.one_of(st.sampled_from(["idle", "running", "held", "gone"]), odd),
    "count": st.one_of(st.integers(0, 3), odd),
    "partition": st.one_of(st.sampled_from(["batch", "batch,express", "batch, x", ","]), odd),
    "requirements": st.one_of(st.just("true"), odd),
    "rank": st.one_of(st.just("0"), odd),
    "concurrency_limits": st.one_of(st.just("sw:2"), odd),
    "concurrency_limits_expr": st.one_of(st.just('strcat("license.", TARGET.Site)'), odd),
    "attributes": st.one_of(st.just({"x": [1, {"y": None}]}), odd),
    "dirac_requirements": st.one_of(st.just({"cpu_time": 300, "sites": ["A"]}), odd),
    "sluid": st.one_of(
        st.sampled_from(["s805M8HP6BJP00", "s0000000000000", "sG05M8HP6BJP00", "s805m8hp6bjp00"]),
        odd,
    ),
}
assert set(fields) == set(Job.__struct_fields__) - {"id"}
job = st.fixed_dictionaries(
    {"id": st.sampled_from(["1.0", "", "1 0", "1.0\u2028"])},
    optional={k: st.one_of(st.none(), v) for k, v in fields.items()},
)
"""One job object: every field sometimes absent, null, right, or odd."""


def handed_on(obj: dict[str, Any]) -> bool:
    """Forms the fast path leaves to the job parser although the parser takes them: a
    whole number written as a float, a duration as a Slurm time string, a null where the
    job record has a value by default (``Job``'s field types take no null there), an
    attribute nested deeper than a list or object of plain values (``core/literals.py``:
    the decoders take one level, ``check_literals`` the rest), a ``dirac_requirements``
    key DIRAC does not know (the job parser takes any object there; the task queues'
    reader refuses it, in the exact path's words)."""
    blank = Job(id="", owner="")
    requirements = obj.get("dirac_requirements")
    return (
        (isinstance(requirements, dict) and not set(requirements) <= set(REQUIREMENT_KEYS))
        or any(isinstance(obj.get(k), float) for k in WHOLE)
        or any(isinstance(obj.get(k), str) for k in ("time_limit", "run_time"))
        or any(value is None and getattr(blank, k) is not None for k, value in obj.items())
        or _nested(obj.get("attributes"))
    )


def _nested(attributes: Any) -> bool:
    """Whether an attribute's list or object holds a list or object."""
    if not isinstance(attributes, dict):
        return False
    for value in attributes.values():
        inner = value.values() if isinstance(value, dict) else value
        if isinstance(value, (dict, list)) and any(isinstance(v, (dict, list)) for v in inner):
            return True
    return False


class ReadWhole(Exception):
    """The fast path handed the file on."""


def reader_accepts(path: Path) -> bool:
    """Whether the fast path alone takes the file (the exact reader never called)."""

    def refuse(*args: Any) -> Any:
        raise ReadWhole

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jobs_io, "load_job_objects", refuse)
        patch.setattr(dirac_jobs, "load_job_objects", refuse)
        try:
            task_queues_from_file(str(path), GROUPS, DIRAC_CPU_SEGMENTS)
        except ReadWhole:
            return False
    return True


def parser_accepts(obj: dict[str, Any]) -> bool:
    try:
        parse_job(json.loads(json.dumps(obj)), "job 0")
    except InputError:
        return False
    return True


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(job)
def test_the_reader_accepts_what_the_parser_accepts(tmp_path: Path, obj: dict[str, Any]) -> None:
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps([obj]), encoding="utf-8")
    accepted = parser_accepts(obj)
    if reader_accepts(path):
        assert accepted, obj
    else:
        assert not accepted or handed_on(obj), obj


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(job)
def test_the_message_is_the_parsers(tmp_path: Path, obj: dict[str, Any]) -> None:
    """Behind a valid job, a refused one is named by the parser's message (the file, and
    the job as every reader names it: by its id, else as the second job object)."""
    good = {"id": "9.0", "owner": "alice", "dirac_group": "user"}
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps([good, obj]), encoding="utf-8")
    message = ""
    try:
        parse_job(json.loads(json.dumps(obj)), job_label(str(path), obj, 1))
    except InputError as exc:
        message = str(exc)
    if message:
        with pytest.raises(InputError) as caught:
            task_queues_from_file(str(path), GROUPS, DIRAC_CPU_SEGMENTS)
        assert str(caught.value) == message


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("request_cpus", -8, "job 2.0: request_cpus: expected 0 or more, got -8"),
        ("num_nodes", 0, "job 2.0: num_nodes: expected 1 or more, got 0"),
        ("user_priority", math.nan, "job 2.0: user_priority: expected a finite number that fits"),
        ("user_priority", 1e300, "job 2.0: user_priority: expected a finite number that fits"),
        ("submit_time", "2026-02-30T00:00:00Z", "job 2.0: submit_time: expected a real calendar"),
        ("account", "a b", "job 2.0: account: expected a name without blanks"),
        ("time_limit", -1, "job 2.0: time_limit: expected a duration of 0 or more seconds"),
        ("nice_user", 1, "job 2.0: nice_user: expected true or false, got 1"),
        ("attributes", [1], "job 2.0: attributes: expected an object"),
    ],
)
def test_odd_values_in_fields_taskqueues_do_not_read(
    tmp_path: Path, field: str, value: Any, expected: str
) -> None:
    """The values the reader once let through, on a job that is not a waiting DIRAC job (no
    dirac_group)."""
    jobs = [{"id": "1.0", "owner": "a", "dirac_group": "user"}, {"id": "2.0", "owner": "b"}]
    jobs[1][field] = value
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        task_queues_from_file(str(path), GROUPS, DIRAC_CPU_SEGMENTS)
    assert str(caught.value).startswith(f"{path}: ")
    assert expected in str(caught.value)
