"""``fs import squeue`` of a dump taken after ``--now`` (a FAIRSHARE_NOW left set from the
README's sample session): refused, as ``fs import condor-q`` refuses one, naming the job,
its time and where ``--now`` came from; nothing written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

RUN = REPO / "tests" / "fixtures" / "slurm-26.05-local" / "ft1_running"
CONFIG = REPO / "sample_configs" / "pool.toml"


@pytest.mark.parametrize(
    ("dump", "where", "local"),
    [
        pytest.param("scontrol_show_jobs.txt", "scontrol_show_jobs.txt:2", True, id="scontrol"),
        pytest.param("squeue_json.txt", "squeue_json.txt: jobs[0]", False, id="json"),
    ],
)
def test_a_dump_after_now_is_refused(
    tmp_path: Path, run: Callable[..., Any], dump: str, where: str, local: bool
) -> None:
    """FAIRSHARE_NOW=2026-11-21T12:00:00Z fs import squeue scontrol_show_jobs.txt (jobs of
    2026-12-02): 17 jobs were imported, and fs sprio listed none of them (each submitted
    after --now), without a word."""
    state = tmp_path / "s.json"
    env = {"FAIRSHARE_NOW": "2026-11-21T12:00:00Z"}
    result = run("import", "squeue", str(RUN / dump), "--config", str(CONFIG), "--state",
                 str(state), env=env)  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    why = (
        " (or of a host east of UTC: scontrol prints local times, which fs reads as UTC; "
        "capture it with TZ=UTC scontrol show jobs)"
        if local
        else ""
    )
    assert result.stderr == (
        f"fs: error: {RUN / where}: job 1's start time 2026-12-02T13:15:29Z is after "
        f"FAIRSHARE_NOW 2026-11-21T12:00:00Z: the dump is of a later time{why}; give --now "
        "2026-12-02T13:15:29Z or a later time\n"
    )
    assert not state.exists()
