"""A job's weight in its group's demand (``NEGOTIATOR_USE_WEIGHTED_DEMAND``).

HTCondor 25.0's schedd weighs each idle job for its submitter ad's ``WeightedIdleJobs``
by the pool's ``SLOT_WEIGHT``: just ``Cpus`` weighs ``RequestCpus``; any other expression
is evaluated in an ad holding only ``Cpus``, ``Memory`` and ``Disk`` set to the job's
requests; and each job's weight is cut to a whole number before it is added. It weighs a
running job for ``WeightedRunningJobs`` at the ``SlotWeight`` of the slot ad its claim
holds (``calcSlotWeight``): a static slot's whole weight, a dynamic slot's own, whether
or not the negotiator uses slot weights. The negotiator adds both into the group's
demand, from which the group quotas are allocated. fs counted every idle job at its
``request_cpus`` whatever the slot weight was, and every running job at its
``request_cpus`` whatever slot it held.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-20T00:00:00Z"

POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
slot_weight = "{weight}"
[[machines]]
name = "s"
count = 4
slots = 1
attributes = {{ Cpus = 1, Memory = 4096 }}
[groups.a]
quota = {quota}
"""


def _files(tmp_path: Path, weight: str, quota: str, jobs: list[dict[str, Any]]) -> list[str]:
    config, jobs_file = tmp_path / "pool.toml", tmp_path / "jobs.json"
    config.write_text(POOL.format(weight=weight, quota=quota), encoding="utf-8")
    jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
    return [
        "--config", str(config), "--state", str(tmp_path / "state.json"),
        "--jobs-file", str(jobs_file), "--now", NOW,
    ]  # fmt: skip


def test_quota_demand_weighs_idle_jobs_by_the_slot_weight(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``slot_weight = "Cpus + Memory / 4096"``: alice's three idle jobs ask for 1 CPU and
    4096 MB each, 1 + 4096 / 4096 = 2; bob's one asks for 1 CPU and 2048 MB, 1 + 0.5 =
    1.5, cut to 1. Group a's demand is 3 x 2 + 1 = 7 (fs said 3 + 1 = 4, the CPUs)."""
    jobs = [
        {"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 3,
         "request_memory": 4096},
        {"id": "2.0", "owner": "bob", "accounting_group": "a.bob", "request_memory": 2048},
    ]  # fmt: skip
    result = run("quota", "--json", *_files(tmp_path, "Cpus + Memory / 4096", "4", jobs))
    assert result.exit_code == 0, result.stderr
    rows = {row["group"]: row for row in json.loads(result.stdout)}
    assert rows["a"]["demand"] == 7.0


def test_a_slot_weight_of_cpus_weighs_request_cpus(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``slot_weight = "Cpus"`` weighs each idle job its ``RequestCpus``, 2 + 2 = 4 here,
    as before."""
    jobs = [{"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 2,
             "request_cpus": 2}]  # fmt: skip
    result = run("quota", "--json", *_files(tmp_path, "Cpus", "4", jobs))
    assert result.exit_code == 0, result.stderr
    assert {r["group"]: r["demand"] for r in json.loads(result.stdout)}["a"] == 4.0


def test_jobs_that_weigh_less_than_one_leave_the_group_without_demand(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``slot_weight = "Cpus * 0.5"``: the pool is 4 x 0.5 = 2 weighted slots, group a's
    quota 2. Each idle 1-CPU job weighs 1 x 0.5 = 0.5, cut to 0: group a's demand is 0,
    so it is allocated 0 and skipped ("zero slots allocated"); nothing matches and the
    jobs wait for the group quota. fs counted the 4 CPUs: an allocation of 2, a limit of
    2 and a pie of min(2, 2) = 2 for alice alone, so 4 matches of 0.5."""
    jobs = [{"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 4}]
    result = run("negotiate", "--dry-run", "--json", *_files(tmp_path, "Cpus * 0.5", "2", jobs))
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["matches"] == []
    assert [(u["job_id"], u["reason"]) for u in doc["unmatched"]] == [
        (f"1.{i}", "group_quota") for i in range(4)
    ]


RUNNING_POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
accept_surplus = true
use_slot_weights = {weights}
[[machines]]
name = "s"
count = 1
slots = 1
attributes = {{ Cpus = 4, Memory = 8192 }}
[[machines]]
name = "x"
count = 4
slots = 1
attributes = {{ Cpus = 1, Memory = 2048 }}
{pslot}[groups.a]
quota = 6
[groups.b]
quota = 2
"""

#: alice (group a) runs a 1-CPU job on the 4-CPU static slot and has 4 idle 1-CPU jobs;
#: bob (group b) has 4 idle 1-CPU jobs.
RUNNING_JOBS: list[dict[str, Any]] = [
    {"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "status": "running",
     "slot": "slot1@s001", "start_time": "2026-11-19T23:00:00Z"},
    {"id": "2.0", "owner": "alice", "accounting_group": "a.alice", "count": 4},
    {"id": "3.0", "owner": "bob", "accounting_group": "b.bob", "count": 4},
]  # fmt: skip


#: An 8-CPU partitionable slot, slot1@p001.
PSLOT = """\
[[machines]]
name = "p"
count = 1
slots = 1
partitionable = true
attributes = { Cpus = 8, Memory = 16384, Disk = 100000000 }
"""


def _running_files(
    tmp_path: Path, jobs: list[dict[str, Any]], weights: bool = True, pslot: str = ""
) -> list[str]:
    config, jobs_file = tmp_path / "pool.toml", tmp_path / "jobs.json"
    text = RUNNING_POOL.format(weights=str(weights).lower(), pslot=pslot)
    config.write_text(text, encoding="utf-8")
    jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
    return ["--config", str(config), "--state", str(tmp_path / "state.json"), "--now", NOW]


@pytest.mark.parametrize("weights", [True, False], ids=["slot weights", "no slot weights"])
def test_quota_demand_weighs_a_running_job_by_the_slot_it_holds(
    tmp_path: Path, run: Callable[..., Any], weights: bool
) -> None:
    """``slot_weight = "Cpus"`` (the default). Group a: alice's 1-CPU job running on
    slot1@s001 (Cpus = 4) weighs that slot's SlotWeight, 4; carol's 1-CPU job on the
    dynamic slot slot1_1@p001 weighs that dynamic slot's own, its 1 CPU (not the 8 of its
    partitionable slot); alice's 4 idle 1-CPU jobs weigh 1 each. Demand 4 + 1 + 4 = 9 (fs
    said 1 + 1 + 4 = 6, the CPUs), with or without ``use_slot_weights``: the startd
    publishes SlotWeight and the schedd reads it whatever the negotiator does."""
    carol = {"id": "4.0", "owner": "carol", "accounting_group": "a.carol", "status": "running",
             "slot": "slot1_1@p001", "start_time": "2026-11-19T23:00:00Z"}  # fmt: skip
    args = _running_files(tmp_path, [*RUNNING_JOBS, carol], weights, PSLOT)
    result = run("quota", "--json", *args, "--jobs-file", str(tmp_path / "jobs.json"))
    assert result.exit_code == 0, result.stderr
    assert {r["group"]: r["demand"] for r in json.loads(result.stdout)} == {
        "<none>": 0.0,
        "a": 9.0,
        "b": 4.0,
    }


def test_userprio_weighted_requested_weighs_a_running_job_by_its_slot(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs userprio -l -allusers`` after ``fs submit``: group a's Requested is alice's
    running job at slot1@s001's SlotWeight (Cpus = 4) plus her 4 idle 1-CPU jobs, 4 + 4 =
    8 (fs said 1 + 4 = 5); group b's is bob's 4 idle jobs, 4."""
    args = _running_files(tmp_path, RUNNING_JOBS)
    result = run("submit", "--file", str(tmp_path / "jobs.json"), *args)
    assert result.exit_code == 0, result.stderr
    result = run("userprio", "-l", "-allusers", *args)
    assert result.exit_code == 0, result.stderr
    lines = dict(line.split(" = ", 1) for line in result.stdout.splitlines() if " = " in line)
    number = {lines[f"Name{n}"].strip('"'): n for n in range(1, 5)}
    assert {g: lines[f"Requested{number[g]}"] for g in ("a", "b")} == {
        "a": "8.0",
        "b": "4.0",
    }


def test_a_running_job_on_a_big_slot_keeps_its_group_from_giving_up_surplus(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Pool: slot1@s001 (4 CPUs, alice's running job) and four free 1-CPU slots; groups
    a (quota 6) and b (quota 2) accept surplus. Group a: alice's running 1-CPU job weighs
    slot1@s001's SlotWeight, 4, and her 4 idle 1-CPU jobs 4: demand 8 >= 6, a is allocated
    its 6 and has no surplus. Group b: bob's 4 idle jobs, demand 4 >= 2, allocated 2. So
    bob matches 2 and alice 6 - 4 held = 2. fs counted the running job at its 1 CPU: a's
    demand 5 left a surplus of 1 that b took: bob matched 3 and alice 1."""
    args = _running_files(tmp_path, RUNNING_JOBS)
    jobs = ["--jobs-file", str(tmp_path / "jobs.json")]
    result = run("negotiate", "--dry-run", "--json", *args, *jobs)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert sorted(m["job_id"] for m in doc["matches"]) == ["2.0", "2.1", "3.0", "3.1"]
    assert {s["name"]: (s["limit"], s["matched"]) for s in doc["submitters"]} == {
        "a.alice@example.org": (6.0, 2),
        "b.bob@example.org": (2.0, 2),
    }


#: alice's record of imported usage history, still running at NOW on one slot
RUNNING_RECORD = "owner,accounting_group,start,end,slots\nalice,a.alice,2026-11-19T23:00:00Z,,1\n"


def _import_running_record(tmp_path: Path, run: Callable[..., Any], args: list[str]) -> None:
    """``fs import history`` of RUNNING_RECORD: a claim on slot1@s001 (the pool's first
    slot) whose job the queue does not hold, charged 1 (slot weights off)."""
    (tmp_path / "history.csv").write_text(RUNNING_RECORD, encoding="utf-8")
    result = run("import", "history", str(tmp_path / "history.csv"), *args)
    assert result.exit_code == 0, result.stderr
    claims = json.loads((tmp_path / "state.json").read_text(encoding="utf-8"))
    assert {k: v["weight"] for k, v in claims["negotiator"]["claims"].items()} == {
        "slot1@s001": 1.0
    }


def test_quota_demand_weighs_a_running_history_record_by_the_slot_it_holds(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The legacy profile (no ``defaults``: no slot weights): alice's running record holds
    slot1@s001 (Cpus = 4) and the negotiator charged it 1. The schedd counts every claim
    running a job at the SlotWeight of the slot ad it holds (``count_jobs`` adds
    ``calcSlotWeight``), SLOT_WEIGHT = Cpus: 4, as for a queue job on that slot. Group a's
    demand is 4 (fs said 1, the weight charged); b has none."""
    text = RUNNING_POOL.format(weights="false", pslot="").replace('defaults = "current"\n', "")
    (tmp_path / "pool.toml").write_text(text, encoding="utf-8")
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json"),
            "--now", NOW]  # fmt: skip
    _import_running_record(tmp_path, run, args)
    result = run("quota", "--json", *args)
    assert result.exit_code == 0, result.stderr
    assert {r["group"]: r["demand"] for r in json.loads(result.stdout)} == {
        "<none>": 0.0,
        "a": 4.0,
        "b": 0.0,
    }


def test_a_running_history_record_on_a_big_slot_keeps_its_group_from_giving_up_surplus(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """RUNNING_POOL without slot weights: 5 slot ads. Alice's running record holds
    slot1@s001 (charged 1); she has 4 idle 1-CPU jobs, bob 4. Group a's demand: the record
    at slot1@s001's SlotWeight (Cpus = 4) + 4 = 8 >= its quota 6, so a keeps all of it and
    has no surplus; b's demand 4 >= 2 is allocated 2. Bob (the lower priority: no usage)
    matches his 2, and alice the 2 free slots left. fs counted the record at the 1 it was
    charged: a's demand 5 < 6 left a surplus b took, limit 3: bob matched 3 and alice 1.
    The same as when the running job is one of the queue (the schedd counts both alike)."""
    args = _running_files(tmp_path, RUNNING_JOBS[1:], weights=False)
    _import_running_record(tmp_path, run, args)
    jobs = ["--jobs-file", str(tmp_path / "jobs.json")]
    result = run("negotiate", "--dry-run", "--json", *args, *jobs)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert sorted(m["job_id"] for m in doc["matches"]) == ["2.0", "2.1", "3.0", "3.1"]
    subs = {s["name"]: s for s in doc["submitters"]}
    assert (subs["b.bob@example.org"]["limit"], subs["b.bob@example.org"]["matched"]) == (2.0, 2)
    assert subs["a.alice@example.org"]["matched"] == 2


def test_a_blank_slot_weight_weighs_a_running_claim_by_the_slots_cpus(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``slot_weight = ""`` is SLOT_WEIGHT unset: the startd publishes SlotWeight = Cpus
    (``ResMgr``), and the schedd counts that. Alice's running record on slot1@s001
    (Cpus = 4) weighs 4 in group a's demand, as with ``slot_weight = "Cpus"``; fs refused
    the blank text as an expression that does not parse."""
    text = RUNNING_POOL.format(weights="false", pslot="")
    text = text.replace("[negotiator]\n", '[negotiator]\nslot_weight = ""\n')
    (tmp_path / "pool.toml").write_text(text, encoding="utf-8")
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json"),
            "--now", NOW]  # fmt: skip
    _import_running_record(tmp_path, run, args)
    result = run("quota", "--json", *args)
    assert result.exit_code == 0, result.stderr
    assert {r["group"]: r["demand"] for r in json.loads(result.stdout)}["a"] == 4.0
