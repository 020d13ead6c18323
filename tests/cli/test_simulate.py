"""fs simulate: cycles forward in time, hand-checked on a four-slot pool."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
CONFIG = """
[pool]
uid_domain = "d"
[[machines]]
name = "m"
count = 1
slots = 4
"""
WORKLOAD = [
    {"id": "1.0", "count": 4, "owner": "a", "run_time": 3600},
    {"id": "2.0", "count": 4, "owner": "b", "run_time": 3600},
]


@pytest.fixture
def args(tmp_path: Path, write_config: Callable[[str], Path]) -> list[str]:
    work = tmp_path / "w.json"
    work.write_text(json.dumps(WORKLOAD))
    return [
        "--config",
        str(write_config(CONFIG)),
        "--state",
        str(tmp_path / "s.json"),
        "--now",
        NOW,
        "--workload",
        str(work),
    ]


def test_two_users_share_four_slots(
    args: list[str], run: Callable[..., Any], tmp_path: Path
) -> None:
    result = run("simulate", *args, "--until", "2:00:00", "--cycle", "3600", "--json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    subs = [
        (r["time"], r["name"], r["slots"], r["effective_priority"])
        for r in rows
        if r["kind"] == "submitter"
    ]
    one_h = 2 - 1.5 * 0.5 ** (1 / 24)  # two slots for an hour from 0.5, half-life a day
    two_h = 2 - 1.5 * 0.5 ** (2 / 24)
    assert [(t, n, s) for t, n, s, _ in subs] == [
        ("2026-11-21T12:00:00Z", "a@d", 2.0),
        ("2026-11-21T12:00:00Z", "b@d", 2.0),
        ("2026-11-21T13:00:00Z", "a@d", 2.0),
        ("2026-11-21T13:00:00Z", "b@d", 2.0),
        ("2026-11-21T14:00:00Z", "a@d", 0.0),
        ("2026-11-21T14:00:00Z", "b@d", 0.0),
    ]
    assert [e for *_, e in subs] == pytest.approx([0.5, 0.5, one_h, one_h, two_h, two_h])
    assert set(rows[0]) == {
        "time",
        "kind",
        "name",
        "slots",
        "effective_priority",
        "quota",
        "fairshare",
    }
    assert not (tmp_path / "s.json").exists()  # nothing written


def test_table_and_bad_durations(args: list[str], run: Callable[..., Any]) -> None:
    result = run("simulate", *args, "--until", "1:00:00", "--cycle", "3600")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].split() == [
        "Time",
        "Kind",
        "Name",
        "Slots",
        "EffPrio",
        "Quota",
        "FairShare",
    ]
    for bad in (["--until", "1:2:3:4"], ["--cycle", "0"], ["--cycle", "-5"]):
        r = run("simulate", *args, *bad)
        assert r.exit_code == 2
        assert "Traceback" not in r.stderr


def test_plot(args: list[str], run: Callable[..., Any], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "sim.png"
    result = run("simulate", *args, "--until", "1:00:00", "--cycle", "1800", "--plot", str(png))
    assert result.exit_code == 0, result.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
