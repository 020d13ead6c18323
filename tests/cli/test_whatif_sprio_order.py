"""``fs whatif --set K=V sprio`` ranks the jobs in the order sprio lists them, by job id:
the slurm.md tutorial's queue under ``priority.weights.qos=20000`` said "0 moved", though
heidi's high-QOS job then outranks ops'. The docs and ``fs whatif --help`` now say so, and
``sprio -S -Y`` ranks the jobs by priority, moving three."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

Run = Callable[..., Any]
NOW = "2026-11-21T12:00:00Z"
SET = ["whatif", "--set", "priority.weights.qos=20000", "sprio"]


def _tutorial_queue(tmp_path: Path, run: Run) -> list[str]:
    """docs/slurm.md's queue: jobs 1 (admin priority 100000), 2.0 (batch, express) and 3."""
    state = tmp_path / "slurm-state.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    files = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    for words, now in (
        ("--owner alice --account hep --cpus 8", "2026-11-21T09:00:00Z"),
        (
            "--owner heidi --account chemistry --partition batch,express --qos high --count 2",
            "2026-11-21T10:30:00Z",
        ),
        ("--owner ops --nodes 4 --cpus 32 --set nice=100", "2026-11-21T11:45:00Z"),
    ):
        assert run("submit", *words.split(), *files, "--now", now).exit_code == 0
    assert run("prio", "1", "100000", "--slurm", *files, "--now", NOW).exit_code == 0
    assert run("rm", "2.1", *files, "--now", NOW).exit_code == 0
    return [*files, "--now", NOW]


def test_whatif_sprio_ranks_by_job_id_and_by_priority_with_S_Y(tmp_path: Path, run: Run) -> None:
    files = _tutorial_queue(tmp_path, run)
    state = Path(files[3]).read_bytes()
    by_id = run(*SET, *files)
    assert by_id.exit_code == 0, by_id.stderr
    assert (
        by_id.stdout.splitlines()[-1] == "2 rows changed, 0 moved, 0 appeared, 0 left (2 changes)"
    )
    by_priority = run(*SET, "-S", "-Y", *files)
    assert by_priority.exit_code == 0, by_priority.stderr
    assert [line.rstrip() for line in by_priority.stdout.splitlines()] == [
        "fs sprio with priority.weights.qos=20000: before -> after",
        "sprio       ┃        rank ┃      priority",
        "━━━━━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━━━━━━━",
        "1/batch     │           1 │        100000",
        "2.0/express │ 3 -> 2 (+1) │ 8685 -> 27685",
        "2.0/batch   │ 4 -> 3 (+1) │ 7935 -> 26935",
        "3/batch     │ 2 -> 4 (-2) │         10221",
        "2 rows changed, 3 moved, 0 appeared, 0 left (5 changes)",
    ]
    assert Path(files[3]).read_bytes() == state


def test_whatif_help_says_sprio_ranks_by_job_id(run: Run) -> None:
    text = " ".join(run("whatif", "--help").stdout.split())
    assert (
        "its rank change (+3, -1) in the view's order (sprio's by job id: -S -Y ranks the jobs"
        " by priority)" in text
    )
