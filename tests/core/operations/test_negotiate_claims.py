"""The claims a cycle starts from (``operations.negotiate.read_inputs``): a claim whose
job the queue holds but no longer running ends (``CheckMatches``), a job named anywhere
in a batch of jobs identical but for their ids included."""

from __future__ import annotations

from fairshare_cli.core.batches import IdBatch, JobBatch
from fairshare_cli.core.config import Config, MachineSpec, PoolConfig
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.negotiate import negotiate, read_inputs
from fairshare_cli.core.state import State

NOW = 1_795_262_400.0
CONFIG = Config(
    pool=PoolConfig(uid_domain="example.org"),
    machines=(MachineSpec(name="exec", count=3, slots=1, attributes={"Cpus": 1, "Memory": 4096}),),
)


def _claimed() -> State:
    """Jobs 1.0 to 1.4 of alice, the first three committed to run on the three slots."""
    jobs = [{"id": f"1.{i}", "owner": "alice"} for i in range(5)]
    state, result = negotiate(CONFIG, State().with_section("jobs", jobs), NOW)
    assert [m.job_id for m in result.matches] == ["1.0", "1.1", "1.2"]
    return state


def test_claims_of_jobs_a_batch_holds_idle_end() -> None:
    """The queue 1.0 to 1.4, all idle, as one batch of ids (1.2 listed before 1.1): none
    of the three claims stays; with 1.1 still running (a batch of its own, on its slot)
    its claim stays."""
    state = _claimed()
    ids = ["1.0", "1.2", "1.1", "1.3", "1.4"]
    idle = IdBatch(Job("1.0", "alice"), 5, ids)
    assert read_inputs(CONFIG, state, NOW, "jobs", [idle]).claims == []
    running = Job("1.1", "alice", status="running", slot="slot1@exec002", start_time=NOW)
    rest = IdBatch(Job("1.0", "alice"), 4, ["1.0", "1.2", "1.3", "1.4"])
    claims = read_inputs(CONFIG, state, NOW, "jobs", [rest, JobBatch(running)]).claims
    assert [(c.slot, c.job_id) for c in claims] == [("slot1@exec002", "1.1")]
