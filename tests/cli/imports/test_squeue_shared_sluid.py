"""``fs import squeue`` refuses a dump in which two jobs carry one SLUID.

Before, such a dump was imported, and ``fs sprio -j s...`` then listed both jobs for one
SLUID. slurmctld gives each job record its own SLUID (``job_record_set_sluid`` whenever a
record gets a new job id, an array task split off included; ``generate_sluid`` counts
milliseconds and a sequence under the cluster's bits) and finds a job by it
(``find_job_by_sluid``), so no dump of one queue has two jobs with one. The refusal names
the record and both job ids, exit 2, the state untouched; a job listed twice with its one
SLUID is one job, not refused for it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import common, refused, write_pool
from tests.cli.imports.conftest import Refuse
from tests.conftest import FIXTURES

SLUID = "s805M8HP6BJP00"


def _job(job_id: int, user: str, sluid: str) -> dict[str, Any]:
    return {"job_id": job_id, "job_state": ["PENDING"], "user_name": user, "account": "hep",
            "step_id": {"sluid": sluid}}  # fmt: skip


def test_two_jobs_of_one_sluid_are_refused(refuse_dump: Refuse) -> None:
    jobs = [_job(5, "alice", SLUID), _job(6, "bob", "s805M8HP6BJX00"), _job(7, "bob", SLUID)]
    result = refuse_dump("squeue", json.dumps({"jobs": jobs}), "job 7", "job 5")
    assert result.stderr.endswith(
        ": jobs[2]: job 7 has the SLUID s805M8HP6BJP00 of job 5; slurmctld gives every job "
        "its own (an edited dump?)\n"
    )


def test_scontrol_d_two_jobs_of_one_sluid_are_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The 26.05 capture's ``scontrol show jobs``, ``SLUID=`` lines added as ``scontrol -d``
    prints them (after ``JobName=``), job 20 given job 19's."""
    capture = FIXTURES / "slurm-26.05" / "ft4_t2_idle" / "scontrol_show_jobs.txt"
    text = capture.read_text().split("\n", 1)[1]
    for job in ("19", "20"):
        text = re.sub(rf"(?m)^(JobId={job} JobName=.*)$", rf"\1\n   SLUID={SLUID}", text)
    dump = tmp_path / "jobs.txt"
    dump.write_text(text)
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()
    result = run("import", "squeue", str(dump), *common(pool))
    refused(result, "job 20 has the SLUID s805M8HP6BJP00 of job 19")
    line = next(n for n, t in enumerate(text.split("\n"), 1) if t.startswith("JobId=20 "))
    assert result.stderr.startswith(f"fs: error: {dump}:{line}: job 20 has")
    assert pool["state"].read_bytes() == before
