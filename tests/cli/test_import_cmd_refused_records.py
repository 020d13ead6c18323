"""A usage record a model refuses, in a ``sacct`` or ``condor-history`` import: one line,
exit 2, nothing written, the job named by the line of the dump it is on. Importing the
same ``sacct -P`` dump twice, or a ``condor_history`` job that ended before the
accountant's last update, ended in a ``TypeError`` traceback (exit 1): the import group
rebuilt the refusal with a constructor it does not have."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import common, refused

SACCT = (
    "JobID|User|Account|Partition|QOS|AllocCPUS|Start|End\n"
    "5|alice|hep|batch|normal|1|2026-11-21T08:00:00|2026-11-21T10:00:00\n"
)
HISTORY_AD = """Owner = "alice"
ClusterId = 7
ProcId = 0
JobStatus = 4
RequestCpus = 1
JobCurrentStartDate = 1795248000
CompletionDate = 1795255200
EnteredCurrentStatus = 1795255200

"""


def test_the_same_sacct_dump_imported_twice_is_refused_in_one_line(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    dump = env["dir"] / "jobs.txt"
    dump.write_text(SACCT)
    line = ["import", "sacct", str(dump), *common(env)]  # cli import sacct jobs.txt ...
    assert run(*line).exit_code == 0
    before = env["state"].read_bytes()
    refused(run(*line), "jobs.txt:2: starts before alice@example.org's last update")
    assert env["state"].read_bytes() == before


def test_a_condor_history_job_older_than_the_accountant_is_refused_in_one_line(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    dump = env["dir"] / "jobs.txt"
    dump.write_text(SACCT)
    assert run("import", "sacct", str(dump), *common(env)).exit_code == 0
    before = env["state"].read_bytes()
    ads = env["dir"] / "hist.txt"
    ads.write_text(HISTORY_AD)  # 08:00 to 10:00, before the accountant's update at --now
    result = run("import", "condor-history", str(ads), *common(env))
    refused(result, "hist.txt:1: starts before alice@example.org's last update")
    assert env["state"].read_bytes() == before
