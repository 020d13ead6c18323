"""fs import condor-q takes the ids and JobStatus values HTCondor gives a job (proc.h: a
cluster from 1, its jobs numbered from 0; JobStatus 1 to 7, 8 and 9 kept for future use):
a damaged capture's JobStatus 0, -1 or 99 was skipped as "removed/completed" (exit 0), and a
ClusterId -1 put job "-1.-5" into the state, an id fs submit --id refuses. Now refused at
the ad's line, exit 2, the state and config untouched."""

from __future__ import annotations

import pytest

from tests.cli.imports.conftest import Refuse

#: One idle job ad of condor_q -long output (its QDate before the tests' --now).
AD = 'ClusterId = {cluster}\nProcId = {proc}\nOwner = "alice"\nJobStatus = {status}\n'
AD += "QDate = 1795000000\nRequestCpus = 1\n\n"


@pytest.mark.parametrize("status", ["0", "-1", "8", "99"])
def test_a_job_status_htcondor_never_gives_is_refused(refuse_dump: Refuse, status: str) -> None:
    refuse_dump(
        "condor-q",
        AD.format(cluster=7, proc=0, status=status),
        f":1: job 7.0: JobStatus = {status}; expected 1 to 7, the states HTCondor gives a job "
        "(1 idle, 2 running, 3 removed, 4 completed, 5 held, 6 transferring output, "
        "7 suspended)",
    )


@pytest.mark.parametrize(("cluster", "proc"), [("-1", "-5"), ("0", "0"), ("7", "-1")])
def test_a_job_id_htcondor_never_gives_is_refused(
    refuse_dump: Refuse, cluster: str, proc: str
) -> None:
    refuse_dump(
        "condor-q",
        AD.format(cluster=cluster, proc=proc, status=1),
        f':1: job id "{cluster}.{proc}" (ClusterId.ProcId): expected a whole number from 1 '
        "(a Slurm or DIRAC job id, or an HTCondor cluster) or CLUSTER.PROC (HTCondor's "
        "12.0), in digits without leading zeros",
    )
