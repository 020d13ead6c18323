"""``fs taskqueues`` on three pools built to reach DIRAC's unusual branches.

Every expected number is derived by hand from DIRAC 9.1.22's ``TaskQueueDB.py``, not from
``fs``: ``fitCPUTimeToSegments`` (the first segment at least the CPU time, the last one
above them all), ``__hackJobPriority`` (0 -> 1e-5, stored in a FLOAT as 9.99999974737875e-06;
10 -> 1e6), ``recalculateTQSharesForEntity`` (a JobSharing group is one entity, any other
splits its share evenly over its owners), ``calculate_priority`` (``max(share/T · a,
0.001)`` with ``a`` a queue's average RealPriority and ``T`` their sum, a queue averaging at
most 0.1 at 0.001 and out of ``T`` when the group allows background queues; then the sum
over queues equal but for Sites and BannedSites) and ``Priority=%.4f`` into a FLOAT, read
back with six significant digits; with correction, ``BaseHistoryCorrector.applyCorrection``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"


def job(n: int, owner: str, group: str, prio: int = 1, **req: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {"id": f"{n}.0", "owner": owner, "dirac_group": group}
    obj["user_priority"] = prio
    if req:
        obj["dirac_requirements"] = req
    return obj


def fs_taskqueues(
    run: Callable[..., Any],
    cfg: Path,
    tmp_path: Path,
    jobs: list[dict[str, Any]],
    *more: str,
) -> Any:
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs), encoding="utf-8")
    return run(
        "taskqueues", "--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW,
        "--jobs-file", str(path), *more, env={"COLUMNS": "200"},
    )  # fmt: skip


def test_one_owner_in_three_groups_a_zero_share_and_lists_in_any_order(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """``ga`` (600) splits over alice and bob, 300 each. alice's two jobs name the same
    sites and tags in another order: one queue, average (1 + 3)/2 = 2, so 300/2 · 2 = 300.
    bob's 360 s job sits on the segment 360, his 361 s job on 1800: two queues, averages
    1e6 and 1, T = 1000001; 300/T · 1e6 = 299.9997 (stored 299.9997, read back 300) and
    300/T = 0.0003, floored to 0.001. ``gb`` (0): 0 for each owner, 0.001 for each queue.
    ``gc`` (300, JobSharing) is one entity: alice's priority-0 queue (9.99999974737875e-06),
    carol's priority-10 queue at 1800 s (1e6) and her one at 1800 s at S3 (1);
    T = 1000001.00001: 0.001 for alice's, carol's 299.99970 and 0.0003 -> 0.001, which
    differ only in Sites, so each gets their sum 300.0007 (read back 300.001)."""
    cfg = write_config(
        "[dirac.groups.ga]\njob_share = 600\n[dirac.groups.gb]\njob_share = 0\n"
        "[dirac.groups.gc]\njob_share = 300\njob_sharing = true\n"
    )
    jobs = [
        job(1, "alice", "ga", 1, cpu_time=3600, sites=["S1", "S2"], tags=["T1", "T2"]),
        job(2, "alice", "ga", 3, cpu_time=3600, sites=["S2", "S1"], tags=["T2", "T1"]),
        job(3, "alice", "gb", 5),
        job(4, "alice", "gc", 0),
        job(5, "bob", "ga", 10, cpu_time=360),
        job(6, "bob", "ga", 1, cpu_time=361),
        job(7, "bob", "gb", 1),
        job(8, "carol", "gc", 10, cpu_time=1800),
        job(9, "carol", "gc", 1, cpu_time=1800, sites=["S3"]),
    ]
    result = fs_taskqueues(run, cfg, tmp_path, jobs)
    assert result.exit_code == 0, result.stderr
    assert [line.rstrip() for line in result.stdout.splitlines()] == [
        "TQId  Owner  Group  CPUTime  Sites  BannedSites  Platforms  JobTypes  Tags   Jobs"
        "  Priority  Share%  Correction  First%",
        "   1  alice  ga        3600  S1,S2  -            -          -         T1,T2     2"
        "  300.0000  25.000      1.0000  25.000",
        "   2  alice  gb       86400  -      -            -          -         -         1"
        "    0.0010   0.000      1.0000   0.000",
        "   3  alice  gc       86400  -      -            -          -         -         1"
        "    0.0010   0.000      1.0000   0.000",
        "   4  bob    ga         360  -      -            -          -         -         1"
        "  300.0000  25.000      1.0000  25.000",
        "   5  bob    ga        1800  -      -            -          -         -         1"
        "    0.0010   0.000      1.0000   0.000",
        "   6  bob    gb       86400  -      -            -          -         -         1"
        "    0.0010   0.000      1.0000   0.000",
        "   7  carol  gc        1800  -      -            -          -         -         1"
        "  300.0010  25.000      1.0000  25.000",
        "   8  carol  gc        1800  S3     -            -          -         -         1"
        "  300.0010  25.000      1.0000  25.000",
    ]
    assert result.stderr == ""


def test_background_queues_and_cpu_times_at_segment_edges(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """Segments 360, 3600, 86400, 259200; both groups allow background queues.

    ``bg`` (1000) gives alice and bob 500 each. alice: at 3600 s ten priority-0 jobs and a
    priority-1 one average (1 + 10 · 9.99999974737875e-06)/11 = 0.0909, background (0.001);
    at 3601 s (segment 86400) nine and one average 0.100009, not background; at 300000 s
    (above the last segment: 259200) priorities 10 and 2 average 500001; at 259200 s exactly
    on el9, 4. T = 500005.100009: 500/T · 0.100009 = 0.0001 -> 0.001, 500/T · 500001 =
    499.9959 (read back 499.996), 500/T · 4 = 0.0040. bob's one queue of priority-0 jobs is
    background: T = 0, no division, 0.001. ``js`` (700, JobSharing): dave's priority-0 queue
    is background; T = 1e6 + 5 + 5: carol 700/T · 1e6 = 699.993, erin's two 361 s queues
    (segment 3600) 0.0035 each, equal but for Sites and BannedSites, so 0.0070 each."""
    cfg = write_config(
        "[dirac]\ncpu_segments = [360, 3600, 86400, 259200]\n"
        "[dirac.groups.bg]\njob_share = 1000\nallow_background_tqs = true\n"
        "[dirac.groups.js]\njob_share = 700\njob_sharing = true\nallow_background_tqs = true\n"
    )
    jobs = [
        {**job(1, "alice", "bg", 0, cpu_time=3600), "count": 10},
        job(2, "alice", "bg", 1, cpu_time=3600),
        {**job(3, "alice", "bg", 0, cpu_time=3601), "count": 9},
        job(4, "alice", "bg", 1, cpu_time=3601),
        job(5, "alice", "bg", 10, cpu_time=300000),
        job(6, "alice", "bg", 2, cpu_time=300000),
        job(7, "alice", "bg", 4, cpu_time=259200, platform="el9"),
        {**job(8, "bob", "bg", 0, cpu_time=100), "count": 3},
        job(9, "carol", "js", 10, cpu_time=360),
        job(10, "dave", "js", 0, cpu_time=360),
        job(11, "erin", "js", 5, cpu_time=361, sites=["S1"]),
        job(12, "erin", "js", 5, cpu_time=361, sites=["S2"], banned_sites=["S3"]),
    ]
    result = fs_taskqueues(run, cfg, tmp_path, jobs, "--json")
    assert result.exit_code == 0, result.stderr
    rows = [
        (r["owner"], r["requirements"]["cpu_time"], r["jobs"], r["priority"])
        for r in json.loads(result.stdout)
    ]
    assert rows == [
        ("alice", 3600, 11, 0.001),
        ("alice", 86400, 10, 0.001),
        ("alice", 259200, 2, 499.996),
        ("alice", 259200, 1, 0.004),
        ("bob", 360, 3, 0.001),
        ("carol", 360, 1, 699.993),
        ("dave", 360, 1, 0.001),
        ("erin", 3600, 1, 0.007),
        ("erin", 3600, 1, 0.007),
    ]


def test_correction_between_groups_and_between_the_owners_of_one(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """Shares 1000 (gx), 500 (gy, JobSharing), 0 (gz), 200 (gw): normalised over 1700.

    Running jobs over the last day: gx 2 + 1/24 (alice's two all day, bob's one for the last
    hour), gy 0.75 (dave's one for 18 hours), T = 2.791667; over the last hour gx 3, gy none.
    Day slice (weight 2/3, max 3): gx clamp((1000/1700)/(2.041667/T)) · 2/3 = 0.536212, gy
    clamp((500/1700)/(0.75/T)) · 2/3 = 0.729847, gz and gw absent: 3, unweighted. Hour slice
    (weight 1/3, max 2): gx (1000/1700)/1 = 0.588235 · 1/3 = 0.196078, the others absent: 2.
    Sums clamped to [1/4, 4]: gx 0.732293 (share 732.293), gy 2.729847 (1364.924), gz 4
    (0 · 4 = 0), gw 4 (800). gx splits over alice, bob and carol (244.098 each), then its
    in-group instance (by user name): day slice, alice 2 of 2.041667 running: clamp((1/3)/
    0.979592) = 0.340278; bob clamp(16.33) = 3; carol absent: 3. alice 244.098 · 0.340278 =
    83.0610 (factor 0.732293 · 0.340278 = 0.2492), bob and carol 732.2929 (2.1969, read back
    732.293). gy's two queues 682.4619 each (682.462); gz's 0.001; gina's 800."""
    cfg = write_config(
        "[dirac.groups.gx]\njob_share = 1000\n"
        "[dirac.groups.gy]\njob_share = 500\njob_sharing = true\n"
        "[dirac.groups.gz]\njob_share = 0\n[dirac.groups.gw]\njob_share = 200\n"
        '[dirac.correction]\nenabled = true\nin_group_history = "user"\n'
        'history_report = "average"\n'
        '[[dirac.correction.instances]]\nname = "Groups"\nmax_global_correction = 4\n'
        "slices = [ { time_span = 86400, weight = 2, max_correction = 3 },\n"
        "           { time_span = 3600, weight = 1, max_correction = 2 } ]\n"
        '[[dirac.correction.instances]]\nname = "InGx"\ngroup = "gx"\n'
        "slices = [ { time_span = 86400, weight = 1, max_correction = 3 } ]\n"
    )
    history = tmp_path / "history.csv"
    history.write_text(
        "owner,dirac_group,start,end,slots\n"
        "alice,gx,2026-11-20T00:00:00Z,,2\n"
        "bob,gx,2026-11-21T11:00:00Z,,1\n"
        "dave,gy,2026-11-20T12:00:00Z,2026-11-21T06:00:00Z,1\n",
        encoding="utf-8",
    )
    state = str(tmp_path / "s.json")
    imported = run(
        "import", "history", str(history), "--config", str(cfg), "--state", state, "--now", NOW
    )
    assert imported.exit_code == 0, imported.stderr
    jobs = [
        job(1, "alice", "gx"),
        job(2, "bob", "gx"),
        job(3, "carol", "gx"),
        job(4, "dave", "gy"),
        job(5, "erin", "gy", tags=["GPU"]),
        job(6, "frank", "gz"),
        job(7, "alice", "gz"),
        job(8, "gina", "gw"),
    ]
    result = fs_taskqueues(run, cfg, tmp_path, jobs)
    assert result.exit_code == 0, result.stderr
    assert [line.rstrip() for line in result.stdout.splitlines()] == [
        "TQId  Owner  Group  CPUTime  Sites  BannedSites  Platforms  JobTypes  Tags  Jobs"
        "  Priority  Share%  Correction  First%",
        "   1  alice  gx       86400  -      -            -          -         -        1"
        "   83.0610   2.237      0.2492   1.905",
        "   2  bob    gx       86400  -      -            -          -         -        1"
        "  732.2930  19.725      2.1969  19.805",
        "   3  carol  gx       86400  -      -            -          -         -        1"
        "  732.2930  19.725      2.1969  19.805",
        "   4  dave   gy       86400  -      -            -          -         -        1"
        "  682.4620  18.382      2.7298  18.159",
        "   5  erin   gy       86400  -      -            -          -         GPU      1"
        "  682.4620  18.382      2.7298  18.159",
        "   6  frank  gz       86400  -      -            -          -         -        1"
        "    0.0010   0.000      4.0000   0.000",
        "   7  alice  gz       86400  -      -            -          -         -        1"
        "    0.0010   0.000      4.0000   0.000",
        "   8  gina   gw       86400  -      -            -          -         -        1"
        "  800.0000  21.548      4.0000  22.167",
    ]
