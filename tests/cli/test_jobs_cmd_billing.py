"""``fs submit`` of a running Slurm job in a partition with ``billing_weights``
(``TRESBillingWeights``): it accrues its billing, not its CPUs (``_apply_new_usage``).

Without decay (half-life 0, a yearly reset) the 12:00 pass charges the hour since 11:00
at the job's billing: 2 CPUs × 1.0 + 4096 MB × 0.5/1024 (``Mem=0.5G``) + one node × 10 =
14, so 14 × 3600 = 50400; with ``PriorityFlags=MAX_TRES`` the largest of 2, 2 and 10: 10,
36000; without weights its 2 CPUs: 7200.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

POOL = """
[pool]
defaults = "current"
[priority]
decay_halflife = 0
usage_reset_period = "YEARLY"
calc_period = 60
{flags}
[partitions.batch]
default = true
{weights}
[accounts.A]
users = {{ bob = 1 }}
"""


@pytest.mark.parametrize(
    ("flags", "weights", "usage"),
    [
        pytest.param("", 'billing_weights = "CPU=1.0,Mem=0.5G,Node=10"', 50400, id="sum"),
        pytest.param(
            'flags = ["MAX_TRES"]', 'billing_weights = "CPU=1.0,Mem=0.5G,Node=10"', 36000,
            id="max_tres",
        ),
        pytest.param("", "", 7200, id="cpus"),
    ],
)  # fmt: skip
def test_a_running_job_accrues_its_billing(
    write_config: Callable[..., Path], tmp_path: Path, run: Any, flags: str, weights: str,
    usage: int,
) -> None:  # fmt: skip
    config = write_config(POOL.format(flags=flags, weights=weights))
    args = ["--config", str(config), "--state", str(tmp_path / "s.json")]
    submitted = run(
        "submit", "--owner", "bob", "--account", "A", "--cpus", "2", "--nodes", "1",
        "--set", "request_memory=4096", "--set", "status=running",
        "--set", "start_time=2026-11-21T11:00:00Z", *args, "--now", "2026-11-21T11:00:00Z",
    )  # fmt: skip
    assert submitted.exit_code == 0, submitted.stderr
    shown = run(
        "sshare", "-a", "-P", "-o", "Account,User,RawUsage", *args, "--now",
        "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert shown.exit_code == 0, shown.stderr
    assert f"  A|bob|{usage}" in shown.stdout.splitlines()
