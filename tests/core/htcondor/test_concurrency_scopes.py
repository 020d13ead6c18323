"""Scoped concurrency-limit defaults (``CONCURRENCY_LIMIT_DEFAULT_<SCOPE>``).

``Accountant::GetLimitMax`` (HTCondor 25.0): the default is ``CONCURRENCY_LIMIT_DEFAULT``;
when the limit's name has a dot, ``CONCURRENCY_LIMIT_DEFAULT_<part before the last dot>``
replaces it if set; ``<name>_LIMIT`` wins over both. Config knobs ignore case.
"""

from __future__ import annotations

from dataclasses import replace

from negotiation_helpers import LEGACY, NOW, J, jobs, pool, run

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.concurrency import LimitCounts
from fairshare_cli.core.htcondor.negotiator import Claim


def test_limit_max_follows_get_limit_max() -> None:
    """license.matlab: no MATLAB_LIMIT of its own → the scope's 2; license.maple has
    ``license.maple_LIMIT`` 5; other.x has no scope default → the global 1; a name
    without a dot ignores scopes (``license`` → 1)."""
    counts = LimitCounts({"License.Maple": 5}, 1.0, {"LICENSE": 2})
    assert counts.maximum("license.matlab") == 2
    assert counts.maximum("license.maple") == 5
    assert counts.maximum("other.x") == 1
    assert counts.maximum("license") == 1
    counts.add((("license.matlab", 2.0),))
    assert counts.refuses((("license.matlab", 0.5),))  # 2.5 > 2
    assert not counts.refuses((("license.other", 2.0),))  # its own count: 0 + 2 ≤ 2


def test_a_cycle_stops_at_the_scope_default() -> None:
    """CONCURRENCY_LIMIT_DEFAULT_LICENSE = 2, CONCURRENCY_LIMIT_DEFAULT 100; pool of 6,
    one submitter (share 1, limit 6). Cluster 1 (4 jobs) asks ``license.matlab``: 1.0 and
    1.1 match (count 2), 1.2 would make 3 > 2 and the rest of the cluster waits;
    cluster 2 (2 jobs, ``license.maple``) has its own count: both match."""
    knobs = replace(
        LEGACY,
        concurrency_limit_default=100.0,
        concurrency_limit_scope_defaults={"license": 2.0},
    )
    queue = jobs("a", 4, 1, concurrency_limits="license.matlab")
    queue += jobs("a", 2, 2, concurrency_limits="LICENSE.Maple")
    result = run(pool(6), queue, knobs=knobs)
    assert [m.job_id for m in result.matches] == ["1.0", "1.1", "2.0", "2.1"]
    assert {j: r for j, _, r in result.iter_unmatched()} == dict.fromkeys(
        ("1.2", "1.3"), "concurrency_limit"
    )


def _two_sites() -> list[MachineSpec]:
    """exec (slots exec001, exec002) at site east, then wexec (wexec001, wexec002) at west."""
    return [
        MachineSpec(name="exec", count=2, attributes={"Cpus": 1, "Memory": 4096, "Site": "east"}),
        MachineSpec(name="wexec", count=2, attributes={"Cpus": 1, "Memory": 4096, "Site": "west"}),
    ]


SITE_LIMITS = replace(LEGACY, concurrency_limits={"site.east": 1.0, "site.west": 5.0})


def test_an_expression_is_evaluated_against_each_candidate() -> None:
    """``ConcurrencyLimits = strcat("site.", TARGET.Site)`` is no string alone (TARGET is
    undefined), so ``matchmakingAlgorithm`` evaluates it with each candidate and skips one
    whose limit would go over. site.east_LIMIT 1, site.west_LIMIT 5; one submitter with 4
    jobs (share 1, limit 4); slots in pool order. 1.0 builds the match list: every slot
    passes (east 0 + 1 <= 1), none refused; → exec001 (east 1); 1.1 pops exec002: east
    would be 2 > 1, dropped → wexec001; 1.2 → wexec002; 1.3 finds the list used up, and
    gets what its build counted (``get_diagnostics``): no refusal, "no match found"
    (``match_list_used_up``: the pops' refusal for the limit is not counted)."""
    queue = jobs("a", 4, 1, concurrency_limits_expr='strcat("site.", TARGET.Site)')
    result = run(_two_sites(), queue, knobs=SITE_LIMITS)
    assert [(m.job_id, m.slot) for m in result.matches] == [
        ("1.0", "slot1@exec001"),
        ("1.1", "slot1@wexec001"),
        ("1.2", "slot1@wexec002"),
    ]
    assert [(j, r) for j, _, r in result.iter_unmatched()] == [("1.3", "match_list_used_up")]


def test_no_string_with_a_candidate_means_no_limit_there() -> None:
    """``ifThenElse(TARGET.Site == "east", "site.east", undefined)``: west slots give no
    string, so a match there holds no limit (``EvalString`` fails: no
    MatchedConcurrencyLimits). Pool east 2 + west 2, 4 jobs: 1.0 east, 1.1 west (exec002
    popped and refused: east 2 > 1), 1.2 west, 1.3 finds the list used up (the count
    stays 1: the west matches added nothing; its build refused nothing: "no match
    found")."""
    expr = 'ifThenElse(TARGET.Site == "east", "site.east", undefined)'
    queue = jobs("a", 4, 1, concurrency_limits_expr=expr)
    result = run(_two_sites(), queue, knobs=SITE_LIMITS)
    assert [m.job_id for m in result.matches] == ["1.0", "1.1", "1.2"]
    assert [(j, r) for j, _, r in result.iter_unmatched()] == [("1.3", "match_list_used_up")]


def test_a_string_valued_expression_is_the_plain_string() -> None:
    """``strcat("site", ".east")`` is a string alone (``LookupString`` evaluates it), so it
    is checked before any candidate, as a literal: 1.0 matches (east 1), 1.1 is refused
    before matching although the west slots are free."""
    queue = jobs("a", 2, 1, concurrency_limits_expr='strcat("site", ".east")')
    result = run(_two_sites(), queue, knobs=SITE_LIMITS)
    assert [m.job_id for m in result.matches] == ["1.0"]
    assert [(j, r) for j, _, r in result.iter_unmatched()] == [("1.1", "concurrency_limit")]


def test_a_running_job_s_expression_counts_against_its_slot() -> None:
    """b runs 9.0 on exec001 (east) with the site expression: ``LoadLimits`` counts
    site.east 1 as the cycle starts, so a's job finds east full and takes wexec001."""
    claims = [Claim("slot1@exec001", "b@example.org", "9.0", NOW - 60)]
    expr = 'strcat("site.", TARGET.Site)'
    queue = [J("9.0", "b", status="running", concurrency_limits_expr=expr)]
    queue += jobs("a", 1, 1, concurrency_limits_expr=expr)
    result = run(
        _two_sites(), queue, knobs=SITE_LIMITS, claims=claims, usage={"b@example.org": 1.0}
    )
    assert [(m.job_id, m.slot) for m in result.matches] == [("1.0", "slot1@wexec001")]


def test_limits_hold_when_the_job_ad_carries_submitter_attributes() -> None:
    """A job whose requirements read ``SubmitterUserPrio`` is matched through a per-turn
    copy of its autocluster (``Matchmaker::negotiate`` puts the submitter's attributes in
    the request); its ``ConcurrencyLimits`` still count: SW_LIMIT 1, two jobs, one match."""
    knobs = replace(LEGACY, concurrency_limits={"sw": 1.0})
    queue = jobs("a", 2, 1, concurrency_limits="sw", requirements="SubmitterUserPrio < 100")
    result = run(pool(4), queue, knobs=knobs)
    assert [m.job_id for m in result.matches] == ["1.0"]
    assert [(j, r) for j, _, r in result.iter_unmatched()] == [("1.1", "concurrency_limit")]
