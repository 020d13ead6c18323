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

from tests.cli.conftest import SPRIO_ACCOUNTS, sprio_files

NOW_EPOCH = 1795262400

# Two nodes of 8 CPUs (16); short's MaxTime 60 minutes, long's 1440. PriorityJobFactor 1
# and 2 over the largest (2), weighted by 1: 0.5 in short, 1.0 in long.
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
age = 1006
fairshare = 0
jobsize = 29520
partition = 1
qos = 0
"""

#: ``sprio -l``'s output, each line in two pieces (sprio's widths: 15, 9, then 10s).
EXPECTED = {
    "current": [
        "          JOBID PARTITION     USER  ACCOUNT   PRIORITY       SITE        AGE      ASSOC"
        "  FAIRSHARE    JOBSIZE  PARTITION    QOSNAME        QOS        NICE                 TRES",
        "              1 short        alice      hep        111          0        101          0"
        "          0         10          0     normal          0           0                     ",
        "              1 long         alice      hep        111          0        101          0"
        "          0         10          1     normal          0           0                     ",
        "              2 short        alice      hep        296          0         50          0"
        "          0        246          0     normal          0           0                     ",
        "              2 long         alice      hep        297          0         50          0"
        "          0        246          1     normal          0           0                     ",
    ],
    "22.05": [
        "          JOBID PARTITION     USER   PRIORITY       SITE        AGE      ASSOC"
        "  FAIRSHARE    JOBSIZE  PARTITION        QOS        NICE                 TRES",
        "              1 short        alice        111          0        101          0"
        "          0         10          0          0           0                     ",
        "              1 long         alice        111          0        101          0"
        "          0         10          1          0           0                     ",
        "              2 short        alice        296          0         50          0"
        "          0        246          0          0           0                     ",
        "              2 long         alice        297          0         50          0"
        "          0        246          1          0           0                     ",
    ],
}


@pytest.mark.parametrize("compat", ["current", "22.05"])
def test_partitions_whose_stored_priorities_tie_leave_the_job_in_the_later_one(
    tmp_path: Path, run: Callable[..., Any], compat: str
) -> None:
    """A job of 8 CPUs and no time limit: ``SMALL_RELATIVE_TO_TIME`` sizes it 8 / MaxTime
    / 16 CPUs, x 29,520: 8 / 60 / 16 x 29520 = 246 in short, 8 / 1440 / 16 x 29520 = 10.25
    in long. Both jobs name ``short,long`` (tier 1 both) and came before the pass.

    Job 1, 60,480 s old (age 0.1 x 1006 = 100.6): at submission its factors are short's
    (its first named): 100.6 + 246 = 346.6, so short's stored priority is 0.5 + 346.6 =
    347.1 -> 347 and long's 1.0 + 346.6 = 347.6 -> 347: equal, long's record is popped
    last and the pass sizes the job in long: 100.6 + 10.25 = 110.85, short 111.35 -> 111,
    long 111.85 -> 111, equal again: it stays in long. sprio: JOBSIZE 10, PRIORITY 111
    in both rows. fs compared 347.1 and 347.6 as they are and took short: JOBSIZE 246,
    PRIORITY 347 (short's 0.5 below long's truncated away alike).

    Job 2, 30,240 s old (0.05 x 1006 = 50.3): 50.3 + 246 = 296.3, short 296.8 -> 296,
    long 297.3 -> 297: short's is lower, popped last; it stays in short: JOBSIZE 246,
    PRIORITY 296 in short, 297 in long."""
    jobs = [
        {"id": str(n), "owner": "alice", "account": "hep", "partition": "short,long",
         "request_cpus": 8, "submit_time": NOW_EPOCH - ago}
        for n, ago in ((1, 60480), (2, 30240))
    ]  # fmt: skip
    line = 'output_compat = "22.05"' if compat == "22.05" else ""
    args = sprio_files(tmp_path, jobs, POOL.replace("COMPAT", line) + SPRIO_ACCOUNTS)
    state = (tmp_path / "state.json").read_bytes()
    result = run("sprio", "-l", *args)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == EXPECTED[compat]
    assert (tmp_path / "state.json").read_bytes() == state
