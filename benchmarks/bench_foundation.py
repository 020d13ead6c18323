"""Benchmarks for the foundation: fs --help, fs userprio over 20,000 submitters, and
fs import history of 1,000,000 records (time and peak memory).

    python benchmarks/bench_foundation.py [--records 1000000] [--submitters 20000]

Each figure is one end-to-end run of the installed ``fs`` (``python -m fairshare_cli``) in a
subprocess, wall-clock, with the child's peak RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
NOW = "2026-11-21T12:00:00Z"


CPU: dict[str, float] = {}


def run(args: list[str]) -> tuple[float, float]:
    """Run ``fs args``; return (wall seconds, peak RSS in MiB of that process alone).

    The process's CPU time (user + system) is left in ``CPU["last"]``: on a shared machine
    it is the steadier figure.
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "fairshare_cli", *args],
        stdout=subprocess.DEVNULL,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    _, status, usage = os.wait4(proc.pid, 0)
    dt = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"fs {' '.join(args)} failed with exit {proc.returncode}")
    CPU["last"] = usage.ru_utime + usage.ru_stime
    return dt, usage.ru_maxrss / 1024.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--records", type=int, default=1_000_000)
    p.add_argument("--submitters", type=int, default=20_000)
    a = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="fs-bench-"))
    cfg = tmp / "pool.toml"
    cfg.write_text('[pool]\nuid_domain = "example.org"\n')

    dt, _ = run(["--help"])
    print(f"fs --help: {dt:.3f} s")

    # A state of N submitters, built through the import path (one record each).
    hist = tmp / "users.jsonl"
    subprocess.run(
        [
            sys.executable,
            str(HERE / "make_history.py"),
            "--records",
            str(a.submitters),
            "--submitters",
            str(a.submitters),
            "--days",
            "0.9",
            "--out",
            str(hist),
        ],
        check=True,
    )
    state = tmp / "users.json"
    run(["import", "history", str(hist), "--config", str(cfg), "--state", str(state), "--now", NOW])
    n = len(json.loads(state.read_text())["accountant"]["records"])
    dt, rss = run(["userprio", "--config", str(cfg), "--state", str(state), "--now", NOW])
    print(f"fs userprio over {n} records: {dt:.2f} s (CPU {CPU['last']:.2f} s), peak {rss:.0f} MiB")
    dt, rss = run(["userprio", "--config", str(cfg), "--state", str(state), "--now", NOW, "--json"])
    print(f"fs userprio --json over {n} records: {dt:.2f} s")

    for order in ("time-ordered", "shuffled"):
        big = tmp / f"{order}.jsonl"
        extra = ["--shuffle"] if order == "shuffled" else []
        subprocess.run(
            [
                sys.executable,
                str(HERE / "make_history.py"),
                "--records",
                str(a.records),
                "--days",
                "30",
                "--out",
                str(big),
                *extra,
            ],
            check=True,
        )
        size = big.stat().st_size / 2**20
        dt, rss = run(
            [
                "import",
                "history",
                str(big),
                "--config",
                str(cfg),
                "--state",
                str(tmp / f"{order}.json"),
                "--now",
                NOW,
            ]
        )
        print(
            f"fs import history of {a.records} {order} records ({size:.0f} MiB): "
            f"{dt:.1f} s (CPU {CPU['last']:.1f} s), peak {rss:.0f} MiB"
        )
        big.unlink()


if __name__ == "__main__":
    main()
