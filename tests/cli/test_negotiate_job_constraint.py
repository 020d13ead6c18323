"""``negotiator.job_constraint`` (``NEGOTIATOR_JOB_CONSTRAINT``) in ``fs negotiate``.

25.0's negotiator sends the expression with each negotiation request
(``Matchmaker::negotiate``, matchmaker.cpp: ``ATTR_NEGOTIATOR_JOB_CONSTRAINT``), and the schedd
offers only the idle jobs it is true on (``Scheduler::negotiate``, schedd.cpp:
``EvalExprBool(job_ad, neg_constraint)``, the job ad with no target: true or a non-zero
number; undefined or a string is not). Its attribute references are significant
(``negotiationTime``), so autoclusters split on them. A submitter whose schedd has nothing
more to offer is done (``NO_MORE_JOBS``: ``MM_DONE``, left out of the later spins); its jobs
still count in its submitter ad's idle jobs. The numbers below follow from those rules by hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-20T00:00:00Z"

#: 4 static slots of 1 CPU; ``current``: slot weights on, each slot weighs 1.
POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
{setting}
[[machines]]
name = "m"
count = 4
slots = 1
attributes = {{ Cpus = 1, Memory = 1024 }}
"""

#: alice: cluster 1 at site a, cluster 2 at site b; bob: cluster 3, no Site.
JOBS = [
    {"id": "1.0", "owner": "alice", "count": 3, "attributes": {"Site": "a"}},
    {"id": "2.0", "owner": "alice", "count": 3, "attributes": {"Site": "b"}},
    {"id": "3.0", "owner": "bob", "count": 3},
]


def _negotiate(tmp_path: Path, run: Callable[..., Any], setting: str, *extra: str) -> Any:
    config, jobs_file = tmp_path / "pool.toml", tmp_path / "jobs.json"
    config.write_text(POOL.format(setting=setting), encoding="utf-8")
    jobs_file.write_text(json.dumps(JOBS), encoding="utf-8")
    return run(
        "negotiate", "--dry-run", "--config", str(config), "--state",
        str(tmp_path / "state.json"), "--jobs-file", str(jobs_file), "--now", NOW, *extra,
    )  # fmt: skip


def _doc(tmp_path: Path, run: Callable[..., Any], setting: str) -> dict[str, Any]:
    result = _negotiate(tmp_path, run, setting, "--json")
    assert result.exit_code == 0, result.stderr
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def _clusters(doc: dict[str, Any]) -> list[str]:
    return sorted(m["job_id"].split(".")[0] for m in doc["matches"])


def test_only_the_jobs_it_is_true_on_are_offered(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``Site =?= "a"``: only alice's cluster 1 is offered (cluster 2 is false, bob's Site
    undefined, ``=?=`` false). alice and bob are new (priority 500 each): shares 0.5, 0.5
    of 4 slots, limits 2 each. Spin 1: alice takes 2 jobs of cluster 1; bob's schedd offers
    nothing, so bob is done. Spin 2: 2 slots left, alice alone: she takes 1.2, then her
    schedd has nothing more to offer. 3 matches, 1 slot idle; the 6 others are not offered.
    (Site is read by nothing else: without its reference made significant clusters 1 and 2
    would share one autocluster and one answer.)"""
    doc = _doc(tmp_path, run, 'job_constraint = "Site =?= \\"a\\""')
    assert _clusters(doc) == ["1", "1", "1"]
    assert {s["name"]: s["limit"] for s in doc["submitters"]} == {
        "alice@example.org": 2.0,
        "bob@example.org": 2.0,
    }
    reasons = {(u["job_id"], u["reason"]) for u in doc["unmatched"]}
    expected = {(f"{c}.{p}", "job_constraint") for c in (2, 3) for p in range(3)}
    assert reasons == expected


@pytest.mark.parametrize(
    ("setting", "clusters"),
    [
        # every job offered: limits 2 and 2, spin 1 takes 2 each (1.0, 1.1 and 3.0, 3.1), 4 slots
        pytest.param("", ["1", "1", "3", "3"], id="unset"),
        # the real knob's name is an alias of the key
        pytest.param('NEGOTIATOR_JOB_CONSTRAINT = "Site =?= \\"a\\""', ["1"] * 3, id="knob"),
        # a number counts when not 0 (RequestCpus is 1 on every job): as unset
        pytest.param('job_constraint = "RequestCpus"', ["1", "1", "3", "3"], id="number"),
        # undefined on bob's jobs (no Site) and false on cluster 2: as the first test
        pytest.param('job_constraint = "Site == \\"a\\""', ["1"] * 3, id="undefined"),
        # a string is not a boolean: nothing offered, nothing matches
        pytest.param('job_constraint = "Owner"', [], id="string"),
    ],
)
def test_what_counts_as_true(
    tmp_path: Path, run: Callable[..., Any], setting: str, clusters: list[str]
) -> None:
    assert _clusters(_doc(tmp_path, run, setting)) == clusters


def test_the_table_names_the_reason(tmp_path: Path, run: Callable[..., Any]) -> None:
    """The unmatched table's rows: alice's 3 and bob's 3 jobs not offered."""
    result = _negotiate(tmp_path, run, 'job_constraint = "Site =?= \\"a\\""')
    assert result.exit_code == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("job_constraint")]
    assert len(rows) == 2
    assert "6 idle job(s) left unmatched" in result.stdout


def test_an_expression_that_does_not_parse_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """One line naming the key, exit 2. (25.0's negotiator does not test-parse it: the
    request's ``AssignExpr`` of text that does not parse adds nothing, and the schedd then
    offers every job; fs refuses it rather than guess.)"""
    result = _negotiate(tmp_path, run, 'job_constraint = "Site =?= "')
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "[negotiator] job_constraint" in lines[0]


#: 10 slots; groups a and b, half the pool each, surplus shared, one allocation round.
GROUP_POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
job_constraint = "Site =!= \\"b\\""
accept_surplus = true
group_quota_max_allocation_rounds = 1
[[machines]]
name = "m"
count = 10
slots = 1
attributes = {{ Cpus = 1, Memory = 1024 }}
[groups.a]
dynamic_quota = 0.5
[groups.b]
dynamic_quota = 0.5
"""

GROUP_JOBS = [
    {"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 2},
    {"id": "2.0", "owner": "alice", "accounting_group": "a.alice", "count": 6,
     "attributes": {"Site": "b"}},
    {"id": "3.0", "owner": "bob", "accounting_group": "b.bob", "count": 10},
]  # fmt: skip


def test_jobs_not_offered_still_count_in_the_groups_demand(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Group a requests 8 (alice's 8 idle jobs, the 6 not offered included: the submitter
    ad counts them), b 10. Quotas 0.5 x 10 = 5 each; each is allocated min(5, request) = 5,
    no surplus is left for b (GroupEntry::hgq_fairshare). With one allocation round
    (hgq_negotiate_with_all_groups) a's 2 offered jobs match and b matches 5: 3 slots stay
    idle. Were the 6 not counted, a would request 2 and b take its surplus 3: 8."""
    config, jobs_file = tmp_path / "pool.toml", tmp_path / "jobs.json"
    config.write_text(GROUP_POOL.format(), encoding="utf-8")
    jobs_file.write_text(json.dumps(GROUP_JOBS), encoding="utf-8")
    args = ["--config", str(config), "--state", str(tmp_path / "state.json")]
    args += ["--jobs-file", str(jobs_file), "--now", NOW]
    result = run("negotiate", "--dry-run", "--json", *args)
    assert result.exit_code == 0, result.stderr
    assert _clusters(json.loads(result.stdout)) == ["1", "1", *["3"] * 5]
    quota = run("quota", "--json", *args)
    assert quota.exit_code == 0, quota.stderr
    rows = {r["group"]: r for r in json.loads(quota.stdout)}
    assert (rows["a"]["demand"], rows["a"]["limit"]) == (8.0, 5)
    assert (rows["b"]["demand"], rows["b"]["limit"]) == (10.0, 5)
