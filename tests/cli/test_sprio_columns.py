"""``fs sprio`` prints the same bytes whether its rows go the column path
(``compute_table``) or the row path (``compute_rows``), on the benchmark's own kind of
queue (a shuffled copy too), for every listing the column path takes and some it leaves."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.slurm import priority_table
from tests.cli.conftest import bench_pool

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark's pool (``slurm_bench.make_pool``) at 300 jobs, and a shuffled queue."""
    folder = bench_pool(tmp_path_factory.mktemp("sprio-pool"), 200, 300)
    jobs = json.loads((folder / "jobs.json").read_text())
    random.Random(3).shuffle(jobs)
    jobs[5]["site_factor"] = 12345678901
    (folder / "shuffled.json").write_text(json.dumps(jobs))
    return folder


LISTINGS = [
    (["-l"], True),
    (["-l", "--json"], True),
    (["--json"], True),
    (["-l", "-n"], True),
    ([], True),
    (["-l", "-h", "-v", "-S", "i"], True),
    (["-o", "%i|%.4Y %5A%%%c %.3a %20t %y %u %.30f %N"], True),
    (["-l", "-S", "-Y"], False),
    (["-l", "-u", "u0_0_1,u1_2_3"], False),
    (["-l", "-p", "express"], False),
    (["--format", "no fields"], True),
    (["--output", "csv"], False),
    (["--output", "ndjson", "-l"], False),
]


@pytest.mark.parametrize("jobs_file", ["jobs.json", "shuffled.json"])
@pytest.mark.parametrize(("options", "columns"), LISTINGS)
def test_column_path_prints_the_row_paths_bytes(
    pool: Path,
    jobs_file: str,
    options: list[str],
    columns: bool,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = ["sprio", *options, "--config", str(pool / "pool.toml"), "--state",
            str(pool / "state.json"), "--jobs-file", str(pool / jobs_file), "--now", NOW]  # fmt: skip
    made: list[object] = []
    compute_table = priority_table.compute_table

    def spy(*a: Any, **k: Any) -> Any:
        made.append(compute_table(*a, **k))
        return made[-1]

    monkeypatch.setattr(priority_table, "compute_table", spy)
    fast = run(*args)
    assert fast.exit_code == 0, fast.stderr
    assert (bool(made) and made[0] is not None) == columns
    monkeypatch.setattr(priority_table, "compute_table", lambda *a, **k: None)
    slow = run(*args)
    assert slow.exit_code == 0, slow.stderr
    assert fast.stdout == slow.stdout
    assert fast.stderr == slow.stderr
    assert fast.stdout.count("\n") > (300 if columns else 1)


def test_listing_pieces_are_written_as_click_echo_writes_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """ASCII pieces without an escape go straight to stdout; any other piece through
    ``click.echo`` (which strips ANSI codes off a terminal), in the order given."""
    from fairshare_cli.cli.sprio import write_lines

    write_lines(["a\n", "\x1b[1mb\x1b[0m\n", "c\n", "é\n", "d"], sys.stdout)
    assert capsys.readouterr().out == "a\nb\nc\né\nd"


@pytest.mark.parametrize("options", [["-l"], ["-l", "--json"], ["-l", "-S", "-Y"]])
def test_the_states_queue_prints_as_the_same_jobs_file(
    pool: Path, tmp_path: Path, options: list[str], run: Callable[..., Any]
) -> None:
    """The queue ``fs submit`` stores (read by the typed queue reader) prints the bytes the
    same jobs print from ``--jobs-file``."""
    state = tmp_path / "state.json"
    state.write_bytes((pool / "state.json").read_bytes())
    jobs = json.loads((pool / "shuffled.json").read_text())
    for job in jobs:  # fs submit takes Slurm's site factors only (+/- 2147483645)
        job.pop("site_factor", None)
    queue = tmp_path / "queue.json"
    queue.write_text(json.dumps(jobs))
    common = ["--config", str(pool / "pool.toml"), "--state", str(state), "--now", NOW]
    submitted = run("submit", "--file", str(queue), *common)
    assert submitted.exit_code == 0, submitted.stderr
    from_state = run("sprio", *options, *common)
    from_file = run("sprio", *options, *common, "--jobs-file", str(queue))
    assert from_state.exit_code == from_file.exit_code == 0, from_state.stderr
    assert from_state.stdout == from_file.stdout
    assert from_state.stdout.count("\n") > 2
