"""``fs sweep --engine dask`` on real ``distributed`` clusters: workers in processes of
their own environment, a worker that dies on a point, a scheduler that goes away, and
an address that is not one."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import write_spec

distributed = pytest.importorskip("dask.distributed")

#: A cluster in a process of its own whose worker ends its process as it starts a point
#: (a worker killed for its memory, say): in a worker process of its own ("worker"), the
#: scheduler retries on none (allowed-failures 0) and reports KilledWorker; in the
#: scheduler's process ("scheduler"), the scheduler is gone with it.
DYING = """\
import os, sys, dask
from distributed import Client, LocalCluster, WorkerPlugin

class Die(WorkerPlugin):
    def transition(self, key, start, finish, **kwargs):
        if finish == "executing" and str(key).startswith("run_point_safely"):
            os._exit(1)

if __name__ == "__main__":
    dask.config.set({"distributed.scheduler.allowed-failures": 0})
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=sys.argv[1] == "worker",
                      protocol="tcp", dashboard_address=None) as cluster, Client(cluster) as client:
        client.register_plugin(Die())
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()
"""


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    return write_spec(tmp_path)


@pytest.fixture
def dying(tmp_path: Path) -> Iterator[Callable[[str], str]]:
    """Start a dying cluster (``worker`` or ``scheduler``); its scheduler's address."""
    script = tmp_path / "dying.py"
    script.write_text(DYING, encoding="utf-8")
    started: list[subprocess.Popen[str]] = []

    def start(mode: str) -> str:
        process = subprocess.Popen(
            [sys.executable, str(script), mode],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        started.append(process)
        assert process.stdout is not None
        return process.stdout.readline().strip()

    yield start
    for process in started:
        process.kill()
        process.wait()


def test_worker_processes_of_another_environment_give_the_local_run(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --engine dask --dask-scheduler ADDRESS, on a LocalCluster whose two
    worker processes have another user state than the client's (a worker started by
    another user, or dask-jobqueue's on a node), ran every point from the workers' state.
    Each point now starts from the state the sweep found: the output and the point files
    are the local run's, byte for byte, and so are the notes, said once."""
    node = tmp_path / "node-home"
    made = run("setfactor", "alice@example.org", "2", "--create", "--config",
               str(tmp_path / "pool.toml"), "--now", "2026-12-01T00:00:00Z",
               env={"XDG_STATE_HOME": str(node)})  # fmt: skip
    assert made.exit_code == 0, made.stderr
    mine = run("setfactor", "alice@example.org", "3", "--create", "--config",
               str(tmp_path / "pool.toml"), "--now", "2026-11-19T00:00:00Z")  # fmt: skip
    assert mine.exit_code == 0, mine.stderr
    local = run("sweep", str(spec), "--out", str(tmp_path / "a"), "--jobs", "1", "--json")
    assert local.exit_code == 0, local.stderr
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        env={"XDG_STATE_HOME": str(node)},
    ) as cluster:  # fmt: skip
        found = run(
            "sweep", str(spec), "--out", str(tmp_path / "b"), "--json",
            "--engine", "dask", "--dask-scheduler", cluster.scheduler_address,
        )  # fmt: skip
    assert found.exit_code == 0, found.stderr
    assert found.stdout == local.stdout
    # The points' note, said by the workers (in their logs, before), comes back: once.
    assert found.stderr == local.stderr
    assert found.stderr.startswith("fs: note: points 0, 1, 2, 3: no usage history is kept")
    for name in sorted(p.name for p in (tmp_path / "a" / "points").iterdir()):
        assert (tmp_path / "b" / "points" / name).read_bytes() == (
            tmp_path / "a" / "points" / name
        ).read_bytes()


def test_a_point_whose_worker_dies_is_a_failed_point(
    spec: Path, tmp_path: Path, run: Callable[..., Any], dying: Callable[[str], str]
) -> None:
    """fs sweep SPEC --engine dask --dask-scheduler ADDRESS, when every worker that ran a
    point died (KilledWorker), ended in distributed's traceback. Now it is that point's
    failure: one line naming it, exit 1, and fs sweep collect names it too."""
    out = tmp_path / "runs"
    address = dying("worker")
    result = run("sweep", str(spec), "--out", str(out), "--engine", "dask",
                 "--dask-scheduler", address)  # fmt: skip
    assert result.exit_code == 1, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("fs: error: point ")
    assert "every dask worker that ran it died" in lines[0]
    collected = run("sweep", "collect", str(out))
    assert collected.exit_code == 1
    assert "fs: note: point " in collected.stderr and "died" in collected.stderr


def test_a_lost_scheduler_is_one_line(
    spec: Path, tmp_path: Path, run: Callable[..., Any], dying: Callable[[str], str]
) -> None:
    """fs sweep SPEC --engine dask --dask-scheduler ADDRESS, when the scheduler went away
    mid-run, ended in a FutureCancelledError traceback (and distributed's logged one).
    Now: one line naming the scheduler and saying the points done are kept, exit 1."""
    address = dying("scheduler")
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"), "--engine", "dask",
                 "--dask-scheduler", address)  # fmt: skip
    assert result.exit_code == 1, result.stderr
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(f"fs: error: dask scheduler {address}: point ")
    assert "run the same command to resume" in result.stderr


@pytest.mark.parametrize(
    "address", ["nonsense", "tcp://127.0.0.1:port", "udp://127.0.0.1:8786", "tcp://[::1"]
)
def test_an_address_that_is_not_one_is_exit_2(
    address: str, spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --engine dask --dask-scheduler nonsense ended in a ValueError
    traceback; it is a usage error now, in distributed's words."""
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"), "--engine", "dask",
                 "--dask-scheduler", address)  # fmt: skip
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith(f"fs: error: --dask-scheduler {address}: ")
    assert len(result.stderr.splitlines()) == 1
