"""``fs release``: a held job pending again, aging as slurmctld ages it.

Read in Slurm's ``job_mgr.c`` and ``acct_policy.c``: a hold (``_hold_job_rec``) sets the
priority to 0, clears a past begin time and, with ``AccountingStorageEnforce=limits`` only,
the accrue time (``acct_policy_remove_accrue_time``); a release (``_release_job_rec``)
clears a past begin time again and recomputes the priority; the scheduler then sets the
begin time to now (``job_independent``) and, with limits, the accrue time to now
(``_handle_add_accrue``). Without limits the accrue time is never cleared: the job ages
from its first eligibility. sprio's AGE is ``(pass − accrue) / PriorityMaxAge``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, SPRIO_ACCOUNTS, SPRIO_POOL, sprio_files

Run = Callable[..., Any]


@pytest.mark.parametrize(
    ("limits", "age"),
    [
        # submitted 10:00, the 11:00 pass: 3600 s of PriorityMaxAge's 7200, 1000 × 0.5
        pytest.param("false", "500", id="accrue-time-kept"),
        # released 10:40, the 11:00 pass: 1200 s of 7200, 1000 × 1/6 = 166.67
        pytest.param("true", "167", id="limits-accrue-from-release"),
    ],
)
def test_a_released_job_ages_from_its_accrue_time(
    tmp_path: Path, run: Run, limits: str, age: str
) -> None:
    config = SPRIO_POOL.replace(
        'max_age = "7-0"', f'max_age = "2:00:00"\nenforce_limits = {limits}'
    )
    args = sprio_files(tmp_path, [], config + SPRIO_ACCOUNTS)[:4]
    at = [*args, "--now"]
    assert (
        run("submit", "--owner", "alice", "--account", "hep", *at, "2026-11-21T10:00:00Z").exit_code
        == 0
    )
    assert run("prio", "1", "0", "--slurm", *at, "2026-11-21T10:10:00Z").exit_code == 0
    held = run("sprio", "-o", "%.5i %.10A", *at, "2026-11-21T10:30:00Z")
    assert held.stdout == "JOBID        AGE\n"  # (held: not listed)
    res = run("release", "1", *at, "2026-11-21T10:40:00Z")
    assert res.exit_code == 0, res.stderr
    assert res.stdout == "Released 1 job: 1\n"
    again = run("release", "1", *at, "2026-11-21T10:41:00Z")
    assert again.stdout == "Released 0 jobs\n"  # (scontrol: "already released, ignoring")
    listed = run("sprio", "-o", "%.5i %.10A", *at, "2026-11-21T11:00:00Z")
    assert listed.exit_code == 0, listed.stderr
    assert listed.stdout.splitlines() == ["JOBID        AGE", f"    1 {age:>10}"]


def test_a_begin_time_still_to_come_is_kept(tmp_path: Path, run: Run) -> None:
    """A job to begin at 12:00, held and released at 10:40: its begin time is not past, so
    neither the hold nor the release clears it; sprio lists it from 12:00 only."""
    args = sprio_files(tmp_path, [], SPRIO_POOL + SPRIO_ACCOUNTS)[:4]
    at = [*args, "--now"]
    job = ["--set", "eligible_time=2026-11-21T12:00:00Z"]
    assert (
        run(
            "submit", "--owner", "alice", "--account", "hep", *job, *at, "2026-11-21T10:00:00Z"
        ).exit_code
        == 0
    )
    assert run("prio", "1", "0", "--slurm", *at, "2026-11-21T10:10:00Z").exit_code == 0
    assert run("release", "1", *at, "2026-11-21T10:40:00Z").exit_code == 0
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert jobs == [{"account": "hep", "accrue_time": 1795262400.0, "eligible_time": 1795262400.0,
                     "id": "1", "owner": "alice", "submit_time": 1795255200.0}]  # fmt: skip
    assert run("sprio", "-o", "%.5i", *at, "2026-11-21T11:00:00Z").stdout == "JOBID\n"


def test_release_of_no_job_is_refused(tmp_path: Path, run: Run) -> None:
    args = sprio_files(tmp_path, [], SPRIO_POOL + SPRIO_ACCOUNTS)[:4]
    res = run("release", "9", *args, "--now", "2026-11-21T10:00:00Z")
    assert res.exit_code == 2
    assert res.stderr.endswith('no job "9" in the queue\n')


def test_a_running_job_held_runs_on_and_a_finished_one_stays_finished(
    tmp_path: Path, run: Run
) -> None:
    """``fs prio 20 0 --slurm`` on a running job made it held, and ``fs release 20`` then
    pending while it still held its CPUs (charged in sshare), and a completed or removed job
    came back pending. Read in ``job_mgr.c``: ``_update_job`` refuses any priority for a
    finished job (``ESLURM_JOB_FINISHED``: "Job has already finished"), and ``_hold_job_rec``
    sets a running job's priority to 0 without stopping it; a release clears it."""
    args = [*sprio_files(tmp_path, [], SPRIO_POOL + SPRIO_ACCOUNTS)[:4], "--now", NOW]
    for job_id, status, held in (
        ("20", "running", ()),
        ("30", "completed", ()),
        ("31", "removed", ("--set", "admin_priority=0")),
    ):
        res = run("submit", "--id", job_id, "--owner", "bob", "--account", "hep",
                  "--set", f"status={status}", *held, *args)  # fmt: skip
        assert res.exit_code == 0, res.stderr
    before = (tmp_path / "state.json").read_bytes()
    res = run("prio", "30", "0", "--slurm", *args)
    assert res.exit_code == 1
    assert res.stderr == (
        "fs: error: job 30: Job has already finished (scontrol update sets no priority on a "
        "completed or removed job)\n"
    )
    assert (tmp_path / "state.json").read_bytes() == before
    assert run("prio", "20", "0", "--slurm", *args).exit_code == 0
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert (jobs[0]["status"], jobs[0]["admin_priority"]) == ("running", 0)
    res = run("release", "20", "30", "31", *args)
    assert res.exit_code == 0, res.stderr
    assert res.stdout == "Released 1 job: 20\n"
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert [(j["id"], j.get("status"), j.get("admin_priority")) for j in jobs] == [
        ("20", "running", None), ("30", "completed", None), ("31", "removed", 0)
    ]  # fmt: skip


def test_many_ids_name_jobs_and_clusters_as_one_does(tmp_path: Path, run: Run) -> None:
    """``fs release $(seq 1 2000)`` on a queue of 200,000 held jobs took 58 s (each job
    compared with each id, twice; ``fs rm`` too, and its kept jobs each searched for in
    those removed); the ids are now looked up in sets (2.3 s, the load and save). What an
    id names is unchanged: ``12`` every job of cluster 12, ``12.1`` that job, ``12.5`` or
    ``12.0.0`` none (the first such id on the line is named)."""
    args = [*sprio_files(tmp_path, [], SPRIO_POOL + SPRIO_ACCOUNTS)[:4], "--now", NOW]
    held = ("--owner", "bob", "--account", "hep", "--set", "status=held")
    assert run("submit", "--id", "12", "--count", "3", *held, *args).exit_code == 0
    assert run("submit", "--id", "7", *held, *args).exit_code == 0
    assert run("submit", "--id", "120", "--count", "2", *held, *args).exit_code == 0
    before = (tmp_path / "state.json").read_bytes()
    for wrong in ("12.5", "12.0.0", "1", "12."):
        res = run("release", "7", wrong, "13", *args)
        assert res.exit_code == 2
        assert res.stderr == f'fs: error: no job "{wrong}" in the queue\n'
    assert (tmp_path / "state.json").read_bytes() == before
    res = run("release", "120.1", "12", "7", "12.1", *args)
    assert res.exit_code == 0, res.stderr
    assert res.stdout == "Released 5 jobs: 12.0, 12.1, 12.2, 7, 120.1\n"
    res = run("rm", "120", "12.2", *args)
    assert res.stdout == "Removed 3 jobs: 12.2, 120.0, 120.1\n"
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert [(j["id"], j.get("status", "idle")) for j in jobs] == [
        ("12.0", "idle"), ("12.1", "idle"), ("7", "idle")
    ]  # fmt: skip


def test_an_id_of_no_held_job_is_named_in_condor_releases_words(tmp_path: Path, run: Run) -> None:
    """``fs release 12.0 7`` where 12.0 is held and 7 is not printed 'Released 1 job: 12.0'
    and said nothing of 7. condor_release says "Job 7.0 not held to be released" for such a
    job (``AR_BAD_STATUS`` in ``DCSchedd::getResultString``, dc_schedd.cpp, printed by
    rm.cpp's ``printNewMessages``); scontrol ignores it (``_release_job_rec``: "already
    released, ignoring", a debug line). fs notes it on stderr, each id once, and exits 0."""
    args = [*sprio_files(tmp_path, [], SPRIO_POOL + SPRIO_ACCOUNTS)[:4], "--now", NOW]
    held = ("--owner", "bob", "--account", "hep", "--set", "status=held")
    assert run("submit", "--id", "12", "--count", "2", *held, *args).exit_code == 0
    assert run("submit", "--id", "7", "--owner", "bob", "--account", "hep", *args).exit_code == 0
    res = run("release", "12.0", "7", "7", *args)
    assert (res.exit_code, res.stdout) == (0, "Released 1 job: 12.0\n")
    assert res.stderr == "fs: note: job 7 not held to be released\n"
    res = run("release", "12", *args)
    assert (res.exit_code, res.stdout, res.stderr) == (0, "Released 1 job: 12.1\n", "")
    res = run("release", "12", "--dry-run", *args)
    assert (res.exit_code, res.stderr) == (0, "fs: note: job 12 not held to be released\n")
    assert res.stdout.endswith("Released 0 jobs\n")
