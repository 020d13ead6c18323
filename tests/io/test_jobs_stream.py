"""The chunked jobs-file reader gives the batches the whole-file reader gives, or steps aside.

``stream_job_batches`` cuts the JSON list between objects and decodes each piece with
msgspec; whatever it cannot take exactly as :func:`json.loads` does it hands back (None),
and ``load_job_batches`` then reads the file the usual way. So the invariant is: the
streamed batches, when there are any, equal :func:`batches_from_objects` of the parsed
list, and ``load_job_batches`` always equals it (or fails with the same one-line error).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairshare_cli.errors import InputError
from fairshare_cli.io import jobs_stream
from fairshare_cli.io.jobs import TakenIds, batches_from_objects, load_job_batches


def _expected(path: Path) -> object:
    try:
        return batches_from_objects(json.loads(path.read_text("utf-8")), f"jobs file {path}")
    except InputError as exc:
        return str(exc)


def _loaded(path: Path) -> object:
    try:
        return load_job_batches(str(path))
    except InputError as exc:
        return str(exc)


def _write(tmp: Path, objs: list[object], indent: int | None, separators: tuple[str, str]) -> Path:
    path = tmp / "jobs.json"
    path.write_text(json.dumps(objs, indent=indent, separators=separators), encoding="utf-8")
    return path


def test_a_queue_written_one_object_per_job_becomes_one_batch_per_cluster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cluster 1 has 300 jobs 1.0 … 1.299 alike but for the id, cluster 2 three jobs with
    job 2.1 asking more memory: 1 + 3 batches, counts 300, 1, 1, 1 (the second job of
    cluster 2 breaks the run, and 2.2 differs from 2.1 again). Pieces of 256 bytes cut
    the list into dozens of pieces."""
    monkeypatch.setattr(jobs_stream, "BLOCK", 256)
    objs: list[object] = [{"id": f"1.{p}", "owner": "alice"} for p in range(300)]
    objs += [
        {"id": "2.0", "owner": "bob", "request_memory": 10},
        {"id": "2.1", "owner": "bob", "request_memory": 20},
        {"id": "2.2", "owner": "bob", "request_memory": 10},
    ]
    path = _write(tmp_path, objs, None, (", ", ": "))
    streamed = jobs_stream.stream_job_batches(str(path), f"jobs file {path}")
    assert streamed is not None
    assert [(b.job.id, b.count) for b in streamed] == [
        ("1.0", 300),
        ("2.0", 1),
        ("2.1", 1),
        ("2.2", 1),
    ]
    assert streamed == _expected(path)


def test_a_cut_inside_a_string_steps_aside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A requirements text holding ``}, {`` can be cut there; the piece then ends inside a
    string, msgspec refuses it, and the file is read whole, giving the same batches."""
    monkeypatch.setattr(jobs_stream, "BLOCK", 64)
    objs = [
        {"id": f"1.{p}", "owner": "alice", "requirements": 'Foo == "}, {" ' * 8} for p in range(20)
    ]
    path = _write(tmp_path, objs, None, (", ", ": "))
    assert jobs_stream.stream_job_batches(str(path), "x") is None
    assert _loaded(path) == _expected(path)


_value = st.one_of(
    st.integers(-3, 3),
    st.sampled_from(["alice", "bob", "}, {", '"', "x\\y", None, 1.0, True]),
)
_job = st.fixed_dictionaries(
    {"id": st.sampled_from(["1.0", "1.1", "1.2", "2.0", "2.1", 3, "1.01"])},
    optional={
        "owner": st.sampled_from(["alice", "bob", "b b", None]),
        "count": st.sampled_from([1, 2, 3, 0, 1.0, None]),
        "request_memory": _value,
        "job_prio": _value,
        "requirements": _value,
        "attributes": st.dictionaries(st.sampled_from(["A", "B"]), _value, max_size=2),
        "bogus": _value,
    },
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    objs=st.lists(_job, max_size=12),
    block=st.sampled_from([16, 64, 1 << 22]),
    layout=st.sampled_from([(None, (", ", ": ")), (None, (",", ":")), (2, (",", ": "))]),
)
def test_same_batches_or_same_error_as_the_whole_file_reader(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    objs: list[object],
    block: int,
    layout: tuple[int | None, tuple[str, str]],
) -> None:
    """Any queue, any layout, any piece size: load_job_batches gives what the whole-file
    reader gives (batches or the error), and the streamed batches, when not None, too."""
    monkeypatch.setattr(jobs_stream, "BLOCK", block)
    path = _write(tmp_path, objs, *layout)
    expected = _expected(path)
    assert _loaded(path) == expected
    streamed = jobs_stream.stream_job_batches(str(path), f"jobs file {path}")
    if streamed is not None:
        assert streamed == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(st.sampled_from(["1", "2", "x"]), st.integers(0, 40), st.integers(1, 6)),
            st.sampled_from(["1.007", "1.2.3", "x", "2.", ".5", "1.٣"]),
        ),
        max_size=30,
    ),
    st.lists(st.text("12x.07٣", max_size=5), max_size=20),
)
def test_taken_ids_hold_what_a_set_of_ids_holds(
    adds: list[tuple[str, int, int] | str], probes: list[str]
) -> None:
    """Ranges of procs per cluster and the odd ids aside answer membership, the next
    taken proc and "any id of this cluster" as a plain set of every id added does."""
    taken = TakenIds()
    plain: set[str] = set()
    for item in adds:
        if isinstance(item, str):
            taken.add(item)
            plain.add(item)
        else:
            cluster, lo, n = item
            taken.add_range(cluster, lo, lo + n)
            plain.update(f"{cluster}.{p}" for p in range(lo, lo + n))
    for job_id in [*plain, *probes, *(f"{c}.{p}" for c in "12x" for p in range(50))]:
        assert (job_id in taken) == (job_id in plain), job_id
    for cluster in ["1", "2", "x", "", "3"]:
        assert taken.has_cluster(cluster) == any(s.split(".", 1)[0] == cluster for s in plain)
        for proc in range(50):
            later = [p for p in range(proc, 60) if f"{cluster}.{p}" in plain]
            assert taken.next_taken(cluster, proc) == (later[0] if later else math.inf)


def _run_of(n: int, **fields: object) -> list[object]:
    return [{"owner": "alice", **fields, "id": f"7.{p}"} for p in range(n)]


@pytest.mark.parametrize(
    "objs",
    [
        pytest.param(_run_of(120), id="id-last-key"),
        pytest.param(_run_of(120, owner="id"), id="id-also-a-value"),
        pytest.param(_run_of(120, requirements='Foo == "a\\\\b"'), id="escapes"),
        pytest.param([{"id": "7.60", "owner": "bob"}, *_run_of(120)], id="taken-mid-run"),
        pytest.param([*_run_of(60), {"id": "7.60", "owner": "bob"}, *_run_of(120)], id="resumed"),
        pytest.param([{"id": "7.007", "owner": "alice"}, *_run_of(20)], id="odd-first-proc"),
        pytest.param(
            [{"id": f"8.{p}", "owner": "alice", "attributes": {"id": "x"}} for p in range(9)],
            id="nested-id",
        ),
        pytest.param(
            [{"attributes": {"id": f"9.{p}"}, "id": "9.0", "owner": "a"} for p in range(3)],
            id="nested-id-first",
        ),
    ],
)
def test_runs_read_by_their_bytes_give_the_whole_file_readers_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, objs: list[object]
) -> None:
    """Jobs that extend a run are recognised by their bytes (the first job's with the next
    id in place): wherever the id key sits, and not where the bytes cannot tell (an "id"
    elsewhere, escapes), nor past an id taken before. Batches or error as the whole-file
    reader's, in pieces of 512 bytes and whole."""
    for block in (512, 1 << 22):
        monkeypatch.setattr(jobs_stream, "BLOCK", block)
        for layout in ((None, (", ", ": ")), (1, (",", ": "))):
            path = _write(tmp_path, objs, *layout)
            expected = _expected(path)
            assert _loaded(path) == expected
            streamed = jobs_stream.stream_job_batches(str(path), f"jobs file {path}")
            assert streamed is None or streamed == expected
