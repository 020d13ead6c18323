"""A synthetic pool and queue for benchmarking ``fs negotiate --dry-run``.

    python benchmarks/make_negotiation.py --out /tmp/negbench \\
        --slots 50000 --jobs 1000000 --submitters 10000 --autoclusters 2000

Writes ``pool.toml`` (machine stanzas of 8-slot machines with different memory sizes),
``jobs.json`` (each submitter's jobs in two ``"count"`` clusters, or one object per job
with ``--expand``, or with ``--separate`` one object per job of one cluster per submitter
in three memory sizes; an autocluster is a distinct memory request) and ``state.json`` (every
submitter with a different real priority, so the pie has to spin). Deterministic.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

MEMORY = [2048, 4096, 8192, 16384, 32768]
NOW = 1795262400  # 2026-11-21T12:00:00Z, the --now of the benchmark


def write_pool(out: Path, slots: int, profile: str) -> None:
    """``slots`` slots as 10 stanzas of 8-slot machines."""
    stanzas = 10
    machines = max(1, slots // (stanzas * 8))
    lines = [
        "[pool]",
        'name = "bench"',
        'uid_domain = "example.org"',
        f'defaults = "{profile}"',
        "",
    ]
    for i in range(stanzas):
        mem = MEMORY[i % len(MEMORY)]
        lines += [
            "[[machines]]",
            f'name = "node{i:02d}-"',
            f"count = {machines}",
            "slots = 8",
            f'attributes = {{ Cpus = 1, Memory = {mem}, Arch = "X86_64", OpSys = "LINUX" }}',
            "",
        ]
    (out / "pool.toml").write_text("\n".join(lines), encoding="utf-8")


def write_jobs(
    out: Path, jobs: int, submitters: int, autoclusters: int, seed: int, expand: bool
) -> None:
    """``jobs`` idle jobs: two clusters per submitter, memory requests from ``autoclusters``
    distinct values; ``expand`` writes one object per job instead of ``"count"``."""
    rng = random.Random(seed)
    per = jobs // submitters
    objs = []
    cluster = 1
    for s in range(submitters):
        sizes = [per // 2, per - per // 2]
        for n in sizes:
            if n <= 0:
                continue
            ac = rng.randrange(autoclusters)
            objs.append(
                {
                    "id": f"{cluster}.0",
                    "owner": f"user{s:05d}",
                    "count": n,
                    "job_prio": rng.randrange(3),
                    "request_memory": 1000 + ac,
                    "requirements": "TARGET.Memory >= MY.RequestMemory",
                    "submit_time": 1795000000 + cluster,
                }
            )
            cluster += 1
    if expand:
        flat: list[dict[str, object]] = []
        for obj in objs:
            n = int(str(obj.pop("count")))
            c = str(obj["id"]).split(".")[0]
            flat.extend({**obj, "id": f"{c}.{i}"} for i in range(n))
        objs = flat
    (out / "jobs.json").write_text(json.dumps(objs), encoding="utf-8")


#: The memory requests (MB) of :func:`write_separate_jobs`.
SEPARATE_MEMORY = (1024, 2048, 4096)


def write_separate_jobs(out: Path, jobs: int, submitters: int, seed: int) -> None:
    """``jobs`` idle jobs written one object each: every submitter queues ``jobs //
    submitters`` jobs as one cluster (ids ``cluster.proc``), each asking one of three
    memory sizes (seeded), so that runs of identical jobs are short."""
    rng = random.Random(seed)
    per = jobs // submitters
    with (out / "jobs.json").open("w", encoding="utf-8") as fh:
        fh.write("[")
        for s in range(submitters):
            cluster = s + 1
            tail = (
                f'"owner": "user{s:05d}", "requirements": "TARGET.Memory >= MY.RequestMemory", '
                f'"submit_time": {1795000000 + cluster}}}'
            )
            fh.write(
                ", ".join(
                    f'{{"id": "{cluster}.{proc}", '
                    f'"request_memory": {rng.choice(SEPARATE_MEMORY)}, {tail}'
                    for proc in range(per)
                )
            )
            fh.write(", " if s + 1 < submitters else "")
        fh.write("]")


def write_state(out: Path, submitters: int, seed: int, claimed: int, slots: int) -> None:
    """An accountant with a real priority between 0.5 and 200 for every submitter; with
    ``claimed``, that many slots are held (claims started over the last four hours)."""
    rng = random.Random(seed + 1)
    records = {
        f"user{s:05d}@example.org": {"priority": 0.5 + rng.random() * 199.5, "last_update": NOW}
        for s in range(submitters)
    }
    claims = {}
    machines = max(1, slots // 80)
    names = [
        f"slot{k}@node{i:02d}-{m:03d}"
        for i in range(10)
        for m in range(1, machines + 1)
        for k in range(1, 9)
    ]
    for n, slot in enumerate(names[:claimed]):
        holder = f"user{rng.randrange(submitters):05d}@example.org"
        claims[slot] = {
            "submitter": holder,
            "job_id": f"900000{n}.0",
            "start_time": NOW - 60 * rng.randrange(240),
        }
        rec = records[holder]
        rec["resources_used"] = rec.get("resources_used", 0) + 1
        rec["weighted_resources_used"] = rec.get("weighted_resources_used", 0.0) + 1.0
    doc = {
        "format": "fairshare-cli state",
        "schema_version": 1,
        "accountant": {"records": records},
        "negotiator": {"claims": claims, "rr_times": {}, "last_cycle": None},
    }
    (out / "state.json").write_text(json.dumps(doc), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True)
    parser.add_argument("--slots", type=int, default=50_000)
    parser.add_argument("--jobs", type=int, default=1_000_000)
    parser.add_argument("--submitters", type=int, default=10_000)
    parser.add_argument("--autoclusters", type=int, default=2_000)
    parser.add_argument("--profile", default="legacy", choices=("legacy", "current"))
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--expand", action="store_true", help="one JSON object per job")
    parser.add_argument(
        "--separate",
        action="store_true",
        help="one object per job, one cluster per submitter, three memory sizes",
    )
    parser.add_argument("--claimed", type=int, default=0, help="slots already claimed")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_pool(out, args.slots, args.profile)
    if args.separate:
        write_separate_jobs(out, args.jobs, args.submitters, args.seed)
    else:
        write_jobs(out, args.jobs, args.submitters, args.autoclusters, args.seed, args.expand)
    write_state(out, args.submitters, args.seed, args.claimed, args.slots)


if __name__ == "__main__":
    main()
