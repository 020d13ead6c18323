"""``fs sprio``'s typed readers (``io/slurm_jobs.py``: of a ``--jobs-file``, and of the
state's queue already decoded) against the exact one.

The typed reader may only take a file the exact reader (``core/slurm/jobs.py``
``slurm_jobs``) takes, and must then give the same jobs field by field; on anything else
(hostile input included) it steps aside (None) so the exact reader's message is the one
users see. Job objects are drawn from good values and each kind of bad one.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.slurm.jobs import SlurmJob, slurm_jobs
from fairshare_cli.errors import InputError
from fairshare_cli.io.slurm_jobs import fast_sprio_jobs, fast_sprio_objects

names = st.sampled_from(["alice", "hep", "batch", "a@b", "a@b@c", "", "a b", "é", "x,y", "a\x01"])
ints = st.sampled_from([0, 1, -1, 7, 2**63 - 1, 2**63, -(2**63) - 1, True, 1.0, None, "3"])
times = st.sampled_from(
    [1795262400.0, 1795262400, -62135596801.0, 253402300800.0, "2026-11-21T12:00:00Z", None, False]
)
fields: dict[str, Any] = {
    "account": names | st.none(),
    "partition": names | st.none(),
    "qos": names | st.none() | st.just(3),
    "status": st.sampled_from(["idle", "running", "held", "completed", "removed", "bogus", None]),
    "submit_time": times,
    "accrue_time": times,
    "time_limit": st.sampled_from(
        [0, 60, 3600.5, -1, None, True, "1:00", "INFINITE", "UNLIMITED", "1-00:00:00", "x", ""]
    ),
    "eligible_time": times,
    "start_time": times,
    "num_nodes": ints,
    "request_cpus": ints,
    "request_memory": ints,
    "site_factor": ints,
    "nice": ints,
    "admin_priority": ints,
    "attributes": st.just({"gpus": 1}),
    "slot": st.just("slot1@node"),
}
job = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["1", "2", "3", "12.3"])
        | st.sampled_from(["x", "", "a b", "1,2", "a@b", 5, None]),
        "owner": st.just("alice") | names,
    },
    optional=fields,
)
docs = st.lists(job, max_size=4) | st.sampled_from([{}, "jobs", [1], [[]]])


def _fields(j: Any) -> tuple[Any, ...]:
    return tuple((name, getattr(j, name)) for name in SlurmJob.__slots__)


@settings(max_examples=400, deadline=None)
@given(docs)
def test_the_typed_reader_takes_only_what_the_exact_reader_takes(
    tmp_path_factory: Any, doc: Any
) -> None:
    path: Path = tmp_path_factory.mktemp("j") / "jobs.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    fast = fast_sprio_jobs(str(path))
    try:
        exact = slurm_jobs(json.loads(path.read_text(encoding="utf-8")), str(path))
    except InputError:
        assert fast is None
        return
    if fast is not None:
        assert [_fields(j) for j in fast] == [_fields(j) for j in exact]


def test_plain_jobs_are_read_by_the_typed_reader(tmp_path: Path) -> None:
    """Plain objects (the benchmark's kind) do not step aside: an int time becomes a float,
    missing fields take the exact reader's defaults (idle, 1 node, 1 CPU)."""
    path = tmp_path / "jobs.json"
    doc = [
        {"id": "1", "owner": "alice", "account": "hep", "submit_time": 1795262400, "nice": 5},
        {"id": "2.0", "owner": "bob@example.org", "partition": "a,b", "qos": "high"},
    ]
    path.write_text(json.dumps(doc), encoding="utf-8")
    fast = fast_sprio_jobs(str(path))
    assert fast is not None
    assert [_fields(j) for j in fast] == [_fields(j) for j in slurm_jobs(doc, str(path))]
    assert fast[0].submit_time == 1795262400.0 and type(fast[0].submit_time) is float
    assert (fast[1].status, fast[1].num_nodes, fast[1].request_cpus) == ("idle", 1, 1)
    assert fast[1].partitions == ("a", "b") and fast[1].cluster_proc == (2, 0)


def test_duplicate_ids_and_stdin_step_aside(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    path.write_text('[{"id": "1", "owner": "a"}, {"id": "1", "owner": "b"}]', encoding="utf-8")
    assert fast_sprio_jobs(str(path)) is None
    assert fast_sprio_jobs("-") is None
    assert fast_sprio_jobs(str(tmp_path / "missing.json")) is None


def test_name_lengths_are_the_exact_readers(tmp_path: Path) -> None:
    """Names are checked for length as they are decoded (characters, not bytes): 1,024
    characters are taken as the exact reader takes them; 1,025, or none, step aside for
    the exact reader's error."""
    path = tmp_path / "jobs.json"
    for name, good in (("é" * 1024, True), ("a" * 1024, True), ("a" * 1025, False), ("", False)):
        for key in ("id", "owner", "account", "partition", "qos"):
            obj = {"id": "1", "owner": "alice", key: "7" * len(name) if key == "id" else name}
            path.write_text(json.dumps([obj]), encoding="utf-8")
            fast = fast_sprio_jobs(str(path))
            try:
                exact = slurm_jobs([obj], str(path))
            except InputError:
                assert not good and fast is None, (key, len(name))
                continue
            assert good and fast is not None, (key, len(name))
            assert [_fields(j) for j in fast] == [_fields(j) for j in exact]


@settings(max_examples=400, deadline=None)
@given(docs)
def test_the_typed_queue_reader_takes_only_what_the_exact_reader_takes(doc: Any) -> None:
    """The state's queue as the state reader decodes it (JSON text to objects): the same
    jobs as the exact reader, or None where the exact reader words an error."""
    objs = json.loads(json.dumps(doc))
    fast = fast_sprio_objects(objs)
    try:
        exact = slurm_jobs(objs, "state.json: jobs")
    except InputError:
        assert fast is None
        return
    if fast is not None:
        assert [_fields(j) for j in fast] == [_fields(j) for j in exact]


def test_a_plain_queue_is_read_by_the_typed_queue_reader() -> None:
    """As a file's: an int time becomes a float, missing fields take the defaults; a
    duplicate id or a non-list steps aside."""
    objs = [
        {"id": "1", "owner": "alice", "account": "hep", "submit_time": 1795262400, "nice": 5},
        {"id": "2.0", "owner": "bob@example.org", "partition": "a,b", "qos": "high"},
    ]
    fast = fast_sprio_objects(objs)
    assert fast is not None
    assert [_fields(j) for j in fast] == [_fields(j) for j in slurm_jobs(objs, "state")]
    assert type(fast[0].submit_time) is float and fast[1].num_nodes == 1
    assert fast_sprio_objects([objs[0], objs[0]]) is None
    assert fast_sprio_objects({"1": objs[0]}) is None


def test_a_queue_as_fs_import_squeue_stores_it_is_read_by_the_typed_reader() -> None:
    """Eligible and start times, and time limits as Slurm prints them (``INFINITE``,
    ``D-HH:MM:SS``): taken, and the limits read as the exact reader reads them."""
    objs = [
        {"id": "2", "owner": "u1", "status": "running", "eligible_time": 1795302541.0,
         "start_time": 1795302541.0, "submit_time": 1795302541.0, "time_limit": "INFINITE"},
        {"id": "5", "owner": "u1", "account": "b", "accrue_time": 1795302549.0,
         "eligible_time": 1795302549.0, "time_limit": "1-00:00:00", "site_factor": 300},
        {"id": "6", "owner": "u2", "time_limit": 5400.0},
    ]  # fmt: skip
    fast = fast_sprio_objects(objs)
    assert fast is not None
    assert [_fields(j) for j in fast] == [_fields(j) for j in slurm_jobs(objs, "state")]
    assert [j.time_limit for j in fast] == [math.inf, 86400.0, 5400.0]
    assert fast_sprio_objects([{**objs[2], "time_limit": "soon"}]) is None


def test_files_that_cannot_be_mapped_are_read(tmp_path: Path) -> None:
    """A jobs file is decoded from its mapped pages; an empty file (which cannot be
    mapped) steps aside as the exact reader's error, and a pipe is read as it comes."""
    import os

    from fairshare_cli.io.slurm_jobs import _decoded

    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    assert fast_sprio_jobs(str(empty)) is None
    read, write = os.pipe()
    os.write(write, b'[{"id": "1", "owner": "alice", "nice": 5}]')
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        (job,) = _decoded(fh)
    assert (job.id, job.owner, job.nice) == ("1", "alice", 5)
