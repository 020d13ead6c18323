"""Synthetic DIRAC workloads for ``fs taskqueues`` benchmarks.

    python benchmarks/make_dirac_jobs.py --jobs 1000000 --queues 5000 --out /tmp/dirac

writes ``/tmp/dirac/jobs.json`` (a jobs file of full job objects), ``/tmp/dirac/pool.toml``
(three DIRAC groups, share correction on) and ``/tmp/dirac/history.csv`` (a week of running
jobs for the correction). Deterministic (seeded). Every queue is a distinct definition
(owner × CPU segment); jobs of all queues are interleaved in the file (the harder case for
grouping: no two neighbours share a queue), or with ``--clustered`` come queue after queue,
as bulk submissions do.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

SEGMENTS = (360, 1800, 3600, 21600, 43200, 86400, 172800, 259200, 345600, 518400)
MIN_CPU_TIME, MAX_CPU_TIME = 100, 500000
"""The CPU times DIRAC's JobManager takes (``JobModel.py``'s default bounds)."""
SITES = [f"LCG.Site{i:02d}.org" for i in range(20)]
PLATFORMS = ["x86_64-el9", "x86_64-el8", "aarch64-el9"]
JOB_TYPES = ["User", "MCSimulation", "Reconstruction", "Merge"]
NOW = "2026-11-21T12:00:00Z"

CONFIG = """# Benchmark pool for fs taskqueues (written by benchmarks/make_dirac_jobs.py).
[dirac.groups.lhcb_user]
job_share = 1000
[dirac.groups.lhcb_prod]
job_share = 4000
job_sharing = true
[dirac.groups.lhcb_mc]
job_share = 2500
allow_background_tqs = true

[dirac.correction]
enabled = true
[[dirac.correction.instances]]
name = "GroupsInstance"
max_global_correction = 3
slices = [ { time_span = 604800, weight = 80, max_correction = 2 },
           { time_span = 3600, weight = 20, max_correction = 5 } ]
"""


def owner_group(owner: int, owners: int) -> str:
    """Most owners are analysis users; a tenth production, a tenth simulation."""
    if owner < owners * 8 // 10:
        return "lhcb_user"
    if owner < owners * 9 // 10:
        return "lhcb_prod"
    return "lhcb_mc"


def queue_definitions(queues: int, rng: random.Random) -> list[dict[str, object]]:
    """One requirement set per queue: owner q mod O, CPU segment q div O (all distinct)."""
    owners = max(queues // len(SEGMENTS), 1)
    out = []
    for q in range(queues):
        owner = q % owners
        segment = (q // owners) % len(SEGMENTS)
        low = max(SEGMENTS[segment - 1] + 1 if segment else 1, MIN_CPU_TIME)
        high = min(SEGMENTS[segment], MAX_CPU_TIME)
        req: dict[str, object] = {
            "cpu_times": sorted({rng.randint(low, high) for _ in range(3)}),
            "platform": rng.choice(PLATFORMS),
            "job_type": rng.choice(JOB_TYPES),
        }
        if rng.random() < 0.4:
            req["sites"] = sorted(rng.sample(SITES, rng.randint(1, 3)))
        if rng.random() < 0.1:
            banned = rng.choice(SITES)
            if req.get("sites") == [banned]:  # (DIRAC stops a job whose every site is banned)
                banned = SITES[(SITES.index(banned) + 1) % len(SITES)]
            req["banned_sites"] = [banned]
        if rng.random() < 0.2:
            req["tags"] = ["MultiProcessor"]
        out.append({"owner": f"user{owner:04d}", "group": owner_group(owner, owners), **req})
    return out


def jobs(n: int, queues: int, seed: int, clustered: bool = False) -> list[dict[str, object]]:
    """``n`` idle jobs spread over ``queues`` definitions, interleaved (or one queue's jobs
    after another's with ``clustered``, as bulk submissions arrive)."""
    rng = random.Random(seed)
    defs = queue_definitions(queues, rng)
    out = []
    for i in range(n):
        d = defs[(i * queues) // n if clustered else i % queues]
        req: dict[str, object] = {"cpu_time": rng.choice(d["cpu_times"])}  # type: ignore[arg-type]
        for key in ("sites", "banned_sites", "platform", "job_type", "tags"):
            if key in d:
                req[key] = d[key]
        out.append(
            {
                "id": f"{1000 + i // 100}.{i % 100}",
                "owner": d["owner"],
                "dirac_group": d["group"],
                "status": "idle",
                "submit_time": NOW,
                "user_priority": rng.choice((1, 1, 1, 2, 3, 5, 10, 0)),
                "dirac_requirements": req,
            }
        )
    return out


def history(queues: int) -> str:
    """A week of running jobs per group: enough for both correction slices."""
    lines = ["owner,dirac_group,start,end,slots"]
    lines.append("user0000,lhcb_user,2026-11-14T12:00:00Z,,300")
    lines.append("prod,lhcb_prod,2026-11-14T12:00:00Z,2026-11-21T11:00:00Z,900")
    lines.append("sim,lhcb_mc,2026-11-20T00:00:00Z,,200")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=1_000_000)
    parser.add_argument("--queues", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="/tmp/fs-dirac-bench")
    parser.add_argument(
        "--clustered", action="store_true", help="each queue's jobs together, not interleaved"
    )
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "jobs.json", "w", encoding="utf-8") as fh:
        json.dump(jobs(args.jobs, args.queues, args.seed, args.clustered), fh)
    (out / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (out / "history.csv").write_text(history(args.queues), encoding="utf-8")
    print(f"wrote {args.jobs} jobs in {args.queues} queues to {out}")


if __name__ == "__main__":
    main()
