"""``fs import squeue`` checks a pending job's printed priority against its own
partition's, the one slurmctld sums it in, not its first named.

The 22.05 capture ``ft1_running``: job 11 of ``batch,express`` (PriorityJobFactor 1 and 4,
both tier 1) prints Priority=10882, batch's row of ``sprio -l``. slurmctld sums a job's
priority in ``job_ptr->part_ptr`` (``_get_priority_internal``), and its schedulers, which
set it to each of the job's records in turn (``sort_job_queue2``: of one tier the higher
priority first), leave it at the lower, batch, whichever the job names first. The dump
edited to name ``express,batch`` prints the same; fs compared it with express's first
row, 11632, and called it a priority the dumps do not give.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_slurm_imports import FIXTURES, _build, _pass_time

Run = Callable[..., Any]


def test_a_job_naming_its_higher_partition_first_adds_up(tmp_path: Path, run: Run) -> None:
    common, _ = _build(tmp_path, run, "ft1_running")
    text = (FIXTURES / "ft1_running" / "scontrol_show_jobs.txt").read_text()
    assert text.count("Partition=batch,express ") == 1
    dump = tmp_path / "express_first.txt"
    dump.write_text(text.replace("Partition=batch,express ", "Partition=express,batch "))
    res = run("import", "squeue", str(dump), *common, "--last-decay", _pass_time("ft1_running"))
    assert res.exit_code == 0, res.stderr
    assert res.stderr == (
        f"{dump}: 12 jobs (9 pending, 3 running) into {common[3]}; usage of 3 associations"
        " made exact from their jobs; 1 printed priority the dumps do not give: 8 (printed"
        " 5619, computed 5319) (a site factor, set with scontrol update and printed in no"
        " dump? --site-factor-from-priority reads it off the printed Priority)\n"
    )
