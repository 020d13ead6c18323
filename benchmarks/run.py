"""One runner for every benchmark: each command at a tenth, the size, and twice the size.

    python benchmarks/run.py                      # every row, 5 runs each (long: ~1 h)
    python benchmarks/run.py --rows sprio,sshare --repeat 3 --scales 0.1,1
    python benchmarks/run.py --list

Inputs come from the seeded generators beside this file (``make_negotiation``,
``make_history``, ``make_dirac_jobs``, ``make_scontrol_jobs``, ``slurm_bench.make_pool``),
written once per size into a scratch folder. Each figure is one end-to-end run of
``python -m fairshare_cli`` in a subprocess: wall time (median of ``--repeat``), CPU time
(user + system, median) and peak RSS of that process (with any process it starts and
waits for, such as ``fs sweep``'s workers: CPU summed, the larger peak).
The runs go in rounds, each round one run of every row and size asked for: these machines'
speed drifts over minutes, and so it weighs on every row alike (``fs sprio -l`` and its
``--json`` compare run by run, not one batch against a later one). The table is printed
once every round is done.
``ratio`` is the cost growth per doubling of the size, from the size before it:
``(wall / wall_before) ** (1 / log2(n / n_before))``. Linear reads ~2.0, quadratic ~4.0;
a fixed start-up cost pulls small sizes below 2.

The package's bytecode is compiled first, as installing it does (pip writes the ``.pyc``
files), and every run reads it: where ``PYTHONDONTWRITEBYTECODE`` is set, as on the
project's machines, Python would otherwise compile each module from source on each run
(about 50 ms of ``fs sshare``'s CPU that an installed fs never pays). ``--from-source``
measures that way instead: it removes the package's ``__pycache__`` folders and runs with
``PYTHONDONTWRITEBYTECODE=1``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import make_dirac_jobs  # noqa: E402
import make_history  # noqa: E402
import make_negotiation  # noqa: E402
import make_scontrol_jobs  # noqa: E402
import slurm_bench  # noqa: E402

NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = 1795262400.0


@dataclass(frozen=True)
class Row:
    """A benchmark row: ``make(folder, n)`` writes inputs and returns the fs arguments."""

    name: str
    label: str
    size: int
    unit: str
    make: Callable[[Path, int], list[str]]


def _common(folder: Path) -> list[str]:
    return ["--config", str(folder / "pool.toml"), "--state", str(folder / "state.json")]


def make_sprio(folder: Path, n: int, extra: tuple[str, ...] = ()) -> list[str]:
    if not (folder / "jobs.json").exists():
        slurm_bench.make_pool(folder, 10_000, n)
    return ["sprio", "-l", *extra, *_common(folder), "--jobs-file", str(folder / "jobs.json")]


def make_sprio_json(folder: Path, n: int) -> list[str]:
    return make_sprio(folder, n, ("--json",))


def make_sshare(folder: Path, n: int) -> list[str]:
    if not (folder / "pool.toml").exists():
        slurm_bench.make_pool(folder, n, 10)
    return ["sshare", "-a", "-l", *_common(folder)]


def make_userprio(folder: Path, n: int, extra: tuple[str, ...] = ()) -> list[str]:
    """A state of ``n`` submitters, built through the import path (one record each)."""
    if not (folder / "state.json").exists():
        (folder / "pool.toml").write_text('[pool]\nuid_domain = "example.org"\n')
        hist = folder / "users.jsonl"
        end = NOW_EPOCH
        with hist.open("w") as fh:
            for rec in make_history.generate(n, end, 0.9 * 86400, 7, submitters=n):
                fh.write(json.dumps(rec) + "\n")
        _fs(["import", "history", str(hist), *_common(folder), "--now", NOW])
    return ["userprio", "--allusers", *extra, *_common(folder)]


def make_userprio_json(folder: Path, n: int) -> list[str]:
    return make_userprio(folder, n, ("--json",))


def _negotiation(folder: Path, n: int, expand: bool, autoclusters: int) -> list[str]:
    if not (folder / "jobs.json").exists():
        make_negotiation.write_pool(folder, 50_000, "legacy")
        make_negotiation.write_jobs(folder, n, 10_000, autoclusters, 4, expand)
        make_negotiation.write_state(folder, 10_000, 4, 0, 50_000)
    return ["negotiate", "--dry-run", *_common(folder), "--jobs-file", str(folder / "jobs.json")]


def make_negotiate_objects(folder: Path, n: int) -> list[str]:
    return _negotiation(folder, n, True, 3)


def make_negotiate_batches(folder: Path, n: int) -> list[str]:
    return _negotiation(folder, n, False, 2_000)


def make_negotiate_separate(folder: Path, n: int, extra: tuple[str, ...] = ()) -> list[str]:
    """50,000 one-CPU slots; ``n`` jobs of 10,000 submitters, one object per job."""
    if not (folder / "jobs.json").exists():
        make_negotiation.write_pool(folder, 50_000, "legacy")
        make_negotiation.write_separate_jobs(folder, n, 10_000, 4)
        make_negotiation.write_state(folder, 10_000, 4, 0, 50_000)
    jobs = ["--jobs-file", str(folder / "jobs.json")]
    return ["negotiate", "--dry-run", *extra, *_common(folder), *jobs]


def make_negotiate_separate_json(folder: Path, n: int) -> list[str]:
    return make_negotiate_separate(folder, n, ("--json",))


def make_taskqueues(folder: Path, n: int) -> list[str]:
    """The DIRAC benchmark's jobs, config (correction on) and a week of running history."""
    jobs_file = folder / "jobs.json"
    if not jobs_file.exists():
        with jobs_file.open("w", encoding="utf-8") as fh:
            json.dump(make_dirac_jobs.jobs(n, 5000, 1), fh)
        (folder / "pool.toml").write_text(make_dirac_jobs.CONFIG, encoding="utf-8")
        (folder / "history.csv").write_text(make_dirac_jobs.history(5000), encoding="utf-8")
        _fs(["import", "history", str(folder / "history.csv"), *_common(folder), "--now", NOW])
    return ["taskqueues", *_common(folder), "--jobs-file", str(jobs_file)]


def make_import(folder: Path, n: int) -> list[str]:
    """Records charged to all three models: the sample pool has accounts and DIRAC groups."""
    hist = folder / "history.jsonl"
    if not hist.exists():
        with hist.open("w") as fh:
            for rec in make_history.generate(n, NOW_EPOCH, 30 * 86400, 7):
                fh.write(json.dumps(rec) + "\n")
        text = (REPO / "sample_configs" / "pool.toml").read_text(encoding="utf-8")
        (folder / "pool.toml").write_text(text, encoding="utf-8")
    state = folder / "state.json"
    state.unlink(missing_ok=True)
    return ["import", "history", str(hist), "--rebuild", *_common(folder), "--now", NOW]


def make_import_squeue(folder: Path, n: int) -> list[str]:
    """``scontrol show jobs`` of ``n`` jobs (26.05's records) into a state of usage alone;
    the runs after the first import the same dump again (each job replaces its own)."""
    if not (folder / "jobs.txt").exists():
        make_scontrol_jobs.write_jobs(folder, n)
    return ["import", "squeue", str(folder / "jobs.txt"), *_common(folder), "--now", NOW]


def make_whatif_replay(folder: Path, n: int) -> list[str]:
    """``n`` records imported once (the store beside the state keeps them), then replayed
    under a 3600 s half-life by ``fs whatif``."""
    if not (folder / "state.history.sqlite").exists():
        _fs(make_import(folder, n))
    return ["whatif", "--set", "accountant.priority_halflife=3600", "userprio", *_common(folder)]


def make_account_chain(folder: Path, n: int) -> list[str]:
    """A chain of ``n`` accounts, each the parent of the next (its read was once superlinear)."""
    config = folder / "chain.toml"
    if not config.exists():
        parts = ["[accounts.a0]\nshares = 1\nusers = { alice = 1 }\n"]
        parts += [f'[accounts.a{i}]\nparent = "a{i - 1}"\nshares = 1\n' for i in range(1, n)]
        config.write_text("".join(parts), encoding="utf-8")
    return ["config", "check", "--config", str(config)]


def make_help(folder: Path, n: int) -> list[str]:
    return ["--help"]


ROWS = (
    Row("sprio", "fs sprio -l", 100_000, "jobs", make_sprio),
    Row("sprio-json", "fs sprio -l --json", 100_000, "jobs", make_sprio_json),
    Row("sshare", "fs sshare -a -l", 10_000, "assocs", make_sshare),
    Row("userprio", "fs userprio --allusers", 20_000, "submitters", make_userprio),
    Row("userprio-json", "fs userprio --allusers --json", 20_000, "submitters", make_userprio_json),
    Row(
        "negotiate-objects",
        "fs negotiate --dry-run (1 obj/job)",
        1_000_000,
        "jobs",
        make_negotiate_objects,
    ),
    Row(
        "negotiate-batches",
        "fs negotiate --dry-run (count)",
        1_000_000,
        "jobs",
        make_negotiate_batches,
    ),
    Row(
        "negotiate-separate",
        "fs negotiate --dry-run (separate objects)",
        1_000_000,
        "jobs",
        make_negotiate_separate,
    ),
    Row(
        "negotiate-separate-json",
        "fs negotiate --dry-run --json (separate objects)",
        1_000_000,
        "jobs",
        make_negotiate_separate_json,
    ),
    Row("taskqueues", "fs taskqueues", 1_000_000, "jobs", make_taskqueues),
    Row("import", "fs import history (3 models)", 1_000_000, "records", make_import),
    Row(
        "import-squeue",
        "fs import squeue (scontrol show jobs)",
        100_000,
        "jobs",
        make_import_squeue,
    ),
    Row(
        "whatif-replay",
        "fs whatif --set halflife userprio",
        1_000_000,
        "records",
        make_whatif_replay,
    ),
    Row("chain", "fs config check (account chain)", 10_000, "accounts", make_account_chain),
    Row("help", "fs --help", 1, "", make_help),
)


#: Runs the command and prints its wall, CPU and peak RSS. Linux keeps the high-water RSS
#: of the process that forked across ``exec``, so ``fs`` must be forked by a small process,
#: not by this runner (its generated inputs would show up as every row's peak memory).
_LAUNCH = """
import os, subprocess, sys, time
t0 = time.perf_counter()
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
wall = time.perf_counter() - t0
code = os.waitstatus_to_exitcode(status)
print(code, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0)
"""


def _fs(args: list[str]) -> tuple[float, float, float]:
    """Run ``fs args``: (wall s, CPU s, peak RSS MiB) of that process (with any process it
    forked and waited for: CPU summed, the larger peak), not of this runner."""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            _LAUNCH,
            sys.executable,
            "-m",
            "fairshare_cli",
            *args,
            *(["--now", NOW] if _views(args) else []),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200", **_BYTECODE_ENV},
        check=True,
    )
    code, wall, cpu, peak = out.stdout.split()
    if code != "0":
        raise SystemExit(f"fs {' '.join(args)} failed")
    return float(wall), float(cpu), float(peak)


#: Set by ``--from-source``: no bytecode of the package is written (none is left to read).
_BYTECODE_ENV: dict[str, str] = {}


def _views(args: list[str]) -> bool:
    return bool(args) and args[0] not in ("--help", "config") and "--now" not in args


def prepare(row: Row, scale: float, scratch: Path) -> tuple[int, list[str]]:
    """The size of ``row`` at ``scale`` and its ``fs`` arguments, its inputs made."""
    n = max(1, round(row.size * scale))
    folder = scratch / f"{row.name}-{n}"
    folder.mkdir(parents=True, exist_ok=True)
    # Inputs are made in a child: Linux keeps a process's peak RSS across exec, so fs runs
    # forked from a runner that had just built a million jobs would report its peak.
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return n, pool.apply(row.make, (folder, n))


def measure(cases: list[list[str]], repeat: int) -> list[tuple[float, float, float]]:
    """Each case's (wall, CPU, peak): medians of ``repeat`` runs (the peak: the largest),
    run in rounds of one run a case (see the module docstring)."""
    runs: list[list[tuple[float, float, float]]] = [[] for _ in cases]
    for _ in range(repeat):
        for args, done in zip(cases, runs, strict=True):
            done.append(_fs(args))
    return [
        (
            statistics.median(r[0] for r in done),
            statistics.median(r[1] for r in done),
            max(r[2] for r in done),
        )
        for done in runs
    ]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rows", default="", help="comma-separated row names (default: all)")
    p.add_argument("--scales", default="0.1,1,2", help="sizes as fractions of the row's size")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--scratch", default="", help="folder for generated inputs (kept)")
    p.add_argument("--list", action="store_true", help="list the rows and exit")
    p.add_argument(
        "--from-source",
        action="store_true",
        help="remove the package's bytecode and write none (each run compiles it)",
    )
    a = p.parse_args()
    if a.list:
        for row in ROWS:
            print(f"{row.name:<18} {row.label} ({row.size:,} {row.unit})")
        return
    wanted = set(a.rows.split(",")) - {""}
    scales = [float(s) for s in a.scales.split(",")]
    scratch = Path(a.scratch or tempfile.mkdtemp(prefix="fs-bench-"))
    if a.from_source:
        import shutil

        for cache in (REPO / "fairshare_cli").rglob("__pycache__"):
            shutil.rmtree(cache)
        _BYTECODE_ENV["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        import compileall

        compileall.compile_dir(REPO / "fairshare_cli", quiet=1)
    cases = [
        (row, *prepare(row, scale, scratch))
        for row in ROWS
        if not wanted or row.name in wanted
        for scale in (scales if row.name != "help" else [1.0])
    ]
    figures = measure([args for _, _, args in cases], a.repeat)
    print(f"{'command':<38} {'size':>10} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9} {'ratio':>6}")
    previous: tuple[Row, int, float] | None = None
    for (row, n, _), (wall, cpu, peak) in zip(cases, figures, strict=True):
        ratio = ""
        if previous is not None and previous[0] is row and previous[2] > 0 and n > previous[1]:
            doublings = math.log2(n / previous[1])
            ratio = f"{(wall / previous[2]) ** (1 / doublings):.2f}"
        previous = (row, n, wall)
        print(f"{row.label:<38} {n:>10,} {wall:>8.2f} {cpu:>8.2f} {peak:>9.0f} {ratio:>6}")


if __name__ == "__main__":
    main()
