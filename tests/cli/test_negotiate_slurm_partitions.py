"""``fs negotiate`` starts a Slurm job only on a machine of its partitions (slurmctld gives
a job nodes of its partition alone: ``_build_node_list`` ANDs its node sets with the
partition's node bitmap, ``src/slurmctld/node_scheduler.c``). Before, a job of ``b`` took the first free slot of
the pool, ``na001``'s, a node of ``a`` alone. Hand-made pool: one 4-CPU node in each.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_running_slurm_nodes import NOW, TWO_PARTITIONS

Run = Callable[..., Any]


def test_a_slurm_job_is_matched_on_its_partitions_node_only(
    tmp_path: Path, run: Run, write_config: Callable[[str], Path]
) -> None:
    """Jobs 1 and 2 of ``b``, job 3 of ``a,b``, 3 CPUs each: 1 gets nb001, 2 no slot
    (nb001's one slot is taken and its 4 - 3 CPUs left cannot hold it beside job 1;
    na001 is not b's), 3 na001, stored ``a,b``."""
    state = tmp_path / "s.json"
    args = ["--config", str(write_config(TWO_PARTITIONS)), "--state", str(state), "--now", NOW]
    job = ["--owner", "u1", "--account", "acc", "--cpus", "3"]
    for part in ("b", "b", "a,b"):
        assert run("submit", *job, "--partition", part, *args).exit_code == 0
    res = run("negotiate", "--json", *args)
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert [(m["job_id"], m["slot"]) for m in out["matches"]] == [
        ("1", "slot1@nb001"),
        ("3", "slot1@na001"),
    ]
    assert [u["job_id"] for u in out["unmatched"]] == ["2"]
    jobs = json.loads(state.read_text())["jobs"]
    assert [(j["id"], j["partition"], j.get("slot")) for j in jobs] == [
        ("1", "b", "slot1@nb001"),
        ("2", "b", None),
        ("3", "a,b", "slot1@na001"),
    ]


def test_a_job_of_two_partitions_started_on_the_second_ones_node_runs_there(
    tmp_path: Path, run: Run, write_config: Callable[[str], Path]
) -> None:
    """na001 held by a running job of ``a``: a job of ``a,b`` gets nb001 and is stored
    ``b,a`` (the partition it runs in first: its limit end and billing are ``b``'s)."""
    state = tmp_path / "s.json"
    args = ["--config", str(write_config(TWO_PARTITIONS)), "--state", str(state), "--now", NOW]
    job = ["--owner", "u1", "--account", "acc", "--cpus", "2"]
    assert run("submit", *job, "--partition", "a", "--set", "status=running", *args).exit_code == 0
    assert run("submit", *job, "--partition", "a,b", *args).exit_code == 0
    res = run("negotiate", *args)
    assert res.exit_code == 0
    jobs = json.loads(state.read_text())["jobs"]
    assert [(j["id"], j["partition"], j.get("slot")) for j in jobs] == [
        ("1", "a", None),
        ("2", "b,a", "slot1@nb001"),
    ]
