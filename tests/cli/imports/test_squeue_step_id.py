"""fs import squeue reads a job's SLUID from squeue --json's ``step_id`` object
(``SLURM_STEP_ID``, data_parser v0.0.44 on; older dumps have no ``step_id``). A
``step_id`` that is no object was passed over without a word, the job's SLUID lost; now it
is refused at the record, exit 2, the state and config untouched."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli.imports.conftest import Refuse


@pytest.mark.parametrize(
    ("step_id", "got"), [("x", "'x'"), ([1], "an array"), (19, "19")], ids=["text", "list", "int"]
)
def test_a_step_id_that_is_no_object_is_refused(
    refuse_dump: Refuse, step_id: Any, got: str
) -> None:
    job = {"job_id": 19, "job_state": ["PENDING"], "user_name": "alice", "account": "hep",
           "step_id": step_id}  # fmt: skip
    refuse_dump(
        "squeue",
        json.dumps({"jobs": [job]}),
        f": jobs[0]: step_id: expected an object (holding sluid), got {got}",
    )
