"""A real HTCondor 25.0.14 pool, from its dumps alone (tests/fixtures/htcondor-25.0).

The pool's configuration (``condor-config`` of the ``-dump`` or of the file), its slots
(``condor-status``), queue (``condor-q``) and accountant (``condor-userprio``) are imported
through the CLI, in their ``-json`` and ``-long`` forms; then ``fs userprio --allusers --all``
must print the captured ``condor_userprio -allusers -all`` line for line, ``--json`` the
captured priorities, factors, usage and times, and ``fs negotiate --dry-run`` at the next
cycle's start the matches per submitter that cycle made (``meta.json``, from the
NegotiatorLog).

``condor_userprio`` prints the accountant as of its last update (``LastUpdate``, the
``Last Priority Update`` line) and counts its activity window from the clock; ``fs
userprio`` does the same while the imported dump still describes the accountant, so the
views run with ``--now`` at the capture time.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES

POOL = FIXTURES / "htcondor-25.0" / "flat_users"
META = json.loads((POOL / "meta.json").read_text())
CAPTURE = str(META["capture_time"])
LAST_UPDATE = str(META["accountant_last_update"])
NEXT_CYCLE = str(META["next_cycle_start"])

CONFIGS = {"dump": "condor_config_val.dump.txt", "file": "condor_config"}
STATUS = {"json": "condor_status.json", "long": "condor_status.long.txt"}
QUEUE = {"json": "condor_q.json", "long": "condor_q.long.txt"}
FORMS = list(itertools.product(CONFIGS, STATUS, QUEUE))


def import_pool(
    tmp_path: Path,
    run: Callable[..., Any],
    config: str = "dump",
    status: str = "json",
    queue: str = "json",
    userprio: str = "condor_userprio.long_allusers.txt",
    userprio_first: bool = False,
) -> list[str]:
    """Import every dump through the CLI; return the --config/--state arguments."""
    cfg, state = tmp_path / "pool.toml", tmp_path / "state.json"
    result = run("import", "condor-config", str(POOL / CONFIGS[config]), "--into", str(cfg))
    assert result.exit_code == 0, result.stderr
    args = ["--config", str(cfg), "--state", str(state)]
    steps = [
        ["condor-status", str(POOL / STATUS[status]), "--into", str(cfg), "--state", str(state)],
        ["condor-q", str(POOL / QUEUE[queue]), *args],
        ["condor-userprio", str(POOL / userprio), *args],
    ]
    if userprio_first:
        steps = [steps[2], *steps[:2]]
    for step in steps:
        result = run("import", *step, "--now", CAPTURE)
        assert result.exit_code == 0, result.stderr
        assert "warning" not in result.stderr
    return args


def every_view_runs(run: Callable[..., Any], args: list[str], now: str) -> None:
    views = (["userprio"], ["quota"], ["negotiate", "--dry-run"], ["sprio"], ["sshare"])
    for view in (*views, ["taskqueues"]):
        result = run(*view, *args, "--now", now)
        assert result.exit_code == 0, (view, result.stderr)


@pytest.mark.parametrize(("config", "status", "queue"), FORMS)
def test_userprio_allusers_all_is_the_capture_line_for_line(
    tmp_path: Path, run: Callable[..., Any], config: str, status: str, queue: str
) -> None:
    args = import_pool(tmp_path, run, config, status, queue)
    out = run("userprio", "--allusers", "--all", *args, "--now", CAPTURE).stdout
    assert out == (POOL / "condor_userprio.allusers_all.txt").read_text()
    every_view_runs(run, args, NEXT_CYCLE)


def test_import_order_does_not_charge_claims_twice(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Claims imported after the accountant's dump add nothing it already records."""
    args = import_pool(tmp_path, run, userprio_first=True)
    out = run("userprio", "--allusers", "--all", *args, "--now", CAPTURE).stdout
    assert out == (POOL / "condor_userprio.allusers_all.txt").read_text()


def _numbered_ad() -> dict[int, dict[str, Any]]:
    """The captured ``condor_userprio -l -allusers`` ad, by record number."""
    records: dict[int, dict[str, Any]] = {}
    for line in (POOL / "condor_userprio.long_allusers.txt").read_text().splitlines():
        key, _, value = line.partition(" = ")
        digits = len(key) - len(key.rstrip("0123456789"))
        if not digits:
            continue
        attr, number = key[:-digits], int(key[-digits:])
        records.setdefault(number, {})[attr] = json.loads(value.replace("E+", "e+"))
    return records


def _record_factors() -> dict[str, float]:
    """Each record's stored PriorityFactor, from the per-record ``condor_userprio -l``."""
    factors: dict[str, float] = {}
    name = ""
    for line in (POOL / "condor_userprio.long.txt").read_text().splitlines():
        key, _, value = line.partition(" = ")
        if key == "Name":
            name = json.loads(value)
        elif key == "PriorityFactor":
            factors[name] = float(value)
    return factors


def test_userprio_json_gives_the_captured_records(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Priorities, factors, usage (ad seconds = JSON hours x 3600) and times, per record.

    A record's factor is the one it stores (the per-record ads of ``-l``: 1e7 for the
    groups); the negotiator's ad gives a group only its GROUP_PRIO_FACTOR (0, which
    ``-allusers`` prints blank: the table test covers that)."""
    args = import_pool(tmp_path, run)
    out = run("userprio", "--allusers", "--all", "--json", *args, "--now", CAPTURE)
    rows = {r["name"]: r for r in json.loads(out.stdout)}
    ads = _numbered_ad()
    stored = _record_factors()
    assert set(rows) == {ad["Name"] for ad in ads.values()}
    for ad in ads.values():
        row = rows[ad["Name"]]
        assert row["is_group"] is ad["IsAccountingGroup"]
        assert row["effective_priority"] == pytest.approx(ad["Priority"], rel=1e-12)
        if ad["IsAccountingGroup"]:
            assert ad["PriorityFactor"] == 0.0
            assert row["priority_factor"] == stored[ad["Name"]] == 1e7
        else:
            assert row["priority_factor"] == ad["PriorityFactor"]
        assert row["resources_in_use"] == ad["ResourcesUsed"]
        assert row["weighted_resources_in_use"] == ad["WeightedResourcesUsed"]
        assert row["accumulated_usage_hours"] * 3600 == pytest.approx(ad["AccumulatedUsage"])
        assert row["weighted_accumulated_usage_hours"] * 3600 == pytest.approx(
            ad["WeightedAccumulatedUsage"]
        )
        for field, attr in (
            ("begin_usage_time", "BeginUsageTime"),
            ("last_usage_time", "LastUsageTime"),
        ):
            when = datetime.fromtimestamp(ad[attr], tz=timezone.utc)
            assert row[field] == when.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_plain_userprio_long_brings_the_records_it_has(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``condor_userprio -l`` (one ad per record) gives the same records, bar those it omits."""
    args = import_pool(tmp_path, run, userprio="condor_userprio.long.txt")
    out = run("userprio", "--allusers", "--all", *args, "--now", CAPTURE).stdout
    want = (POOL / "condor_userprio.allusers_all.txt").read_text().splitlines()
    got = out.splitlines()
    # 25.0's -l leaves out the remote-domain zed@other.org: only its row (priority unknown)
    # and the footer's totals (which count it) differ.
    differ = [w for w, g in zip(want, got, strict=True) if w != g]
    assert [line.split()[0] for line in differ] == ["zed@other.org", "Number"]


@pytest.mark.parametrize(("config", "status", "queue"), FORMS)
def test_next_cycle_matches_per_submitter(
    tmp_path: Path, run: Callable[..., Any], config: str, status: str, queue: str
) -> None:
    """At the next cycle's start, the matches per submitter the real negotiator made."""
    args = import_pool(tmp_path, run, config, status, queue)
    out = run("negotiate", "--dry-run", "--json", *args, "--now", NEXT_CYCLE)
    assert out.exit_code == 0, out.stderr
    matches = Counter(m["submitter"] for m in json.loads(out.stdout)["matches"])
    assert dict(matches) == META["next_cycle"]["matches_per_submitter"]
    assert all(m["reason"] == "no_preemption" for m in json.loads(out.stdout)["matches"])


@pytest.mark.parametrize(("config", "status", "queue"), FORMS)
def test_plain_userprio_is_the_capture_line_for_line(
    tmp_path: Path, run: Callable[..., Any], config: str, status: str, queue: str
) -> None:
    """Plain ``condor_userprio`` reads the collector's Accounting ads, which the
    negotiator sends only for submitters with a submitter ad (``forwardAccountingData``
    over the names ``obtainAdsFromCollector`` saw) and for every group
    (``forwardGroupAccounting``): zed@other.org, whose work is claims only, is not
    listed, nor counted in the footer (24 slots in use, 50.25 hours, where -allusers
    has 25 and 50.26). The footer's time since the activity cut-off (``LastUpdate``
    minus the clock's 24 hours ago) is 0+23:59."""
    args = import_pool(tmp_path, run, config, status, queue)
    res = run("userprio", *args, "--now", CAPTURE)
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines() == (POOL / "condor_userprio.txt").read_text().splitlines()


def test_plain_userprio_json_lists_the_same_records(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``--json`` without ``--allusers`` lists the plain table's records (and groups)."""
    args = import_pool(tmp_path, run)
    rows = json.loads(run("userprio", "--json", *args, "--now", CAPTURE).stdout)
    names = {r["name"] for r in rows}
    assert "zed@other.org" not in names
    assert {"dan@htc.test", "group_ops.ops@htc.test", "nice-user.eve@htc.test"} <= names
    everyone = run("userprio", "--allusers", "--json", *args, "--now", CAPTURE).stdout
    assert "zed@other.org" in {r["name"] for r in json.loads(everyone)}


def test_after_a_committed_cycle_the_accountant_moves_on(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Once a cycle is committed the dump no longer describes the accountant: views show
    the records at --now (the cycle's UpdatePriorities decayed them, 11 s later)."""
    args = import_pool(tmp_path, run)
    assert run("negotiate", *args, "--now", NEXT_CYCLE).exit_code == 0
    rows = json.loads(run("userprio", "--allusers", "--json", *args, "--now", NEXT_CYCLE).stdout)
    dan = next(r for r in rows if r["name"] == "dan@htc.test")
    # NegotiatorLog: dan Old Priority=0.848 , New Priority=0.952 (AgingFactor over 11 s)
    assert round(dan["real_priority"], 3) == 0.952
    assert dan["resources_in_use"] == 5 + 3


def test_next_cycle_group_quotas(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs quota at the next cycle: the quotas and limits the negotiator's log printed
    (``group quotas: Group <none> allocated= 30``, ``group_ops allocated= 4``) and what each
    group holds (21 and 4 weighted slots)."""
    args = import_pool(tmp_path, run)
    rows = {
        r["group"]: r for r in json.loads(run("quota", "--json", *args, "--now", NEXT_CYCLE).stdout)
    }
    want = META["next_cycle"]
    assert {g: rows[g]["quota"] for g in rows} == want["group_quotas"]
    assert {g: [float(rows[g]["limit"])] for g in rows} == want["group_negotiation_limits"]
    assert (rows["<none>"]["in_use"], rows["group_ops"]["in_use"]) == (21.0, 4.0)


def _logged_submitters() -> dict[str, tuple[float, float]]:
    """``(SubmitterPrio, submitterShare)`` per submitter, from the next cycle's log."""
    out: dict[str, tuple[float, float]] = {}
    name, prio = "", 0.0
    for line in (POOL / "NegotiatorLog.next_cycle.txt").read_text().splitlines():
        words = line.split()
        if "Negotiating with" in line and " at <" in line:
            name = words[words.index("with") + 1]
        elif "SubmitterPrio " in line:
            prio = float(words[-1])
        elif "submitterShare " in line:
            out[name] = (prio, float(words[-1]))
    return out


def test_next_cycle_priorities_and_shares_are_the_logs(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Each submitter's effective priority after the accountant's 11 s update, and its share
    of the pie, as the NegotiatorLog printed them (the accountant stores the real priority
    to 6 decimals, the log prints %f)."""
    args = import_pool(tmp_path, run)
    out = json.loads(run("negotiate", "--dry-run", "--json", *args, "--now", NEXT_CYCLE).stdout)
    got = {s["name"]: (s["effective_priority"], s["share"]) for s in out["submitters"]}
    logged = _logged_submitters()
    assert set(got) == set(logged)
    for name, (prio, share) in logged.items():
        assert got[name][0] == pytest.approx(prio, rel=2e-6), name
        assert got[name][1] == pytest.approx(share, abs=1e-6), name


def test_submitters_limit_is_the_slice_and_explain_gives_the_logs_submitter_limit(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The Submitters table's ``limit`` (json's) is the submitter's slice, ``share`` × the
    30 slots of ``<none>``; the log's ``submitterLimit`` takes off the weighted slots it
    holds (``calculateSubmitterLimit``): dan 0.345110 × 30 − 5 = 5.353304, cat 0.310062 × 30
    − 7 = 2.301848, ann 0.238697 × 30 − 2 = 5.160895, as logged; ``--explain``'s turn
    ``limit`` is the log's."""
    args = import_pool(tmp_path, run)
    out = json.loads(run("negotiate", "--dry-run", "--json", *args, "--now", NEXT_CYCLE).stdout)
    slices = {s["name"]: (s["share"], s["limit"]) for s in out["submitters"]}
    logged = META["next_cycle"]["submitter_limits"]
    for name, held in (("dan@htc.test", 5), ("cat@htc.test", 7), ("ann@htc.test", 2)):
        share, limit = slices[name]
        assert limit == pytest.approx(share * 30, rel=1e-12), name
        assert limit - held == pytest.approx(logged[name][0], abs=1e-6), name
    line = ["negotiate", "--dry-run", "--json", *args, "--now", NEXT_CYCLE, "--explain", "5.1"]
    events = json.loads(run(*line).stdout)["events"]
    turn = next(e for e in events if e["event"] == "turn")
    assert turn["limit"] == pytest.approx(logged["dan@htc.test"][0], abs=1e-6)
