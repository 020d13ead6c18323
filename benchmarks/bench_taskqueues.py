"""Time ``fs taskqueues`` on a synthetic workload (see make_dirac_jobs.py).

    PYTHONPATH=. python benchmarks/make_dirac_jobs.py --out /tmp/fs-dirac-bench
    PYTHONPATH=. python benchmarks/bench_taskqueues.py --dir /tmp/fs-dirac-bench

Prints the wall-clock time of whole ``fs taskqueues`` runs (a fresh interpreter each, the
table and --json, with the jobs file read and parsed) and an in-process breakdown.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

NOW = "2026-11-21T12:00:00Z"


def run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def breakdown(directory: Path) -> None:
    """Time each stage in this process."""
    from fairshare_cli.core.dirac.correction import HistoryCorrector, history_from_json
    from fairshare_cli.core.dirac.priorities import task_queue_rows
    from fairshare_cli.io.config import load_config
    from fairshare_cli.io.dirac_jobs import task_queues_from_file
    from fairshare_cli.io.gc_pause import gc_paused
    from fairshare_cli.io.state import load_state
    from fairshare_cli.render.taskqueues import render_taskqueues

    config = load_config(directory / "pool.toml")
    state = load_state(directory / "state.json")
    dirac = config.dirac
    with gc_paused():
        t0 = time.perf_counter()
        queues = task_queues_from_file(
            str(directory / "jobs.json"), dirac.groups, dirac.cpu_segments
        )
        t1 = time.perf_counter()
        history = history_from_json(state.section("dirac"))
        now = 1795262400.0
        rows = task_queue_rows(
            queues, dirac.groups, HistoryCorrector(dirac.correction, history, now)
        )
        t2 = time.perf_counter()
        render_taskqueues(rows)
        t3 = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  {sum(q.jobs for q in queues)} jobs, {len(queues)} task queues")
    print(f"  stream jobs into TQs {t1 - t0:6.2f} s")
    print(f"  priorities+first     {t2 - t1:6.2f} s")
    print(f"  render table         {t3 - t2:6.2f} s")
    print(f"  peak RSS             {peak:6.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", default="/tmp/fs-dirac-bench")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    directory = Path(args.dir)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    fs = [sys.executable, "-m", "fairshare_cli"]
    common = ["--config", str(directory / "pool.toml"), "--state", str(directory / "state.json")]
    subprocess.run(
        [*fs, "import", "history", str(directory / "history.csv"), *common, "--now", NOW,
         "--rebuild"],
        check=True,
        stdout=subprocess.DEVNULL,
        env=env,
    )  # fmt: skip
    base = [*fs, "taskqueues", *common, "--now", NOW, "--jobs-file", str(directory / "jobs.json")]
    for label, extra in (("table", []), ("--json", ["--json"])):
        runs = [run([*base, *extra], env) for _ in range(args.repeat)]
        print(f"fs taskqueues {label:7s} wall best {min(w for w, _ in runs):6.2f} s, "
              f"CPU best {min(c for _, c in runs):6.2f} s  (wall/CPU per run: "
              + ", ".join(f"{w:.2f}/{c:.2f}" for w, c in runs) + ")")  # fmt: skip
    print("in-process breakdown (CPU seconds):")
    breakdown(directory)


if __name__ == "__main__":
    main()
