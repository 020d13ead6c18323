"""``fs taskqueues`` under a pool's ``[dirac.job_description]`` (cli/taskqueues.py).

DIRAC's JobManager validates a job with ``/Operations/JobDescription``'s bounds
(``JobModel.py``) and ``JobDB.insertNewJobIntoDB`` (``JobManifest.check``) writes
``DefaultPriority`` and ``DefaultCPUTime`` into a job that names neither; TaskQueueDB then
fits the CPU time to its segment (``fitCPUTimeToSegments``) and maps the priority with
``__hackJobPriority`` (clamped to 0.001 .. 10 whatever MaxPriority says: 15 -> 1e6).
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from fairshare_cli.cli.main import cli

NOW = "2026-11-21T12:00:00Z"
POOL = """[pool]
defaults = "current"
[dirac.groups.lhcb_user]
job_share = 1000
[dirac.job_description]
default_cpu_time = 7200
max_cpu_time = 1000000
default_priority = 5
max_priority = 20
"""
JOBS = [
    {"id": "1", "owner": "alice", "dirac_group": "lhcb_user", "count": 2},
    {
        "id": "2",
        "owner": "alice",
        "dirac_group": "lhcb_user",
        "user_priority": 15,
        "dirac_requirements": {"cpu_time": 800000},
    },
]
# Hand-derived: alice is lhcb_user's one owner, so her entity's share is 1000.
# Queue 1: no cpu_time, so DefaultCPUTime 7200, whose segment is 21600 (360, 1800, 3600,
# 21600, ...); no priority, so DefaultPriority 5: average RealPriority 5.
# Queue 2: 800000 s (within MaxCPUTime 1000000) fits 864000; priority 15 (within
# MaxPriority 20) is clamped to 10 and stored as RealPriority 1e6.
# T = 5 + 1e6 = 1000005; queue 1: 1000 * 5 / 1000005 = 0.004999975 -> %.4f 0.0050;
# queue 2: 1000 * 1e6 / 1000005 = 999.995000025 -> %.4f 999.9950, read back as 999.995.
EXPECTED = [(21600, 2, 0.005), (864000, 1, 999.995)]


def _rows(stdout: str) -> list[tuple[int, int, float]]:
    return [(r["requirements"]["cpu_time"], r["jobs"], r["priority"]) for r in json.loads(stdout)]


def test_the_pools_defaults_and_bounds_from_a_jobs_file(tmp_path: Path) -> None:
    """Before, the pool config was refused (unknown key 'dirac.job_description'); with
    DIRAC's defaults only, queue 1 would be at 86400 s with priority 1 and job 2 refused."""
    pool = tmp_path / "pool.toml"
    pool.write_text(POOL, encoding="utf-8")
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps(JOBS), encoding="utf-8")
    args = ["taskqueues", "--config", str(pool), "--state", str(tmp_path / "s.json")]
    result = CliRunner().invoke(
        cli, [*args, "--now", NOW, "--jobs-file", str(jobs), "--json"], catch_exceptions=False
    )
    assert (result.exit_code, result.stderr) == (0, "")
    assert _rows(result.stdout) == EXPECTED


def test_the_pools_defaults_and_bounds_from_the_state(tmp_path: Path) -> None:
    """The same jobs through ``fs submit``: the state's jobs read as the file's."""
    pool = tmp_path / "pool.toml"
    pool.write_text(POOL, encoding="utf-8")
    where = ["--config", str(pool), "--state", str(tmp_path / "s.json"), "--now", NOW]
    runner = CliRunner()
    submits = [
        ["--owner", "alice", "--dirac-group", "lhcb_user", "--count", "2"],
        ["--owner", "alice", "--dirac-group", "lhcb_user", "--set", "user_priority=15",
         "--set", 'dirac_requirements={"cpu_time": 800000}'],
    ]  # fmt: skip
    for options in submits:
        result = runner.invoke(cli, ["submit", *options, *where], catch_exceptions=False)
        assert result.exit_code == 0, result.stderr
    result = runner.invoke(cli, ["taskqueues", *where, "--json"], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    assert _rows(result.stdout) == EXPECTED


def test_bounds_lowered_after_submit_leave_the_waiting_jobs_queued(tmp_path: Path) -> None:
    """``fs submit ... --set user_priority=15`` under MaxPriority 20, then the pool's bounds
    lowered to DIRAC's (MaxPriority 10, MaxCPUTime 500000): ``fs taskqueues --json`` showed
    no queue but one line, "state file s.json: jobs: job 1 ('2'): user_priority: 15: DIRAC's
    JobManager refuses the job", exit 2. JobManager checks a job once, when it is submitted;
    the jobs waiting in TaskQueueDB stay, so the queues are EXPECTED's (the defaults are
    unchanged), and only a new submit is refused."""
    pool = tmp_path / "pool.toml"
    pool.write_text(POOL, encoding="utf-8")
    where = ["--config", str(pool), "--state", str(tmp_path / "s.json"), "--now", NOW]
    runner = CliRunner()
    submits = [
        ["--owner", "alice", "--dirac-group", "lhcb_user", "--count", "2"],
        ["--owner", "alice", "--dirac-group", "lhcb_user", "--set", "user_priority=15",
         "--set", 'dirac_requirements={"cpu_time": 800000}'],
    ]  # fmt: skip
    for options in submits:
        result = runner.invoke(cli, ["submit", *options, *where], catch_exceptions=False)
        assert result.exit_code == 0, result.stderr
    lowered = POOL.replace("max_cpu_time = 1000000\n", "").replace("max_priority = 20\n", "")
    pool.write_text(lowered, encoding="utf-8")
    result = runner.invoke(cli, ["taskqueues", *where, "--json"], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    assert _rows(result.stdout) == EXPECTED
    result = runner.invoke(cli, ["submit", *submits[1], *where], catch_exceptions=False)
    assert result.exit_code == 2
    assert (
        "user_priority: 15: DIRAC's JobManager refuses the job (priority out of bounds "
        "(must be between 0 and 10))" in result.stderr
    )


def test_a_default_out_of_bounds_refuses_a_job_without_the_value(tmp_path: Path) -> None:
    pool = tmp_path / "pool.toml"
    pool.write_text(POOL.replace("default_priority = 5", "default_priority = 21"), "utf-8")
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps(JOBS), encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        ["taskqueues", "--config", str(pool), "--state", str(tmp_path / "s.json"),
         "--now", NOW, "--jobs-file", str(jobs)],
    )  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {jobs}: job 1: user_priority: not given, so "
        "JobDescription/DefaultPriority = 21: DIRAC's JobManager refuses the job (priority out "
        "of bounds (must be between 0 and 20))\n"
    )


def test_a_default_out_of_bounds_refuses_a_job_that_gives_its_own_value(tmp_path: Path) -> None:
    """``default_cpu_time = 2000000`` (above MaxCPUTime 1000000) and a job giving
    ``cpu_time`` 3600: ``fs taskqueues --jobs-file jobs.json`` printed a queue at 3600 s,
    exit 0. DIRAC's JobManager makes ``BaseJobDescriptionModel(executable=...)`` first, whose
    ``injectDefaultValues`` sets cpuTime = DefaultCPUTime 2000000 and whose
    ``checkCPUTimeBounds`` then refuses it ("Invalid JDL: ... cpuTime out of bounds (must be
    between 100 and 1000000)"), before ``jdlToBaseJobDescriptionModel`` sets the job's 3600
    (``Core/Utilities/JDL.py``, DIRACCommon ``JobModel.py``; run with pydantic 2: refused).
    So no job is taken; ``fs submit`` refuses it too, and a job in the state stays queued."""
    pool = tmp_path / "pool.toml"
    pool.write_text(POOL.replace("default_cpu_time = 7200", "default_cpu_time = 2000000"), "utf-8")
    jobs = tmp_path / "jobs.json"
    job = {"id": "1", "owner": "alice", "dirac_group": "lhcb_user", "user_priority": 3}
    jobs.write_text(json.dumps([{**job, "dirac_requirements": {"cpu_time": 3600}}]), "utf-8")
    where = ["--config", str(pool), "--state", str(tmp_path / "s.json"), "--now", NOW]
    runner = CliRunner()
    result = runner.invoke(cli, ["taskqueues", *where, "--jobs-file", str(jobs)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {jobs}: job 1: dirac_requirements.cpu_time: 3600, but "
        "JobDescription/DefaultCPUTime = 2000000 is out of bounds: DIRAC's JobManager "
        "validates the default before the job's own value, so it refuses every job (cpuTime "
        "out of bounds (must be between 100 and 1000000))\n"
    )
    submit = ["submit", "--owner", "alice", "--dirac-group", "lhcb_user"]
    given = ["--set", "user_priority=3", "--set", 'dirac_requirements={"cpu_time": 3600}']
    result = runner.invoke(cli, [*submit, *given, *where])
    assert result.exit_code == 2
    assert result.stderr == (
        "fs: error: fs submit: job 1: dirac_requirements.cpu_time: 3600, but "
        "JobDescription/DefaultCPUTime = 2000000 is out of bounds: DIRAC's JobManager "
        "validates the default before the job's own value, so it refuses every job (cpuTime "
        "out of bounds (must be between 100 and 1000000))\n"
    )
    assert not (tmp_path / "s.json").exists()


def test_a_default_priority_out_of_bounds_refuses_a_job_that_gives_a_priority(
    tmp_path: Path,
) -> None:
    """``default_priority = 21`` (above MaxPriority 20) and a job giving ``user_priority`` 3:
    printed a queue, exit 0; ``checkPriorityBounds`` refuses the model's default 21 before
    the job's 3 is set, so DIRAC takes no job."""
    pool = tmp_path / "pool.toml"
    pool.write_text(POOL.replace("default_priority = 5", "default_priority = 21"), "utf-8")
    jobs = tmp_path / "jobs.json"
    job = {"id": "7", "owner": "alice", "dirac_group": "lhcb_user", "user_priority": 3}
    jobs.write_text(json.dumps([job]), "utf-8")
    result = CliRunner().invoke(
        cli,
        ["taskqueues", "--config", str(pool), "--state", str(tmp_path / "s.json"),
         "--now", NOW, "--jobs-file", str(jobs)],
    )  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {jobs}: job 7: user_priority: 3, but JobDescription/DefaultPriority "
        "= 21 is out of bounds: DIRAC's JobManager validates the default before the job's own "
        "value, so it refuses every job (priority out of bounds (must be between 0 and 20))\n"
    )
