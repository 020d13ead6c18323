"""``fs import squeue`` reads a job's GRES from its TRES text into the job's
``attributes`` (``"gres/gpu": 2``), which the GRES terms of ``priority.weights.tres`` weigh.

slurmctld's ``_get_tres_factors`` (``priority_multifactor.c``, 22.05 and 26.05 alike)
weighs a pending job's ``tres_req_cnt``, the counts its ``ReqTRES=`` (22.05: ``TRES=``;
squeue --json: ``tres_req_str``) prints, ``gres/gpu`` and ``gres/gpu:a100`` among them when
``AccountingStorageTRES`` tracks them. ``TresPerNode=`` and squeue's ``%b`` name the
request per node, untracked GRES too, which no weight reads: fs takes the TRES text. The
import dropped the ``gres/`` items, so a GRES weight gave such a job 0.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.imports.test_squeue_tres import PENDING

#: Two nodes of 4 CPUs and 2 A100s (slurm.conf's Gres=gpu:a100:2), batch's.
CONFIG = """
[pool]
defaults = "current"
[[machines]]
name = "g"
count = 2
attributes = { Cpus = 4, "gres/gpu:a100" = 2 }
[partitions.batch]
default = true
[priority.weights]
tres = "CPU=1000,GRES/gpu=1000,GRES/gpu:a100=500"
[accounts.a]
users = { u1 = 1 }
"""


def test_a_jobs_gres_is_read_and_weighed(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Job 55 asks 2 CPUs and one A100 on one node (``--gres=gpu:a100:1``): ReqTRES
    ``cpu=2,mem=1000M,node=1,billing=2,gres/gpu=1,gres/gpu:a100=1``. Batch counts cpu 8,
    gres/gpu 4, gres/gpu:a100 4: cpu 2/8 x 1000 = 250, gres/gpu 1/4 x 1000 = 250,
    gres/gpu:a100 1/4 x 500 = 125, PRIORITY 625 (before: 250, the GPU unread)."""
    (tmp_path / "pool.toml").write_text(CONFIG)
    common = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json")]
    common += ["--now", "2026-11-21T12:00:00Z"]
    dump = tmp_path / "jobs.txt"
    tres = "cpu=2,mem=1000M,node=1,billing=2,gres/gpu=1,gres/gpu:a100=1"
    dump.write_text(PENDING.format(tres=tres))
    result = run("import", "squeue", str(dump), *common)
    assert result.exit_code == 0, result.stderr
    (job,) = json.loads((tmp_path / "s.json").read_text())["jobs"]
    assert job["attributes"] == {"gres/gpu": 1, "gres/gpu:a100": 1}
    result = run("sprio", "-o", "%.5i %.10Y %.40T", *common)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "JOBID   PRIORITY                                     TRES",
        "   55        625   cpu=250,gres/gpu=250,gres/gpu:a100=125",
    ]


def test_squeue_json_is_read_alike(tmp_path: Path, run: Callable[..., Any]) -> None:
    """squeue --json's ``tres_req_str`` of a pending job: ``gres/gpu=2`` is
    ``"gres/gpu": 2``; a job of no GRES keeps no ``attributes``."""
    (tmp_path / "pool.toml").write_text(CONFIG)
    common = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json")]
    job = {"job_id": 56, "job_state": ["PENDING"], "user_name": "u1", "account": "a",
           "partition": "batch", "cpus": {"set": True, "infinite": False, "number": 1},
           "tres_alloc_str": "", "tres_req_str": "cpu=1,mem=500M,node=1,billing=1,gres/gpu=2"}  # fmt: skip
    plain = {**job, "job_id": 57, "tres_req_str": "cpu=1,mem=500M,node=1,billing=1"}
    dump = tmp_path / "squeue.json"
    dump.write_text(json.dumps({"jobs": [job, plain]}))
    result = run("import", "squeue", str(dump), *common, "--now", "2026-11-21T12:00:00Z")
    assert result.exit_code == 0, result.stderr
    jobs = json.loads((tmp_path / "s.json").read_text())["jobs"]
    assert [j.get("attributes") for j in jobs] == [{"gres/gpu": 2}, None]


def test_a_job_of_a_gres_gres_types_does_not_list_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """slurmctld refuses at submission a job asking a GRES ``GresTypes`` does not list
    (``gres_job_state_validate`` in ``_job_create``: "Invalid generic resource (gres)
    specification"), so a dump of the cluster holds none: with ``gres_types = "gpu"``, job
    55's ``gres/tpu:v4=1`` makes the dump disagree with the config: refused, exit 2,
    naming the dump, the job and the GRES, nothing written. The TRES's names are matched in
    any case, as slurmctld finds a TRES (``GresTypes=GPU`` lists ``gres/gpu``); unset, the
    TPU is read as before."""
    common = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json")]
    common += ["--now", "2026-11-21T12:00:00Z"]
    dump = tmp_path / "jobs.txt"
    dump.write_text(PENDING.format(tres="cpu=2,mem=1000M,node=1,billing=2,gres/tpu:v4=1"))
    (tmp_path / "pool.toml").write_text(CONFIG + '[priority]\ngres_types = "gpu"\n')
    result = run("import", "squeue", str(dump), *common)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f'fs: error: {dump}: job 55: attributes: "gres/tpu:v4" names a GRES '
        'priority.gres_types ("gpu") does not list: slurmctld refuses such a job at '
        "submission (Invalid generic resource (gres) specification), so no queue holds it; "
        "list tpu in gres_types (GresTypes) or drop the attribute\n"
    )
    assert not (tmp_path / "s.json").exists()
    (tmp_path / "pool.toml").write_text(CONFIG)
    result = run("import", "squeue", str(dump), *common)
    assert result.exit_code == 0, result.stderr
    dump.write_text(PENDING.format(tres="cpu=2,mem=1000M,node=1,billing=2,gres/gpu=1"))
    upper = CONFIG.replace('"gres/gpu:a100"', '"gres/GPU:a100"')
    (tmp_path / "pool.toml").write_text(upper + '[priority]\ngres_types = "GPU"\n')
    result = run("import", "squeue", str(dump), *common)
    assert result.exit_code == 0, result.stderr
