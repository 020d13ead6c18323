"""HTCondor accountant details through the CLI, hand-checked."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.htcondor import accountant as acct

NOW = "2026-11-21T12:00:00Z"
CAPTURE = Path(__file__).resolve().parents[1] / "fixtures" / "htcondor-25.0" / "flat_users"
GROUPS = """
[pool]
uid_domain = "htc.test"
local_domains = ["htc.test"]
[accountant]
default_prio_factor = 1000
remote_prio_factor = 1e7
[groups."group_ops"]
quota = 4
"""


def test_group_rows_show_the_remote_factor(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """The real 25.0 capture (tests/fixtures/htcondor-25.0) prints group_ops and <none>
    with factor 1e+07 = REMOTE_PRIO_FACTOR: a group name has no domain, so it is not in
    ACCOUNTANT_LOCAL_DOMAIN. ops runs 4 slots for 6 h from 06:00 (half-life one day):
    RUP = 4 - 3.5 * 0.5**0.25; the group's effective priority is RUP x 1e7 (in --json;
    the table leaves a group's effective priority blank). The factor prints as "%.3g"
    because "%9.2f" of 1e7 is wider than 9: "1e+07".
    """
    hist = tmp_path / "h.jsonl"
    hist.write_text(
        '{"owner": "ops", "accounting_group": "group_ops.ops", "start": "2026-11-21T06:00:00Z",'
        ' "end": null, "slots": 4}\n'
    )
    args = ["--config", str(write_config(GROUPS)), "--state", str(tmp_path / "s.json")]
    assert run("import", "history", str(hist), *args, "--now", NOW).exit_code == 0
    table = run("userprio", *args, "--now", NOW).stdout.splitlines()
    row = next(line for line in table if line.startswith("group_ops "))
    assert row.split()[1:4] == ["4.00", "no", "1e+07"]
    out = run("userprio", *args, "--now", NOW, "--json", "--allusers").stdout
    rows = {r["name"]: r for r in json.loads(out)}
    rup = 4 - 3.5 * 0.5**0.25
    assert rows["group_ops"]["priority_factor"] == 1e7
    assert rows["group_ops"]["effective_priority"] == pytest.approx(rup * 1e7)
    assert rows["<none>"]["priority_factor"] == 1e7
    assert rows["group_ops.ops@htc.test"]["priority_factor"] == 1000


def test_factor_stored_when_the_state_is_written(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """After an import the records store their factors (1000 for ops); raising
    default_prio_factor to 5000 in the config leaves ops at 1000, as HTCondor's stored
    PriorityFactor does, until fs delete (the record comes back with the factor derived
    afresh: 5000)."""
    hist = tmp_path / "h.jsonl"
    hist.write_text('{"owner": "ops", "start": "2026-11-21T06:00:00Z", "end": null}\n')
    cfg = write_config(GROUPS)
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    assert run("import", "history", str(hist), *args, "--now", NOW).exit_code == 0
    cfg.write_text(GROUPS.replace("default_prio_factor = 1000", "default_prio_factor = 5000"))

    def factor() -> float:
        out = run("userprio", "--allusers", *args, "--now", NOW, "--json").stdout
        rows = {r["name"]: r for r in json.loads(out)}
        return float(rows["ops@htc.test"]["priority_factor"])

    assert factor() == 1000
    assert run("delete", "ops@htc.test", *args, "--now", NOW).exit_code == 0
    assert run("setprio", "ops@htc.test", "2", "--create", *args, "--now", NOW).exit_code == 0
    assert factor() == 5000


def test_edits_store_six_decimals(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``condor_userprio -setprio``/``-setfactor`` reach ``SetAttributeFloat``, which writes
    ``%f``: 3.1234567 is stored 3.123457 and 2.0000004 is 2.0 (the confirmations print
    them with ``%f``, as condor_userprio does); ``-l`` then prints ``Priority`` = 3.123457 ×
    2.0 = 6.246914 (``%.16G``)."""
    cfg = write_config('[pool]\nuid_domain = "d"\n[[machines]]\nname = "m"\nslots = 4\n')
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW]
    result = run("setprio", "a@d", "3.1234567", "--create", *args)
    assert result.stdout == "The priority of a@d was set to 3.123457 (new record)\n"
    result = run("setfactor", "a@d", "2.0000004", *args)
    assert result.stdout == "The priority factor of a@d was set to 2.000000\n"
    record = json.loads((tmp_path / "s.json").read_text())["accountant"]["records"]["a@d"]
    assert (record["priority"], record["priority_factor"]) == (3.123457, 2.0)
    long = run("userprio", "-l", "--allusers", *args).stdout.splitlines()
    assert "Priority2 = 6.246914" in long and "PriorityFactor2 = 2.0" in long


def test_long_of_a_named_record_without_an_ad_says_so(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs userprio -l a@d`` of a record with no job in the queue printed nothing and no
    note (condor_userprio -l prints nothing: the collector holds no Accounting ad for it),
    where the plain table names it on stderr."""
    cfg = write_config('[pool]\nuid_domain = "d"\n[[machines]]\nname = "m"\nslots = 4\n')
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW]
    assert run("setprio", "a@d", "3", "--create", *args).exit_code == 0
    result = run("userprio", "-l", "a@d", *args)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == (
        "fs: note: not listed: a@d: no Accounting ad in the collector (no job in the queue); "
        "--allusers lists every record\n"
    )


def test_simulate_sees_an_end_at_the_next_cycle(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Two slots from 12:00 for 1.5 h, cycles every hour (half-life one day).

    The end at 13:30 is seen by the cycle at 14:00, which first charges the whole hour:
    13:00: P = 2 - 1.5 * 0.5**(1/24); 14:00: P = 2 - 1.5 * 0.5**(2/24), then 0 slots;
    15:00: that decays: P14 * 0.5**(1/24). Each update stores P with six decimals
    (Accountant.cpp's SetAttributeFloat writes ``%f``), which the next one decays.
    """
    config = write_config('[pool]\nuid_domain = "d"\n[[machines]]\nname = "m"\nslots = 4\n')
    work = tmp_path / "w.json"
    work.write_text(json.dumps([{"id": "1.0", "count": 2, "owner": "a", "run_time": 5400}]))
    result = run(
        "simulate",
        "--config",
        str(config),
        "--state",
        str(tmp_path / "s.json"),
        "--now",
        NOW,
        "--workload",
        str(work),
        "--until",
        "3:00:00",
        "--cycle",
        "3600",
        "--json",
    )
    assert result.exit_code == 0, result.stderr
    rows = [
        (r["slots"], r["effective_priority"])
        for r in json.loads(result.stdout)
        if r["kind"] == "submitter"
    ]
    beta, stored = 0.5 ** (1 / 24), acct.as_stored  # (each update stores six decimals)
    p13 = stored(0.5 * beta + 2 * (1 - beta))
    p14 = stored(p13 * beta + 2 * (1 - beta))
    assert [s for s, _ in rows] == [2.0, 2.0, 0.0, 0.0]
    assert [p for _, p in rows] == pytest.approx([0.5, p13, p14, stored(p14 * beta)], rel=1e-12)


def test_import_history_on_a_cycle_grid(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """One slot from 10:20 to 10:50, cycles every hour through 10:00; now 12:00.

    The match is made 20 min into the 10:00 cycle (uncharged -20 min); the end is seen at
    11:00, after that cycle charged the slot up to 11:00: 40 min = 0.6667 h. The default
    replay charges the exact 30 min.
    """
    hist = tmp_path / "h.jsonl"
    hist.write_text(
        '{"owner": "a", "start": "2026-11-21T10:20:00Z", "end": "2026-11-21T10:50:00Z"}\n'
    )
    config = write_config('[pool]\nuid_domain = "d"\n')

    def hours(*extra: str) -> float:
        state = tmp_path / f"s{len(extra)}.json"
        args = ["--config", str(config), "--state", str(state), "--now", NOW]
        result = run("import", "history", str(hist), *args, *extra)
        assert result.exit_code == 0, result.stderr
        out = run("userprio", "a@d", *args, "--json").stdout
        return float(json.loads(out)[0]["accumulated_usage_hours"])

    assert hours() == pytest.approx(0.5)
    assert hours("--cycle", "3600", "--cycle-start", "2026-11-21T10:00:00Z") == pytest.approx(
        40 / 60
    )
    bad = run("import", "history", str(hist), "--config", str(config), "--cycle-start", NOW)
    assert bad.exit_code == 2
    assert "--cycle-start needs --cycle" in bad.stderr


def test_requested_is_weighted_with_use_weighted_demand_alone(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Slot weights off (legacy), use_weighted_demand on (its default): a 4-CPU idle job
    counts 4 in the group's Weighted Requested, as fs quota's demand and HTCondor's
    WeightedIdleJobs do (before: 1)."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        json.dumps(
            [{"id": "1.0", "owner": "ops", "accounting_group": "group_ops.ops", "request_cpus": 4}]
        )
    )
    args = ["--config", str(write_config(GROUPS)), "--state", str(tmp_path / "s.json")]
    assert run("submit", "--file", str(jobs), *args, "--now", NOW).exit_code == 0
    hist = tmp_path / "h.jsonl"
    hist.write_text(
        '{"owner": "ops", "accounting_group": "group_ops.ops", "start": "2026-11-21T06:00:00Z",'
        ' "end": null}\n'
    )
    assert run("import", "history", str(hist), *args, "--now", NOW).exit_code == 0
    quota = json.loads(run("quota", *args, "--now", NOW, "--json").stdout)
    assert next(r for r in quota if r["group"] == "group_ops")["demand"] == 4
    table = run("userprio", *args, "--now", NOW).stdout.splitlines()
    row = next(line for line in table if line.startswith("group_ops "))
    assert row.split()[-1] == "4"


def test_none_record_in_long_and_json_without_groups(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """condor_userprio -long prints every ad, <none> included, even with no groups; the
    table hides <none> without other group rows. A never-set last usage time (0) prints
    blank in the Last Usage Time column (FormatDateTime's "" for times <= 0)."""
    hist = tmp_path / "h.jsonl"
    hist.write_text('{"owner": "a", "start": "2026-11-21T06:00:00Z", "end": null}\n')
    args = [
        "--config",
        str(write_config('[pool]\nuid_domain = "d"\n')),
        "--state",
        str(tmp_path / "s.json"),
    ]
    assert run("import", "history", str(hist), *args, "--now", NOW).exit_code == 0
    assert run("setprio", "z@d", "3", "--create", *args, "--now", NOW).exit_code == 0
    names = [r["name"] for r in json.loads(run("userprio", *args, "--now", NOW, "--json").stdout)]
    assert "<none>" in names
    assert 'Name = "<none>"' in run("userprio", *args, "--now", NOW, "--long").stdout
    assert "<none>" not in run("userprio", *args, "--now", NOW).stdout
    table = run("userprio", "--allusers", *args, "--now", NOW, "--all").stdout.splitlines()
    row = next(line for line in table if line.startswith("z@d"))
    assert "/" not in row  # neither 1/01/1970 nor any other date: both times are 0


@pytest.mark.parametrize("name", ["group_ops", "ops", "<none>"])
def test_delete_needs_a_full_name(
    name: str, tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """condor_userprio -delete refuses a name without "@" (exit 1 there; usage error here)."""
    args = ["--config", str(write_config(GROUPS)), "--state", str(tmp_path / "s.json")]
    result = run("delete", name, *args, "--now", NOW)
    assert result.exit_code == 2
    assert "full name of the record" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "s.json").exists()


@pytest.mark.parametrize(
    "command",
    [["userprio"], ["quota"], ["sshare"], ["setprio", "a@d", "3"], ["resetusage", "--all"]],
)
def test_now_before_the_last_update_is_refused(
    command: list[str],
    tmp_path: Path,
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
) -> None:
    """The import brought the state up to 12:00; a view or an edit at 11:00 is refused with
    exit 2, one line naming the state's last update; the state file is left untouched. A
    submission only adds a job (it may be dated earlier to give it an age)."""
    hist = tmp_path / "h.jsonl"
    hist.write_text('{"owner": "a", "start": "2026-11-21T06:00:00Z", "end": null}\n')
    state = tmp_path / "s.json"
    args = ["--config", str(write_config('[pool]\nuid_domain = "d"\n')), "--state", str(state)]
    assert run("import", "history", str(hist), *args, "--now", NOW).exit_code == 0
    before = state.read_bytes()
    result = run(*command, *args, "--now", "2026-11-21T11:00:00Z")
    assert result.exit_code == 2
    assert "before the last update of state file" in result.stderr
    assert "(2026-11-21T12:00:00Z)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert state.read_bytes() == before
    assert run(*command, *args, "--now", NOW).exit_code == 0
    sub = run("submit", "--owner", "a", *args, "--now", "2026-11-21T11:00:00Z")
    assert sub.exit_code == 0, sub.stderr
    # a running job would be charged from then on: that is an edit going back
    running = ["--set", "status=running", "--set", "slot=slot1@m001"]
    late = run("submit", "--owner", "a", *running, *args, "--now", "2026-11-21T11:00:00Z")
    assert late.exit_code == 2
    assert "before the last update" in late.stderr


def test_whatif_help_says_which_factor_reading_it_uses(run: Callable[..., Any]) -> None:
    """The stored factor wins in fs whatif; its help says so."""
    text = " ".join(run("whatif", "--help").stdout.split())
    assert "a record stores its factor when it is first written" in text


def _column(table: str, heading: str) -> dict[str, str]:
    """Cells of one condor_userprio column by row name, cut at the dashes line's widths."""
    lines = table.splitlines()
    dashes = next(i for i, line in enumerate(lines) if line.startswith("---"))
    spans, pos = [], 0
    for run_ in lines[dashes].split(" "):
        spans.append((pos, pos + len(run_)))
        pos += len(run_) + 1
    head = [" ".join(lines[dashes - k][a:b].split()) for k in (2, 1) for a, b in spans]
    n = len(spans)
    titles = [f"{head[i]} {head[n + i]}".strip() for i in range(n)]
    a, b = spans[titles.index(heading)]
    rows = lines[dashes + 1 : len(lines) - 2]
    return {row[: spans[0][1]].strip(): row[a:b].strip() for row in rows}


def test_group_factor_cells_match_the_real_capture(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """The capture's knobs (UID_DOMAIN and ACCOUNTANT_LOCAL_DOMAIN htc.test, factors 1000 /
    1e7 / 1e7, group_ops quota 4 accepting surplus): its group_ops and <none> rows print the
    factor 1e+07. fs prints the same cells for the same knobs."""
    real = _column((CAPTURE / "condor_userprio.txt").read_text(), "Priority Factor")
    config = write_config(GROUPS.replace("quota = 4", "quota = 4\naccept_surplus = true"))
    hist = tmp_path / "h.jsonl"
    hist.write_text(
        '{"owner": "ops", "accounting_group": "group_ops.ops", "start": "2026-11-21T11:00:00Z",'
        ' "end": null, "slots": 4}\n'
        '{"owner": "dan", "start": "2026-11-21T11:00:00Z", "end": null, "slots": 5}\n'
    )
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    assert run("import", "history", str(hist), *args).exit_code == 0
    ours = _column(run("userprio", *args).stdout, "Priority Factor")
    assert real["group_ops"] == ours["group_ops"] == "1e+07"
    assert real["<none>"] == ours["<none>"] == "1e+07"
    assert real["ops@htc.test"] == ours["ops@htc.test"] == "1000.00"


def test_whatif_offers_both_factor_readings(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """alice: 10 slots for one half-life from 0.5: RUP 10 - 9.5/2 = 5.25, stored factor 1
    (the legacy default, stored by the import); bob: setfactor 3. With default_prio_factor
    = 10, HTCondor's reading keeps alice at 1 (EUP 5.25); --rederive-factors reads the new
    default as always in force: 10 x 5.25 = 52.5. bob's 3 is not the derived 1, so it stays
    under both readings."""
    hist = tmp_path / "h.jsonl"
    hist.write_text(
        '{"owner": "alice", "start": "2026-11-20T12:00:00Z", "end": "2026-11-21T12:00:00Z",'
        ' "slots": 10}\n'
    )
    args = ["--config", str(write_config('[pool]\nuid_domain = "d"\n')), "--state"]
    args += [str(tmp_path / "s.json"), "--now", NOW]
    assert run("import", "history", str(hist), *args).exit_code == 0
    assert run("setfactor", "bob@d", "3", "--create", *args).exit_code == 0

    def eup(*flags: str) -> dict[str, float]:
        change = ["--set", "accountant.default_prio_factor=10", *flags]
        result = run("whatif", *change, "userprio", "--allusers", *args, "--json")
        assert result.exit_code == 0, result.stderr
        rows = json.loads(result.stdout)["after"]
        return {r["name"]: r["priority_factor"] for r in rows if not r["is_group"]} | {
            "alice eup": next(r for r in rows if r["name"] == "alice@d")["effective_priority"]
        }

    kept = eup()
    assert (kept["alice@d"], kept["bob@d"]) == (1.0, 3.0)
    assert kept["alice eup"] == pytest.approx(5.25)
    fresh = eup("--rederive-factors")
    assert (fresh["alice@d"], fresh["bob@d"]) == (10.0, 3.0)
    assert fresh["alice eup"] == pytest.approx(52.5)


def test_group_real_priority_is_priority_over_the_ads_factor(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """user_prio.cpp (CollectInfo, PrintInfo) sets DetailRealPrio for any row, a group's
    too, whose ad has PriorityFactor > 0 and prints Priority / PriorityFactor. ops runs 4
    slots 06:00-12:00 (half-life one day): group_ops's RUP = 4 - 3.5 * 0.5**0.25 = 1.0569.
    Plain -all reads the collector's ad (forwardGroupAccounting): the record's factor, so
    Real Priority = RUP ("1.06"). -allusers reads the negotiator's (ReportGroups): the
    factor there is GROUP_PRIO_FACTOR_group_ops, 0 when unset: blank, as the capture's
    -allusers -all prints group_ops; with prio_factor = 2 (stored in the record too, so the
    Priority is RUP x 2) the cell is RUP x 2 / 2 = "1.06".
    """
    hist = tmp_path / "h.jsonl"
    hist.write_text(
        '{"owner": "ops", "accounting_group": "group_ops.ops", "start": "2026-11-21T06:00:00Z",'
        ' "end": null, "slots": 4}\n'
    )
    rup = 4 - 3.5 * 0.5**0.25
    for prio_factor, allusers_cell in ((None, ""), (2, f"{rup * 2 / 2:.2f}")):
        extra = "" if prio_factor is None else f"\nprio_factor = {prio_factor}"
        state = tmp_path / f"s{prio_factor}.json"
        args = ["--config", str(write_config(GROUPS + extra)), "--state", str(state)]
        assert run("import", "history", str(hist), *args, "--now", NOW).exit_code == 0
        plain = _column(run("userprio", "-all", *args, "--now", NOW).stdout, "Real Priority")
        assert plain["group_ops"] == f"{rup:.2f}" == "1.06"
        table = run("userprio", "-allusers", "-all", *args, "--now", NOW).stdout
        cells = _column(table, "Real Priority")
        assert cells["group_ops"] == allusers_cell
        assert cells["ops@htc.test"] == f"{rup:.2f}"  # a user's: RUP x 1000 / 1000
    real = _column((CAPTURE / "condor_userprio.allusers_all.txt").read_text(), "Real Priority")
    assert real["group_ops"] == real["<none>"] == ""


def test_plain_userprio_sizes_names_by_the_collectors_ads(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """user_prio.cpp's PrintInfo widens the name column to strlen("Number of users: N"),
    N the ads it read. Plain condor_userprio reads the collector's: one for <none>
    (forwardGroupAccounting) and one per submitter whose record has ResourcesUsed
    (forwardAccountingData): a@d, which ran; not the 12 records -setfactor made. So N = 2
    and the column is len("Number of users: 2") = 18 wide, where counting all 14 records
    made it 19; -allusers reads the negotiator's ad of every record: 19.
    """
    config = write_config('[pool]\nuid_domain = "d"\n')
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    hist = tmp_path / "h.jsonl"
    hist.write_text('{"owner": "a", "start": "2026-11-21T11:00:00Z", "end": null, "slots": 1}\n')
    assert run("import", "history", str(hist), *args).exit_code == 0
    for k in range(12):
        assert run("setfactor", f"u{k}", "2", "--create", *args).exit_code == 0
    plain = run("userprio", *args).stdout.splitlines()
    assert plain[3].split(" ")[0] == "-" * len("Number of users: 2") == "-" * 18
    assert plain[4].startswith("a@d" + " " * 15 + " ")
    every = run("userprio", "--allusers", *args).stdout.splitlines()
    assert every[3].split(" ")[0] == "-" * len("Number of users: 14")


@pytest.mark.parametrize(("profile", "factor_cell"), [("legacy", "10000.00"), ("current", "1e+07")])
def test_group_real_priority_in_both_profiles(
    tmp_path: Path,
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
    profile: str,
    factor_cell: str,
) -> None:
    """The profiles differ in the factor a group record stores (remote_prio_factor: 1e4
    legacy, 1e7 current, as the group's name has no domain); the Real Priority cell of
    plain -all (Priority / the collector ad's PriorityFactor, user_prio.cpp) is the RUP in
    both: ops runs 4 slots of 1 CPU 06:00-12:00 (half-life one day): 4 - 3.5 x 0.5**0.25."""
    config = write_config(
        f'[pool]\nuid_domain = "htc.test"\nlocal_domains = ["htc.test"]\ndefaults = "{profile}"\n'
        '[groups."group_ops"]\nquota = 4\n'
    )
    hist = tmp_path / "h.jsonl"
    hist.write_text(
        '{"owner": "ops", "accounting_group": "group_ops.ops", "start": "2026-11-21T06:00:00Z",'
        ' "end": null, "slots": 4}\n'
    )
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    assert run("import", "history", str(hist), *args).exit_code == 0
    table = run("userprio", "-all", *args).stdout
    assert _column(table, "Priority Factor")["group_ops"] == factor_cell
    assert _column(table, "Real Priority")["group_ops"] == f"{4 - 3.5 * 0.5**0.25:.2f}"


@pytest.mark.parametrize(
    ("factor", "stored", "factor_cell", "real_cell"),
    [
        pytest.param(0.5, 1.0, "0.50", "1.00", id="below-1-stores-1"),
        pytest.param(0, 1.0, "", "", id="zero-is-unset"),
    ],
)
def test_group_prio_factor_below_1_is_stored_as_1(
    tmp_path: Path,
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
    factor: float,
    stored: float,
    factor_cell: str,
    real_cell: str,
) -> None:
    """GROUP_PRIO_FACTOR_group_a = 0.5 was refused at load (exit 2); HTCondor takes it.
    Accountant.cpp: GetPriorityFactor finds the group's factor 0.5 (not 0, so it is used)
    and SetPriorityFactor stores MIN_PRIORITY_FACTOR, 1.0, in its place ("invalid priority
    factor"), for the submitter's record and the group's. A factor of 0 is no factor (the
    ``!= 0.0`` test): legacy's default_prio_factor, 1.0. After the first cycle u's RUP is
    the 0.5 floor, so its effective priority is 0.5 x 1.0 = 0.5 either way. ReportGroups
    (the -allusers ad) puts the raw GROUP_PRIO_FACTOR in the group's PriorityFactor, so
    -allusers -all prints 0.50 as group_a's factor and Priority / 0.50 = 0.5 / 0.5 = 1.00 as
    its Real Priority; with 0 both cells are blank (user_prio.cpp prints them for a
    factor above 0 only).
    """
    config = write_config(
        '[pool]\nuid_domain = "example.org"\n[[machines]]\nname = "exec"\ncount = 1\n'
        f'slots = 2\n[groups."group_a"]\nquota = 2\nprio_factor = {factor}\n'
    )
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    submitted = run(
        "submit", "--owner", "u", "--accounting-group", "group_a.u", "--count", "2", *args
    )
    assert submitted.exit_code == 0, submitted.stderr
    assert run("negotiate", *args).exit_code == 0
    rows = {r["name"]: r for r in json.loads(run("userprio", "--allusers", "--json", *args).stdout)}
    assert rows["group_a.u@example.org"]["priority_factor"] == stored
    assert rows["group_a.u@example.org"]["effective_priority"] == 0.5
    assert rows["group_a"]["priority_factor"] == stored
    table = run("userprio", "-allusers", "-all", *args).stdout
    assert _column(table, "Priority Factor")["group_a"] == factor_cell
    assert _column(table, "Real Priority")["group_a"] == real_cell
    assert _column(table, "Priority Factor")["u@example.org"] == "1.00"
    ad = run("userprio", "-allusers", "-l", *args).stdout
    assert f"PriorityFactor2 = {float(factor)}" in ad.splitlines()


def test_condor_userprio_import_of_a_group_factor_below_1(tmp_path: Path, run: Any) -> None:
    """With GROUP_PRIO_FACTOR_group_ops = 0.5 the negotiator's ad (``ReportGroups``) gives
    the group ``PriorityFactor2 = 0.5``, the knob as configured, while its record stores
    1.0 (``SetPriorityFactor`` clamps to MIN_PRIORITY_FACTOR), so ``Priority2`` is the RUP
    x 1.0: 0.860165 here. fs import condor-userprio took 0.5 as the record's factor: a RUP
    of 0.860165 / 0.5 = 1.72033 and an effective priority of 1.72033. Now the record
    holds factor 1 and RUP 0.860165, and fs userprio --allusers shows the effective
    priority 0.860165 with the ad's factor, 0.50, in the group's row."""
    text = (CAPTURE / "condor_userprio.long_allusers.txt").read_text()
    text = text.replace("PriorityFactor2 = 0.0", "PriorityFactor2 = 0.5")
    text = text.replace("Priority2 = 8601650.0", "Priority2 = 0.860165")
    cfg = tmp_path / "pool.toml"
    cfg.write_text(
        "[pool]\nuid_domain = 'htc.test'\nlocal_domains = ['htc.test']\n"
        "[accountant]\ndefault_prio_factor = 1000\nremote_prio_factor = 1e7\n"
        "[groups.group_ops]\nquota = 4\nprio_factor = 0.5\n"
    )
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", "1795458333"]
    result = run("import", "condor-userprio", "-", *args, input=text)
    assert result.exit_code == 0, result.stderr
    rows = {r["name"]: r for r in json.loads(run("userprio", "--allusers", "--json", *args).stdout)}
    assert rows["group_ops"]["priority_factor"] == 1.0
    assert rows["group_ops"]["effective_priority"] == pytest.approx(0.860165)
    table = run("userprio", "-allusers", *args).stdout
    row = next(x for x in table.splitlines() if x.startswith("group_ops "))
    assert "0.50" in row.split()
