"""`fs negotiate` on small pools whose every number is derived by hand from HTCondor
25.0.13's source: ``GroupEntry.cpp`` (``hgq_assign_quotas``, ``hgq_fairshare``,
``hgq_allocate_surplus``, ``hgq_recover_remainders``, ``hgq_round_robin``, the allocation
rounds of ``hgq_negotiate_with_all_groups``), ``matchmaker.cpp`` (the pie spins of
``negotiateWithGroup``, ``calculateSubmitterLimit``) and ``Accountant.cpp``
(``UpdateOnePriority``, ``AddMatch``, ``RemoveMatch``, ``CheckMatches``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

GROUPS = """
[pool]
uid_domain = "ex.org"
defaults = "legacy"
[accountant]
priority_halflife = 86400
[[machines]]
name = "s"
slots = 10
attributes = { Cpus = 1, Memory = 1024 }
[groups.group_a]
quota = 3
accept_surplus = false
[groups.group_b]
quota = 2
accept_surplus = true
prio_factor = 2.0
"""
HISTORY = (
    "owner,accounting_group,start,end,slots\n"
    "u1,,2025-12-31T00:00:00Z,2025-12-31T12:00:00Z,4\n"
    "b1,group_b.b1,2025-12-31T06:00:00Z,2025-12-31T08:00:00Z,1\n"
)


def jobs(owner: str, group: str | None, count: int, cluster: int) -> dict[str, Any]:
    return {
        "id": f"{cluster}.0",
        "owner": owner,
        "accounting_group": group,
        "count": count,
        "request_memory": 512,
        "submit_time": "2026-01-01T00:00:00Z",
    }


def test_surplus_reaches_group_b_in_the_second_allocation_round(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Ten slots; group_a (quota 3, no surplus) asks 1, group_b (quota 2, surplus) 8,
    ``<none>`` (u1, u2) 16.

    Priorities at 01:00 (half-life a day, updates at each start and end): u1 ran 4 slots
    00:00-12:00 on Dec 31: 0.5 -> 1.056862 (06:00) -> 1.222048 (08:00) -> 1.525128
    (12:00), stored with six decimals as ``SetAttributeFloat``'s ``%f`` leaves it at each
    update: 1.078427 at midnight, 1.047726 at 01:00; b1's 2 h on 1 slot leave 0.528063,
    decayed below 0.5 by 12:00: 0.5, times group_b's factor 2: 1.0; u2 and a1 are new:
    0.5.

    Round 1: ``<none>`` gets 10 - 3 - 2 = 5 and asks 16: allocated 5; group_a 1 of 3
    (surplus 2, not shared up: it takes none); group_b 2, asking 6 more. The surplus 2
    splits by quota between group_b (2/7: 0.571429) and ``<none>`` (5/7: 1.428571);
    remainders: ``<none>`` 6 + 0.428571, group_b 2 + 0.571429: 1.0 slot, round-robin to
    ``<none>`` (the larger quota on a tie of round-robin times): 7. Limits max(allocated,
    quota): group_a 3, group_b 2, ``<none>`` 7. In ``<none>``, shares max/EUP normalized:
    u2 (1.047726/0.5) / 3.095452 = 0.676945 (limit x 7 = 4.738618), u1 0.323055
    (2.261382): 4 and 2 matches; in the second spin the limits left, 0.738618 and
    0.261382, sum to below one slot. Round 1 used 9 of 10, so round 2: ``<none>`` asks its usage 6 (5 +
    1 surplus: 5/7 of 2 capped at 1), group_b 8: 2 + 2/7 of 2 + the 0.428571 left =
    3.0: b1 gets a third slot. 1 + 3 + 4 + 2 = 10."""
    config = write_config(GROUPS)
    state = tmp_path / "s.json"
    history = tmp_path / "h.csv"
    history.write_text(HISTORY)
    common = ["--config", str(config), "--state", str(state)]
    imported = run("import", "history", str(history), *common, "--now", "2026-01-01T00:00:00Z")
    assert imported.exit_code == 0, imported.stderr
    queue = tmp_path / "jobs.json"
    queue.write_text(
        json.dumps(
            [
                jobs("a1", "group_a.a1", 1, 1),
                jobs("b1", "group_b.b1", 8, 2),
                jobs("u1", None, 8, 3),
                jobs("u2", None, 8, 4),
            ]
        )
    )
    result = run(
        "negotiate", "--dry-run", "--json", "--jobs-file", str(queue), *common,
        "--now", "2026-01-01T01:00:00Z",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    submitters = {s["name"]: s for s in json.loads(result.stdout)["submitters"]}
    assert {name: s["matched"] for name, s in submitters.items()} == {
        "group_a.a1@ex.org": 1,
        "u2@ex.org": 4,
        "group_b.b1@ex.org": 3,
        "u1@ex.org": 2,
    }
    assert submitters["u1@ex.org"]["effective_priority"] == pytest.approx(1.047726, abs=1e-6)
    assert submitters["group_b.b1@ex.org"]["effective_priority"] == 1.0
    assert submitters["u2@ex.org"]["share"] == pytest.approx(2.095452 / 3.095452, abs=1e-12)
    assert submitters["u2@ex.org"]["limit"] == pytest.approx(4.738618, abs=1e-6)
    assert submitters["u1@ex.org"]["limit"] == pytest.approx(2.261382, abs=1e-6)


PSLOT = """
[pool]
uid_domain = "ex.org"
defaults = "current"
[accountant]
priority_halflife = 600
[[machines]]
name = "m"
partitionable = true
attributes = { Cpus = 4, Memory = 4096 }
"""


def test_a_partitionable_slot_over_cycles_shorter_than_the_half_life(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """One partitionable slot of 4 CPUs (slot weight Cpus, factor 1000), cycles every
    300 s, half-life 600 s (each cycle's aging factor 0.5^0.5 = 0.707107); x queues 1-CPU
    jobs, y 2-CPU ones.

    00:00: x matches the pslot, charged its whole weight 4. 00:05: ``CheckMatches`` drops
    the pslot's match and adds x's dynamic slot (1); y, new (EUP 500 against x's
    1525.126), matches the pslot (3 CPUs left): charged 3. 00:10: y (1232.233) goes
    first but needs 2 CPUs of the 1 left; x (1371.320) takes it, charged 1. 00:15: no
    CPU is left. x's priority: 0.5 -> 1.525126 (4 in use) -> 1.371320 (1) -> 1.555456
    (2) -> 1.685660 (2) at 00:20; y's: 0.5 -> 1.232233 (3) -> 1.457107 (2) -> 1.616117
    (2). Usage: x 4x300 + 1x300 + 2x600 s = 0.75 h; y 3x300 + 2x600 = 0.583333 h."""
    config = write_config(PSLOT)
    common = ["--config", str(config), "--state", str(tmp_path / "s.json")]
    for owner, cpus in (("x", "1"), ("y", "2")):
        submitted = run(
            "submit", "--owner", owner, "--count", "3", "--cpus", cpus, "--memory", "100",
            *common, "--now", "2026-01-01T00:00:00Z",
        )  # fmt: skip
        assert submitted.exit_code == 0, submitted.stderr
    charged = []
    for minute in ("00", "05", "10", "15"):
        cycle = run("negotiate", "--json", *common, "--now", f"2026-01-01T00:{minute}:00Z")
        assert cycle.exit_code == 0, cycle.stderr
        charged += [(m["submitter"], m["charge"]) for m in json.loads(cycle.stdout)["matches"]]
    assert charged == [("x@ex.org", 4.0), ("y@ex.org", 3.0), ("x@ex.org", 1.0)]
    view = run("userprio", "--all", "--json", *common, "--now", "2026-01-01T00:20:00Z")
    rows = {r["name"]: r for r in json.loads(view.stdout)}
    assert rows["x@ex.org"]["real_priority"] == pytest.approx(1.68566, abs=1e-6)
    assert rows["y@ex.org"]["real_priority"] == pytest.approx(1.616117, abs=1e-6)
    assert rows["x@ex.org"]["weighted_accumulated_usage_hours"] == pytest.approx(0.75)
    assert rows["y@ex.org"]["weighted_accumulated_usage_hours"] == pytest.approx(2100 / 3600)
    assert rows["x@ex.org"]["begin_usage_time"] == "2026-01-01T00:05:00Z"
    assert rows["y@ex.org"]["begin_usage_time"] == "2026-01-01T00:10:00Z"


NESTED = """
[pool]
uid_domain = "ex.org"
defaults = "legacy"
[[machines]]
name = "s"
slots = 12
attributes = { Cpus = 1, Memory = 1024 }
[groups.g]
quota = 6
accept_surplus = true
[groups."g.x"]
dynamic_quota = 0.5
accept_surplus = false
[groups."g.y"]
dynamic_quota = 0.25
accept_surplus = true
[groups.h]
quota = 2
accept_surplus = true
"""


def test_nested_dynamic_quotas_and_round_robin_of_the_remainders(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Twelve slots; ``g`` (static 6, surplus) holds ``g.x`` (dynamic 0.5, no surplus)
    and ``g.y`` (dynamic 0.25, surplus), ``h`` static 2. Demands: 10 each in g.x, g.y,
    g itself (w) and ``<none>``, 1 in h.

    Quotas (``hgq_assign_quotas``): ``<none>`` 12 - 6 - 2 = 4; g.x 0.5 x 6 = 3, g.y 1.5,
    g 6 - 4.5 = 1.5; h 2. Fair share: each takes min(demand, quota): 4, 1.5, 3, 1.5, 1;
    h's surplus 1 splits by quota between g's subtree (6/10: 0.6) and ``<none>`` (4/10:
    0.4); in g, 0.6 between g.y and g (1.5 each): 0.3 each. Remainders: ``<none>``
    0.4, g 0.8, g.y 0.8; in g, 1.6 round-robin, by quota then request (g.y before g on
    a tie of both, the order kept): g.y 1, 0.6 passed up; at the root 0.4 + 0.6 = 1:
    to g's subtree (quota 6 first), where g (9 asked) goes before g.y (8 left): g.
    Allocated ``<none>`` 4, g 2, g.x 3, g.y 2, h 1; each negotiates for max(allocated,
    quota): 4, 2, 3, 2, 2, and takes it (h's one job: 1): 12 matches. Pie spins: g, g.x,
    g.y two each (the second halts at the quota), h one (its submitter done), ``<none>``
    one (last, it takes the last slots: no slot left to spin for): 8."""
    config = write_config(NESTED)
    queue = tmp_path / "jobs.json"
    queue.write_text(
        json.dumps(
            [
                jobs("u", "g.x.u", 10, 1),
                jobs("v", "g.y.v", 10, 2),
                jobs("w", "g.w", 10, 3),
                jobs("z", "h.z", 1, 4),
                jobs("n", None, 10, 5),
            ]
        )
    )
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--jobs-file",
            str(queue), "--now", "2026-01-01T01:00:00Z"]  # fmt: skip
    quota = run("quota", "--json", *args)
    assert quota.exit_code == 0, quota.stderr
    assert {r["group"]: (r["quota"], r["limit"]) for r in json.loads(quota.stdout)} == {
        "<none>": (4.0, 4),
        "g": (1.5, 2),
        "g.x": (3.0, 3),
        "g.y": (1.5, 2),
        "h": (2.0, 2),
    }
    cycle = run("negotiate", "--dry-run", *args)
    assert cycle.exit_code == 0, cycle.stderr
    assert cycle.stdout.rstrip().splitlines()[-1] == (
        "12 matches in 8 pie spin(s); pool size 12.00; 29 idle job(s) left unmatched."
    )
    matched = json.loads(run("negotiate", "--dry-run", "--json", *args).stdout)["submitters"]
    assert {s["name"]: s["matched"] for s in matched} == {
        "g.w@ex.org": 2,
        "g.x.u@ex.org": 3,
        "g.y.v@ex.org": 2,
        "h.z@ex.org": 1,
        "n@ex.org": 4,
    }


SURPLUS_UP_AND_DOWN = """
[pool]
uid_domain = "ex.org"
defaults = "legacy"
[[machines]]
name = "s"
slots = 10
attributes = { Cpus = 1, Memory = 1024 }
[groups.g]
quota = 6
accept_surplus = true
[groups."g.a"]
quota = 4
accept_surplus = true
[groups."g.b"]
quota = 2
accept_surplus = false
[groups.h]
quota = 2
accept_surplus = false
"""


def test_surplus_flows_up_to_the_root_and_back_down_into_a_nested_group(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Ten slots; ``g`` (static 6, surplus) holds ``g.a`` (static 4, surplus) and ``g.b``
    (static 2, no surplus); ``h`` static 2, no surplus, asks nothing. Demands: g.a 8, g.b
    1, ``<none>`` 5.

    Quotas (``hgq_assign_quotas``): ``<none>`` 10 - 6 - 2 = 2, g 6 - 4 - 2 = 0, g.a 4,
    g.b 2, h 2. ``hgq_fairshare``: ``<none>`` takes 2 (asks 3 more), g.a 4 (asks 4 more),
    g.b 1: its surplus 1 goes up to g, whose ``hgq_allocate_surplus`` hands it back down
    to g.a by quota (the only one asking): g.a 5, asking 3. h's surplus 2 goes up to the
    root, where g's subtree (quota 6, asking 3) and ``<none>`` itself (its quota 2,
    asking 3) share it by quota: g 2 x 6/8 = 1.5, passed down to g.a (6.5), ``<none>``
    0.5 (2.5). ``hgq_recover_remainders``: 0.5 from g.a and 0.5 from ``<none>`` make one
    slot at the root; round robin (equal round-robin times: the larger subtree quota
    first) gives it to g's subtree, and g to g.a: g.a 7, ``<none>`` 2. Each group
    negotiates for max(allocated, quota): g.a 7, g.b 2, ``<none>`` 2 (the root accepts
    surplus, so ``strict_enforce_quota`` caps none of them), h and g nothing allocated.
    Matches: g.a 7 of 8, g.b its 1, ``<none>`` 2 of 5: the ten slots."""
    config = write_config(SURPLUS_UP_AND_DOWN)
    queue = tmp_path / "jobs.json"
    queue.write_text(
        json.dumps([jobs("a", "g.a.a", 8, 1), jobs("b", "g.b.b", 1, 2), jobs("n", None, 5, 3)])
    )
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--jobs-file",
            str(queue), "--now", "2026-01-01T01:00:00Z"]  # fmt: skip
    quota = run("quota", "--json", *args)
    assert quota.exit_code == 0, quota.stderr
    assert {r["group"]: (r["quota"], r["limit"]) for r in json.loads(quota.stdout)} == {
        "<none>": (2.0, 2),
        "g": (0.0, 0),
        "g.a": (4.0, 7),
        "g.b": (2.0, 2),
        "h": (2.0, 0),
    }
    cycle = run("negotiate", "--dry-run", "--json", *args)
    assert cycle.exit_code == 0, cycle.stderr
    doc = json.loads(cycle.stdout)
    assert {s["name"]: (s["matched"], s["limit"]) for s in doc["submitters"]} == {
        "g.a.a@ex.org": (7, 7.0),
        "g.b.b@ex.org": (1, 2.0),
        "n@ex.org": (2, 2.0),
    }
    # n's first spin goes on past its limit (preemption is considered) and finds the
    # pool empty: its last 3 jobs wait for want of a slot
    assert [(u["job_id"], u["reason"]) for u in doc["unmatched"]] == [
        ("1.7", "submitter_limit"),
        ("3.2", "pool_exhausted"),
        ("3.3", "pool_exhausted"),
        ("3.4", "pool_exhausted"),
    ]


CEILING = """
[pool]
uid_domain = "ex.org"
defaults = "legacy"
[[machines]]
name = "s"
slots = 8
attributes = { Cpus = 1, Memory = 1024 }
[groups.g]
quota = 2
autoregroup = true
accept_surplus = false
"""


def test_a_submitter_stops_at_its_ceiling_across_its_group_and_the_autoregroup_round(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Eight slots; ``g`` (static 2, autoregroup, no surplus): u (ceiling 4) asks 6, n
    (``<none>``) 2; every priority 0.5.

    g negotiates first (``group_order``: with autoregroup ``<none>`` goes last) with
    max(allocated 2, quota 2) = 2: u's slice 2, and its ceiling headroom 4 - 0: 2 matches.
    ``<none>`` (allocated the whole pool in autoregroup mode; the root accepts surplus, so
    nothing caps it) negotiates with 8, u among its submitters: shares 0.5 each of
    min(8, 8), u's limit 4 - 2 (its usage so far) = 2, n's 4; n goes first (starvation
    0/4 against u's 2/(2 + 2)) and takes its 2; u takes 2, and its headroom
    4 - (int)2 = 2 stops it (``limitUsed >= submitterCeiling``). In the second spin u's
    limit is 1 x 8 - 4 = 4 but its headroom 4 - 4 = 0: skipped, done; so in the second
    allocation round (the usage 2 + 2 of 10 allocated) and the third. u holds 4 slots, n
    2, two stay free; u's last 2 jobs wait for the ceiling (they were reported as
    ``submitter_limit``, the refusal of u's first turn, which its later turns went past)."""
    config = write_config(CEILING)
    common = ["--config", str(config), "--state", str(tmp_path / "s.json")]
    ceiling = run(
        "setceiling", "g.u@ex.org", "4", "--create", *common, "--now", "2026-01-01T00:00:00Z"
    )
    assert ceiling.exit_code == 0, ceiling.stderr
    queue = tmp_path / "jobs.json"
    queue.write_text(json.dumps([jobs("u", "g.u", 6, 1), jobs("n", None, 2, 2)]))
    args = [*common, "--jobs-file", str(queue), "--now", "2026-01-01T01:00:00Z"]
    cycle = run("negotiate", "--dry-run", "--json", *args)
    assert cycle.exit_code == 0, cycle.stderr
    doc = json.loads(cycle.stdout)
    assert [(m["job_id"], m["slot"]) for m in doc["matches"]] == [
        ("1.0", "slot1@s001"),
        ("1.1", "slot2@s001"),
        ("2.0", "slot3@s001"),
        ("2.1", "slot4@s001"),
        ("1.2", "slot5@s001"),
        ("1.3", "slot6@s001"),
    ]
    assert [(u["job_id"], u["reason"]) for u in doc["unmatched"]] == [
        ("1.4", "ceiling"),
        ("1.5", "ceiling"),
    ]
    explained = run("negotiate", "--dry-run", *args, "--explain", "1.4")
    assert explained.stdout.rstrip().splitlines()[-1].strip() == (
        "left idle: its submitter reached its ceiling"
    )


NESTED_SURPLUS = """
[pool]
uid_domain = "d"
[[machines]]
name = "m"
slots = 10
[groups.a]
quota = 4
accept_surplus = true
[groups."a.x"]
quota = 2
[groups."a.y"]
quota = 1
accept_surplus = true
[groups.b]
quota = 3
autoregroup = true
"""


def test_surplus_skips_a_child_that_refuses_it_and_autoregroup_opens_the_root(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Ten slots (legacy: no slot weights, no oversubscription); a (4, surplus) holds a.x
    (2, no surplus) and a.y (1, surplus); b (3) autoregroups. Demand: alice in a.x 6,
    bob in a.y 5, carol in b 6, dave in ``<none>`` 1.

    ``hgq_assign_quotas(10)``: a 4 and b 3, ``<none>`` 10 - 7 = 3; under a, x 2 and y 1,
    a itself 4 - 3 = 1. ``hgq_fairshare``: ``<none>`` takes min(1, 3) = 1 (surplus 2);
    a min(0, 1) = 0 (surplus 1); x 2 (4 left, not passed up: it refuses surplus); y 1 (4
    left, passed up: a's subtree asks 4); a's ``hgq_allocate_surplus(1)``: 1 < 4, by quota
    among those asking (y alone, Z = 1): y 1 more (2); a hands 3 up. b 3 (3 left, not
    passed up: no accept_surplus). ``<none>``'s surplus 2 < 3 asked: by quota (a alone,
    Z = 4): a 2, down to y: 4. So a.x 2, a.y 4, b 3, and autoregroup gives ``<none>`` the
    whole pool, 10, where dave and carol (b autoregroups) negotiate last. Matches: bob 4,
    carol 3, alice 2, dave the tenth slot."""
    cfg = write_config(NESTED_SURPLUS)
    queue = [
        jobs("alice", "a.x.alice", 6, 1),
        jobs("bob", "a.y.bob", 5, 2),
        jobs("carol", "b.carol", 6, 3),
        jobs("dave", None, 1, 4),
    ]
    (tmp_path / "jobs.json").write_text(json.dumps(queue), encoding="utf-8")
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json"),
            "--jobs-file", str(tmp_path / "jobs.json"), "--now", "2026-01-01T01:00:00Z"]  # fmt: skip
    quota = run("quota", "--json", *args)
    assert quota.exit_code == 0, quota.stderr
    limits = {row["group"]: row["limit"] for row in json.loads(quota.stdout)}
    assert limits == {"<none>": 10, "a": 0, "a.x": 2, "a.y": 4, "b": 3}
    cycle = run("negotiate", "--dry-run", "--json", *args)
    assert cycle.exit_code == 0, cycle.stderr
    matched: dict[str, int] = {}
    for m in json.loads(cycle.stdout)["matches"]:
        matched[m["submitter"]] = matched.get(m["submitter"], 0) + 1
    assert matched == {"a.y.bob@d": 4, "b.carol@d": 3, "a.x.alice@d": 2, "dave@d": 1}
