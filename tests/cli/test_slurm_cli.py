"""fs sshare, fs sprio, fs submit/prio/rm and fs import sacct from the command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.state import State
from fairshare_cli.io.state import save_state
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = 1795262400.0

# The Slurm 2.0 page's example tree. One 1-CPU node and a 1-second half-life give a
# capacity (CPUs x half-life x 2) of 2, so raw usage 0.4 is the page's 0.2 of the machine.
SEED = """
[pool]
defaults = "legacy"
[[machines]]
name = "node"
attributes = { Cpus = 1 }
[priority]
usage_normalization = "capacity"
decay_halflife = 1
[priority.weights]
age = 1000
fairshare = 10000
jobsize = 1000
partition = 1000
qos = 0
[partitions.batch]
default = true
[accounts.A]
shares = 40
[accounts.B]
parent = "A"
shares = 30
users = { user1 = 1 }
[accounts.C]
parent = "A"
shares = 10
users = { user2 = 1, user3 = 1 }
[accounts.D]
shares = 60
[accounts.E]
parent = "D"
shares = 25
users = { user4 = 1 }
[accounts.F]
parent = "D"
shares = 35
users = { user5 = 1 }
"""


@pytest.fixture
def seed(write_config: Callable[..., Path], tmp_path: Path) -> tuple[Path, Path]:
    cfg = write_config(SEED)
    state = tmp_path / "state.json"
    usage = {"B": {"user1": 0.4}, "C": {"user2": 0.5}, "E": {"user4": 0.5}}
    save_state(state, State(sections={"slurm": {"last_decay_ran": NOW_EPOCH, "usage": usage}}))
    return cfg, state


def _args(paths: tuple[Path, Path]) -> list[str]:
    return ["--config", str(paths[0]), "--state", str(paths[1]), "--now", NOW]


def test_sshare_legacy_profile_reproduces_the_seed_example(
    seed: tuple[Path, Path], run: Callable[..., Any]
) -> None:
    res = run(
        "sshare", "-a", "-P", "-o", "Account,User,NormShares,EffectvUsage,FairShare", *_args(seed)
    )
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "Account|User|NormShares|EffectvUsage|FairShare"
    users = {line.split("|")[1]: line.split("|")[2:] for line in lines[1:] if line.split("|")[1]}
    assert users["user1"] == ["0.300000", "0.387500", "0.456250"]
    assert users["user2"] == ["0.050000", "0.275000", "0.387500"]
    assert users["user3"] == ["0.050000", "0.150000", "0.450000"]
    assert users["user4"] == ["0.250000", "0.250000", "0.500000"]
    assert users["user5"] == ["0.350000", "0.145833", "0.602083"]
    # Slurm 2.0 sshare printed the factor on account rows too.
    assert " A||0.400000|0.450000|0.475000" in lines


def test_sshare_switching_algorithm_changes_the_ranking(
    seed: tuple[Path, Path], run: Callable[..., Any]
) -> None:
    out = {}
    for algo in ("linear", "classic", "fair_tree", "depth_oblivious"):
        cfg = (
            seed[0]
            .read_text()
            .replace(
                'usage_normalization = "capacity"',
                f'usage_normalization = "capacity"\nfairshare = "{algo}"',
            )
        )
        path = seed[0].with_name(f"{algo}.toml")
        path.write_text(cfg)
        res = run("sshare", "-a", "--json", *_args((path, seed[1])))
        assert res.exit_code == 0, res.stderr
        rows = [r for r in json.loads(res.stdout) if r["user"]]
        out[algo] = {r["user"]: r["fairshare"] for r in rows}
    assert out["linear"]["user5"] == pytest.approx((0.35 - 0.25 * 35 / 60 + 1) / 2)
    assert out["classic"]["user1"] == pytest.approx(2 ** (-0.3875 / 0.3))
    assert max(out["fair_tree"].values()) == 1.0
    assert out["fair_tree"]["user5"] == 1.0


def test_sshare_json_has_null_blanks_and_inf(
    seed: tuple[Path, Path], run: Callable[..., Any]
) -> None:
    path = seed[0].with_name("ft.toml")
    path.write_text(
        seed[0].read_text().replace("[priority]\n", '[priority]\nfairshare = "fair_tree"\n')
    )
    res = run("sshare", "-a", "--json", *_args((path, seed[1])))
    rows = json.loads(res.stdout)
    assert list(rows[0]) == [
        "account",
        "user",
        "raw_shares",
        "norm_shares",
        "raw_usage",
        "norm_usage",
        "effective_usage",
        "fairshare",
        "level_fs",
    ]
    root = rows[0]
    assert root["raw_shares"] is None
    assert root["norm_usage"] is None
    assert root["level_fs"] is None
    user5 = next(r for r in rows if r["user"] == "user5")
    assert user5["level_fs"] == "inf"


def test_sshare_default_shows_only_the_invoking_user(
    seed: tuple[Path, Path], run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import pwd
    from types import SimpleNamespace

    monkeypatch.setattr(os, "getuid", lambda: 1003)
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: SimpleNamespace(pw_name="user3"))
    assert _default_users(seed, run) == ["user3"]
    res = run("sshare", "-P", "-U", "-u", "user1,user4", "-o", "User", *_args(seed))
    assert res.stdout.splitlines()[1:] == ["user1", "user4"]


def test_sshare_invalid_field(seed: tuple[Path, Path], run: Callable[..., Any]) -> None:
    res = run("sshare", "-o", "Account,Bogus", *_args(seed))
    assert res.exit_code == 2
    # slurm_addto_char_list lowers the name before process.c names it
    assert res.stderr.strip() == 'fs: error: Invalid field requested: "bogus"'


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        pytest.param(
            '[accounts.X]\nparent = "Y"\n[accounts.Y]\nparent = "X"\n',
            "accounts.X.parent: the account tree has a cycle (X -> Y -> X)",
            id="cycle",
        ),
        pytest.param(
            '[accounts.X]\nparent = "nowhere"\n',
            'accounts.X.parent: unknown account "nowhere"',
            id="unknown-parent",
        ),
        pytest.param("[accounts.X]\nshares = -3\n", "accounts.X.shares", id="negative-shares"),
    ],
)
def test_bad_account_trees_exit_2(
    extra: str, needle: str, seed: tuple[Path, Path], run: Callable[..., Any]
) -> None:
    seed[0].write_text(seed[0].read_text() + extra)
    res = run("sshare", "-a", *_args(seed))
    assert res.exit_code == 2
    assert needle in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_weight_above_uint32_exits_2(seed: tuple[Path, Path], run: Callable[..., Any]) -> None:
    seed[0].write_text(seed[0].read_text().replace("age = 1000", "age = 4294967296"))
    res = run("sprio", *_args(seed))
    assert res.exit_code == 2
    assert "priority.weights.age" in res.stderr


@pytest.mark.parametrize(
    ("job", "needle"),
    [
        pytest.param(
            {"id": "1", "owner": "user1", "partition": "gpu"},
            'job 1: unknown partition "gpu"',
            id="partition",
        ),
        pytest.param(
            {"id": "2", "owner": "user1", "qos": "gold"}, 'job 2: unknown QOS "gold"', id="qos"
        ),
    ],
)
def test_sprio_bad_jobs_exit_2(
    job: dict[str, Any],
    needle: str,
    seed: tuple[Path, Path],
    run: Callable[..., Any],
    tmp_path: Path,
) -> None:
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([job]))
    res = run("sprio", "--jobs-file", str(jobs), *_args(seed))
    assert res.exit_code == 2
    assert res.stderr.strip() == f"fs: error: {jobs}: {needle}"  # names the jobs file


def test_sprio_refuses_basic(seed: tuple[Path, Path], run: Callable[..., Any]) -> None:
    """fs sprio -l under priority/basic: sprio.c's refusal on stderr, its three lines as
    Slurm 26.05.3 printed them (tests/fixtures/slurm-26.05-local/basic_fairtree), exit 1;
    fs printed them as one 'fs: error:' line."""
    seed[0].write_text(seed[0].read_text().replace("[priority]\n", '[priority]\ntype = "basic"\n'))
    res = run("sprio", "-l", *_args(seed))
    assert (res.exit_code, res.stdout) == (1, "")
    capture = REPO / "tests" / "fixtures" / "slurm-26.05-local" / "basic_fairtree" / "sprio_l.txt"
    printed = capture.read_text(encoding="utf-8").split("\n", 1)[1]  # (after "$ sprio -l")
    assert res.stderr == printed.rstrip("\n") + "\n"


def test_sprio_long_and_format_are_exclusive(
    seed: tuple[Path, Path], run: Callable[..., Any]
) -> None:
    res = run("sprio", "-l", "-o", "%i", *_args(seed))
    assert res.exit_code == 2
    assert "mutually exclusive" in res.stderr


def test_submit_prio_rm_and_sprio(seed: tuple[Path, Path], run: Callable[..., Any]) -> None:
    args = _args(seed)
    res = run("submit", "--owner", "user5", "--account", "F", "--nodes", "1", *args)
    assert res.exit_code == 0, res.stderr
    assert res.stdout == "Submitted 1 job as cluster 1\n"
    before = seed[1].read_bytes()
    res = run("submit", "--owner", "user1", "--count", "2", "--dry-run", *args)
    assert res.stdout.startswith("(dry run, nothing written) Submitted 2 jobs as cluster 2")
    assert seed[1].read_bytes() == before
    run("submit", "--owner", "user1", "--count", "2", *args)
    res = run("sprio", "-P" if False else "-h", "-o", "%i %Y %F", *args)
    lines = res.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["1", "2.0", "2.1"]
    fs5 = (0.35 - 0.25 * 35 / 60 + 1) / 2
    assert lines[0].split()[2] == "%.0f" % (fs5 * 10000)
    res = run("prio", "1", "777", "--slurm", *args)
    assert res.exit_code == 0
    res = run("sprio", "-h", "-j", "1", "-o", "%i %Y %F", *args)
    assert res.stdout.split() == ["1", "777", "0"]
    res = run("rm", "2", *args)
    assert res.stdout == "Removed 2 jobs: 2.0, 2.1\n"
    res = run("rm", "2", *args)
    assert res.exit_code == 2
    assert res.stderr.strip() == 'fs: error: no job "2" in the queue'


def test_sprio_weights_row(seed: tuple[Path, Path], run: Callable[..., Any]) -> None:
    res = run("sprio", "-w", *_args(seed))
    assert res.stdout == (
        "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE"
        "  PARTITION\n"
        "        Weights                               1       1000      10000       1000"
        "       1000\n"
    )


def test_import_sacct_parsable(
    seed: tuple[Path, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    dump = tmp_path / "sacct.txt"
    dump.write_text(
        "JobID|User|Account|Partition|QOS|AllocCPUS|Start|End|State\n"
        "10|user3|C|batch|normal|2|2026-11-21T11:00:00|2026-11-21T11:30:00|COMPLETED\n"
        "10.batch|user3|C|batch|normal|2|2026-11-21T11:00:00|2026-11-21T11:30:00|COMPLETED\n"
        "11|user5|F|batch|normal|0|None|2026-11-21T11:30:00|CANCELLED\n"
    )
    path = seed[0].with_name("slow.toml")
    path.write_text(
        seed[0]
        .read_text()
        .replace("decay_halflife = 1", 'decay_halflife = 0\nusage_reset_period = "MONTHLY"')
    )
    res = run("import", "sacct", str(dump), *_args((path, seed[1])))
    assert res.exit_code == 0, res.stderr
    res = run("sshare", "-a", "--json", *_args((path, seed[1])))
    rows = {(r["account"], r["user"]): r for r in json.loads(res.stdout)}
    # 2 CPUs for 30 minutes, no decay: 3600 CPU-seconds, charged pass by pass.
    assert rows[("C", "user3")]["raw_usage"] == pytest.approx(3600.0)
    assert rows[("F", "user5")]["raw_usage"] == 0.0


def test_import_history_charges_cpu_seconds_times_usage_factor(
    write_config: Callable[..., Path], tmp_path: Path, run: Callable[..., Any]
) -> None:
    cfg = write_config(
        '[pool]\ndefaults = "current"\n[priority]\ndecay_halflife = 0\n'
        'usage_reset_period = "YEARLY"\ncalc_period = 60\n'
        "[qos.normal]\n[qos.high]\nusage_factor = 2.0\n"
        "[accounts.A]\nusers = { alice = 1, bob = 1 }\n[accounts.B]\nusers = { alice = 1 }\n"
    )
    history = tmp_path / "h.csv"
    history.write_text(
        "owner,account,qos,start,end,slots,cpus\n"
        "alice,,high,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z,2,4\n"
        "alice,B,normal,2026-11-21T10:00:00Z,2026-11-21T10:30:00Z,1,1\n"
        "bob,A,,2026-11-21T11:00:00Z,,1,3\n"
    )
    state = tmp_path / "s.json"
    args = ["--config", str(cfg), "--state", str(state)]
    res = run("import", "history", str(history), *args, "--now", "2026-11-21T11:30:00Z")
    assert res.exit_code == 0, res.stderr
    res = run("sshare", "-a", "--json", *args, "--now", "2026-11-21T12:00:00Z")
    usage = {(r["account"], r["user"]): r["raw_usage"] for r in json.loads(res.stdout)}
    # alice's first association is A: 2 slots x 4 CPUs x 3600 s x usage factor 2.
    assert usage[("A", "alice")] == pytest.approx(2 * 4 * 3600 * 2.0)
    assert usage[("B", "alice")] == pytest.approx(1800.0)
    # bob is still running: charged pass by pass up to the view's pass (12:00).
    assert usage[("A", "bob")] == pytest.approx(3 * 3600.0)
    assert usage[("root", None)] == pytest.approx(57600 + 1800 + 10800)
    res = run(
        "sshare",
        "-a",
        "-A",
        "B",
        "-P",
        "-o",
        "Account,User,RawUsage",
        *args,
        "--now",
        "2026-11-21T12:00:00Z",
    )
    assert res.stdout.splitlines() == ["Account|User|RawUsage", "B||1800", " B|alice|1800"]


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        pytest.param(
            "legacy",
            "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE"
            "  PARTITION        QOS\n"
            "        Weights                               1          1          1          1"
            "          1          1\n",
            id="legacy-weights-1",
        ),
        pytest.param(
            "current",
            "          JOBID PARTITION   PRIORITY       SITE\n"
            "        Weights                               1\n",
            id="current-weights-0",
        ),
    ],
)
def test_profile_default_weights(
    profile: str,
    expected: str,
    write_config: Callable[..., Path],
    tmp_path: Path,
    run: Callable[..., Any],
) -> None:
    cfg = write_config(f'[pool]\ndefaults = "{profile}"\n[partitions.batch]\n')
    res = run("sprio", "-w", "--config", str(cfg), "--state", str(tmp_path / "s.json"))
    assert res.stdout == expected


def test_sprio_options_as_slurms_own_tests_check_them(
    write_config: Callable[..., Path], tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The assertions of Slurm's testsuite/python/tests/commands/sprio/test_job_options.py."""
    import re

    cfg = write_config(
        '[pool]\ndefaults = "current"\n[[machines]]\nname = "n"\ncount = 2\n'
        "attributes = { Cpus = 8 }\n[priority.weights]\nage = 1000\nfairshare = 10000\n"
        "jobsize = 1000\npartition = 1000\nqos = 1000\n[partitions.debug]\ndefault = true\n"
        "[accounts.acct]\nusers = { tester = 1 }\n"
    )
    args = [
        "--config",
        str(cfg),
        "--state",
        str(tmp_path / "s.json"),
        "--now",
        "2026-11-21T12:00:00Z",
    ]
    run("submit", "--owner", "tester", "--cpus", "16", *args)
    job, part, user = "1", "debug", "tester"

    out = run("sprio", "--noheader", "-j", job, *args).stdout
    assert re.search(r"JOBID|PARTITION|PRIORITY|SITE", out) is None
    assert re.search(rf"{job}\s+{part}", out)
    out = run("sprio", "--jobs", job, *args).stdout
    assert re.search(r"JOBID\s+PARTITION\s+PRIORITY\s+SITE", out)
    out = run("sprio", "--long", "-j", job, *args).stdout
    assert re.search(
        r"JOBID\s+PARTITION\s+USER\s+ACCOUNT\s+PRIORITY\s+SITE\s+AGE\s+ASSOC\s+"
        r"FAIRSHARE\s+JOBSIZE\s+PARTITION\s+QOSNAME\s+QOS\s+NICE\s+TRES[\r\n]",
        out,
    )
    assert re.search(
        rf"{job}\s+{part}\s+{user}\s+\S+(?:\s+\d+){{7,}}\s+\S+(?:\s+\d+){{2,}}"
        r"\s*\S*",
        out,
    )
    out = run("sprio", "--norm", "-j", job, *args).stdout
    assert re.search(rf"{job}\s+{part}\s+[\d\.]+", out)
    fmt = (
        "%.15i %.8u %.10y %.10Y %.10S %.10a %.10A %.10b %.10B %.10f %.10F %.10j %.10J "
        "%.10p %.10P %.10q %.10Q %.6N"
    )
    out = run("sprio", "--format", fmt, "-j", job, *args).stdout
    assert re.search(r"JOBID\s+USER\s+PRIORITY\s+PRIORITY\s+SITE\s+AGE\s+AGE\s+ASSOC\s+ASSOC", out)
    assert re.search(
        rf"{job}\s+{user}\s+[\d\.]+\s+\d+\s+\d+\s+[\d\.]+\s+\d+\s+[\d\.]+\s+\d+"
        r"\s+[\d\.]+\s+\d+\s+[\d\.]+\s+\d+\s+[\d\.]+\s+\d+\s+\d+",
        out,
    )
    out = run("sprio", "--user", user, *args).stdout
    assert re.search(rf"{job}\s+{part}\s+{user}", out)
    out = run("sprio", "--verbose", "-j", job, *args).stdout
    for pattern in (
        r"format\s+= \(null\)",
        r"job_flag\s+= 1",
        rf"jobs\s+= {job}",
        r"partition\s+= \(null\)",
        r"users\s+= \(null\)",
        r"verbose\s+= 1",
    ):
        assert re.search(pattern, out), pattern
    assert re.search(rf"{job}\s+{part}\s+\d+", out)
    out = run("sprio", "--weights", *args).stdout
    assert re.search(r"JOBID\s+PARTITION\s+PRIORITY\s+SITE", out)
    assert re.search(r"Weights.*\d+", out)


def test_malformed_slurm_section_exits_2_and_is_untouched(
    seed: tuple[Path, Path], run: Callable[..., Any]
) -> None:
    seed[1].write_text(
        '{"format": "fairshare-cli state", "schema_version": 1, '
        '"slurm": {"usage": {"B": {"user1": "lots"}}}}'
    )
    before = seed[1].read_bytes()
    header = "JobID|User|Account|Partition|QOS|AllocCPUS|Start|End\n"  # (no job: a quiet hour)
    for args in (["sshare", "-a"], ["sprio"], ["import", "sacct", "-"]):
        res = run(*args, *_args(seed), input=header)
        assert res.exit_code == 2, args
        assert "slurm.usage.B.user1: expected a number" in res.stderr
        assert seed[1].read_bytes() == before


def test_submit_refuses_out_of_range_nice(seed: tuple[Path, Path], run: Callable[..., Any]) -> None:
    res = run("submit", "--owner", "user1", "--nice", "2147483646", *_args(seed))
    assert res.exit_code == 2
    assert "Invalid --nice value, out of range (+/- 2147483645)" in res.stderr


def _default_users(seed: tuple[Path, Path], run: Callable[..., Any]) -> list[str]:
    """The users ``fs sshare`` (no ``-a``, no ``-u``) lists."""
    res = run("sshare", "-P", "-o", "Account,User", *_args(seed))
    assert res.exit_code == 0, res.stderr
    return [u for u in (line.split("|")[1] for line in res.stdout.splitlines()[1:]) if u]


def test_sshare_shows_the_uids_user_whatever_user_says(
    seed: tuple[Path, Path], run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """sshare asks the passwd name of ``getuid()`` (``uid_to_string_or_null``; 22.05's
    ``getpwuid``): ``$USER`` and ``$LOGNAME`` play no part. ``USER=user3 fs sshare`` run
    by uid 1000, named user2, listed user3's row; it lists user2's, as sshare does."""
    import os
    import pwd
    from types import SimpleNamespace

    monkeypatch.setenv("USER", "user3")
    monkeypatch.setenv("LOGNAME", "user3")
    monkeypatch.setattr(os, "getuid", lambda: 1000)
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: SimpleNamespace(pw_name=f"user{uid - 998}"))
    assert _default_users(seed, run) == ["user2"]

    def no_entry(uid: int) -> Any:
        raise KeyError(uid)

    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    assert len(_default_users(seed, run)) == 5  # no user named: every user, as sshare does


@pytest.mark.parametrize(("compat", "users"), [("current", []), ("22.05", ["user2"])])
def test_sshare_run_by_uid_0_is_root_from_23_11(
    seed: tuple[Path, Path],
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    compat: str,
    users: list[str],
) -> None:
    """``uid_to_string_or_null`` names uid 0 ``root`` without asking the passwd file
    (Slurm 23.11 on); 22.05's sshare asked ``getpwuid(0)``. A passwd file naming uid 0
    user2: today root's rows (none here: root has no association), with 22.05 user2's."""
    import os
    import pwd
    from types import SimpleNamespace

    monkeypatch.setattr(os, "getuid", lambda: 0)
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: SimpleNamespace(pw_name="user2"))
    config = (
        seed[0].read_text().replace("[priority]\n", f'[priority]\noutput_compat = "{compat}"\n')
    )
    seed[0].write_text(config)
    assert _default_users(seed, run) == users


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        pytest.param(
            ["--owner", "user1", "--account", "C"],
            'user "user1" has no association in account "C"',
            id="wrong-account",
        ),
        pytest.param(
            ["--owner", "stranger", "--partition", "batch"],
            'user "stranger" has no association (sbatch',
            id="no-association",
        ),
    ],
)
def test_submit_refuses_a_user_without_association(
    seed: tuple[Path, Path], run: Callable[..., Any], args: list[str], needle: str
) -> None:
    """As sbatch, a Slurm job needs its user's association; the queue
    stays as it was (and every later fs sprio keeps working)."""
    before = seed[1].read_bytes()
    res = run("submit", *args, *_args(seed))
    assert res.exit_code == 2
    assert needle in res.stderr
    assert seed[1].read_bytes() == before
    assert run("sprio", *_args(seed)).exit_code == 0


def test_submit_of_a_non_slurm_job_needs_no_association(
    seed: tuple[Path, Path], run: Callable[..., Any]
) -> None:
    res = run("submit", "--owner", "stranger", "--accounting-group", "g", *_args(seed))
    assert res.exit_code == 0, res.stderr


def test_history_usage_without_association_is_listed(
    seed: tuple[Path, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """Usage Slurm cannot place is named on stderr, not dropped silently."""
    history = tmp_path / "h.csv"
    history.write_text(
        "owner,account,start,end,cpus\n"
        "user1,,2026-11-20T00:00:00Z,2026-11-20T01:00:00Z,1\n"
        "stranger,,2026-11-20T00:00:00Z,2026-11-20T01:00:00Z,1\n"
    )
    res = run("import", "history", str(history), *_args(seed))
    assert res.exit_code == 0, res.stderr
    assert "Slurm: ignored the usage of 1 user with no association: stranger" in res.stderr
