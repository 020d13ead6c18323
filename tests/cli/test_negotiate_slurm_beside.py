"""fs negotiate starts idle Slurm jobs on a node's free CPUs beside the work on its slots.

Facts (slurmctld, 22.05 and 26.05 alike): with ``select/cons_tres`` and ``CR_CPU`` a node
runs jobs up to its CPUs, and a pending job starts on any node of its partition with its
CPUs free (``_build_node_list`` ANDs the node sets with the partition's ``node_bitmap``).
For Slurm a machine of the config is a node of ``slots × Cpus`` CPUs. HTCondor's negotiator
gives a job a whole slot, so on a one-slot node of 2 CPUs a 1-CPU Slurm job took the slot
and a second 1-CPU job was left idle (``matching_slots_taken``), where slurmctld runs both. Now
the second runs beside the first (reason ``slurm_beside``, the node's first slot, no claim
and no charge by HTCondor's accountant), as running work that comes in is placed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., Any]
SUBMIT = "2026-11-21T10:00:00Z"
CYCLE = "2026-11-21T10:05:00Z"

#: One one-slot node of 2 CPUs in partition a (the default), one of 4 in b.
POOL = """
[pool]
defaults = "current"
[[machines]]
name = "na"
attributes = { Cpus = 2 }
partitions = ["a"]
[[machines]]
name = "nb"
attributes = { Cpus = 4 }
partitions = ["b"]
[partitions.a]
default = true
[partitions.b]
[accounts.acc]
shares = 1
users = { u1 = 1, u2 = 1 }
"""


def _pool(tmp_path: Path, run: Run, *jobs: list[str]) -> list[str]:
    """The config, and a state whose queue holds ``jobs`` (``fs submit`` options each)."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text(POOL)
    common = ["--config", str(cfg), "--state", str(tmp_path / "state.json")]
    for options in jobs:
        res = run("submit", *options, *common, "--now", SUBMIT)
        assert res.exit_code == 0, res.stderr
    return common


def _cycle(run: Run, common: list[str], *extra: str) -> Any:
    res = run("negotiate", "--dry-run", "--json", *extra, *common, "--now", CYCLE)
    assert res.exit_code == 0, res.stderr
    return json.loads(res.stdout)


def _matches(cycle: Any) -> list[tuple[str, str, str, float]]:
    return [(m["job_id"], m["slot"], m["reason"], m["charge"]) for m in cycle["matches"]]


ONE_CPU = ["--account", "acc", "--cpus", "1"]


def test_two_one_cpu_jobs_share_a_two_cpu_node(tmp_path: Path, run: Run) -> None:
    """Jobs 1 (u1) and 2 (u2), 1 CPU each, in partition a: job 1 takes slot1@na001
    (charged its ``Cpus``, 2, the slot weight); job 2 finds no free slot, and the node has
    2 - 1 = 1 CPU free: it runs beside job 1. Before: job 2 was left idle, every slot of
    partition a taken (``matching_slots_taken``)."""
    common = _pool(tmp_path, run, ["--owner", "u1", *ONE_CPU], ["--owner", "u2", *ONE_CPU])
    cycle = _cycle(run, common)
    assert _matches(cycle) == [
        ("1", "slot1@na001", "no_preemption", 2.0),
        ("2", "slot1@na001", "slurm_beside", 0.0),
    ]
    assert cycle["unmatched"] == []


def test_a_job_the_free_cpus_cannot_hold_waits(tmp_path: Path, run: Run) -> None:
    """Job 2 asks 2 CPUs where 1 is free: left idle, as before. Every priority is 1 (all
    weights 0), so slurmctld walks by id: job 2, then job 3 (1 CPU). Job 2 finds no node:
    ``_schedule`` fails partition a (``fail_by_part`` on ``ESLURM_NODES_BUSY``) and tries
    no lower record there, so job 3 waits too, where fs started it beside job 1 on the
    free CPU (backfill might, where it delays job 2 no more: not modelled)."""
    two = ["--account", "acc", "--cpus", "2"]
    common = _pool(
        tmp_path, run, ["--owner", "u1", *ONE_CPU], ["--owner", "u2", *two],
        ["--owner", "u2", *ONE_CPU],
    )  # fmt: skip
    cycle = _cycle(run, common)
    assert _matches(cycle) == [("1", "slot1@na001", "no_preemption", 2.0)]
    assert cycle["unmatched"] == [
        {"job_id": "2", "submitter": "u2@localdomain", "reason": "matching_slots_taken"},
        {"job_id": "3", "submitter": "u2@localdomain", "reason": "matching_slots_taken"},
    ]


#: Node nab (one slot, 4 CPUs) is in partitions a and b; node nb (one slot, 1 CPU) in b.
SHARED = POOL.replace(
    'name = "na"\nattributes = { Cpus = 2 }\npartitions = ["a"]',
    'name = "nab"\nattributes = { Cpus = 4 }\npartitions = ["a", "b"]',
).replace('name = "nb"\nattributes = { Cpus = 4 }', 'name = "nb"\nattributes = { Cpus = 1 }')


@pytest.mark.parametrize(
    ("big", "beside"),
    [
        # job 3 (2 CPUs) fits in nab's 4 - 1 = 3 free CPUs; job 4 (b) takes the last one
        pytest.param(2, ["3", "4"], id="fits"),
        # job 3 (4 CPUs) does not fit: partition a fails and its node nab leaves
        # avail_node_bitmap, so job 4 of b may not use nab's 3 free CPUs either (fs
        # started it there), and nb's one CPU is job 2's: job 4 waits
        pytest.param(4, [], id="fails"),
    ],
)
def test_a_failed_partition_closes_its_nodes_to_the_others(
    tmp_path: Path, run: Run, big: int, beside: list[str]
) -> None:
    """Every priority is 1 (weights 0): the records go by id. The cycle gives job 1 (u1,
    a, 1 CPU) nab's slot and job 2 (u2, b, 1 CPU) nb's; left for the CPUs beside: job 3
    (u1, a, ``big`` CPUs), then job 4 (u2, b, 1 CPU)."""
    (tmp_path / "pool.toml").write_text(SHARED)
    common = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]
    jobs = [("u1", "a", 1), ("u2", "b", 1), ("u1", "a", big), ("u2", "b", 1)]
    for owner, part, cpus in jobs:
        res = run("submit", "--owner", owner, "--account", "acc", "--partition", part,
                  "--cpus", str(cpus), *common, "--now", SUBMIT)  # fmt: skip
        assert res.exit_code == 0, res.stderr
    cycle = _cycle(run, common)
    assert [m["job_id"] for m in cycle["matches"] if m["reason"] != "slurm_beside"] == ["1", "2"]
    assert [m["job_id"] for m in cycle["matches"] if m["reason"] == "slurm_beside"] == beside


def test_a_failed_partition_leaves_the_others_alone(tmp_path: Path, run: Run) -> None:
    """Job 1 (a, 1 CPU) takes na's slot, job 2 (b, 1 CPU) nb's; job 3 (a, 2 CPUs) finds
    na's 1 free CPU too few and fails partition a, whose node nb is not: job 4 (b, 1 CPU),
    lower (by id), still starts beside job 2 on nb's 3 free CPUs."""
    b = ["--account", "acc", "--partition", "b", "--cpus", "1"]
    common = _pool(
        tmp_path, run, ["--owner", "u1", *ONE_CPU], ["--owner", "u2", *b],
        ["--owner", "u1", "--account", "acc", "--cpus", "2"], ["--owner", "u2", *b],
    )  # fmt: skip
    cycle = _cycle(run, common)
    assert _matches(cycle)[2:] == [("4", "slot1@nb001", "slurm_beside", 0.0)]
    assert [u["job_id"] for u in cycle["unmatched"]] == ["3"]


def test_only_a_node_of_the_jobs_partition(tmp_path: Path, run: Run) -> None:
    """Jobs of partition b (node nb, 4 CPUs, one slot): the first takes its slot, the
    second and third (1 CPU each) run beside it: 1 + 1 + 1 of 4 CPUs; none goes to na,
    of partition a, whose slot stays free."""
    b = ["--account", "acc", "--partition", "b", "--cpus", "1"]
    common = _pool(tmp_path, run, ["--owner", "u1", *b, "--count", "3"])
    assert _matches(_cycle(run, common)) == [
        ("1.0", "slot1@nb001", "no_preemption", 4.0),
        ("1.1", "slot1@nb001", "slurm_beside", 0.0),
        ("1.2", "slot1@nb001", "slurm_beside", 0.0),
    ]


def test_an_htcondor_job_takes_a_whole_slot(tmp_path: Path, run: Run) -> None:
    """An owner with no association, naming no account, partition or QOS: HTCondor's job,
    which runs on a slot alone. Three such jobs: one slot each, none beside."""
    common = _pool(tmp_path, run, ["--owner", "zed", "--cpus", "1", "--count", "3"])
    cycle = _cycle(run, common)
    assert [m["reason"] for m in cycle["matches"]] == ["no_preemption", "no_preemption"]
    assert [u["job_id"] for u in cycle["unmatched"]] == ["1.2"]


def test_a_job_naming_no_account_partition_or_qos_is_not_started_so(
    tmp_path: Path, run: Run
) -> None:
    """u1 has an association, so Slurm's views take its jobs as Slurm's (in the default
    partition, a: na001 only), but a job naming no account, partition or QOS may be
    HTCondor's (sbatch was not seen to queue it): the second waits for a slot."""
    common = _pool(tmp_path, run, ["--owner", "u1", "--cpus", "1", "--count", "2"])
    cycle = _cycle(run, common)
    assert _matches(cycle) == [("1.0", "slot1@na001", "no_preemption", 2.0)]
    assert [u["job_id"] for u in cycle["unmatched"]] == ["1.1"]


def test_committed_the_job_runs_with_no_claim(tmp_path: Path, run: Run) -> None:
    """Committed: job 2 runs from the cycle with no slot and no claim; its Slurm usage
    accrues from then as job 1's does (both 1 CPU from 10:05: equal RawUsage at 10:30);
    a third 1-CPU job finds the node's 2 CPUs in use and waits."""
    common = _pool(tmp_path, run, ["--owner", "u1", *ONE_CPU], ["--owner", "u2", *ONE_CPU])
    res = run("negotiate", *common, "--now", CYCLE)
    assert res.exit_code == 0, res.stderr
    state = json.loads((tmp_path / "state.json").read_text())
    jobs = {j["id"]: j for j in state["jobs"]}
    assert jobs["2"]["status"] == "running"
    assert "slot" not in jobs["2"]
    assert list(state["negotiator"]["claims"]) == ["slot1@na001"]
    assert sorted(r["job"] for r in state["slurm"]["running"]) == ["1", "2"]
    res = run("sshare", "-a", "-P", "-o", "User,RawUsage", *common, "--now", "2026-11-21T10:30:00Z")
    assert res.exit_code == 0, res.stderr
    usage = dict(line.split("|") for line in res.stdout.splitlines()[1:] if line.split("|")[0])
    assert usage["u1"] == usage["u2"] != "0"
    res = run("submit", "--owner", "u1", *ONE_CPU, *common, "--now", CYCLE)
    assert res.exit_code == 0, res.stderr
    cycle = _cycle(run, common)
    assert cycle["matches"] == []
    assert [u["job_id"] for u in cycle["unmatched"]] == ["3"]


def test_explain_tells_the_start(tmp_path: Path, run: Run) -> None:
    """``--explain 2``: the negotiator leaves it idle, then Slurm starts it."""
    common = _pool(tmp_path, run, ["--owner", "u1", *ONE_CPU], ["--owner", "u2", *ONE_CPU])
    res = run("negotiate", "--dry-run", "--explain", "2", *common, "--now", CYCLE)
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines()[-2:] == [
        "  left idle: every slot it matches was already taken this cycle",
        "  then started by Slurm on slot1@na001's node, beside the work on its slots (CPUs "
        "free there; no claim)",
    ]


def test_a_job_of_two_partitions_runs_in_its_nodes_one(tmp_path: Path, run: Run) -> None:
    """Job 1 (2 CPUs, a) holds na001 and its 2 CPUs, job 2 (1 CPU, b) nb001, committed.
    Job 3 (1 CPU, ``a,b``): no free slot; a is tried first (one tier, as named), but na001
    has 2 - 2 = 0 CPUs free; nb001 has 4 - 1 = 3: it runs beside job 2 and is stored
    ``b,a``, the partition it runs in first (its limit end and billing are b's)."""
    common = _pool(
        tmp_path, run, ["--owner", "u1", "--account", "acc", "--cpus", "2"],
        ["--owner", "u1", "--account", "acc", "--partition", "b", "--cpus", "1"],
    )  # fmt: skip
    res = run("negotiate", *common, "--now", CYCLE)
    assert res.exit_code == 0, res.stderr
    res = run("submit", "--owner", "u2", "--partition", "a,b", *ONE_CPU, *common, "--now", CYCLE)
    assert res.exit_code == 0, res.stderr
    later = "2026-11-21T10:10:00Z"
    res = run("negotiate", "--json", *common, "--now", later)
    assert res.exit_code == 0, res.stderr
    assert _matches(json.loads(res.stdout)) == [("3", "slot1@nb001", "slurm_beside", 0.0)]
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert [(j["id"], j.get("partition")) for j in jobs] == [
        ("1", None),
        ("2", "b"),
        ("3", "b,a"),
    ]


#: The pool with a fair-share weight: sprio's PRIORITY of a job is 1000 × its fair-share
#: factor − its nice.
WEIGHTED = POOL + "[priority.weights]\nfairshare = 1000\n"


def _weighted(tmp_path: Path, run: Run, *jobs: list[str]) -> list[str]:
    common = _pool(tmp_path, run)
    (tmp_path / "pool.toml").write_text(WEIGHTED)
    for options in jobs:
        res = run("submit", *options, *common, "--now", SUBMIT)
        assert res.exit_code == 0, res.stderr
    return common


def test_jobs_beside_go_by_slurm_priority_not_the_cycles_order(tmp_path: Path, run: Run) -> None:
    """Jobs 1 and 2 of u1 (job 2 ``nice=100``), job 3 of u2, 1 CPU each, in partition a.
    Job 1 takes slot1@na001; the cycle leaves u1's job 2, then u2's job 3, for the node's
    one free CPU. No usage yet: each user's Fair Tree factor is 1.0 (LevelFS inf for
    both, one rank), so PRIORITY = 1000 × 1.0 − nice: job 2 900, job 3 1000.
    slurmctld's scheduler walks its queue by priority (``sort_job_queue2``, 22.05 and
    today alike): job 3 starts beside job 1, job 2 waits. Before: job 2 (the cycle's
    order) started."""
    common = _weighted(
        tmp_path, run, ["--owner", "u1", *ONE_CPU], ["--owner", "u1", *ONE_CPU, "--set", "nice=100"],
        ["--owner", "u2", *ONE_CPU],
    )  # fmt: skip
    res = run("sprio", "-o", "%.7i %.10Y", *common, "--now", CYCLE)
    assert res.stdout.splitlines() == [
        "  JOBID   PRIORITY",
        "      1       1000",
        "      2        900",
        "      3       1000",
    ]
    cycle = _cycle(run, common)
    assert _matches(cycle) == [
        ("1", "slot1@na001", "no_preemption", 2.0),
        ("3", "slot1@na001", "slurm_beside", 0.0),
    ]
    assert [u["job_id"] for u in cycle["unmatched"]] == ["2"]


def test_jobs_of_one_priority_go_by_job_id(tmp_path: Path, run: Run) -> None:
    """Job 1 (u1) takes the slot; job 2 (u2) and job 3 (u1) are left, u1's run first in
    the cycle. Both PRIORITY 1000, submitted at the same second: the lower job id goes
    first (``sort_job_queue2``), so job 2 runs beside job 1. Before: job 3."""
    common = _weighted(
        tmp_path, run, ["--owner", "u1", *ONE_CPU], ["--owner", "u2", *ONE_CPU],
        ["--owner", "u1", *ONE_CPU],
    )  # fmt: skip
    assert _matches(_cycle(run, common))[1:] == [("2", "slot1@na001", "slurm_beside", 0.0)]


def test_jobs_of_one_priority_go_by_submit_time_first(tmp_path: Path, run: Run) -> None:
    """A jobs file (``--jobs-file``): job 1 (u1) running on slot1@na001 with its 1 CPU;
    job 5 (u1) submitted at 09:00, job 7 (u2) at 09:30, job 6 (u2) at 09:59, 1 CPU each.
    Each PRIORITY is 1000 (no age weight); ``sort_job_queue2`` takes the earlier submit
    time before the lower job id: job 5 (the cycle leaves it first too), then 7, then 6.
    Node na001 has 2 − 1 = 1 CPU free: job 5 starts there. Without job 5, job 7 takes
    the free one: it precedes job 6 by submit time. (A job 5 of 2 CPUs would fail the
    partition and hold back 7 and 6 alike: :func:`test_a_job_the_free_cpus_cannot_hold_waits`.)"""
    common = _weighted(tmp_path, run)

    def job(job_id: str, owner: str, submit: str, cpus: int, **more: Any) -> dict[str, Any]:
        return {"id": job_id, "owner": owner, "account": "acc", "request_cpus": cpus,
                "submit_time": f"2026-11-21T{submit}:00Z", "status": "idle", **more}  # fmt: skip

    running = job("1", "u1", "08:00", 1, status="running", slot="slot1@na001",
                  start_time="2026-11-21T08:00:00Z")  # fmt: skip
    first = [job("5", "u1", "09:00", 1)]
    for five, want in ((first, "5"), ([], "7")):
        jobs = [running, job("6", "u2", "09:59", 1), job("7", "u2", "09:30", 1), *five]
        path = tmp_path / "jobs.json"
        path.write_text(json.dumps(jobs))
        cycle = _cycle(run, common, "--jobs-file", str(path))
        assert [m["job_id"] for m in cycle["matches"] if m["reason"] == "slurm_beside"] == [want]


def test_under_incr_only_a_job_waits_at_the_priority_slurmctld_kept(
    tmp_path: Path, run: Run
) -> None:
    """PriorityFlags=INCR_ONLY: slurmctld keeps a pending job's stored priority at its
    highest (``decay_apply_weighted_factors``) and walks its queue by it, where sprio sums
    the factors of the last pass. Weight age 1,000,000, max_age 7 days: at the 10:05 pass
    jobs submitted at 10:00 have AGE 300 / 604,800 x 1,000,000 = 496.03; job 2 (nice 10)
    sums 486, job 3 496. Job 1 takes na's slot, which leaves one CPU. Job 2 was stored at
    500 (``slurm_priority``, as an import of a dump printing it stores it): 500 > 496, so
    job 2 takes the CPU; without the flag job 3 (496 > 486) does, and fs took job 3 under
    the flag too. ``fs sprio`` prints 486 for job 2 either way."""
    age = '[priority]\nflags = ["INCR_ONLY"]\n[priority.weights]\nage = 1000000\n'
    common = _pool(
        tmp_path, run, ["--owner", "u1", *ONE_CPU],
        ["--owner", "u2", *ONE_CPU, "--set", "nice=10", "--set", "slurm_priority=500"],
        ["--owner", "u2", *ONE_CPU],
    )  # fmt: skip
    cfg = tmp_path / "pool.toml"
    cfg.write_text(POOL + age)
    beside = [m for m in _matches(_cycle(run, common)) if m[2] == "slurm_beside"]
    assert beside == [("2", "slot1@na001", "slurm_beside", 0.0)]
    sprio = run("sprio", "-o", "%.5i %.10Y", *common, "--now", CYCLE)
    assert sprio.stdout.splitlines() == [
        "JOBID   PRIORITY", "    1        496", "    2        486", "    3        496",
    ]  # fmt: skip
    cfg.write_text(POOL + age.replace('"INCR_ONLY"', ""))
    beside = [m for m in _matches(_cycle(run, common)) if m[2] == "slurm_beside"]
    assert beside == [("3", "slot1@na001", "slurm_beside", 0.0)]


def _fifo_or_fair_share(tmp_path: Path, run: Run, prio_type: str) -> list[Any]:
    """Jobs 1 and 3 (u1) and job 2 (u2), 1 CPU each, on the 2-CPU node of partition a;
    Slurm usage 100 for u2, none for u1, and fair share weighed (Fair Tree, 1000)."""
    pool = POOL.replace(
        "[accounts.acc]",
        f'[priority]\ntype = "{prio_type}"\nfairshare = "fair_tree"\n'
        "[priority.weights]\nfairshare = 1000\n[accounts.acc]",
    )
    tmp_path = tmp_path / prio_type
    tmp_path.mkdir()
    (tmp_path / "pool.toml").write_text(pool)
    common = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]
    for owner in ("u1", "u2", "u1"):
        res = run("submit", "--owner", owner, *ONE_CPU, *common, "--now", SUBMIT)
        assert res.exit_code == 0, res.stderr
    state = json.loads((tmp_path / "state.json").read_text())
    state["slurm"] = {"last_decay_ran": 1795255200, "usage": {"acc": {"u2": 100.0}}}
    (tmp_path / "state.json").write_text(json.dumps(state))
    return _matches(_cycle(run, common))


def test_priority_basic_starts_the_jobs_left_first_in_first_out(tmp_path: Path, run: Run) -> None:
    """The negotiator gives u1's job 1 the node's one slot; jobs 2 (u2) and 3 (u1) are
    left for its one free CPU. Under multifactor u1's job 3 comes first (u1 has no usage:
    factor 1, PRIORITY 1000; u2 1/2, 500) and runs beside job 1; under basic job 2 does,
    the earlier submitted (4294901759 against 4294901758)."""
    assert _fifo_or_fair_share(tmp_path, run, "multifactor") == [
        ("1", "slot1@na001", "no_preemption", 2.0),
        ("3", "slot1@na001", "slurm_beside", 0.0),
    ]
    assert _fifo_or_fair_share(tmp_path, run, "basic") == [
        ("1", "slot1@na001", "no_preemption", 2.0),
        ("2", "slot1@na001", "slurm_beside", 0.0),
    ]
