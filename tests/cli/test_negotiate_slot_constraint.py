"""``negotiator.slot_constraint`` (``NEGOTIATOR_SLOT_CONSTRAINT``) in ``fs negotiate``.

25.0's ``Matchmaker::obtainAdsFromCollector`` adds the constraint to its query of slot ads,
and the collector sends only the ads it is true on (collector.cpp ``query_scanFunc``:
``EvalExprToBool`` of the public ad, no target, then ``IsBooleanValueEquiv``: true or a
non-zero number; undefined, an error or a string is not). ``negotiationTime`` takes
everything from the ads it fetched: the pie's slot total, what group quotas share, the
candidates. A claim on a slot left out would be dropped from the accountant by
``CheckMatches``: fs does not model that and refuses it. The numbers below follow from
those rules by hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-20T00:00:00Z"

#: 4 x86 slots marked ``Fast`` and 4 arm slots, 1 CPU each; ``current``: slot weights on,
#: each slot weighs 1.
POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
{setting}
[[machines]]
name = "x"
count = 4
slots = 1
attributes = {{ Cpus = 1, Memory = 1024, Arch = "X86_64", Fast = true }}
[[machines]]
name = "arm"
count = 4
slots = 1
attributes = {{ Cpus = 1, Memory = 1024, Arch = "ARM" }}
{groups}"""

GROUPS = """\
[groups.a]
dynamic_quota = 0.5
[groups.b]
dynamic_quota = 0.5
"""

NO_GROUPS = [{"id": "1.0", "owner": "alice", "count": 8}, {"id": "2.0", "owner": "bob", "count": 8}]
IN_GROUPS = [
    {"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 8},
    {"id": "2.0", "owner": "bob", "accounting_group": "b.bob", "count": 8},
]


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


@pytest.mark.parametrize(
    ("setting", "limit", "stanzas"),
    [
        # every slot: pie 8, limits 0.5 x 8 = 4 each, 8 matches
        pytest.param("", 4.0, {"x", "arm"}, id="unset"),
        # the 4 x86 slots: pie 4, limits 2 each, 4 matches, all on x
        pytest.param('slot_constraint = "Arch == \\"X86_64\\""', 2.0, {"x"}, id="x86"),
        pytest.param('NEGOTIATOR_SLOT_CONSTRAINT = "Arch == \\"X86_64\\""', 2.0, {"x"}, id="knob"),
        # undefined on the arm slots (no Fast): not sent, as false
        pytest.param('slot_constraint = "Fast"', 2.0, {"x"}, id="undefined"),
        # a number counts when not 0 (Cpus is 1 on every slot): every slot
        pytest.param('slot_constraint = "Cpus"', 4.0, {"x", "arm"}, id="number"),
        # a string is not a boolean: no slot is sent, pie 0, limits 0, nothing matches
        pytest.param('slot_constraint = "Arch"', 0.0, set(), id="string"),
    ],
)
def test_only_the_slots_it_is_true_on_are_in_the_cycle(
    tmp_path: Path, run: Callable[..., Any], setting: str, limit: float, stanzas: set[str]
) -> None:
    """alice and bob are new (effective priority 500 each under ``current``): shares 0.5
    and 0.5 of the slots the collector sent; the first spin matches each up to its limit,
    and the pool is then used up (the slots left out are never candidates)."""
    doc = _doc(tmp_path, run, POOL.format(setting=setting, groups=""), NO_GROUPS)
    assert {s["name"]: s["limit"] for s in doc["submitters"]} == {
        "alice@example.org": limit,
        "bob@example.org": limit,
    }
    assert len(doc["matches"]) == 2 * int(limit)
    assert {m["slot"].split("@")[1].rstrip("0123456789") for m in doc["matches"]} == stanzas


def test_group_quotas_share_the_slots_sent(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Groups a and b, dynamic quotas 0.5 each of the 4 slots sent: 2 each (8 before)."""
    setting = 'slot_constraint = "Arch == \\"X86_64\\""'
    doc = _doc(tmp_path, run, POOL.format(setting=setting, groups=GROUPS), IN_GROUPS)
    owners = sorted(m["job_id"].split(".")[0] for m in doc["matches"])
    assert owners == ["1", "1", "2", "2"]
    assert all(m["slot"].endswith(("x001", "x002", "x003", "x004")) for m in doc["matches"])


def test_the_summary_line_names_the_pool_size_of_the_slots_sent(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs negotiate --dry-run``: 4 matches, pool size 4 (8 configured), 12 jobs left."""
    setting = 'slot_constraint = "Arch == \\"X86_64\\""'
    result = _run(tmp_path, run, POOL.format(setting=setting, groups=""), NO_GROUPS)
    assert result.exit_code == 0, result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert last == "4 matches in 1 pie spin(s); pool size 4.00; 12 idle job(s) left unmatched."


def test_a_claimed_slot_it_keeps_is_in_the_pool(tmp_path: Path, run: Callable[..., Any]) -> None:
    """carol runs on x001, which the constraint keeps (claimed or not): the pie's slot
    total is still 4. Spin 1: alice and carol (her running job makes her a submitter), both
    new, share 0.5 each: alice's limit 0.5 x 4 = 2, she takes 2. Spin 2: alice alone,
    share 1, 4 - the 2 she now holds = 2 more; she takes the last unclaimed x86 slot, and
    her next job finds only x001 (carol's claim, not preemptible by priority). 3 matches,
    none on an arm slot."""
    setting = 'slot_constraint = "Arch == \\"X86_64\\""'
    jobs = [
        {"id": "1.0", "owner": "alice", "count": 8},
        {"id": "3.0", "owner": "carol", "status": "running", "slot": "slot1@x001"},
    ]
    doc = _doc(tmp_path, run, POOL.format(setting=setting, groups=""), jobs)
    assert sorted(m["slot"] for m in doc["matches"]) == ["slot1@x002", "slot1@x003", "slot1@x004"]


def test_a_claimed_slot_left_out_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """carol runs on arm001, which the constraint leaves out: 25.0's ``CheckMatches`` would
    drop her claim from the accountant; fs does not model that: exit 2, one line."""
    setting = 'slot_constraint = "Arch == \\"X86_64\\""'
    jobs = [
        *NO_GROUPS,
        {"id": "3.0", "owner": "carol", "status": "running", "slot": "slot1@arm001"},
    ]
    result = _run(tmp_path, run, POOL.format(setting=setting, groups=""), jobs)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "fs: error: [negotiator] slot_constraint is not true on slot1@arm001, claimed by "
        "carol@example.org: 25.0's CheckMatches would then drop that claim from the "
        "accountant, which fs does not model"
    ]


def test_a_constraint_reading_what_fs_does_not_know_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``CurrentRank``: the startd's value on a claimed slot, which fs does not keep."""
    setting = 'slot_constraint = "CurrentRank =?= 0"'
    result = _run(tmp_path, run, POOL.format(setting=setting, groups=""), NO_GROUPS)
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert "[negotiator] slot_constraint reads currentrank" in result.stderr


@pytest.mark.parametrize("command", ["negotiate", "config"])
def test_an_expression_that_does_not_parse_is_one_line(
    tmp_path: Path, run: Callable[..., Any], command: str
) -> None:
    """Refused on load, exit 2, one line naming the key (25.0's negotiator stops on it:
    ``EXCEPT`` in ``Matchmaker::reinitialize``)."""
    config = tmp_path / "pool.toml"
    config.write_text(POOL.format(setting='slot_constraint = "Arch =="', groups=""), "utf-8")
    if command == "config":
        result = run("config", "check", "--config", str(config))
    else:
        result = _run(
            tmp_path, run, POOL.format(setting='slot_constraint = "Arch =="', groups=""), []
        )
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "[negotiator] slot_constraint" in lines[0], result.stderr
    assert "Traceback" not in result.stderr
