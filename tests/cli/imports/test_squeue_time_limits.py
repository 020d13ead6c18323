"""``fs import squeue``: a job's time limit, UNLIMITED told from none where a dump can.

slurmctld sends a pending job of no time limit (``NO_VAL``) with its partition's
``MaxTime`` in its place (``pack_job`` in ``job_mgr.c``, 22.05 and 26.05 alike), so for
a job in a partition no dump tells "no limit" from a limit of that ``MaxTime``: the import
keeps what is printed (the 26.05 capture's ``UNLIMITED`` jobs are ``INFINITE``). Only a
job without a partition comes as ``NO_VAL``: ``scontrol show jobs`` prints
``TimeLimit=Partition_Limit`` (22.05 ``src/api/job_info.c``, 26.05
``src/scontrol/info_job.c``), which fs refused as a bad time string; ``squeue --json``
``{"set": false, "infinite": false}`` (26.05, ``UINT32_NO_VAL``) or 4294967294 (22.05),
which fs read as UNLIMITED. Both are now no limit (no ``time_limit``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_slurm_imports_26_05 import CAPTURE, NOW, PASS, SLURM

Run = Callable[..., Any]


def _limits(tmp_path: Path, run: Run, dump: Path) -> dict[str, Any]:
    cfg = tmp_path / "pool.toml"
    cfg.write_text('[pool]\ndefaults = "current"\n')
    for kind, path in (
        ("slurm-conf", SLURM / "config" / "slurm.conf.fairtree"),
        ("sacctmgr", CAPTURE / "sacctmgr_assoc_tree.txt"),
        ("sacctmgr", CAPTURE / "sacctmgr_qos.txt"),
    ):
        res = run("import", kind, str(path), "--into", str(cfg))
        assert res.exit_code == 0, res.stderr
    state = tmp_path / "state.json"
    res = run("import", "squeue", str(dump), "--config", str(cfg), "--state", str(state),
              "--now", NOW, "--last-decay", PASS)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    return {job["id"]: job.get("time_limit") for job in json.loads(state.read_text())["jobs"]}


def test_scontrol_partition_limit_is_no_limit(tmp_path: Path, run: Run) -> None:
    text = (CAPTURE / "scontrol_show_jobs.txt").read_text()
    at = text.index("TimeLimit=UNLIMITED", text.index("JobId=19 "))
    dump = tmp_path / "jobs.txt"
    dump.write_text(text[:at] + "TimeLimit=Partition_Limit" + text[at + 19 :])
    limits = _limits(tmp_path, run, dump)
    assert limits["19"] is None
    assert limits["20"] == "INFINITE"


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        pytest.param({"set": False, "infinite": False, "number": 0}, None, id="no-val"),
        pytest.param({"set": False, "infinite": True, "number": 0}, "INFINITE", id="infinite"),
        pytest.param({"set": True, "infinite": False, "number": 30}, 1800.0, id="minutes"),
        pytest.param(4294967294, None, id="22.05-no-val"),
        pytest.param(None, "INFINITE", id="22.05-infinite"),
        pytest.param(30, 1800.0, id="22.05-minutes"),
    ],
)
def test_squeue_json_time_limit(tmp_path: Path, run: Run, value: Any, kept: Any) -> None:
    text = (CAPTURE / "squeue_json.txt").read_text()
    doc = json.loads(text[text.index("{") :])
    doc["jobs"][0]["time_limit"] = value
    dump = tmp_path / "squeue.json"
    dump.write_text(json.dumps(doc))
    limits = _limits(tmp_path, run, dump)
    assert limits[str(doc["jobs"][0]["job_id"])] == kept
    assert limits[str(doc["jobs"][1]["job_id"])] == "INFINITE"
