"""``fs whatif --set KEY=VALUE simulate --workload W``: both policies over one workload."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-20T00:00:00Z"
HALF = "2026-11-20T04:00:00Z"

CONFIG = """\
[pool]
name = "two"
uid_domain = "example.org"
local_domains = ["example.org"]
defaults = "current"

[accountant]
priority_halflife = 1800
default_prio_factor = 1
remote_prio_factor = 1

[[machines]]
name = "m"
count = 1
slots = 30
"""

WORKLOAD = [
    {"id": "1.0", "count": 100000, "owner": "alice", "run_time": 600},
    {"id": "2.0", "count": 100000, "owner": "bob@remote.org", "run_time": 600},
]

CHANGE = ["--set", "accountant.remote_prio_factor=4"]


@pytest.fixture
def pool(tmp_path: Path) -> list[str]:
    """Two always-busy users on 30 slots: alice local, bob from a remote domain (his
    factor is ``remote_prio_factor``, 1 in the config)."""
    config = tmp_path / "two.toml"
    config.write_text(CONFIG, encoding="utf-8")
    workload = tmp_path / "busy.json"
    workload.write_text(json.dumps(WORKLOAD), encoding="utf-8")
    return [
        "--workload", str(workload), "--config", str(config),
        "--state", str(tmp_path / "state.json"), "--now", NOW,
    ]  # fmt: skip


def _mean_slots(rows: list[dict[str, Any]], since: str) -> dict[tuple[str, str], float]:
    held: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        if r["kind"] == "submitter" and r["time"] >= since:
            held.setdefault((r["policy"], r["name"]), []).append(float(r["slots"]))
    return {k: sum(v) / len(v) for k, v in held.items()}


def test_factor_1_to_4_moves_the_long_run_share_from_1_1_to_2_1(
    pool: list[str], run: Callable[..., Any]
) -> None:
    """The square-root law (see tests/core/operations/test_simulate_laws.py): the pie gives
    submitter ``i`` a slice ``∝ 1/EUP_i``, ``EUP_i = RUP_i · f_i``, and in a steady state
    with both always busy ``RUP_i`` equals the slots held ``s_i``; so ``s_i ∝ 1/(s_i f_i)``,
    ``s_i ∝ 1/√f_i``. Before, both factors are 1: 1 : 1 (15 and 15 of 30 slots). After,
    bob's remote factor is 4: ``s_alice / s_bob = √4 = 2``, 2 : 1. Jobs of 10 minutes free
    a tenth of the pool each one-minute cycle; half-life 30 min; the means over the second
    half of 8 hours are compared within 2%.
    """
    result = run("whatif", *CHANGE, "simulate", "--until", "8:00:00", "--output", "csv", *pool)
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert {r["policy"] for r in rows} == {"before", "after"}
    mean = _mean_slots(rows, HALF)
    assert mean["before", "alice@example.org"] == pytest.approx(15, rel=0.02)
    assert mean["before", "bob@remote.org"] == pytest.approx(15, rel=0.02)
    a, b = mean["after", "alice@example.org"], mean["after", "bob@remote.org"]
    assert a / b == pytest.approx(2.0, rel=0.02)
    assert a / (a + b) == pytest.approx(2 / 3, rel=0.02)


def test_before_is_plain_simulate_and_json_rows_carry_the_policy(
    pool: list[str], run: Callable[..., Any]
) -> None:
    """The before series is exactly ``fs simulate``'s under the current config; the after
    series differs (bob's effective priority is 4x his real one); json and ndjson agree."""
    args = ["--until", "1:00:00", "--cycle", "600", *pool]
    doc = json.loads(run("whatif", *CHANGE, "simulate", *args, "--json").stdout)
    plain = json.loads(run("simulate", *args, "--json").stdout)
    before = [{k: v for k, v in r.items() if k != "policy"} for r in doc if r["policy"] == "before"]
    after = [r for r in doc if r["policy"] == "after"]
    assert next(iter(doc[0])) == "policy"
    assert before == plain
    assert len(after) == len(plain)
    first_bob = next(r for r in after if r["name"] == "bob@remote.org")
    assert first_bob["effective_priority"] == 4 * 0.5  # a new record: RUP 0.5 x factor 4
    lines = run("whatif", *CHANGE, "simulate", *args, "--output", "ndjson").stdout.splitlines()
    assert [json.loads(line) for line in lines] == doc


def test_table_tags_rows_and_plot_overlays(
    pool: list[str], run: Callable[..., Any], tmp_path: Path
) -> None:
    args = ["--until", "1:00:00", "--cycle", "1800", *pool]
    summed = run("whatif", *CHANGE, "simulate", *args).stdout.splitlines()
    assert summed[2].split()[:2] == ["Policy", "Kind"]
    tags = [line.split()[0] for line in summed[3:]]
    assert tags == sorted(tags, key=lambda t: t != "before")  # before's lines, then after's
    assert set(tags) == {"before", "after"} and tags.count("before") == tags.count("after")
    result = run("whatif", *CHANGE, "simulate", *args, "--series")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert (
        lines[0]
        == "fs simulate with accountant.remote_prio_factor=4: before (current config), then after"
    )
    assert lines[1].split()[:3] == ["Policy", "Time", "Kind"]
    assert lines[2].split()[:4] == ["before", NOW, "submitter", "alice@example.org"]
    assert lines[-1].split()[:4] == ["after", "2026-11-20T01:00:00Z", "pool", "pool"]
    pytest.importorskip("matplotlib")
    png = tmp_path / "both.png"
    drawn = run("whatif", *CHANGE, "simulate", *args, "--plot", str(png))
    assert drawn.exit_code == 0, drawn.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "before solid, after dashed" in drawn.stderr


def test_terminal_chart_has_a_line_per_policy() -> None:
    from fairshare_cli.core.operations.sim_row import SimRow
    from fairshare_cli.render.sim_chart import spark_chart

    def rows(a: float, b: float) -> list[SimRow]:
        return [
            SimRow(0.0, "submitter", "a", a),
            SimRow(0.0, "submitter", "b", b),
            SimRow(0.0, "pool", "pool", a + b, capacity=8),
        ]

    chart = spark_chart(rows(4, 4), after=rows(8, 0))
    assert chart.splitlines() == [
        "slots held over time (a full bar is 8):",
        "a before |▄| 4",
        "a after  |█| 8",
        "b before |▄| 4",
        "b after  | | 0",
    ]


def test_bad_simulate_options_are_one_line_errors(pool: list[str], run: Callable[..., Any]) -> None:
    result = run("whatif", *CHANGE, "simulate", "--cycle", "0", *pool)
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0 and "--cycle" in result.stderr


def test_a_changed_interval_says_each_runs_cycles(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs whatif --set negotiator.interval=300 simulate --workload w.json --until 300``:
    the line over the table said "6 cycles", the before run's, while the after run's
    means were over its own 2; it now names each run's.

    By hand (one slot; alice's one job of 120 s queued at 12:00): before, at 60 s cycles
    (12:00 ... 12:05), she holds the slot at 12:00 and 12:01 and her end is seen at 12:02:
    a mean of 2/6 = 0.33; after, at 12:00 and 12:05, she holds it at 12:00 alone: 1/2 =
    0.50."""
    config = tmp_path / "pool.toml"
    config.write_text(
        '[pool]\nuid_domain = "d"\ndefaults = "current"\n[[machines]]\nname = "m"\n',
        encoding="utf-8",
    )
    work = tmp_path / "w.json"
    work.write_text(json.dumps([{"id": "1.0", "owner": "alice", "run_time": 120}]))
    result = run(
        *("whatif", "--set", "negotiator.interval=300", "simulate", "--workload", str(work)),
        *("--until", "300", "--config", str(config), "--state", str(tmp_path / "s.json")),
        *("--now", "2026-11-21T12:00:00Z"),
    )
    assert result.exit_code == 0, result.stderr
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert lines[1] == (
        "before: 6 cycles from 2026-11-21T12:00:00Z to 2026-11-21T12:05:00Z; after: 2 cycles "
        "from 2026-11-21T12:00:00Z to 2026-11-21T12:05:00Z; means are over each run's cycles "
        "(--series prints every cycle)"
    )
    means = {line.split()[0]: line.split()[3] for line in lines if "alice@d" in line}
    assert means == {"before": "0.33", "after": "0.50"}
