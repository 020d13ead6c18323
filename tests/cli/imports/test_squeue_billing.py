"""``fs import squeue`` of a running job in a partition with ``billing_weights``: charged
the double its weights give, not the whole number the dump prints.

slurmctld stores a running job's billing in its ``uint64_t`` TRES array (``AllocTRES``
prints ``billing=4``) but charges the double ``calc_job_billable_tres`` gives
(``_apply_new_usage``): 2 CPUs × 1.0 + 8192 MB × 0.3/1024 = 4.4 under
``CPU=1.0,Mem=0.3G``. Without decay (half-life 0, a yearly reset) the passes from 11:00 to
12:00 charge 4.4 × 3600 = 15840. A ``billing=`` the weights do not give (6: a GRES the job
object does not carry, or weights not the cluster's) is charged as printed: 21600; and
without weights the printed 4: 14400.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONFIG = """
[pool]
defaults = "current"
[priority]
decay_halflife = 0
usage_reset_period = "YEARLY"
calc_period = 60
[partitions.batch]
default = true
{weights}
[accounts.a]
users = {{ u1 = 1 }}
"""
RUNNING = """JobId=55 JobName=job55
   UserId=u1(1000) GroupId=users(100) MCS_label=N/A
   Priority=1 Nice=0 Account=a QOS=normal
   JobState=RUNNING Reason=None Dependency=(null)
   SubmitTime=2026-11-21T11:00:00 EligibleTime=2026-11-21T11:00:00
   StartTime=2026-11-21T11:00:00 EndTime=Unknown Deadline=N/A
   Partition=batch AllocNode:Sid=login1:4242
   NumNodes=1 NumCPUs=2 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:*
   ReqTRES=cpu=2,mem=8G,node=1,billing=4
   AllocTRES=cpu=2,mem=8G,node=1,billing={billing}
"""


@pytest.mark.parametrize(
    ("weights", "billing", "usage"),
    [
        pytest.param('billing_weights = "CPU=1.0,Mem=0.3G"', 4, 15840, id="weights"),
        pytest.param('billing_weights = "CPU=1.0,Mem=0.3G"', 6, 21600, id="not-the-weights"),
        pytest.param("", 4, 14400, id="no-weights"),
    ],
)
def test_a_running_job_accrues_its_weighted_billing(
    tmp_path: Path, run: Callable[..., Any], weights: str, billing: int, usage: int
) -> None:
    (tmp_path / "pool.toml").write_text(CONFIG.format(weights=weights))
    (tmp_path / "jobs.txt").write_text(RUNNING.format(billing=billing))
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json")]
    res = run(
        "import", "squeue", str(tmp_path / "jobs.txt"), *args, "--now", "2026-11-21T11:00:00Z"
    )
    assert res.exit_code == 0, res.stderr
    shown = run("sshare", "-a", "-P", "-o", "User,RawUsage", *args, "--now", "2026-11-21T12:00:00Z")
    assert shown.exit_code == 0, shown.stderr
    assert f"u1|{usage}" in shown.stdout.splitlines()
