"""``fs import squeue`` again, of a dump that lists as finished a job the state's queue
holds running: it was kept running (and, under ``CALCULATE_RUNNING``, weighed as running
by ``fs sprio``) for ever; now it is over in the queue and named on the summary. Its
usage was already charged to its end."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES

CAPTURE = FIXTURES / "slurm-22.05" / "ft1_running"


def test_a_job_a_later_dump_lists_finished_ends_in_the_queue(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The 22.05 capture's ``scontrol show jobs`` imported (jobs 2, 3 and 4 running), then
    the same dump taken at 23:17:00 with job 4 COMPLETED at 23:16:01 (u4's use ended then,
    the capture's README), as ``fs import squeue FILE`` reads it."""
    cfg, state = tmp_path / "cluster.toml", tmp_path / "cluster.json"
    cfg.write_text('[pool]\ndefaults = "current"\n[priority]\noutput_compat = "22.05"\n')
    conf = FIXTURES / "slurm-22.05" / "config" / "slurm.conf.fairtree"
    assert run("import", "slurm-conf", str(conf), "--into", str(cfg), "--replace").exit_code == 0
    for dump in ("sacctmgr_assoc_tree.txt", "sacctmgr_qos.txt"):
        assert run("import", "sacctmgr", str(CAPTURE / dump), "--into", str(cfg)).exit_code == 0
    common = ["--config", str(cfg), "--state", str(state)]
    first = ["--last-decay", "2026-11-21T23:13:20Z", "--now", "2026-11-21T23:14:06Z"]
    jobs = str(CAPTURE / "scontrol_show_jobs.txt")
    assert run("import", "squeue", jobs, *common, *first).exit_code == 0
    text = (CAPTURE / "scontrol_show_jobs.txt").read_text(encoding="utf-8")
    start, end = text.index("JobId=4 "), text.index("JobId=5 ")
    block = text[start:end].replace("JobState=RUNNING", "JobState=COMPLETED")
    block = block.replace("EndTime=Unknown", "EndTime=2026-11-21T23:16:01")
    (tmp_path / "later.txt").write_text(text[:start] + block + text[end:], encoding="utf-8")
    later = ["--last-decay", "2026-11-21T23:16:20Z", "--now", "2026-11-21T23:17:00Z"]
    result = run("import", "squeue", str(tmp_path / "later.txt"), *common, *later)
    assert result.exit_code == 0, result.stderr
    assert "; ended 1 queued job the dump lists finished: 4;" in result.stderr
    assert "ignored" not in result.stderr
    jobs = json.loads(state.read_text(encoding="utf-8"))["jobs"]
    assert {j["id"]: j.get("status", "idle") for j in jobs if j["id"] in "234"} == {
        "2": "running",
        "3": "running",
        "4": "completed",
    }
