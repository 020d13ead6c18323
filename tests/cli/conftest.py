"""The small pool the hostile-input tests start from, shared by ``test_main_bad_input``,
``test_validate_refusals`` and ``test_validate_properties``: a config (two 2-slot machines in
Slurm partition ``batch``, HTCondor group ``group_a``, Slurm account ``hep`` with alice
and bob, DIRAC group ``lhcb_user``), a state with one pending job, and the views."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = 1795262400.0
CONFIG = """
[pool]
uid_domain = "example.org"
[[machines]]
name = "exec"
count = 2
slots = 2
attributes = { Cpus = 1, Memory = 4096 }
partitions = ["batch"]
[groups."group_a"]
quota = 2
[partitions.batch]
default = true
[qos.normal]
priority = 0
[accounts.hep]
shares = 1
users = { alice = 1, bob = 1 }
[dirac.groups.lhcb_user]
job_share = 1000
"""
STATE: dict[str, Any] = {
    "format": "fairshare-cli state",
    "schema_version": 1,
    "jobs": [{"id": "1", "owner": "alice", "account": "hep", "submit_time": 1795258800.0}],
}
#: A state with nothing in it: a fresh pool's, written where a view reads one (a view of a
#: named state that is missing notes it on stderr).
EMPTY_STATE = '{"format": "fairshare-cli state", "schema_version": 1}'
#: Every view a state must stay readable by.
VIEWS = (
    ["userprio"],
    ["sprio"],
    ["sshare"],
    ["quota"],
    ["negotiate", "--dry-run"],
    ["taskqueues"],
)


def write_pool(folder: Path, config: str = CONFIG, state: str | None = None) -> dict[str, Path]:
    """Write the pool's config and state into ``folder``; their paths and the folder."""
    (folder / "pool.toml").write_text(config, encoding="utf-8")
    text = json.dumps(STATE) if state is None else state
    (folder / "state.json").write_text(text, encoding="utf-8")
    return {"config": folder / "pool.toml", "state": folder / "state.json", "dir": folder}


def common(env: dict[str, Path]) -> list[str]:
    """``--config``, ``--state`` and ``--now`` of the pool."""
    return ["--config", str(env["config"]), "--state", str(env["state"]), "--now", NOW]


def refused(result: Any, *must: str, code: int = 2) -> None:
    """Exit ``code``, one ``fs: error:`` line naming what is wrong, no traceback."""
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fs: error: "), result.stderr
    for text in must:
        assert text in lines[0], (text, lines[0])


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Path]:
    """The pool in ``tmp_path``."""
    return write_pool(tmp_path)


def bench_pool(folder: Path, assocs: int, jobs: int) -> Path:
    """The benchmark's Slurm pool (``benchmarks/slurm_bench.make_pool``) in ``folder``:
    ``pool.toml``, ``state.json`` and ``jobs.json`` (in id order)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        import slurm_bench
    finally:
        sys.path.pop(0)
    slurm_bench.make_pool(folder, assocs, jobs)
    return folder


#: The Slurm pool of the sprio rule tests (``test_sprio_*_rules``, ``test_sprio_tres_weights``):
#: one partition of four 1-CPU slots, PriorityWeightAge 1000 over a 7-day maximum, and
#: (:data:`SPRIO_ACCOUNTS`) account hep with alice and bob; a job's submit time is
#: :data:`NOW` less its wait.
SPRIO_POOL = """
[pool]
defaults = "current"
uid_domain = "example.org"
[[machines]]
name = "exec"
count = 2
slots = 2
attributes = { Cpus = 1, Memory = 4096 }
partitions = ["batch"]
[partitions.batch]
default = true
[qos.normal]
priority = 0
[priority]
max_age = "7-0"
[priority.weights]
age = 1000
"""
SPRIO_ACCOUNTS = """
[accounts.hep]
shares = 1
users = { alice = 1, bob = 1 }
"""


def sprio_files(tmp_path: Path, jobs: list[dict[str, Any]], config: str) -> list[str]:
    """Write ``config``, an empty state and ``jobs`` in ``tmp_path``; the options naming
    them, and ``--now`` :data:`NOW`."""
    (tmp_path / "pool.toml").write_text(config, encoding="utf-8")
    state = {"format": "fairshare-cli state", "schema_version": 1}
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    (tmp_path / "jobs.json").write_text(json.dumps(jobs), encoding="utf-8")
    return ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json"),
            "--jobs-file", str(tmp_path / "jobs.json"), "--now", NOW]  # fmt: skip


#: What ``fs taskqueues`` shows after a DIRAC running history is imported: the ``--json``
#: rows, the messages on stderr, and the table (``COLUMNS=200``; "" unless asked for).
HistoryTaskQueues = tuple[list[dict[str, Any]], str, str]


@pytest.fixture
def history_taskqueues(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> Callable[..., HistoryTaskQueues]:
    """``fs import history H.csv --rebuild`` then ``fs taskqueues --json`` (and the table
    with ``table=True``), at :data:`NOW`, for a config, a history's rows (after the
    ``owner,dirac_group,start,end,slots`` header) and the waiting jobs."""

    def go(
        config: str, history: str, jobs: list[dict[str, Any]], *, table: bool = False
    ) -> HistoryTaskQueues:
        cfg = write_config(config)
        csv = tmp_path / "history.csv"
        csv.write_text("owner,dirac_group,start,end,slots\n" + history, encoding="utf-8")
        jobs_file = tmp_path / "jobs.json"
        jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
        common = ["--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW]
        result = run("import", "history", str(csv), "--rebuild", *common)
        assert result.exit_code == 0, result.stderr
        view = [*common, "--jobs-file", str(jobs_file)]
        result = run("taskqueues", *view, "--json")
        assert result.exit_code == 0, result.stderr
        text = ""
        if table:
            shown = run("taskqueues", *view, env={"COLUMNS": "200"})
            assert shown.exit_code == 0, shown.stderr
            text = shown.stdout
        return json.loads(result.stdout), result.stderr, text

    return go
