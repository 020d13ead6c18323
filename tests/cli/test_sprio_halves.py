"""``fs sprio``'s listing in two halves (``cli/sprio_halves.py``): the second half made by a
forked child prints the bytes one process prints, on real output files, and every queue
the halves cannot list alike (interleaved or repeated ids, a bad job, a comma in a string)
is listed the usual way, with its messages."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairshare_cli.cli import sprio_halves
from fairshare_cli.cli.main import cli
from fairshare_cli.io import forked_half
from fairshare_cli.io.json_halves import BOUNDARY
from tests.cli.conftest import bench_pool

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark's pool (``slurm_bench.make_pool``) at 300 jobs, in id order."""
    return bench_pool(tmp_path_factory.mktemp("sprio-halves"), 200, 300)


def _jobs(pool: Path) -> list[dict[str, Any]]:
    jobs: list[dict[str, Any]] = json.loads((pool / "jobs.json").read_text())
    return jobs


class Ran:
    def __init__(self, code: int, out: str, err: str, halves: bool) -> None:
        self.code, self.out, self.err, self.halves = code, out, err, halves


def _run(monkeypatch: pytest.MonkeyPatch, folder: Path, args: list[str], halves: bool) -> Ran:
    """``fs`` with stdout and stderr on real files (a child can write there), the halves
    tried at any size (``halves``) or never; ``Ran.halves``: whether they listed it."""
    listed: list[bool] = []
    tried = sprio_halves.listed_in_halves

    def spy(*a: Any, **k: Any) -> bool:
        listed.append(tried(*a, **k))
        return listed[-1]

    out_path, err_path = folder / "out.txt", folder / "err.txt"
    with out_path.open("w", encoding="utf-8") as out, err_path.open("w") as err:
        if halves and not forked_half.usable(out):
            pytest.skip("no fork here, or a single CPU")
        with monkeypatch.context() as m:
            m.setattr(sys, "stdout", out)
            m.setattr(sys, "stderr", err)
            m.setattr(sprio_halves, "MIN_BYTES", 0 if halves else 1 << 62)
            m.setattr(sprio_halves, "listed_in_halves", spy)
            try:
                cli.main(args, prog_name="fs")
            except SystemExit as exc:
                code = int(exc.code or 0)
            else:  # pragma: no cover - click exits
                code = 0
    return Ran(code, out_path.read_text(), err_path.read_text(), bool(listed and listed[0]))


def _args(pool: Path, jobs_file: Path, options: list[str]) -> list[str]:
    return ["sprio", *options, "--config", str(pool / "pool.toml"), "--state",
            str(pool / "state.json"), "--jobs-file", str(jobs_file), "--now", NOW]  # fmt: skip


def _both(
    monkeypatch: pytest.MonkeyPatch, pool: Path, tmp_path: Path, jobs: Any, options: list[str]
) -> tuple[Ran, Ran]:
    """The listing of ``jobs`` (a list, or a file's text) in halves, then the usual way."""
    path = tmp_path / "jobs.json"
    path.write_text(jobs if isinstance(jobs, str) else json.dumps(jobs))
    args = _args(pool, path, options)
    halves = _run(monkeypatch, tmp_path, args, halves=True)
    usual = _run(monkeypatch, tmp_path, args, halves=False)
    assert not usual.halves
    assert (halves.code, halves.out, halves.err) == (usual.code, usual.out, usual.err)
    return halves, usual


LISTINGS = [
    ["-l"],
    ["-l", "--json"],
    ["--json"],
    ["-l", "-n"],
    [],
    ["-l", "-h", "-v", "-S", "i"],
    ["-o", "%i|%.4Y %5A%%%c %.3a %20t %y %u %.30f %N"],
    ["--format", "no fields"],
]


@pytest.mark.parametrize("options", LISTINGS)
def test_halves_print_the_bytes_of_one_process(
    pool: Path, tmp_path: Path, options: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    halves, usual = _both(monkeypatch, pool, tmp_path, _jobs(pool), options)
    assert halves.halves
    assert usual.code == 0
    assert usual.out.count("\n") > 300


def test_halves_each_out_of_order_are_listed_the_usual_way(
    pool: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each half out of id order (though the halves do not interleave): not listed in
    halves, and printed as one process prints it."""
    jobs = _jobs(pool)
    rng = random.Random(5)
    head, tail = jobs[:150], jobs[150:]
    rng.shuffle(head)
    rng.shuffle(tail)
    halves, _ = _both(monkeypatch, pool, tmp_path, _split_at(head, tail), ["-l"])
    assert not halves.halves


def test_a_file_whose_first_ids_fall_is_not_split(
    pool: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A queue in priority order (as squeue lists it): told from the ids at the start of
    each half, before any child is forked."""
    jobs = _jobs(pool)
    jobs[0], jobs[1] = jobs[1], jobs[0]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs))
    forked: list[Any] = []
    monkeypatch.setattr(forked_half, "fork_half", lambda *a: forked.append(a))
    halves = _run(monkeypatch, tmp_path, _args(pool, path, ["-l"]), halves=True)
    assert not halves.halves
    assert forked == []
    assert halves.code == 0


def test_ids_look_in_order_reads_the_start_of_each_half(tmp_path: Path) -> None:
    from fairshare_cli.io.slurm_jobs import ids_look_in_order, split_jobs

    def looks(ids: list[str]) -> bool:
        path = tmp_path / "ids.json"
        path.write_text(json.dumps([{"id": i, "owner": "u"} for i in ids]))
        split = split_jobs(str(path))
        assert split is not None
        return ids_look_in_order(*split)

    assert looks(["1", "2", "3", "4"])
    assert not looks(["1", "2", "12_3", "10"])  # an array job's id: no table to cut
    assert not looks(["2", "1", "3", "4"])
    assert not looks(["1", "5", "3", "4"])  # the second half starts below the first's end
    assert not looks(["1", "2", "4", "3"])


def test_ids_look_in_order_wherever_the_look_ends(tmp_path: Path) -> None:
    """The 64 KiB read at each half's start may end inside an id: it is read whole."""
    from fairshare_cli.io.slurm_jobs import LOOK, ids_look_in_order, split_jobs

    text = json.dumps([{"id": str(i), "owner": "u"} for i in range(1, 12_000)])
    assert len(text) > 4 * LOOK
    path = tmp_path / "ids.json"
    for pad in range(40):
        path.write_text(" " * pad + text)
        split = split_jobs(str(path))
        assert split is not None
        assert ids_look_in_order(*split), pad


def _split_at(head: list[Any], tail: list[Any], fmt: str = "table") -> str:
    """A jobs file of ``head`` then ``tail`` whose halves are those: blanks before or after
    the list put the split (past ``FIRST_SHARE`` of the file) at the comma between them."""
    text = "[" + ", ".join(map(json.dumps, head))
    comma = len(text)
    text += ", " + ", ".join(map(json.dumps, tail)) + "]"
    share = sprio_halves.FIRST_SHARE[fmt]
    for pad in range(len(text)):
        for front in (pad, 0):
            padded = " " * front + text + " " * (pad - front)
            found = BOUNDARY.search(padded.encode(), int(len(padded) * share))
            if found is not None and found.start(1) == comma + front:
                return padded
    raise AssertionError("no padding splits the file there")


@pytest.mark.parametrize("options", [["-l"], ["-l", "--json"]])
def test_interleaved_halves_are_listed_the_usual_way(
    pool: Path, tmp_path: Path, options: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    jobs = _jobs(pool)
    random.Random(3).shuffle(jobs)
    halves, usual = _both(monkeypatch, pool, tmp_path, jobs, options)
    assert not halves.halves
    assert usual.code == 0


def _spoil(jobs: list[dict[str, Any]], where: str, field: str, value: Any) -> None:
    jobs[10 if where == "first" else -10][field] = value


@pytest.mark.parametrize("where", ["first", "second"])
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("owner", "bad name"),
        ("account", "no_such_account"),
        ("partition", "no_such_partition"),
        ("time_limit", "not a time"),
        ("id", "12x"),
        ("admin_priority", 5),
    ],
)
def test_a_job_the_halves_cannot_list_is_listed_the_usual_way(
    pool: Path,
    tmp_path: Path,
    where: str,
    field: str,
    value: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    jobs = _jobs(pool)
    _spoil(jobs, where, field, value)
    halves, _ = _both(monkeypatch, pool, tmp_path, jobs, ["-l"])
    assert not halves.halves


def test_an_id_in_both_halves_is_named_as_one_process_names_it(
    pool: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jobs = _jobs(pool)
    jobs[-1]["id"] = jobs[0]["id"]
    halves, usual = _both(monkeypatch, pool, tmp_path, jobs, ["-l"])
    assert not halves.halves
    assert usual.code == 2
    assert jobs[0]["id"] in usual.err


def test_a_split_inside_a_string_is_refused(
    pool: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name ending in ``}, {`` puts a boundary's look-alike in a string, right past the
    middle: the first half is cut inside that string, fails to decode, and the queue is
    listed (here: refused) the usual way."""
    jobs = _jobs(pool)
    text = json.dumps(jobs)
    middle = len(text) // 2
    at = text.index('"owner": "', middle) + len('"owner": "')
    text = text[:at] + "x}, {" + text[at:]
    halves, usual = _both(monkeypatch, pool, tmp_path, text, ["-l"])
    assert not halves.halves
    assert usual.code == 2


def test_pretty_printed_files_split_too(
    pool: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    halves, _ = _both(monkeypatch, pool, tmp_path, json.dumps(_jobs(pool), indent=2), ["-l"])
    assert halves.halves


@pytest.mark.parametrize("text", ["[]", '[{"id": "1", "owner": "u0_0_0"}]', "{}", "[1, 2]"])
def test_files_without_two_halves_are_listed_the_usual_way(
    pool: Path, tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    halves, _ = _both(monkeypatch, pool, tmp_path, text, ["-l"])
    assert not halves.halves


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    keep=st.lists(st.booleans(), min_size=300, max_size=300),
    gap=st.integers(min_value=1, max_value=10**12),
    json_out=st.booleans(),
    shuffle_seed=st.integers(min_value=0, max_value=3),
)
def test_halves_match_one_process_on_drawn_queues(
    pool: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    keep: list[bool],
    gap: int,
    json_out: bool,
    shuffle_seed: int,
) -> None:
    """Any subset of the queue, its later ids moved up by a gap (their length changes), a
    few jobs moved out of order (seed 0: none): the halves print what one process does."""
    jobs = [j for j, k in zip(_jobs(pool), keep, strict=True) if k]
    for job in jobs[len(jobs) // 2 :]:
        job["id"] = str(int(job["id"]) + gap)
    if shuffle_seed and len(jobs) > 4:
        rng = random.Random(shuffle_seed)
        i, j = rng.randrange(len(jobs)), rng.randrange(len(jobs))
        jobs[i], jobs[j] = jobs[j], jobs[i]
    _both(monkeypatch, pool, tmp_path, jobs, ["-l", "--json"] if json_out else ["-l"])


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pool whose jobs file is past :data:`~sprio_halves.MIN_BYTES`."""
    folder = bench_pool(tmp_path_factory.mktemp("sprio-big"), 200, 14_000)
    assert (folder / "jobs.json").stat().st_size >= sprio_halves.MIN_BYTES
    return folder


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
def test_the_program_prints_a_large_files_listing_as_from_stdin(
    big: Path, options: list[str]
) -> None:
    """End to end, through a pipe: the file (in halves where the machine has two CPUs)
    and the same jobs on stdin (never in halves) print the same bytes."""
    from fairshare_cli.io.slurm_jobs import ids_look_in_order, split_jobs

    split = split_jobs(str(big / "jobs.json"))
    assert split is not None and ids_look_in_order(*split)  # (so this runs in halves)
    args = _args(big, big / "jobs.json", options)
    whole = _fs(*args)
    with (big / "jobs.json").open("rb") as fh:
        piped = _fs(*args[:-3], "-", "--now", NOW, stdin=fh)
    assert whole.returncode == piped.returncode == 0, whole.stderr
    assert whole.stdout == piped.stdout
    assert whole.stderr == piped.stderr == b""
    assert whole.stdout.count(b"\n") > 14_000


def test_a_reader_that_goes_away_ends_it_quietly(big: Path) -> None:
    """``fs sprio -l ... | head -1``: exit 1, nothing on stderr, no process left."""
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
