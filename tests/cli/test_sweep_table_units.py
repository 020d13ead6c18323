"""``fs sweep``'s table names the unit of its waits: ``WaitMean(s)`` and ``WaitP95(s)``,
seconds from submit to first start, as ``wait_mean`` and ``wait_p95`` hold them in json
(docs/sweep.md). The headers said ``WaitMean`` and ``WaitP95`` over ``1968`` and ``7200``:
seconds, minutes or cycles, the table did not say."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_configs"


def test_the_wait_columns_say_seconds(tmp_path: Path, run: Callable[..., Any]) -> None:
    spec = tmp_path / "two.toml"
    spec.write_text(
        f'config = "{SAMPLE / "pool.toml"}"\n'
        f'workload = "{SAMPLE / "workload.json"}"\n'
        f'state = "{SAMPLE / "sample-state.json"}"\n'
        'now = "2026-11-21T12:00:00Z"\nuntil = "6:00:00"\ncycle = 600\n'
        '[[axis]]\nkey = "accountant.priority_halflife"\nvalues = [3600, 86400]\n',
        encoding="utf-8",
    )
    out = tmp_path / "two.sweep"
    result = run("sweep", str(spec), "--out", str(out), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    table = run("sweep", "collect", str(out)).stdout.splitlines()
    assert table[0].split() == [
        "Index", "accountant.priority_halflife", "ShareError", "Jain",
        "WaitMean(s)", "WaitP95(s)", "Utilization", "Finished",
    ]  # fmt: skip
    points = json.loads(run("sweep", "collect", str(out), "--json").stdout)
    # the cells are the json's seconds, rounded to whole seconds
    first = table[1].split()
    assert first[4] == f"{points[0]['wait_mean']:.0f}"
    assert first[5] == f"{points[0]['wait_p95']:.0f}"
