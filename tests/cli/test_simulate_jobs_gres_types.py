"""``fs simulate --scheduler slurm`` of a workload job asking a GRES
``priority.gres_types`` does not list (cli/simulate_jobs.py): slurmctld refuses it at
submission (``gres_job_state_validate``: "Invalid generic resource (gres)
specification"), so it never runs; the workload is refused, exit 2, as ``fs sprio
--jobs-file`` refuses such a file (``test_sprio_gres_types.py``). On a side of ``fs
whatif`` the job is left out and noted, for the other side may list the GRES. fs ran it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, refused, sprio_files
from tests.cli.test_sprio_gres_types import JOB, POOL, REFUSAL, TPU

Run = Callable[..., Any]
SIMULATE = ("simulate", "--scheduler", "slurm", "--until", "0:10:00", "--cycle", "300")


def test_a_workload_job_of_an_unlisted_gres_is_refused(tmp_path: Path, run: Run) -> None:
    """Job 2 asks a TPU ``GresTypes=gpu,nic`` does not list: refused, naming the workload.
    ``fs whatif --set priority.gres_types=gpu,nic,tpu``: before, job 2 is left out (noted);
    after, it runs beside job 1. Each asks 2 CPUs for 600 s, from the first cycle (12:00)
    on the two nodes of 4 CPUs: alice holds 2 CPUs before, 4 after, at 12:00 and 12:05,
    none at 12:10."""
    files = sprio_files(tmp_path, [], POOL.replace("GRES_TYPES", 'gres_types = "gpu,nic"'))
    work = tmp_path / "work.json"
    work.write_text(json.dumps([{**JOB, "run_time": 600}, {**TPU, "run_time": 600}]))
    args = [*SIMULATE, "--workload", str(work), *files[:4], "--now", NOW]
    res = run(*args)
    refused(res)
    assert res.stderr == f"fs: error: {work}: {REFUSAL}\n"
    res = run("whatif", "--set", "priority.gres_types=gpu,nic,tpu", *args, "--json")
    assert res.exit_code == 0, res.stderr
    assert res.stderr == f"fs: note: before: left out {REFUSAL}\n"
    doc = json.loads(res.stdout)
    slots = {p: [r["slots"] for r in doc if (r["policy"], r["name"]) == (p, "alice")]
             for p in ("before", "after")}  # fmt: skip
    assert slots == {"before": [2.0, 2.0, 0.0], "after": [4.0, 4.0, 0.0]}
