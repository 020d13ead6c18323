"""What fs writes it can always read, and nothing invalid gets in.

Each row is one input that once got in or broke a view. A refusal is exit 2 with one
``fs: error:`` line naming the input, and the state file byte-for-byte as it was; where
such an input once poisoned the state, every view is also run afterwards and must succeed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import CONFIG, STATE, VIEWS, common, refused, write_pool


def views_succeed(env: dict[str, Path], run: Callable[..., Any]) -> None:
    for view in VIEWS:
        result = run(*view, *common(env))
        assert result.exit_code == 0, (view, result.stderr)


# ------------------------------------------------------------------ fs submit --file / --set
SUBMIT_FILE_CASES: list[tuple[str, Any, str]] = [
    # (what it once did, the job object(s), the error names)
    ("poisoned: requirements ')'", {"requirements": ")"}, "requirements"),
    ("poisoned: broken rank", {"rank": "(("}, "rank"),
    ("poisoned: 50,000-term rank", {"rank": " + ".join(["1"] * 50_000)}, "rank"),
    ("poisoned: 200-operator rank", {"rank": " + ".join(["1"] * 200)}, "at most 150"),
    ("poisoned: accounting group", {"accounting_group": "group_zzz.alice"}, "group_zzz"),
    (
        "poisoned: dirac requirements",
        {"dirac_group": "lhcb_user", "dirac_requirements": {"sites": 5}},
        "dirac_requirements.sites",
    ),
    ("poisoned: no association", {"owner": "zed", "account": "hep"}, "no association"),
    ("negative request_cpus", {"request_cpus": -4}, "request_cpus"),
    ("negative request_memory", {"request_memory": -4}, "request_memory"),
    ("negative num_nodes", {"num_nodes": -4}, "num_nodes"),
    ("blank owner", {"owner": " "}, "owner"),
    ("control character owner", {"owner": "a\x01b"}, "owner"),
    ("a@b@c owner", {"owner": "a@b@c"}, "owner"),
    ("blank account", {"account": "h ep"}, "account"),
    ("impossible submit_time", {"submit_time": "2026-02-31T00:00:00Z"}, "calendar date"),
    ("two running on one slot", [{"status": "running", "slot": "s@x"}] * 2, "slot"),
]


@pytest.mark.parametrize(
    ("case", "job", "key"), SUBMIT_FILE_CASES, ids=[c[0] for c in SUBMIT_FILE_CASES]
)
@pytest.mark.parametrize("dry_run", [False, True])
def test_submit_file_refuses_what_a_view_would_refuse(
    case: str, job: Any, key: str, dry_run: bool, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    objs = [
        {"id": str(9 + i), "owner": "alice", **o}
        for i, o in enumerate(job if isinstance(job, list) else [job])
    ]
    path = env["dir"] / "new.json"
    path.write_text(json.dumps(objs))
    before = env["state"].read_bytes()
    extra = ["--dry-run"] if dry_run else []
    result = run("submit", "--file", str(path), *extra, *common(env))
    refused(result, str(path), key)
    assert result.stdout == ""
    assert env["state"].read_bytes() == before
    views_succeed(env, run)


def test_submit_time_limit_nan_is_bad_input_without_stdout(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """Once: "Submitted 1 job" on stdout, "cannot write state file" on stderr, exit 1."""
    path = env["dir"] / "new.json"
    path.write_text('[{"id": "9", "owner": "alice", "time_limit": NaN}]')
    before = env["state"].read_bytes()
    for extra in ([], ["--dry-run"]):
        result = run("submit", "--file", str(path), *extra, *common(env))
        refused(result, "time_limit")
        assert result.stdout == ""
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize(
    ("setting", "key"),
    [
        ("request_cpus=-4", "request_cpus"),
        ("request_memory=-1", "request_memory"),
        ("num_nodes=-8", "num_nodes"),
        ("submit_time=2026-02-31T00:00:00Z", "calendar date"),
        ("requirements=)", "requirements"),
        ('owner="a b"', "owner"),
    ],
)
def test_submit_set_refuses(
    setting: str, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    before = env["state"].read_bytes()
    refused(run("submit", "--owner", "alice", "--set", setting, *common(env)), key)
    assert env["state"].read_bytes() == before


# ------------------------------------------------------------------ times and names on the command line
@pytest.mark.parametrize(
    "args",
    [
        ["userprio", "--now", "2026-02-31T00:00:00Z"],
        ["sshare", "--now", "2025-02-29T00:00:00Z"],
        ["setbegin", "alice@example.org", "2026-02-31T00:00:00Z"],
        ["setlast", "alice@example.org", "2026-04-31T00:00:00Z"],
        ["setfactor", "a@b@c", "3"],
        ["setfactor", "a\x01b@example.org", "3"],
        ["setprio", "al ice", "3"],
        ["resetusage", "a@b@c"],
    ],
)
def test_command_line_refuses_bad_times_and_names(
    args: list[str], env: dict[str, Path], run: Callable[..., Any]
) -> None:
    before = env["state"].read_bytes()
    base = common(env)
    if "--now" in args:
        base = base[:-2]
    refused(run(*args, *base))
    assert env["state"].read_bytes() == before


def test_leap_day_is_a_real_date(env: dict[str, Path], run: Callable[..., Any]) -> None:
    assert run("userprio", *common(env)[:-2], "--now", "2024-02-29T00:00:00Z").exit_code == 0


# ------------------------------------------------------------------ usage records
S = '"start": "2026-11-21T10:00:00Z"'
SACCT = "JobID|User|Account|Start|End|AllocCPUS\n"
IMPORT_CASES: list[tuple[str, str, str, str]] = [
    # (kind, file name, content, the error names)
    ("history", "h.jsonl", '{"owner": "alice", ' + S + ', "slots": 1e30}\n', "slots"),
    ("history", "h.jsonl", '{"owner": "alice", ' + S + f', "slots": {2**64}}}\n', "64 bits"),
    ("history", "h.jsonl", '{"owner": "alice", ' + S + f', "cpus": {2**64}}}\n', "64 bits"),
    ("history", "h.jsonl", '{"owner": "alice", "start": "2026-02-31T10:00:00Z"}\n', "start"),
    ("history", "h.jsonl", '{"owner": "a@b@c", ' + S + "}\n", "owner"),
    ("history", "h.jsonl", '{"owner": " ", ' + S + "}\n", "owner"),
    ("history", "h.csv", "owner,start,account\nalice,2026-11-21T10:00:00Z,h\tep\n", "account"),
    ("sacct", "s.txt", SACCT + "7|alice|hep|2026-11-21T10:00:00|2026-11-21T09:00:00|4\n", "end"),
    ("sacct", "s.txt", SACCT + "7|alice|hep|2026-11-21T10:00:00|2026-11-21T11:00:00|-1\n", "-1"),
    (
        "sacct",
        "s.txt",
        SACCT + "7|alice|hep|2026-11-21T10:00:00|2026-11-21T11:00:00|" + "1" + "0" * 30 + "\n",
        "64 bits",
    ),
    ("sacct", "s.txt", SACCT + "7|alice|hep|2026-02-31T10:00:00|2026-11-21T11:00:00|4\n", "Start"),
    (
        "condor-history",
        "c.json",
        json.dumps([{"Owner": "alice", "JobStartDate": 1795250000, "RequestCpus": 10**30}]),
        "beyond a 64-bit integer, which HTCondor reads as 0",  # (-long's words, as -json's)
    ),
    (
        "condor-history",
        "c.json",
        json.dumps([{"Owner": "alice", "JobStartDate": "2026-02-31T00:00:00Z"}]),
        "calendar date",
    ),
]


@pytest.mark.parametrize(("kind", "name", "content", "key"), IMPORT_CASES)
def test_imports_refuse_bad_records(
    kind: str, name: str, content: str, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    path = env["dir"] / name
    path.write_text(content)
    before = env["state"].read_bytes()
    refused(run("import", kind, str(path), *common(env)), str(path), key)
    assert env["state"].read_bytes() == before
    views_succeed(env, run)


def test_import_history_parses_the_config_expressions(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``slot_weight = "\\u0000"`` once reached ``fs import history`` unchecked."""
    env["config"].write_text(
        CONFIG.replace("[pool]", '[negotiator]\nslot_weight = "\\u0000"\n[pool]')
    )
    path = env["dir"] / "h.jsonl"
    path.write_text('{"owner": "alice", ' + S + "}\n")
    before = env["state"].read_bytes()
    refused(run("import", "history", str(path), *common(env)), "slot_weight")
    assert env["state"].read_bytes() == before


# ------------------------------------------------------------------ configs
CONFIG_CASES = [
    ("job_share = 1000", f"job_share = {2**70}", "job_share"),
    ("Cpus = 1,", "Cpus = -4,", "attributes.Cpus"),
    ("Memory = 4096", "Memory = -1", "attributes.Memory"),
    (
        "[pool]",
        '[negotiator]\npreemption_rank = "' + " + ".join(["1"] * 50_000) + '"\n[pool]',
        "preemption_rank",
    ),
    ("[pool]", '[negotiator]\nslot_weight = "' + "(" * 200 + "1" + ")" * 200 + '"\n[pool]', "150"),
    ("users = { alice = 1, bob = 1 }", 'users = { "a@b@c" = 1 }', "accounts.hep.users"),
    ("users = { alice = 1, bob = 1 }", 'users = { " " = 1 }', "accounts.hep.users"),
    ('[groups."group_a"]', '[groups."group\\u0001a"]', "groups"),
    ("[qos.normal]", '[qos."no rmal"]', "qos"),
    # (a blank inside a DIRAC group is taken, as DIRAC's configuration holds it; not at an end)
    ("[dirac.groups.lhcb_user]", '[dirac.groups."lhcb_user "]', "dirac.groups"),
]


@pytest.mark.parametrize(("old", "new", "key"), CONFIG_CASES)
def test_config_refused_at_load_by_every_command(
    old: str, new: str, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    assert old in CONFIG
    env["config"].write_text(CONFIG.replace(old, new, 1))
    path = str(env["config"])
    refused(run("config", "check", "--config", path), path, key)
    before = env["state"].read_bytes()
    for view in (["taskqueues"], ["sshare"], ["setfactor", "alice", "2"]):
        refused(run(*view, *common(env)), path, key)
    assert env["state"].read_bytes() == before


# ------------------------------------------------------------------ states
TEXT = json.dumps(STATE)
RECORD = {"alice@example.org": {"priority": 0.5, "last_update": 1795258800.0}}
STATE_CASES: list[tuple[dict[str, Any], str, str]] = [
    (
        {"accountant": {"records": {"alice@example.org": {"priority_factor": -5}}}},
        "userprio",
        "priority_factor",
    ),
    (
        {"accountant": {"records": {"alice@example.org": {"priority_factor": 0.5}}}},
        "quota",
        "priority_factor",
    ),
    (
        {"accountant": {"records": {"alice@example.org": {"accumulated_usage": -5}}}},
        "userprio",
        "accumulated_usage",
    ),
    (
        {"accountant": {"records": {"alice@example.org": {"acumulated_usage": 5}}}},
        "userprio",
        "acumulated_usage",
    ),
    ({"accountant": {"zzz": 1}}, "userprio", "zzz"),
    ({"negotiator": {"last_cycle": 2**63 - 1}}, "negotiate", "negotiator.last_cycle"),
    ({"slurm": {"last_decay_ran": 1e300}}, "sshare", "last_decay_ran"),
    ({"slurm": {"usage": {"hep": {"alice": -3600.0}}}}, "sshare", "slurm.usage.hep.alice"),
    ({"slurm": {"usage": {"hep": {"alice": -1}}}}, "sprio", "slurm.usage.hep.alice"),
    ({"accountant": {"records": {}, "recrods": RECORD}}, "setfactor", "recrods"),
    ({"negotiator": {"claimz": {}}}, "negotiate", "claimz"),
    ({"slurm": {"usage": {}, "foreign": [1]}}, "sshare", "foreign"),
    ({"jobs": STATE["jobs"] * 2}, "userprio", "job 1 is given twice"),
    (
        {
            "jobs": [
                {"id": "1", "owner": "alice", "status": "running", "slot": "slot1@exec001"},
                {"id": "2", "owner": "alice", "status": "running", "slot": "slot1@exec001"},
            ]
        },
        "negotiate",
        "slot1@exec001",
    ),
    (
        {
            "jobs": [
                {"id": "1", "owner": "alice", "status": "running", "slot": "slot1@exec001"},
                {"id": "2", "owner": "alice", "status": "running", "slot": "slot1@exec001"},
            ]
        },
        "sprio",
        "slot1@exec001",
    ),
]


@pytest.mark.parametrize(("sections", "command", "key"), STATE_CASES)
def test_bad_states_refused_on_load(
    sections: dict[str, Any],
    command: str,
    key: str,
    env: dict[str, Path],
    run: Callable[..., Any],
) -> None:
    env["state"].write_text(json.dumps({**STATE, **sections}))
    before = env["state"].read_bytes()
    args = ["alice", "2"] if command == "setfactor" else []
    extra = ["--dry-run"] if command == "negotiate" else []
    refused(run(command, *args, *extra, *common(env)), str(env["state"]), key)
    assert env["state"].read_bytes() == before


# ------------------------------------------------------------------ taskqueues' own reader
TASKQUEUE_CASES = [
    ('[{"id": "9", "owner": "alice", "count": "10"}]', "count"),
    ('[{"id": "9", "owner": "alice", "dirac_group": "lhcb_user", "count": "10"}]', "count"),
    ('[{"id": "9", "owner": "alice", "dirac_group": "lhcb_user", "user_priority": NaN}]', "NaN"),
    ('[{"id": "9", "owner": " ", "dirac_group": "lhcb_user"}]', "owner"),
    (
        '[{"id": "9", "owner": "a", "count": 3}, {"id": "9.1", "owner": "a"}]',
        "job 9.1 is given twice",
    ),
]


@pytest.mark.parametrize(("content", "key"), TASKQUEUE_CASES)
def test_taskqueues_reader_refuses(
    content: str, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    path = env["dir"] / "jobs.json"
    path.write_text(content)
    refused(run("taskqueues", *common(env), "--jobs-file", str(path)), str(path), key)


def test_edits_keep_the_state_readable(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """A write refused by the state check says so and writes nothing (exit 2)."""
    assert run("setfactor", "alice@example.org", "3", *common(env)).exit_code == 0
    views_succeed(env, run)


@pytest.mark.parametrize(
    "args",
    [
        ["import", "history", "{hist}"],
        ["setfactor", "alice", "2"],
        ["submit", "--owner", "alice"],
        ["rm", "1"],
    ],
)
def test_foreign_section_content_is_never_dropped_by_a_write(
    args: list[str], env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """Once read as empty and silently dropped on the next write."""
    env["state"].write_text(json.dumps({**STATE, "accountant": {"records": {}, "zzz": 1}}))
    hist = env["dir"] / "h.jsonl"
    hist.write_text('{"owner": "alice", ' + S + "}\n")
    before = env["state"].read_bytes()
    result = run(*[a.format(hist=hist) for a in args], *common(env))
    refused(result, str(env["state"]), "accountant: unknown key 'zzz'")
    assert env["state"].read_bytes() == before


# ------------------------------------------------------------------ the hang
@pytest.mark.parametrize("command", [["config", "check"], ["quota"], ["resetusage", "--all"]])
def test_an_account_chain_5000_deep_is_linear(
    tmp_path: Path, run: Callable[..., Any], command: list[str]
) -> None:
    """A chain 2,000 deep once took 10 s in ``fs config check`` and 5,000 deep over
    20 s (``quota`` and ``resetusage`` too). A chain 5,000 deep is read whole by each of
    them. Its cost is measured, not asserted here: ``benchmarks/run.py --rows chain`` times
    ``fs config check`` at 1,000, 10,000 and 20,000 accounts (growth per doubling ~2)."""
    n = 5_000
    parts = ['[pool]\ndefaults = "current"\n[accounts.a0]\nshares = 1\nusers = { alice = 1 }\n']
    parts += [f'[accounts.a{i}]\nparent = "a{i - 1}"\nshares = 1\n' for i in range(1, n)]
    cfg = tmp_path / "chain.toml"
    cfg.write_text("".join(parts))
    args = ["--config", str(cfg)]
    if command[0] != "config":
        args += ["--state", str(tmp_path / "s.json"), "--now", "2026-11-21T12:00:00Z"]
    else:
        args += ["--json"]
    res = run(*command, *args)
    assert res.exit_code == 0, res.stderr
    if command[0] == "config":
        assert f'"a{n - 1}"' in res.stdout  # the deepest account made it into the tree


# ------------------------------------------------------------------ ids of non-ASCII digits
def test_ids_of_other_digits_are_names_not_numbers(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``"²"`` passes ``str.isdigit`` but not ``int``: such ids once crashed ``fs negotiate``
    (a ValueError from the job-id sort). They are names like any other: every view reads
    them, and sprio lists them after the numbered jobs (sorted as non-numeric ids)."""
    jobs = [
        {"id": i, "owner": "alice", "account": "hep", "submit_time": 1795258800.0}
        for i in ("²", "5.²", "٣", "7")
    ]
    env = write_pool(tmp_path, state=json.dumps({**STATE, "jobs": jobs}))
    views_succeed(env, run)
    result = run("sprio", "-o", "%i", "-h", *common(env))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split() == ["7", "5.²", "²", "٣"]


def test_an_accountant_time_past_the_year_9999_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A hand-edited ``last_usage_time`` of 4e11 (the year 14645) once crashed
    ``fs userprio --json`` (no ISO date for it); the state check now refuses it, as every
    other time fs reads."""
    record = {"priority": 0.5, "last_usage_time": 4e11}
    state = {**STATE, "accountant": {"records": {"alice@example.org": record}}}
    env = write_pool(tmp_path, state=json.dumps(state))
    before = env["state"].read_bytes()
    for args in (["userprio", "--json"], ["userprio", "-l"]):
        refused(run(*args, *common(env)), "last_usage_time", "between the years 1 and 9999")
    assert env["state"].read_bytes() == before


def test_names_that_look_like_rich_markup_print_as_they_are(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``a[/]b`` is a good name (printable, no blanks) that Rich read as a closing tag and
    crashed ``fs negotiate`` on (MarkupError); ``[bold]z`` lost its brackets and
    ``x:smile:y`` became an emoji. Table cells are text, never markup."""
    names = ("a[/]b", "x:smile:y", "[bold]z")
    jobs = [{"id": f"{n + 1}.0", "owner": owner} for n, owner in enumerate(names)]
    jobs_file = env["dir"] / "jobs.json"
    jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
    for extra in ([], ["--wide"]):
        result = run("negotiate", "--dry-run", "--jobs-file", str(jobs_file), *extra, *common(env))
        assert result.exit_code == 0, result.stderr
        for owner in names:
            assert f"{owner}@example.org" in result.stdout
