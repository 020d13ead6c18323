"""``fs negotiate`` on a slot whose machine ``RANK`` prefers a job of the submitter that
holds it: HTCondor's ``matchmakingAlgorithm`` tests ``RANK > CurrentRank`` before it asks
whether the slot's remote user is the submitter itself (only priority preemption spares
one's own claim), so the job preempts its owner's running one. ``Accountant::AddMatch``
then finds the slot's resource record already the submitter's ("Match already
existed!") and returns: nothing is charged or released, and the record, with its start,
goes on. fs never offered a submitter its own claimed slot."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

POOL = """
[pool]
uid_domain = "example.org"
defaults = "current"

[[machines]]
name = "exec"
count = 1
slots = 1
attributes = { Cpus = 1, Memory = 4096 }
rank = "TARGET.JobPrio"
"""


def test_a_job_the_machine_ranks_higher_preempts_its_owners_own_claim(
    tmp_path: Path, run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    """alice's job 9 (JobPrio 0) runs on the one slot from 11:00; her job 1 (JobPrio 5),
    queued at 11:30, ranks 5 > CurrentRank 0: the 12:00 cycle matches it there,
    preempting 9, though alice holds the whole pool (only machine-rank preemption is
    considered for her). After the commit 1 runs, 9 is idle, alice still holds 1 slot and
    the slot's record started at 11:00 (``-getreslist``)."""
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "state.json")]
    at = {t: ["--now", f"2026-11-21T{t}:00Z"] for t in ("11:00", "11:30", "12:00")}
    for line in (
        ["submit", *args, "--owner", "alice", "--id", "9", "--job-prio", "0", *at["11:00"]],
        ["negotiate", *args, *at["11:00"]],
        ["submit", *args, "--owner", "alice", "--id", "1", "--job-prio", "5", *at["11:30"]],
    ):
        assert run(*line).exit_code == 0
    result = run("negotiate", *args, *at["12:00"], "--json")
    assert result.exit_code == 0, result.stderr
    matches = json.loads(result.stdout)["matches"]
    assert [(m["job_id"], m["reason"], m["preempted_job"]) for m in matches] == [("1", "rank", "9")]
    state = json.loads((tmp_path / "state.json").read_text(encoding="utf-8"))
    jobs = {j["id"]: (j.get("status", "idle"), j.get("slot")) for j in state["jobs"]}
    assert jobs == {"9": ("idle", None), "1": ("running", "slot1@exec001")}
    prio = run("userprio", *args, *at["12:00"], "--allusers", "--json")
    rows = {r["name"]: r for r in json.loads(prio.stdout)}
    assert rows["alice@example.org"]["weighted_resources_in_use"] == 1
    held = run("userprio", *args, *at["12:00"], "-getreslist", "alice")
    assert "slot1@exec001                   11/21 11:00   0+01:00:00" in held.stdout
