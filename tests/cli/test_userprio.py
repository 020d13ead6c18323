"""fs userprio and the edit commands, end to end through the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"

CONFIG = """
[pool]
uid_domain = "example.org"
local_domains = ["example.org"]
"""

HISTORY = (
    '{"owner": "alice", "start": "2026-11-20T12:00:00Z", "end": "2026-11-21T12:00:00Z", '
    '"slots": 10}\n'
    '{"owner": "bob", "start": "2026-11-21T06:00:00Z", "end": null, "slots": 2}\n'
)


@pytest.fixture
def pool(tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]) -> list[str]:
    cfg = write_config(CONFIG)
    hist = tmp_path / "h.jsonl"
    hist.write_text(HISTORY)
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    result = run("import", "history", str(hist), *args, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert "Imported 2 usage records" in result.stdout
    return args


def test_userprio_table(pool: list[str], run: Callable[..., Any]) -> None:
    result = run("userprio", *pool, "--now", NOW)
    assert result.exit_code == 0
    # alice: 10 slots for one half-life from 0.5: 10 - 9.5/2 = 5.25
    # bob: 2 slots for 6 h: 2 - 1.5 * 0.5**0.25
    bob = 2 - 1.5 * 0.5**0.25
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert lines == [
        "Last Priority Update: 11/21 12:00",
        "                    Effective   Priority  Wghted Total Usage  Time Since Submitter Submitter",
        "User Name            Priority    Factor   In Use (wghted-hrs) Last Usage   Floor    Ceiling",
        "------------------ ------------ --------- ------ ------------ ---------- --------- ---------",
        f"bob@example.org            {bob:.2f}      1.00      2        12.00      <now>",
        "alice@example.org          5.25      1.00      0       240.00      <now>",
        "------------------ ------------ --------- ------ ------------ ---------- --------- ---------",
        "Number of users: 2                             2       252.00    1+00:00",
    ]


def test_userprio_json(pool: list[str], run: Callable[..., Any]) -> None:
    result = run("userprio", *pool, "--now", NOW, "--json")
    rows = json.loads(result.stdout)
    # Like condor_userprio -long, --json lists every record, <none> included (its factor is
    # the remote one: a group name has no domain, so it is not in local_domains; last).
    assert [r["name"] for r in rows] == ["bob@example.org", "alice@example.org", "<none>"]
    assert rows[2]["is_group"] is True
    alice = rows[1]
    assert alice["effective_priority"] == pytest.approx(5.25, rel=1e-12)
    assert alice["weighted_accumulated_usage_hours"] == pytest.approx(240.0)
    # The replay updates the pool at every start and end (UpdatePriorities updates every
    # record): the first update that finds alice's usage is bob's start at 06:00, so her
    # BeginUsageTime is 2026-11-21T06:00 (Accountant::UpdateOnePriority), not her end's.
    assert alice["begin_usage_time"] == "2026-11-21T06:00:00Z"
    assert alice["last_usage_time"] == "2026-11-21T12:00:00Z"
    assert list(alice) == [
        "name",
        "is_group",
        "effective_priority",
        "real_priority",
        "priority_factor",
        "resources_in_use",
        "weighted_resources_in_use",
        "accumulated_usage_hours",
        "weighted_accumulated_usage_hours",
        "begin_usage_time",
        "last_usage_time",
    ]


def test_setfactor_changes_rank(pool: list[str], run: Callable[..., Any]) -> None:
    result = run("setfactor", "bob", "10", *pool, "--now", NOW)
    assert result.exit_code == 0
    assert result.stdout == "The priority factor of bob@example.org was set to 10.000000\n"
    rows = json.loads(run("userprio", *pool, "--now", NOW, "--json").stdout)
    assert [r["name"] for r in rows] == ["alice@example.org", "bob@example.org", "<none>"]
    bob = 2 - 1.5 * 0.5**0.25
    assert rows[1]["effective_priority"] == pytest.approx(10 * bob)


def test_one_half_life_later(pool: list[str], run: Callable[..., Any]) -> None:
    rows = json.loads(run("userprio", *pool, "--now", "2026-11-22T12:00:00Z", "--json").stdout)
    by = {r["name"]: r for r in rows}
    assert by["alice@example.org"]["effective_priority"] == pytest.approx(5.25 / 2)
    # bob still holds 2 slots, so only he is active in the last 24 hours... and alice too
    # (her last usage was exactly 24 hours ago).
    assert set(by) == {"alice@example.org", "bob@example.org", "<none>"}
    later = json.loads(run("userprio", *pool, "--now", "2026-11-22T12:00:01Z", "--json").stdout)
    assert [r["name"] for r in later] == ["bob@example.org", "<none>"]


def test_dry_run_writes_nothing(pool: list[str], run: Callable[..., Any], tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    before = state.read_bytes()
    result = run("setprio", "alice", "50", *pool, "--now", NOW, "--dry-run")
    assert result.exit_code == 0
    assert "dry run" in result.stdout
    assert state.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        pytest.param(
            ["setfactor", "alice", "0.5"],
            "Priority factors must be greater than or equal to 1.",
            id="factor-below-1",
        ),
        pytest.param(["setfactor", "alice", "nan"], "finite", id="factor-nan"),
        pytest.param(["setfactor", "alice", "-1"], "greater than or equal to 1", id="neg"),
        pytest.param(
            ["setaccum", "alice", "-5"], "Usage must be greater than 0 seconds", id="accum"
        ),
        pytest.param(
            ["setbegin", "alice", "-5"], "Time must be greater than 0 seconds", id="begin"
        ),
        pytest.param(["setprio", "alice", "ten"], "expected a number", id="prio-text"),
    ],
)
def test_edit_refusals(
    pool: list[str], run: Callable[..., Any], tmp_path: Path, args: list[str], needle: str
) -> None:
    state = tmp_path / "s.json"
    before = state.read_bytes()
    result = run(*args, *pool, "--now", NOW)
    assert result.exit_code == 2
    assert needle in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert state.read_bytes() == before


def test_resetusage_and_delete(pool: list[str], run: Callable[..., Any]) -> None:
    assert run("resetusage", "alice", *pool, "--now", NOW).stdout == (
        "The accumulated usage of alice@example.org was reset\n"
    )
    rows = json.loads(run("userprio", *pool, "--now", NOW, "--json").stdout)
    alice = next(r for r in rows if r["name"] == "alice@example.org")
    assert alice["weighted_accumulated_usage_hours"] == 0
    assert alice["effective_priority"] == pytest.approx(5.25)
    assert run("delete", "alice@example.org", *pool, "--now", NOW).stdout == (
        "The accountant record named alice@example.org was deleted\n"
    )
    rows = json.loads(run("userprio", *pool, "--now", NOW, "--json", "--allusers").stdout)
    assert "alice@example.org" not in [r["name"] for r in rows]
    result = run("resetusage", "--all", *pool, "--now", NOW)
    assert result.stdout == "The accumulated usage was reset for all users\n"


def test_bad_state_files(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    cfg = write_config(CONFIG)
    state = tmp_path / "s.json"
    for content, needle in [
        ('{"format": "fairshare-cli state", "schema_', "not valid JSON"),
        ('{"format": "fairshare-cli state", "schema_version": 2}', "newer"),
        (
            '{"format": "fairshare-cli state", "schema_version": 1, "accountant": '
            '{"records": {"a@b": {"priority": "x"}}}}',
            "accountant.records.a@b.priority",
        ),
    ]:
        state.write_text(content)
        for args in (["userprio"], ["setfactor", "a@b", "2"]):
            result = run(*args, "--config", str(cfg), "--state", str(state), "--now", NOW)
            assert result.exit_code == 2, result.stdout
            assert needle in result.stderr and str(state) in result.stderr
            assert state.read_text() == content


def test_no_config_found(
    run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("userprio")
    assert result.exit_code == 2
    assert "fs init" in result.stderr and "sample_configs" in result.stderr


def test_bad_now(pool: list[str], run: Callable[..., Any]) -> None:
    result = run("userprio", *pool, "--now", "yesterday")
    assert result.exit_code == 2
    assert "--now" in result.stderr


def test_import_errors(pool: list[str], run: Callable[..., Any], tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    before = state.read_bytes()
    cases = [
        (
            '{"owner": "x", "start": "2026-11-21T10:00:00Z", "end": "2026-11-21T09:00:00Z"}\n',
            "end is before start",
        ),
        ('{"owner": "x", "start": 1}\n{"owner": \n', ":2: not valid JSON"),
        (
            '{"owner": "alice", "start": "2026-11-21T00:00:00Z", "end": "2026-11-21T01:00:00Z"}\n',
            "use --rebuild",
        ),
        ('{"owner": "x", "strat": 5}\n', "did you mean 'start'"),
    ]
    for text, needle in cases:
        f = tmp_path / "bad.jsonl"
        f.write_text(text)
        result = run("import", "history", str(f), *pool, "--now", NOW)
        assert result.exit_code == 2, (text, result.stdout)
        assert needle in result.stderr
        assert state.read_bytes() == before


def test_import_rebuild(pool: list[str], run: Callable[..., Any], tmp_path: Path) -> None:
    hist = tmp_path / "h.csv"
    hist.write_text("owner,start,end,slots\nalice,2026-11-20T12:00:00Z,2026-11-21T12:00:00Z,10\n")
    result = run("import", "history", str(hist), *pool, "--now", NOW, "--rebuild")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(run("userprio", *pool, "--now", NOW, "--json", "--allusers").stdout)
    by = {r["name"]: r for r in rows}
    assert by["alice@example.org"]["effective_priority"] == pytest.approx(5.25)
    assert by["bob@example.org"]["effective_priority"] == 0.5


def test_help_lists_commands(run: Callable[..., Any]) -> None:
    result = run("--help")
    assert result.exit_code == 0
    for name in ("userprio", "setfactor", "import", "config", "init"):
        assert name in result.stdout


def test_import_unsorted_from_stdin(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    cfg = write_config(CONFIG)
    text = "".join(reversed(HISTORY.splitlines(keepends=True)))
    args = ["--config", str(cfg), "--state", str(tmp_path / "u.json"), "--now", NOW]
    result = run("import", "history", "-", *args, input=text)
    assert result.exit_code == 0, result.stderr
    rows = json.loads(run("userprio", *args, "--json").stdout)
    users = [r for r in rows if not r["is_group"]]
    assert {r["name"]: r["effective_priority"] for r in users} == pytest.approx(
        {"alice@example.org": 5.25, "bob@example.org": 2 - 1.5 * 0.5**0.25}
    )


def test_import_condor_history(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    cfg = write_config(CONFIG)
    ads = [  # newest first, as condor_history prints
        {
            "Owner": "bob",
            "User": "bob@example.org",
            "JobStatus": 4,
            "RequestCpus": 2,
            "JobCurrentStartDate": 1795240800,
            "CompletionDate": 1795262400,
        },
        {
            "Owner": "alice",
            "AccountingGroup": "group_x.alice",
            "JobStatus": 4,
            "JobCurrentStartDate": 1795176000,
            "CompletionDate": 1795262400,
        },
        {"Owner": "carol", "JobStatus": 3, "EnteredCurrentStatus": 1795176000},
    ]
    f = tmp_path / "h.json"
    f.write_text(json.dumps(ads))
    args = ["--config", str(cfg), "--state", str(tmp_path / "c.json"), "--now", NOW]
    result = run("import", "condor-history", str(f), *args)
    assert result.exit_code == 0, result.stderr
    assert "Imported 2 usage records" in result.stdout
    rows = {r["name"]: r for r in json.loads(run("userprio", *args, "--json").stdout)}
    # one slot for one half-life from 0.5: 1 - 0.5 / 2
    assert rows["group_x.alice@example.org"]["effective_priority"] == pytest.approx(0.75)
    assert rows["bob@example.org"]["weighted_accumulated_usage_hours"] == pytest.approx(6.0)


def test_whatif_changes_view_not_state(
    pool: list[str], run: Callable[..., Any], tmp_path: Path
) -> None:
    state = tmp_path / "s.json"
    before = state.read_bytes()
    later = "2026-11-22T12:00:00Z"
    base = {
        r["name"]: r["effective_priority"]
        for r in json.loads(run("userprio", *pool, "--now", later, "--json").stdout)
    }
    result = run(
        "whatif",
        "--set",
        "accountant.priority_halflife=43200",
        "--set",
        "accountant.default_prio_factor=10",
        "userprio",
        *pool,
        "--now",
        later,
        "--json",
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert {r["name"]: r["effective_priority"] for r in doc["before"]} == base
    alt = {r["name"]: r["effective_priority"] for r in doc["after"]}
    assert base["alice@example.org"] == pytest.approx(5.25 / 2)
    # A half-life revalues the past, so the after side replays the kept history: alice's
    # 10 slots for a day are two half-lives of 43200 s from 0.5: 10 - 9.5/4 = 7.625 at NOW,
    # then a day (two half-lives) idle: 7.625/4. Her factor (1) was stored when the import
    # wrote her record, so the new default_prio_factor does not reach her.
    assert alt["alice@example.org"] == pytest.approx(7.625 / 4)
    fields = {(c["key"], c["field"]) for c in doc["changes"]}
    assert ("alice@example.org", "effective_priority") in fields
    assert state.read_bytes() == before
    bad = run("whatif", "--set", "accountant.priority_halflife=-1", "userprio", *pool)
    assert bad.exit_code == 2
    assert "priority_halflife" in bad.stderr


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[pool\n", "not valid TOML"),
        ("[accountant]\nhalflife = 3\n", "unknown key 'accountant.halflife'"),
        ('[accountant]\npriority_halflife = "soon"\n', "priority_halflife"),
        ("[accountant]\npriority_halflife = -60\n", "0 or more"),
        ("[accountant]\ndefault_prio_factor = nan\n", "finite"),
    ],
)
def test_bad_config_on_the_command_line(
    tmp_path: Path, run: Callable[..., Any], text: str, needle: str
) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text(text)
    state = tmp_path / "s.json"
    for args in (["userprio"], ["setprio", "a@b", "3"], ["config", "check"]):
        result = run(
            *args, "--config", str(cfg), *(["--state", str(state)] if args[0] != "config" else [])
        )
        assert result.exit_code == 2
        assert needle in result.stderr
        assert str(cfg) in result.stderr
        assert len(result.stderr.splitlines()) == 1
        assert not state.exists()


def test_init_and_config_check(tmp_path: Path, run: Callable[..., Any]) -> None:
    target = tmp_path / "fairshare.toml"
    result = run("init", str(target), "--profile", "legacy")
    assert result.exit_code == 0
    assert run("init", str(target)).exit_code == 2  # no silent overwrite
    check = run("config", "check", "--config", str(target))
    assert check.exit_code == 0, check.stderr
    assert "accountant.default_prio_factor = 1.0" in check.stdout
    assert 'priority.fairshare = "linear"' in check.stdout
    data = json.loads(run("config", "check", "--config", str(target), "--json").stdout)
    assert data["accountant"]["priority_halflife"] == 86400
    assert data["groups"]["group_physics"]["quota"] == 40


def test_hierarchical_layout(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Group rows, indented users without their group prefix, n/d, and condor's widths."""
    cfg = write_config(
        '[pool]\nuid_domain = "d.org"\n[groups."grp"]\nquota = 10\naccept_surplus = true\n'
    )
    hist = tmp_path / "h.jsonl"
    hist.write_text(
        '{"owner": "alice", "accounting_group": "grp.alice", "start": "2026-11-21T00:00:00Z",'
        ' "end": null, "slots": 4}\n'
        '{"owner": "bob", "start": "2026-11-21T06:00:00Z", "end": "2026-11-21T10:00:00Z",'
        ' "slots": 2}\n'
    )
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW]
    assert run("import", "history", str(hist), *args).exit_code == 0
    alice = 4 - 3.5 * 0.5**0.5  # four slots for half a half-life
    bob = (2 - 1.5 * 0.5 ** (4 / 24)) * 0.5 ** (2 / 24)  # two slots for 4 h, then idle 2 h
    lines = [line.rstrip() for line in run("userprio", *args).stdout.splitlines()]
    # name width: "Number of users: 4" (4 records returned) is the widest, + 2 for groups
    assert lines == [
        "Last Priority Update: 11/21 12:00",
        "Group                 Config     Use    Effective   Priority  Wghted Total Usage  Time Since  Weighted  Submitter Submitter",
        "  User Name            Quota   Surplus   Priority    Factor   In Use (wghted-hrs) Last Usage Requested    Floor    Ceiling",
        "-------------------- --------- ------- ------------ --------- ------ ------------ ---------- ---------- --------- ---------",
        "grp                      10.00 ByQuota                   1.00      4        48.00      <now>          0",
        f"  alice@d.org                                  {alice:.2f}      1.00      4        48.00      <now>",
        "<none>                    0.00 yes                       1.00      0         8.00    0+02:00          0",
        f"  bob@d.org                                    {bob:.2f}      1.00      0         8.00    0+02:00",
        "-------------------- --------- ------- ------------ --------- ------ ------------ ---------- ---------- --------- ---------",
        "Number of users: 2             ByQuota                             4        56.00    1+00:00",
    ]


def test_named_users_match_like_condor_userprio(pool: list[str], run: Callable[..., Any]) -> None:
    """A bare name matches the part before the @ (any domain); user@domain matches exactly.
    Naming a record does not lift the 24-hour activity filter (user_prio.cpp adds the
    names to the collector query and keeps MinLastUsageTime): alice, last used 11/21, is
    left out on 12/30 however she is named."""

    def names(*args: str) -> list[str]:
        out = run("userprio", *args, *pool, "--now", "2026-12-30T00:00:00Z", "--json")
        return [r["name"] for r in json.loads(out.stdout)]

    assert names("alice") == []
    # bob still holds his two slots
    assert names("alice@example.org", "bob") == ["bob@example.org"]
    assert names("bob@example.org") == ["bob@example.org"]
    assert names("alice@elsewhere.net") == []
    # the only one active in the last 24 hours (and <none>, which he charges)
    assert names() == ["bob@example.org", "<none>"]


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["setprio", "alice", "-5"], id="fs-setprio"),
        pytest.param(["userprio", "-setprio", "alice@example.org", "-5"], id="condor-form"),
    ],
)
def test_negative_setprio_is_stored_and_reads_clamp(
    pool: list[str], run: Callable[..., Any], tmp_path: Path, command: list[str]
) -> None:
    """condor_userprio -setprio takes its value with atof and no check (user_prio.cpp);
    the negotiator's SET_PRIORITY handler stores it as given (Accountant::SetPriority).
    A read (Accountant::GetPriority) lifts anything below MinPriority to 0.5, so alice,
    who was at 5.25 (10 slots for one half-life from 0.5), then shows 0.50 × factor 1."""
    result = run(*command, *pool, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "The priority of alice@example.org was set to -5.000000\n"
    stored = json.loads((tmp_path / "s.json").read_text())["accountant"]["records"]
    assert stored["alice@example.org"]["priority"] == -5.0
    rows = json.loads(run("userprio", *pool, "--now", NOW, "--json").stdout)
    alice = next(r for r in rows if r["name"] == "alice@example.org")
    assert (alice["real_priority"], alice["effective_priority"]) == (0.5, 0.5)


def _queued_pool(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    """The sample pool with its jobs file submitted and one cycle committed."""
    import shutil

    repo = Path(__file__).resolve().parents[2]
    state = tmp_path / "queued.json"
    shutil.copy(repo / "sample_configs" / "sample-state.json", state)
    args = [
        "--config", str(repo / "sample_configs" / "pool.toml"), "--state", str(state),
        "--now", "2026-11-21T12:00:00Z",
    ]  # fmt: skip
    assert run("submit", "--file", str(repo / "sample_configs" / "jobs.json"), *args).exit_code == 0
    assert run("negotiate", *args).exit_code == 0
    return args


def test_a_group_row_holding_hidden_users_says_so(tmp_path: Path, run: Callable[..., Any]) -> None:
    """After 'fs rm 105' the group_physics.hep row holds 108 while its only listed user,
    alice, holds 100: dave's 8 (claims, no job in the queue) are not listed, as plain
    condor_userprio lists only submitters with a submitter ad. The table stays
    condor_userprio's; a note under it names who is not listed and why."""
    args = _queued_pool(tmp_path, run)
    assert run("rm", "105", *args).exit_code == 0
    result = run("userprio", *args)
    assert result.exit_code == 0
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines() if line}
    assert rows["group_physics.hep"][4] == "108" and rows["alice@example.org"][3] == "100"
    assert "dave@example.org" not in result.stdout
    note = result.stderr.strip().splitlines()
    assert len(note) == 1 and note[0].startswith("fs: note: not listed: 10 submitters with ")
    assert "group_physics.hep.dave@example.org" in result.stderr or " more)" in note[0]
    assert note[0].endswith("counted in their groups' rows; --allusers lists them")
    everyone = run("userprio", "--allusers", *args)
    assert "dave@example.org" in everyone.stdout and everyone.stderr == ""


def test_names_match_records_inside_groups(run: Callable[..., Any]) -> None:
    """'fs userprio alice bob' on the sample pool, whose records are group-qualified
    (group_physics.hep.alice@example.org): both are found, and a note says how. Their
    group's ad is not read, so no row is numbered and the table is flat, each row the
    whole name, as condor_userprio prints the two named in full."""
    repo = Path(__file__).resolve().parents[2]
    result = run(
        "userprio", "alice", "bob", "--config", str(repo / "sample_configs" / "pool.toml"),
        "--now", "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert result.exit_code == 0
    names = [line.split()[0] for line in result.stdout.splitlines()[4:6]]
    assert names == ["group_physics.hep.alice@example.org", "group_physics.hep.bob@example.org"]
    assert "Number of users: 2 " in result.stdout
    assert result.stderr == (
        "fs: note: alice is shown as group_physics.hep.alice@example.org\n"
        "fs: note: bob is shown as group_physics.hep.bob@example.org\n"
    )


def test_all_says_its_group_quotas_are_the_dumped_cycles(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The HTCondor 25.0 capture (tests/fixtures/htcondor-25.0/flat_users) imported:
    'fs userprio -all' prints condor_userprio's quotas of the cycle its dump describes
    (<none>: effective 21, subtree 25, as condor_userprio.quotas.txt), 'fs quota' the next
    cycle's; a note under the table says which cycle, naming the dump's time."""
    pool = Path(__file__).resolve().parents[1] / "fixtures" / "htcondor-25.0" / "flat_users"
    meta = json.loads((pool / "meta.json").read_text())
    capture = str(meta["capture_time"])
    cfg, state = tmp_path / "pool.toml", tmp_path / "state.json"
    assert (
        run("import", "condor-config", str(pool / "condor_config"), "--into", str(cfg)).exit_code
        == 0
    )
    args = ["--config", str(cfg), "--state", str(state), "--now", capture]
    for step in (
        ["condor-status", str(pool / "condor_status.json"), "--into", str(cfg)],
        ["condor-q", str(pool / "condor_q.json")],
        ["condor-userprio", str(pool / "condor_userprio.long_allusers.txt")],
    ):
        assert run("import", *step, *args).exit_code == 0
    result = run("userprio", "-all", *args)
    assert result.exit_code == 0
    none = next(line.split() for line in result.stdout.splitlines() if line.startswith("<none>"))
    assert none[1:2] == ["21.00"] and "25.00" in none
    assert result.stderr.startswith(
        "fs: note: group quotas are those of the negotiation cycle the condor_userprio dump "
        "describes ("
    )
    first = result.stderr.splitlines()[0]
    assert first.endswith("as condor_userprio shows them; 'fs quota' computes the next cycle's")
    quota = json.loads(run("quota", *args, "--json").stdout)
    root = next(r for r in quota if r["group"] == "<none>")
    assert (root["quota"], root["subtree_quota"]) != (21.0, 25.0)


def test_a_group_asked_for_alone_shows_in_a_flat_table(run: Callable[..., Any]) -> None:
    """``fs userprio group_physics`` on the sample pool: the one ad read is the group's, so
    no group is numbered (user_prio.cpp ``CollectInfo`` numbers groups only when it reads
    a user inside one) and the table is flat, with the group's row, as ``PrintInfo``
    prints every group row but a leading ``<none>`` there; it printed an empty table."""
    from tests.conftest import REPO

    line = ["userprio", "group_physics", "--config", str(REPO / "sample_configs" / "pool.toml")]
    result = run(*line, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    lines = [x.rstrip() for x in result.stdout.splitlines()]
    assert lines[2].startswith("User Name ") and "Quota" not in result.stdout
    assert lines[4].startswith("group_physics     ") and lines[-1].startswith("Number of users: 0")
    assert result.stderr == ""
    shown = run(*line, "--hierarchical", "--now", NOW)
    assert "\ngroup_physics " in shown.stdout and shown.stderr == ""


def test_a_submission_of_new_users_keeps_the_group_rows(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs submit --owner u1 --accounting-group group_physics.u1, then fs userprio, on the
    sample pool: while the queue holds only u1's job, only its submitter's ad (none yet:
    u1 has no record) and the groups' are read, so condor_userprio prints the groups in a
    flat table (no group numbered: ``all_users_in_none_group``; the quota columns go,
    ``<none>`` shows after another group). fs printed an empty table whose note said the
    submitters' usage was counted in their groups' rows. Once a cycle has matched u1 its
    ad is read (in a group: the groups are numbered) and the table is hierarchical with
    the quota columns, though u1's row waits for a last usage time (the next update)."""
    import shutil

    from tests.conftest import REPO

    state = tmp_path / "s.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    args = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    args += ["--now", NOW]
    assert (
        run("submit", "--owner", "u1", "--accounting-group", "group_physics.u1", *args).exit_code
        == 0
    )
    result = run("userprio", *args)
    assert result.exit_code == 0, result.stderr
    lines = [x.rstrip() for x in result.stdout.splitlines()]
    names = [x.split()[0] for x in lines[4:-2]]
    # by effective priority: 16.93, 23668.4, 60746.3, 84039.5, 95413.6, 148511 (the
    # fs whatif session of docs/whatif-and-simulate.md prints them)
    assert names == [
        "group_chemistry",
        "group_physics.astro",
        "group_chemistry.lab",
        "<none>",
        "group_physics.hep",
        "group_physics",
    ]
    assert lines[2].startswith("User Name ") and "Quota" not in result.stdout
    assert "counted in their groups' rows" in result.stderr
    alone = run("userprio", "--priority", *args)  # (no group row: the note names none)
    assert alone.stderr.endswith("and 8 more); --allusers lists them\n"), alone.stderr
    assert run("negotiate", *args).exit_code == 0
    after = run("userprio", *args).stdout.splitlines()
    assert after[1].startswith("Group ") and "Config" in after[1]
    assert [x.split()[0] for x in after[4:-2]] == [
        "group_chemistry",
        "group_physics.astro",
        "group_physics.hep",
        "group_chemistry.lab",
        "group_physics",
        "<none>",
    ]
