"""``fs sprio`` of a job of several partitions sized in the one slurmctld leaves it in, chosen
by the priorities slurmctld stores (``priority_array``, whole numbers), as the schedulers
sort its records (``sort_job_queue2``: tier, then priority; equal ones as queued, the later
partition popped last). Every number is worked out by hand from Slurm's source
(``priority_multifactor.c``'s ``set_priority_factors`` and ``_priority_each_qos``,
``job_scheduler.c``'s ``sort_job_queue2``), 22.05 and 26.05 alike."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import sprio_files

NOW_EPOCH = 1795262400

# Two nodes of 8 CPUs (16); short's MaxTime 60 minutes, long's 1440. PriorityJobFactor 1
# and 2 over the largest (2), weighted by 1: 0.5 in short, 1.0 in long. Association
# priorities 1 (alice) and 2 (bob) over the largest (2), weighted by 1: 0.5 and 1.0.
POOL = """
[pool]
defaults = "current"
[[machines]]
name = "exec"
count = 2
attributes = { Cpus = 8, Memory = 4096 }
[partitions.short]
default = true
max_time = "1:00:00"
priority_job_factor = 1
[partitions.long]
max_time = "1-0"
priority_job_factor = 2
[priority]
COMPAT
max_age = "7-0"
flags = ["SMALL_RELATIVE_TO_TIME"]
[priority.weights]
age = 1000
assoc = 1
fairshare = 0
jobsize = 30672
partition = 1
qos = 0
[accounts.hep]
shares = 1
users = { alice = 1, bob = 1 }
user_priority = { alice = 1, bob = 2 }
"""

#: ``sprio -l``'s output, each line in two pieces.
EXPECTED = {
    "current": [
        "          JOBID PARTITION     USER  ACCOUNT   PRIORITY       SITE        AGE      ASSOC"
        "  FAIRSHARE    JOBSIZE  PARTITION    QOSNAME        QOS        NICE                 TRES",
        "              1 short          bob      hep       1012          0       1000          1"
        "          0         11          0     normal          0           0                     ",
        "              1 long           bob      hep       1012          0       1000          1"
        "          0         11          1     normal          0           0                     ",
        "              2 short        alice      hep       1256          0       1000          0"
        "          0        256          0     normal          0           0                     ",
        "              2 long         alice      hep       1257          0       1000          0"
        "          0        256          1     normal          0           0                     ",
    ],
    "22.05": [
        "          JOBID PARTITION     USER   PRIORITY       SITE        AGE      ASSOC "
        " FAIRSHARE    JOBSIZE  PARTITION        QOS        NICE                 TRES",
        "              1 short          bob       1012          0       1000          1 "
        "         0         11          0          0           0                     ",
        "              1 long           bob       1012          0       1000          1 "
        "         0         11          1          0           0                     ",
        "              2 short        alice       1256          0       1000          0 "
        "         0        256          0          0           0                     ",
        "              2 long         alice       1257          0       1000          0 "
        "         0        256          1          0           0                     ",
    ],
}


@pytest.mark.parametrize("compat", ["current", "22.05"])
def test_partitions_whose_stored_priorities_tie_leave_the_job_in_the_later_one(
    tmp_path: Path, run: Callable[..., Any], compat: str
) -> None:
    """Two jobs of 8 CPUs and no time limit naming ``short,long`` (tier 1 both), 8 days
    old: age 1 x 1000 at this pass and the ones before (the stored priorities that chose
    where the schedulers left them are the pass before's), no usage. ``SMALL_RELATIVE_TO_TIME``
    sizes a job 8 / MaxTime / 16 CPUs x 30,672: 255.6 in short, 10.65 in long.

    Job 1, bob's (ASSOC 1.0): sized in short, its sum before the partition factor is
    1000 + 1 + 255.6 = 1256.6; short stores 0.5 + 1256.6 = 1257.1 -> 1257, long 1.0 +
    1256.6 = 1257.6 -> 1257: equal, long's record is popped last. Sized in long:
    1011.65, short 1012.15 -> 1012, long 1012.65 -> 1012: equal, it stays in long. sprio:
    JOBSIZE 11 (10.65), PRIORITY 1012 in both rows. fs compared 1257.1 and 1257.6 as they
    are and took short: JOBSIZE 256, PRIORITY 1257 in both rows.

    Job 2, alice's (0.5): in short 1256.1, short 1256.6 -> 1256, long 1257.1 -> 1257; in
    long 1011.15, short 1011.65 -> 1011, long 1012.15 -> 1012: short's is lower either way,
    popped last: JOBSIZE 256, PRIORITY 1256 in short, 1257 in long."""
    jobs = [
        {"id": str(n), "owner": owner, "account": "hep", "partition": "short,long",
         "request_cpus": 8, "submit_time": NOW_EPOCH - 8 * 86400}
        for n, owner in ((1, "bob"), (2, "alice"))
    ]  # fmt: skip
    line = 'output_compat = "22.05"' if compat == "22.05" else ""
    args = sprio_files(tmp_path, jobs, POOL.replace("COMPAT", line))
    state = (tmp_path / "state.json").read_bytes()
    result = run("sprio", "-l", *args)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == EXPECTED[compat]
    assert (tmp_path / "state.json").read_bytes() == state
