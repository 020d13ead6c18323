"""``fs submit --dirac-group`` then ``fs taskqueues``: every requirement kind, by hand.

The queues and priorities below are derived by hand from DIRAC's code, not from ``fs``:
``TaskQueueDB.fitCPUTimeToSegments`` (the first default segment at or above the CPU time:
360, 1800, 3600, 21600, 43200, 86400, 172800, 259200, 345600, 518400, ...),
``__hackJobPriority`` (0 -> 1e-5, 10 -> 1e6), ``JobScheduling`` (a banned site is taken
out of the sites), ``JobModel`` (CPU time 100 to 500000, priority 0 to 10),
``recalculateTQSharesForEntity`` and ``calculate_priority`` (average RealPriority per queue,
``max(share / T × a, 0.001)``, then the sum over queues equal but for Sites and
BannedSites), stored with ``%.4f`` into a FLOAT read back with six digits.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
CONFIG = """
[dirac.groups.g1]
job_share = 1000
[dirac.groups.g2]
job_share = 2000
job_sharing = true
"""
#: (group, owner, dirac_requirements, user_priority) per submitted job, in order.
SUBMITTED: list[tuple[str, str, dict[str, Any], int]] = [
    ("g1", "alice", {"cpu_time": 359}, 1),
    ("g1", "alice", {"cpu_time": 360}, 1),
    ("g1", "alice", {"cpu_time": 361}, 1),
    ("g1", "alice", {"cpu_time": 345600}, 1),
    ("g1", "alice", {"cpu_time": 345601}, 1),
    ("g1", "alice", {"cpu_time": 500000}, 0),
    (
        "g1",
        "bob",
        {"cpu_time": 3600, "sites": ["A.a.ch", "B.b.ch"], "banned_sites": ["B.b.ch"]},
        10,
    ),
    ("g1", "bob", {"cpu_time": 3600, "sites": ["C.c.ch"]}, 10),
    (
        "g1",
        "bob",
        {
            "cpu_time": 3600,
            "platform": "x86_64-el9",
            "tags": "GPU, MultiProcessor",
            "job_type": "User",
        },
        5,
    ),
    ("g2", "carol", {"cpu_time": 86400}, 1),
    ("g2", "dave", {"cpu_time": 86401}, 3),
]


@pytest.fixture
def common(write_config: Callable[..., Path], tmp_path: Path) -> list[str]:
    cfg = write_config(CONFIG)
    return ["--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW]


def submit(
    run: Callable[..., Any], common: list[str], group: str, owner: str, req: Any, prio: int
) -> Any:
    return run(
        "submit", *common, "--dirac-group", group, "--owner", owner,
        "--set", f"dirac_requirements={json.dumps(req)}", "--set", f"user_priority={prio}",
    )  # fmt: skip


def test_every_requirement_kind(run: Callable[..., Any], common: list[str]) -> None:
    """g1 (1000, not JobSharing) splits 500 to alice and 500 to bob.

    alice: 359 and 360 -> segment 360 (one queue, average 1); 361 -> 1800; 345600 -> 345600;
    345601 and 500000 (priority 0) -> 518400, average (1 + 1e-5) / 2 = 0.500005.
    T = 3.500005: 500 / T = 142.856939 for each average-1 queue, × 0.500005 = 71.429184.
    bob: two priority-10 queues (1e6) differing only in sites ({A} with B banned, {C}) and a
    priority-5 queue with a platform, a job type and two tags; T = 2000005:
    500 / T × 1e6 = 249.999375 each, summed over the two: 499.99875 ('%.4f' 499.9988, read
    back 499.999); 500 / T × 5 = 0.00125 (above the floor 0.001; '%.4f' 0.0012).
    g2 (2000, JobSharing) is one entity: carol 86400 -> 86400 (1), dave 86401 -> 172800 (3):
    T = 4, 500 and 1500.
    """
    for group, owner, req, prio in SUBMITTED:
        result = submit(run, common, group, owner, req, prio)
        assert result.exit_code == 0, result.stderr
    result = run("taskqueues", *common, "--json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    got = [
        (
            r["owner"], r["group"], r["requirements"]["cpu_time"], r["requirements"]["sites"],
            r["requirements"]["banned_sites"], r["requirements"]["platforms"],
            r["requirements"]["job_types"], r["requirements"]["tags"], r["jobs"], r["priority"],
        )
        for r in rows
    ]  # fmt: skip
    assert got == [
        ("alice", "g1", 360, [], [], [], [], [], 2, 142.857),
        ("alice", "g1", 1800, [], [], [], [], [], 1, 142.857),
        ("alice", "g1", 345600, [], [], [], [], [], 1, 142.857),
        ("alice", "g1", 518400, [], [], [], [], [], 2, 71.4292),
        ("bob", "g1", 3600, ["A.a.ch"], ["B.b.ch"], [], [], [], 1, 499.999),
        ("bob", "g1", 3600, ["C.c.ch"], [], [], [], [], 1, 499.999),
        ("bob", "g1", 3600, [], [], ["x86_64-el9"], ["User"], ["GPU", "MultiProcessor"], 1,
         0.0012),
        ("carol", "g2", 86400, [], [], [], [], [], 1, 500.0),
        ("dave", "g2", 172800, [], [], [], [], [], 1, 1500.0),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("req", "prio", "message"),
    [
        pytest.param(
            {"cpu_time": 99}, 1,
            "dirac_requirements.cpu_time: 99: DIRAC's JobManager refuses the job (cpuTime out "
            "of bounds (must be between 100 and 500000))",
            id="cpu-99",
        ),
        pytest.param(
            {"cpu_time": 500001}, 1,
            "dirac_requirements.cpu_time: 500001: DIRAC's JobManager refuses the job (cpuTime "
            "out of bounds (must be between 100 and 500000))",
            id="cpu-500001",
        ),
        pytest.param(
            {"cpu_time": 3600}, 11,
            "user_priority: 11: DIRAC's JobManager refuses the job (priority out of bounds "
            "(must be between 0 and 10))",
            id="prio-11",
        ),
        pytest.param(
            {"cpu_time": 3600}, -1,
            "user_priority: -1: DIRAC's JobManager refuses the job (priority out of bounds "
            "(must be between 0 and 10))",
            id="prio-minus-1",
        ),
    ],
)  # fmt: skip
def test_one_past_each_bound_is_refused(
    run: Callable[..., Any], common: list[str], req: dict[str, Any], prio: int, message: str
) -> None:
    """One past JobModel's bounds: exit 2, one line, nothing written."""
    result = submit(run, common, "g1", "alice", req, prio)
    assert result.exit_code == 2
    assert result.stderr == f"fs: error: fs submit: job 1: {message}\n"
    result = run("taskqueues", *common, "--json")
    assert json.loads(result.stdout) == []
