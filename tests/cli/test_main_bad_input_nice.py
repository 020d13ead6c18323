"""A job's ``nice`` and ``site_factor`` beyond Slurm's range, +/- 2147483645 (NICE_OFFSET
- 3: what ``sbatch --nice`` takes in ``arg_set_nice``, src/common/slurm_opt.c, and
``scontrol update job SiteFactor=`` in src/scontrol/update_job.c), are refused by every
reader of job objects, in Slurm's words, exit 2. Before, only ``fs submit`` refused them:
``fs sprio --jobs-file jobs.json`` listed a job of site factor -4294967296 with a
PRIORITY of 1 and a SITE column cut to ``-429496729``, and ``fs negotiate --dry-run`` and
``fs taskqueues`` read such a file without a word."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

READERS = [
    ["sprio", "--jobs-file", "{file}"],
    ["negotiate", "--dry-run", "--jobs-file", "{file}"],
    ["taskqueues", "--jobs-file", "{file}"],
    ["simulate", "--workload", "{file}", "--until", "1:00:00"],
    ["submit", "--file", "{file}"],
]
BEYOND = [
    pytest.param("nice", 2147483646, "Invalid --nice value, out of range", id="nice-high"),
    pytest.param("nice", -2147483646, "Invalid --nice value, out of range", id="nice-low"),
    pytest.param("site_factor", -4294967296, "SiteFactor value out of range", id="site-low"),
    pytest.param("site_factor", 2**32 - 1, "SiteFactor value out of range", id="site-uint32"),
]


@pytest.mark.parametrize(("field", "value", "says"), BEYOND)
@pytest.mark.parametrize("line", READERS, ids=lambda line: line[0])
def test_a_jobs_file_beyond_slurms_range_is_refused_by_every_reader(
    env: dict[str, Path],
    run: Callable[..., Any],
    tmp_path: Path,
    line: list[str],
    field: str,
    value: int,
    says: str,
) -> None:
    """``fs sprio --jobs-file jobs.json`` with ``"site_factor": -4294967296`` (and the
    other readers) says what ``fs submit --file jobs.json`` says."""
    path = tmp_path / "jobs.json"
    job = {"id": "1.0", "owner": "alice", "account": "hep", "dirac_group": "lhcb_user"}
    path.write_text(json.dumps([job, {**job, "id": "2.0", field: value}]))
    before = env["state"].read_bytes()
    args = [str(path) if word == "{file}" else word for word in line]
    refused(
        run(*args, *common(env)),
        f"{path}: job 2.0: {field}: {says} (+/- 2147483645), got {value}",
    )
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize("line", READERS[:3], ids=lambda line: line[0])
def test_slurms_edges_are_read(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path, line: list[str]
) -> None:
    """+/- 2147483645 themselves are Slurm's own values: read as any other."""
    path = tmp_path / "jobs.json"
    job = {"id": "1.0", "owner": "alice", "account": "hep", "dirac_group": "lhcb_user"}
    path.write_text(json.dumps([{**job, "nice": -2147483645, "site_factor": 2147483645}]))
    args = [str(path) if word == "{file}" else word for word in line]
    res = run(*args, *common(env))
    assert res.exit_code == 0, res.stderr


def test_a_hand_edited_state_beyond_slurms_range_is_refused_and_kept(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs sprio`` over a state whose queue holds ``"nice": 2147483646`` (the views that
    read the queue's Slurm fields; ``fs taskqueues`` reads its DIRAC ones only)."""
    state = json.loads(env["state"].read_text())
    state["jobs"][0]["nice"] = 2147483646
    env["state"].write_text(json.dumps(state))
    before = env["state"].read_bytes()
    for view in (["sprio"], ["negotiate", "--dry-run"]):
        refused(
            run(*view, *common(env)),
            "jobs: job 1: nice: Invalid --nice value, out of range (+/- 2147483645)",
        )
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize(
    ("option", "says"),
    [
        (["--nice", "-2147483646"], "--nice: Invalid --nice value, out of range"),
        (["--set", "site_factor=2147483646"], "--set site_factor: SiteFactor value out of"),
    ],
)
def test_submit_options_beyond_slurms_range_are_refused(
    env: dict[str, Path], run: Callable[..., Any], option: list[str], says: str
) -> None:
    """``fs submit --owner alice --nice -2147483646``."""
    before = env["state"].read_bytes()
    refused(run("submit", "--owner", "alice", *option, *common(env)), says)
    assert env["state"].read_bytes() == before
