"""``fs whatif`` after a cycle preempted work still running in the imported usage history.

``fs import history`` holds a slot per running slot of a history record (claims of
``history:`` job ids); a cycle that preempts one ``RemoveMatch``es it. The usage history
store keeps that end too (a record of -1 slot for the claim's submitter from the cycle's
time), so the replay of a changed half-life stops charging the preempted slots where the
accountant did; so too a history claim ``fs import condor-status`` releases, and the
running slots an import finds no free slot for.
"""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
NOON = "2026-11-21T12:00:00Z"
LATER = "2026-11-21T12:05:00Z"
ON = ["--config", "sample_configs/pool.toml", "--state", "nh.json"]


@pytest.fixture
def pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Callable[..., Any]) -> Path:
    """The reported steps, in a scratch copy of the sample configs: the import, the submit
    and the cycle at noon (which preempts running history work); the state before that
    cycle is kept as ``submitted.json``."""
    shutil.copytree(SAMPLE, tmp_path / "sample_configs")
    monkeypatch.chdir(tmp_path)
    for args in (
        ["import", "history", "sample_configs/history.csv", *ON, "--now", NOON],
        ["submit", "--file", "sample_configs/jobs.json", *ON, "--now", NOON],
    ):
        result = run(*args)
        assert result.exit_code == 0, result.stderr
    shutil.copy(tmp_path / "nh.json", tmp_path / "submitted.json")
    result = run("negotiate", *ON, "--now", NOON)
    assert result.exit_code == 0, result.stderr
    return tmp_path


def _history_claims(state: Path) -> set[str]:
    claims = json.loads(state.read_text(encoding="utf-8"))["negotiator"]["claims"]
    return {c["job_id"] for c in claims.values() if c["job_id"].startswith("history:")}


def test_whatif_keeps_in_use_when_history_work_was_preempted(
    pool: Path, run: Callable[..., Any]
) -> None:
    """The cycle preempted heidi's, mallory's, frank's and erin's running history slots.
    A half-life changes no slot in use: the table shows no "in use" column (it shows only
    changed columns; before the fix: ``group_physics 0 -> 2``, ``group_chemistry.lab 1 ->
    6``, ``<none> 190 -> 191``), and every row's resources in use is the same on both
    sides."""
    ended = _history_claims(pool / "submitted.json") - _history_claims(pool / "nh.json")
    assert {e.split(":")[1] for e in ended} == {
        "group_chemistry.lab.heidi@example.org",
        "mallory@guest.net",
        "group_physics.frank@example.org",
        "group_physics.astro.erin@example.org",
    }
    whatif = ["whatif", "--set", "accountant.priority_halflife=3600", "userprio"]
    result = run(*whatif, *ON, "--now", LATER)
    assert result.exit_code == 0, result.stderr
    assert "in use" not in result.stdout
    assert "group_physics " in result.stdout
    result = run(*whatif, "--allusers", "--json", *ON, "--now", LATER)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    before = {r["name"]: r["resources_in_use"] for r in doc["before"]}
    after = {r["name"]: r["resources_in_use"] for r in doc["after"]}
    assert after == before
    assert before["group_physics.frank@example.org"] == 0
    assert before["group_chemistry.lab.heidi@example.org"] == 0


def test_whatif_after_side_is_the_same_starts_and_ends_under_the_changed_half_life(
    pool: Path, run: Callable[..., Any]
) -> None:
    """The after side equals a fresh import, under a config that says 3600, of what ran:
    history.csv with each preempted slot of a running record ended at noon (a record
    split when only some of its slots were), and the cycle's jobs running from noon.

    (Running the same steps with ``fs negotiate`` under 3600 is no reference here: the
    cycle itself then matches otherwise, nine slots going to other jobs, alice getting
    one more; a replay values the same starts and ends.)
    """
    ended: dict[int, int] = {}  # record number (data row, from 1) -> slots preempted
    for job_id in _history_claims(pool / "submitted.json") - _history_claims(pool / "nh.json"):
        number = int(job_id.rsplit(":", 1)[1].split(".")[0])
        ended[number] = ended.get(number, 0) + 1
    lines = []
    with open(pool / "sample_configs/history.csv", encoding="utf-8", newline="") as f:
        for number, row in enumerate(csv.DictReader(f), 1):
            record: dict[str, Any] = {
                "owner": row["owner"],
                "accounting_group": row["accounting_group"] or None,
                "nice_user": row["nice_user"] == "true",
                "start": row["start"],
                "end": row["end"] or None,
                "slots": int(row["slots"]),
                "cpus": int(row["cpus"]),
            }
            stopped = ended.get(number, 0)
            if stopped:
                lines.append({**record, "end": NOON, "slots": stopped})
                record["slots"] -= stopped
            if record["slots"]:
                lines.append(record)
    state = json.loads((pool / "nh.json").read_text(encoding="utf-8"))
    started = [j for j in state["jobs"] if j.get("status") == "running"]
    assert len(started) == 409
    lines += [
        {
            "owner": j["owner"],
            "accounting_group": j.get("accounting_group"),
            "nice_user": j.get("nice_user", False),
            "start": NOON,
            "end": None,
        }
        for j in started
    ]
    same = pool / "same.jsonl"
    same.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    short = pool / "short.toml"
    text = (pool / "sample_configs/pool.toml").read_text(encoding="utf-8")
    assert "priority_halflife = 86400\n" in text
    short.write_text(text.replace("priority_halflife = 86400\n", "priority_halflife = 3600\n"))
    fresh = ["--config", str(short), "--state", "fresh.json", "--now", LATER]
    assert run("import", "history", str(same), *fresh).exit_code == 0
    direct = run("userprio", "--allusers", "--all", "--json", *fresh)
    whatif = ["whatif", "--set", "accountant.priority_halflife=3600", "userprio"]
    result = run(*whatif, "--allusers", "--all", "--json", *ON, "--now", LATER)
    assert result.exit_code == 0, result.stderr
    after = json.loads(result.stdout)["after"]
    assert after == json.loads(direct.stdout)
    frank = next(r for r in after if r["name"] == "group_physics.frank@example.org")
    assert frank["resources_in_use"] == 0


TINY = """\
[pool]
name = "tiny"
uid_domain = "example.org"

[accountant]
priority_halflife = 86400

[[machines]]
name = "m"
count = 1
slots = 1
attributes = { Cpus = 1 }
"""


def test_running_history_slots_that_find_no_slot_stop_in_the_replay_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Callable[..., Any]
) -> None:
    """A record of 3 slots running since 00:00, imported at 01:00 into a pool of one slot:
    two find no slot, and the accountant stops charging them then (the import says so).
    The replay stops them there too (before: in use ``1 -> 3``, priority 2.375).

    By hand (``Accountant::UpdatePriorities``: over a span dt with u slots in use,
    p <- p*d + (1-d)*u, d = 0.5**(dt/half_life); a new submitter starts at 0.5), half-life
    3600 at 02:00: 3 slots for an hour, p = 0.5*0.5 + 3*0.5 = 1.75; then one slot for an
    hour, p = 1.75*0.5 + 1*0.5 = 1.375."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.toml").write_text(TINY, encoding="utf-8")
    (tmp_path / "h.jsonl").write_text(
        '{"owner": "alice", "start": "2026-11-20T00:00:00Z", "end": null, "slots": 3}\n',
        encoding="utf-8",
    )
    args = ["--config", "tiny.toml", "--state", "s.json"]
    result = run("import", "history", "h.jsonl", *args, "--now", "2026-11-20T01:00:00Z")
    assert result.exit_code == 0
    assert result.stderr == (
        "fs: warning: h.jsonl: record 1 (alice@example.org, running since "
        "2026-11-20T00:00:00Z): running, but no free slot fits 2 of its slots; they hold "
        "no slot; their use stops now\n"
    )
    whatif = ["whatif", "--set", "accountant.priority_halflife=3600", "userprio"]
    result = run(*whatif, "--json", *args, "--now", "2026-11-20T02:00:00Z")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    after = {r["name"]: r for r in doc["after"]}
    before = {r["name"]: r for r in doc["before"]}
    assert after["alice@example.org"]["real_priority"] == 1.375
    assert after["alice@example.org"]["resources_in_use"] == 1
    assert before["alice@example.org"]["resources_in_use"] == 1


UNCLAIMED = """\
Cpus = 1
Machine = "m001"
Memory = 4096
MyType = "Machine"
Name = "slot1@m001"
SlotType = "Static"
State = "Unclaimed"
"""


def test_a_history_claim_condor_status_releases_ends_in_the_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Callable[..., Any]
) -> None:
    """A running record of one slot since 00:00, imported at 01:00, holds slot1@m001;
    ``fs import condor-status`` at 01:30 finds that slot unclaimed and releases it.

    By hand at 02:00 under half-life 3600 (see above): one slot for 1.5 h, p = 0.5*2**-1.5
    + (1 - 2**-1.5); then none for 0.5 h, p*2**-0.5 = 2**-0.5 - 0.125 = 0.5821068, stored
    0.582107 (before the fix the slot ran on to 02:00: 0.875, in use ``0 -> 1``)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.toml").write_text(TINY, encoding="utf-8")
    (tmp_path / "h.jsonl").write_text(
        '{"owner": "alice", "start": "2026-11-20T00:00:00Z", "end": null}\n', encoding="utf-8"
    )
    (tmp_path / "status.txt").write_text(UNCLAIMED, encoding="utf-8")
    args = ["--config", "tiny.toml", "--state", "s.json"]
    result = run("import", "history", "h.jsonl", *args, "--now", "2026-11-20T01:00:00Z")
    assert result.exit_code == 0, result.stderr
    result = run("import", "condor-status", "status.txt", *args, "--now", "2026-11-20T01:30:00Z")
    assert result.exit_code == 0, result.stderr
    assert "1 released" in result.stderr + result.stdout
    whatif = ["whatif", "--set", "accountant.priority_halflife=3600", "userprio"]
    result = run(*whatif, "--json", *args, "--now", "2026-11-20T02:00:00Z")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    after = {r["name"]: r for r in doc["after"]}
    before = {r["name"]: r for r in doc["before"]}
    assert after["alice@example.org"]["real_priority"] == round(2**-0.5 - 0.125, 6) == 0.582107
    assert after["alice@example.org"]["resources_in_use"] == 0
    assert before["alice@example.org"]["resources_in_use"] == 0
