"""``fs taskqueues`` reading a jobs file through the jobs reader gives what the object
path gives.

``task_queues_from_file`` (the jobs reader's pieces, a key-counting sink) must return
exactly the task queues of ``task_queues_from_objects`` over the parsed file, and raise
exactly its errors, for any file: property-tested over random queues written in random
JSON layouts in tiny pieces (so objects straddle the blocks read), plus the inputs the
fast path hands back.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS, DiracGroupSpec
from fairshare_cli.core.dirac.jobs import task_queues_from_objects
from fairshare_cli.core.jobs import parse_jobs
from fairshare_cli.errors import InputError
from fairshare_cli.io import dirac_jobs
from fairshare_cli.io import jobs as jobs_io
from fairshare_cli.io.dirac_jobs import task_queues_from_file

GROUPS = {
    "user": DiracGroupSpec("user", 1000),
    "prod": DiracGroupSpec("prod", 4000, job_sharing=True),
}

names = st.sampled_from(["A", "B", "C", "LCG.CERN.cern", "x}y", 'q"{'])
requirements = st.fixed_dictionaries(
    {},
    optional={
        "cpu_time": st.one_of(st.integers(0, 400000), st.floats(0, 400000)),
        "sites": st.one_of(names, st.lists(names, max_size=3)),
        "banned_sites": st.lists(names, max_size=2),
        "grid_ces": st.lists(names, max_size=2),
        "platform": names,
        "tags": st.lists(names, max_size=2),
        "min_ram": st.integers(0, 3),
        "max_ram": st.sampled_from([0, 5]),
    },
)
job_fields = st.fixed_dictionaries(
    {
        "owner": st.sampled_from(["alice", "Alice", "bob", "carol"]),
        "dirac_group": st.sampled_from(["user", "prod", "other"]),
    },
    optional={
        "status": st.sampled_from(["idle", "running", None]),
        "user_priority": st.one_of(st.integers(-3, 12), st.floats(-2, 11), st.none()),
        "dirac_requirements": st.one_of(st.none(), requirements),
        "submit_time": st.just("2026-11-21T12:00:00Z"),
        "count": st.integers(1, 3),
        "attributes": st.just({"nested": {"id": "x"}}),
    },
)


def write(path: Path, objs: Any, layout: int) -> None:
    if layout == 0:
        text = json.dumps(objs)
    elif layout == 1:
        text = json.dumps(objs, indent=2)
    else:
        text = "\n" + json.dumps(objs, separators=(",", ":")) + "\n\n"
    path.write_text(text, encoding="utf-8")


def door(objs: Any, source: str) -> Any:
    """The queues of the jobs as every command reads a jobs file: each job parsed first."""
    parse_jobs(objs, source)
    return task_queues_from_objects(objs, source, GROUPS, DIRAC_CPU_SEGMENTS)


def tiny_pieces(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """Read every file in pieces of about ``size`` bytes."""
    monkeypatch.setattr(jobs_io, "PIECE", size)


class ReadWhole(Exception):
    """The fast path handed the file on."""


def fast_only(path: Path) -> Any:
    """The task queues of the file as the fast path alone gives them.

    Raises:
        ReadWhole: it handed the file to the exact reader or the object path.
    """

    def refuse(*args: Any) -> Any:
        raise ReadWhole

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jobs_io, "load_job_objects", refuse)
        patch.setattr(dirac_jobs, "load_job_objects", refuse)
        return task_queues_from_file(str(path), GROUPS, DIRAC_CPU_SEGMENTS)


def both(path: Path) -> tuple[Any, Any]:
    """(fast result or error text, object-path result or error text)."""
    out = []
    for reader in (
        lambda: task_queues_from_file(str(path), GROUPS, DIRAC_CPU_SEGMENTS),
        lambda: door(json.loads(path.read_text(encoding="utf-8")), str(path)),
    ):
        try:
            out.append(reader())
        except InputError as exc:
            out.append(str(exc))
    return out[0], out[1]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(job_fields, max_size=25), st.integers(0, 2), st.integers(8, 200))
def test_streamed_equals_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: list[dict[str, Any]], layout: int,
    chunk: int,
) -> None:  # fmt: skip
    tiny_pieces(monkeypatch, chunk)
    # Ids of few clusters, so that count stanzas (C.0 ... C.(N-1)) sometimes collide.
    objs = [{"id": f"{i % 7}.{i // 7}", **fields} for i, fields in enumerate(jobs)]
    path = tmp_path / "jobs.json"
    write(path, objs, layout)
    fast, slow = both(path)
    assert fast == slow
    if not isinstance(slow, str):  # valid input: the fast path decided alone
        assert fast_only(path) == slow


def test_a_full_queue_is_replayed_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over 5000 jobs of one definition need a sibling queue: the reader streams again."""
    tiny_pieces(monkeypatch, 4096)
    objs = [
        {"id": f"{i}.0", "owner": "alice" if i % 3 else "Alice", "dirac_group": "user",
         "user_priority": i % 4}
        for i in range(5003)
    ]  # fmt: skip
    path = tmp_path / "jobs.json"
    write(path, objs, 0)
    fast, slow = both(path)
    assert [q.jobs for q in fast] == [5000, 3]
    assert fast == slow == fast_only(path)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('[{"id": "1.0", "owner": "a", "dirac_group": "user"},]', id="trailing-comma"),
        pytest.param('[, {"id": "1.0", "owner": "a"}]', id="leading-comma"),
        pytest.param('[{"id": "1.0", "owner": "a"}', id="truncated"),
        pytest.param('[{"id": "1.0", "owner": "a"}] x', id="after-list"),
        pytest.param('{"id": "1.0"}', id="not-a-list"),
        pytest.param('[{"id": "1.0", "owner": "a"} {"id": "2.0", "owner": "a"}]', id="no-comma"),
        pytest.param('[{"id": "1.0", "owner": "a", "colour": 1}]', id="unknown-field"),
        pytest.param('[{"id": "1.0", "owner": "a"}, {"id": "1.0", "owner": "b"}]', id="duplicate"),
        pytest.param('[{"id": "1.0", "owner": "a", "dirac_group": "user", "count": 2},'
                     ' {"id": "1.1", "owner": "a"}]', id="count-collides"),
        pytest.param('[{"id": 7, "owner": "a", "dirac_group": "user"}]', id="numeric-id"),
        pytest.param('[{"id": "1.0", "owner": "a", "dirac_group": "user", "user_priority": true}]',
                     id="bool-priority"),
        pytest.param('[{"id": "1.0", "owner": "a", "dirac_group": "user", "count": null}]',
                     id="null-count"),
        pytest.param('[{"id": "1.0", "owner": null}]', id="null-owner"),
        pytest.param('[{"id": "1.0", "owner": "a", "dirac_group": "user",'
                     ' "dirac_requirements": {"sites": [["A"]]}}]', id="nested-list"),
        pytest.param('[{"id": "1.0", "owner": "a", "dirac_group": "user",'
                     ' "dirac_requirements": {"min_ram": 9, "max_ram": 2}}]', id="ram"),
        pytest.param('[{"id": "1.0", "owner": "a", "dirac_group": "user", "status": "gone"}]',
                     id="status"),
        pytest.param("[]", id="empty"),
        pytest.param(" [ ] ", id="empty-spaced"),
    ],
)  # fmt: skip
def test_what_the_fast_reader_hands_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    tiny_pieces(monkeypatch, 16)
    path = tmp_path / "jobs.json"
    path.write_text(text, encoding="utf-8")
    fast: Any
    slow_text: Any
    try:
        fast = task_queues_from_file(str(path), GROUPS, DIRAC_CPU_SEGMENTS)
    except InputError as exc:
        fast = str(exc)
    from fairshare_cli.io.jobs import load_job_objects

    try:
        slow_text = door(load_job_objects(str(path)), str(path))
    except InputError as exc:
        slow_text = str(exc)
    assert fast == slow_text


def test_count_stanzas_of_other_jobs_collide_too(tmp_path: Path) -> None:
    """A non-DIRAC job's ``count`` stanza names C.0 ... C.(N-1) as every command reads it."""
    path = tmp_path / "jobs.json"
    write(path, [{"id": "5.0", "owner": "a", "count": 2}, {"id": "5.1", "owner": "b"}], 0)
    fast, slow = both(path)
    assert (
        fast
        == slow
        == f"{path}: job 5.1 is given twice (job objects 1 and 2, counting from 1); give each job its own id"
    )


def test_an_object_over_many_blocks_is_one_piece(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tiny_pieces(monkeypatch, 16)
    path = tmp_path / "jobs.json"
    big = {"id": "1.0", "owner": "a", "dirac_group": "user", "attributes": {"x": ["y"] * 50}}
    write(path, [big, {"id": "2.0", "owner": "b", "dirac_group": "user"}], 0)
    fast, slow = both(path)
    assert fast == slow == fast_only(path)
    assert [q.definition.owner for q in fast] == ["a", "b"]


def test_stdin_and_binary_junk(tmp_path: Path, run: Any, write_config: Any) -> None:
    cfg = write_config("[dirac.groups.user]\n")
    jobs = json.dumps([{"id": "1.0", "owner": "a", "dirac_group": "user"}])
    args = ["taskqueues", "--config", str(cfg), "--now", "2026-11-21T12:00:00Z", "--json"]
    result = run(*args, "--jobs-file", "-", input=jobs)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)[0]["priority"] == 1000.0
    junk = tmp_path / "junk.json"
    junk.write_bytes(b'[{"id": "1.0", "owner": "\xff"}]')
    result = run(*args, "--jobs-file", str(junk))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"fs: error: {junk}: not UTF-8 text")


@pytest.mark.parametrize("extra", [{"request_cpus": 4}, {"request_cpus": -1}, {"slot": "s 1"}])
def test_a_field_beyond_the_dirac_record_later_in_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: dict[str, Any]
) -> None:
    """Jobs of the usual DIRAC fields first (the record of those), then one with another
    field: from that piece on every field's record decodes, checking that field as the
    parser would."""
    tiny_pieces(monkeypatch, 256)
    objs: list[dict[str, Any]] = [
        {"id": f"{i}.0", "owner": "alice", "dirac_group": "user", "user_priority": i % 3}
        for i in range(40)
    ]
    objs[30].update(extra)
    path = tmp_path / "jobs.json"
    write(path, objs, 0)
    fast, slow = both(path)
    assert fast == slow
    if extra.get("request_cpus") == 4:  # valid: the fast path decided alone
        assert [q.jobs for q in fast] == [40]
        assert fast_only(path) == fast
    else:
        assert isinstance(slow, str)
