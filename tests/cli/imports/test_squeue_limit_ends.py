"""``fs import squeue`` of a job the state holds running, whose time limit was raised
(``scontrol update TimeLimit=``): the dump shows it running past the end its old limit
gave, so slurmctld has not ended it, and its usage runs on up to the dump's pass.

fs ended the state's charge at the old limit's end (start + 60 min) before it took the
dump's running jobs, so a job that ran 11:00 to 13:00 was charged one hour.

Hand-derived (``priority_multifactor.c``: no decay, a pass every 300 s charges a running
1-CPU job 300 s): 11:00 to 13:00 is 24 passes, RawUsage 7200; ended at 12:00 it would be
3600.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_sshare_limit_ends import CONFIG, NO_DECAY

DUMP = """JobId=1 JobName=j
   UserId=u1(1001) GroupId=root(0) MCS_label=N/A
   Priority=1 Nice=0 Account=a QOS=normal
   JobState=RUNNING Reason=None Dependency=(null)
   RunTime=02:00:00 TimeLimit=03:00:00 TimeMin=N/A
   SubmitTime=2026-11-21T11:00:00 EligibleTime=2026-11-21T11:00:00
   AccrueTime=2026-11-21T11:00:00
   StartTime=2026-11-21T11:00:00 EndTime=2026-11-21T14:00:00 Deadline=N/A
   Partition=batch AllocNode:Sid=localhost:1
   NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1
   ReqTRES=cpu=1,mem=100M,node=1,billing=1
   AllocTRES=cpu=1,mem=100M,node=1,billing=1
"""
AT = "2026-11-21T13:00:00Z"


def test_raised_limit_runs_on_to_the_pass(tmp_path: Path, run: Callable[..., Any]) -> None:
    config, dump = tmp_path / "pool.toml", tmp_path / "jobs.txt"
    config.write_text(CONFIG.format(halflife=NO_DECAY, over_time=0))
    dump.write_text(DUMP)
    common = ["--config", str(config), "--state", str(tmp_path / "state.json")]
    res = run("submit", "--owner", "u1", "--account", "a", "--time-limit", "60",
              "--set", "status=running", "--set", "start_time=2026-11-21T11:00:00Z",
              "--set", "id=1", *common, "--now", "2026-11-21T11:00:00Z")  # fmt: skip
    assert res.exit_code == 0, res.stderr
    res = run("import", "squeue", str(dump), *common, "--now", AT, "--last-decay", AT)
    assert res.exit_code == 0, res.stderr
    res = run("sshare", "-a", "-l", "-P", *common, "--now", AT)
    assert res.exit_code == 0, res.stderr
    rows = {tuple(line.split("|")[:2]): line.split("|")[4] for line in res.stdout.splitlines()}
    assert rows[(" a", "")] == "7200"
    assert rows[("  a", "u1")] == "7200"
