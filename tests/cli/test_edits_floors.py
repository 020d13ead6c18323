"""fs setfloor / fs setceiling (condor_userprio -setfloor / -setceiling) end to end.

condor_userprio (``user_prio.cpp``, 25.0) wants the full submitter name (with ``@``),
reads the value with ``strtol`` and refuses a floor below 0 or a ceiling below -1 ("floor
must be greater than or equal to 0."), then prints "The floor of NAME was set to N". The
negotiator stores it with ``Accountant::SetFloor``/``SetCeiling`` (an int attribute of the
record, creating the record); ``condor_userprio -most`` prints a floor above 0 and a
ceiling above -1 with two decimals, and blanks otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"

POOL = """
[pool]
uid_domain = "example.org"
defaults = "legacy"

[[machines]]
name = "exec"
count = 4
slots = 1
attributes = { Cpus = 1, Memory = 4096 }

[groups."group_physics"]
quota = 2
"""


@pytest.fixture
def args(tmp_path: Path, write_config: Callable[..., Path]) -> list[str]:
    cfg = write_config(POOL)
    return ["--config", str(cfg), "--state", str(tmp_path / "state.json"), "--now", NOW]


def _records(args: list[str]) -> dict[str, Any]:
    state = Path(args[args.index("--state") + 1])
    records: dict[str, Any] = json.loads(state.read_text())["accountant"]["records"]
    return records


def test_setfloor_and_setceiling_store_the_record_and_print_condor_userprio_lines(
    args: list[str], run: Any
) -> None:
    floor = run("setfloor", "alice", "3", "--create", *args)
    assert floor.exit_code == 0, floor.stderr
    assert floor.stdout == "The floor of alice@example.org was set to 3 (new record)\n"
    ceiling = run("userprio", "-setceiling", "alice@example.org", "5", *args)
    assert ceiling.exit_code == 0, ceiling.stderr
    assert ceiling.stdout == "The ceiling of alice@example.org was set to 5\n"
    rec = _records(args)["alice@example.org"]
    assert (rec["floor"], rec["ceiling"]) == (3, 5)
    table = run("userprio", "--most", "--allusers", *args)
    assert table.exit_code == 0, table.stderr
    row = next(line for line in table.stdout.splitlines() if line.startswith("alice"))
    assert row.endswith("      3.00      5.00")
    # (an edit makes no collector ad, which needs ResourcesUsed: the negotiator's ad has it)
    long = run("userprio", "--long", "--modular", "--allusers", *args).stdout
    assert "Ceiling = 5\nFloor = 3\n" in long
    unset = run("setfloor", "alice@example.org", "0", *args)
    assert unset.exit_code == 0
    run("setceiling", "alice@example.org", "-1", *args)
    rec = _records(args)["alice@example.org"]
    assert "floor" not in rec and "ceiling" not in rec  # defaults are not written


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["setfloor", "alice", "-1"], "floor must be greater than or equal to 0."),
        (["setceiling", "alice", "-2"], "ceiling must be greater than or equal to -1."),
        (["setfloor", "alice", "2.5"], "floor: expected a whole number, got '2.5'"),
        (["setceiling", "alice", "many"], "ceiling: expected a whole number, got 'many'"),
        (["setfloor", "alice", "2147483648"], "floor: expected at most 2147483647"),
        (["setfloor", "group_physics", "2"], "cannot set the floor of group 'group_physics'"),
        (["setceiling", "<none>", "2"], "cannot set the ceiling of group '<none>'"),
    ],
)
def test_bad_values_and_group_names_are_refused(
    args: list[str], run: Any, argv: list[str], message: str
) -> None:
    result = run(*argv, "--create", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not Path(args[args.index("--state") + 1]).exists()


def test_a_hand_edited_floor_out_of_range_is_refused(args: list[str], run: Any) -> None:
    state = Path(args[args.index("--state") + 1])
    for field, value in (("floor", -1), ("ceiling", -2), ("floor", 1.5), ("ceiling", True)):
        state.write_text(
            json.dumps(
                {
                    "format": "fairshare-cli state",
                    "schema_version": 1,
                    "accountant": {"records": {"a@example.org": {field: value}}},
                }
            )
        )
        result = run("userprio", *args)
        assert result.exit_code == 2, (field, value)
        assert f"accountant.records.a@example.org.{field}" in result.stderr


def test_negotiate_serves_the_floor_first_and_stops_at_the_ceiling(
    args: list[str], run: Any, tmp_path: Path
) -> None:
    """4 slots; alice at RUP 0.5, bob set to RUP 1.5, 4 jobs each. Without floors the pie
    gives alice 3 and bob 1 (normal 1.5/0.5 + 1.5/1.5 = 4: limits 3 and 1). With bob's
    floor 3 the floor round (bob alone, limit min(3, 4)) gives bob 3 first and alice the
    last slot. Then alice's ceiling 0 stops her: bob's spins take all 4, and alice's
    jobs wait with reason "ceiling"."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        json.dumps(
            [{"id": "1.0", "owner": "alice", "count": 4}, {"id": "2.0", "owner": "bob", "count": 4}]
        )
    )
    cycle = ["negotiate", "--dry-run", "--json", "--jobs-file", str(jobs), *args]
    assert run("setprio", "bob", "1.5", "--create", *args).exit_code == 0
    assert run("setprio", "alice", "0.5", "--create", *args).exit_code == 0

    def matched() -> list[str]:
        result = run(*cycle)
        assert result.exit_code == 0, result.stderr
        return [m["submitter"].split("@")[0] for m in json.loads(result.stdout)["matches"]]

    assert matched() == ["alice", "alice", "alice", "bob"]
    assert run("setfloor", "bob", "3", *args).exit_code == 0
    assert matched() == ["bob", "bob", "bob", "alice"]
    assert run("setceiling", "alice", "0", *args).exit_code == 0
    assert matched() == ["bob"] * 4
    doc = json.loads(run(*cycle).stdout)
    reasons = {u["reason"] for u in doc["unmatched"] if u["submitter"] == "alice@example.org"}
    assert reasons == {"ceiling"}


FIXTURE = Path(__file__).parents[1] / "fixtures" / "htcondor-25.0" / "flat_users"


def test_condor_userprio_import_brings_floor_and_ceiling(tmp_path: Path, run: Any) -> None:
    """The real ``condor_userprio -l -allusers`` dump (25.0) prints ``Ceiling<N> = -1`` and
    ``Floor<N> = 0`` for every record (``GetCeiling``/``GetFloor``'s defaults); with record
    3's changed to a floor of 2 and a ceiling of 4 the import stores them and ``-most``
    shows them; a negative floor (which ``GetFloor`` never reports) is refused."""
    text = (FIXTURE / "condor_userprio.long_allusers.txt").read_text()
    text = text.replace("Ceiling3 = -1", "Ceiling3 = 4").replace("Floor3 = 0", "Floor3 = 2")
    cfg = tmp_path / "pool.toml"
    cfg.write_text("[pool]\nuid_domain = 'htc.test'\n[groups.group_ops]\nquota = 4\n")
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", "1795458333"]
    result = run("import", "condor-userprio", "-", *args, input=text)
    assert result.exit_code == 0, result.stderr
    records = _records(args)
    assert (records["nice-user.eve@htc.test"]["floor"]) == 2
    assert (records["nice-user.eve@htc.test"]["ceiling"]) == 4
    assert sum("floor" in r or "ceiling" in r for r in records.values()) == 1
    table = run("userprio", "-most", "-allusers", *args)
    row = next(x for x in table.stdout.splitlines() if x.startswith("  nice-user.eve"))
    assert row.endswith("      2.00      4.00")
    bad = run(
        "import", "condor-userprio", "-", *args, input=text.replace("Floor3 = 2", "Floor3 = -3")
    )
    assert bad.exit_code == 2
    assert "Floor3 = -3" in bad.stderr


def test_explain_names_the_floor_round(args: list[str], run: Any, tmp_path: Path) -> None:
    """bob (floor 3) negotiates in the floor round first: his story says so (spin 1, share
    1, limit min(3, 4) = 3), then in the full round's spin 2 (normal 1.5/0.5 + 1 = 4)."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        json.dumps(
            [{"id": "1.0", "owner": "alice", "count": 4}, {"id": "2.0", "owner": "bob", "count": 4}]
        )
    )
    assert run("setprio", "bob", "1.5", "--create", *args).exit_code == 0
    assert run("setfloor", "bob", "3", *args).exit_code == 0
    cycle = ["negotiate", "--dry-run", "--jobs-file", str(jobs), "--explain", "2.3", *args]
    story = run(*cycle)
    assert story.exit_code == 0, story.stderr
    assert "  spin 1 (floor round): share 1.0000, limit 3.00 (unclaimed 4.00), pie left 4.00" in (
        story.stdout
    )
    events = json.loads(run(*cycle, "--json").stdout)["events"]
    turns = [e for e in events if e["event"] == "turn"]
    assert turns[0]["floor_round"] is True
    assert all("floor_round" not in e for e in turns[1:])


def test_a_rebuilt_history_keeps_floors_and_ceilings(
    args: list[str], run: Any, tmp_path: Path
) -> None:
    """``fs import history --rebuild`` forgets usage, not what an admin set: as the explicit
    factor, the floor and the ceiling stay (HTCondor keeps them in the record until it is
    deleted)."""
    history = tmp_path / "h.csv"
    history.write_text("owner,start,end,slots\nalice,2026-11-20T10:00:00Z,2026-11-20T11:00:00Z,2\n")
    assert run("import", "history", str(history), *args).exit_code == 0
    assert run("setfloor", "alice", "3", *args).exit_code == 0
    assert run("setceiling", "alice", "7", *args).exit_code == 0
    result = run("import", "history", str(history), "--rebuild", *args)
    assert result.exit_code == 0, result.stderr
    rec = _records(args)["alice@example.org"]
    assert (rec["floor"], rec["ceiling"]) == (3, 7)
    assert rec["weighted_accumulated_usage"] == 7200.0
