"""``negotiator.submitter_constraint`` (``NEGOTIATOR_SUBMITTER_CONSTRAINT``) in ``fs negotiate``.

25.0's ``Matchmaker::obtainAdsFromCollector`` adds the constraint to its query of submitter
ads, and the collector sends only the ads it is true on (collector.cpp ``query_scanFunc``:
``EvalExprToBool`` of the ad, no target, then ``IsBooleanValueEquiv``: true or a non-zero
number; undefined, an error or a string is not). A submitter whose ad is not sent is not
negotiated, and is left out of the pie's shares (``calculateNormalizationFactor`` over the
ads) and of its group's demand (``hgq_prepare_for_matchmaking``). fs knows a submitter ad's
``Name`` and ``MyType`` only. The numbers below follow from those rules by hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-20T00:00:00Z"

#: 6 static slots of 1 CPU; ``current``: slot weights on, each slot weighs 1.
POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
accept_surplus = true
{setting}
[[machines]]
name = "m"
count = 6
slots = 1
attributes = {{ Cpus = 1, Memory = 1024 }}
{groups}"""

GROUPS = "[groups.a]\ndynamic_quota = 0.5\n[groups.b]\ndynamic_quota = 0.5\n"

THREE = [
    {"id": f"{c}.0", "owner": owner, "count": 6}
    for c, owner in ((1, "alice"), (2, "bob"), (3, "carol"))
]
IN_GROUPS = [
    {"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 6},
    {"id": "2.0", "owner": "bob", "accounting_group": "b.bob", "count": 6},
]
NOT_BOB = 'submitter_constraint = "Name != \\"bob@example.org\\""'


def _run(tmp_path: Path, run: Callable[..., Any], pool: str, jobs: list[Any], *extra: str) -> Any:
    config, jobs_file = tmp_path / "pool.toml", tmp_path / "jobs.json"
    config.write_text(pool, encoding="utf-8")
    jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
    return run(
        "negotiate", "--dry-run", "--config", str(config), "--state",
        str(tmp_path / "state.json"), "--jobs-file", str(jobs_file), "--now", NOW, *extra,
    )  # fmt: skip


def _doc(tmp_path: Path, run: Callable[..., Any], pool: str, jobs: list[Any]) -> dict[str, Any]:
    result = _run(tmp_path, run, pool, jobs, "--json")
    assert result.exit_code == 0, result.stderr
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def _per_owner(doc: dict[str, Any]) -> dict[str, int]:
    owners = [m["submitter"].split("@")[0] for m in doc["matches"]]
    return {o: owners.count(o) for o in sorted(set(owners))}


@pytest.mark.parametrize(
    ("setting", "matched"),
    [
        # three new submitters (priority 500 each): shares 1/3 of 6 slots, limits 2 each
        pytest.param("", {"alice": 2, "bob": 2, "carol": 2}, id="unset"),
        # bob's ad is not sent: alice and carol share 0.5 each, limits 3
        pytest.param(NOT_BOB, {"alice": 3, "carol": 3}, id="not-bob"),
        pytest.param(
            NOT_BOB.replace("submitter_constraint", "NEGOTIATOR_SUBMITTER_CONSTRAINT"),
            {"alice": 3, "carol": 3},
            id="knob",
        ),
        # MyType is "Submitter" on every submitter ad
        pytest.param(
            'submitter_constraint = "MyType == \\"Submitter\\""',
            {"alice": 2, "bob": 2, "carol": 2},
            id="mytype",
        ),
        # a non-zero number is true; 0 sends no ad
        pytest.param('submitter_constraint = "1"', {"alice": 2, "bob": 2, "carol": 2}, id="one"),
        pytest.param('submitter_constraint = "0"', {}, id="zero"),
        # undefined and strings are not true: no submitter negotiates
        pytest.param('submitter_constraint = "Name == undefined"', {}, id="undefined"),
        pytest.param('submitter_constraint = "Name"', {}, id="string"),
    ],
)
def test_only_the_submitters_it_is_true_on_negotiate(
    tmp_path: Path, run: Callable[..., Any], setting: str, matched: dict[str, int]
) -> None:
    """Each submitter has 6 idle jobs; the first spin matches each up to its limit and the
    6 slots are then taken (or none, when no submitter's ad is sent)."""
    doc = _doc(tmp_path, run, POOL.format(setting=setting, groups=""), THREE)
    assert _per_owner(doc) == matched


def test_the_jobs_left_out_have_their_reason(tmp_path: Path, run: Callable[..., Any]) -> None:
    """bob's 6 jobs are unmatched with reason ``submitter_constraint``; he has no share and
    no limit (never negotiated)."""
    doc = _doc(tmp_path, run, POOL.format(setting=NOT_BOB, groups=""), THREE)
    bob = [u for u in doc["unmatched"] if u["submitter"] == "bob@example.org"]
    assert {u["reason"] for u in bob} == {"submitter_constraint"} and len(bob) == 6
    limits = {s["name"]: s["limit"] for s in doc["submitters"]}
    assert limits == {"alice@example.org": 3.0, "bob@example.org": None, "carol@example.org": 3.0}


def test_a_group_left_without_ads_has_no_demand(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Groups a and b, dynamic quotas 0.5 of 6 slots, surplus accepted. Unset: 3 each.
    b.bob's ad not sent: group b asks for nothing, its 3 go to a as surplus, and a.alice
    takes all 6."""
    doc = _doc(tmp_path, run, POOL.format(setting="", groups=GROUPS), IN_GROUPS)
    assert _per_owner(doc) == {"a.alice": 3, "b.bob": 3}
    setting = 'submitter_constraint = "Name != \\"b.bob@example.org\\""'
    doc = _doc(tmp_path, run, POOL.format(setting=setting, groups=GROUPS), IN_GROUPS)
    assert _per_owner(doc) == {"a.alice": 6}


def test_the_table_names_the_reason(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs negotiate --dry-run``: the unmatched table's row, and the summary line."""
    result = _run(tmp_path, run, POOL.format(setting=NOT_BOB, groups=""), THREE)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert any(
        line.startswith("submitter_constraint") and "bob@example.org" in line for line in lines
    )
    assert lines[-1] == "6 matches in 1 pie spin(s); pool size 6.00; 12 idle job(s) left unmatched."


@pytest.mark.parametrize(
    ("setting", "needle"),
    [
        # the schedd's job counts are not modelled
        pytest.param(
            'submitter_constraint = "IdleJobs > 0"', "reads idlejobs", id="other-attribute"
        ),
        pytest.param('submitter_constraint = "Name =="', "cannot parse", id="does-not-parse"),
    ],
)
def test_refused_in_one_line(
    tmp_path: Path, run: Callable[..., Any], setting: str, needle: str
) -> None:
    """Exit 2, one line naming the key (25.0's negotiator stops on an expression that does
    not parse: ``EXCEPT`` in ``Matchmaker::reinitialize``)."""
    result = _run(tmp_path, run, POOL.format(setting=setting, groups=""), THREE)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "[negotiator] submitter_constraint" in lines[0] and needle in lines[0]
    assert "Traceback" not in result.stderr


def test_config_check_refuses_one_that_does_not_parse(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    config = tmp_path / "pool.toml"
    config.write_text(POOL.format(setting='submitter_constraint = "Name =="', groups=""), "utf-8")
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "[negotiator] submitter_constraint" in lines[0], result.stderr
