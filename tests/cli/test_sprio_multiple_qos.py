"""``fs sprio`` for a job submitted to several QOS (``--qos=low,high``, Slurm 24.11 on).

Slurm 24.11 ("Add ability to submit jobs with multiple QOS", its NEWS and RELEASE_NOTES)
keeps a job's QOS as a list when the request holds a comma (``_get_qos_ptr_list``,
``src/slurmctld/job_mgr.c``, 26.05): each named once, empty names skipped (``strtok``), a
list of one refused ("it appears there is a trailing comma"), sorted by
``priority_sort_qos_desc`` (QOS ``Priority``, highest first; glibc's stable ``qsort`` keeps
QOS of one priority as named); the job's own QOS is the first. sprio gets a row per
partition and, inside it, per QOS (``_create_prio_list_part`` -> ``_create_prio_list_qos``,
``priority_multifactor.c``), whose QOS factor is that QOS's, unless its priority is 0: the
row then keeps the job's own factor as of the last priority pass. That is the first QOS's
only until the first decay pass after submission: slurmctld tries the job under each QOS
in turn, the lowest last (``_select_nodes_qos`` at submission; the schedulers' walks of
its records, ``job_ptr->qos_ptr = job_queue_rec->qos_ptr``), and the pass
(``decay_apply_weighted_factors`` -> ``set_priority_factors``) computes the job's factor
under the QOS it tried last: a QOS of priority 0, so 0. Slurm 22.05 has no such list (a
``QOS=low,high`` is no QOS it knows). Every number is worked out by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import SPRIO_ACCOUNTS, sprio_files

NOW_EPOCH = 1795262400

POOL_TOML = """
[pool]
defaults = "current"
[[machines]]
name = "exec"
count = 2
attributes = { Cpus = 1, Memory = 4096 }
[partitions.batch]
default = true
[partitions.express]
priority_job_factor = 4
[qos.normal]
priority = 0
[qos.low]
priority = 25
[qos.mid]
priority = 25
[qos.high]
priority = 100
[priority]
max_age = "7-0"
[priority.weights]
age = 1000
partition = 1000
qos = 1000
"""
POOL = POOL_TOML + SPRIO_ACCOUNTS


def _job(qos: str) -> list[dict[str, Any]]:
    # 60,480 s of PriorityMaxAge 7-0 (604,800 s): AGE 0.1 x 1000 = 100.
    return [{"id": "1", "owner": "alice", "account": "hep", "partition": "batch,express",
             "qos": qos, "submit_time": NOW_EPOCH - 60480}]  # fmt: skip


def test_a_row_per_partition_and_qos_highest_priority_first(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    # "low,normal,high,mid,low": low once; sorted high (100), low and mid (25, as named),
    # normal (0). QOS factors over the largest priority (100), x 1000: high 1000, low and
    # mid 250; normal (priority 0) keeps the job's own as of the pass: the job, queued
    # 60,480 s before it, was last tried under normal, so 0 (fs showed high's 1000, the
    # job's QOS at submission). PARTITION: batch 1/4 x 1000 = 250, express 4/4 x 1000 =
    # 1000. PRIORITY = 100 + PARTITION + QOS.
    jobs = _job("low,normal,high,mid,low")
    fmt = "%.5i %9r %10n %.10Y %.10Q"
    result = run("sprio", "-o", fmt, *sprio_files(tmp_path, jobs, POOL))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "JOBID PARTITION QOSNAME      PRIORITY        QOS",
        "    1 batch     high             1350       1000",
        "    1 batch     low               600        250",
        "    1 batch     mid               600        250",
        "    1 batch     normal            350          0",
        "    1 express   high             2100       1000",
        "    1 express   low              1350        250",
        "    1 express   mid              1350        250",
        "    1 express   normal           1100          0",
    ]


def test_a_job_submitted_since_the_last_pass_keeps_its_first_qos(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    # Submitted at the pass itself (--now, a multiple of the 5-minute PriorityCalcPeriod):
    # no pass has computed its factors since submission, which took its first QOS, high
    # (1000), for the job. AGE 0: PRIORITY = PARTITION + QOS, normal's rows as high's.
    jobs = [{**_job("normal,high")[0], "submit_time": NOW_EPOCH}]
    result = run("sprio", "-o", "%.5i %9r %10n %.10Y %.10Q", *sprio_files(tmp_path, jobs, POOL))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == [
        "    1 batch     high             1250       1000",
        "    1 batch     normal           1250       1000",
        "    1 express   high             2000       1000",
        "    1 express   normal           2000       1000",
    ]


def test_slurm_22_05_takes_one_qos_and_a_list_of_one_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    old = POOL.replace("[priority]\n", '[priority]\noutput_compat = "22.05"\n')
    result = run("sprio", *sprio_files(tmp_path, _job("low,high"), old))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith(
        'job 1: QOS "low,high": Slurm 22.05 takes one QOS a job (several came with 24.11: '
        'priority.output_compat = "current")\n'
    )
    result = run("sprio", *sprio_files(tmp_path, _job("high,high,"), POOL))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith(
        'job 1: QOS "high,high," names one QOS: slurmctld refuses a list of fewer than two '
        "(a trailing comma)\n"
    )
    result = run("sprio", *sprio_files(tmp_path, _job("high,fast"), POOL))
    assert result.exit_code == 2
    assert result.stderr.endswith('job 1: unknown QOS "fast"\n')


#: A pending job of several QOS as 26.05's ``scontrol show jobs`` prints it: a pending job's
#: ``QOS=`` is its request as typed (``details->qos_req``, job_mgr.c's job packing).
RECORD = """JobId=7 JobName=mq
   UserId=alice(1001) GroupId=root(0) MCS_label=N/A
   Priority=2100 Nice=0 Account=hep QOS=low,normal,high,mid,low
   JobState=PENDING Reason=Priority Dependency=(null)
   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0
   RunTime=00:00:00 TimeLimit=UNLIMITED TimeMin=N/A
   SubmitTime=2026-11-20T19:12:00 EligibleTime=2026-11-20T19:12:00
   AccrueTime=2026-11-20T19:12:00
   StartTime=Unknown EndTime=Unknown Deadline=N/A
   Partition=batch,express AllocNode:Sid=localhost:2311
   NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:*
   ReqTRES=cpu=1,mem=1000M,node=1,billing=1
   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*
   Command=(null)
"""


def test_imported_from_scontrol_show_jobs(tmp_path: Path, run: Callable[..., Any]) -> None:
    # The job of the first test (accruing from 19:12:00, 60,480 s before --now), imported:
    # fs refused it ('unknown QOS "low,normal,high,mid,low"'). Its rows as there (normal
    # with QOS factor 0: the job was queued long before the pass).
    opts = [*sprio_files(tmp_path, [], POOL)[:4], "--now", "2026-11-21T12:00:00Z"]
    dump = tmp_path / "jobs.txt"
    dump.write_text(RECORD)
    result = run("import", "squeue", str(dump), *opts)
    assert result.exit_code == 0, result.stderr
    result = run("sprio", "-o", "%.5i %9r %10n %.10Y", *opts)
    assert result.exit_code == 0, result.stderr
    assert [" ".join(line.split()) for line in result.stdout.splitlines()[1:]] == [
        "7 batch high 1350", "7 batch low 600", "7 batch mid 600", "7 batch normal 350",
        "7 express high 2100", "7 express low 1350", "7 express mid 1350",
        "7 express normal 1100",
    ]  # fmt: skip


def test_fs_submit_refuses_what_sprio_would_refuse(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs submit --owner alice --account hep --qos 'normal,'`` (and ``','``) was taken,
    and from then on every ``fs sprio`` of the state failed on that job; now the submission
    is refused with sprio's words, nothing written. With ``output_compat = "22.05"`` a list
    of two is refused at submission too."""
    opts = [*sprio_files(tmp_path, [], POOL)[:4], "--now", "2026-11-21T12:00:00Z"]
    state = Path(opts[3])
    before = state.read_bytes()
    for qos, says in (
        ("normal,", 'QOS "normal," names one QOS'),
        (",", 'QOS "," names no QOS'),
    ):
        result = run("submit", "--owner", "alice", "--account", "hep", "--qos", qos, *opts)
        assert (result.exit_code, result.stdout) == (2, ""), result.stderr
        assert result.stderr == (
            f"fs: error: fs submit: job 1: {says}: slurmctld refuses a list of fewer than two "
            "(a trailing comma)\n"
        )
        assert state.read_bytes() == before
    old = POOL.replace("[priority]\n", '[priority]\noutput_compat = "22.05"\n')
    Path(opts[1]).write_text(old, encoding="utf-8")
    result = run("submit", "--owner", "alice", "--account", "hep", "--qos", "low,high", *opts)
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Slurm 22.05 takes one QOS a job (several came with 24.11: "
        'priority.output_compat = "current")\n'
    )
    assert state.read_bytes() == before
    result = run("submit", "--owner", "alice", "--account", "hep", "--qos", "normal", *opts)
    assert result.exit_code == 0, result.stderr


def test_jobs_of_one_qos_list_before_and_since_the_pass(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    # Jobs 1 (60,480 s before the pass: AGE 100) and 2 (at the pass: AGE 0), both
    # "normal,high" in batch and express, listed in one call: job 1's normal rows carry
    # QOS 0 (350, 1100), job 2's high's 1000 (1250, 2000).
    jobs = [*_job("normal,high"), {**_job("normal,high")[0], "id": "2", "submit_time": NOW_EPOCH}]
    result = run("sprio", "-o", "%.5i %9r %10n %.10Y", *sprio_files(tmp_path, jobs, POOL))
    assert result.exit_code == 0, result.stderr
    assert [" ".join(line.split()) for line in result.stdout.splitlines()[1:]] == [
        "1 batch high 1350", "1 batch normal 350", "1 express high 2100",
        "1 express normal 1100", "2 batch high 1250", "2 batch normal 1250",
        "2 express high 2000", "2 express normal 2000",
    ]  # fmt: skip
