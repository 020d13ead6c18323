"""What DIRAC 9.1's TaskQueueDB holds that ``fs`` refused or merged wrongly.

Every expected number is derived by hand from ``TaskQueueDB.py`` (DIRAC 9.1.22):
``insertJob`` (``int(jobPriority)``), ``__hackJobPriority`` (clamp to [0.001, 10], bottom
1e-5, top 1e6), ``__findSmallestTaskQueue`` (``Owner = %s`` under MariaDB's case-insensitive
collation; the RAM row matched exactly, 0/0 meaning no row), ``recalculateTQSharesForEntity``
(``GROUP BY Owner``, the share split evenly), ``calculate_priority`` (``max(share/T·a,
0.001)``, then the sum over queues equal once ``Sites``, ``BannedSites``, ``MinRAM`` and
``MaxRAM`` are dropped, compared as Python strings) and ``Priority=%.4f`` into a FLOAT.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.float32 import float32

NOW = "2026-11-21T12:00:00Z"
CONFIG = """
[dirac.groups.user]
job_share = 1000
[dirac.groups.prod]
job_share = 1000
job_sharing = true
"""


def job(
    n: int, owner: str = "alice", group: str = "user", prio: float = 1, **req: Any
) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "id": f"{n}.0",
        "owner": owner,
        "dirac_group": group,
        "user_priority": prio,
    }
    obj["dirac_requirements"] = {"cpu_time": 3600, **req}
    return obj


@pytest.fixture
def queues(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> Callable[..., list[dict[str, Any]]]:
    """Run ``fs taskqueues --json`` over jobs and return the rows."""

    def go(jobs: list[dict[str, Any]], config: str = CONFIG) -> list[dict[str, Any]]:
        cfg = write_config(config)
        path = tmp_path / "jobs.json"
        path.write_text(json.dumps(jobs), encoding="utf-8")
        args = ["--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW]
        result = run("taskqueues", *args, "--jobs-file", str(path), "--json")
        assert result.exit_code == 0, result.stderr
        rows: list[dict[str, Any]] = json.loads(result.stdout)
        return rows

    return go


def test_grid_ces_and_ram_are_queue_keys(
    queues: Callable[..., list[dict[str, Any]]],
) -> None:
    """GridCEs and the RAM range split queues; only GridCEs keep them apart in the grouping.

    Five queues of alice (share 1000, every job priority 1 so every average is 1, T = 5):
    [ce1], [ce2], RAM 2000-4000, RAM 2000-0 and no requirement (which the 0/0 job joins).
    Each gets 1000/5 = 200; the last three differ only in MinRAM/MaxRAM (priorityIgnoredFields)
    so each gets their sum 600; the GridCEs queues stay apart at 200.
    """
    rows = queues([
        job(1, grid_ces=["ce1.cern.ch"]),
        job(2, grid_ces=["ce2.cern.ch"]),
        job(3, min_ram=2000, max_ram=4000),
        job(4, min_ram=2000),
        job(5),
        job(6, min_ram=0, max_ram=0),
    ])  # fmt: skip
    got = [
        (r["requirements"]["grid_ces"], r["requirements"]["min_ram"],
         r["requirements"]["max_ram"], r["jobs"], r["priority"])
        for r in rows
    ]  # fmt: skip
    assert got == [
        (["ce1.cern.ch"], 0, 0, 1, 200.0),
        (["ce2.cern.ch"], 0, 0, 1, 200.0),
        ([], 2000, 4000, 1, 600.0),
        ([], 2000, 0, 1, 600.0),
        ([], 0, 0, 2, 600.0),
    ]


def test_table_shows_the_new_columns_only_when_used(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    cfg = write_config(CONFIG)
    path = tmp_path / "jobs.json"
    args = ["taskqueues", "--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW,
            "--jobs-file", str(path)]  # fmt: skip
    path.write_text(json.dumps([job(1)]), encoding="utf-8")
    plain = run(*args).stdout.splitlines()[0]
    assert "GridCEs" not in plain
    assert "RAM" not in plain
    path.write_text(json.dumps([job(1, grid_ces="ce1"), job(2, min_ram=1024)]), encoding="utf-8")
    lines = [line.split() for line in run(*args).stdout.splitlines()]
    head = lines[0]
    assert head[head.index("BannedSites") + 1] == "GridCEs"
    assert head[head.index("Tags") + 1 : head.index("Tags") + 3] == ["MinRAM", "MaxRAM"]
    assert lines[1][head.index("GridCEs")] == "ce1"
    assert lines[2][head.index("MinRAM")] == "1024"


def test_the_largest_ram_the_column_holds_is_a_queue(
    queues: Callable[..., list[dict[str, Any]]],
) -> None:
    """4294967295 (2**32 - 1) is the most ``INTEGER UNSIGNED`` holds: DIRAC stores it."""
    rows = queues([job(1, min_ram=4294967295, max_ram=4294967295)])
    req = rows[0]["requirements"]
    assert (req["min_ram"], req["max_ram"]) == (4294967295, 4294967295)


@pytest.mark.parametrize(
    ("req", "message"),
    [
        pytest.param({"min_ram": 5000, "max_ram": 4000},
                     "min_ram 5000 is above max_ram 4000; DIRAC refuses the job", id="min-above-max"),
        pytest.param({"min_ram": -1}, "dirac_requirements.min_ram: expected a whole number of MB "
                     "(0 or more), got -1", id="negative"),
        pytest.param({"max_ram": 2.5}, "dirac_requirements.max_ram: expected a whole number of MB",
                     id="float"),
        pytest.param({"grid_ces": [3]}, "dirac_requirements.grid_ces: expected names", id="ce"),
        # tq_RAM_requirements.MinRAM/MaxRAM are INTEGER UNSIGNED (at most 2**32 - 1 =
        # 4294967295): MariaDB's strict mode refuses 4294967296, so __createTaskQueue fails.
        # Before, fs showed a queue with MinRAM 4294967296.
        pytest.param({"min_ram": 4294967296}, "dirac_requirements.min_ram: 4294967296: "
                     "MariaDB refuses it for tq_RAM_requirements.MinRAM (INTEGER UNSIGNED, at "
                     "most 4294967295), so DIRAC cannot queue the job", id="min-ram-over-column"),
        pytest.param({"max_ram": 2**32}, "tq_RAM_requirements.MaxRAM (INTEGER UNSIGNED",
                     id="max-ram-over-column"),
        # NaN and Infinity (which Python's json reads and writes): the file's reader wrote
        # them back as null, so fs taskqueues showed a queue at the default 86400 s (or no
        # RAM); fs submit refused the same job. Now both refuse it.
        pytest.param({"cpu_time": float("nan")}, "dirac_requirements.cpu_time: NaN is not a "
                     "whole number of seconds", id="cpu-time-nan"),
        pytest.param({"cpu_time": float("inf")}, "dirac_requirements.cpu_time: Infinity is not a "
                     "whole number of seconds", id="cpu-time-infinity"),
        pytest.param({"min_ram": float("nan")}, "dirac_requirements.min_ram: expected a whole "
                     "number of MB (0 or more), got NaN", id="min-ram-nan"),
        pytest.param({"sites": ["LCG.CERN.cern", float("-inf")]}, "dirac_requirements.sites",
                     id="site-minus-infinity"),
        # tq_TQToSites.Value is VARCHAR(64): MariaDB's strict mode refuses 65 characters
        pytest.param({"sites": ["LCG.CERN.cern", "S" * 65]}, "dirac_requirements.sites: 65 "
                     "characters, more than TaskQueueDB's VARCHAR(64) holds; DIRAC refuses "
                     "the job", id="long-site"),
        # tq_TQToTags' key (TQId, Value) compares without case: 'GPU' and 'gpu' collide
        pytest.param({"tags": ["GPU", "gpu"]}, "dirac_requirements.tags: names that differ "
                     "only in case or accents are one value in TaskQueueDB",
                     id="tags-in-two-cases"),
    ],
)  # fmt: skip
def test_bad_requirements(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path,
    req: dict[str, Any], message: str,
) -> None:  # fmt: skip
    cfg = write_config(CONFIG)
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps([job(1), job(2, **req)]), encoding="utf-8")
    result = run("taskqueues", "--config", str(cfg), "--jobs-file", str(path), "--now", NOW)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"fs: error: {path}: job 2.0: ")
    assert message in result.stderr


def test_an_owner_longer_than_the_owner_column_is_refused(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """``tq_TaskQueues.Owner`` is VARCHAR(255): DIRAC cannot make the task queue of a
    256-character owner (MariaDB's strict mode refuses the row), so fs refuses the job too;
    255 characters fit."""
    cfg = write_config(CONFIG)
    path = tmp_path / "jobs.json"
    args = ["taskqueues", "--config", str(cfg), "--jobs-file", str(path), "--now", NOW]
    path.write_text(json.dumps([job(1, owner="o" * 255)]), encoding="utf-8")
    assert run(*args).exit_code == 0
    path.write_text(json.dumps([job(1), job(2, owner="o" * 256)]), encoding="utf-8")
    result = run(*args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"fs: error: {path}: job 2.0: ")
    assert "owner: 256 characters, more than TaskQueueDB's VARCHAR(255) holds" in result.stderr


def test_job_priorities_at_both_ends(queues: Callable[..., list[dict[str, Any]]]) -> None:
    """``__hackJobPriority``: 0 -> RealPriority 1e-5, 3 and 9 kept, 10 (the top) -> 1e6.

    alice's first queue averages a = (1e-5 + 3 + 9) / 3 (RealPriority read back from a
    FLOAT), her second holds one priority-10 job, RealPriority 1e6. T = a + 1e6; the first
    gets max(1000·a/T, 0.001) = 0.0040 (stored to 4 decimals), the second 1000·1e6/T =
    999.9960.
    """
    rows = queues([
        job(1, prio=0), job(2, prio=3), job(3, prio=9), job(4, prio=10, cpu_time=86400),
    ])  # fmt: skip
    a = (float32(1e-5) + 3 + 9) / 3
    total = a + 1e6
    assert 1000 * a / total == pytest.approx(0.0040000, abs=5e-8)
    assert [r["priority"] for r in rows] == [
        float(f"{1000 * a / total:.4f}"),
        float(f"{1000 * 1e6 / total:.4f}"),
    ]
    assert [r["priority"] for r in rows] == [0.004, 999.996]


def test_non_positive_shares_floor_every_queue(
    queues: Callable[..., list[dict[str, Any]]],
) -> None:
    """JobShare -5 (user) and 0 (prod, JobSharing), read as is by ``getGroupShares``.

    user: -5 split over alice and bob (-2.5 each): max(-2.5/T·a, 0.001) = 0.001 per queue.
    prod: 0: both queues 0.001, then summed because they differ only in their sites: 0.002.
    """
    config = CONFIG.replace("job_share = 1000\n[dirac.groups.prod]\njob_share = 1000",
                            "job_share = -5\n[dirac.groups.prod]\njob_share = 0")  # fmt: skip
    rows = queues(
        [job(1), job(2, owner="bob"), job(3, owner="p", group="prod", sites=["A"]),
         job(4, owner="p", group="prod", sites=["B"])],
        config,
    )  # fmt: skip
    assert [r["priority"] for r in rows] == [0.001, 0.001, 0.002, 0.002]


def test_owner_case_and_negative_priorities(
    queues: Callable[..., list[dict[str, Any]]],
) -> None:
    """Owners compared without case in MariaDB, with case in ``calculate_priority``'s hash.

    'Alice' makes queue 1 (cpu 3600, site S1); 'alice' with the same requirements joins it;
    'alice' at site S2 makes queue 2; 'ALICE' at 86400 s makes queue 3; bob has queue 4.
    ``GROUP BY Owner`` sees two owners: 500 each. alice's three queues average 1 (T = 3):
    1000/6 each; queues 1 and 2 differ only in sites, but their Owner texts differ ('Alice'
    and 'alice'), so Python's grouping keeps them apart: no sum. Bob: one queue, 500.
    bob's priority 0 is RealPriority 1e-5, and with bob's other job (priority 1) his one
    queue averages (1 + 1e-5)/2; alone, it still gets 500.
    """
    rows = queues([
        job(1, owner="Alice", sites=["S1"]),
        job(2, owner="alice", sites=["S1"]),
        job(3, owner="alice", sites=["S2"]),
        job(4, owner="ALICE", cpu_time=86400),
        job(5, owner="bob", prio=0),
        job(6, owner="bob"),
    ])  # fmt: skip
    third = 166.667  # 1000/6 stored as 166.6667, read back with six digits
    assert [(r["owner"], r["jobs"], r["priority"]) for r in rows] == [
        ("Alice", 2, pytest.approx(third, rel=1e-7)),
        ("alice", 1, pytest.approx(third, rel=1e-7)),
        ("ALICE", 1, pytest.approx(third, rel=1e-7)),
        ("bob", 2, 500.0),
    ]


def test_group_case_and_requirement_case(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """``OwnerGroup`` and the ``tq_TQTo*`` values are compared without case too (utf8mb4
    columns, ``utf8mb4_general_ci``). alice in 'user' makes queue 1; alice in 'User' at
    site 'LCG.CERN.cern' makes queue 2, which her job at 'lcg.cern.CERN' in 'USER' joins;
    bob in 'USER' makes queue 3; carol is in 'prod'. ``SELECT DISTINCT(OwnerGroup)`` sees
    one group, spelled as queue 1 (first in the TQOwner index: alice, 3600 s, id 1): 'user',
    the configured share 1000, which ``GROUP BY Owner`` splits 500/500. alice's queues
    differ in sites and in their group text (Python's grouping): 250 each. fs made 'User'
    and 'USER' groups of their own, with the default share 1000 each, and warned."""
    cfg = write_config(CONFIG)
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps([
        job(1, group="user"),
        job(2, group="User", sites=["LCG.CERN.cern"]),
        job(3, group="USER", sites=["lcg.cern.CERN"]),
        job(4, owner="bob", group="USER"),
        job(5, owner="carol", group="prod"),
    ]), encoding="utf-8")  # fmt: skip
    result = run("taskqueues", "--config", str(cfg), "--jobs-file", str(path), "--now", NOW,
                 "--json")  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "")
    rows = json.loads(result.stdout)
    assert [(r["owner"], r["group"], r["jobs"], r["priority"]) for r in rows] == [
        ("alice", "user", 1, 250.0),
        ("alice", "User", 2, 250.0),
        ("bob", "USER", 1, 500.0),
        ("carol", "prod", 1, 1000.0),
    ]


def test_priority_zero_against_another_queue(
    queues: Callable[..., list[dict[str, Any]]],
) -> None:
    """alice: queue A holds one priority-0 job (RealPriority 1e-5), queue B one priority 1.

    T = 1e-5 + 1: A = max(1000·1e-5/T, 0.001) = 0.0100 (4 decimals), B = 1000/T = 999.9900.
    """
    rows = queues([job(1, prio=0), job(2, cpu_time=86400)])
    low = float32(1e-5)
    assert [r["priority"] for r in rows] == [
        float(f"{1000 * low / (1 + low):.4f}"),
        float(f"{1000 / (1 + low):.4f}"),
    ]
    assert [r["priority"] for r in rows] == [0.01, 999.99]


def test_priority_is_read_back_with_mariadb_six_digits(
    queues: Callable[..., list[dict[str, Any]]],
) -> None:
    """MariaDB sends a FLOAT column with six significant digits, whatever ``%.4f`` stored.

    alice's three queues get 1000/3 each: stored ``333.3333`` (float32 333.33331298828125),
    read back by ``retrieveTaskQueues`` as ``333.333``.
    The first-try chances use the single-precision value SQL sorts by: 1/3 each.
    """
    rows = queues([job(1), job(2, cpu_time=86400), job(3, cpu_time=360)])
    assert [r["priority"] for r in rows] == [333.333, 333.333, 333.333]
    assert [r["p_first"] for r in rows] == [pytest.approx(1 / 3)] * 3


def test_table_shows_the_read_back_priority(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """``fs taskqueues`` prints 4 decimals of what DIRAC reads: 146.6667 becomes 146.6670."""
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps([job(1), job(2, cpu_time=86400), job(3, cpu_time=360)]))
    args = ["--config", str(write_config(CONFIG)), "--state", str(tmp_path / "s.json")]
    result = run("taskqueues", *args, "--now", NOW, "--jobs-file", str(path))
    assert result.exit_code == 0, result.stderr
    assert [line.split()[-4] for line in result.stdout.splitlines()[1:]] == ["333.3330"] * 3


def test_the_single_precision_value_decides_the_six_digits_read_back(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """``tq_TaskQueues.Priority`` is a ``FLOAT``: what DIRAC reads back is the single-precision
    value of the ``%.4f`` text, sent with six significant digits, not the text rounded.

    By hand: ops (JobSharing ``prod``, 1000) has a queue of one priority-6 job and one of a
    priority-7 job, weights 6 and 7, T = 13: 6000/13 = 461.538461... stored as ``461.5385``,
    whose float32 is 461.53851318359375, read back as 461.539 (the double 461.5385 is a
    little below and would give 461.538); 7000/13 = 538.461538... stored as ``538.4615``,
    float32 538.46148681640625, read back as 538.461 (not 538.462). Share% 461.539/1000 and
    538.461/1000. First%: SQL sorts the float32 values, so the larger comes first with
    1 - 461.53851318359375 / (2 · 538.46148681640625) = 57.143 %. (Checked on MariaDB
    10.11: a FLOAT column set to '461.5385' and '538.4615' selects as 461.539 and 538.461.)
    """
    path = tmp_path / "jobs.json"
    jobs = [job(1, "ops", "prod", prio=6), job(2, "ops", "prod", prio=7, cpu_time=86400)]
    path.write_text(json.dumps(jobs), encoding="utf-8")
    args = ["--config", str(write_config(CONFIG)), "--state", str(tmp_path / "s.json")]
    result = run("taskqueues", *args, "--now", NOW, "--jobs-file", str(path))
    assert result.exit_code == 0, result.stderr
    assert [line.split()[-5:] for line in result.stdout.splitlines()[1:]] == [
        ["1", "461.5390", "46.154", "1.0000", "42.857"],
        ["1", "538.4610", "53.846", "1.0000", "57.143"],
    ]
    result = run("taskqueues", *args, "--now", NOW, "--jobs-file", str(path), "--json")
    rows = json.loads(result.stdout)
    assert [r["priority"] for r in rows] == [461.539, 538.461]
    high, low = float32(538.4615), float32(461.5385)
    assert [r["p_first"] for r in rows] == pytest.approx([low / (2 * high), 1 - low / (2 * high)])


@pytest.mark.parametrize(
    ("prio", "shown"),
    [
        pytest.param(-1, "user_priority: -1: DIRAC's JobManager refuses the job (priority "
                     "out of bounds (must be between 0 and 10))", id="minus-one"),
        pytest.param(11, "user_priority: 11: DIRAC's JobManager refuses the job (priority "
                     "out of bounds (must be between 0 and 10))", id="eleven"),
        pytest.param(2**32, "user_priority: 4294967296: DIRAC's JobManager refuses the job "
                     "(priority out of bounds (must be between 0 and 10))", id="above-unsigned"),
        pytest.param(3.7, "user_priority: 3.7 is not a whole number; DIRAC reads a job's "
                     "Priority as an integer and its JobManager refuses the job (Invalid JDL)",
                     id="fraction"),
        pytest.param(-0.5, "user_priority: -0.5 is not a whole number; DIRAC reads a job's "
                     "Priority as an integer and its JobManager refuses the job (Invalid JDL)",
                     id="minus-half"),
    ],
)  # fmt: skip
def test_a_priority_jobmanager_refuses_is_refused(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path,
    prio: float, shown: str,
) -> None:  # fmt: skip
    """DIRAC's JobManager validates the description (``JobModel.checkPriorityBounds``,
    ``JobDescription/MinPriority`` 0 and ``MaxPriority`` 10 by default) before any task
    queue: a priority outside 0 to 10, or one ``int()`` cannot read from the JDL's text
    (``ClassAd.getAttributeInt``: 3.7 gives None, which the model refuses), never reaches
    TaskQueueDB. 0 and 10 are taken. fs used to count 3.7 as 3 and 11 as 10."""
    path = tmp_path / "jobs.json"
    args = ["taskqueues", "--config", str(write_config(CONFIG)), "--jobs-file", str(path),
            "--now", NOW]  # fmt: skip
    path.write_text(json.dumps([job(1, prio=0), job(2, prio=10.0)]), encoding="utf-8")
    assert run(*args).exit_code == 0
    path.write_text(json.dumps([job(1), job(2, prio=prio)]), encoding="utf-8")
    result = run(*args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {path}: job 2.0: {shown}\n"


def test_a_priority_on_a_rounding_boundary_rounds_as_dirac_adds(
    queues: Callable[..., list[dict[str, Any]]],
) -> None:
    """One owner of a JobSharing group of share 250, four queues (CPU times 360, 1800, 3600,
    21600) with job priorities (3, 7, 5), (6), (1, 3, 3) and (8): weights 5, 6, 7/3, 8.

    Exactly, T = 64/3 and the first queue gets 250·5·3/64 = 58.59375, the third 27.34375:
    both on a boundary of ``%.4f``. DIRAC's ``sum`` (Python 3.11, left to right) gives T =
    21.333333333333336, a little above 64/3, so they are 58.5937 and 27.3437 (a
    compensated sum, Python 3.12's, gives 21.333333333333332 and 58.5938, 27.3438). Read
    back as stored (six digits): 58.5937, 70.3125, 27.3437, 93.75.
    """
    config = CONFIG.replace(
        "job_share = 1000\njob_sharing = true", "job_share = 250\njob_sharing = true"
    )
    jobs = [
        job(1, "p", "prod", prio=3, cpu_time=360), job(2, "p", "prod", prio=7, cpu_time=360),
        job(3, "p", "prod", prio=5, cpu_time=360), job(4, "p", "prod", prio=6, cpu_time=1800),
        job(5, "p", "prod", prio=1, cpu_time=3600), job(6, "p", "prod", prio=3, cpu_time=3600),
        job(7, "p", "prod", prio=3, cpu_time=3600), job(8, "p", "prod", prio=8, cpu_time=21600),
    ]  # fmt: skip
    rows = queues(jobs, config)
    assert [r["priority"] for r in rows] == [58.5937, 70.3125, 27.3437, 93.75]


def test_names_are_read_as_the_job_manifest_reads_a_list(
    queues: Callable[..., list[dict[str, Any]]],
) -> None:
    """JobScheduling writes the requirements into the job manifest (a CFG) and
    ``JobState.insertIntoTQ`` reads each back with ``getOption(name, [])``: diraccfg's
    ``List.fromChar`` splits at commas, strips each piece and drops empty ones. So
    ``"GPU, MultiProcessor"`` is the two tags of job 1, ``"GPU "`` is ``GPU``, and the sites
    string is the two sites of job 4. Before, fs made four queues of one job each, 250 apiece.

    Two queues of alice (share 1000, every job priority 1, averages 1 and 1, T = 2): each
    1000/2 = 500; they differ in Tags, so no grouping.
    """
    rows = queues([
        job(1, tags=["GPU", "MultiProcessor"]),
        job(2, tags="GPU, MultiProcessor"),
        job(3, tags=["GPU "], sites="LCG.CERN.cern, LCG.CNAF.it"),
        job(4, tags=["GPU", " "], sites=["LCG.CNAF.it", "LCG.CERN.cern"]),
    ])  # fmt: skip
    got = [(r["requirements"]["tags"], r["requirements"]["sites"], r["jobs"], r["priority"])
           for r in rows]  # fmt: skip
    assert got == [
        (["GPU", "MultiProcessor"], [], 2, 500.0),
        (["GPU"], ["LCG.CERN.cern", "LCG.CNAF.it"], 2, 500.0),
    ]
