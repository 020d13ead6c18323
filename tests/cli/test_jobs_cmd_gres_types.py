"""``fs submit`` of a Slurm job asking a GRES ``priority.gres_types`` does not list
(cli/jobs_cmd.py, through core/operations/validate.check_jobs_against_config): sbatch's
job is refused by slurmctld at submission (``_job_create`` -> ``gres_job_state_validate``
-> ``_get_next_gres``: ``ESLURM_INVALID_GRES``, "Invalid generic resource (gres)
specification"), so ``fs submit`` refuses it: one line, exit 2, the state untouched. fs
queued it. Unset, fs cannot know the cluster's GRES and queues it, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, refused, sprio_files
from tests.cli.test_sprio_gres_types import POOL

Run = Callable[..., Any]
SUBMIT = ("submit", "--owner", "alice", "--account", "hep", "--cpus", "2")


def test_submit_refuses_a_gres_gres_types_does_not_list(tmp_path: Path, run: Run) -> None:
    files = sprio_files(tmp_path, [], POOL.replace("GRES_TYPES", 'gres_types = "gpu"'))[:4]
    state = tmp_path / "state.json"
    before = state.read_bytes()
    tpu = ["--set", 'attributes={"gres/tpu": 1}']
    res = run(*SUBMIT, *tpu, *files, "--now", NOW)
    refused(res)
    assert res.stderr == (
        'fs: error: fs submit: job 1: attributes: "gres/tpu" names a GRES '
        'priority.gres_types ("gpu") does not list: slurmctld refuses such a job at '
        "submission (Invalid generic resource (gres) specification), so no queue holds it; "
        "list tpu in gres_types (GresTypes) or drop the attribute\n"
    )
    assert state.read_bytes() == before
    gpu = ["--set", 'attributes={"gres/gpu:a100": 1, "license/matlab": 1}']
    res = run(*SUBMIT, *gpu, *files, "--now", NOW)
    assert (res.exit_code, res.stderr) == (0, "")
    files = sprio_files(tmp_path, [], POOL.replace("GRES_TYPES", ""))[:4]
    res = run(*SUBMIT, *tpu, *files, "--now", NOW)
    assert (res.exit_code, res.stderr) == (0, "")
