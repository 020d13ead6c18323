"""``fs simulate --scheduler slurm`` charges a job its partition's billing
(``TRESBillingWeights``), as ``_apply_new_usage`` charges ``billable_tres``.

Two users of one account, one share each, run one CPU each for the whole run; u1's job
also holds 3072 MB. Under ``billing_weights = "CPU=1.0,Mem=1G"`` it bills 1 + 3 = 4 to
u2's 1, so at every pass after they start u1 holds 4/5 of the usage. Classic fair share
by hand (``priority_p_set_assoc_usage``, ``_get_fairshare_priority``): account a holds all
of root's usage (UE 1); a user's effective usage is ``U + (UE_a − U) · 1/2``: u1 0.8 +
0.1 = 0.9, u2 0.2 + 0.4 = 0.6; its factor ``2^(−UE/S)`` with S = 1/2: 2^−1.8 and 2^−1.2.
Without weights both bill 1 CPU: UE 0.75 each, 2^−1.5.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

POOL = """
[pool]
defaults = "current"
[[machines]]
name = "n"
count = 1
slots = 1
attributes = { Cpus = 8 }
partitions = ["batch"]
[priority]
fairshare = "classic"
decay_halflife = "1:00:00"
calc_period = "1"
[partitions.batch]
default = true
"""
ACCOUNTS = """
[accounts.a]
shares = 1
users = { u1 = 1, u2 = 1 }
"""
WORKLOAD = [
    {"id": "1", "owner": "u1", "account": "a", "partition": "batch", "request_cpus": 1,
     "request_memory": 3072, "run_time": 3600, "submit_time": "2026-11-21T12:00:00Z"},
    {"id": "2", "owner": "u2", "account": "a", "partition": "batch", "request_cpus": 1,
     "run_time": 3600, "submit_time": "2026-11-21T12:00:00Z"},
]  # fmt: skip


@pytest.mark.parametrize(
    ("weights", "u1", "u2"),
    [
        pytest.param('billing_weights = "CPU=1.0,Mem=1G"\n', 2**-1.8, 2**-1.2, id="weights"),
        pytest.param("", 2**-1.5, 2**-1.5, id="cpus"),
    ],
)
def test_the_fair_share_follows_the_billing(
    tmp_path: Path, run: Callable[..., Any], weights: str, u1: float, u2: float
) -> None:
    (tmp_path / "pool.toml").write_text(POOL + weights + ACCOUNTS)
    (tmp_path / "work.json").write_text(json.dumps(WORKLOAD))
    res = run(
        "simulate", "--workload", str(tmp_path / "work.json"), "--until", "30:00",
        "--cycle", "600", "--scheduler", "slurm", "--series", "--json",
        "--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json"),
        "--now", "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    rows = [r for r in json.loads(res.stdout) if r["kind"] == "slurm_user"]
    later = {
        (r["time"], r["name"]): r["fairshare"] for r in rows if r["time"] > "2026-11-21T12:00:00Z"
    }
    assert len(later) == 6
    for (_, name), factor in later.items():
        assert factor == pytest.approx(u1 if name == "u1" else u2, rel=1e-9)
