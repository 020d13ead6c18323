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


@pytest.mark.parametrize(
    ("weights", "error"),
    [
        pytest.param(
            "CPU=1e300",
            "{config}: partitions.batch.billing_weights: TRES weight cpu=1e+300 is above "
            "1e+30, the largest usage rate the state stores; expected at most 1e+30",
            id="weight",
        ),
        pytest.param(
            "CPU=1e30",
            "partitions.batch.billing_weights cpu=1e+30: 2e+30 billable TRES for cpu=2 (more "
            "than 1e+30, the largest usage rate the state stores); expected smaller weights",
            id="billing",
        ),
    ],
)
def test_weights_billing_beyond_the_stored_rate_are_refused_naming_the_partition(
    write_config: Callable[..., Path], tmp_path: Path, run: Any, weights: str, error: str
) -> None:
    """A running job's usage rate is stored within 1e30 (``slurm.running[].rate``). With
    ``CPU=1e300`` the submit was refused only at the state write ("slurm.running[0].rate:
    expected a number of at most 1e+30, got 2e+300"), naming neither the weights nor the
    partition; a weight above 1e30 is now refused when the config is read. ``CPU=1e30``
    (within it) bills the job's 2 CPUs 2 × 1e30 = 2e30: refused naming the partition."""
    config = write_config(POOL.format(flags="", weights=f'billing_weights = "{weights}"'))
    state = tmp_path / "s.json"
    res = run(
        "submit", "--owner", "bob", "--account", "A", "--cpus", "2", "--nodes", "1",
        "--set", "status=running", "--set", "start_time=2026-11-21T11:00:00Z",
        "--config", str(config), "--state", str(state), "--now", "2026-11-21T11:00:00Z",
    )  # fmt: skip
    assert res.exit_code == 2
    assert res.stderr == f"fs: error: {error.format(config=config)}\n"
    assert not state.exists()
