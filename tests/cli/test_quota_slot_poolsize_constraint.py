"""``fs quota`` under ``negotiator.slot_poolsize_constraint``
(``NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT``).

25.0's ``Matchmaker::negotiationTime`` hands group quotas ``hgq_total_quota``: over the
slot ads the constraint is true on (``EvalExprBool``, the ad as ``MY``, no target), Σ
``SLOT_WEIGHT`` with slot weights, else ``count_effective_slots`` (a partitionable slot its
``Cpus`` left, any other slot ad 1); none true: 0. The ads are those the collector holds:
claimed slots with their ``State``, partitionable slots with what is left, dynamic slots.
fs counted every slot; the numbers below follow from that rule by hand. The root's
``subtree_quota`` is the pool size.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-20T00:00:00Z"

#: 6 slots marked ``Counted`` and 4 others, 1 CPU each; slot weights on (``current``).
POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
slot_poolsize_constraint = '{constraint}'
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
[groups.a]
dynamic_quota = 0.5
[groups.b]
dynamic_quota = 0.5
"""


def _rows(
    tmp_path: Path, run: Callable[..., Any], pool: str, jobs: list[dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """``fs quota --json``'s rows by group."""
    config, jobs_file = tmp_path / "pool.toml", tmp_path / "jobs.json"
    config.write_text(pool, encoding="utf-8")
    jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
    result = run(
        "quota", "--json", "--config", str(config), "--state", str(tmp_path / "state.json"),
        "--jobs-file", str(jobs_file), "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return {r["group"]: r for r in json.loads(result.stdout)}


IDLE = [
    {"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 8},
    {"id": "2.0", "owner": "bob", "accounting_group": "b.bob", "count": 8},
]


@pytest.mark.parametrize(
    ("constraint", "size"),
    [
        pytest.param("true", 10.0, id="all"),
        pytest.param("Counted =?= true", 6.0, id="six"),
        pytest.param("Counted =!= true", 4.0, id="four"),
        pytest.param("false", 0.0, id="none"),
    ],
)
def test_groups_share_the_slots_the_constraint_keeps(
    tmp_path: Path, run: Callable[..., Any], constraint: str, size: float
) -> None:
    """Dynamic quotas 0.5 and 0.5: each group's quota is half the pool size (10 slots, 6
    of them Counted: 0.5 x 6 = 3), its limit that rounded down; both ask for 8."""
    rows = _rows(tmp_path, run, POOL.format(constraint=constraint), IDLE)
    assert rows["<none>"]["subtree_quota"] == size
    for group in ("a", "b"):
        assert (rows[group]["quota"], rows[group]["limit"]) == (size / 2, int(size / 2))


def test_claimed_slots_are_counted_on_their_claimed_ads(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """4 of the Counted slots run alice's jobs: their ads say ``State = "Claimed"``. A
    constraint keeping unclaimed slots counts 2 Counted + 4 others = 6: quotas 3 and 3."""
    running = [
        {"id": f"3.{i}", "owner": "alice", "accounting_group": "a.alice", "status": "running",
         "slot": f"slot1@kept00{i + 1}", "start_time": "2026-11-19T23:00:00Z"}
        for i in range(4)
    ]  # fmt: skip
    pool = POOL.format(constraint='State =!= "Claimed"')
    rows = _rows(tmp_path, run, pool, IDLE + running)
    assert rows["<none>"]["subtree_quota"] == 6.0
    assert (rows["a"]["quota"], rows["b"]["quota"]) == (3.0, 3.0)


#: A partitionable slot of 8 CPUs and 2 static slots of 2 CPUs.
PSLOTS = """\
[pool]
uid_domain = "example.org"
defaults = "{profile}"
[negotiator]
slot_poolsize_constraint = "{constraint}"
[[machines]]
name = "p"
count = 1
slots = 1
partitionable = true
attributes = {{ Cpus = 8, Memory = 8192 }}
[[machines]]
name = "s"
count = 2
slots = 1
attributes = {{ Cpus = 2, Memory = 2048 }}
[groups.a]
dynamic_quota = 0.5
"""


@pytest.mark.parametrize(
    ("profile", "constraint", "size"),
    [
        # slot weights (SLOT_WEIGHT = Cpus): the partitionable slot weighs 8, each static 2
        pytest.param("current", "true", 12.0, id="weighted-all"),
        pytest.param("current", "PartitionableSlot =?= true", 8.0, id="weighted-pslot"),
        pytest.param("current", "PartitionableSlot =!= true", 4.0, id="weighted-static"),
        # no slot weights: count_effective_slots, a partitionable slot its 8 CPUs, any other 1
        pytest.param("legacy", "true", 10.0, id="effective-all"),
        pytest.param("legacy", "PartitionableSlot =?= true", 8.0, id="effective-pslot"),
        pytest.param("legacy", "PartitionableSlot =!= true", 2.0, id="effective-static"),
    ],
)
def test_partitionable_slots_and_slot_weights(
    tmp_path: Path, run: Callable[..., Any], profile: str, constraint: str, size: float
) -> None:
    """The pool size (the root's subtree quota) and group a's half of it."""
    rows = _rows(tmp_path, run, PSLOTS.format(profile=profile, constraint=constraint), [])
    assert (rows["<none>"]["subtree_quota"], rows["a"]["quota"]) == (size, size / 2)


@pytest.mark.parametrize(
    ("profile", "constraint", "size"),
    [
        # the dynamic slot alone: its 1 CPU weighs 1; without weights one ad counts 1
        pytest.param("current", "DynamicSlot =?= true", 1.0, id="weighted-dynamic"),
        pytest.param("legacy", "DynamicSlot =?= true", 1.0, id="effective-dynamic"),
        # the others: 7 CPUs left + 2 + 2 weighed; without weights 7 (the partitionable
        # slot's CPUs left) + 1 + 1
        pytest.param("current", "DynamicSlot =!= true", 11.0, id="weighted-others"),
        pytest.param("legacy", "DynamicSlot =!= true", 9.0, id="effective-others"),
    ],
)
def test_a_dynamic_slot_is_an_ad_of_its_own(
    tmp_path: Path, run: Callable[..., Any], profile: str, constraint: str, size: float
) -> None:
    """A 1-CPU job runs on a dynamic slot carved from the partitionable slot: the pool's
    ads are the partitionable slot with 7 CPUs left, the dynamic slot of 1, and the two
    static slots of 2."""
    running = [
        {"id": "3.0", "owner": "alice", "accounting_group": "a.alice", "status": "running",
         "slot": "slot1_1@p001", "start_time": "2026-11-19T23:00:00Z"}
    ]  # fmt: skip
    rows = _rows(tmp_path, run, PSLOTS.format(profile=profile, constraint=constraint), running)
    assert rows["<none>"]["subtree_quota"] == size
