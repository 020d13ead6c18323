"""fs import squeue takes the job ids Slurm hands out (whole numbers from 1, as fs submit
--id takes them): a damaged dump's JobId=0, -5 or 007 went into the state as a job no
command could name (fs rm 007 finds no "7"). Now refused at the record, exit 2, the state
and config untouched, in squeue --json and scontrol show jobs output alike."""

from __future__ import annotations

import json

import pytest

from tests.cli.imports.conftest import SLURM, Refuse

FORMS = (
    "expected a whole number from 1 (a Slurm or DIRAC job id, or an HTCondor cluster) or "
    "CLUSTER.PROC (HTCondor's 12.0), in digits without leading zeros"
)


@pytest.mark.parametrize("job_id", [0, -5])
def test_squeue_json_job_id_no_slurm_gives_is_refused(refuse_dump: Refuse, job_id: int) -> None:
    job = {"job_id": job_id, "job_state": ["PENDING"], "user_name": "alice", "account": "hep"}
    refuse_dump("squeue", json.dumps({"jobs": [job]}), f': jobs[0]: job id "{job_id}": {FORMS}')


@pytest.mark.parametrize("job_id", ["0", "-5", "007"])
def test_scontrol_job_id_no_slurm_gives_is_refused(refuse_dump: Refuse, job_id: str) -> None:
    """Job 5 of the capture (line 86) is pending: its record goes to the queue."""
    text = (SLURM / "ft1_running" / "scontrol_show_jobs.txt").read_text()
    assert text.count("JobId=5 ") == 1
    edited = text.replace("JobId=5 ", f"JobId={job_id} ")
    refuse_dump("squeue", edited, f':86: job id "{job_id}": {FORMS}')
