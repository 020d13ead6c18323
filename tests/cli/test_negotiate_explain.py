"""``fs negotiate --dry-run --explain JOBID`` (core/htcondor/negotiator/explain.py): the
story of one job ends where the job does, at its match."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"


def test_a_matched_jobs_story_ends_at_its_match(
    run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs negotiate --dry-run --config sample_configs/pool.toml --jobs-file
    sample_configs/jobs.json --now 2026-11-21T12:00:00Z --explain 101.0`` went on after
    ``matched to slot3@exec010`` with alice's later turns (``spin 5: ... limit 34.00``,
    the group's second round, ``spin 14`` then), as if the matched job had been offered again;
    ``condor_q -better-analyze`` tells one job's fate. Now the story ends at the match,
    and a job left idle still gets every turn it was passed over in."""
    monkeypatch.chdir(REPO)
    args = [
        *("negotiate", "--dry-run", "--config", "sample_configs/pool.toml"),
        *("--jobs-file", "sample_configs/jobs.json", "--now", NOW),
    ]
    story = run(*args, "--explain", "101.0")
    assert story.exit_code == 0, story.stderr
    assert story.stdout.splitlines() == [
        "Job 101.0:",
        "  submitter group_physics.hep.alice@example.org in group group_physics.hep, "
        "effective priority 2.00",
        "  group group_physics.hep negotiates with a limit of 120 slot(s) (quota 120.00)",
        "  spin 4: share 0.7185, limit 86.22 (unclaimed 86.22), pie left 112.00",
        "  spin 4: 400 unclaimed slot(s) match its Requirements; matched to slot3@exec010 "
        "(no_preemption)",
    ]
    idle = run(*args, "--explain", "101.100").stdout.splitlines()
    assert [line for line in idle if line.startswith("  spin ")][-1].startswith("  spin 12:")
    assert idle[-1].startswith("  left idle: ")


@pytest.mark.parametrize("job", ["", " "])
@pytest.mark.parametrize("dry_run", [["--dry-run"], []], ids=["dry-run", "commit"])
def test_an_empty_job_id_is_refused_as_empty(
    run: Callable[..., Any], tmp_path: Path, job: str, dry_run: list[str]
) -> None:
    """``fs negotiate --explain "$UNSET"`` said "--explain : no idle job with that id in
    state file ...", as if a job had no id; it is refused as an empty id now, before the
    state is read, which a commit leaves as it was."""
    pool = write_pool(tmp_path)
    before = (pool["config"].read_bytes(), pool["state"].read_bytes())
    result = run("negotiate", *dry_run, "--explain", job, *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: Invalid value for '--explain': an empty job id; give an idle job's id "
        "(5.0), or leave --explain out (see 'cli negotiate --help')\n"
    )
    assert (pool["config"].read_bytes(), pool["state"].read_bytes()) == before
