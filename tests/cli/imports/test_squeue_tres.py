"""``fs import squeue`` reads a job's TRES text (``scontrol show jobs``' ``ReqTRES=``,
``AllocTRES=``, 22.05's ``TRES=``; squeue --json's ``tres_req_str``, ``tres_alloc_str``)
with the one TRES reader sacct's ``AllocTRES`` is read with (core/tres.py).

slurmctld prints those texts with ``assoc_mgr_make_tres_str_from_array`` and
``TRES_STR_CONVERT_UNITS`` (``src/common/assoc_mgr.c``, 22.05.11 and 26.05 alike): memory
through ``convert_num_unit`` from MB with ``CONVERT_NUM_UNIT_EXACT`` (divided by 1024
while it is 1024 or more and a multiple of 512: 1536 MB is ``1.50G``, 1000 MB stays
``1000M``), a ``fs/...`` count from a bare count the same way (2048 is ``2K``), any other a
whole number. So a job's memory is always a whole number of MB, and a text of any other
form is no dump of slurmctld's: it is refused, naming the item, where it was read as
memory 0 (``mem=8X``, ``mem=512K``: half a MB) or as billing by CPUs (``billing=two``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONFIG = """
[pool]
defaults = "current"
[partitions.batch]
default = true
[accounts.a]
users = { u1 = 1 }
"""
PENDING = """JobId=55 JobName=job55
   UserId=u1(1000) GroupId=users(100) MCS_label=N/A
   Priority=1 Nice=0 Account=a QOS=normal
   JobState=PENDING Reason=Priority Dependency=(null)
   SubmitTime=2026-11-21T11:00:00 EligibleTime=2026-11-21T11:00:00
   StartTime=Unknown EndTime=Unknown Deadline=N/A
   Partition=batch AllocNode:Sid=login1:4242
   NumNodes=1 NumCPUs=2 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:*
   ReqTRES={tres}
   AllocTRES=(null)
"""
SQUEUE = {
    "jobs": [
        {
            "job_id": 56,
            "job_state": ["PENDING"],
            "user_name": "u1",
            "account": "a",
            "partition": "batch",
            "cpus": {"set": True, "infinite": False, "number": 1},
            "tres_alloc_str": "",
            "tres_req_str": "cpu=1,mem=512K,node=1,billing=1",
        }
    ]
}


def _args(tmp_path: Path) -> list[str]:
    (tmp_path / "pool.toml").write_text(CONFIG)
    state = ["--state", str(tmp_path / "s.json"), "--now", "2026-11-21T12:00:00Z"]
    return ["--config", str(tmp_path / "pool.toml"), *state]


def test_memory_as_slurmctld_prints_it_and_a_disk_with_a_unit(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``mem=1.50G`` is 1.50 × 1024 = 1536 MB (what a job of ``--mem=1536`` prints);
    ``fs/disk=2K`` (a disk of 2048, as slurmctld prints it) is read, not refused."""
    dump = tmp_path / "jobs.txt"
    dump.write_text(PENDING.format(tres="cpu=2,mem=1.50G,node=1,billing=2,fs/disk=2K"))
    result = run("import", "squeue", str(dump), *_args(tmp_path))
    assert result.exit_code == 0, result.stderr
    (job,) = json.loads((tmp_path / "s.json").read_text())["jobs"]
    assert (job["request_memory"], job["request_cpus"]) == (1536, 2)


@pytest.mark.parametrize(
    ("tres", "expected"),
    [
        pytest.param(
            "cpu=2,mem=8X,node=1,billing=2",
            "ReqTRES mem=8X: expected name=count, a number (memory with a unit: K, M, G, T "
            "or P), as scontrol prints it",
            id="no-unit",
        ),
        pytest.param(
            "cpu=2,mem=512K,node=1,billing=2",
            "ReqTRES mem=512K: expected a whole number of MB (as scontrol prints a job's "
            "memory: 1000M, 1.50G)",
            id="half-a-mb",
        ),
        pytest.param(
            "cpu=2,mem=1000M,node=1,billing=two",
            "ReqTRES billing=two: expected name=count, a number (memory with a unit: K, M, "
            "G, T or P), as scontrol prints it",
            id="billing",
        ),
    ],
)
def test_a_tres_text_slurmctld_never_prints_is_refused(
    tmp_path: Path, run: Callable[..., Any], tres: str, expected: str
) -> None:
    dump = tmp_path / "jobs.txt"
    dump.write_text(PENDING.format(tres=tres))
    result = run("import", "squeue", str(dump), *_args(tmp_path))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {dump}:9: {expected}\n"
    assert not (tmp_path / "s.json").exists()


def test_squeue_json_memory_of_half_a_mb_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    dump = tmp_path / "jobs.json"
    dump.write_text(json.dumps(SQUEUE))
    result = run("import", "squeue", str(dump), *_args(tmp_path))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {dump}: jobs[0]: tres_req_str mem=512K: expected a whole number of MB "
        "(as squeue prints a job's memory: 1000M, 1.50G)\n"
    )
