"""The reasons a job gets when its search pops the match list the first job of its
autocluster built (``match_list.list_diagnostics``).

From ``matchmakingAlgorithm`` in ``src/condor_negotiator.V6/matchmaker.cpp`` (25.0): the
build tests every candidate (the submitter limit, then ``rejectForConcurrencyLimits`` for a
``ConcurrencyLimits`` expression evaluated with the slot) and stores its counts in the list
(``set_diagnostics``); a later job of the autocluster pops the list, dropping the entries
the limits refuse, and when it is used up takes the stored counts
(``get_diagnostics``), the submitter limit's incremented by the pops, the concurrency
limit's not. ``Matchmaker::negotiate`` then names a concurrency limit only if that count
is not 0; else, with nothing else counted, "no match found" (fs: ``match_list_used_up``).
"""

from __future__ import annotations

from dataclasses import replace

from negotiation_helpers import CURRENT, NOW, J, jobs, run

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator import Claim

SITE = 'strcat("site.", TARGET.Site)'
KNOBS = replace(CURRENT, concurrency_limits={"site.east": 1.0, "site.west": 5.0})


def _sites(first: str, second: str) -> list[MachineSpec]:
    """Two machines of two one-CPU slots each, at the sites named, in that order."""
    return [
        MachineSpec(name=f"{site[0]}x", count=2, attributes={"Cpus": 1, "Site": site})
        for site in (first, second)
    ]


def test_a_refusal_only_while_popping_is_not_the_reason() -> None:
    """East 2 + west 2, site.east_LIMIT 1, west 5, 5 jobs of a (limit 4 of the pool of 4).
    1.0 builds [ex001, ex002, wx001, wx002] (east 0 + 1 <= 1 on each: nothing refused) and
    takes ex001 (east 1); 1.1 pops ex002 (east 2 > 1: dropped), takes wx001; 1.2 takes
    wx002; 1.3 finds the list used up: counts 0, 0: "no match found"; 1.4, of the same
    autocluster, is not asked again."""
    queue = jobs("a", 5, 1, concurrency_limits_expr=SITE)
    result = run(_sites("east", "west"), queue, knobs=KNOBS)
    assert [(m.job_id, m.slot) for m in result.matches] == [
        ("1.0", "slot1@ex001"),
        ("1.1", "slot1@wx001"),
        ("1.2", "slot1@wx002"),
    ]
    assert [(j, r) for j, _, r in result.iter_unmatched()] == [
        ("1.3", "match_list_used_up"),
        ("1.4", "match_list_used_up"),
    ]


def test_a_refusal_the_build_counted_past_its_match_is_the_reason() -> None:
    """East 2 first, then west 2; b runs 9.0 on ex001 holding site.east (``LoadLimits``:
    east 1 as the cycle starts); preemption not considered, so b, with no idle job, is out
    of the shares and a's limit is the pool's 4. a's 4 jobs rank west 1, east 0
    (``TARGET.Site == "west"``): 1.0 builds [wx001, wx002] and refuses ex002 (east 1 + 1 >
    1: rejForConcurrencyLimit 1), ranked below the slot it takes (wx001); 1.1 takes wx002;
    1.2 finds the list used up and gets the stored count: a concurrency limit. fs had
    searched no further than the match and named "no match found", as for 1.3 above."""
    claims = [Claim("slot1@ex001", "b@example.org", "9.0", NOW - 60)]
    queue = jobs("b", 1, 9, status="running", concurrency_limits_expr=SITE)
    queue += jobs("a", 4, 1, concurrency_limits_expr=SITE, rank='TARGET.Site == "west"')
    knobs = replace(KNOBS, consider_preemption=False)
    usage = {"b@example.org": 1.0}
    result = run(_sites("east", "west"), queue, usage=usage, knobs=knobs, claims=claims)
    assert [(m.job_id, m.slot) for m in result.matches] == [
        ("1.0", "slot1@wx001"),
        ("1.1", "slot1@wx002"),
    ]
    assert [(j, r) for j, _, r in result.iter_unmatched()] == [
        ("1.2", "concurrency_limit"),
        ("1.3", "concurrency_limit"),
    ]


def test_the_concurrency_limit_comes_before_the_submitter_limit() -> None:
    """One east slot per machine of Cpus 1, 1, 1 then west Cpus 4, slot weight Cpus (7);
    site.east held by b's claim on ex002. Preemption not considered: b (nothing idle) is
    out of the shares; a and c (new, equal) get 3.5 each. a's 1.0 takes ex001 (used 1);
    a's 2.0 builds: ex003 admitted by the limit (2 <= 3.5), refused for site.east (2 > 1);
    wx001 refused by the limit (5 > 3.5). Reason: the concurrency limit (counted before the
    submitter limit's in ``Matchmaker::negotiate``); the limit still counts, so a resumes
    in spin 2 (pie left 6, a alone) and takes wx001."""
    machines = [
        MachineSpec(name="ex", count=3, attributes={"Cpus": 1, "Site": "east"}),
        MachineSpec(name="wx", count=1, attributes={"Cpus": 4, "Site": "west"}),
    ]
    claims = [Claim("slot1@ex002", "b@example.org", "9.0", NOW - 60)]
    queue = jobs("b", 1, 9, status="running", concurrency_limits="site.east")
    queue += jobs("a", 1, 1) + jobs("a", 1, 2, concurrency_limits_expr=SITE)
    queue += jobs("c", 1, 3, requirements="false")
    knobs = replace(KNOBS, consider_preemption=False, use_slot_weights=True, slot_weight="Cpus")
    result = run(
        machines, queue, usage={"b@example.org": 1.0}, knobs=knobs, claims=claims, explain="2.0"
    )
    assert [(m.job_id, m.slot) for m in result.matches] == [
        ("1.0", "slot1@ex001"),
        ("2.0", "slot1@wx001"),
    ]
    rejected = [e for e in result.explain if e["event"] == "rejected"]
    assert [(e["spin"], e["reason"]) for e in rejected] == [(1, "concurrency_limit")]


def _rank_pool() -> tuple[list[MachineSpec], list[Claim], list[J]]:
    """Four one-CPU slots whose machine RANK prefers a's jobs; a runs 8.0 and 8.1 on
    slot1@m001 and m002, b runs 9.0 and 9.1 on m003 and m004; a has two idle jobs."""
    machines = [MachineSpec(name="m", count=4, attributes={"Cpus": 1}, rank='TARGET.Owner == "a"')]
    claims = [
        Claim(f"slot1@m00{i + 1}", f"{owner}@example.org", job, NOW - 60)
        for i, (owner, job) in enumerate([("a", "8.0"), ("a", "8.1"), ("b", "9.0"), ("b", "9.1")])
    ]
    queue = jobs("a", 2, 8, status="running") + jobs("b", 2, 9, status="running")
    return machines, claims, queue + jobs("a", 2, 1)


def test_without_caching_every_job_may_preempt_by_machine_rank() -> None:
    """a and b (EUP 0.5 each) share the pool of 4: slices 2 and 2; a uses 2, so its limit
    is 0. Spin 1 (preemption considered): limitUsed 0 >= 0, so only machine-rank
    preemptions are looked for (``only_consider_startd_rank``). 1.0 builds the list of b's
    two slots (machine rank: no limit test) and preempts 9.0 on m003. With the list cached
    (the default), 1.1 pops m004 and tests it against both limits: 1 + 1 > 0, and 0 + 1 > 0
    with nothing to round up (the limit is 0): refused, for the submitter limit; it waits
    for spin 2, a new turn with a limit of 1 (pie left 1) and so a new list, where it
    preempts 9.1 on m004. With ``NEGOTIATOR_MATCHLIST_CACHING = False``
    1.1 builds a list again in spin 1 and preempts 9.1 there."""
    machines, claims, queue = _rank_pool()
    usage = {"a@example.org": 2.0, "b@example.org": 2.0}
    for caching, spins in ((True, [(1, "rejected"), (2, "matched")]), (False, [(1, "matched")])):
        knobs = replace(CURRENT, matchlist_caching=caching)
        result = run(machines, queue, usage=usage, knobs=knobs, claims=claims, explain="1.1")
        assert [(m.job_id, m.slot) for m in result.matches] == [
            ("1.0", "slot1@m003"),
            ("1.1", "slot1@m004"),
        ]
        story = [(e["spin"], e["event"]) for e in result.explain if "reason" in e]
        assert story == spins
