"""``fs submit --dirac-group`` refuses what DIRAC's JobManager refuses (cli/jobs_cmd.py).

``JobManagerHandler.export_submitJob`` validates the JDL as a ``JobDescriptionModel``
before the job exists; ``JobModel.py``'s default bounds (read by hand): Priority 0 to 10,
CPUTime 100 to 500000 s, sites known or ``ANY``, sites not all banned.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import REPO

POOL = str(REPO / "sample_configs" / "pool.toml")


@pytest.mark.parametrize(
    ("sets", "message"),
    [
        pytest.param(["user_priority=11"], "user_priority: 11: DIRAC's JobManager refuses the "
                     "job (priority out of bounds (must be between 0 and 10))", id="priority-11"),
        pytest.param(["user_priority=3.7"], "user_priority: 3.7 is not a whole number; DIRAC "
                     "reads a job's Priority as an integer and its JobManager refuses the job "
                     "(Invalid JDL)", id="priority-3.7"),
        pytest.param(['dirac_requirements={"cpu_time": 50}'], "dirac_requirements.cpu_time: "
                     "50: DIRAC's JobManager refuses the job (cpuTime out of bounds (must be "
                     "between 100 and 500000))", id="cpu-time-50"),
        pytest.param(['dirac_requirements={"cpu_time": 500001}'], "dirac_requirements."
                     "cpu_time: 500001: DIRAC's JobManager refuses the job (cpuTime out of "
                     "bounds (must be between 100 and 500000))", id="cpu-time-500001"),
        pytest.param(['dirac_requirements={"sites": ["any"]}'], "dirac_requirements.sites: "
                     "'any': DIRAC's JobManager refuses the job (Invalid sites: any); any site "
                     "is 'ANY', spelt so", id="site-any"),
        pytest.param(['dirac_requirements={"sites": ["A"], "banned_sites": ["A"]}'],
                     "dirac_requirements: every site in sites is in banned_sites; DIRAC's "
                     "JobManager refuses the job (sites and bannedSites are mutually "
                     "exclusive)", id="sites-all-banned"),
    ],
)  # fmt: skip
def test_submit_refuses_what_jobmanager_refuses(
    tmp_path: Path, sets: list[str], message: str
) -> None:
    """fs submit took each of these (3.7 counted as 3, 11 as 10, 50 s in the first segment)."""
    state = tmp_path / "state.json"
    args = ["submit", "--owner", "alice", "--dirac-group", "lhcb_user"]
    for field in sets:
        args += ["--set", field]
    args += ["--config", POOL, "--state", str(state), "--now", "2026-11-21T12:00:00Z"]
    result = CliRunner().invoke(cli, args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: fs submit: job 1: {message}\n"
    assert not state.exists()


def test_submit_takes_both_ends(tmp_path: Path) -> None:
    """Priority 0 and 10, CPU time 100 and 500000 s are inside JobModel's bounds."""
    state = tmp_path / "state.json"
    common = ["--config", POOL, "--state", str(state), "--now", "2026-11-21T12:00:00Z"]
    for prio, cpu in ((0, 100), (10, 500000)):
        args = ["submit", "--owner", "alice", "--dirac-group", "lhcb_user", "--set",
                f"user_priority={prio}", "--set", f'dirac_requirements={{"cpu_time": {cpu}}}']  # fmt: skip
        result = CliRunner().invoke(cli, [*args, *common])
        assert result.exit_code == 0, result.stderr
    jobs = json.loads(state.read_text())["jobs"]
    assert [(j["user_priority"], j["dirac_requirements"]["cpu_time"]) for j in jobs] == [
        (0, 100),
        (10, 500000),
    ]


JOB_DESCRIPTION = """[pool]
defaults = "current"
[dirac.groups.lhcb_user]
[dirac.job_description]
max_priority = 20
max_cpu_time = 1000000
default_priority = 12
min_priority = 2
"""


def test_submit_applies_the_pools_job_description(tmp_path: Path) -> None:
    """``checkPriorityBounds``/``checkCPUTimeBounds`` with the pool's ``MaxPriority`` 20,
    ``MinPriority`` 2, ``MaxCPUTime`` 1000000; before, the key was unknown (exit 2) and the
    bounds were 0 to 10 and 100 to 500000 whatever the pool said."""
    pool = tmp_path / "pool.toml"
    pool.write_text(JOB_DESCRIPTION, encoding="utf-8")
    state = tmp_path / "state.json"
    where = ["--config", str(pool), "--state", str(state), "--now", "2026-11-21T12:00:00Z"]
    base = ["submit", "--owner", "alice", "--dirac-group", "lhcb_user"]
    runner = CliRunner()
    taken = runner.invoke(
        cli,
        [*base, "--set", "user_priority=20", "--set", 'dirac_requirements={"cpu_time": 1000000}',
         *where],
    )  # fmt: skip
    assert (taken.exit_code, taken.stderr) == (0, ""), taken.stderr
    for sets, message in (
        (["--set", "user_priority=21"], "user_priority: 21: DIRAC's JobManager refuses the job "
         "(priority out of bounds (must be between 2 and 20))"),
        (["--set", "user_priority=1"], "user_priority: 1: DIRAC's JobManager refuses the job "
         "(priority out of bounds (must be between 2 and 20))"),
        (["--set", "user_priority=3", "--set", 'dirac_requirements={"cpu_time": 1000001}'],
         "dirac_requirements.cpu_time: 1000001: DIRAC's JobManager refuses the job (cpuTime "
         "out of bounds (must be between 100 and 1000000))"),
    ):  # fmt: skip
        result = runner.invoke(cli, [*base, *sets, *where])
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == f"fs: error: fs submit: job 2: {message}\n"
    assert [j["id"] for j in json.loads(state.read_text(encoding="utf-8"))["jobs"]] == ["1"]


def test_submit_without_a_priority_takes_the_default_or_is_refused(tmp_path: Path) -> None:
    """No ``Priority``: JobManager validates ``DefaultPriority``; 12 is within 2 to 20."""
    pool = tmp_path / "pool.toml"
    state = tmp_path / "state.json"
    where = ["--config", str(pool), "--state", str(state), "--now", "2026-11-21T12:00:00Z"]
    base = ["submit", "--owner", "alice", "--dirac-group", "lhcb_user"]
    pool.write_text(JOB_DESCRIPTION, encoding="utf-8")
    result = CliRunner().invoke(cli, [*base, *where])
    assert (result.exit_code, result.stderr) == (0, "")
    pool.write_text(JOB_DESCRIPTION.replace("max_priority = 20", "max_priority = 10"), "utf-8")
    result = CliRunner().invoke(cli, [*base, *where])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: fs submit: job 2: user_priority: not given, so "
        "JobDescription/DefaultPriority = 12: DIRAC's JobManager refuses the job (priority out "
        "of bounds (must be between 2 and 10))\n"
    )
