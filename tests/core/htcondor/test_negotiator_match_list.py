"""``Returned.insert``: where 25.0's ``MatchListType::insert_candidate``
(``src/condor_negotiator.V6/matchmaker.cpp``) puts a consumption-policy slot handed back to
a live match list. It starts at the head and moves down past every entry it ranks strictly
above (``sort_compare``), stopping at the first it does not."""

from __future__ import annotations

from dataclasses import replace

from negotiation_helpers import CURRENT, NOW, J, jobs, pool, run

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator import Claim
from fairshare_cli.core.htcondor.negotiator.common import NO_PREEMPTION
from fairshare_cli.core.htcondor.negotiator.slots import Slot
from fairshare_cli.core.htcondor.negotiator.turn import Key, Returned


def _key(pre: float) -> Key:
    """An unclaimed candidate's key with pre-job rank ``pre`` (job rank and post 0)."""
    return (pre, 0.0, 0.0, NO_PREEMPTION, -3.4028234663852886e38)


def _names(entries: list[tuple[Slot, Key]]) -> list[str]:
    return [slot.machine for slot, _ in entries]


def test_a_leftover_above_the_next_candidate_goes_behind_the_list() -> None:
    """p (-307168) outranks the rest's next entry (q, -808192): behind the rest."""
    returned = Returned()
    returned.insert(Slot(0, 0, "p", 1), _key(-307168.0), _key(-808192.0))
    assert (_names(returned.front), _names(returned.back)) == ([], ["p"])


def test_a_leftover_that_ties_the_next_candidate_stays_first() -> None:
    """An equal key is not ranked strictly above (``sort_compare`` is false): it stays at
    the head, before the rest; so does one ranked below."""
    for pre in (-307168.0, -400000.0):
        returned = Returned()
        returned.insert(Slot(0, 0, "p", 1), _key(pre), _key(-307168.0))
        assert (_names(returned.front), _names(returned.back)) == (["p"], [])


def test_the_walk_passes_the_entries_handed_back_before_it() -> None:
    """p (-307168) does not outrank the rest's next entry (-300000): it stays first. q
    (-206144) outranks p and the rest's next entry: it goes past both, to the end. p
    popped, its leftover (-206144) outranks the rest's next entry and ties q: it goes
    behind the rest, before q."""
    returned = Returned()
    returned.insert(Slot(0, 0, "p", 1), _key(-307168.0), _key(-300000.0))
    returned.insert(Slot(1, 1, "q", 1), _key(-206144.0), _key(-300000.0))
    assert (_names(returned.front), _names(returned.back)) == (["p"], ["q"])
    returned.front.pop(0)
    returned.insert(Slot(0, 0, "p", 1), _key(-206144.0), _key(-300000.0))
    assert (_names(returned.front), _names(returned.back)) == ([], ["p", "q"])


def test_with_nothing_left_in_the_rest_the_leftover_stays_with_the_handed_back() -> None:
    """No rest (None): a slot that does not outrank the first entry handed back behind the
    rest stays before it."""
    returned = Returned()
    returned.insert(Slot(0, 0, "p", 1), _key(-1.0), None)
    returned.insert(Slot(1, 1, "q", 1), _key(-2.0), None)
    assert (_names(returned.front), _names(returned.back)) == ([], ["q", "p"])


# -- lists that also hold claimed slots (preemption considered) -----------------------

#: The current defaults, with ``PREEMPTION_REQUIREMENTS`` true (bob's slots may be taken).
PREEMPTING = replace(CURRENT, preemption_requirements="true")


def _preempting_cycle(cpus: int, n_jobs: int, pre_job_rank: str | None) -> list[tuple[str, ...]]:
    """c001 (consumption policy, ``cpus`` CPUs and 1024 MB a CPU) and s001, s002 (1 CPU, 4096
    MB) that bob (EUP 500) holds with 9.0 and 9.1; alice (EUP 0.5) asks ``n_jobs`` jobs of
    1 CPU and 1024 MB. Returns (job, slot, preempted job or '') per match."""
    machines = [
        MachineSpec(
            name="c",
            attributes={"Cpus": cpus, "Memory": 1024 * cpus},
            partitionable=True,
            consumption_policy=True,
        ),
        *pool(2),
    ]
    claims = [Claim(f"slot1@exec00{i + 1}", "bob@example.org", f"9.{i}", NOW - 60) for i in (0, 1)]
    running = [J(id=f"9.{i}", owner="bob", status="running", slot=c.slot, start_time=NOW - 60)
               for i, c in enumerate(claims)]  # fmt: skip
    knobs = PREEMPTING if pre_job_rank is None else replace(PREEMPTING, pre_job_rank=pre_job_rank)
    prios = {"alice@example.org": 0.5, "bob@example.org": 500.0}
    result = run(machines, [*running, *jobs("alice", n_jobs, 2)], prios, None, knobs, claims)
    return [(m.job_id, m.slot, m.preempted_job or "") for m in result.matches]


def test_a_leftover_goes_behind_the_claimed_slots_it_outranks() -> None:
    """Default ranks: pre-job rank 1000000 (unclaimed) - 100000 Cpus - Memory. c001 (4 CPUs,
    4096 MB) 595904, bob's exec001 and exec002 -100000 - 4096 = -104096 (priority
    preemptions): the list is [c001, exec001, exec002]. 2.0 takes c001; its leftover (3
    CPUs, 3072 MB: 696928) outranks exec001 and exec002, so ``insert_candidate`` puts it
    behind them: 2.1 and 2.2 preempt 9.0 and 9.1 (alice's limit, about 6 of the pool's 4 +
    1 + 1, admits them), 2.3 takes the leftover. fs before ranked it afresh: c001 four
    times."""
    assert _preempting_cycle(4, 4, None) == [
        ("2.0", "slot1_1@c001", ""),
        ("2.1", "slot1@exec001", "9.0"),
        ("2.2", "slot1@exec002", "9.1"),
        ("2.3", "slot1_2@c001", ""),
    ]


def test_a_leftover_that_does_not_outrank_the_next_claimed_slot_stays_first() -> None:
    """``NEGOTIATOR_PRE_JOB_RANK = Cpus * 10000 + Memory``: c001 (2 CPUs, 2048 MB) 22048,
    exec001 and exec002 14096. 2.0 takes c001; its leftover (1 CPU, 1024 MB: 11024) does not
    outrank exec001, the list's next entry: it stays first and 2.1 takes it. fs before
    ranked it afresh, below exec001: 2.1 preempted 9.0."""
    assert _preempting_cycle(2, 2, "Cpus * 10000 + Memory") == [
        ("2.0", "slot1_1@c001", ""),
        ("2.1", "slot1_2@c001", ""),
    ]


def test_an_entry_the_limit_refused_at_its_pop_changes_nothing_later() -> None:
    """25.0 pops an entry the submitter limit refuses (``pop_candidate`` in the cached
    branch of ``matchmakingAlgorithm``); fs tests it again for the next job, and refuses it
    again: the turn's usage only grows. Slot weight Cpus: big 2 + 2, small 1 + 1 + 1 (7);
    pre-job rank ``Cpus``: bigs first. a and b (b's one job matches nothing, preemption not
    considered) get 3.5 each. Spin 1: 1.0 builds [big1, big2, s1, s2, s3] (all fit 0 used)
    and takes big1 (2); 1.1 pops big2 (4 > 3.5: dropped) and takes s1 (3); 1.2 pops s2 and
    s3 (4 > 3.5) and is refused for the limit. Spin 2: pie left 7 - 3 = 4, a alone, a new
    list: 1.2 takes big2 (0 + 2 <= 4)."""
    machines = [
        MachineSpec(name="big", count=2, attributes={"Cpus": 2, "Memory": 4096}),
        MachineSpec(name="small", count=3, attributes={"Cpus": 1, "Memory": 4096}),
    ]
    knobs = replace(
        CURRENT,
        use_slot_weights=True,
        slot_weight="Cpus",
        consider_preemption=False,
        pre_job_rank="Cpus",
    )
    queue = jobs("a", 3, 1) + jobs("b", 1, 2, requirements="false")
    result = run(machines, queue, knobs=knobs, explain="1.2")
    assert [(m.job_id, m.slot) for m in result.matches] == [
        ("1.0", "slot1@big001"),
        ("1.1", "slot1@small001"),
        ("1.2", "slot1@big002"),
    ]
    story = [(e["spin"], e["event"], e.get("reason")) for e in result.explain if "reason" in e]
    assert story == [(1, "rejected", "submitter_limit"), (2, "matched", "no_preemption")]
