"""``fs import squeue`` and ``fs sprio`` on job arrays, as slurmctld keeps them and sprio
prints them.

An array's tasks still pending are one job record, whose ``job_id`` is the array's
(``ArrayJobId``): ``scontrol show jobs`` prints ``JobId=14 ArrayJobId=14
ArrayTaskId=2-10`` (``src/api/job_info.c``), squeue ``14_[2-10]``. A task split off from it
(started, or held or updated on its own) is a record of its own with a job id of its own
(``JobId=15 ArrayJobId=14 ArrayTaskId=1``, squeue's ``14_1``). sprio lists each record once
per partition (``priority_p_get_priority_factors_list`` walks the job list) and prints its
``job_id`` with ``%u`` (``src/sprio/print.c``, 22.05 and 26.05): ``14`` and ``15``, in job
id order. The record's factors are those of any job (``priority_multifactor.c`` has no
array case): AGE from its AccrueTime, JOBSIZE from its own CPUs (one task's).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_slurm_imports import FIXTURES, _body, _build, _pass_time

#: One task's record: u1 (account b) asks 2 CPUs in batch, accruing age from 23:13:20.
TASK = """JobId={job} ArrayJobId=14 ArrayTaskId={tasks} JobName=arr_u1
   UserId=u1(1001) GroupId=root(0) MCS_label=N/A
   Priority=6912 Nice=0 Account=b QOS=normal
   JobState=PENDING Reason=Priority Dependency=(null)
   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0
   RunTime=00:00:00 TimeLimit=UNLIMITED TimeMin=N/A
   SubmitTime=2026-11-21T23:13:20 EligibleTime=2026-11-21T23:13:20
   AccrueTime=2026-11-21T23:13:20
   StartTime=Unknown EndTime=Unknown Deadline=N/A
   Partition=batch AllocNode:Sid=localhost:2311
   NumNodes=1 NumCPUs=2 NumTasks=2 CPUs/Task=1 ReqB:S:C:T=0:0:*:*
   TRES=cpu=2,mem=2000M,node=1,billing=2
   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*
   Command=(null)

"""


def test_an_array_is_one_row_a_record_under_its_job_id(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    # The ft2_idle capture (decay pass 23:19:20), then array 14: tasks 2-10 pending in the
    # array's record (job 14), task 1 split off (job 15). Each record, by hand from
    # priority_multifactor.c with the capture's weights:
    #   AGE       (23:19:20 - 23:13:20) / PriorityMaxAge 3600 s = 0.1, x 1000 = 100
    #   FAIRSHARE u1's 0.6 (the capture's rows of u1), x 10000 = 6000
    #   JOBSIZE   (1 node of 1 + 2 CPUs of 16) / 2 = 0.5625, x 1000 = 562.5 (printed 562)
    #   PARTITION batch 1 of the largest 4 = 0.25, x 1000 = 250; QOS normal 0
    #   PRIORITY  100 + 6000 + 562.5 + 250 = 6912.5, truncated 6912 (the Priority printed)
    # fs named them 14_[2-10] and 14_1, and listed them after every numbered job.
    common, _ = _build(tmp_path, run, "ft2_idle")
    dump = tmp_path / "array.txt"
    dump.write_text(TASK.format(job=15, tasks="1") + TASK.format(job=14, tasks="2-10"))
    result = run("import", "squeue", str(dump), *common, "--last-decay", _pass_time("ft2_idle"),
                 "--site-factor-from-priority")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    result = run("sprio", "-l", *common)
    assert result.exit_code == 0, result.stderr
    row = "  {} batch           u1       6912          0        100          0       6000        562        250          0           0                     \n"
    expected = _body(FIXTURES / "ft2_idle" / "sprio_l.txt") + row.format("           14")
    assert result.stdout == expected + row.format("           15")
    result = run("sprio", "-j", "14", "-o", "%.5i %.8u %.10Y", *common)
    assert result.stdout.splitlines() == ["JOBID     USER   PRIORITY", "   14       u1       6912"]
