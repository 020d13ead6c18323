"""The association Priority factor, weighted by PriorityWeightAssoc.

Rules (Slurm 22.05): an association without a Priority takes its parent's when slurmdbd
reads the tree (``_cluster_get_assocs``: ``priority = row ? row : parent_prio``); the
factor is priority / the largest association priority (``_set_assoc_norm_priority``), or
the priority itself with ``PriorityFlags=NO_NORMAL_ASSOC``; the job reads its user
association's (``set_priority_factors``).

Here a has 10, its user u2 40, b (under a) none -> 10, c none -> 0: the largest is 40, so
u1 0.25, u2 1, u3 0.25, u4 0; × PriorityWeightAssoc 1000 = 250, 1000, 250, 0 (and a job
with every factor 0 gets priority 1, Slurm's floor). Without normalisation: 10000,
40000, 10000.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONFIG = """[pool]
defaults = "current"
[priority]
calc_period = "1"
{flags}
[priority.weights]
assoc = 1000
[[machines]]
name = "n"
attributes = {{ Cpus = 4 }}
[partitions.batch]
default = true
[accounts.a]
priority = 10
users = {{ u1 = 1, u2 = 1 }}
user_priority = {{ u2 = 40 }}
[accounts.b]
parent = "a"
users = {{ u3 = 1 }}
[accounts.c]
users = {{ u4 = 1 }}
"""
JOBS = [
    {"id": "1", "owner": "u1", "account": "a"},
    {"id": "2", "owner": "u2", "account": "a"},
    {"id": "3", "owner": "u3", "account": "b"},
    {"id": "4", "owner": "u4", "account": "c"},
]


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        pytest.param("", {"1": 250, "2": 1000, "3": 250, "4": 1}, id="normalised"),
        pytest.param(
            'flags = ["NO_NORMAL_ASSOC"]',
            {"1": 10000, "2": 40000, "3": 10000, "4": 1},
            id="no-normal-assoc",
        ),
    ],
)
def test_assoc_factor(
    tmp_path: Path, run: Callable[..., Any], flags: str, expected: dict[str, int]
) -> None:
    cfg = tmp_path / "pool.toml"
    cfg.write_text(CONFIG.format(flags=flags))
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps(JOBS))
    res = run(
        "sprio",
        "--json",
        "--config",
        str(cfg),
        "--state",
        str(tmp_path / "s.json"),
        "--jobs-file",
        str(jobs),
        "--now",
        "2026-11-21T00:00:00Z",
    )
    assert res.exit_code == 0, res.stderr
    assert {r["job_id"]: r["priority"] for r in json.loads(res.stdout)} == expected


def test_sacctmgr_priority_column_becomes_config(tmp_path: Path, run: Callable[..., Any]) -> None:
    listing = tmp_path / "assoc.txt"
    listing.write_text(
        "Account|User|Share|Priority|ParentName\nroot||1||\na||1|10|root\na|u1|1||\na|u2|1|40|\n"
    )
    cfg = tmp_path / "pool.toml"
    res = run("import", "sacctmgr", str(listing), "--into", str(cfg))
    assert res.exit_code == 0, res.stderr
    text = cfg.read_text()
    assert "priority = 10\n" in text
    assert "user_priority = {u2 = 40}" in text


def test_user_priority_needs_the_user(tmp_path: Path, run: Callable[..., Any]) -> None:
    cfg = tmp_path / "pool.toml"
    cfg.write_text("[accounts.a]\nusers = { u1 = 1 }\nuser_priority = { u9 = 3 }\n")
    res = run("config", "check", "--config", str(cfg))
    assert res.exit_code == 2
    assert 'accounts.a.user_priority.u9: "u9" is not in users' in res.stderr
