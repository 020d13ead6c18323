"""``fs taskqueues``' jobs file read in two halves (``io/dirac_jobs_halves.py``): the keys
are those one pass over the whole file gives, or None (read the usual way) wherever the
whole file would be refused or the halves cannot decide alone."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS
from fairshare_cli.io import dirac_jobs_halves, forked_half
from fairshare_cli.io.dirac_jobs import read_dirac_job_keys, task_queues_from_file
from fairshare_cli.io.dirac_jobs_halves import keys_in_halves
from fairshare_cli.io.dirac_jobs_window import FastPathRefused
from tests.io.test_dirac_jobs_stream import GROUPS, both, job_fields, write

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not forked_half.can_fork(), reason="no fork, or one CPU")


def _whole(path: Path) -> Any:
    """One pass's keys, or None where it refuses the file."""
    try:
        with path.open("rb") as raw:
            return read_dirac_job_keys(raw)
    except FastPathRefused:
        return None


def _bench_jobs(n: int) -> list[dict[str, Any]]:
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import make_dirac_jobs
    finally:
        sys.path.pop(0)
    jobs: list[dict[str, Any]] = make_dirac_jobs.jobs(n, 50, 1)
    return jobs


def test_the_benchmarks_queue_reads_the_same_in_halves(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(_bench_jobs(3000)))
    halves = keys_in_halves(str(path), min_bytes=0)
    assert halves is not None
    assert halves == _whole(path)
    assert sum(halves.counts) == 3000


def _spoiled(tmp_path: Path, change: Any) -> Path:
    jobs = _bench_jobs(400)
    change(jobs)
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs))
    return path


def _running_on(slot: str, *where: int) -> Any:
    def change(jobs: list[dict[str, Any]]) -> None:
        for i in where:
            jobs[i].update(status="running", slot=slot)

    return change


def _stanza_meets_an_id(jobs: list[dict[str, Any]]) -> None:
    jobs[1].update(id="77", count=2)  # stands for jobs 77.0 and 77.1
    jobs[-1].update(id="77.1")


@pytest.mark.parametrize(
    ("change", "whole_refuses"),
    [
        (lambda jobs: jobs[-1].update(id=jobs[0]["id"]), True),  # an id in both halves
        (lambda jobs: jobs[-1].update(id=jobs[-2]["id"]), True),  # twice in the second
        (lambda jobs: jobs[1].update(id=jobs[2]["id"]), True),  # twice in the first
        (_running_on("slot1@n1", 0, -1), True),  # one slot, both halves
        (lambda jobs: jobs[-1].update(request_cpus=-1), True),  # refused in the second
        (lambda jobs: jobs[-1].update(id=5), True),  # a number as id: the usual way
        (lambda jobs: jobs[-3].update(id="99999", count=3), False),  # a stanza: one id set
        (_stanza_meets_an_id, True),  # a stanza's job id written in the other half
    ],
    ids=[
        "id-both",
        "id-second",
        "id-first",
        "slot",
        "bad-second",
        "numeric-id",
        "stanza",
        "stanza-id",
    ],
)
def test_what_the_halves_cannot_take_goes_the_usual_way(
    tmp_path: Path, change: Any, whole_refuses: bool
) -> None:
    path = _spoiled(tmp_path, change)
    whole = _whole(path)
    halves = keys_in_halves(str(path), min_bytes=0)
    assert (whole is None) == whole_refuses
    assert halves == whole


def test_a_small_file_or_one_without_a_cut_is_read_in_one_pass(tmp_path: Path) -> None:
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(_bench_jobs(50)))
    assert keys_in_halves(str(path)) is None  # below MIN_BYTES
    path.write_text(json.dumps([_bench_jobs(1)[0]]))
    assert keys_in_halves(str(path), min_bytes=0) is None  # one job: no cut


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(job_fields, min_size=2, max_size=25),
    st.integers(0, 2),
    st.floats(0.0, 0.9),
)
def test_halves_give_the_whole_files_keys_or_step_aside(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    jobs: list[dict[str, Any]],
    layout: int,
    share: float,
) -> None:
    """Random queues in random layouts, cut anywhere: the halves' keys are the whole
    file's, or None; and ``fs taskqueues``' reader gives what the object path gives."""
    monkeypatch.setattr(dirac_jobs_halves, "FIRST_SHARE", share)
    objs = [{"id": f"{i % 7}.{i // 7}", **fields} for i, fields in enumerate(jobs)]
    path = tmp_path / "jobs.json"
    write(path, objs, layout)
    halves = keys_in_halves(str(path), min_bytes=0)
    if halves is not None:
        assert halves == _whole(path)
    monkeypatch.setattr(dirac_jobs_halves, "MIN_BYTES", 0)
    fast, slow = both(path)
    assert fast == slow


def test_the_reader_uses_the_halves_on_a_large_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(_bench_jobs(2000)))
    used: list[Any] = []
    real = dirac_jobs_halves.keys_in_halves

    def spy(path: str, min_bytes: int | None = None) -> Any:
        used.append(real(path, min_bytes=0))
        return used[-1]

    monkeypatch.setattr(dirac_jobs_halves, "keys_in_halves", spy)
    groups = {**GROUPS}
    in_halves = task_queues_from_file(str(path), groups, DIRAC_CPU_SEGMENTS)
    assert used and used[0] is not None
    monkeypatch.setattr(dirac_jobs_halves, "keys_in_halves", lambda *a, **k: None)
    assert task_queues_from_file(str(path), groups, DIRAC_CPU_SEGMENTS) == in_halves
