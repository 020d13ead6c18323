"""Time ``fs sshare -a -l`` and ``fs sprio`` on synthetic Slurm pools.

    python benchmarks/slurm_bench.py                 # 10,000 associations, 100,000 jobs
    python benchmarks/slurm_bench.py --scale 0.5 1 2 # check the cost grows linearly

Writes a pool config (accounts under a few parent accounts, users under each), a state
with decayed usage for every user and a jobs file of pending jobs into a temporary
directory, then runs the real command line (``python -m fairshare_cli``) and prints wall
times (best of ``--repeat``). Deterministic (seeded).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NOW = 1795262400.0  # 2026-11-21T12:00:00Z


def make_pool(
    directory: Path, assocs: int, jobs: int, seed: int = 1, fairshare: str = "fair_tree"
) -> tuple[Path, Path, Path]:
    """Config, state and jobs file with about ``assocs`` associations and ``jobs`` jobs."""
    rng = random.Random(seed)
    groups = max(1, int(assocs**0.5) // 4)
    accounts_per_group = max(1, int(assocs**0.5) // 2)
    n_accounts = groups * accounts_per_group
    users_per_account = max(1, (assocs - groups - n_accounts) // n_accounts)
    lines = [
        '[pool]\nname = "bench"\ndefaults = "current"\n',
        "[[machines]]",
        'name = "node"\ncount = 1000\nslots = 32\nattributes = { Cpus = 1, Memory = 4000 }',
        f'[priority]\nfairshare = "{fairshare}"\ncalc_period = "5"\ndecay_halflife = "7-0"',
        "[priority.weights]\nage = 1000\nfairshare = 100000\njobsize = 1000\n"
        "partition = 1000\nqos = 1000\ntres = { cpu = 100 }",
        "[partitions.batch]\ndefault = true\npriority_job_factor = 1",
        "[partitions.express]\npriority_job_factor = 4",
        "[qos.normal]\npriority = 0\n[qos.high]\npriority = 100",
    ]
    users: list[tuple[str, str]] = []
    usage: dict[str, dict[str, float]] = {}
    for g in range(groups):
        lines.append(f"[accounts.g{g}]\nshares = {rng.randint(1, 100)}")
        for a in range(accounts_per_group):
            name = f"g{g}a{a}"
            members = {f"u{g}_{a}_{k}": rng.randint(1, 5) for k in range(users_per_account)}
            body = ", ".join(f"{u} = {s}" for u, s in members.items())
            lines.append(
                f'[accounts.{name}]\nparent = "g{g}"\nshares = {rng.randint(1, 100)}\n'
                f"users = {{ {body} }}"
            )
            for u in members:
                users.append((name, u))
                if rng.random() < 0.8:
                    usage.setdefault(name, {})[u] = rng.uniform(0, 1e7)
    config = directory / "pool.toml"
    config.write_text("\n".join(lines) + "\n")
    state = directory / "state.json"
    state.write_text(
        json.dumps(
            {
                "format": "fairshare-cli state",
                "schema_version": 1,
                "slurm": {"last_decay_ran": NOW - 3600, "usage": usage},
            }
        )
    )
    job_objs = []
    for i in range(jobs):
        account, user = users[rng.randrange(len(users))]
        job_objs.append(
            {
                "id": str(i + 1),
                "owner": user,
                "account": account,
                "partition": "batch" if rng.random() < 0.8 else "batch,express",
                "qos": "high" if rng.random() < 0.1 else "normal",
                "request_cpus": rng.choice((1, 1, 2, 4, 8, 16)),
                "submit_time": NOW - rng.uniform(0, 3 * 86400),
                "nice": rng.choice((0, 0, 0, 10)),
            }
        )
    jobs_file = directory / "jobs.json"
    jobs_file.write_text(json.dumps(job_objs))
    return config, state, jobs_file


def timed(args: list[str], repeat: int) -> float:
    """Best wall time of the command line over ``repeat`` runs (output discarded)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "fairshare_cli", *args],
            check=True,
            env=env,
            stdout=subprocess.DEVNULL,
        )
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--assocs", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--scale", type=float, nargs="*", default=[1.0])
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args()
    print(
        f"{'scale':>6} {'assocs':>8} {'jobs':>8} {'sshare -a -l':>13} {'sprio':>8} {'sprio -l':>9}"
    )
    for scale in opts.scale:
        with tempfile.TemporaryDirectory() as tmp:
            cfg, state, jobs = make_pool(
                Path(tmp), int(opts.assocs * scale), int(opts.jobs * scale)
            )
            common = ["--config", str(cfg), "--state", str(state), "--now", str(NOW)]
            n_assocs = sum(len(v) for v in json.loads(state.read_text())["slurm"]["usage"].values())
            del n_assocs
            text = cfg.read_text()
            assocs = (
                text.count("[accounts.")
                + sum(line.count("=") for line in text.splitlines() if line.startswith("users"))
                + 1
            )
            sshare_t = timed(["sshare", "-a", "-l", *common], opts.repeat)
            sprio_t = timed(["sprio", "--jobs-file", str(jobs), *common], opts.repeat)
            sprio_l = timed(["sprio", "-l", "--jobs-file", str(jobs), *common], opts.repeat)
            n_jobs = len(json.loads(jobs.read_text()))
            print(
                f"{scale:>6g} {assocs:>8} {n_jobs:>8} {sshare_t:>12.3f}s {sprio_t:>7.3f}s "
                f"{sprio_l:>8.3f}s"
            )


if __name__ == "__main__":
    main()
