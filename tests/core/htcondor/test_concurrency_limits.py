"""Concurrency limits (``ConcurrencyLimits``, ``NAME_LIMIT``, ``CONCURRENCY_LIMIT_DEFAULT``).

The rules, from ``ParseConcurrencyLimit`` (``NegotiationUtils.cpp``), ``Accountant::
GetLimitMax``/``LoadLimits``/``AddMatch`` and ``Matchmaker::rejectForConcurrencyLimits``:
names are lower-cased; tokens split on commas and white space; ``:amount`` is ``strtod``'s
number, 1 when not above 0; a name is an attribute name or two joined by one dot, other
tokens are ignored; a job is refused when ``count + amount > max`` for any of its limits,
the count being what running claims hold plus this cycle's matches.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from negotiation_helpers import LEGACY, NOW, J, jobs, pool, run

from fairshare_cli.core.htcondor.concurrency import LimitCounts, parse_limits
from fairshare_cli.core.htcondor.negotiator import Claim


def test_parse_limits_follows_parse_concurrency_limit() -> None:
    assert parse_limits("sw,db:2") == (("sw", 1.0), ("db", 2.0))
    # lower-cased; white space separates too; amount 0 → 1, "abc" → strtod 0 → 1,
    # "2.5e0x" → 2.5; "a.b.c", "bad-name", "3x" and ":2" (empty name) are ignored
    text = "SW  DB:0 x.Y:1.5 a.b.c bad-name,3x :2 q:abc r:2.5e0x"
    assert parse_limits(text) == (
        ("sw", 1.0),
        ("db", 1.0),
        ("x.y", 1.5),
        ("q", 1.0),
        ("r", 2.5),
    )
    assert parse_limits(" , ") == ()


def test_limit_max_is_name_limit_else_the_default() -> None:
    """``count + amount > max`` refuses: with SW_LIMIT = 2 and 1.5 held, 0.5 more fits
    (2 ≤ 2), 1 more does not (2.5 > 2); an unknown name uses the default 1."""
    counts = LimitCounts({"SW": 2}, 1.0)
    counts.add((("sw", 1.5),))
    assert not counts.refuses((("sw", 0.5),))
    assert counts.refuses((("sw", 1.0),))
    assert not counts.refuses((("db", 1.0),))
    assert counts.refuses((("db", 1.0), ("db", 1.0))) is False  # checked each on its own
    assert counts.refuses((("db", 2.0),))


@given(st.lists(st.floats(min_value=0.01, max_value=10), max_size=20), st.floats(0, 50))
def test_counts_never_pass_the_max_when_checked_first(amounts: list[float], top: float) -> None:
    counts = LimitCounts({"l": top}, 0.0)
    for a in amounts:
        if not counts.refuses((("l", a),)):
            counts.add((("l", a),))
    assert counts.counts.get("l", 0.0) <= top


def test_a_running_claim_and_matches_count_against_the_limit() -> None:
    """SW_LIMIT = 2 (the config key in capitals, the jobs' names in mixed case); b runs
    one job holding ``sw`` on exec001 (count 1). Pool of 5, a and b at EUP 0.5.

    Spin 1: normal 2, a's limit 5/2 = 2.5, b's 2.5 − 1 = 1.5 (b has no idle job). a's 1.0
    (sw) matches: sw 2. 1.1 would make 3 > 2: refused for the concurrency limit, and the
    rest of its cluster (1.2, 1.3) is skipped. 2.0 (no limit) matches: a uses 2;
    2.1 would pass 2.5: submitter limit. Spin 2 (b gone): a's limit 5 − 2 = 3; 1.1 is
    refused again (sw still 2), 2.1 matches. Matches 1.0, 2.0, 2.1; one slot stays free."""
    knobs = replace(LEGACY, concurrency_limits={"SW": 2.0})
    claims = [Claim("slot1@exec001", "b@example.org", "9.0", NOW - 60)]
    queue = [J("9.0", "b", status="running", concurrency_limits="sw")]
    queue += jobs("a", 4, 1, concurrency_limits="Sw") + jobs("a", 2, 2)
    result = run(pool(5), queue, usage={"b@example.org": 1.0}, claims=claims, knobs=knobs)
    assert [m.job_id for m in result.matches] == ["1.0", "2.0", "2.1"]
    assert result.spins == 2
    assert {j: r for j, _, r in result.iter_unmatched()} == dict.fromkeys(
        ("1.1", "1.2", "1.3"), "concurrency_limit"
    )
    explained = run(
        pool(5), queue, usage={"b@example.org": 1.0}, claims=claims, knobs=knobs, explain="1.1"
    )
    assert [e.get("reason") for e in explained.explain if e["event"] == "rejected"] == [
        "concurrency_limit",
        "concurrency_limit",
    ]


def test_default_limit_and_amounts() -> None:
    """CONCURRENCY_LIMIT_DEFAULT = 3, no DB_LIMIT: jobs of ``db:1.5`` — 1.5, 3.0 fit,
    a third would make 4.5 > 3. Without the limits the pool of 4 takes all three."""
    queue = jobs("a", 3, 1, concurrency_limits="db:1.5")
    knobs = replace(LEGACY, concurrency_limit_default=3.0)
    assert len(run(pool(4), queue).matches) == 3
    result = run(pool(4), queue, knobs=knobs)
    assert [m.job_id for m in result.matches] == ["1.0", "1.1"]
    assert [(u.reason, u.count) for u in result.unmatched] == [("concurrency_limit", 1)]


def test_the_job_field_is_htcondor_s_string() -> None:
    from fairshare_cli.core.jobs import parse_job
    from fairshare_cli.errors import InputError

    (job,) = parse_job({"id": "1.0", "owner": "a", "concurrency_limits": "sw,db:2"}, "q.json:1")
    assert job.concurrency_limits == "sw,db:2"
    with pytest.raises(InputError, match=r"q\.json:1.*concurrency_limits"):
        parse_job({"id": "1.0", "owner": "a", "concurrency_limits": 2}, "q.json:1")


def test_a_claims_own_limits_count_without_a_queue_job() -> None:
    """A claim carrying the slot ad's ``ConcurrencyLimits = "lic:2"`` (from
    ``condor_status``; ``Accountant::LoadLimits`` reads the slot ad, not the job) holds 2 of
    ``LIC_LIMIT = 3`` though no queue job runs there: the first idle job asking ``lic``
    (2 + 1 <= 3) matches, the second (3 + 1 > 3) is refused."""
    knobs = replace(LEGACY, concurrency_limits={"lic": 3.0})
    claim = Claim("slot1@exec001", "z@example.org", "99.0", NOW - 60, 1.0, (), "lic:2")
    queue = jobs("a", 2, 1, concurrency_limits="lic")
    result = run(pool(3), queue, knobs=knobs, claims=[claim])
    assert [m.job_id for m in result.matches] == ["1.0"]
    assert list(result.iter_unmatched()) == [("1.1", "a@example.org", "concurrency_limit")]


def test_a_claims_own_limits_replace_its_jobs() -> None:
    """The slot ad's limits are what the claim holds: a running job asking ``lic:2`` on a
    claim that carries ``"other"`` holds no ``lic``, so both idle jobs fit ``LIC_LIMIT =
    2``."""
    knobs = replace(LEGACY, concurrency_limits={"lic": 2.0})
    running = J(
        id="9.0",
        owner="z",
        status="running",
        slot="slot1@exec001",
        start_time=NOW - 60,
        concurrency_limits="lic:2",
    )
    claim = Claim("slot1@exec001", "z@example.org", "9.0", NOW - 60, 1.0, (), "other")
    queue = [running, *jobs("a", 2, 1, concurrency_limits="lic")]
    result = run(pool(3), queue, knobs=knobs, claims=[claim])
    assert [m.job_id for m in result.matches] == ["1.0", "1.1"]
