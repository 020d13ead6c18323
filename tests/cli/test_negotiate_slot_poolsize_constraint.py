"""``negotiator.slot_poolsize_constraint`` (``NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT``) in
``fs negotiate``.

25.0's ``Matchmaker::negotiationTime`` counts only the slot ads the constraint is true on
(``EvalExprBool``: true or a non-zero number; undefined, an error or a string is not) in
the pie's slot total (``weightedPoolsize``: Σ ``SLOT_WEIGHT``, else their number) and in
what group quotas share (``hgq_total_quota``: Σ ``SLOT_WEIGHT``, else
``count_effective_slots``); none true: both 0. The constraint does not filter matching:
every slot is still a candidate. fs counted every slot; the numbers below follow from
that rule by hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-20T00:00:00Z"

#: 6 slots marked ``Counted`` and 4 others, 1 CPU each; slot weights on (``current``:
#: ``SLOT_WEIGHT = Cpus``, each slot weighs 1).
POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
{setting}
[[machines]]
name = "kept"
count = 6
slots = 1
attributes = {{ Cpus = 1, Memory = 1024, Counted = true }}
[[machines]]
name = "other"
count = 4
slots = 1
attributes = {{ Cpus = 1, Memory = 1024 }}
{groups}"""

GROUPS = """\
[groups.a]
dynamic_quota = 0.5
[groups.b]
dynamic_quota = 0.5
"""

IN_GROUPS = [
    {"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 8},
    {"id": "2.0", "owner": "bob", "accounting_group": "b.bob", "count": 8},
]
NO_GROUPS = [{"id": "1.0", "owner": "alice", "count": 8}, {"id": "2.0", "owner": "bob", "count": 8}]


def _negotiate(
    tmp_path: Path, run: Callable[..., Any], pool: str, jobs: list[dict[str, Any]]
) -> dict[str, Any]:
    """``fs negotiate --dry-run --json``'s document."""
    config, jobs_file = tmp_path / "pool.toml", tmp_path / "jobs.json"
    config.write_text(pool, encoding="utf-8")
    jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
    result = run(
        "negotiate", "--dry-run", "--json", "--config", str(config), "--state",
        str(tmp_path / "state.json"), "--jobs-file", str(jobs_file), "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def _matched(doc: dict[str, Any]) -> tuple[int, int]:
    """How many of alice's (cluster 1) and bob's (cluster 2) jobs matched."""
    owners = [m["job_id"].split(".")[0] for m in doc["matches"]]
    return owners.count("1"), owners.count("2")


@pytest.mark.parametrize(
    ("setting", "each"),
    [
        # every slot counts: 10, groups 0.5 x 10 = 5 each
        pytest.param("", 5, id="unset"),
        # the 6 Counted slots: 6, groups 0.5 x 6 = 3 each
        pytest.param('slot_poolsize_constraint = "Counted =?= true"', 3, id="six"),
        # the real knob's name is an alias of the key
        pytest.param('NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT = "Counted =?= true"', 3, id="knob"),
        # undefined on the 4 others (no Counted): not counted, as false
        pytest.param('slot_poolsize_constraint = "Counted"', 3, id="undefined"),
        # a number counts when not 0 (Cpus is 1 on every slot): 10
        pytest.param('slot_poolsize_constraint = "Cpus"', 5, id="number"),
        # a string is not a boolean: no slot counts, both sizes 0, no group gets a slot
        pytest.param('slot_poolsize_constraint = "Name"', 0, id="string"),
    ],
)
def test_group_quotas_share_the_slots_the_constraint_keeps(
    tmp_path: Path, run: Callable[..., Any], setting: str, each: int
) -> None:
    """Groups a and b have dynamic quotas 0.5 and 0.5 of the pool and 8 jobs each: each
    is allocated half the counted slots and matches that many (the 4 uncounted slots are
    still matchable; the quotas stop the groups first): a group's limit is its quota."""
    doc = _negotiate(tmp_path, run, POOL.format(setting=setting, groups=GROUPS), IN_GROUPS)
    assert _matched(doc) == (each, each)
    # a group allocated nothing is skipped (GroupEntry.cpp: "zero slots allocated"): its
    # submitters negotiate no turn and have no limit
    limit = float(each) if each else None
    limits = {s["name"]: s["limit"] for s in doc["submitters"]}
    assert limits == {"a.alice@example.org": limit, "b.bob@example.org": limit}


def test_without_groups_the_pie_is_the_slots_the_constraint_keeps(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """No groups: the pie's slot total is 6 (the Counted slots). alice and bob are new
    (effective priority 500 each under ``current``), shares 0.5 and 0.5: limits 0.5 x 6 = 3
    each. The first spin matches 3 each; the second finds both at their limits (3 - 3 = 0
    left), so 4 slots stay idle though every one is matchable."""
    setting = 'slot_poolsize_constraint = "Counted =?= true"'
    doc = _negotiate(tmp_path, run, POOL.format(setting=setting, groups=""), NO_GROUPS)
    assert _matched(doc) == (3, 3)
    limits = {s["name"]: s["limit"] for s in doc["submitters"]}
    assert limits == {"alice@example.org": 3.0, "bob@example.org": 3.0}


def test_with_none_counted_no_submitter_has_a_limit(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """No groups, a constraint that is never true: the pie's slot total is 0, every
    submitter's limit 0 x share - 0 = 0, and nothing matches (no machine rank to preempt
    for)."""
    setting = 'slot_poolsize_constraint = "false"'
    doc = _negotiate(tmp_path, run, POOL.format(setting=setting, groups=""), NO_GROUPS)
    assert _matched(doc) == (0, 0)
    assert [s["limit"] for s in doc["submitters"]] == [0.0, 0.0]


def test_the_summary_line_names_the_pool_size_the_constraint_leaves(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The table's last line: 6 matches (3 each, as above) of a pool of size 6 (the Counted
    slots), 16 - 6 = 10 jobs left."""
    config, jobs_file = tmp_path / "pool.toml", tmp_path / "jobs.json"
    setting = 'slot_poolsize_constraint = "Counted =?= true"'
    config.write_text(POOL.format(setting=setting, groups=""), encoding="utf-8")
    jobs_file.write_text(json.dumps(NO_GROUPS), encoding="utf-8")
    result = run(
        "negotiate", "--dry-run", "--config", str(config), "--state",
        str(tmp_path / "state.json"), "--jobs-file", str(jobs_file), "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert last == "6 matches in 2 pie spin(s); pool size 6.00; 10 idle job(s) left unmatched."


def test_an_expression_that_does_not_parse_is_one_line(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A constraint that is not a ClassAd expression: refused on load, exit 2, one line
    naming the key (HTCondor's negotiator logs it and counts every slot; fs names it)."""
    config = tmp_path / "pool.toml"
    setting = 'slot_poolsize_constraint = "Counted =?="'
    config.write_text(POOL.format(setting=setting, groups=""), encoding="utf-8")
    result = run(
        "negotiate", "--dry-run", "--config", str(config), "--state",
        str(tmp_path / "state.json"), "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "slot_poolsize_constraint" in lines[0], result.stderr
    assert "Traceback" not in result.stderr
