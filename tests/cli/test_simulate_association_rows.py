"""fs simulate (HTCondor cycles) counts each Slurm user association's own CPUs.

Under ``--scheduler htcondor`` the ``slurm_user`` rows show the fair share each user
association would have and the CPUs its running jobs hold. A user in two accounts has a
row per association, ``user (account)``; each row counts the jobs that name its account,
as the ``--scheduler slurm`` rows do (``of_association``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., Any]

CONFIG = """
[pool]
uid_domain = "example.org"
[[machines]]
name = "exec"
count = 6
slots = 1
attributes = { Cpus = 1, Memory = 4096 }
partitions = ["batch"]
[partitions.batch]
default = true
[qos.normal]
priority = 0
[accounts.hep]
shares = 1
users = { alice = 1 }
[accounts.astro]
shares = 1
users = { alice = 1, bob = 1 }
"""

WORKLOAD = [
    {"id": "1.0", "owner": "alice", "account": "hep", "run_time": 3600},
    {"id": "2.0", "count": 2, "owner": "alice", "account": "astro", "run_time": 3600},
    {"id": "3.0", "owner": "bob", "account": "astro", "run_time": 3600},
]


def test_a_user_in_two_accounts_holds_each_associations_cpus(tmp_path: Path, run: Run) -> None:
    """Derived by hand: six 1-CPU slots, four 1-CPU jobs, so the first cycle starts all
    four. alice's job 1.0 names hep and her two 2.x jobs astro: ``alice (hep)`` holds 1
    CPU and ``alice (astro)`` 2 (before, both rows showed 0: the CPUs were counted under
    ``alice``, a name no row has); bob, in one account, holds his 1."""
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "work.json").write_text(json.dumps(WORKLOAD), encoding="utf-8")
    res = run(
        "simulate", "--workload", str(tmp_path / "work.json"), "--until", "60",
        "--cycle", "60", "--json", "--config", str(tmp_path / "pool.toml"),
        "--state", str(tmp_path / "state.json"), "--now", "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    first = [r for r in json.loads(res.stdout) if r["time"] == "2026-11-21T12:00:00Z"]
    slots = {r["name"]: r["slots"] for r in first if r["kind"] == "slurm_user"}
    assert slots == {"alice (astro)": 2.0, "alice (hep)": 1.0, "bob": 1.0}
    pool = next(r for r in first if r["kind"] == "pool")
    assert pool["slots"] == 4.0
