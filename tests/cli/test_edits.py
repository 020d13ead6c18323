"""The accountant edits (cli/edits.py): refusals that leave the state as it was."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool


def test_delete_refuses_a_record_that_does_not_exist(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs delete nobody@example.org`` once said "was deleted" of a record that never
    was (as condor_userprio -delete does); a typo would pass for a deletion."""
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()
    result = run("delete", "nobody@example.org", *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: cannot delete 'nobody@example.org': the accountant has no record by that "
        "name (condor_userprio -delete would report it deleted and change nothing)\n"
    )
    assert pool["state"].read_bytes() == before


def test_delete_removes_a_record_that_exists(tmp_path: Path, run: Callable[..., Any]) -> None:
    pool = write_pool(tmp_path)
    assert run("setprio", "alice", "3", "--create", *common(pool)).exit_code == 0
    result = run("delete", "alice@example.org", *common(pool))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "The accountant record named alice@example.org was deleted\n"
    assert run("delete", "alice@example.org", *common(pool)).exit_code == 2


def test_an_edit_decays_from_the_accountants_last_update(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """HTCondor's UpdatePriorities leaves every record at the accountant's LastUpdateTime;
    -setprio writes there (Accountant::SetPriority, no update). a@d was last updated at T,
    b@d at T + 100: the accountant's last update is T + 100. setprio a@d 50 at T + 200,
    half-life 100 s: the RUP a view at T + 200 shows is 50 x 0.5**(100 / 100) = 25, not
    50 x 0.5**(200 / 100) = 12.5; the record now stands at T + 100."""
    t = 1_790_000_000
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "d"\n[accountant]\npriority_halflife = 100\n')
    state = tmp_path / "state.json"
    a = {"priority": 10.0, "last_update": t, "priority_factor": 1.0}
    b = {"priority": 0.5, "last_update": t + 100, "priority_factor": 1.0}
    records = {"a@d": a, "b@d": b}
    body = {
        "format": "fairshare-cli state",
        "schema_version": 1,
        "accountant": {"records": records},
    }
    state.write_text(json.dumps(body))
    args = ["--config", str(config), "--state", str(state), "--now", str(t + 200)]
    assert run("setprio", "a@d", "50", *args).exit_code == 0
    assert json.loads(state.read_text())["accountant"]["records"]["a@d"]["last_update"] == t + 100
    rows = json.loads(run("userprio", "--allusers", "--json", *args).stdout)
    assert {r["name"]: r["real_priority"] for r in rows}["a@d"] == 25.0


@pytest.mark.parametrize(
    "args",
    [
        ["setfactor", "alice@example.org", "3", "--create"],
        ["setprio", "alice@example.org", "7", "--create"],
        ["resetusage", "--all"],
    ],
)
def test_an_edit_whose_write_fails_says_nothing_was_set(
    args: list[str], tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk when the state is written: one error line and exit 1, the state byte
    for byte, and no confirmation on stdout (it said the factor was set before the write
    failed)."""
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()

    def disk_full(*_args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("fairshare_cli.io.atomic.os.fsync", disk_full)
    result = run(*args, *common(pool))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"fs: error: cannot write state file {pool['state']}")
    assert pool["state"].read_bytes() == before
    assert not list(tmp_path.glob(".state.json.*"))


@pytest.mark.parametrize("edit", ["setbegin", "setlast"])
def test_a_time_that_is_not_one_names_the_when_argument(
    tmp_path: Path, run: Callable[..., Any], edit: str
) -> None:
    """``fs setbegin alice@example.org yesterday`` said 'time: expected epoch seconds or
    ISO-8601', naming no argument of the command (its help calls it WHEN) and no form."""
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()
    result = run(edit, "alice@example.org", "yesterday", *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: WHEN: expected epoch seconds or an ISO-8601 time like "
        "2026-11-21T12:00:00Z, got 'yesterday'\n"
    )
    assert pool["state"].read_bytes() == before


def test_edits_between_two_cycles_are_stored_as_condor_userprio_sends_them(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``condor_userprio -setprio/-setfactor/-setaccum`` send a double as CEDAR's
    ``Stream::put(double)`` does: ``(int)(frexp(d) * 2147483647)`` and the exponent, so the
    mantissa is cut; the accountant stores what arrives with ``%f``. By hand:

    - 5000.5 = 0.61041259765625 * 2**13; * 2147483647 = 1310851071.3896, cut to
      1310851071: 5000.5 * (1 - 0.3896 / 1310851071.39) = 5000.49999851, stored 5000.499999;
    - 10000 = 0.6103515625 * 2**14 arrives as 9999.99999665, stored 9999.999997 (``-l``
      prints that double with ``%.16G``: 9999.999997000001);
    - 360000 = 0.6866455078125 * 2**19 arrives as 359999.99992349, stored 359999.999923.

    The cycle at 12:10 charges the 600 s since the 12:00 cycle with the edited numbers and
    one slot in use: RUP = 5000.499999 * b + 1 * (1 - b), b = 0.5**(600/86400), stored with
    six decimals; the weighted usage 359999.999923 + 600. The confirmations print the number
    given, as condor_userprio prints its own copy."""
    cfg = write_config('[pool]\nuid_domain = "d"\n[[machines]]\nname = "m"\ncount = 2\n')
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    assert run("submit", *args, "--owner", "alice", "--now", "2026-11-21T12:00:00Z").exit_code == 0
    assert run("negotiate", *args, "--now", "2026-11-21T12:00:00Z").exit_code == 0
    edit = [*args, "--now", "2026-11-21T12:05:00Z"]
    assert run("setprio", "alice@d", "5000.5", *edit).stdout == (
        "The priority of alice@d was set to 5000.500000\n"
    )
    assert run("setfactor", "alice@d", "10000", *edit).stdout == (
        "The priority factor of alice@d was set to 10000.000000\n"
    )
    assert run("setaccum", "alice@d", "360000", *edit).stdout == (
        "The Accumulated Usage of alice@d was set to 360000.000000\n"
    )
    later = [*args, "--now", "2026-11-21T12:10:00Z"]
    assert run("negotiate", *later).exit_code == 0
    record = json.loads((tmp_path / "s.json").read_text())["accountant"]["records"]["alice@d"]
    b = 0.5 ** (600 / 86400)
    rup = round(5000.499999 * b + 1 * (1 - b), 6)
    assert (record["priority"], record["priority_factor"]) == (rup, 9999.999997)
    assert record["weighted_accumulated_usage"] == 360599.999923
    long = run("userprio", "-l", "--allusers", *later).stdout.splitlines()
    assert "PriorityFactor2 = 9999.999997000001" in long
    assert f"Priority2 = {rup * 9999.999997:.16G}" in long
    assert "WeightedAccumulatedUsage2 = 360599.999923" in long
    rows = json.loads(run("userprio", "--allusers", "--json", *later).stdout)
    alice = next(r for r in rows if r["name"] == "alice@d")
    assert (alice["real_priority"], alice["priority_factor"]) == (rup, 9999.999997)
    assert alice["weighted_accumulated_usage_hours"] == 360599.999923 / 3600


@pytest.mark.parametrize(
    ("edit", "what", "text"),
    [
        pytest.param("setprio", "priority: expected a number", "1_000", id="setprio-underscore"),
        pytest.param(
            "setfactor", "priority factor: expected a number", "1_000", id="setfactor-underscore"
        ),
        pytest.param(
            "setaccum", "accumulated usage: expected a number", "3_600", id="setaccum-underscore"
        ),
        pytest.param("setfloor", "floor: expected a whole number", "1_0", id="setfloor-underscore"),
        pytest.param("setprio", "priority: expected a number", "\u0663", id="setprio-arabic-3"),
        pytest.param(
            "setceiling", "ceiling: expected a whole number", "\u0663", id="setceiling-arabic-3"
        ),
    ],
)
def test_numbers_condor_userprio_cannot_read_are_refused(
    tmp_path: Path, run: Callable[..., Any], edit: str, what: str, text: str
) -> None:
    """``fs setfactor alice 1_000`` set the factor to 1000 and ``fs setprio alice ٣`` (an
    Arabic-Indic three) the priority to 3, as Python reads them; condor_userprio reads the
    value with ``atof`` (``strtol`` for the floor and ceiling, user_prio.cpp), which stops
    at the ``_`` (1) and reads no digit in ``٣`` (0). Refused now, the state unchanged."""
    pool = write_pool(tmp_path)
    assert run("setprio", "alice", "3", "--create", *common(pool)).exit_code == 0
    before = pool["state"].read_bytes()
    result = run(edit, "alice@example.org", text, *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {what}, got '{text}'\n"
    assert pool["state"].read_bytes() == before


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("1_795_262_400", id="underscores"),
        pytest.param("\u0661\u0667\u0669\u0665\u0662\u0666\u0662\u0664\u0660\u0660", id="arabic"),
        pytest.param("\u0662\u0660\u0662\u0666-11-21T12:00:00Z", id="arabic-year"),
    ],
)
def test_a_time_in_digits_other_than_ascii_is_refused(
    tmp_path: Path, run: Callable[..., Any], text: str
) -> None:
    """``--now 1_795_262_400`` and ``fs setbegin alice@example.org 1_795_262_400`` read as
    2026-11-21T12:00:00Z (Python's float() takes underscores), and so did the same digits in
    Arabic-Indic script, in epoch seconds or in an ISO year (the pattern's ``\\d`` takes
    them); no tool of the three reads such a time. Refused, the state unchanged."""
    pool = write_pool(tmp_path)
    assert run("setprio", "alice", "3", "--create", *common(pool)).exit_code == 0
    before = pool["state"].read_bytes()
    result = run("setbegin", "alice@example.org", text, *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: WHEN: expected epoch seconds or an ISO-8601 time like "
        f"2026-11-21T12:00:00Z, got '{text}'\n"
    )
    args = ["--config", str(pool["config"]), "--state", str(pool["state"])]
    view = run("userprio", *args, "--now", text)
    assert (view.exit_code, view.stdout) == (2, "")
    assert view.stderr == (
        "fs: error: --now: expected epoch seconds or an ISO-8601 time like "
        f'2026-11-21T12:00:00Z, got "{text}"\n'
    )
    assert pool["state"].read_bytes() == before


def test_a_user_inside_a_group_named_without_domain_is_pointed_to_its_record(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs setfactor group_a.alice 2 --dry-run`` said 'group_a.alice' is neither a
    configured group nor a submitter, though group_a.alice@example.org is a submitter;
    it names that record. ``fs delete alice@example.org`` names it too."""
    pool = write_pool(tmp_path)
    made = run("setprio", "group_a.alice@example.org", "3", "--create", *common(pool))
    assert made.exit_code == 0, made.stderr
    before = pool["state"].read_bytes()
    result = run("setfactor", "group_a.alice", "2", "--dry-run", *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: 'group_a.alice' is neither a configured group nor a submitter; give "
        "user@domain or a group from the config; did you mean group_a.alice@example.org\n"
    )
    result = run("setfactor", "group_a.zed", "2", "--dry-run", *common(pool))
    assert result.stderr == (
        "fs: error: 'group_a.zed' is neither a configured group nor a submitter; give "
        "user@domain or a group from the config\n"
    )
    result = run("delete", "alice@example.org", *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: cannot delete 'alice@example.org': the accountant has no record by that "
        "name (condor_userprio -delete would report it deleted and change nothing); did you "
        "mean group_a.alice@example.org\n"
    )
    assert pool["state"].read_bytes() == before
