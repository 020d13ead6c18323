"""``fs whatif`` replays what ``fs import sacct`` charged: each job's AllocTRES (memory,
nodes, GRES) is kept with its record in the usage history, and billed again under the
partition's (perhaps changed) ``billing_weights``.

The usage is derived by hand from Slurm's ``priority_multifactor.c`` (``_decay_thread``,
``_apply_new_usage``) and ``assoc_mgr_tres_weighted`` (``assoc_mgr.c``): a decay pass every
5 minutes (on multiples of 300 s since the epoch; 10:00:00Z is one) multiplies all usage by
``d^Δ``, ``d = 1 − 0.693 / PriorityDecayHalfLife``, then charges each running job
``Δ · d^Δ · billing``. Both jobs run 10:00:00-10:05:00, charged once, at the 10:05 pass:
``300 · d^300 · billing``; at 11:05 twelve more passes have decayed it by ``d^3600``:
``300 · billing · d^3900``. Under ``CPU=1.0,Mem=0.25G,GRES/gpu=2.0`` job 1 (2 CPUs, 8 GB,
a GPU) bills 2 + 8192 MB · 0.25/1024 + 2 = 6 (its AllocTRES billing=6), job 2 (2 CPUs, no
memory) 2.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., Any]
CONFIG = """
[pool]
defaults = "current"
[[machines]]
name = "n"
count = 2
slots = 1
attributes = { Cpus = 4 }
partitions = ["batch"]
[priority]
decay_halflife = "1:00:00"
calc_period = "5"
[partitions.batch]
default = true
billing_weights = "CPU=1.0,Mem=0.25G,GRES/gpu=2.0"
[qos.normal]
usage_factor = 1.0
[accounts.a]
shares = 1
users = { u1 = 1, u2 = 1 }
"""
#: the pool with ``batch`` setting no ``billing_weights``
UNWEIGHTED = "".join(line for line in CONFIG.splitlines(True) if "billing_weights" not in line)
HEADER = "JobID|User|Account|Partition|QOS|AllocCPUS|AllocTRES|State|Start|End\n"
JOB_1 = "1|u1|a|batch|normal|2|billing=6,cpu=2,mem=8G,node=1,gres/gpu=1|COMPLETED|"
JOB_2 = "2|u2|a|batch|normal|2|billing=2,cpu=2,mem=0,node=1|COMPLETED|"
TIMES = "2026-11-21T10:00:00|2026-11-21T10:05:00\n"
NOW = ("--now", "2026-11-21T11:05:00Z")


def _usage(d: float, billing_1: float = 6.0) -> dict[str, float]:
    return {"u1": 300 * billing_1 * d**3900, "u2": 300 * 2 * d**3900}


def _pool(tmp_path: Path, run: Run, jobs: str) -> list[str]:
    (tmp_path / "pool.toml").write_text(CONFIG)
    (tmp_path / "sacct.txt").write_text(HEADER + jobs)
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]
    result = run(
        "import", "sacct", str(tmp_path / "sacct.txt"), *args, "--now", "2026-11-21T10:05:00Z"
    )
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""  # (billing=6 and 2 are what the weights give: no note)
    return args


def _users(rows: list[dict[str, Any]]) -> dict[str, float]:
    return {r["user"]: r["raw_usage"] for r in rows if r["user"]}


def test_the_same_half_life_replays_what_the_import_charged(tmp_path: Path, run: Run) -> None:
    args = _pool(tmp_path, run, JOB_1 + TIMES + JOB_2 + TIMES)
    result = run(
        "whatif", "--set", 'priority.decay_halflife="1:00:00"', "sshare", "-a", *args, *NOW
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].endswith(": no differences")
    shown = json.loads(
        run(
            "whatif", "--set", "priority.decay_halflife=3600", "sshare", "-a", *args, *NOW, "--json"
        ).stdout
    )
    assert _users(shown["after"]) == pytest.approx(_usage(1 - 0.693 / 3600), rel=1e-12)
    assert shown["changes"] == []


def test_another_half_life_replays_the_jobs_billing(tmp_path: Path, run: Run) -> None:
    """Two hours: d = 1 − 0.693/7200 (u1: 1800 · d^3900 ≈ 1236.63; billed its CPUs alone,
    as before, it would be a third of that)."""
    args = _pool(tmp_path, run, JOB_1 + TIMES + JOB_2 + TIMES)
    result = run(
        *("whatif", "--set", 'priority.decay_halflife="2:00:00"', "sshare", "-a"),
        *args,
        *NOW,
        "--json",
    )
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert _users(shown["before"]) == pytest.approx(_usage(1 - 0.693 / 3600), rel=1e-12)
    assert _users(shown["after"]) == pytest.approx(_usage(1 - 0.693 / 7200), rel=1e-12)
    assert round(_users(shown["after"])["u1"], 2) == 1236.63


def test_changed_billing_weights_bill_the_kept_tres(tmp_path: Path, run: Run) -> None:
    """``CPU=1.0,Mem=0.5G,GRES/gpu=4.0``: job 1 bills 2 + 8 · 0.5 + 1 · 4 = 10, job 2 still 2."""
    args = _pool(tmp_path, run, JOB_1 + TIMES + JOB_2 + TIMES)
    weights = 'partitions.batch.billing_weights="CPU=1.0,Mem=0.5G,GRES/gpu=4.0"'
    result = run("whatif", "--set", weights, "sshare", "-a", *args, *NOW, "--json")
    assert result.exit_code == 0, result.stderr
    after = _users(json.loads(result.stdout)["after"])
    assert after == pytest.approx(_usage(1 - 0.693 / 3600, billing_1=10.0), rel=1e-12)


def test_a_history_of_an_older_fs_is_replayed_and_upgraded(tmp_path: Path, run: Run) -> None:
    """A store written before records kept their TRES (format 1: job 2's record, which
    bills its 2 CPUs either way) is replayed as it is, then made format 3 by the next
    import, which keeps job 1's TRES (format 3, whose records also keep the CPUs a
    partitionable slot's match was charged for): the same half-life still replays what was
    charged."""
    args = _pool(tmp_path, run, JOB_2 + TIMES)
    store = tmp_path / "state.history.sqlite"
    with closing(sqlite3.connect(store)) as conn, conn:
        conn.execute("ALTER TABLE records DROP COLUMN tres")
        conn.execute("UPDATE meta SET value = 'fairshare-cli usage history 1' WHERE key = 'format'")
    same = ("whatif", "--set", 'priority.decay_halflife="1:00:00"', "sshare", "-a", *args, *NOW)
    result = run(*same)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].endswith(": no differences")
    (tmp_path / "sacct.txt").write_text(HEADER + JOB_1 + TIMES)
    result = run(
        "import", "sacct", str(tmp_path / "sacct.txt"), *args, "--now", "2026-11-21T10:05:00Z"
    )
    assert result.exit_code == 0, result.stderr
    with closing(sqlite3.connect(store)) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchall() == [
            ("fairshare-cli usage history 3",)
        ]
        assert conn.execute("SELECT owner, tres FROM records ORDER BY id").fetchall() == [
            ("u2", None),
            ("u1", "cpu=2,mem=8192,node=1,gres/gpu=1"),
        ]
    result = run(*same)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].endswith(": no differences")
    shown = json.loads(run(*same, "--json").stdout)
    assert _users(shown["after"]) == pytest.approx(_usage(1 - 0.693 / 3600), rel=1e-12)


def test_a_submitted_running_job_replays_its_billing(tmp_path: Path, run: Run) -> None:
    """``fs submit`` of a running job (2 CPUs, 16 GB, a GPU: 2 + 16 · 0.25 + 2 = 8, on a
    slot of 4 CPUs) from 10:00: its claim's record keeps the job's TRES, so the replay
    bills it 8, not the slot's 4 CPUs. At 11:00 twelve passes have charged it:
    ``Σ_{j=1..12} 300 · 8 · d^(300 j)``; the same half-life gives that again, two hours
    that sum with ``d = 1 − 0.693/7200``."""
    (tmp_path / "pool.toml").write_text(CONFIG)
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]
    submitted = run(
        "submit", "--owner", "u1", "--account", "a", "--cpus", "2", "--nodes", "1",
        "--set", "request_memory=16384", "--set", 'attributes={"gres/gpu": 1}',
        "--set", "status=running", "--set", "start_time=2026-11-21T10:00:00Z", *args,
        "--now", "2026-11-21T10:00:00Z",
    )  # fmt: skip
    assert submitted.exit_code == 0, submitted.stderr
    for halflife, d in (("1:00:00", 1 - 0.693 / 3600), ("2:00:00", 1 - 0.693 / 7200)):
        result = run(
            *("whatif", "--set", f'priority.decay_halflife="{halflife}"', "sshare", "-a"),
            *args, "--now", "2026-11-21T11:00:00Z", "--json",
        )  # fmt: skip
        assert result.exit_code == 0, result.stderr
        after = _users(json.loads(result.stdout)["after"])["u1"]
        assert after == pytest.approx(sum(2400 * d ** (300 * j) for j in range(1, 13)), rel=1e-12)
    assert round(_users(json.loads(result.stdout)["before"])["u1"], 2) == 20181.37


def test_a_submitted_running_job_replays_its_cpus_without_weights(tmp_path: Path, run: Run) -> None:
    """A partition with no ``billing_weights`` bills a job its own CPUs
    (``calc_job_billable_tres``, ``job_mgr.c``): ``fs submit`` of a running job of 2 CPUs
    on a slot of 4 from 10:00 is charged 2 by the state, and its claim's record (the
    slot's 4 CPUs, the job's TRES ``cpu=2``) replays at 2, not 4. At 11:00 twelve passes
    have charged it ``Σ_{j=1..12} 300 · 2 · d^(300 j)``: 5045.34 at an hour
    (``d = 1 − 0.693/3600``), 5997.53 at two hours (``d = 1 − 0.693/7200``; fs replayed
    the slot's 4 CPUs: 11995.06)."""
    (tmp_path / "pool.toml").write_text(UNWEIGHTED)
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]
    submitted = run(
        "submit", "--owner", "u1", "--account", "a", "--cpus", "2", "--nodes", "1",
        "--set", "status=running", "--set", "start_time=2026-11-21T10:00:00Z", *args,
        "--now", "2026-11-21T10:00:00Z",
    )  # fmt: skip
    assert submitted.exit_code == 0, submitted.stderr
    at = ("--now", "2026-11-21T11:00:00Z")
    same = ("whatif", "--set", 'priority.decay_halflife="1:00:00"', "sshare", "-a", *args, *at)
    result = run(*same)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].endswith(": no differences")
    changed = ("whatif", "--set", 'priority.decay_halflife="2:00:00"', "sshare", "-a")
    result = run(*changed, *args, *at, "--json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    for side, halflife, value in (("before", 3600, 5045.34), ("after", 7200, 5997.53)):
        d = 1 - 0.693 / halflife
        usage = _users(shown[side])["u1"]
        assert usage == pytest.approx(sum(600 * d ** (300 * j) for j in range(1, 13)), rel=1e-12)
        assert round(usage, 2) == value
    # the table compares RawUsage too: with one user the normalised figures stay, and it
    # said "no differences" while u1's usage moved
    text = run(*changed, *args, *at)
    assert text.exit_code == 0, text.stderr
    assert "5045 -> 5997" in text.stdout  # (as fs sshare prints RawUsage: its whole part)
    assert text.stdout.splitlines()[-1] == "3 rows changed, 0 moved, 0 appeared, 0 left (3 changes)"


@pytest.mark.parametrize(
    ("value", "error"),
    [
        pytest.param(
            "mem=lots",
            "{store}: usage record TRES 'mem=lots': expected name=count,... (counts of 0 or "
            "more), as fs writes them; got 'mem=lots'",
            id="text",
        ),
        pytest.param(
            b"\x00",
            "usage history {store}: record 1: tres holds a value of a type fs never writes "
            "(another program changed the file); move it aside to start a new history",
            id="blob",
        ),
    ],
)
def test_a_tres_another_program_wrote_is_refused_in_one_line(
    tmp_path: Path, run: Run, value: str | bytes, error: str
) -> None:
    args = _pool(tmp_path, run, JOB_1 + TIMES)
    store = tmp_path / "state.history.sqlite"
    with closing(sqlite3.connect(store)) as conn, conn:
        conn.execute("UPDATE records SET tres = ?", (value,))
    result = run("whatif", "--set", "priority.decay_halflife=7200", "sshare", *args, *NOW)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"fs: error: {error.format(store=store)}"]
