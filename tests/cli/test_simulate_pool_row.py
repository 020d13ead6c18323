"""``fs simulate``'s pool row with partitionable slots: in use and capacity in one unit."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
CONFIG = """
[pool]
uid_domain = "d"
[[machines]]
name = "p"
count = 2
partitionable = true
attributes = { Cpus = 4, Memory = 8192 }
"""


def test_a_pool_filled_by_four_cpu_jobs_is_in_full_use(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Two 4-CPU partitionable slots, each taken whole by a 4-CPU job: the pool row said
    2 in use of a capacity of 8 (dynamic slots against CPUs), a pool a quarter used; it
    counts CPUs on both sides: 8 of 8."""
    work = tmp_path / "w.json"
    work.write_text(json.dumps([{"id": "1.0", "count": 2, "owner": "a", "request_cpus": 4}]))
    result = run(
        *("simulate", "--config", str(write_config(CONFIG)), "--state", str(tmp_path / "s")),
        *("--now", NOW, "--workload", str(work), "--until", "600", "--cycle", "600", "--json"),
    )
    assert result.exit_code == 0, result.stderr
    pool = [(r["slots"], r["capacity"]) for r in json.loads(result.stdout) if r["kind"] == "pool"]
    assert pool == [(8.0, 8.0), (8.0, 8.0)]


def test_the_slurm_pool_row_counts_capacity_as_a_number_of_the_same_type(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """With ``--scheduler slurm`` the pool row's capacity is the nodes' CPUs: two nodes of
    4 CPUs, 8. It was the integer ``8`` where every other figure (and HTCondor's pool
    row) is a float (``8.0``), so a script reading both schedulers' JSON or CSV saw two
    types for one field; it is ``8.0`` now, in JSON and CSV alike."""
    config = CONFIG.replace("partitionable = true\n", 'partitions = ["batch"]\n')
    config += "[partitions.batch]\ndefault = true\n[accounts.a]\nshares = 1\nusers = { a = 1 }\n"
    work = tmp_path / "w.json"
    work.write_text(json.dumps([{"id": "1.0", "owner": "a", "account": "a", "run_time": 60}]))
    args = ["--config", str(write_config(config)), "--state", str(tmp_path / "s"), "--now", NOW]
    args += ["--workload", str(work), "--until", "60", "--cycle", "60", "--scheduler", "slurm"]
    result = run("simulate", *args, "--json")
    assert result.exit_code == 0, result.stderr
    pool = [r["capacity"] for r in json.loads(result.stdout) if r["kind"] == "pool"]
    assert pool == [8.0, 8.0]
    assert all(type(c) is float for c in pool)
    csv = run("simulate", *args, "--output", "csv").stdout.splitlines()
    assert csv[-1].endswith(",pool,pool,0.0,,,,0,8.0"), csv[-1]
