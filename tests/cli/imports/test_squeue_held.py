"""``fs import squeue`` of a held job: a pending job printed with Priority 0.

slurmctld holds a job by setting its priority to 0 (``_hold_job_rec`` in ``job_mgr.c``;
``scontrol hold``, ``sbatch --hold``, ``scontrol update job priority=0``), and the list
sprio asks for skips it ("0 means the job is held", ``priority_multifactor.c``). The
Slurm 26.05.3 capture's job 21 is made so here (Priority 0, Reason JobHeldUser) in both of
its dumps: imported, it is held, and ``fs sprio -l`` prints the capture's rows without its
own, the others' numbers unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES

SLURM = FIXTURES / "slurm-26.05"
CAPTURE = SLURM / "ft4_t2_idle"
NOW = "2026-11-28T18:28:39Z"
PASS = "2026-11-28T18:28:30Z"


def _held_text(tmp_path: Path) -> Path:
    text = (CAPTURE / "scontrol_show_jobs.txt").read_text()
    at = text.index("JobId=21 ")
    text = text[:at] + text[at:].replace("Priority=4341", "Priority=0", 1).replace(
        "Reason=ReqNodeNotAvail", "Reason=JobHeldUser", 1
    )
    (tmp_path / "jobs.txt").write_text(text)
    return tmp_path / "jobs.txt"


def _held_json(tmp_path: Path) -> Path:
    text = (CAPTURE / "squeue_json.txt").read_text()
    start = text.index("{")
    dump = json.loads(text[start:])
    job = next(j for j in dump["jobs"] if j["job_id"] == 21)
    job["priority"]["number"] = 0
    job["state_reason"] = "JobHeldUser"
    (tmp_path / "jobs.json").write_text(json.dumps(dump))
    return tmp_path / "jobs.json"


@pytest.mark.parametrize("held", [_held_text, _held_json], ids=["scontrol", "squeue-json"])
def test_a_job_printed_with_priority_zero_is_imported_held(
    tmp_path: Path, run: Callable[..., Any], held: Callable[[Path], Path]
) -> None:
    """Before, job 21 was imported pending, named as "printed 0, computed 4341", and
    ``fs sprio -l`` listed it."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text('[pool]\ndefaults = "current"\n')
    common = ["--config", str(cfg), "--state", str(tmp_path / "state.json"), "--now", NOW]
    for step in (
        ["slurm-conf", str(SLURM / "config" / "slurm.conf.fairtree"), "--into", str(cfg)],
        ["sacctmgr", str(CAPTURE / "sacctmgr_assoc_tree.txt"), "--into", str(cfg)],
        ["sacctmgr", str(CAPTURE / "sacctmgr_qos.txt"), "--into", str(cfg)],
        ["sshare", str(CAPTURE / "sshare_a_l_json.txt"), *common, "--last-decay", PASS],
    ):
        assert run("import", *step).exit_code == 0, step
    dump = held(tmp_path)
    res = run("import", "squeue", str(dump), *common, "--last-decay", PASS)
    assert res.exit_code == 0, res.stderr
    assert res.stderr.startswith(f"{dump}: 9 jobs (8 pending, 1 held, 0 running) into ")
    assert "printed 0" not in res.stderr
    state = json.loads((tmp_path / "state.json").read_text())
    assert [j["status"] for j in state["jobs"] if j["id"] == "21"] == ["held"]
    listing = run("sprio", "-l", *common)
    assert listing.exit_code == 0, listing.stderr
    lines = (CAPTURE / "sprio_l.txt").read_text().split("\n", 1)[1].rstrip("\n").splitlines()
    assert listing.stdout.splitlines() == [line for line in lines if line.split()[0] != "21"]
