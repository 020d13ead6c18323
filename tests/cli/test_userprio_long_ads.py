"""``fs userprio -l`` prints the accounting ads condor_userprio -l prints, attribute for
attribute: plain ``-l`` the collector's Accounting ads (``Matchmaker::forwardAccountingData``
and ``forwardGroupAccounting``), ``-l -allusers`` the negotiator's one numbered ad
(``Accountant::ReportState``), each as ``fPrintAd`` prints it (names sorted without regard
to case). Held against the real 25.0.14 captures, and against hand-derived group cases."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_condor_fixtures import CAPTURE, POOL, import_pool

#: What the collector or the daemon adds to an ad, and what the negotiator stores in a
#: record during its cycle: fs holds none of them, and prints none.
NOT_HELD = {
    "AuthenticatedIdentity",
    "AuthenticationMethod",
    "DaemonLastReconfigTime",
    "DaemonStartTime",
    "LastHeardFrom",
    "NegotiatorName",
    "UpdateSequenceNumber",
    "SubmitterLimit",
    "SubmitterShare",
}


def _ads(text: str) -> dict[str, list[str]]:
    """Each ad's lines (those fs holds), by the ad's Name line."""
    out: dict[str, list[str]] = {}
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if line.split(" = ")[0] not in NOT_HELD]
        if lines:
            out[next(line for line in lines if line.startswith("Name = "))] = lines
    return out


def test_long_prints_the_collectors_ads_as_condor_userprio_does(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``condor_userprio -l`` (25.0.14): every attribute of every ad, in the ad's sorted
    order, an empty line after each. A group's AccountingGroup is its parent (<none>'s its
    own), its SurplusPolicy ``byquota`` (<none> accepts surplus), with GroupSortKey and
    Requested; a submitter's ad has Ceiling, Floor, UnchargedTime and its twin. fs printed
    its own order, a group as its own AccountingGroup, <none>'s policy as "yes", and none
    of those attributes."""
    args = import_pool(tmp_path, run)
    result = run("userprio", "-l", *args, "--now", CAPTURE)
    assert result.exit_code == 0, result.stderr
    captured = (POOL / "condor_userprio.long.txt").read_text()
    assert _ads(result.stdout) == _ads(captured)
    assert result.stdout.endswith("\n\n")


def _by_name(text: str) -> dict[str, list[str]]:
    """The numbered ad's lines, each record's under its Name, numbers taken off."""
    numbered = re.compile(r"([A-Za-z]+?)(\d+) = (.*)")
    names: dict[str, str] = {}
    attrs: dict[str, list[str]] = {}
    for line in text.splitlines():
        m = numbered.fullmatch(line)
        if m is None:
            attrs.setdefault("", []).append(line)
        elif m.group(1) not in NOT_HELD:
            attrs.setdefault(m.group(2), []).append(f"{m.group(1)} = {m.group(3)}")
            if m.group(1) == "Name":
                names[m.group(2)] = m.group(3)
    return {names.get(n, n): lines for n, lines in attrs.items()}


def test_long_allusers_prints_the_negotiators_numbered_ad(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``condor_userprio -l -allusers`` (25.0.14): one ad, LastUpdate, the groups numbered
    breadth-first from <none> (1, group_ops 2: factor 0, as no GROUP_PRIO_FACTOR is set;
    HierWeightedResourcesUsed), then the submitters, NumSubmittors = 9, names sorted so
    that AccountingGroup1 ... AccountingGroup9 come before AccumulatedUsage1, and no empty
    line at its end. fs printed an ad per record."""
    args = import_pool(tmp_path, run)
    result = run("userprio", "-l", "--allusers", *args, "--now", CAPTURE)
    assert result.exit_code == 0, result.stderr
    captured = (POOL / "condor_userprio.long_allusers.txt").read_text()
    ours = _by_name(result.stdout)
    assert ours == _by_name(captured)
    assert [line for line in result.stdout.splitlines() if line.startswith("Name")][:2] == [
        'Name1 = "<none>"',
        'Name2 = "group_ops"',
    ]
    assert result.stdout.splitlines()[:2] == [
        'AccountingGroup1 = "<none>"',
        'AccountingGroup2 = "<none>"',
    ]
    assert not result.stdout.endswith("\n\n")


def test_long_allusers_numbers_the_submitters_as_the_accountants_table_iterates(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs userprio -l --allusers`` of the real 25.0.14 pool is the capture byte for byte
    but the last cycle's SubmitterLimit/SubmitterShare lines (not held). ``ReportState``
    numbers the submitters as its ``HashTable`` iterates: 9 records (7 submitters,
    <none>, group_ops) + 18 claims + ``Accountant.`` = 28 entries, at or above
    0.8 x 31 = 24.8 so the table grew to 63 buckets (28 < 50.4). Buckets, ``hashFunction``
    (``i += (i << 5) + byte``) of ``Customer.<name>`` modulo 63: nice-user.eve 18, ann 23,
    zed 24, cat 32, group_ops.ops 39, dan 41, ben 50: numbers 3 to 9 in that order. fs
    numbered them by priority: group_ops.ops, dan, cat, ann, ben, zed, nice-user.eve."""
    args = import_pool(tmp_path, run)
    result = run("userprio", "-l", "-allusers", *args, "--now", CAPTURE)
    assert result.exit_code == 0, result.stderr
    captured = (POOL / "condor_userprio.long_allusers.txt").read_text()
    held = [line for line in captured.splitlines(True) if not line.startswith("Submitter")]
    assert result.stdout == "".join(held)
    names = [line for line in result.stdout.splitlines() if line.startswith("Name")]
    assert names[2:] == [
        'Name3 = "nice-user.eve@htc.test"',
        'Name4 = "ann@htc.test"',
        'Name5 = "zed@other.org"',
        'Name6 = "cat@htc.test"',
        'Name7 = "group_ops.ops@htc.test"',
        'Name8 = "dan@htc.test"',
        'Name9 = "ben@htc.test"',
    ]


LIMITS_POOL = """
[pool]
uid_domain = "d"
[[machines]]
name = "m"
slots = 3
"""


def test_long_allusers_reports_the_concurrency_limits_the_claims_hold(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``-l -allusers`` carries ``Accountant::ReportLimits``' ``ConcurrencyLimit_<name>``:
    a's two jobs ask ``License.Matlab:2, DB``, b's one ``db``; a committed cycle matches
    all three on the three slots. Lower-cased, each match adding its amounts:
    license.matlab 2 + 2 = 4, db 1 + 1 + 1 = 3; the dot is written ``_``; reals. They are
    not numbered, so ``-modular`` drops them. fs printed none."""
    (tmp_path / "p.toml").write_text(LIMITS_POOL, encoding="utf-8")
    jobs = [
        {"id": "1.0", "owner": "a", "count": 2, "concurrency_limits": "License.Matlab:2, DB"},
        {"id": "2.0", "owner": "b", "concurrency_limits": "db"},
    ]
    (tmp_path / "jobs.json").write_text(json.dumps(jobs), encoding="utf-8")
    args = ["--config", str(tmp_path / "p.toml"), "--state", str(tmp_path / "s.json"),
            "--now", "2026-11-21T12:00:00Z"]  # fmt: skip
    assert run("submit", "--file", str(tmp_path / "jobs.json"), *args).exit_code == 0
    assert run("negotiate", *args).exit_code == 0
    result = run("userprio", "-l", "-allusers", *args)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line for line in lines if line.startswith("Concurrency")] == [
        "ConcurrencyLimit_db = 3.0",
        "ConcurrencyLimit_license_matlab = 4.0",
    ]
    assert lines.index("ConcurrencyLimit_db = 3.0") == lines.index("ConfigQuota1 = 0.0") - 2


def test_long_allusers_keeps_a_limit_no_claim_holds_at_0(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The pool above, then ``fs rm 1`` (a's two jobs) and a second cycle a minute later.
    The accountant's ``concurrencyLimits`` is a ``std::map`` that ``ClearLimits`` zeroes
    at each cycle's ``LoadLimits`` and never shrinks (``IncrementLimit`` adds a name,
    nothing removes one), and ``ReportLimits`` prints every entry: after the second
    cycle db counts b's one claim, 1, and license.matlab, which no claim holds, 0.
    fs printed db alone."""
    (tmp_path / "p.toml").write_text(LIMITS_POOL, encoding="utf-8")
    jobs = [
        {"id": "1.0", "owner": "a", "count": 2, "concurrency_limits": "License.Matlab:2, DB"},
        {"id": "2.0", "owner": "b", "concurrency_limits": "db"},
    ]
    (tmp_path / "jobs.json").write_text(json.dumps(jobs), encoding="utf-8")
    args = ["--config", str(tmp_path / "p.toml"), "--state", str(tmp_path / "s.json")]
    first, second = ["--now", "2026-11-21T12:00:00Z"], ["--now", "2026-11-21T12:01:00Z"]
    assert run("submit", "--file", str(tmp_path / "jobs.json"), *args, *first).exit_code == 0
    assert run("negotiate", *args, *first).exit_code == 0
    assert run("rm", "1", *args, *second).exit_code == 0
    assert run("negotiate", *args, *second).exit_code == 0
    result = run("userprio", "-l", "-allusers", *args, *second)
    assert result.exit_code == 0, result.stderr
    assert [line for line in result.stdout.splitlines() if line.startswith("Concurrency")] == [
        "ConcurrencyLimit_db = 1.0",
        "ConcurrencyLimit_license_matlab = 0.0",
    ]
    modular = run("userprio", "-l", "-allusers", "-modular", *args).stdout
    assert "Concurrency" not in modular


NESTED = """
[pool]
uid_domain = "d"
[negotiator]
accept_surplus = false
[[machines]]
name = "m"
slots = 4
[groups.group_b]
quota = 1
[groups."group_a.x"]
quota = 1
autoregroup = true
[groups.group_a]
quota = 2
accept_surplus = true
prio_factor = 5
"""


def _nested(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    (tmp_path / "pool.toml").write_text(NESTED, encoding="utf-8")
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json"),
            "--now", "2026-11-21T12:00:00Z"]  # fmt: skip
    for edit in (
        ["setaccum", "group_a.x.u@d", "3600", "--create"],
        ["setlast", "group_a.x.u@d", "1795258800"],
    ):
        result = run(*edit, *args)
        assert result.exit_code == 0, result.stderr
    return args


def test_long_gives_a_nested_group_its_parent_and_each_group_its_surplus_policy(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """forwardGroupAccounting: group_a.x's AccountingGroup is group_a, group_a's <none>.
    SurplusPolicy: regroup where autoregroup is on (group_a.x), else byquota where surplus
    is accepted (group_a), else no (group_b); <none> accepts surplus and, as a group
    autoregroups, autoregroups too (hgq_construct_tree): regroup."""
    args = _nested(tmp_path, run)
    result = run("userprio", "-l", *args)
    assert result.exit_code == 0, result.stderr
    ads = {
        ad["Name"]: ad
        for ad in (
            dict(line.split(" = ", 1) for line in block.splitlines())
            for block in result.stdout.split("\n\n")
            if block
        )
    }
    got = {name: (ad["AccountingGroup"], ad["SurplusPolicy"]) for name, ad in ads.items()
           if ad["IsAccountingGroup"] == "true"}  # fmt: skip
    assert got == {
        '"<none>"': ('"<none>"', '"regroup"'),
        '"group_a"': ('"<none>"', '"byquota"'),
        '"group_a.x"': ('"group_a"', '"regroup"'),
        '"group_b"': ('"<none>"', '"no"'),
    }
    assert ads['"group_a.x.u@d"']["AccountingGroup"] == '"group_a.x"'


def test_long_allusers_numbers_the_groups_breadth_first(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """ReportState numbers the groups breadth-first from <none>, children sorted without
    regard to case: <none> 1, group_a 2, group_b 3, group_a.x 4 (a level deeper), then the
    submitter 5; a group's PriorityFactor is its GROUP_PRIO_FACTOR (group_a: 5.0), else 0."""
    args = _nested(tmp_path, run)
    result = run("userprio", "-l", "--allusers", *args)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line for line in lines if line.startswith("Name")] == [
        'Name1 = "<none>"',
        'Name2 = "group_a"',
        'Name3 = "group_b"',
        'Name4 = "group_a.x"',
        'Name5 = "group_a.x.u@d"',
    ]
    assert "PriorityFactor2 = 5.0" in lines
    assert "PriorityFactor3 = 0.0" in lines
    assert "NumSubmittors = 5" in lines


def test_long_without_groups_gives_none_zero_quotas_and_no_demand(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """With no GROUP_NAMES the negotiator never runs hgq_prepare_for_matchmaking: <none>'s
    GroupEntry keeps its zeros (quotas, GroupSortKey, Requested: currently_requested is
    only counted there), though u has a job in the queue; it accepts surplus (byquota)."""
    (tmp_path / "pool.toml").write_text(
        '[pool]\nuid_domain = "d"\n[[machines]]\nname = "m"\nslots = 4\n', encoding="utf-8"
    )
    (tmp_path / "jobs.json").write_text('[{"id": "1", "owner": "u"}, {"id": "2", "owner": "u"}]')
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json")]
    for step in (["submit", "--file", str(tmp_path / "jobs.json")], ["negotiate"]):
        result = run(*step, *args, "--now", "2026-11-21T12:00:00Z")
        assert result.exit_code == 0, result.stderr
    result = run("userprio", "-l", *args, "--now", "2026-11-21T12:10:00Z")
    assert result.exit_code == 0, result.stderr
    root = next(ad for ad in result.stdout.split("\n\n") if 'Name = "<none>"' in ad)
    got = dict(line.split(" = ", 1) for line in root.splitlines())
    assert {k: got[k] for k in ("EffectiveQuota", "ConfigQuota", "SubtreeQuota")} == dict.fromkeys(
        ("EffectiveQuota", "ConfigQuota", "SubtreeQuota"), "0.0"
    )
    assert (got["GroupSortKey"], got["Requested"], got["SurplusPolicy"]) == (
        "0.0",
        "0.0",
        '"byquota"',
    )
    assert got["ResourcesUsed"] == "2"


def test_long_prints_a_backslash_in_a_name_as_is(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fPrintAd`` unparses text in the old syntax (``ClassAdUnParser::UnparseString`` with
    ``oldClassAd``, src/classad/sink.cpp): only the quote is escaped (``\\"``), a backslash
    is printed as is, as the old-syntax lexer reads it back (``tokenizeStringOld`` takes a
    backslash literally unless a quote follows). So the record ``DOM\\ann"x@example.org``
    prints as ``Name7 = "DOM\\ann\\"x@example.org"``; fs doubled the backslash."""
    from tests.conftest import REPO

    name = 'DOM\\ann"x@example.org'
    state = tmp_path / "state.json"
    args = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    args += ["--now", "2026-11-21T12:00:00Z"]
    assert run("setfactor", name, "2", "--create", *args).exit_code == 0
    result = run("userprio", "-l", "-allusers", *args)
    assert result.exit_code == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if "DOM" in x)
    assert line == 'Name7 = "DOM\\ann\\"x@example.org"'
    modular = run("userprio", "-l", "-allusers", "-modular", *args)
    assert 'Name = "DOM\\ann\\"x@example.org"\n' in modular.stdout
