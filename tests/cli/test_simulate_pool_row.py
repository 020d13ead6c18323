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
