"""The HTCondor importers on small hand-made dumps: syntax, forms, and bad input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import refused
from tests.cli.imports.conftest import CAPTURED
from tests.conftest import FIXTURES

POOL = FIXTURES / "htcondor-25.0" / "flat_users"
NOW = "2026-11-21T12:00:00Z"


# ------------------------------------------------------------------------ condor-config


def test_condor_config_syntax(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Continuations, include, $(X) and $(X:default), self-reference and += (config.cpp)."""
    (tmp_path / "local.d").mkdir()
    (tmp_path / "local.d" / "groups").write_text(
        "GROUP_NAMES = $(GROUP_NAMES) group_b\nGROUP_QUOTA_DYNAMIC_group_b = 0.25\n"
    )
    (tmp_path / "condor_config").write_text(
        "# a comment \\\n"
        "UID_DOMAIN = example.org\n"
        "ACCOUNTANT_LOCAL_DOMAIN = $(UID_DOMAIN)\n"
        "PRIORITY_HALFLIFE = $(HALF:86400)\n"
        "GROUP_NAMES = group_a\n"
        "include : local.d/groups\n"
        "include ifexist : missing.conf\n"
        "group_quota_group_a = 10\n"
        "GROUP_ACCEPT_SURPLUS_group_a = TRUE\n"
        "GROUP_PRIO_FACTOR_group_unknown = 5\n"
        "PREEMPTION_REQUIREMENTS = RemoteUserPrio > \\\n"
        "    SubmitterUserPrio * 1.2\n"
        "DEFAULT_PRIO_FACTOR = 1000\n"
        "DEFAULT_PRIO_FACTOR = 10\n"
        "START = True\n"
        "SCHEDD_NAME = s\n"
    )
    result = run("import", "condor-config", str(tmp_path / "condor_config"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "[pool]\n"
        'defaults = "current"\n'
        'uid_domain = "example.org"\n'
        'local_domains = ["example.org"]\n'
        'start = "True"\n'
        "\n"
        "[accountant]\n"
        "priority_halflife = 86400\n"
        "default_prio_factor = 10.0\n"
        "\n"
        "[negotiator]\n"
        'preemption_requirements = "RemoteUserPrio > SubmitterUserPrio * 1.2"\n'
        "\n"
        "[groups.group_a]\n"
        "quota = 10\n"
        "accept_surplus = true\n"
        "\n"
        "[groups.group_b]\n"
        "dynamic_quota = 0.25\n"
    )
    assert result.stderr == (
        f"condor-config {tmp_path / 'condor_config'}: 10 knobs taken, 2 groups; ignored 2: "
        "GROUP_PRIO_FACTOR_group_unknown, SCHEDD_NAME\n"
        "fs: warning: GROUP_PRIO_FACTOR_group_unknown: group_unknown is not in GROUP_NAMES, so "
        "the negotiator never reads it (ignored); add group_unknown to GROUP_NAMES\n"
    )


def test_condor_config_start_and_rank_reach_the_machines(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """START and RANK are the startd's knobs, every slot's Start and Rank: the
    negotiator matches a job only to a slot whose Requirements (START) hold. They become
    ``[pool] start`` / ``rank``, which a ``[[machines]]`` entry without its own takes;
    with ``START = TARGET.Owner != "bob"`` bob's job matches no slot and alice's one."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text('[[machines]]\nname = "m"\ncount = 2\nattributes = { Cpus = 1 }\n')
    conf = tmp_path / "condor_config"
    conf.write_text('START = TARGET.Owner != "bob"\nRANK = TARGET.RequestCpus\n')
    res = run("import", "condor-config", str(conf), "--into", str(cfg))
    assert res.exit_code == 0, res.stderr
    assert "2 knobs taken" in res.stderr and "ignored" not in res.stderr
    res = run("config", "check", "--config", str(cfg), "--json")
    assert res.exit_code == 0, res.stderr
    shown = json.loads(res.stdout)
    pair = ('TARGET.Owner != "bob"', "TARGET.RequestCpus")
    assert (shown["pool"]["start"], shown["pool"]["rank"]) == pair
    assert [(m["start"], m["rank"]) for m in shown["machines"]] == [pair]
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json"), "--now", NOW]
    for owner in ("alice", "bob"):
        res = run("submit", "--owner", owner, *args)
        assert res.exit_code == 0, res.stderr
    res = run("negotiate", "--dry-run", "--json", *args)
    assert res.exit_code == 0, res.stderr
    matched = [m["submitter"].split("@")[0] for m in json.loads(res.stdout)["matches"]]
    assert matched == ["alice"]


def test_condor_config_bad_start_names_the_key(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A START that does not parse is refused when the fragment is merged (exit 2)."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text("")
    conf = tmp_path / "condor_config"
    conf.write_text("START = (TARGET.Owner\n")
    res = run("import", "condor-config", str(conf), "--into", str(cfg))
    assert res.exit_code == 2
    assert "[pool] start" in res.stderr and len(res.stderr.splitlines()) == 1
    assert cfg.read_text() == ""


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ("UID_DOMAIN = a\nthis is not a knob\n", 2, "expected NAME = value"),
        ("A = 1\ninclude : /nonexistent/x\n", 2, "cannot include"),
        ("use ROLE : Personal, Bogus\n", 1, "use ROLE : Bogus: HTCondor 25.0 has no such"),
        ("PRIORITY_HALFLIFE = soon\n", 1, "PRIORITY_HALFLIFE: expected a number"),
        ("X = 1\nY = \x00\x01\x02\n", 2, "binary data"),
    ],
)
def test_bad_condor_config(
    tmp_path: Path, run: Callable[..., Any], text: str, line: int, what: str
) -> None:
    path = tmp_path / "condor_config"
    path.write_text(text)
    into = tmp_path / "pool.toml"
    into.write_text("[pool]\nname = 'p'\n")
    refused(run("import", "condor-config", str(path), "--into", str(into)), f":{line}", what)
    assert into.read_text() == "[pool]\nname = 'p'\n"


# ------------------------------------------------------------------------ bad dumps

STATE = {"format": "fairshare-cli state", "schema_version": 1}
SLOT = '{"Name": "slot1@m1", "Machine": "m1", "Cpus": 1, "State": "Unclaimed"}'
BAD_DUMPS = [
    ("condor-status", "[\n" + SLOT + ",\n" + SLOT[:20], 3, "truncated JSON"),
    ("condor-status", "[\n" + SLOT + "\n" + SLOT + "]", 3, "expected ','"),
    ("condor-status", b'[\n{"Name": "slot1@m\xff\xfe"}\n]', 2, "binary data"),
    ("condor-status", 'Name = "slot1@m"\nCpus 1\n', 2, "expected 'Attr = value'"),
    ("condor-status", '[{"Cpus": 1}]', 1, "expected a slot ad"),
    (
        "condor-q",
        '[\n{"ClusterId": 1, "ProcId": 0, "Owner": "a", "JobStatus": 1},\n{"Clu',
        3,
        "JSON",
    ),
    ("condor-q", 'ClusterId = 1\nProcId = 0\nOwner = "a"\nJobPrio = "high"\n', 1, "JobPrio"),
    ("condor-q", b"\x7fELF\x02\x01\x01\x00\x00\x00", 1, "binary data"),
    ("condor-userprio", 'Name1 = "a@d"\nPriority1 = 1.0\n', 0, "no LastUpdate"),
    ("condor-userprio", 'LastUpdate = 5\nName1 = "a@d"\nPriority1 = oops(\n', 1, "Priority1"),
    ("condor-history", '[\n{\n"Owner": "a",\n"JobStartDate": 1\n', 5, "truncated JSON"),
    ("condor-history", 'Owner = "a"\nJobStartDate 1\n', 2, "Attr = value"),
    # text after the array: two captures in one file (``cat a.json b.json``) imported the
    # first alone, junk or NULs after ']' (a sparse tail) were passed over, exit 0
    *[
        (kind, "[\n" + ad + "\n]\n" + after, 4, what)
        for kind, ad in (
            ("condor-status", SLOT),
            ("condor-q", '{"ClusterId": 1, "ProcId": 0, "Owner": "a", "JobStatus": 1}'),
            ("condor-history", '{"Owner": "a", "JobStartDate": 1795258800}'),
        )
        for after, what in (
            ("[\n" + ad + "\n]\n", "more text after the ads; expected the end of the file"),
            ("junk\n", "more text after the ads"),
            ("\x00\x00\x00", "binary data"),
        )
    ],
]


@pytest.mark.parametrize(("kind", "content", "line", "what"), BAD_DUMPS)
def test_bad_dumps_name_file_and_line(
    tmp_path: Path,
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
    kind: str,
    content: str | bytes,
    line: int,
    what: str,
) -> None:
    """Exit 2, one line naming FILE:LINE and what was expected; nothing written."""
    cfg = write_config("[pool]\nuid_domain = 'd'\n[[machines]]\nname = 'm'\n")
    state = tmp_path / "state.json"
    state.write_text(json.dumps(STATE))
    dump = tmp_path / "dump"
    if isinstance(content, bytes):
        dump.write_bytes(content)
    else:
        dump.write_text(content)
    before = (state.read_bytes(), cfg.read_bytes())
    args = ["--config", str(cfg), "--state", str(state), "--now", NOW]
    where = f"{dump}:{line}:" if line else f"{dump}:"
    refused(run("import", kind, str(dump), *args), where, what)
    assert (state.read_bytes(), cfg.read_bytes()) == before


# ------------------------------------------------------------------------ forms


def test_condor_history_long_is_the_json(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """-long and -json of the same ads charge the same; an ad with a start and no end (nor
    a JobStatus) holds a slot."""
    ads = [
        {
            "Owner": "a",
            "JobStatus": 4,
            "JobCurrentStartDate": 1795176000,
            "CompletionDate": 1795219200,
            "RequestCpus": 2,
        },
        {
            "Owner": "b",
            "AccountingGroup": "g.b",
            "JobCurrentStartDate": 1795240800,
            "RequestCpus": "/Expr(1 + 1)/",
        },
        {"Owner": "c", "JobStatus": 3},
    ]
    long_text = "\n".join(
        "\n".join(
            f"{k} = {v[6:-2] if isinstance(v, str) and v.startswith('/Expr(') else json.dumps(v)}"
            for k, v in ad.items()
        )
        + "\n"
        for ad in ads
    )
    cfg = write_config("[pool]\nuid_domain = 'd'\n[[machines]]\nname = 'm'\ncount = 2\n")
    outputs = []
    for name, text in (("h.json", json.dumps(ads, indent=1)), ("h.long", long_text)):
        (tmp_path / name).write_text(text)
        args = ["--config", str(cfg), "--state", str(tmp_path / f"{name}.state"), "--now", NOW]
        result = run("import", "condor-history", str(tmp_path / name), *args)
        assert result.exit_code == 0, result.stderr
        assert "Imported 2 usage records" in result.stdout
        state = json.loads((tmp_path / f"{name}.state").read_text())
        assert [c["submitter"] for c in state["negotiator"]["claims"].values()] == ["g.b@d"]
        outputs.append(run("userprio", "--allusers", "--json", *args).stdout)
    assert outputs[0] == outputs[1]


def test_partitionable_slots_come_in_with_their_dynamic_slots_as_claims(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """A partitionable slot publishing 6 CPUs and 3072 MB left, and two claimed dynamic
    slots of 2 CPUs and 1024 MB each: a ``partitionable = true`` machine of 6 + 2 + 2 = 10
    CPUs and 3072 + 1024 + 1024 = 5120 MB (no ``TotalSlot*`` published), and two claims on
    slot1_1@m1 and slot1_2@m1 carrying their resources. Slot weights off (the legacy
    defaults): each claim weighs 1, and the quota pool is ``count_effective_slots`` = 6
    CPUs left + 2 dynamic slots = 8. A later cycle carves the leftover: a 6-CPU job fits,
    a 7-CPU one does not."""
    ads = [
        {
            "Name": "slot1@m1",
            "Machine": "m1",
            "SlotType": "Partitionable",
            "PartitionableSlot": True,
            "Cpus": 6,
            "Memory": 3072,
            "State": "Unclaimed",
        },
        {
            "Name": "slot1_1@m1",
            "Machine": "m1",
            "SlotType": "Dynamic",
            "Cpus": 2,
            "Memory": 1024,
            "State": "Claimed",
            "RemoteUser": "a@d",
            "AccountingGroup": "a@d",
            "JobId": "3.0",
            "JobStart": 1795258000,
        },
        {
            "Name": "slot1_2@m1",
            "Machine": "m1",
            "SlotType": "Dynamic",
            "Cpus": 2,
            "Memory": 1024,
            "State": "Claimed",
            "RemoteUser": "b@d",
            "JobStart": 1795258000,
        },
    ]
    dump = tmp_path / "status.json"
    dump.write_text(json.dumps(ads))
    cfg = write_config("[pool]\nuid_domain = 'd'\n")
    state = tmp_path / "s.json"
    args = ["--config", str(cfg), "--state", str(state), "--now", NOW]
    result = run("import", "condor-status", str(dump), "--into", str(cfg), *args[2:])
    assert result.exit_code == 0, result.stderr
    assert "1 slots on 1 [[machines]] entry, 2 claimed (1 partitionable, with 2 dynamic" in (
        result.stderr
    )
    text = cfg.read_text()
    assert "partitionable = true" in text
    assert "attributes = {Cpus = 10, Memory = 5120}" in text
    claims = json.loads(state.read_text())["negotiator"]["claims"]
    assert {s: (c["submitter"], c["resources"]) for s, c in claims.items()} == {
        "slot1_1@m1": ("a@d", {"Cpus": 2, "Memory": 1024}),
        "slot1_2@m1": ("b@d", {"Cpus": 2, "Memory": 1024}),
    }
    rows = json.loads(run("userprio", "--allusers", "--json", *args).stdout)
    assert {r["name"]: r["resources_in_use"] for r in rows if not r["is_group"]} == {
        "a@d": 1,
        "b@d": 1,
    }
    quota = json.loads(run("quota", "--json", *args).stdout)
    assert quota[0]["subtree_quota"] == 8.0
    for cpus in ("7", "6"):
        assert run("submit", *args, "--owner", "c", "--cpus", cpus).exit_code == 0
    result = run("negotiate", "--json", "--dry-run", *args)
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert [(m["job_id"], m["slot"]) for m in out["matches"]] == [("2", "slot1_3@m1")]


def test_condor_status_dry_run_writes_nothing(tmp_path: Path, run: Callable[..., Any]) -> None:
    cfg = tmp_path / "pool.toml"
    cfg.write_text("[pool]\nuid_domain = 'htc.test'\n")
    state = tmp_path / "s.json"
    # (the capture's own time: its claims started up to 18:25:31, after NOW)
    args = ["--into", str(cfg), "--state", str(state), "--now", CAPTURED, "--dry-run"]
    result = run("import", "condor-status", str(POOL / "condor_status.json"), *args)
    assert result.exit_code == 0, result.stderr
    assert "would merge into" in result.stderr and "18 claim(s)" in result.stderr
    assert cfg.read_text() == "[pool]\nuid_domain = 'htc.test'\n" and not state.exists()


def test_condor_status_releases_slots_it_shows_unclaimed(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """A later dump is the truth for its slots: a claim on a now unclaimed slot goes."""
    claimed = {
        "Name": "slot1@m1",
        "Machine": "m1",
        "Cpus": 1,
        "State": "Claimed",
        "RemoteUser": "a@d",
        "JobId": "1.0",
        "JobStart": 1795250000,
    }
    cfg = write_config("[pool]\nuid_domain = 'd'\n")
    state = tmp_path / "s.json"
    args = ["--into", str(cfg), "--state", str(state), "--now", NOW]
    for ads in ([claimed], [{**claimed, "State": "Unclaimed"}]):
        (tmp_path / "st.json").write_text(json.dumps(ads))
        assert run("import", "condor-status", str(tmp_path / "st.json"), *args).exit_code == 0
        rows = json.loads(
            run(
                "userprio",
                "--allusers",
                "--json",
                "--config",
                str(cfg),
                "--state",
                str(state),
                "--now",
                NOW,
            ).stdout
        )
        in_use = {r["name"]: r["resources_in_use"] for r in rows if not r["is_group"]}
        claims = json.loads(state.read_text())["negotiator"]["claims"]
        assert in_use == {"a@d": len(claims)}
    assert claims == {}


@pytest.mark.parametrize(
    ("kind", "dump"),
    [
        ("condor-config", "condor_config"),
        ("condor-status", "condor_status.long.txt"),
        ("condor-q", "condor_q.json"),
        ("condor-userprio", "condor_userprio.long.txt"),
        ("condor-history", "condor_q.long.txt"),
    ],
)
def test_stdin_is_a_file_like_any_other(
    tmp_path: Path, run: Callable[..., Any], kind: str, dump: str
) -> None:
    """FILE ``-`` reads stdin; each import, and then every view, exits 0."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text("[pool]\nuid_domain = 'htc.test'\n[groups.group_ops]\nquota = 4\n")
    state = ["--state", str(tmp_path / "s.json"), "--now", "1795458333"]
    extra = ["--into", str(cfg)] if kind == "condor-config" else ["--config", str(cfg), *state]
    if kind == "condor-status":
        extra = ["--into", str(cfg), *state]
    text = (POOL / dump).read_text()
    if kind == "condor-history":  # (a history: the queue's running jobs completed, its idle
        text = text.replace("\nJobStatus = 2\n", "\nJobStatus = 4\n")  # ones removed)
        text = text.replace("\nJobStatus = 1\n", "\nJobStatus = 3\n")
    result = run("import", kind, "-", *extra, input=text)
    assert result.exit_code == 0, result.stderr
    for view in (["userprio"], ["quota"], ["negotiate", "--dry-run"], ["sprio"], ["sshare"]):
        out = run(*view, "--config", str(cfg), *state)
        assert out.exit_code == 0, (view, out.stderr)


def test_partitionable_slots_from_condor_status_long(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``condor_status -long``: a partitionable slot publishing ``TotalSlotCpus = 8`` and
    ``TotalSlotMemory = 16384`` (taken as its totals), 4 CPUs left, its ``Child*`` lists
    and ``NumDynamicSlots`` (about the split, not machine attributes), and one claimed
    4-CPU dynamic slot: one partitionable machine of 8 CPUs, one claim on slot1_1@m2
    holding 4 CPUs and 8192 MB."""
    dump = tmp_path / "status.long.txt"
    dump.write_text(
        'Name = "slot1@m2"\nMachine = "m2"\nSlotType = "Partitionable"\n'
        "PartitionableSlot = true\nCpus = 4\nMemory = 8192\nTotalSlotCpus = 8\n"
        'TotalSlotMemory = 16384\nNumDynamicSlots = 1\nChildCpus = { 4 }\nState = "Unclaimed"\n'
        'OpSys = "LINUX"\n\n'
        'Name = "slot1_1@m2"\nMachine = "m2"\nSlotType = "Dynamic"\nDynamicSlot = true\n'
        'Cpus = 4\nMemory = 8192\nState = "Claimed"\nRemoteUser = "a@d"\nJobId = "7.0"\n'
        'JobStart = 1795258000\nOpSys = "LINUX"\n'
    )
    cfg = write_config("[pool]\nuid_domain = 'd'\n")
    state = tmp_path / "s.json"
    args = ["--into", str(cfg), "--state", str(state), "--now", NOW]
    result = run("import", "condor-status", str(dump), *args)
    assert result.exit_code == 0, result.stderr
    assert "ignored" not in result.stderr
    assert 'attributes = {Cpus = 8, Memory = 16384, OpSys = "LINUX"}' in cfg.read_text()
    claims = json.loads(state.read_text())["negotiator"]["claims"]
    assert claims == {
        "slot1_1@m2": {
            "submitter": "a@d",
            "job_id": "7.0",
            "start_time": 1795258000.0,
            "weight": 1.0,
            "resources": {"Cpus": 4, "Memory": 8192},
        }
    }


# ------------------------------------------------------------- the tools' plain tables

CONDOR_Q_TABLE = """
-- Schedd: htc.test : <127.0.0.1:9618> @ 11/23/26 18:25:33
OWNER BATCH_NAME    SUBMITTED   DONE   RUN    IDLE  TOTAL JOB_IDS
ann   ID: 1      11/23 18:00      _      2      3      5 1.0-4
"""
CONDOR_STATUS_TABLE = """Name           OpSys      Arch   State     Activity LoadAv Mem   ActvtyTime

slot1@htc.test LINUX      X86_64 Claimed   Busy      0.000  512  0+00:00:03
"""
CONDOR_HISTORY_TABLE = """ ID     OWNER          SUBMITTED   RUN_TIME     ST  COMPLETED   CMD
   1.0   ann            11/23 18:00   0+00:05:00 C   11/23 18:05 /bin/sleep 300
"""


@pytest.mark.parametrize(
    ("kind", "content", "expected"),
    [
        pytest.param(
            "condor-q",
            CONDOR_Q_TABLE,
            ":3: expected 'Attr = value', got 'OWNER BATCH_NAME    SUBMITTED   DONE   R'; "
            "give condor_q -json or -long output",
            id="condor_q",
        ),
        pytest.param(
            "condor-status",
            CONDOR_STATUS_TABLE,
            ":1: expected 'Attr = value', got 'Name           OpSys      Arch   State  '; "
            "give condor_status -json or -long output",
            id="condor_status",
        ),
        pytest.param(
            "condor-userprio",
            POOL / "condor_userprio.txt",
            ":1: expected 'Attr = value', got 'Last Priority Update: 11/23 18:25'; "
            "give condor_userprio -l or -l -allusers output",
            id="condor_userprio",
        ),
    ],
)
def test_a_tools_plain_table_is_refused_naming_the_options_to_give(
    refuse_dump: Any, kind: str, content: str | Path, expected: str
) -> None:
    """fs import condor-q FILE of what plain condor_q prints (and the like for
    condor_status, condor_userprio, condor_history) said only "expected 'Attr = value'",
    not that the tool is to be run with -json or -long (-l)."""
    refuse_dump(kind, content, expected)


def test_condor_history_s_plain_table_is_refused_naming_the_options_to_give(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs import condor-history FILE of what plain condor_history prints."""
    from tests.cli.conftest import write_pool

    pool = write_pool(tmp_path)
    dump = tmp_path / "history.txt"
    dump.write_text(CONDOR_HISTORY_TABLE)
    line = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    result = run("import", "condor-history", str(dump), *line)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {dump}:1: expected 'Attr = value', got ' ID     OWNER          "
        "SUBMITTED   RUN_T'; give condor_history -json or -long output\n"
    )


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        pytest.param("condor-q", "expected a job ad with ClusterId and ProcId", id="condor-q"),
        pytest.param("condor-status", 'expected a slot ad with Name = "slotN@machine"', id="st"),
        pytest.param("condor-history", "expected a job ad (with Owner or User)", id="history"),
    ],
)
def test_the_negotiators_allusers_ad_names_its_import(
    tmp_path: Path, run: Callable[..., Any], kind: str, expected: str
) -> None:
    """fs import condor-q condor_userprio.long_allusers.txt (the negotiator's one ad, no
    MyType) said only "expected a job ad with ClusterId and ProcId", where plain -l output
    was named ("this is an accountant's ad: ... fs import condor-userprio")."""
    dump = POOL / "condor_userprio.long_allusers.txt"
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\ndefaults = "current"\n', encoding="utf-8")
    state = tmp_path / "state.json"
    result = run(
        "import", kind, str(dump), "--config", str(config), "--state", str(state), "--now", NOW
    )
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"fs: error: {dump}:1: {expected}; this is the negotiator's ad: condor_userprio -l "
        "-allusers output is read by fs import condor-userprio\n"
    )
    assert not state.exists()
