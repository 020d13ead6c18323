"""``fs import condor-q`` again, of a queue that now lists as completed or removed jobs the
state's queue holds running: they were kept as they were (running, for ever, since no
later dump names them otherwise); now they are over in the queue (``completed``, or
``removed`` for ``JobStatus`` 3) and named on the summary, and their claims end at the
next cycle, as ``CheckMatches`` ends one whose job stopped."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES


def test_jobs_a_later_dump_lists_over_end_in_the_queue(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The HTCondor 25.0 capture's queue imported, then the same queue with its first
    three running jobs over (1.4 and 2.6 completed, JobStatus 4; 2.8 removed, 3)."""
    pool, at = FIXTURES / "htcondor-25.0" / "flat_users", "2026-11-23T18:25:33Z"
    cfg, state = tmp_path / "htc.toml", tmp_path / "htc.json"
    common = ["--config", str(cfg), "--state", str(state), "--now", at]
    dump = str(pool / "condor_config_val.dump.txt")
    assert run("import", "condor-config", dump, "--into", str(cfg)).exit_code == 0
    dump = str(pool / "condor_status.json")
    assert run("import", "condor-status", dump, "--into", str(cfg), *common[2:]).exit_code == 0
    assert run("import", "condor-q", str(pool / "condor_q.json"), *common).exit_code == 0
    ads = json.loads((pool / "condor_q.json").read_text(encoding="utf-8"))
    for ad, status in zip([ad for ad in ads if ad["JobStatus"] == 2][:3], (4, 4, 3), strict=True):
        ad.update(JobStatus=status, CompletionDate=ad["JobCurrentStartDate"] + 30)
    (tmp_path / "q.json").write_text(json.dumps(ads, indent=1), encoding="utf-8")
    result = run("import", "condor-q", str(tmp_path / "q.json"), *common)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == (
        f"Imported 50 jobs from {tmp_path / 'q.json'} (38 idle, 12 running, 0 held) into "
        f"{state}; 0 new claim(s); ended 3 queued jobs the dump lists removed/completed: "
        "1.4, 2.6, 2.8\n"
    )
    jobs = {j["id"]: j.get("status", "idle") for j in json.loads(state.read_text())["jobs"]}
    assert (jobs["1.4"], jobs["2.6"], jobs["2.8"]) == ("completed", "completed", "removed")
    assert len(jobs) == 53
    again = run("import", "condor-q", str(tmp_path / "q.json"), *common)
    # (over already: nothing to end, named as the jobs of a first import are)
    assert again.stderr.endswith("; ignored 3 removed/completed: 1.4, 2.6, 2.8\n")
