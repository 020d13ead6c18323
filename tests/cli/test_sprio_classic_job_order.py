"""``fs sprio -l`` and ``fs sshare -a -l`` under classic fair share while a job runs: a user
whose first pending job comes before the running job in slurmctld's job list (job id
order) gets the usage the decay pass gave it there, before that job's charge
(``_decay_thread`` -> ``_get_fairshare_priority``, Slurm 22.05), as a real 22.05 showed
(tests/fixtures/slurm-22.05-local, ``cl2_running``).

The cluster of tests/core/slurm/test_tree_usage_job_order.py, the numbers worked out
there: root -> A (u1, u2), B (u3), one share each; u1 and u3 600 each at the pass T0,
u2's 4-CPU job 5 running from T0; the pass T1 = T0 + 60 weighs u1's pending job 3 before
it charges job 5: u1's usage is 1/2 of root's, effective 1/2, share 1/4, factor
2^(-2) = 0.25, FAIRSHARE 10000 x 0.25 = 2500 (after the charge it would be
2^(-11/6) = 0.280616, 2806). u3's job 7 comes after it: 2^(-(1/2)/(1/2)) = 0.5, 5000.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

T0 = 1_795_303_140  # 2026-11-21T23:19:00Z, a decay pass
NOW = "2026-11-21T23:20:25Z"  # T1 + 25

CONFIG = """[pool]
defaults = "current"
[priority]
fairshare = "classic"
decay_halflife = "10:00"
calc_period = "1"
output_compat = "22.05"
[priority.weights]
fairshare = 10000
[partitions.batch]
default = true
[[machines]]
name = "n1"
attributes = { Cpus = 8, Memory = 1000 }
[accounts.A]
shares = 1
users = { u1 = 1, u2 = 1 }
[accounts.B]
shares = 1
users = { u3 = 1 }
"""


def _pool(tmp_path: Path) -> list[str]:
    (tmp_path / "pool.toml").write_text(CONFIG)
    state = {
        "format": "fairshare-cli state",
        "schema_version": 1,
        "slurm": {
            "last_decay_ran": T0,
            "usage": {"A": {"u1": 600.0, "u2": 0.0}, "B": {"u3": 600.0}},
            "running": [
                {"account": "A", "user": "u2", "rate": 4.0, "start": T0, "end": None, "job": "5"}
            ],
        },
        "jobs": [
            {"id": "3", "owner": "u1", "account": "A", "submit_time": T0 - 30},
            {"id": "5", "owner": "u2", "account": "A", "status": "running", "start_time": T0},
            {"id": "7", "owner": "u3", "account": "B", "submit_time": T0 - 30},
        ],
    }
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    return ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]


def test_sprio_weighs_a_job_before_the_running_ones_charge(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    res = run("sprio", "-l", *_pool(tmp_path), "--now", NOW)
    assert res.exit_code == 0, res.stderr
    rows = {line.split()[0]: line.split() for line in res.stdout.splitlines()[1:]}
    assert rows["3"][3] == "2500" and rows["3"][7] == "2500"  # PRIORITY, FAIRSHARE
    assert rows["7"][7] == "5000"


def test_sshare_prints_the_usage_the_pass_computed(tmp_path: Path, run: Callable[..., Any]) -> None:
    """u1's row: NormUsage 0.500000 (600q over 1200q), EffectvUsage 0.500000, FairShare
    0.250000; u2 (no pending job) as after the pass: 240q/1440q = 0.166667."""
    res = run("sshare", "-a", "-l", "-P", *_pool(tmp_path), "--now", NOW)
    assert res.exit_code == 0, res.stderr
    rows = {
        (line.split("|")[0].strip(), line.split("|")[1]): line.split("|")
        for line in res.stdout.splitlines()
    }
    assert rows[("A", "u1")][5:8] == ["0.500000", "0.500000", "0.250000"]
    assert rows[("A", "u2")][5] == "0.166667"
