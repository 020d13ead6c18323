"""What a job weighs in its submitter's demand (``core/htcondor/job_weight.py``): a running
job the ``SlotWeight`` of the slot ad its claim holds (``Scheduler::calcSlotWeight``)."""

from __future__ import annotations

import pytest

from fairshare_cli.core.htcondor.job_weight import idle_weigher, running_weigher
from fairshare_cli.core.jobs import Job

JOB = Job(id="1.0", owner="u", status="running", request_cpus=1, request_memory=2048)


@pytest.mark.parametrize(
    ("slot_weight", "slot_ad", "job", "weight"),
    [
        # SLOT_WEIGHT = Cpus on a 4-CPU static slot: the slot's 4, not the job's 1 CPU
        pytest.param("Cpus", {"Cpus": 4, "Memory": 8192}, JOB, 4.0, id="a big static slot"),
        pytest.param("cpus", {"cpus": 2}, JOB, 2.0, id="names in any case"),
        # 1 + 8192 / 4096 = 3, summed as it is
        pytest.param("Cpus + Memory / 4096", {"Cpus": 1, "Memory": 8192}, JOB, 3.0, id="expr"),
        pytest.param("Cpus / 3.0", {"Cpus": 1}, JOB, 1 / 3.0, id="not cut to a whole number"),
        # SlotWeight undefined in the slot ad (no Cpus): LookupFloat fails, the schedd takes 1
        pytest.param("Cpus", {"Memory": 8192}, JOB, 1.0, id="no number: 1"),
        # no slot ad (a claim the schedd reconnected to): the guess from the job's requests
        pytest.param("Cpus + Memory / 4096.0", None, JOB, 1.5, id="no slot ad: the guess"),
        # CurrentHosts 0: no shadow runs it, the schedd counts it idle (1.5 cut to 1)
        pytest.param(
            "Cpus + Memory / 4096.0",
            {"Cpus": 4, "Memory": 8192},
            Job(id="1.0", owner="u", status="running", request_memory=2048, current_hosts=0),
            1.0,
            id="marked running: idle",
        ),
    ],
)
def test_a_running_job_weighs_its_slot(
    slot_weight: str, slot_ad: dict[str, object] | None, job: Job, weight: float
) -> None:
    assert running_weigher(slot_weight)(slot_ad, job) == pytest.approx(weight, rel=0, abs=0)


def test_an_idle_job_weighs_its_requests_cut_to_a_whole_number() -> None:
    # 1 + 2048 / 4096.0 = 1.5, cut to 1
    assert idle_weigher("Cpus + Memory / 4096.0")(JOB) == 1
