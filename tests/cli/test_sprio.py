"""``fs sprio`` (``cli/sprio.py``): the state's queue lists as the same jobs in a file, a
jobs file as the same jobs on stdin, whole through a pipe or into a file, and a reader
that goes away ends it with exit 1 and nothing on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import bench_pool

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark's pool (``slurm_bench.make_pool``) at 300 jobs, in id order."""
    return bench_pool(tmp_path_factory.mktemp("sprio"), 200, 300)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark's pool at 4,000 jobs: a listing longer than a pipe holds."""
    return bench_pool(tmp_path_factory.mktemp("sprio-big"), 200, 4_000)


def _args(pool: Path, jobs_file: Path | str, options: list[str]) -> list[str]:
    return ["sprio", *options, "--config", str(pool / "pool.toml"), "--state",
            str(pool / "state.json"), "--jobs-file", str(jobs_file), "--now", NOW]  # fmt: skip


def _submitted(pool: Path, tmp_path: Path, run: Any) -> tuple[Path, Path]:
    """A copy of the pool's state with its jobs submitted, and that queue as a file."""
    state = tmp_path / "state.json"
    state.write_bytes((pool / "state.json").read_bytes())
    jobs = json.loads((pool / "jobs.json").read_text())
    for job in jobs:  # fs submit takes Slurm's site factors only
        job.pop("site_factor", None)
    queue = tmp_path / "queue.json"
    queue.write_text(json.dumps(jobs))
    done = run("submit", "--file", str(queue), "--config", str(pool / "pool.toml"),
               "--state", str(state), "--now", NOW)  # fmt: skip
    assert done.exit_code == 0, done.stderr
    return state, queue


@pytest.mark.parametrize("options", [["-l"], ["-l", "--json"], ["-l", "-S", "-Y"]])
def test_the_states_queue_lists_as_the_same_jobs_in_a_file(
    pool: Path, tmp_path: Path, run: Any, options: list[str]
) -> None:
    state, queue = _submitted(pool, tmp_path, run)
    common = ["--config", str(pool / "pool.toml"), "--state", str(state), "--now", NOW]
    from_state = run("sprio", *options, *common)
    from_file = run("sprio", *options, *common, "--jobs-file", str(queue))
    assert from_state.exit_code == from_file.exit_code == 0, from_state.stderr
    assert from_state.stdout == from_file.stdout
    assert from_state.stdout.count("\n") > 300


def test_an_id_given_twice_is_named(pool: Path, tmp_path: Path, run: Any) -> None:
    jobs = json.loads((pool / "jobs.json").read_text())
    jobs[-1]["id"] = jobs[0]["id"]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs))
    done = run(*_args(pool, path, ["-l"]))
    assert done.exit_code == 2
    assert jobs[0]["id"] in done.stderr
    assert done.stdout == ""


def _fs(*args: str, stdin: Any = None, stdout: Any = subprocess.PIPE) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "fairshare_cli", *args],
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        check=False,
        cwd=REPO,
    )


@pytest.mark.parametrize("options", [["-l"], ["-l", "--json"]])
def test_the_program_prints_a_files_listing_as_from_stdin(big: Path, options: list[str]) -> None:
    """End to end, through a pipe: the file and the same jobs on stdin print the same
    bytes, and nothing on stderr."""
    args = _args(big, big / "jobs.json", options)
    whole = _fs(*args)
    with (big / "jobs.json").open("rb") as fh:
        piped = _fs(*_args(big, "-", options), stdin=fh)
    assert whole.returncode == piped.returncode == 0, whole.stderr
    assert whole.stdout == piped.stdout
    assert whole.stderr == piped.stderr == b""
    assert whole.stdout.count(b"\n") > 4_000


def test_a_reader_that_goes_away_ends_it_quietly(big: Path) -> None:
    """``fs sprio -l ... | head -1``: exit 1, nothing on stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "fairshare_cli", *_args(big, big / "jobs.json", ["-l"])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1
    assert err == b""


def test_output_to_a_file_is_the_whole_listing(big: Path, tmp_path: Path) -> None:
    args = _args(big, big / "jobs.json", ["-l"])
    target = tmp_path / "listing.txt"
    with target.open("wb") as fh:
        done = _fs(*args, stdout=fh)
    assert done.returncode == 0, done.stderr
    assert target.read_bytes() == _fs(*args).stdout
