"""``fs import condor-history`` on a 1 GB ``condor_history -json`` file: time and memory.

    python benchmarks/bench_condor_history.py               # 0.1 GB and 1 GB
    python benchmarks/bench_condor_history.py --sizes 1e9 --folder /tmp/ch

The file comes from ``make_condor_history.py`` (newest first, as condor_history lists jobs,
so the import sorts it externally). Each figure is one run of ``python -m fairshare_cli`` in
a subprocess: wall time, CPU time (user + system) and peak RSS. The bar: 1 GB
in under 60 s, in memory that does not grow with the file.
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
sys.path.insert(0, str(HERE))

import make_condor_history  # noqa: E402

POOL = """[pool]
uid_domain = "example.org"
[[machines]]
name = "exec"
count = 500
slots = 8
attributes = { Cpus = 8 }
"""


def run_once(folder: Path, size: int) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS MiB) of one import of a ``size``-byte file."""
    data = folder / f"history-{size}.json"
    if not data.exists():
        make_condor_history.write(data, size)
    (folder / "pool.toml").write_text(POOL)
    state = folder / "state.json"
    state.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "fairshare_cli", "import", "condor-history", str(data)]
    cmd += ["--config", str(folder / "pool.toml"), "--state", str(state)]
    cmd += ["--now", "2026-11-21T12:00:00Z"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env={**os.environ, "TZ": "UTC"})
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e8,1e9", help="file sizes in bytes, comma-separated")
    parser.add_argument("--folder", type=Path, default=None, help="keep the files here")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="condor-history-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{'bytes':>14} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9}")
    for size in (int(float(s)) for s in args.sizes.split(",")):
        wall, cpu, rss = run_once(folder, size)
        print(f"{size:>14,} {wall:>8.1f} {cpu:>8.1f} {rss:>9.0f}")


if __name__ == "__main__":
    main()
