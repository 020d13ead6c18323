"""The state's invariant, per input kind: *any state fs writes, every fs view can read*.

A generated input (a job object through ``fs submit --file``, a history record, an sacct
line, a condor_history ad, a config, a state, command-line arguments) is either refused —
exit 2, one ``fs: error:`` line, the state file byte-for-byte as before — or accepted, and
then every view (userprio, sprio, sshare, quota, negotiate --dry-run, taskqueues, config
check) exits 0 on the result. Values mix plausible ones with hostile ones (negative, NaN,
beyond 64 bits, impossible dates, blank and control-character names, broken expressions).

Commands run in-process (Click's runner) on a tiny pool, 500 examples per kind.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from fairshare_cli.cli.main import cli
from tests.cli.conftest import CONFIG, NOW, NOW_EPOCH, STATE, write_pool

EXAMPLES = 500
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
#: Every view, as JSON (the same computation as the table, without Rich's layout cost).
VIEWS = (
    ["userprio", "--json"],
    ["sprio", "--json"],
    ["sshare", "--json"],
    ["quota", "--json"],
    ["negotiate", "--dry-run", "--json"],
    ["taskqueues", "--json"],
)

HOSTILE: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(
        [
            0,
            1,
            -1,
            -4,
            2**63 - 1,
            2**63,
            2**64,
            10**30,
            1e30,
            0.5,
            math.nan,
            math.inf,
            "",
            " ",
            "a b",
            "a\nb",
            "a\x00",
            "a@b@c",
            "10",
            "2026-02-31T00:00:00Z",
            "2026-13-01T00:00:00Z",
            ")",
            "((",
            True,
            None,
            [],
            {},
            {"sites": 5},
        ]
    ),
    st.integers(),
    st.text(max_size=4),
)
TIMES = st.sampled_from(
    [
        "2026-11-21T10:00:00Z",
        "2024-02-29T00:00:00Z",
        1795250000,
        1795250000.5,
        "2026-11-21 09:00:00",
    ]
)
NAMES = st.sampled_from(["alice", "bob", "alice@example.org", "hep", "zed"])


def _good(field: str) -> st.SearchStrategy[Any]:
    """Plausible values of a job or record field (half of the generated values)."""
    pools: dict[str, list[Any]] = {
        "owner": ["alice", "bob", "alice@example.org"],
        "account": ["hep"],
        "partition": ["batch"],
        "qos": ["normal"],
        "accounting_group": ["group_a", "group_a.alice"],
        "dirac_group": ["lhcb_user"],
        "status": ["idle", "running", "held", "completed"],
        "requirements": ["true", "TARGET.Cpus >= 1"],
        "rank": ["0", "TARGET.Memory"],
        "time_limit": ["1:00:00", 3600, "INFINITE"],
        "dirac_requirements": [{"sites": ["LCG.CERN.cern"]}, {"cpu_time": 3600}],
        "slot": ["slot1@exec001", "slot2@exec001"],
    }
    if field in pools:
        return st.sampled_from(pools[field])
    if field.endswith("time") or field in ("start", "end"):
        return TIMES
    return st.integers(min_value=0, max_value=64)


def value_of(field: str) -> st.SearchStrategy[Any]:
    return st.one_of(_good(field), HOSTILE)


@contextmanager
def pool(config: str = CONFIG, state: str | None = None) -> Iterator[dict[str, Path]]:
    """A throw-away folder with a config and a state (hypothesis reruns the body)."""
    folder = Path(tempfile.mkdtemp(prefix="fs-door-"))
    try:
        yield write_pool(folder, config, state)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def common(env: dict[str, Path]) -> list[str]:
    return ["--config", str(env["config"]), "--state", str(env["state"]), "--now", NOW]


def assert_refused_or_readable(result: Any, env: dict[str, Path], before: bytes) -> bool:
    """The invariant; True when the input was accepted."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("fs: error: "), result.stderr
        assert env["state"].read_bytes() == before
        event("refused")
        return False
    assert result.exit_code == 0, (result.exit_code, result.stderr)
    event("accepted")
    for view in VIEWS:
        seen = run(*view, *common(env))
        assert seen.exit_code == 0, (view, seen.stderr, env["state"].read_text())
    checked = run("config", "check", "--config", str(env["config"]))
    assert checked.exit_code == 0, checked.stderr
    return True


JOB_FIELDS = (
    "owner",
    "account",
    "partition",
    "qos",
    "accounting_group",
    "dirac_group",
    "dirac_requirements",
    "status",
    "slot",
    "requirements",
    "rank",
    "request_cpus",
    "request_memory",
    "num_nodes",
    "time_limit",
    "submit_time",
    "nice",
    "job_prio",
    "user_priority",
    "count",
)


@st.composite
def job_objects(draw: st.DrawFn) -> dict[str, Any]:
    keys = draw(st.lists(st.sampled_from(JOB_FIELDS), max_size=3, unique=True))
    obj: dict[str, Any] = {"id": draw(st.sampled_from(["9", "10.1", "x"])), "owner": "alice"}
    for key in keys:
        obj[key] = draw(COUNTS if key == "count" else value_of(key))
    return obj


#: ``count`` values: a big valid count is slow to expand, not hostile.
COUNTS = st.one_of(
    st.integers(min_value=0, max_value=64),
    st.sampled_from([-1, "10", 2**63, 10**30, 1.5, 3.0, math.nan, True, None, 10_000_001]),
)


@SETTINGS
@given(jobs=st.lists(job_objects(), min_size=1, max_size=2))
def test_submit_file(jobs: list[dict[str, Any]]) -> None:
    with pool() as env:
        path = env["dir"] / "new.json"
        path.write_text(json.dumps(jobs), encoding="utf-8")
        before = env["state"].read_bytes()
        assert_refused_or_readable(run("submit", "--file", str(path), *common(env)), env, before)


RECORD_FIELDS = ("account", "partition", "qos", "accounting_group", "dirac_group", "slots", "cpus")


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "owner": draw(value_of("owner")),
        "start": draw(st.one_of(st.sampled_from(["2026-11-21T10:00:00Z"]), HOSTILE)),
    }
    if draw(st.booleans()):
        rec["end"] = draw(st.one_of(st.sampled_from(["2026-11-21T11:00:00Z"]), HOSTILE))
    for key in draw(st.lists(st.sampled_from(RECORD_FIELDS), max_size=2, unique=True)):
        rec[key] = draw(value_of(key))
    return rec


@SETTINGS
@given(recs=st.lists(records(), min_size=1, max_size=2))
def test_import_history(recs: list[dict[str, Any]]) -> None:
    with pool() as env:
        path = env["dir"] / "h.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
        before = env["state"].read_bytes()
        result = run("import", "history", str(path), *common(env))
        assert_refused_or_readable(result, env, before)


SACCT_TEXT = st.one_of(
    st.sampled_from(["", " ", "a b", "a\tb", "-1", "0", "4", "1" + "0" * 30, "x", "Unknown"]),
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="|\n\r"),
        max_size=4,
    ),
)


@SETTINGS
@given(
    user=st.one_of(st.sampled_from(["alice", "bob", "zed"]), SACCT_TEXT),
    start=st.one_of(st.sampled_from(["2026-11-21T10:00:00", "2026-02-31T10:00:00"]), SACCT_TEXT),
    end=st.one_of(st.sampled_from(["2026-11-21T11:00:00", "2026-11-21T09:00:00"]), SACCT_TEXT),
    cpus=st.one_of(st.sampled_from(["1", "4"]), SACCT_TEXT),
    account=st.one_of(st.sampled_from(["hep"]), SACCT_TEXT),
)
def test_import_sacct(user: str, start: str, end: str, cpus: str, account: str) -> None:
    with pool() as env:
        path = env["dir"] / "sacct.txt"
        path.write_text(
            f"JobID|User|Account|Start|End|AllocCPUS\n7|{user}|{account}|{start}|{end}|{cpus}\n",
            encoding="utf-8",
        )
        before = env["state"].read_bytes()
        assert_refused_or_readable(run("import", "sacct", str(path), *common(env)), env, before)


@SETTINGS
@given(
    owner=value_of("owner"),
    start=st.one_of(st.sampled_from([1795250000, "2026-11-21T10:00:00Z"]), HOSTILE),
    end=st.one_of(st.sampled_from([1795253600]), HOSTILE),
    cpus=value_of("cpus"),
    group=st.one_of(st.sampled_from([None, "group_a.alice"]), HOSTILE),
    status=st.sampled_from([2, 4]),
)
def test_import_condor_history(
    owner: Any, start: Any, end: Any, cpus: Any, group: Any, status: int
) -> None:
    ad = {
        "Owner": owner,
        "JobStartDate": start,
        "CompletionDate": end,
        "RequestCpus": cpus,
        "JobStatus": status,
    }
    if group is not None:
        ad["AccountingGroup"] = group
    with pool() as env:
        path = env["dir"] / "ads.json"
        path.write_text(json.dumps([ad]), encoding="utf-8")
        before = env["state"].read_bytes()
        result = run("import", "condor-history", str(path), *common(env))
        assert_refused_or_readable(result, env, before)


CONFIG_EDITS = (
    ("job_share = 1000", "job_share = {v}"),
    ("Cpus = 1,", "Cpus = {v},"),
    ("Memory = 4096", "Memory = {v}"),
    ("quota = 2", "quota = {v}"),
    ("count = 2", "count = {v}"),
    ("priority = 0", "priority = {v}"),
    ("shares = 1", "shares = {v}"),
    ("alice = 1,", "{k} = 1,"),
    ('[groups."group_a"]', "[groups.{k}]"),
    ("[qos.normal]", "[qos.{k}]"),
    ("[pool]", "[negotiator]\nslot_weight = {v}\n[pool]"),
    ("[pool]", "[negotiator]\npreemption_rank = {v}\n[pool]"),
    ("[pool]", "[accountant]\npriority_halflife = {v}\n[pool]"),
)
TOML_VALUES = st.one_of(
    st.sampled_from(
        [
            "0",
            "-4",
            "1",
            "3.5",
            "nan",
            "inf",
            str(2**63),
            str(2**70),
            '"Cpus"',
            '")"',
            '"\\u0000"',
            '"' + " + ".join(["1"] * 200) + '"',
            '"1-0"',
            '"parent"',
        ]
    ),
    st.integers().map(str),
)
TOML_KEYS = st.sampled_from(['"a@b@c"', '" "', '"x\\u0001"', '"carol"', "dave", '""'])


@SETTINGS
@given(edit=st.sampled_from(CONFIG_EDITS), value=TOML_VALUES, key=TOML_KEYS)
def test_config(edit: tuple[str, str], value: str, key: str) -> None:
    old, new = edit
    text = CONFIG.replace(old, new.format(v=value, k=key), 1)
    with pool(config=text) as env:
        before = env["state"].read_bytes()
        checked = run("config", "check", "--config", str(env["config"]))
        if checked.exit_code == 2:  # every command loads it alike: one refuses it the same way
            result = run("submit", "--owner", "alice", *common(env))
            assert result.exit_code == 2, result.stderr
            assert result.stderr == checked.stderr
            assert env["state"].read_bytes() == before
            event("refused")
            return
        result = run("submit", "--owner", "alice", "--account", "hep", *common(env))
        assert_refused_or_readable(result, env, before)


SECTIONS = st.fixed_dictionaries(
    {},
    optional={
        "accountant": st.fixed_dictionaries(
            {
                "records": st.dictionaries(
                    st.sampled_from(["alice@example.org", "group_a", "a b"]),
                    st.dictionaries(
                        st.sampled_from(
                            [
                                "priority",
                                "priority_factor",
                                "accumulated_usage",
                                "last_update",
                                "begin_usage_time",
                                "resources_used",
                                "is_group",
                                "bogus",
                            ]
                        ),
                        st.one_of(st.sampled_from([0, 1, 0.5, 2.0, 1795250000]), HOSTILE),
                        max_size=2,
                    ),
                    max_size=2,
                )
            },
            optional={"extra": HOSTILE},
        ),
        "slurm": st.fixed_dictionaries(
            {
                "usage": st.dictionaries(
                    st.sampled_from(["hep", "root"]),
                    st.dictionaries(
                        NAMES, st.one_of(st.sampled_from([0.0, 3600.0]), HOSTILE), max_size=2
                    ),
                    max_size=1,
                )
            },
            optional={"last_decay_ran": HOSTILE, "bogus": HOSTILE},
        ),
        "negotiator": st.fixed_dictionaries(
            {}, optional={"last_cycle": HOSTILE, "rr_times": st.dictionaries(NAMES, HOSTILE)}
        ),
        "jobs": st.lists(job_objects(), max_size=2),
    },
)


@SETTINGS
@given(sections=SECTIONS)
@example(sections={"jobs": [{"id": "9", "owner": "alice", "time_limit": math.inf}]})
@example(sections={"jobs": [{"id": "9", "owner": "10", "account": "hep"}]})  # no association
def test_state(sections: dict[str, Any]) -> None:
    from fairshare_cli.core.operations.last_update import state_last_update
    from fairshare_cli.core.operations.validate import check_state
    from fairshare_cli.core.state import SectionError, State
    from fairshare_cli.errors import InputError
    from fairshare_cli.io.config import load_config

    text = json.dumps({**STATE, **sections})
    # A number JSON cannot hold (Infinity, NaN) makes a file no fs state is: the state
    # reader refuses it before any section is checked (and fs never writes one).
    try:
        json.dumps(sections, allow_nan=False)
    except ValueError:
        standard = False
    else:
        standard = True
    with pool(state=text) as env:
        before = env["state"].read_bytes()
        try:
            check_state(State(), State(sections=sections), load_config(env["config"]), "state")
        except (SectionError, InputError):
            accepted = False
        else:
            accepted = standard
        event("accepted" if accepted else "refused")
        last = state_last_update(State(sections=sections))  # views refuse an earlier --now
        when = [*common(env)[:-1], str(max(last or 0.0, NOW_EPOCH))]
        for view in VIEWS:
            result = run(*view, *when)
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise result.exception
            if accepted:
                assert result.exit_code == 0, (view, result.stderr)
            else:
                assert result.exit_code in (0, 2), (view, result.stderr)
                if result.exit_code == 2:
                    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert env["state"].read_bytes() == before


EDIT_NAMES = st.one_of(
    NAMES, st.sampled_from(["group_a", "a@b@c", "a b", "a\x01"]), st.text(max_size=3)
)
EDIT_VALUES = st.one_of(
    st.sampled_from(["1", "2.5", "0", "-1", "1e400", "nan", "2026-02-31T00:00:00Z", "2026-11-21"]),
    st.integers().map(str),
    st.text(max_size=3),
)


@SETTINGS
@given(
    command=st.sampled_from(
        ["setfactor", "setprio", "setaccum", "setbegin", "setlast", "resetusage", "delete", "prio"]
    ),
    name=EDIT_NAMES,
    value=EDIT_VALUES,
    now=st.one_of(st.just(NOW), st.sampled_from(["2026-02-31T00:00:00Z", "x", "1e30"])),
)
def test_command_line(command: str, name: str, value: str, now: str) -> None:
    with pool() as env:
        before = env["state"].read_bytes()
        args = [command, "1" if command == "prio" else name]
        if command not in ("resetusage", "delete"):
            args.append(value)
        base = [*common(env)[:-1], now]
        result = run(*args, *base)
        assert_refused_or_readable(result, env, before)


def test_every_kind_runs_at_least_500_cases() -> None:
    """At least 500 generated cases per input kind in CI. Each property test
    here carries its own settings (an explicit ``max_examples`` wins over any profile)."""
    import sys

    module = sys.modules[__name__]
    kinds = {
        name: getattr(module, name)
        for name in dir(module)
        if name.startswith("test_") and hasattr(getattr(module, name), "hypothesis")
    }
    assert set(kinds) == {
        "test_submit_file",
        "test_import_history",
        "test_import_sacct",
        "test_import_condor_history",
        "test_config",
        "test_state",
        "test_command_line",
    }
    for name, fn in kinds.items():
        assert fn._hypothesis_internal_use_settings.max_examples >= 500, name
