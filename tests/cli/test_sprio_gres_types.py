"""``fs sprio --jobs-file`` of a job asking a GRES ``priority.gres_types`` does not list
(core/slurm/gres_types.py).

slurmctld makes a GRES context for each name of ``GresTypes`` and no other (``gres_init``).
A job's request is parsed at submission by ``gres_job_state_validate`` (``_job_create`` in
``src/slurmctld/job_mgr.c``, 22.05 and master alike), whose ``_get_next_gres`` finds no
context for an unlisted name and returns ``ESLURM_INVALID_GRES``: sbatch prints "Invalid
generic resource (gres) specification" and no job exists, so none pends and sprio lists
none. That name is compared in case (``xstrcmp``), but a job's ``gres/`` attributes are
its TRES, found in any case (``assoc_mgr_find_tres_pos``): ``"gres/GPU"`` is the TRES of
a ``--gres=gpu`` job under ``GresTypes=gpu``. fs listed such a job; now the file is
refused (exit 2) when ``gres_types`` is set, and read as before when it is unset.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import refused, sprio_files

Run = Callable[..., Any]

#: Two nodes of 4 CPUs and 2 A100s each (slurm.conf's Gres=gpu:a100:2), batch's.
POOL = """
[pool]
defaults = "current"
[[machines]]
name = "g"
count = 2
attributes = { Cpus = 4, "gres/gpu:a100" = 2 }
[partitions.batch]
default = true
[priority]
GRES_TYPES
[priority.weights]
age = 0
fairshare = 0
jobsize = 0
partition = 0
qos = 0
tres = "CPU=1000,GRES/gpu=1000"
[accounts.hep]
users = { alice = 1 }
"""
#: A job of 2 CPUs asking one A100, a licence and a burst buffer (neither is a GRES).
JOB = {"id": "1", "owner": "alice", "account": "hep", "request_cpus": 2,
       "submit_time": "2026-11-21T11:00:00Z",
       "attributes": {"gres/gpu:a100": 1, "license/matlab": 1, "bb/datawarp": 5}}  # fmt: skip
TPU = {**JOB, "id": "2", "attributes": {"gres/tpu:v4": 1}}
REFUSAL = (
    'job 2: attributes: "gres/tpu:v4" names a GRES priority.gres_types ("gpu,nic") does not '
    "list: slurmctld refuses such a job at submission (Invalid generic resource (gres) "
    "specification), so no queue holds it; list tpu in gres_types (GresTypes) or drop the "
    "attribute"
)


@pytest.mark.parametrize(
    "gres_types", ["", 'gres_types = "gpu"', 'gres_types = "nic,gpu"', 'gres_types = "GPU,gpu"']
)
def test_a_listed_gres_is_weighed_as_before(tmp_path: Path, run: Run, gres_types: str) -> None:
    """Unset, or listing gpu: batch counts cpu 8 and gres/gpu 4 (the A100s count towards
    gres/gpu, ``_set_type_tres_cnt``); the job's cpu 2/8 x 1000 = 250, its A100 towards
    gres/gpu 1/4 x 1000 = 250: PRIORITY 500 (``_get_tres_factors``). The licence and the
    burst buffer are no GRES: not checked, not weighed."""
    files = sprio_files(tmp_path, [JOB], POOL.replace("GRES_TYPES", gres_types))
    res = run("sprio", "-o", "%.5i %.10Y %.30T", *files)
    assert (res.exit_code, res.stderr) == (0, "")
    assert res.stdout.splitlines()[1].split() == ["1", "500", "cpu=250,gres/gpu=250"]


def test_a_gres_tres_is_matched_in_any_case(tmp_path: Path, run: Run) -> None:
    """``"gres/GPU:a100"``: the TRES of a ``--gres=gpu:a100`` job, found in any case; the
    same row as ``"gres/gpu:a100"``."""
    job = {**JOB, "attributes": {"gres/GPU:a100": 1}}
    files = sprio_files(tmp_path, [job], POOL.replace("GRES_TYPES", 'gres_types = "gpu"'))
    res = run("sprio", "-o", "%.5i %.10Y %.30T", *files)
    assert (res.exit_code, res.stderr) == (0, "")
    assert res.stdout.splitlines()[1].split() == ["1", "500", "cpu=250,gres/gpu=250"]


def test_a_jobs_file_asking_an_unlisted_gres_is_refused(tmp_path: Path, run: Run) -> None:
    """The file's job 2 asks a TPU that ``GresTypes=gpu,nic`` does not list: slurmctld
    never took it, so the file is not the cluster's queue under this config: one line,
    exit 2, naming the file, the job and the GRES. Unset, fs cannot know the cluster's
    GRES: both jobs are listed, the TPU weighing nothing (no weight names it)."""
    config = POOL.replace("GRES_TYPES", 'gres_types = "gpu,nic"')
    files = sprio_files(tmp_path, [JOB, TPU], config)
    res = run("sprio", "-o", "%.5i %.10Y %.30T", *files)
    refused(res)
    assert res.stderr == f"fs: error: {tmp_path / 'jobs.json'}: {REFUSAL}\n"
    files = sprio_files(tmp_path, [JOB, TPU], POOL.replace("GRES_TYPES", ""))
    res = run("sprio", "-o", "%.5i %.10Y %.30T", *files)
    assert (res.exit_code, res.stderr) == (0, "")
    assert [line.split()[:2] for line in res.stdout.splitlines()[1:]] == [
        ["1", "500"],
        ["2", "250"],
    ]


def test_whatif_leaves_the_job_out_of_the_side_that_does_not_list_it(
    tmp_path: Path, run: Run
) -> None:
    """``fs whatif --set priority.gres_types=gpu,nic,tpu``: before, job 2 is left out and
    noted (the change is what lists it); after, its row appears: cpu 2/8 x 1000 = 250."""
    config = POOL.replace("GRES_TYPES", 'gres_types = "gpu,nic"')
    files = sprio_files(tmp_path, [JOB, TPU], config)
    res = run("whatif", "--set", "priority.gres_types=gpu,nic,tpu", "sprio", "--json", *files)
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert [r["priority"] for r in doc["before"]] == [500]
    assert [r["priority"] for r in doc["after"]] == [500, 250]
    assert doc["notes"] == [f"before: left out {REFUSAL}"]
