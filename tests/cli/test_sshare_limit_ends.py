"""``fs sshare`` charges a running job of the queue up to where slurmctld ends it: its
start + time limit + ``OverTimeLimit`` (``job_time_limit``, ``job_mgr.c``), not up to
``--now``: fs charged such a job every pass until ``fs rm``, however far ``--now`` was
past its end.

Hand-derived from ``priority_multifactor.c`` (22.05): u1's job (1 CPU, limit 60 min) and
u2's (1 CPU, UNLIMITED: partition batch has no DefaultTime nor MaxTime) both start at
11:00, a decay pass then. Every pass (``calc_period`` 300 s) multiplies usage by
``q = d^300``, ``d = 1 - 0.693/3600`` (half-life 1 h; 1 with no decay), then charges each
running job ``300 · d^300 = 300q`` (``_apply_new_usage``). A pass at or before the job's
end charges it; none after (``decay_apply_new_usage`` skips a timed-out job). So
``U(n passes) = 300q(1 + q + … + q^(n-1))``:

- u2: 12 passes by 12:00, 13 by 12:05, 24 by 13:00. Half-life 1 h: 2522.6715,
  2664.2650, 3784.1087; no decay: 3600, 3900, 7200.
- u1, OverTimeLimit 0 (ended 12:00): U(12) at 12:00, then only decayed: U(12)·q =
  2381.1008 at 12:05, U(12)·q^12 = 1261.4372 at 13:00; no decay: 3600 throughout.
- u1, OverTimeLimit 10 min (ended 12:10): as u2 up to 12:05, U(14)·q^10 = 1570.3805 at
  13:00; no decay 3600, 3900, 4200.

RawUsage prints the whole part. Classic fair share (22.05 ``_set_usage_efctv``, users'
usage over root's as the pass left it): EffectvUsage = n + (1 - n)·½ with n = U/(U1+U2)
(account a's effective usage is 1, each user has half its shares), FairShare =
2^(-EffectvUsage/0.5).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONFIG = """
[pool]
name = "c"
defaults = "current"
[priority]
fairshare = "classic"
calc_period = 300
decay_halflife = {halflife}
over_time_limit = {over_time}
[[machines]]
name = "n"
slots = 16
attributes = {{ Cpus = 1 }}
[partitions.batch]
default = true
[accounts.a]
shares = 1
users = {{ u1 = 1, u2 = 1 }}
"""
HOUR = '"1:00:00"'
NO_DECAY = '0\nusage_reset_period = "MONTHLY"'  # (half-life 0 needs a reset period)
TIMES = ("2026-11-21T12:00:00Z", "2026-11-21T12:05:00Z", "2026-11-21T13:00:00Z")


def _pool(
    tmp_path: Path, run: Callable[..., Any], halflife: str = HOUR, over_time: int = 0
) -> list[str]:
    config = tmp_path / "pool.toml"
    config.write_text(CONFIG.format(halflife=halflife, over_time=over_time))
    common = ["--config", str(config), "--state", str(tmp_path / "state.json")]
    start = ["--set", "status=running", "--set", "start_time=2026-11-21T11:00:00Z"]
    for args in (["--owner", "u1", "--time-limit", "60"], ["--owner", "u2"]):
        res = run(
            "submit", *args, "--account", "a", *start, *common, "--now", "2026-11-21T11:00:00Z"
        )
        assert res.exit_code == 0, res.stderr
    return common


def _users(run: Callable[..., Any], common: list[str], now: str) -> list[str]:
    """User, RawUsage, EffectvUsage and FairShare of ``fs sshare -a -l -P``'s user rows."""
    res = run("sshare", "-a", "-l", "-P", *common, "--now", now)
    assert res.exit_code == 0, res.stderr
    rows = [line.split("|") for line in res.stdout.splitlines()[1:]]
    return ["|".join((row[1], row[4], row[6], row[7])) for row in rows if row[1]]


@pytest.mark.parametrize(
    ("halflife", "over_time", "expected"),
    [
        pytest.param(
            HOUR,
            0,
            [
                ["u1|2522|0.750000|0.353553", "u2|2522|0.750000|0.353553"],
                ["u1|2381|0.735969|0.360498", "u2|2664|0.764031|0.346743"],
                ["u1|1261|0.625005|0.420445", "u2|3784|0.874995|0.297304"],
            ],
            id="half-life-1h-over-time-0",
        ),
        pytest.param(
            HOUR,
            600,
            [
                ["u1|2522|0.750000|0.353553", "u2|2522|0.750000|0.353553"],
                ["u1|2664|0.750000|0.353553", "u2|2664|0.750000|0.353553"],
                ["u1|1570|0.646641|0.408021", "u2|3784|0.853359|0.306356"],
            ],
            id="half-life-1h-over-time-10min",
        ),
        pytest.param(
            NO_DECAY,
            0,
            [
                ["u1|3600|0.750000|0.353553", "u2|3600|0.750000|0.353553"],
                ["u1|3600|0.740000|0.358489", "u2|3900|0.760000|0.348686"],
                ["u1|3600|0.666667|0.396850", "u2|7200|0.833333|0.314980"],
            ],
            id="no-decay-over-time-0",
        ),
        pytest.param(
            NO_DECAY,
            600,
            [
                ["u1|3600|0.750000|0.353553", "u2|3600|0.750000|0.353553"],
                ["u1|3900|0.750000|0.353553", "u2|3900|0.750000|0.353553"],
                ["u1|4200|0.684211|0.387315", "u2|7200|0.815789|0.322735"],
            ],
            id="no-decay-over-time-10min",
        ),
    ],
)
def test_a_running_job_is_charged_up_to_its_limit_and_over_time(
    tmp_path: Path,
    run: Callable[..., Any],
    halflife: str,
    over_time: int,
    expected: list[list[str]],
) -> None:
    common = _pool(tmp_path, run, halflife, over_time)
    assert [_users(run, common, now) for now in TIMES] == expected


def test_the_partitions_over_time_limit_comes_first(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    common = _pool(tmp_path, run)
    config = tmp_path / "pool.toml"
    text = config.read_text().replace(
        "default = true\n", 'default = true\nover_time_limit = "10"\n'
    )
    config.write_text(text)  # batch's 10 minutes over the cluster's 0: as the row above
    assert _users(run, common, TIMES[2]) == [
        "u1|1570|0.646641|0.408021",
        "u2|3784|0.853359|0.306356",
    ]


def test_the_state_keeps_the_job_running_and_its_charge_open(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    common = _pool(tmp_path, run)
    before = (tmp_path / "state.json").read_text()
    assert _users(run, common, TIMES[2])[0] == "u1|1261|0.625005|0.420445"
    assert (tmp_path / "state.json").read_text() == before  # (a view writes nothing)
    state = json.loads(before)
    assert [job["status"] for job in state["jobs"]] == ["running", "running"]
    assert [charge["end"] for charge in state["slurm"]["running"]] == [None, None]


def test_rm_after_the_limit_ends_the_charge_at_the_limit(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    common = _pool(tmp_path, run)
    res = run("rm", "1", *common, "--now", TIMES[2])
    assert res.exit_code == 0, res.stderr
    assert _users(run, common, TIMES[2]) == [
        "u1|1261|0.625005|0.420445",
        "u2|3784|0.874995|0.297304",
    ]


def test_a_write_after_the_limit_folds_the_usage_up_to_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs submit`` of a running job brings the usage to ``--now``: u1's job is charged
    up to 12:00 (U(12)·q^12 = 1261.4372 at 13:00) and its charge, ended, is folded in;
    the job stays running in the queue."""
    common = _pool(tmp_path, run)
    res = run(
        "submit", "--owner", "u2", "--account", "a", "--set", "status=running", *common,
        "--now", TIMES[2],
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    state = json.loads((tmp_path / "state.json").read_text())
    assert round(state["slurm"]["usage"]["a"]["u1"], 4) == 1261.4372
    assert [charge["job"] for charge in state["slurm"]["running"]] == ["2", "3"]
    assert [job["status"] for job in state["jobs"]] == ["running"] * 3
    assert _users(run, common, TIMES[2]) == [  # (u2's new job: charged from 13:05)
        "u1|1261|0.625005|0.420445",
        "u2|3784|0.874995|0.297304",
    ]


def test_a_job_submitted_past_its_limit_is_charged_up_to_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Submitted at 13:00 as running since 11:00 under a 60-minute limit: charged the
    passes up to 12:00 only, and holds no running charge."""
    config = tmp_path / "pool.toml"
    config.write_text(CONFIG.format(halflife=HOUR, over_time=0))
    common = ["--config", str(config), "--state", str(tmp_path / "state.json")]
    start = ["--set", "status=running", "--set", "start_time=2026-11-21T11:00:00Z"]
    for args in (["--owner", "u1", "--time-limit", "60"], ["--owner", "u2"]):
        res = run("submit", *args, "--account", "a", *start, *common, "--now", TIMES[2])
        assert res.exit_code == 0, res.stderr
    state = json.loads((tmp_path / "state.json").read_text())
    assert [charge["job"] for charge in state["slurm"]["running"]] == ["2"]
    assert _users(run, common, TIMES[2]) == [
        "u1|1261|0.625005|0.420445",
        "u2|3784|0.874995|0.297304",
    ]


def test_with_limits_enforced_the_part_after_the_last_pass_is_charged_at_the_end(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``AccountingStorageEnforce=limits``, OverTimeLimit 2 min: u1's job is timed out at
    12:02 and ``priority_p_job_end`` charges it ``120 · d^120 = 117.2595`` then (on
    U(12) = 2522.6715): 2639.9310 at 12:02, decayed by the 12:05 pass to 2491.7797
    (× q), by 13:00 to 1320.0717 (× q^12); at 12:01 it still runs (2522)."""
    common = _pool(tmp_path, run, over_time=120)
    config = tmp_path / "pool.toml"
    config.write_text(
        config.read_text().replace("[[machines]]", "enforce_limits = true\n[[machines]]")
    )
    times = ("2026-11-21T12:01:00Z", "2026-11-21T12:02:00Z", *TIMES[1:])
    assert [_users(run, common, now)[0].split("|")[1] for now in times] == [
        "2522",
        "2639",
        "2491",
        "1320",
    ]


def test_whatif_over_time_limit_moves_the_end(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs whatif --set priority.over_time_limit=600 sshare``: u1's job ends at 12:10,
    not 12:00 (the rows of half-life 1 h, OverTimeLimit 0 and 10 min, at 13:00)."""
    common = _pool(tmp_path, run)
    res = run(
        "whatif", "--set", "priority.over_time_limit=600", "sshare", "-a", "-l", *common,
        "--now", TIMES[2],
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    lines = [line.rstrip() for line in res.stdout.splitlines()]
    assert lines[-3:-1] == [
        "a/u1   │    3 │ 1261 -> 1570 │ 0.625005 -> 0.646641 │ 0.420445 -> 0.408021",
        "a/u2   │    4 │         3784 │ 0.874995 -> 0.853359 │ 0.297304 -> 0.306356",
    ]


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        pytest.param(
            "history",
            '{"owner": "u2", "account": "a", "start": "2026-11-21T12:58:00Z",'
            ' "end": "2026-11-21T12:59:00Z", "cpus": 1}\n',
            id="import-history",
        ),
        pytest.param("squeue", '{"jobs": []}\n', id="import-squeue"),
    ],
)
def test_an_import_after_the_limit_folds_the_usage_up_to_it(
    tmp_path: Path, run: Callable[..., Any], kind: str, text: str
) -> None:
    """An import brings the stored usage to 13:00 as slurmctld would have: u1's job
    charged up to 12:00 (1261.4372), u2's UNLIMITED one up to 13:00 (3784.1087; the
    history record, between two passes, charges nothing; the dump's running jobs replace
    the state's, none here)."""
    common = _pool(tmp_path, run)
    dump = tmp_path / "dump"
    dump.write_text(text)
    res = run("import", kind, str(dump), *common, "--now", TIMES[2])
    assert res.exit_code == 0, res.stderr
    usage = json.loads((tmp_path / "state.json").read_text())["slurm"]["usage"]["a"]
    assert [round(usage[user], 4) for user in ("u1", "u2")] == [1261.4372, 3784.1087]
