"""Bad input, found by a hostile pass over every command: one line, exit 2, state untouched.

Each table row is a class of input that once ended in a traceback (or a wrong exit code).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import CONFIG, NOW, STATE, common, refused

# ------------------------------------------------------------------------------ config
CONFIG_CASES = [
    # (replace this, with that, the error names)
    ("Cpus = 1,", "Cpus = nan,", "machines[0].attributes.Cpus"),
    ("Cpus = 1,", "Cpus = inf,", "machines[0].attributes.Cpus"),
    ("Cpus = 1,", "Cpus = -inf,", "machines[0].attributes.Cpus"),
    ("Cpus = 1,", "Cpus = 99999999999999999999,", "machines[0].attributes.Cpus"),
    # finite, but the pool's CPUs (count x slots x Cpus) overflowed in fs sprio and sshare
    ("Cpus = 1,", "Cpus = 1e308,", "machines[0].attributes.Cpus"),
    ("count = 2", "count = 100000000", "machines[0]"),
    ("slots = 2", "slots = 99999999999", "machines[0].slots"),
    (
        "[partitions.batch]",
        "[priority]\ndecay_halflife = 0.001\n[partitions.batch]",
        "decay_halflife",
    ),
    (
        "[partitions.batch]",
        '[priority]\ncalc_period = "INFINITE"\n[partitions.batch]',
        "calc_period",
    ),
]


@pytest.mark.parametrize(("old", "new", "key"), CONFIG_CASES)
def test_bad_config_values(
    old: str, new: str, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    assert old in CONFIG
    env["config"].write_text(CONFIG.replace(old, new, 1))
    refused(run("config", "check", "--config", str(env["config"])), str(env["config"]), key)
    before = env["state"].read_bytes()
    refused(run("sshare", *common(env)), key)
    assert env["state"].read_bytes() == before


def test_config_not_utf8(env: dict[str, Path], run: Callable[..., Any]) -> None:
    env["config"].write_bytes(b'[pool]\nname = "caf\xe9"\n')
    refused(run("config", "check", "--config", str(env["config"])), str(env["config"]), "UTF-8")


@pytest.mark.parametrize("text", ["", "\n  \n", "\ufeff"])
@pytest.mark.parametrize("line", [["config", "check"], ["userprio"], ["sshare"]])
def test_an_empty_config_is_refused(
    text: str, line: list[str], env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs userprio --config pool.toml`` of an empty (or blank) file ran on every default
    as a pool of no machine, exit 0: an empty file is a config truncated or never written.
    """
    env["config"].write_text(text, encoding="utf-8")
    before = env["state"].read_bytes()
    given = ["--config", str(env["config"])] if line[0] == "config" else common(env)
    refused(
        run(*line, *given),
        f"config file {env['config']} is empty; 'fs init --force {env['config']}' writes one",
    )
    assert env["state"].read_bytes() == before


def test_an_empty_sweep_spec_is_refused(env: dict[str, Path], run: Callable[..., Any]) -> None:
    spec = env["dir"] / "spec.toml"
    spec.write_text("")
    refused(run("sweep", "run", str(spec), "--out", str(env["dir"] / "out")), "is empty")


# ------------------------------------------------------------------------------ state
TEXT = json.dumps(STATE)
BIG = int("9" * 400)
CLAIM = {"submitter": "alice@example.org", "start_time": 1795258800.0}


def _record(body: dict[str, Any]) -> str:
    """The state with one accountant record, ``a@example.org``, holding ``body``."""
    return json.dumps({**STATE, "accountant": {"records": {"a@example.org": body}}})


STATE_CASES = [
    # (state file text, command, the error names)
    (TEXT[:-1] + ', "negotiator": {"last_cycle": NaN}}', "userprio", "NaN"),
    (TEXT[:-1] + ', "slurm": {"last_decay_ran": Infinity}}', "sshare", "Infinity"),
    (TEXT[:-1] + ', "slurm": {"last_decay_ran": 1e999}}', "sshare", "1e999"),
    # (these three said 'is not valid JSON (line ?)')
    (
        TEXT[:-1] + ', "slurm": {"last_decay_ran": ' + "9" * 5000 + "}}",
        "sshare",
        "is not valid JSON (a whole number too long)",
    ),
    ("[" * 100000 + "]" * 100000, "userprio", "is not valid JSON (nested too deep)"),
    (TEXT[:-1] + ', "x": "\udcff"}', "setfactor", "is not UTF-8 text (byte "),
    (json.dumps({**STATE, "jobs": 5}), "userprio", "jobs: expected a list"),
    (json.dumps({**STATE, "jobs": 5}), "sprio", "jobs: expected a list"),
    (json.dumps({**STATE, "jobs": {"1": {}}}), "negotiate", "jobs: expected a list"),
    (
        json.dumps({**STATE, "jobs": [{"id": "1", "owner": "a", "request_cpus": 1e300}]}),
        "negotiate",
        "request_cpus",
    ),
    (
        json.dumps({**STATE, "jobs": [{"id": "1", "owner": "a", "job_prio": 10**30}]}),
        "negotiate",
        "job_prio",
    ),
    (
        json.dumps({**STATE, "jobs": [{"id": "1", "owner": "a", "submit_time": 1e300}]}),
        "negotiate",
        "submit_time",
    ),
    (
        json.dumps(
            {**STATE, "jobs": [{"id": "1", "owner": "a", "account": "hep", "submit_time": 1e300}]}
        ),
        "sprio",
        "submit_time",
    ),
    (
        json.dumps(
            {
                **STATE,
                "negotiator": {
                    "claims": {
                        "slot1@exec001": {
                            "job_id": "1",
                            "submitter": "alice@example.org",
                            "start_time": 1e300,
                        }
                    }
                },
            }
        ),
        "userprio",
        "negotiator.claims.slot1@exec001.start_time",
    ),
    (
        json.dumps(
            {
                **STATE,
                "jobs": [{"id": "1", "owner": "alice", "status": "running"}],
                "negotiator": {
                    "claims": {
                        "slot1@exec001": {
                            "job_id": "1",
                            "submitter": "alice@example.org",
                            "start_time": 0,
                            "weight": -4,
                        }
                    }
                },
            }
        ),
        "negotiate",
        "negotiator.claims.slot1@exec001.weight",
    ),
    (
        json.dumps({**STATE, "negotiator": {"rr_times": {"group_a": -1e300}}}),
        "quota",
        "negotiator.rr_times",
    ),
    (
        json.dumps({**STATE, "slurm": {"usage": {"hep": {"alice": 1e308}}}}),
        "sshare",
        "slurm.usage.hep.alice",
    ),
    (json.dumps({**STATE, "slurm": "x"}), "simulate", "slurm"),
    (json.dumps({**STATE, "slurm": {"usage": {"hep": 5}}}), "simulate", "slurm.usage.hep"),
    # a lone surrogate ("\udcff", valid JSON) or a whole number beyond any float in a
    # record: a traceback (UnicodeEncodeError, OverflowError), and for a claim's job id a
    # segmentation fault in classad2 (exit 139, no message)
    (_record({"accumulated_usage": "\udcff"}), "userprio", "a@example.org.accumulated_usage"),
    (_record({"accumulated_usage": BIG}), "userprio", "a@example.org.accumulated_usage"),
    (_record({"last_update": BIG}), "userprio", "a@example.org.last_update"),
    (_record({"resources_used": BIG}), "simulate", "a@example.org.resources_used"),
    (
        json.dumps(
            {**STATE, "negotiator": {"claims": {"slot1@exec1": {**CLAIM, "job_id": "\udcff"}}}}
        ),
        "negotiate",
        "negotiator.claims.slot1@exec1.job_id: expected Unicode text",
    ),
    # a record named with a lone surrogate: fs userprio crashed printing it (a
    # UnicodeEncodeError traceback), fs negotiate said it could not write the state (exit 1)
    *[
        (
            json.dumps({**STATE, "accountant": {"records": {"a\ud800@example.org": {}}}}),
            command,
            "accountant.records.a\\ud800@example.org: expected a name of Unicode text",
        )
        for command in ("userprio", "negotiate", "whatif")
    ],
    # a terminal escape in a record's name or a claim's submitter (a hand-edited state: every
    # door refuses such names): fs negotiate --dry-run printed the claim's submitter raw,
    # clearing the terminal ("\x1b[2J"); refused as a job's owner is
    *[
        (
            json.dumps({**STATE, "accountant": {"records": {"\x1b[2Ja@example.org": {}}}}),
            command,
            "accountant.records: expected a name without blanks or control characters, got "
            "'\\x1b[2Ja@example.org'",
        )
        for command in ("userprio", "negotiate")
    ],
    (
        json.dumps(
            {
                **STATE,
                "negotiator": {
                    "claims": {"slot1@exec1": {**CLAIM, "job_id": "1.0", "submitter": "a\tb"}}
                },
            }
        ),
        "negotiate",
        "negotiator.claims.slot1@exec1.submitter: expected a name without blanks or control "
        "characters, got 'a\\tb'",
    ),
]


@pytest.mark.parametrize(("text", "command", "key"), STATE_CASES)
def test_bad_state_is_refused_and_untouched(
    text: str, command: str, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    env["state"].write_text(text, encoding="utf-8", errors="surrogateescape")  # ("\udcff": 0xff)
    before = env["state"].read_bytes()
    line = {
        "simulate": ["simulate", *common(env), "--until", "1:00:00", "--cycle", "1800"],
        "whatif": [
            "whatif",
            "--set",
            "accountant.priority_halflife=3600",
            "userprio",
            *common(env),
        ],
        "setfactor": ["setfactor", "alice", "2", "--create", *common(env)],
    }.get(command, [command, *common(env)])
    refused(run(*line), str(env["state"]), key)
    assert env["state"].read_bytes() == before


def test_marks_beyond_sqlite_ids_are_refused(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """``fs whatif --set accountant.priority_halflife=3600 userprio`` on a state whose
    usage-history marks pass SQLite's 64-bit ids: one line (was an OverflowError traceback
    from the query)."""
    env["state"].write_text(json.dumps({**STATE, "usage_history": {"records": 0, "ends": 2**70}}))
    before = env["state"].read_bytes()
    line = ["whatif", "--set", "accountant.priority_halflife=3600", "userprio", *common(env)]
    refused(run(*line), 'state section "usage_history": expected {"records": N, "ends": N}')
    assert env["state"].read_bytes() == before


def test_state_below_a_plain_file_is_bad_input(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    blocker = env["dir"] / "not-a-folder"
    blocker.write_text("x")
    args = ["--config", str(env["config"]), "--state", str(blocker / "state.json"), "--now", NOW]
    refused(run("setfactor", "alice", "3", *args), f"{blocker} is a file, not a folder", code=2)
    assert blocker.read_text() == "x"


# ------------------------------------------------------------------------------ jobs files
JOBS_CASES: list[tuple[str | bytes, str]] = [
    (json.dumps([{"id": "1", "owner": "a", "request_cpus": 10**30}]), "request_cpus"),
    (json.dumps([{"id": "1", "owner": "a", "request_memory": 1e300}]), "request_memory"),
    (json.dumps([{"id": "1", "owner": "a", "submit_time": 1e300}]), "submit_time"),
    (json.dumps([{"id": "1", "owner": "a", "submit_time": "-1e300"}]), "submit_time"),
    ('[{"id": "1", "owner": "a", "job_prio": ' + "9" * 5000 + "}]", "JSON"),
    ("[" * 100000 + "]" * 100000, "JSON"),
    (b'[{"id": "1", "owner": "caf\xe9"}]', "UTF-8"),
]


@pytest.mark.parametrize("command", ["negotiate", "sprio", "taskqueues", "quota"])
@pytest.mark.parametrize(("content", "key"), JOBS_CASES)
def test_bad_jobs_file(
    content: str | bytes, key: str, command: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    jobs = env["dir"] / "jobs.json"
    if isinstance(content, bytes):
        jobs.write_bytes(content)
    else:
        jobs.write_text(content)
    extra = ["--dry-run"] if command == "negotiate" else []
    result = run(command, *common(env), *extra, "--jobs-file", str(jobs))
    lenient = (command == "sprio" and key.startswith("request_")) or (
        command == "taskqueues" and key not in ("JSON", "UTF-8")  # only DIRAC jobs are read
    )
    if lenient:
        assert result.exit_code in (0, 2), result.stderr
        assert "Traceback" not in result.stderr
        return
    refused(result, str(jobs), key)


# ------------------------------------------------------------------------------ history
HISTORY_CASES: list[tuple[str, str | bytes, str]] = [
    ("h.csv", "owner,start,nice_user\nalice,2026-11-21T10:00:00Z,maybe\n", "nice_user"),
    ("h.jsonl", '{"owner": {"a": 1}, "start": "2026-11-21T10:00:00Z"}\n', "owner"),
    ("h.jsonl", '{"owner": "a", "start": "2026-11-21T10:00:00Z", "account": ["x"]}\n', "account"),
    (
        "h.jsonl",
        '{"owner": "a", "start": "2026-11-21T10:00:00Z", "slots": ' + "9" * 5000 + "}\n",
        ":1:",
    ),
    ("h.jsonl", '{"owner": "a", "start": ' + "[" * 50000 + "]" * 50000 + "}\n", ":1:"),
    ("h.csv", b"owner,start\nal\xffice,2026-11-21T10:00:00Z\n", "UTF-8"),
    ("h.csv", "owner,start\nalice,-1e300\n", "start"),
    # a header of another file and no row: was "Imported 0 usage records", exit 0
    ("h.csv", "garbage here\n", ":1: unknown usage history field 'garbage here'"),
    ("h", "JobID|User|Account\n", ":1: this is sacct output, which fs import sacct charges"),
    # a slurm.conf: the header's first field, where the message named the one that sorts
    # first (' Debian bookworm)': a blank sorts before '#'), as if the line had that field
    (
        "slurm.conf",
        '# slurm.conf for "oracle" (Slurm 22.05.8, Debian bookworm)\nClusterName=oracle\n',
        """:1: unknown usage history field '# slurm.conf for "oracle" (Slurm 22.05.8'""",
    ),
]


@pytest.mark.parametrize(("name", "content", "key"), HISTORY_CASES)
def test_bad_history(
    name: str, content: str | bytes, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    path = env["dir"] / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    before = env["state"].read_bytes()
    refused(run("import", "history", str(path), *common(env)), str(path), key)
    assert env["state"].read_bytes() == before


DUMP_CASES: list[tuple[str, str | bytes, str]] = [
    ("sacct", b"JobID|User|Account|Start|End|AllocCPUS\n7|\xff|hep|x|y|1\n", "UTF-8"),
    ("condor-history", b'[{"Owner": "caf\xe9"}]', "UTF-8"),
    # an integer beyond 64 bits, which HTCondor's ClassAd lexer reads as 0
    (
        "condor-history",
        '[{"Owner": "a", "JobStartDate": ' + "9" * 5000 + "}]",
        ":1: 999999999999... (5000 characters): beyond a 64-bit integer",
    ),
    ("condor-history", "[" * 100000 + "]" * 100000, "JSON"),
    # NaN or 1e400 for a whole-number attribute: "cannot convert float NaN to integer"; NaN
    # and 1e400 are no JSON HTCondor writes: refused where they stand
    ("condor-q", '[{"ClusterId": 1, "ProcId": 0, "Owner": "a", "JobPrio": NaN}]', ":1: NaN: "),
    (
        "condor-q",
        '[{"ClusterId": 1, "ProcId": 0, "Owner": "a", "RequestCpus": 1e400}]',
        ":1: 1e400: beyond a double, which HTCondor reads as infinite",
    ),
    # an escaped lone surrogate: a traceback printing the machines on a strict UTF-8 stdout
    (
        "condor-status",
        '[{"MyType": "Machine", "Name": "slot1@m", "Machine": "m", "Cpus": 1, "Arch": "\\udcff"}]',
        "dump.txt:1: binary data",
    ),
    # a time beyond any float: an OverflowError converting it
    (
        "squeue",
        '{"jobs": [{"job_id": 7, "job_state": ["PENDING"], "user_name": "alice", "account": '
        '"hep", "partition": "batch", "accrue_time": {"set": true, "number": ' + "9" * 400 + "}}]}",
        "jobs[0]: accrue_time",
    ),
    # sshare --json usage: NaN, an infinity or 400 digits reached int() or float(); NaN and
    # 1e400 are no JSON Slurm writes: refused where they stand
    ("sshare", '{"shares": {"shares": [{"name": "hep", "usage": NaN}]}}', ":1: NaN: expected a"),
    ("sshare", '{"shares": {"shares": [{"name": "hep", "usage": 1e400}]}}', ":1: 1e400: "),
    ("sshare", '{"shares": {"shares": [{"name": "hep", "usage": ' + "9" * 400 + "}]}}", "usage: "),
]


@pytest.mark.parametrize(("kind", "content", "key"), DUMP_CASES)
def test_bad_dumps(
    kind: str, content: str | bytes, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    path = env["dir"] / "dump.txt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    before = env["state"].read_bytes()
    refused(run("import", kind, str(path), *common(env)), str(path), key)
    assert env["state"].read_bytes() == before


# ------------------------------------------------------------------------------ usage, submit
USAGE_CASES = [
    ["negotiate", "--bogus"],
    ["import", "history"],
    ["sprio", "--output", "xml"],
    ["negotiate", "--dry-run", "--jobs-file", "."],
    ["submit", "--count", "0"],
]


@pytest.mark.parametrize("args", USAGE_CASES)
def test_bad_usage_is_one_line(
    args: list[str], env: dict[str, Path], run: Callable[..., Any]
) -> None:
    before = env["state"].read_bytes()
    refused(run(*args, *common(env)), "--help")
    assert env["state"].read_bytes() == before


SUBMIT_CASES: list[tuple[list[str], str | bytes | None, str]] = [
    (["--file", "{jobs}"], b'[{"id": "9", "owner": "caf\xe9"}]', "UTF-8"),
    (["--file", "{jobs}"], '[{"id": "9", "owner": "a", "nice": ' + "9" * 5000 + "}]", "JSON"),
    (["--file", "{jobs}"], "[" * 100000 + "]" * 100000, "JSON"),
    (["--owner", "a", "--set", "nice=" + "9" * 5000], None, "nice"),
    (["--owner", "a", "--set", "submit_time=1e300"], None, "submit_time"),
]


@pytest.mark.parametrize(("args", "content", "key"), SUBMIT_CASES)
def test_bad_submit(
    args: list[str],
    content: str | bytes | None,
    key: str,
    env: dict[str, Path],
    run: Callable[..., Any],
) -> None:
    jobs = env["dir"] / "new.json"
    if isinstance(content, bytes):
        jobs.write_bytes(content)
    elif content is not None:
        jobs.write_text(content)
    before = env["state"].read_bytes()
    refused(run("submit", *[a.format(jobs=jobs) for a in args], *common(env)), key)
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize(
    ("content", "key"),
    [
        ("owner,start,qos\nalice,2026-11-21T10:00:00Z,nosuch\n", ':2: unknown QOS "nosuch"'),
        ("owner,start\nalice,2027-11-21T10:00:00Z\n", ":2: starts after --now"),
        # in one batch: the first refusal in record order wins, whichever model or the
        # reader makes it (records are charged a batch at a time, refusals record by record)
        (
            "owner,start,qos\nalice,2026-11-21T10:00:00Z,\nalice,2026-11-21T10:00:01Z,nosuch\n"
            "alice,2027-11-21T10:00:00Z,\nalice,2026-11-21T10:00:01Z,,x\n",
            ':3: unknown QOS "nosuch"',
        ),
        (
            "owner,start,qos\nalice,2026-11-21T10:00:00Z,\nalice,2027-11-21T10:00:00Z,\n"
            "alice,2026-11-21T10:00:01Z,nosuch\n",
            ":3: starts after --now",
        ),
        (
            "owner,start,qos\nalice,2026-11-21T10:00:00Z,\nalice,2026-11-21T10:00:01Z,,x\n"
            "alice,2026-11-21T10:00:01Z,nosuch\n",
            ":3: more values than header columns",
        ),
    ],
)
def test_history_refused_by_a_model_names_the_file(
    content: str, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    path = env["dir"] / "h.csv"
    path.write_text(content)
    before = env["state"].read_bytes()
    sep = "" if key.startswith(":") else ": "  # the reader's "FILE:N", a model's
    refused(run("import", "history", str(path), *common(env)), f"{path}{sep}{key}")
    assert env["state"].read_bytes() == before


# ------------------------------------------------------------------------------ options
OPTION_CASES: list[tuple[list[str], str]] = [
    (["whatif", "--set", "machines.0=5", "userprio"], "machines.0"),
    (["sshare", "-o", "Account%99999999999"], "too large"),
    (["sprio", "-o", "%.99999999999i"], "too large"),
    (["negotiate", "--dry-run", "--jobs-file", "{jobs}"], "count"),
    (["sprio", "--jobs-file", "{jobs}"], "count"),
]


@pytest.mark.parametrize(("args", "key"), OPTION_CASES)
def test_bad_option_values(
    args: list[str], key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    jobs = env["dir"] / "jobs.json"
    jobs.write_text(json.dumps([{"id": "1", "owner": "a", "count": 10**12}]))
    before = env["state"].read_bytes()
    refused(run(*[a.format(jobs=jobs) for a in args], *common(env)), key)
    assert env["state"].read_bytes() == before


def test_whatif_value_too_big_for_toml_is_a_string(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    # read as the text of 5000 digits (not a TOML number), then refused as too long a name
    result = run("whatif", "--set", "pool.name=" + "9" * 5000, "userprio", *common(env))
    refused(result, "--set: pool.name: expected a name of at most", "got 5000")


@pytest.mark.parametrize(
    "text",
    ["x = " + "9" * 5000 + "\n", "x = " + "[" * 5000 + "]" * 5000 + "\n"],
)
def test_config_too_big_for_toml(text: str, env: dict[str, Path], run: Callable[..., Any]) -> None:
    env["config"].write_text(text)
    refused(run("config", "check", "--config", str(env["config"])), "not valid TOML")


@pytest.mark.parametrize("spec", ["%z", "%z%Z", "%."])
def test_sprio_format_without_valid_fields(
    spec: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    result = run("sprio", "-o", spec, *common(env))
    refused(result, "Invalid job format specification", "(-o has no valid field)")
    assert result.stdout == ""


def test_sprio_format_with_a_valid_field_warns(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """An invalid letter beside a valid one is skipped with sprio's message, as sprio does."""
    result = run("sprio", "-o", "%z%q", *common(env))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == "fs: error: Invalid job format specification: z\n"


def test_resetusage_of_an_unknown_name_creates_its_record(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    refused(run("resetusage", "zed@example.org", *common(env)), "pass --create")
    result = run("resetusage", "zed@example.org", "--create", *common(env))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith("(new record)\n")
    records = json.loads(env["state"].read_text())["accountant"]["records"]
    assert records["zed@example.org"]["accumulated_usage"] == 0.0
    assert records["zed@example.org"]["begin_usage_time"] == 1795262400.0


def test_history_on_stdin_that_is_not_text(env: dict[str, Path], run: Callable[..., Any]) -> None:
    from click.testing import CliRunner

    from fairshare_cli.cli.main import cli

    before = env["state"].read_bytes()
    result = CliRunner().invoke(
        cli, ["import", "history", "-", *common(env)], input=b"\xff\xfe\x00\x01\n"
    )
    refused(result, "-: not UTF-8")
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize("field", ["time_limit", "run_time"])
def test_infinite_durations_round_trip_through_the_state(
    field: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    result = run("submit", "--owner", "alice", "--set", f"{field}=INFINITE", *common(env))
    assert result.exit_code == 0, result.stderr
    stored = json.loads(env["state"].read_text())["jobs"][-1]
    assert stored[field] == "INFINITE"
    assert run("prio", stored["id"], "3", *common(env)).exit_code == 0


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (["prio", "1", "99999999999999999999999"], "64 bits"),
        (["setfactor", "", "3"], "NAME"),
        (["setprio", "@example.org", "3"], "NAME"),
        (["delete", " "], "NAME"),
    ],
)
def test_edits_refuse_values_the_state_could_not_hold(
    args: list[str], key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    before = env["state"].read_bytes()
    refused(run(*args, *common(env)), key)
    assert env["state"].read_bytes() == before
    assert run("userprio", *common(env)).exit_code == 0


@pytest.mark.parametrize(
    ("section", "line", "key"),
    [
        ("[pool]", '[negotiator]\npreemption_requirements = "((("', "preemption_requirements"),
        ("[pool]", '[negotiator]\nslot_weight = "Cpus +"', "[negotiator] slot_weight"),
        ("[pool]", '[negotiator]\ngroup_sort_expr = "!!"', "[negotiator] group_sort_expr"),
        ('name = "exec"', 'name = "exec"\nstart = "(((("', "machine exec start"),
        ('name = "exec"', 'name = "exec"\nrank = ")"', "machine exec rank"),
    ],
)
def test_unparsable_expressions_are_config_errors(
    section: str, line: str, key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    text = (
        CONFIG.replace(section, line + "\n" + section, 1)
        if section == "[pool]"
        else (CONFIG.replace(section, line, 1))
    )
    env["config"].write_text(text)
    path = str(env["config"])
    refused(run("config", "check", "--config", path), path, key)
    refused(run("negotiate", "--dry-run", *common(env)), path, key)
    refused(run("quota", *common(env)), path, key)


def test_sacct_errors_give_the_line_number_in_the_file(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    path = env["dir"] / "sacct.txt"
    path.write_text(
        "\n$ sacct -P\nJobID|User|Account|Start|End|AllocCPUS\n\n"
        "7|alice|hep|2026-11-21T10:00:00|2026-11-21T11:00:00|4\n\n"
        "8|alice|hep|2026-11-21T10:00:00|2026-11-21T11:00:00|x\n"
    )
    refused(run("import", "sacct", str(path), *common(env)), f"{path}:7: alloccpus")


def test_init_into_a_path_that_cannot_be_written(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    blocker = env["dir"] / "file"
    blocker.write_text("x")
    # (a path below a file is bad input, exit 2, as the file itself a folder is)
    refused(run("init", str(blocker / "pool.toml")), f"{blocker} is not a folder")
    refused(run("init", str(env["dir"]), "--force"), "is a directory")
    assert blocker.read_text() == "x"


@pytest.mark.parametrize(
    ("command", "job", "key"),
    [
        ("sprio", {"id": "5", "owner": "alice", "account": "nosuch"}, "job 5: unknown account"),
        ("sprio", {"id": "5", "owner": "alice", "account": "hep", "qos": "gold"}, "job 5"),
        ("simulate", {"id": "5", "owner": "alice", "account": "hep", "qos": "gold"}, "job 5"),
        ("rm", {}, "jobs: expected a list"),
    ],
)
def test_job_errors_name_the_state_file(
    command: str, job: dict[str, Any], key: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    queue: Any = [job] if job else {}
    env["state"].write_text(json.dumps({**STATE, "jobs": queue}))
    before = env["state"].read_bytes()
    extra = {"simulate": ["--until", "1:00:00", "--cycle", "1800"], "rm": ["5"]}
    refused(run(command, *extra.get(command, []), *common(env)), str(env["state"]), key)
    assert env["state"].read_bytes() == before


def test_submit_errors_name_the_source(env: dict[str, Path], run: Callable[..., Any]) -> None:
    path = env["dir"] / "new.json"
    path.write_text(json.dumps([{"id": "1", "owner": "alice"}]))
    refused(run("submit", "--file", str(path), *common(env)), str(path), str(env["state"]))
    refused(run("submit", "--owner", "a", "--qos", "gold", *common(env)), "fs submit: job")


@pytest.mark.parametrize("command", [["userprio"], ["submit", "--owner", "bob"]])
def test_a_state_path_too_long_for_the_file_system_is_a_usage_error(
    env: dict[str, Path], run: Callable[..., Any], command: list[str]
) -> None:
    """``fs userprio --state xxx...`` (a name of 300 characters, past the file system's 255):
    an OSError escaped to the last resort, exit 1 and the 300 characters echoed whole. Now
    a bad argument: exit 2, one line, the name shortened."""
    name = "x" * 300
    result = run(*command, "--config", str(env["config"]), "--state", name, "--now", NOW)
    refused(result, "File name too long; give a shorter path")
    assert result.stderr == f"fs: error: {'x' * 80}...: File name too long; give a shorter path\n"
