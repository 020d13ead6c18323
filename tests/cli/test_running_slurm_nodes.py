"""Running Slurm work holds the pool's machines as slurmctld holds its nodes: only the nodes
of the partition it runs in, a node running jobs up to its CPUs, several jobs a node.

Facts (slurmctld, read at tags slurm-22-05-9-1 and slurm-26-05-0-1): a job is given nodes
of its partition only (``_build_node_list`` in ``src/slurmctld/node_scheduler.c`` ANDs
every node set with ``part_ptr->node_bitmap``, before ``_get_req_features``); with
``SelectType=select/cons_tres`` and ``SelectTypeParameters=CR_CPU`` (the 22.05 captures'
slurm.conf) a node's CPUs are shared by jobs until all are allocated. The 22.05 capture
``ft1_running`` shows it: jobs 2, 3 and 4 (u1 8 CPUs, u2 4, u4 4) all run on the one
16-CPU node ``localhost`` (its ``squeue.txt``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_slurm_imports import BASE, FIXTURES, _now, _pass_time

Run = Callable[..., Any]
NOW = "2026-11-21T12:00:00Z"

#: Two one-slot nodes of 4 CPUs, each in one partition.
TWO_PARTITIONS = """
[pool]
defaults = "current"
[[machines]]
name = "na"
attributes = { Cpus = 4 }
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
users = { u1 = 1 }
"""


def _state(path: Path) -> Any:
    return json.loads(path.read_text())


def test_sacct_listing_of_the_22_05_captures_places_every_running_job(
    tmp_path: Path, run: Run
) -> None:
    """docs/slurm.md's way with the 22.05 captures: slurm.conf, the associations, then
    ``fs import sacct`` at ``ft1_running``'s moment, when jobs 2-4 run. slurm.conf's node
    is one stanza of one slot with ``Cpus = 16``: u1's job (8 CPUs) holds that slot, and
    u2's and u4's (4 each) run beside it, 8 + 4 + 4 = 16 CPUs of 16, as squeue shows them.
    Before, they found no free slot, were warned of, and their HTCondor use stopped."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text(BASE)
    state = tmp_path / "state.json"
    capture = "ft1_running"
    for kind, path in (
        ("slurm-conf", FIXTURES / "config" / "slurm.conf.fairtree"),
        ("sacctmgr", FIXTURES / capture / "sacctmgr_assoc_tree.txt"),
    ):
        assert run("import", kind, str(path), "--into", str(cfg)).exit_code == 0
    res = run(
        "import", "sacct", str(FIXTURES / "sacct_jobs_1_13.txt"),
        "--config", str(cfg), "--state", str(state),
        "--now", _now(capture), "--last-decay", _pass_time(capture),
    )  # fmt: skip
    assert res.exit_code == 0
    assert "warning" not in res.stderr
    assert res.stderr == (
        "fs: note: skipped 9 lines of no usage: job steps, jobs that never started (or start "
        "after --now), jobs with no CPUs\n"
    )
    body = _state(state)
    assert [(slot, c["submitter"]) for slot, c in body["negotiator"]["claims"].items()] == [
        ("slot1@localhost", "u1@localdomain")  # (slurm.conf's node: it was localhost001)
    ]
    records = body["accountant"]["records"]
    in_use = {n: records[f"{n}@localdomain"]["weighted_resources_used"] for n in ("u1", "u2", "u4")}
    assert in_use == {"u1": 8.0, "u2": 4.0, "u4": 4.0}  # each its CPUs (slot weight = Cpus)


def test_submit_of_a_running_slurm_job_holds_a_node_of_its_partition(
    tmp_path: Path, run: Run, write_config: Callable[[str], Path]
) -> None:
    """``--partition b``: the slot of ``nb001``, the one node of ``b`` (before: the first
    free slot of the pool, ``na001``'s, a node of ``a`` alone). A second 2-CPU job runs
    beside it (2 + 2 of nb001's 4 CPUs); a third finds no node of
    ``b`` with 2 CPUs free (4 of 4 in use) and is warned of in one line, though ``na001``
    is free. A job naming no partition runs in the default one, ``a``. (The job beside
    names no slot: a queue holds one running job a slot.)"""
    state = tmp_path / "s.json"
    args = ["--config", str(write_config(TWO_PARTITIONS)), "--state", str(state), "--now", NOW]
    job = ["--owner", "u1", "--account", "acc", "--cpus", "2", "--set", "status=running"]
    res = run("submit", *job, "--partition", "b", *args)
    assert (res.exit_code, res.stderr) == (0, "")
    assert list(_state(state)["negotiator"]["claims"]) == ["slot1@nb001"]
    res = run("submit", *job, "--partition", "b", *args)
    assert (res.exit_code, res.stderr) == (0, "")
    res = run("submit", *job, "--partition", "b", *args)
    assert res.exit_code == 0
    assert res.stderr == (
        'fs: warning: fs submit: job 3: running, but no node of partition "b" has CPUs free '
        "for it; it holds no slot\n"
    )
    res = run("submit", *job, *args)
    assert (res.exit_code, res.stderr) == (0, "")
    body = _state(state)
    claims = {slot: c["job_id"] for slot, c in body["negotiator"]["claims"].items()}
    assert claims == {"slot1@na001": "4", "slot1@nb001": "1"}
    assert [j.get("slot") for j in body["jobs"]] == [None, None, None, None]


def test_a_running_slurm_job_naming_a_slot_off_its_partition_is_moved(
    tmp_path: Path, run: Run, write_config: Callable[[str], Path]
) -> None:
    """A slot of ``na001`` named for a job of ``b``: it holds ``nb001``'s, and says so."""
    state = tmp_path / "s.json"
    args = ["--config", str(write_config(TWO_PARTITIONS)), "--state", str(state), "--now", NOW]
    res = run(
        "submit", "--owner", "u1", "--account", "acc", "--partition", "b",
        "--set", "status=running", "--set", "slot=slot1@na001", *args,
    )  # fmt: skip
    assert res.exit_code == 0
    assert res.stderr == (
        "fs: warning: fs submit: job 1: slot slot1@na001 is not a configured slot of "
        'partition "b"; it holds slot1@nb001\n'
    )
    assert list(_state(state)["negotiator"]["claims"]) == ["slot1@nb001"]


def test_history_records_of_a_partition_hold_its_nodes(
    tmp_path: Path, run: Run, write_config: Callable[[str], Path]
) -> None:
    """Still-running usage records naming partition ``b``: the first holds nb001's slot,
    the second (2 + 2 of 4 CPUs) runs beside it, the third (3 CPUs) finds no node of ``b``
    with them free (its HTCondor use stops, as an unplaced record's does); ``na001`` is
    never used for them."""
    state = tmp_path / "s.json"
    hist = tmp_path / "h.jsonl"
    start = 1795255200  # 2026-11-21T10:00:00Z
    rec = {"owner": "u1", "account": "acc", "partition": "b", "start": start}
    hist.write_text("".join(json.dumps({**rec, "cpus": c}) + "\n" for c in (2, 2, 3)))
    args = ["--config", str(write_config(TWO_PARTITIONS)), "--state", str(state), "--now", NOW]
    res = run("import", "history", str(hist), *args)
    assert res.exit_code == 0
    assert res.stderr == (
        f"fs: warning: {hist}: record 3 (u1@localdomain, running since 2026-11-21T10:00:00Z): running, "
        'but no node of partition "b" has CPUs free for it; it holds no slot; its use stops '
        "now\n"
    )
    assert list(_state(state)["negotiator"]["claims"]) == ["slot1@nb001"]


def test_several_running_slurm_jobs_share_one_node_across_submissions(
    tmp_path: Path, run: Run, write_config: Callable[[str], Path]
) -> None:
    """nb001 has 4 CPUs in one slot: four 1-CPU jobs of ``b``, submitted as a cluster of
    two and then one by one, all run there (1 holds the slot, 3 beside it: 4 of 4 CPUs);
    a fifth does not fit. Each submission counts the earlier ones' CPUs."""
    state = tmp_path / "s.json"
    args = ["--config", str(write_config(TWO_PARTITIONS)), "--state", str(state), "--now", NOW]
    job = ["--owner", "u1", "--account", "acc", "--partition", "b", "--set", "status=running"]
    for count in ("2", "1", "1"):
        res = run("submit", *job, "--count", count, *args)
        assert (res.exit_code, res.stderr) == (0, "")
    res = run("submit", *job, *args)
    assert res.exit_code == 0
    assert res.stderr == (
        'fs: warning: fs submit: job 4: running, but no node of partition "b" has CPUs free '
        "for it; it holds no slot\n"
    )
    assert list(_state(state)["negotiator"]["claims"]) == ["slot1@nb001"]
