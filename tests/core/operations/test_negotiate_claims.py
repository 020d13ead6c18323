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


def test_a_match_no_job_takes_on_its_submitters_own_slot_charges_nothing() -> None:
    """alice holds s001 from 0, charged 2 (its weight then; ``Cpus`` is 1 now), half-life
    100 s (b = 0.5 a cycle). A cycle at 100 makes a match no job takes of alice's on s001:
    25.0's ``AddMatch`` finds the record alice's ("Match already existed!") and returns,
    so alice stays at 2 and nothing is kept for the next cycle to end. At 200:
    P = (0.5 b + 2 (1 - b)) b + 2 (1 - b) = 1.625, 400 weighted slot-seconds. fs took
    the holder's 2 off and charged the match's 1 until then: 1.125 and 300."""
    from fairshare_cli.core.config import AccountantConfig, NegotiatorConfig
    from fairshare_cli.core.htcondor import accountant as acct
    from fairshare_cli.core.htcondor.claims import NegotiatorState
    from fairshare_cli.core.htcondor.cycle_accounting import add_match_at, update_priorities
    from fairshare_cli.core.htcondor.negotiator import Claim, CycleResult
    from fairshare_cli.core.htcondor.negotiator.results import JoblessMatch
    from fairshare_cli.core.operations.negotiate import apply_matches

    config = Config(
        pool=PoolConfig(uid_domain="d"),
        accountant=AccountantConfig(priority_halflife=100.0, default_prio_factor=1.0),
        negotiator=NegotiatorConfig(use_slot_weights=True),
        machines=(MachineSpec(name="s", count=1, slots=1, attributes={"Cpus": 1}),),
    )
    s = add_match_at(update_priorities(acct.EMPTY, config, 0.0), config, "alice@d", 2.0, 0.0)
    neg = NegotiatorState({"slot1@s001": Claim("slot1@s001", "alice@d", "1", 0.0, 2.0)})
    jobs = [Job("1", "alice", status="running", slot="slot1@s001", start_time=0.0)]
    jobless = CycleResult([], [], [], [], 1.0, 0, 0, {}, {})
    jobless.jobless = [JoblessMatch("alice@d", "slot1@s001", 1.0, 0)]
    jobs, s, neg = apply_matches(jobless, jobs, s, neg, config, 100.0)
    alice = s.records["alice@d"]
    assert (alice.resources_used, alice.weighted_resources_used, neg.jobless) == (1, 2.0, ())
    empty = CycleResult([], [], [], [], 1.0, 0, 0, {}, {})
    _, s, neg = apply_matches(empty, jobs, s, neg, config, 200.0)
    alice = s.records["alice@d"]
    assert alice.priority == 1.625 and alice.weighted_accumulated_usage == 400.0
    assert neg.claims["slot1@s001"].accountant_start is None
