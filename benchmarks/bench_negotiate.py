"""Time ``fs negotiate --dry-run`` on synthetic pools (figures for the report).

    python benchmarks/bench_negotiate.py            # the full set, a few minutes
    python benchmarks/bench_negotiate.py --quick    # smaller sizes

Each case generates a pool and queue with ``make_negotiation.py`` and runs the real command
in a fresh interpreter, printing wall time, CPU time and peak memory (max RSS).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def run_case(
    label: str,
    slots: int,
    jobs: int,
    subs: int,
    acs: int,
    expand: bool,
    claimed: int = 0,
    profile: str = "legacy",
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        gen = [
            sys.executable,
            str(HERE / "make_negotiation.py"),
            "--out",
            tmp,
            "--slots",
            str(slots),
            "--jobs",
            str(jobs),
            "--submitters",
            str(subs),
            "--autoclusters",
            str(acs),
            "--claimed",
            str(claimed),
            "--profile",
            profile,
        ]
        if expand:
            gen.append("--expand")
        subprocess.run(gen, check=True)
        cmd = [
            sys.executable,
            "-m",
            "fairshare_cli",
            "negotiate",
            "--dry-run",
            "--config",
            f"{tmp}/pool.toml",
            "--state",
            f"{tmp}/state.json",
            "--jobs-file",
            f"{tmp}/jobs.json",
            "--now",
            "2026-11-21T12:00:00Z",
        ]
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        last = done.stdout.strip().splitlines()[-1]
        print(
            f"{label:<34} wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
            f"max RSS {after.ru_maxrss / 1024:7.0f} MiB  | {last}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--steady", action="store_true", help="pools already 90 %% claimed (preemption checks)"
    )
    args = parser.parse_args()
    if args.steady:
        for profile in ("current", "legacy"):
            run_case(
                f"5k slots 90% claimed, {profile}",
                5_000,
                100_000,
                1_000,
                200,
                False,
                4_500,
                profile,
            )
        return
    if args.quick:
        run_case("5k slots, 100k jobs (count)", 5_000, 100_000, 1_000, 200, False)
        run_case("5k slots, 1M jobs (count)", 5_000, 1_000_000, 1_000, 200, False)
        return
    run_case("50k slots, 1M jobs (count)", 50_000, 1_000_000, 10_000, 2_000, False)
    run_case("50k slots, 10M jobs (count)", 50_000, 10_000_000, 10_000, 2_000, False)
    run_case("50k slots, 100k jobs (one per job)", 50_000, 100_000, 10_000, 2_000, True)
    run_case("50k slots, 1M jobs (one per job)", 50_000, 1_000_000, 10_000, 2_000, True)


if __name__ == "__main__":
    main()
