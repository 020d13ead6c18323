"""Time ``fs simulate`` at pool scale.

    python benchmarks/bench_simulate.py             # both cases
    python benchmarks/bench_simulate.py --case busy # one case
    python benchmarks/bench_simulate.py --scale 0.1 # a tenth of each size

Cases (seeded, so every run simulates the same pool):

* ``busy``: three always-busy users with priority factors 1, 4 and 16 on 1,000 slots,
  200,000 queued jobs each (three ``count`` objects), jobs of 5 to 20 minutes, 300
  one-minute cycles. Target: under 60 s.
* ``week``: seven simulated days of a 10,000-slot pool with one-minute cycles and 100,000
  jobs: 40 users submit clusters (1 to 2,000 jobs, heavy-tailed) at random times, more by
  day than by night; run times are log-normal (median 40 minutes, a long tail of
  many-hour jobs). Target: under 5 minutes and 1 GB.
* ``backfill``: ``--scheduler slurm --backfill`` on 1,000 nodes of 16 CPUs, 20,000 jobs
  with time limits (1 to 12 hours) submitted over one simulated day by 20 users.
* ``busy-week``: seven days of one-minute cycles on 10,000 slots (1,000 machines x 10),
  100,000 jobs from 40 users in four accounting groups (dynamic quotas 0.4/0.3/0.2/0.1,
  ``accept_surplus``), log-normal run times with a median of 6 hours (about 60% of the
  week's capacity), submissions spread over the week, some as ``count`` batches.
  Target: <= 120 s and <= 1 GiB.
* ``busy-week-pslots``: the ``busy-week`` workload on 1,000 machines of one partitionable
  slot of 10 CPUs each (``Memory = 1280``: ten of the jobs' 128 MB dynamic slots, their
  ``RequestMemory`` of 0 quantized); each match carves a dynamic slot, the schedd claims
  the leftovers.
* ``month``: 30 days of a 50,000-slot pool, 1,000,000 jobs from 400 users in 20 nested
  groups (five parents of three subgroups, dynamic quotas, surplus), the same run-time law.
  Target: <= 10 min and <= 2 GiB.
* ``backfill-week``: ``--scheduler slurm --backfill``, 7 days of 2,000 nodes x 32 CPUs,
  200,000 jobs with time limits. Target: <= 5 min.

Each case runs the real command in a fresh interpreter (``--json`` to a file) and prints
wall time, CPU time, peak RSS of that process, simulated seconds per wall second and the
number of rows written. ``--horizon SECONDS`` (or ``H:M:S``) stops every case that early (the same
workload, fewer cycles): a short run to compare two trees with. ``--pool-scale 5`` runs
the same workload on five times the slots (a cycle's cost against the pool's size).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = 1795262400.0


def _fs(folder: Path, command: str, *args: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "fairshare_cli",
        command,
        "--config",
        str(folder / "pool.toml"),
        "--state",
        str(folder / "state.json"),
        "--now",
        NOW,
        *args,
    ]


#: Multiplies the slots of every HTCondor case's pool, not its workload (``--pool-scale``).
POOL_SCALE = [1.0]


def _pool(folder: Path, slots: int, partitionable: bool = False) -> None:
    """Machines of 10 CPUs: ten static slots each, or one partitionable slot."""
    machines = max(int(slots * POOL_SCALE[0]) // 10, 1)
    shape = (
        "partitionable = true\nattributes = { Cpus = 10, Memory = 1280 }\n"
        if partitionable
        else "slots = 10\n"
    )
    (folder / "pool.toml").write_text(
        '[pool]\nuid_domain = "d"\ndefaults = "current"\n'
        "[accountant]\npriority_halflife = 3600\n"
        f'[[machines]]\nname = "exec"\ncount = {machines}\n{shape}'
    )


def make_busy(folder: Path, scale: float) -> list[str]:
    """Three users, factors 1, 4, 16, on 1,000 slots; 200,000 queued jobs each."""
    rng = random.Random(13)
    slots = max(int(1000 * scale), 10)
    per_user = max(int(200_000 * scale), 100)
    _pool(folder, slots)
    work = []
    for k, (user, factor) in enumerate((("u1", 1), ("u4", 4), ("u16", 16))):
        subprocess.run(_fs(folder, "setfactor", f"{user}@d", str(factor)), check=True)
        # one count object per run time: the queue is a handful of batches
        left = per_user
        for m in range(4):
            count = left if m == 3 else left // 4
            left -= count
            run_time = rng.choice([300, 600, 900, 1200])
            work.append(
                {"id": f"{k * 10 + m + 1}.0", "count": count, "owner": user, "run_time": run_time}
            )
    (folder / "workload.json").write_text(json.dumps(work))
    return ["simulate", "--workload", str(folder / "workload.json"), "--until", "299:00"]


def make_week(folder: Path, scale: float) -> list[str]:
    """A 10,000-slot pool over seven days, 100,000 jobs in heavy-tailed clusters."""
    rng = random.Random(7)
    slots = max(int(10_000 * scale), 10)
    total = max(int(100_000 * scale), 100)
    _pool(folder, slots)
    users = [f"user{i:02d}" for i in range(40)]
    weights = [1.0 / (i + 1) for i in range(len(users))]  # a few heavy users, many light
    week = 7 * 86400.0
    work: list[dict[str, Any]] = []
    made = 0
    cluster = 0
    while made < total:
        cluster += 1
        count = min(int(math.exp(rng.uniform(0, math.log(2000)))), total - made)
        while True:  # more submissions by day (08-20 UTC) than by night
            at = rng.uniform(0, week)
            if 8 <= (at / 3600) % 24 < 20 or rng.random() < 0.3:
                break
        run_time = min(int(rng.lognormvariate(math.log(2400), 1.2)), 3 * 86400)
        user = rng.choices(users, weights)[0]
        work.append(
            {
                "id": f"{cluster}.0",
                "count": count,
                "owner": user,
                "submit_time": NOW_EPOCH + at,
                "run_time": max(run_time, 60),
            }
        )
        made += count
    (folder / "workload.json").write_text(json.dumps(work))
    return ["simulate", "--workload", str(folder / "workload.json"), "--until", "7-0"]


BACKFILL_POOL = """\
[pool]
uid_domain = "d"
[priority]
fairshare = "fair_tree"
decay_halflife = "7-0"
calc_period = "5"
[priority.weights]
age = 1000
fairshare = 10000
jobsize = 1000
[partitions.batch]
default = true
max_time = "2-0"
[[machines]]
name = "node"
count = {nodes}
slots = 16
attributes = {{ Cpus = 1 }}
partitions = ["batch"]
"""


def make_backfill(folder: Path, scale: float) -> list[str]:
    """Slurm mode with backfill: 1,000 nodes of 16 CPUs, 20,000 jobs with time limits
    submitted over a day by 20 users in 4 accounts (1 to 16 CPUs, limits of 1 to 12 hours,
    run times 30% to 100% of the limit: a little more work than the nodes can run); one
    simulated day."""
    rng = random.Random(17)
    nodes = max(int(1000 * scale), 4)
    total = max(int(20_000 * scale), 40)
    accounts = "".join(
        f"[accounts.a{a}]\nshares = {a + 1}\nusers = {{ "
        + ", ".join(f"u{a * 5 + k} = 1" for k in range(5))
        + " }\n"
        for a in range(4)
    )
    (folder / "pool.toml").write_text(BACKFILL_POOL.format(nodes=nodes) + accounts)
    work = []
    for i in range(total):
        limit = rng.randint(1, 12) * 3600
        user = rng.randrange(20)
        work.append(
            {
                "id": str(i + 1),
                "owner": f"u{user}",
                "account": f"a{user // 5}",
                "partition": "batch",
                "request_cpus": rng.choice([1, 1, 2, 4, 8, 16]),
                "time_limit": limit,
                "run_time": int(limit * rng.uniform(0.3, 1.0)),
                "submit_time": NOW_EPOCH + rng.uniform(0, 86400),
            }
        )
    (folder / "workload.json").write_text(json.dumps(work))
    return [
        "simulate", "--workload", str(folder / "workload.json"), "--until", "1-0",
        "--scheduler", "slurm", "--backfill",
    ]  # fmt: skip


def _lognormal_run_time(rng: random.Random) -> int:
    """A run time of the busy cases: log-normal, median 6 hours (mean about 10 hours),
    at least a minute, at most 3 days."""
    return max(min(int(rng.lognormvariate(math.log(6 * 3600), 1.0)), 3 * 86400), 60)


def _spread_clusters(
    rng: random.Random,
    total: int,
    horizon: float,
    users: list[tuple[str, str]],
    largest: int,
) -> list[dict[str, Any]]:
    """``total`` jobs in clusters submitted uniformly over ``horizon``: half the clusters
    one job, the rest ``count`` batches of 2 to ``largest`` (log-uniform); each from a
    random (user, accounting group) pair."""
    work: list[dict[str, Any]] = []
    made = 0
    cluster = 0
    while made < total:
        cluster += 1
        count = (
            1 if rng.random() < 0.5 else int(math.exp(rng.uniform(math.log(2), math.log(largest))))
        )
        count = min(count, total - made)
        user, group = rng.choice(users)
        work.append(
            {
                "id": f"{cluster}.0",
                "count": count,
                "owner": user,
                "accounting_group": f"{group}.{user}",
                "submit_time": NOW_EPOCH + rng.uniform(0, horizon),
                "run_time": _lognormal_run_time(rng),
            }
        )
        made += count
    return work


def make_busy_week(folder: Path, scale: float, partitionable: bool = False) -> list[str]:
    """10,000 slots, 100,000 jobs from 40 users in four groups, seven days."""
    rng = random.Random(23)
    slots = max(int(10_000 * scale), 10)
    total = max(int(100_000 * scale), 100)
    _pool(folder, slots, partitionable)
    quotas = (("group_a", 0.4), ("group_b", 0.3), ("group_c", 0.2), ("group_d", 0.1))
    with (folder / "pool.toml").open("a") as fh:
        fh.write("[negotiator]\naccept_surplus = true\n")
        for name, share in quotas:
            fh.write(f'[groups."{name}"]\ndynamic_quota = {share}\n')
    users = [(f"user{i:02d}", quotas[i % 4][0]) for i in range(40)]
    work = _spread_clusters(rng, total, 7 * 86400.0, users, 200)
    (folder / "workload.json").write_text(json.dumps(work))
    return ["simulate", "--workload", str(folder / "workload.json"), "--until", "7-0"]


def make_busy_week_pslots(folder: Path, scale: float) -> list[str]:
    """``busy-week`` on 1,000 partitionable slots of 10 CPUs."""
    return make_busy_week(folder, scale, partitionable=True)


def make_month(folder: Path, scale: float) -> list[str]:
    """50,000 slots, 1,000,000 jobs from 400 users in 20 nested groups, thirty days."""
    rng = random.Random(29)
    slots = max(int(50_000 * scale), 10)
    total = max(int(1_000_000 * scale), 100)
    _pool(folder, slots)
    parents = [
        (f"group_{p}", share) for p, share in zip("abcde", (0.3, 0.25, 0.2, 0.15, 0.1), strict=True)
    ]
    leaves: list[str] = []
    with (folder / "pool.toml").open("a") as fh:
        fh.write("[negotiator]\naccept_surplus = true\n")
        for name, share in parents:
            fh.write(f'[groups."{name}"]\ndynamic_quota = {share}\n')
            for sub, sub_share in (("x", 0.5), ("y", 0.3), ("z", 0.2)):
                fh.write(f'[groups."{name}.{sub}"]\ndynamic_quota = {sub_share}\n')
                leaves.append(f"{name}.{sub}")
    leaves += [name for name, _ in parents]  # 15 subgroups and 5 parents: 20 groups
    users = [(f"user{i:03d}", leaves[i % len(leaves)]) for i in range(400)]
    work = _spread_clusters(rng, total, 30 * 86400.0, users, 500)
    (folder / "workload.json").write_text(json.dumps(work))
    return ["simulate", "--workload", str(folder / "workload.json"), "--until", "30-0"]


def make_backfill_week(folder: Path, scale: float) -> list[str]:
    """Slurm mode with backfill: 2,000 nodes of 32 CPUs, 200,000 jobs with time limits
    (1 to 48 hours, run times 30% to 100% of the limit) from 100 users in 10 accounts,
    submitted over seven days."""
    rng = random.Random(31)
    nodes = max(int(2000 * scale), 4)
    total = max(int(200_000 * scale), 40)
    accounts = "".join(
        f"[accounts.a{a}]\nshares = {a + 1}\nusers = {{ "
        + ", ".join(f"u{a * 10 + k} = 1" for k in range(10))
        + " }\n"
        for a in range(10)
    )
    pool = BACKFILL_POOL.format(nodes=nodes).replace("slots = 16", "slots = 32")
    (folder / "pool.toml").write_text(pool + accounts)
    work = []
    for i in range(total):
        limit = rng.choice([1, 2, 4, 8, 12, 24, 48]) * 3600
        user = rng.randrange(100)
        work.append(
            {
                "id": str(i + 1),
                "owner": f"u{user}",
                "account": f"a{user // 10}",
                "partition": "batch",
                "request_cpus": rng.choice([1, 1, 2, 4, 8, 16, 32]),
                "time_limit": limit,
                "run_time": int(limit * rng.uniform(0.3, 1.0)),
                "submit_time": NOW_EPOCH + rng.uniform(0, 7 * 86400),
            }
        )
    (folder / "workload.json").write_text(json.dumps(work))
    return [
        "simulate", "--workload", str(folder / "workload.json"), "--until", "7-0",
        "--scheduler", "slurm", "--backfill",
    ]  # fmt: skip


CASES = {
    "busy": make_busy,
    "week": make_week,
    "backfill": make_backfill,
    "busy-week": make_busy_week,
    "busy-week-pslots": make_busy_week_pslots,
    "month": make_month,
    "backfill-week": make_backfill_week,
}
#: The cases run when none is named (the large ones take minutes each).
DEFAULT_CASES = ("busy", "week", "backfill", "busy-week")


def _until_seconds(text: str) -> float:
    """An ``--until`` argument in seconds: Slurm's ``D-H``, ``M:S`` or ``H:M:S`` (the forms
    used here)."""
    if "-" in text:
        days, hours = text.split("-")
        return int(days) * 86400.0 + int(hours) * 3600.0
    parts = [int(p) for p in text.split(":")]
    if len(parts) == 2:
        return parts[0] * 60.0 + parts[1]
    return parts[0] * 3600.0 + parts[1] * 60.0 + parts[2]


def _horizon(text: str) -> float:
    """``--horizon``: seconds, or an ``--until`` form (``6:00:00``, ``2-0``)."""
    return _until_seconds(text) if ":" in text or "-" in text else float(text)


def run(case: str, scale: float, horizon: float | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        args = CASES[case](folder, scale)
        until = args.index("--until") + 1
        if horizon is not None:
            args[until] = f"{int(horizon // 3600)}:{int(horizon % 3600 // 60):02d}:00"
        simulated = _until_seconds(args[until])
        out = folder / "rows.json"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        with out.open("w") as fh:
            subprocess.run(_fs(folder, *args, "--cycle", "60", "--json"), check=True, stdout=fh)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rows = len(json.loads(out.read_text()))
        rss = after.ru_maxrss / 1024  # peak RSS of the largest child so far, MB
        cycles = math.floor(simulated / 60 + 1e-9) + 1
        print(
            f"{case:>13} scale {scale:g}: wall {wall:7.1f} s  cpu {cpu:7.1f} s  "
            f"peak RSS {rss:7.1f} MB  {simulated / wall:8.0f} sim s/s  "
            f"cpu/cycle {1000 * cpu / cycles:6.1f} ms  rows {rows:,}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=sorted(CASES), action="append")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument(
        "--horizon",
        type=_horizon,
        help="simulated seconds, or H:M:S / D-H (default: the case's)",
    )
    parser.add_argument(
        "--pool-scale",
        type=float,
        default=1.0,
        help="multiply the HTCondor pools' slots only (the same workload on a larger pool)",
    )
    opts = parser.parse_args()
    POOL_SCALE[0] = opts.pool_scale
    for case in opts.case or DEFAULT_CASES:
        run(case, opts.scale, opts.horizon)


if __name__ == "__main__":
    main()
