"""``fs simulate --scheduler slurm``: a job of no time limit runs under its partition's.

slurmctld gives it its first partition's ``DefaultTime`` when it takes it (``_valid_job_part``
in ``job_mgr.c``); one still without a limit gets, as it starts, the ``DefaultTime``, else
the ``MaxTime``, of the partition it starts in (``select_nodes`` in ``node_scheduler.c``,
22.05.11 and 26.05.3 alike), and is ended there. fs ran such a job for its whole run time.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, sprio_files
from tests.cli.test_sprio_default_time import NOW_EPOCH, POOL

Run = Callable[..., Any]


def test_a_job_of_no_limit_ends_at_default_time_else_max_time(tmp_path: Path, run: Run) -> None:
    """Job 1 (batch, the default: DefaultTime 20 minutes) asks an hour's run, job 2
    (short: no DefaultTime, MaxTime 50 minutes) two hours; both start at 12:00, each on a
    CPU. Job 1 ends at 12:20 and job 2 at 12:50, so the pool's CPUs in use are 2 until
    12:15, 1 from 12:20 to 12:45, 0 from 12:50 (fs: 2 until 13:00, when job 1 ended)."""
    work = tmp_path / "work.json"
    jobs = [
        {"id": "1", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH,
         "run_time": 3600},
        {"id": "2", "owner": "bob", "account": "hep", "submit_time": NOW_EPOCH,
         "run_time": 7200, "partition": "short"},
    ]  # fmt: skip
    work.write_text(json.dumps(jobs), encoding="utf-8")
    files = sprio_files(tmp_path, [], POOL)[:4]
    res = run("simulate", "--workload", str(work), "--until", "1:00:00", "--cycle", "300",
              "--scheduler", "slurm", "--series", "--json", *files, "--now", NOW)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    pool = [row["slots"] for row in json.loads(res.stdout) if row["kind"] == "pool"]
    assert pool == [2.0] * 4 + [1.0] * 6 + [0.0] * 3
