"""``fs submit`` of a running Slurm job of several QOS: its usage is charged under one of
them (a running job has one QOS, the record's it started from), the one ``_get_qos_info``
gives it at submission, as fs keeps no other (and ``fs simulate`` takes it): the first of
the list sorted by QOS priority, highest first, ties as named (``priority_sort_qos_desc``).
fs looked the whole list up as one name, found none and charged a usage factor of 1."""

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
[qos.normal]
[qos.high]
usage_factor = 2.0
[accounts.A]
users = { bob = 1 }
"""


@pytest.mark.parametrize(
    ("qos", "factor", "pool"),
    [
        ("high,normal", 2.0, POOL),
        ("normal,high", 1.0, POOL),
        ("normal,high", 2.0, POOL.replace("[qos.high]\n", "[qos.high]\npriority = 10\n")),
    ],
)
def test_a_running_job_of_several_qos_is_charged_under_its_first(
    write_config: Callable[..., Path], tmp_path: Path, run: Any, qos: str, factor: float, pool: str
) -> None:
    """3 CPUs from 11:00, no decay: at the 12:00 pass 3 × 3600 s × the usage factor of the
    first QOS, both of priority 0, as named (high's 2: 21600; normal's 1: 10800); high
    first whatever the order when its priority is 10 (fs took normal, named first:
    10800)."""
    args = ["--config", str(write_config(pool)), "--state", str(tmp_path / "s.json")]
    submitted = run(
        "submit", "--owner", "bob", "--account", "A", "--qos", qos, "--cpus", "3",
        "--set", "status=running", "--set", "start_time=2026-11-21T11:00:00Z",
        *args, "--now", "2026-11-21T11:00:00Z",
    )  # fmt: skip
    assert submitted.exit_code == 0, submitted.stderr
    shown = run(
        "sshare", "-a", "-P", "-o", "Account,User,RawUsage", *args, "--now",
        "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert shown.exit_code == 0, shown.stderr
    assert f"  A|bob|{int(3 * 3600 * factor)}" in shown.stdout.splitlines()
