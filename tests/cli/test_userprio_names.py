"""fs userprio NAME...: which ads condor_userprio 25.0 reads for names, and what it prints.

From ``src/condor_tools/user_prio.cpp`` (25.0): plain ``condor_userprio NAME`` queries the
collector with the names as a constraint (``Name =?= "user@domain"``, or
``StringListMember(splitusername(Name)[0], "bare")``) and leaves ``MinLastUsageTime`` at
24 hours before the clock, so ``PrintInfo`` still drops an ad whose ``LastUsageTime`` is
older; when no ad answers, ``ProcessInfo`` returns at ``NumElem <= 0`` and prints nothing.
``-allusers`` and ``-negotiator`` read the negotiator's one ad (``GET_PRIORITY``;
``USERPRIO_USE_NEGOTIATOR_MODULAR_QUERY`` is false by default), which nothing filters by
name: every record prints.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONFIG = """
[pool]
uid_domain = "example.org"
local_domains = ["example.org"]
"""

# alice ran 10 slots for the day up to 11/21 12:00; bob holds 2 slots since 11/21 06:00
HISTORY = (
    '{"owner": "alice", "start": "2026-11-20T12:00:00Z", "end": "2026-11-21T12:00:00Z", '
    '"slots": 10}\n'
    '{"owner": "bob", "start": "2026-11-21T06:00:00Z", "end": null, "slots": 2}\n'
)
LATER = "2026-12-30T00:00:00Z"


@pytest.fixture
def pool(tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]) -> list[str]:
    cfg = write_config(CONFIG)
    hist = tmp_path / "h.jsonl"
    hist.write_text(HISTORY)
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    result = run("import", "history", str(hist), *args, "--now", "2026-11-21T12:00:00Z")
    assert result.exit_code == 0, result.stderr
    return args


def test_a_named_record_unused_for_a_day_is_left_out(
    pool: list[str], run: Callable[..., Any]
) -> None:
    """'fs userprio alice' on 12/30: the collector answers with alice's ad (NumElem 1), but
    her LastUsageTime (11/21 12:00) is before MinLastUsageTime (12/29 00:00), so no row
    prints. Derived by hand from PrintInfo: the name column is 18 wide ("Number of users:
    1", the ads read; no active name is longer than 10), the footer counts 0 users, in-use
    0 and usage 0.00, and Time Since is tmLast - MinLastUsageTime = 24 h, "1+00:00". No
    group ad is read (no accounting groups), so the quota columns go. fs listed alice,
    lifting the filter for names, with a blank Time Since."""
    result = run("userprio", "alice", *pool, "--now", LATER)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Last Priority Update: 12/30 00:00",
        "                    Effective   Priority  Wghted Total Usage  Time Since Submitter Submitter",
        "User Name            Priority    Factor   In Use (wghted-hrs) Last Usage   Floor    Ceiling ",
        "------------------ ------------ --------- ------ ------------ ---------- --------- ---------",
        "------------------ ------------ --------- ------ ------------ ---------- --------- ---------",
        "Number of users: 0                             0         0.00    1+00:00                    ",
    ]  # fmt: skip
    assert result.stderr == (
        "fs: note: not listed: alice@example.org: named, but with no usage since the "
        "activity cutoff or no job in the queue (condor_userprio leaves them out too); "
        "--allusers lists every record\n"
    )


def test_a_named_record_in_use_shows_with_the_footers_cutoff(
    pool: list[str], run: Callable[..., Any]
) -> None:
    """'fs userprio alice@example.org bob': two ads read, bob's alone active. His usage is
    2 slots from 11/21 06:00 to 12/30 00:00: 930 h x 2 = 1860.00 weighted hours; his
    priority has decayed to his 2 slots. The footer's Time Since is the cutoff's 1+00:00
    (fs left it blank when names were given)."""
    result = run("userprio", "alice@example.org", "bob", *pool, "--now", LATER)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[4:] == [
        "bob@example.org            2.00      1.00      2      1860.00      <now>                    ",
        "------------------ ------------ --------- ------ ------------ ---------- --------- ---------",
        "Number of users: 1                             2      1860.00    1+00:00                    ",
    ]  # fmt: skip


@pytest.mark.parametrize("name", ["nobody", "nobody@example.org", "alice@elsewhere.net"])
def test_a_name_no_ad_answers_prints_nothing(
    name: str, pool: list[str], run: Callable[..., Any]
) -> None:
    """'fs userprio nobody': the collector answers with no ad, and condor_userprio prints
    nothing at all (ProcessInfo returns at NumElem <= 0), exit 0. fs printed an empty
    table; the note on stderr says there is no such record."""
    result = run("userprio", name, *pool, "--now", LATER)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr.startswith("fs: note: no record ")


@pytest.mark.parametrize("option", ["--allusers", "-allusers", "--negotiator"])
def test_names_are_ignored_with_the_negotiators_ad(
    option: str, pool: list[str], run: Callable[..., Any]
) -> None:
    """'fs userprio -allusers bob': condor_userprio 25.0 reads the negotiator's whole ad and
    filters none of it by name, so alice prints too, as without the name. fs listed bob
    alone. A note on stderr says the names were ignored."""
    named = run("userprio", option, "bob", *pool, "--now", LATER)
    plain = run("userprio", option, *pool, "--now", LATER)
    assert named.exit_code == 0
    assert named.stdout == plain.stdout
    assert "alice@example.org" in named.stdout or option == "--negotiator"
    assert named.stderr.startswith("fs: note: names are ignored with --allusers and --negotiator")


def test_long_prints_a_named_ad_however_old(pool: list[str], run: Callable[..., Any]) -> None:
    """'fs userprio -l alice': condor_userprio -l prints every ad the collector answers
    with (fPrintAd, no activity filter), so alice's ad prints though the table leaves her
    out; a name no ad answers prints nothing."""
    result = run("userprio", "-l", "alice", *pool, "--now", LATER)
    assert result.exit_code == 0
    assert 'Name = "alice@example.org"\n' in result.stdout
    assert result.stdout.count("Name = ") == 1
    assert run("userprio", "-l", "nobody", *pool, "--now", LATER).stdout == ""


@pytest.mark.parametrize(("output", "printed"), [("json", "[]\n"), ("ndjson", "")])
def test_a_named_record_left_out_is_noted_with_json_too(
    pool: list[str], run: Callable[..., Any], output: str, printed: str
) -> None:
    """'fs userprio alice --json' on 12/30 printed a bare [] with no word, where the table
    notes that alice is named but unused since the cutoff; the note is now on stderr for
    every --output, and stdout stays the document."""
    result = run("userprio", "alice", *pool, "--now", LATER, "--output", output)
    assert (result.exit_code, result.stdout) == (0, printed)
    assert result.stderr == (
        "fs: note: not listed: alice@example.org: named, but with no usage since the "
        "activity cutoff or no job in the queue (condor_userprio leaves them out too); "
        "--allusers lists every record\n"
    )


def test_whatif_says_the_names_notes_once(pool: list[str], run: Callable[..., Any]) -> None:
    """'fs whatif --set accountant.priority_halflife=3600 userprio carol' printed "no record
    carol@example.org" twice, once per side; now once."""
    line = ["whatif", "--set", "accountant.priority_halflife=3600", "userprio", "carol"]
    result = run(*line, *pool, "--now", "2026-11-21T12:00:00Z")
    assert result.exit_code == 0
    assert result.stderr.count("fs: note: no record carol@example.org\n") == 1
