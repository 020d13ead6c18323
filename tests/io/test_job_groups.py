"""The jobs file as ``fs negotiate`` reads it (``io/job_groups.py``): the jobs the batches
stand for are the exact parser's (or its refusal), in groups of one cluster whose jobs
are equal but for their ids, whatever the fields and however many pieces."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from msgspec import structs
from test_jobs import _exact, _typed, docs

from fairshare_cli.core.batches import IdBatch, JobBatch
from fairshare_cli.core.jobs import Job, expand, parse_jobs
from fairshare_cli.errors import InputError
from fairshare_cli.io import jobs as reader
from fairshare_cli.io.job_groups import load_job_groups


def _jobs(batches: list[JobBatch]) -> list[Job]:
    """One job per id of each batch, by id (a count object's as ``expand`` names them)."""
    out: list[Job] = []
    for b in batches:
        if isinstance(b, IdBatch):
            out += [structs.replace(b.job, id=i) for i in b.ids]
        else:
            out += expand(structs.replace(b.job, count=b.count))
    return sorted(out, key=lambda j: j.id)


@settings(max_examples=400, deadline=None)
@given(docs)
def test_the_groups_hold_the_exact_parsers_jobs(tmp_path_factory: Any, doc: Any) -> None:
    path: Path = tmp_path_factory.mktemp("g") / "jobs.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    try:
        got: list[JobBatch] | str = load_job_groups(str(path))
    except InputError as exc:
        got = str(exc)
    want = _exact(doc, str(path)) if isinstance(doc, list) else None
    if isinstance(want, list) and isinstance(got, list):
        assert _typed(_jobs(got)) == _typed(sorted(want, key=lambda j: j.id))
        for b in got:  # one cluster each, every job the same but its id
            if isinstance(b, IdBatch):
                assert b.count == len(b.ids) and b.job.id == b.ids[0]
                assert len({i.partition(".")[0] for i in b.ids}) == 1
    elif want is not None:
        assert got == want


def test_jobs_of_one_cluster_and_one_memory_are_one_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cluster 1 alternates two memory sizes over 40 jobs read in many pieces: two
    batches of 20 ids each, in file order; cluster 2's jobs, equal to cluster 1's, are
    batches of their own, each after cluster 1's batch of its equals; a count object is a batch of its count; a job with a field
    beyond the usual ones (``nice``) and ``attributes`` still groups with its equals, but
    for attributes holding a list."""
    monkeypatch.setattr(reader, "PIECE", 256)
    objs: list[dict[str, Any]] = [
        {"id": f"{c}.{p}", "owner": "u", "request_memory": 1024 * (1 + p % 2)}
        for c in (1, 2)
        for p in range(40)
    ]
    objs.append({"id": "7.0", "owner": "v", "count": 5, "submit_time": "2026-11-21T12:00:00Z"})
    objs += [{"id": f"8.{p}", "owner": "w", "nice": 3, "attributes": {"A": 1}} for p in (3, 1)]
    objs += [{"id": f"9.{p}", "owner": "w", "attributes": {"A": [1]}} for p in (0, 1)]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(objs), encoding="utf-8")
    batches = load_job_groups(str(path))
    ids = [getattr(b, "ids", None) for b in batches]
    assert ids[:4] == [  # a group in the place of its first job, a batch per cluster
        [f"1.{p}" for p in range(0, 40, 2)],
        [f"2.{p}" for p in range(0, 40, 2)],
        [f"1.{p}" for p in range(1, 40, 2)],
        [f"2.{p}" for p in range(1, 40, 2)],
    ]
    count = batches[4]
    assert type(count) is JobBatch and (count.job.id, count.count) == ("7.0", 5)
    assert count.job.submit_time == 1795262400.0  # 2026-11-21T12:00:00Z in epoch seconds
    assert ids[5:] == [["8.3", "8.1"], ["9.0"], ["9.1"]]  # (a list has no hash: alone)
    assert batches[5].job.attributes == {"A": 1} and batches[5].job.nice == 3


def test_equal_jobs_of_clusters_sharing_first_digits_are_a_batch_per_cluster(
    tmp_path: Path,
) -> None:
    """Equal jobs 1.0, 12.0, 1.1, 10.3 and 1.2 (clusters 1, 12 and 10 start alike; the
    least id, 1.0, and the greatest, 12.0, are of different clusters): a batch per cluster,
    in the order of its first job, its ids in file order: [1.0 1.1 1.2] [12.0] [10.3]."""
    ids = ["1.0", "12.0", "1.1", "10.3", "1.2"]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps([{"id": i, "owner": "u"} for i in ids]), encoding="utf-8")
    batches = load_job_groups(str(path))
    assert [getattr(b, "ids", None) for b in batches] == [["1.0", "1.1", "1.2"], ["12.0"], ["10.3"]]
    assert [b.job.id for b in batches] == ["1.0", "12.0", "10.3"]


@pytest.mark.parametrize(
    ("late", "word"),
    [
        ({"id": "3.1 x"}, "a bad id"),
        ({"id": "2.0"}, "a duplicate id"),
        ({"owner": "b d"}, "a bad owner first seen late"),
        ({"status": "sleeping"}, "an unknown status"),
        ({"submit_time": "yesterday"}, "a time the parser refuses"),
    ],
)
def test_a_bad_job_after_many_equal_ones_is_refused_as_the_exact_parser_words_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, late: dict[str, Any], word: str
) -> None:
    """The reader checks the values first seen in a piece, and every id: a job whose
    values (but one) the pieces before already held, read in a late piece, is still
    refused, in the exact parser's words."""
    monkeypatch.setattr(reader, "PIECE", 256)
    objs: list[dict[str, Any]] = [
        {"id": f"{c}.{p}", "owner": "u", "request_memory": 1024, "submit_time": 100}
        for c in (1, 2)
        for p in range(30)
    ]
    objs.append({**objs[0], "id": "3.0", **late})
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(objs), encoding="utf-8")
    pieces = list(reader._pieces(str(path)))
    assert len(pieces) > 3 and pieces[-1].count(b'"id"') == 1  # the late job alone
    want = _exact(objs, str(path))
    assert isinstance(want, str), word
    with pytest.raises(InputError) as caught:
        load_job_groups(str(path))
    assert str(caught.value) == want


def test_a_job_that_gives_its_attributes_and_one_that_does_not_stay_apart(
    tmp_path: Path,
) -> None:
    """``attributes: {}`` given and left out are equal values of two types (the exact
    parser keeps the given dict, and a job that gives none has the shared read-only
    default): each job keeps its own, as the exact parser reads it."""
    doc = [{"id": "1", "owner": "alice", "attributes": {}}, {"id": "2", "owner": "alice"}]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    got = _jobs(load_job_groups(str(path)))
    assert _typed(got) == _typed(sorted(parse_jobs(doc, "x"), key=lambda j: j.id))
    assert [type(j.attributes).__name__ for j in got] == ["dict", "mappingproxy"]


def test_jobs_equal_as_numbers_but_of_other_types_are_batches_apart(tmp_path: Path) -> None:
    """Jobs the exact parser keeps apart though their values compare equal (a
    ``user_priority`` of 1 and of 1.0; attributes of 1 and of true; -0.0 and 0.0) are
    batches of their own, each holding its own values: one batch gave them the first's."""
    objs: list[dict[str, Any]] = [
        {"id": "1.0", "owner": "u"},
        {"id": "1.1", "owner": "u", "user_priority": 1.0},
        {"id": "2.0", "owner": "u", "attributes": {"A": 1}},
        {"id": "2.1", "owner": "u", "attributes": {"A": True}},
        {"id": "3.0", "owner": "u", "attributes": {"A": 0.0}},
        {"id": "3.1", "owner": "u", "attributes": {"A": -0.0}},
    ]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(objs), encoding="utf-8")
    got = _typed(_jobs(load_job_groups(str(path))))
    assert got == _typed(sorted(parse_jobs(objs, "jobs"), key=lambda j: j.id))
    assert [repr(j.user_priority) for j in _jobs(load_job_groups(str(path)))[:2]] == ["1", "1.0"]
