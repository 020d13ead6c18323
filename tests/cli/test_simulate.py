"""fs simulate: cycles forward in time, hand-checked on a four-slot pool."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
CONFIG = """
[pool]
uid_domain = "d"
[[machines]]
name = "m"
count = 1
slots = 4
"""
WORKLOAD = [
    {"id": "1.0", "count": 4, "owner": "a", "run_time": 3600},
    {"id": "2.0", "count": 4, "owner": "b", "run_time": 3600},
]


@pytest.fixture
def args(tmp_path: Path, write_config: Callable[[str], Path]) -> list[str]:
    work = tmp_path / "w.json"
    work.write_text(json.dumps(WORKLOAD))
    return [
        "--config",
        str(write_config(CONFIG)),
        "--state",
        str(tmp_path / "s.json"),
        "--now",
        NOW,
        "--workload",
        str(work),
    ]


def test_two_users_share_four_slots(
    args: list[str], run: Callable[..., Any], tmp_path: Path
) -> None:
    result = run("simulate", *args, "--until", "2:00:00", "--cycle", "3600", "--json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    subs = [
        (r["time"], r["name"], r["slots"], r["effective_priority"])
        for r in rows
        if r["kind"] == "submitter"
    ]
    assert {
        r["pending"] for r in rows if r["kind"] == "submitter" and r["time"] == rows[0]["time"]
    } == {2}
    one_h = 2 - 1.5 * 0.5 ** (1 / 24)  # two slots for an hour from 0.5, half-life a day
    two_h = 2 - 1.5 * 0.5 ** (2 / 24)
    assert [(t, n, s) for t, n, s, _ in subs] == [
        ("2026-11-21T12:00:00Z", "a@d", 2.0),
        ("2026-11-21T12:00:00Z", "b@d", 2.0),
        ("2026-11-21T13:00:00Z", "a@d", 2.0),
        ("2026-11-21T13:00:00Z", "b@d", 2.0),
        ("2026-11-21T14:00:00Z", "a@d", 0.0),
        ("2026-11-21T14:00:00Z", "b@d", 0.0),
    ]
    assert [e for *_, e in subs] == pytest.approx([0.5, 0.5, one_h, one_h, two_h, two_h])
    assert set(rows[0]) == {
        "time",
        "kind",
        "name",
        "slots",
        "effective_priority",
        "quota",
        "fairshare",
        "pending",
        "capacity",
    }
    pool = [r for r in rows if r["kind"] == "pool"]
    # 4 slots, 8 jobs: 4 run and 4 wait for the first hour, all 8 are done at the third
    assert [(r["slots"], r["capacity"], r["pending"]) for r in pool] == [
        (4.0, 4.0, 4),
        (4.0, 4.0, 0),
        (0.0, 4.0, 0),
    ]
    assert not (tmp_path / "s.json").exists()  # nothing written


def test_table_and_bad_durations(args: list[str], run: Callable[..., Any]) -> None:
    result = run("simulate", *args, "--until", "1:00:00", "--cycle", "3600", "--series")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].split() == [
        "Time",
        "Kind",
        "Name",
        "Slots",
        "EffPrio",
        "Quota",
        "FairShare",
        "Pending",
        "Capacity",
    ]
    for bad in (["--until", "1:2:3:4"], ["--cycle", "0"], ["--cycle", "-5"]):
        r = run("simulate", *args, *bad)
        assert r.exit_code == 2
        assert "Traceback" not in r.stderr


@pytest.mark.parametrize(("option", "value"), [("--until", "٣"), ("--until", "1_000"),
                                               ("--cycle", "６00"), ("--cycle", "6_00")])  # fmt: skip
def test_durations_c_would_not_read_are_refused(
    args: list[str], run: Callable[..., Any], option: str, value: str
) -> None:
    """``fs simulate --until 1_000`` ran 1,000 seconds and ``--until ٣`` three (Python's
    float reads them; Slurm's time strings and C do not): refused now, as the time string
    they are not, exit 2."""
    other = {"--until": "1:00:00", "--cycle": "600"}
    line = [option, value, *[w for k, v in other.items() if k != option for w in (k, v)]]
    r = run("simulate", *args, *line)
    assert r.exit_code == 2, r.stdout
    assert f'{option}: "{value}" has characters other than digits' in r.stderr
    assert r.stderr.count("\n") == 1


def test_plot(args: list[str], run: Callable[..., Any], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "sim.png"
    result = run("simulate", *args, "--until", "1:00:00", "--cycle", "1800", "--plot", str(png))
    assert result.exit_code == 0, result.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


PREEMPT_CONFIG = """
[pool]
uid_domain = "d"
defaults = "legacy"
[[machines]]
name = "m"
count = 1
slots = 1
"""


def test_legacy_preemption_after_the_hour_sends_the_job_back_to_idle(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """One slot. low (priority factor 10) starts a 3-hour job at 12:00; good submits at
    12:10. Legacy PREEMPTION_REQUIREMENTS wants TotalJobRuntime > 3600: at 13:00 the claim
    is exactly an hour old (no), at 13:10 it is 70 minutes old and low's EUP
    10 × (1 - 0.5 · 0.5^(4200/86400)) = 5.17 is above 1.2 × 0.5 (and 0.5 above good's), so
    good preempts. low's job is idle again and low's usage stops at 13:10."""
    start = 1795262400  # 2026-11-21T12:00:00Z
    state = {
        "format": "fairshare-cli state",
        "schema_version": 1,
        "accountant": {
            "records": {"low@d": {"priority": 0.5, "priority_factor": 10.0, "last_update": start}}
        },
    }
    (tmp_path / "s.json").write_text(json.dumps(state))
    work = [
        {"id": "1.0", "owner": "low", "run_time": 3 * 3600, "submit_time": start},
        {"id": "2.0", "owner": "good", "run_time": 3600, "submit_time": start + 600},
    ]
    (tmp_path / "w.json").write_text(json.dumps(work))
    result = run(
        "simulate",
        "--config",
        str(write_config(PREEMPT_CONFIG)),
        "--state",
        str(tmp_path / "s.json"),
        "--now",
        NOW,
        "--workload",
        str(tmp_path / "w.json"),
        "--until",
        "2:00:00",
        "--cycle",
        "600",
        "--json",
    )
    assert result.exit_code == 0, result.stderr
    rows = [r for r in json.loads(result.stdout) if r["kind"] == "submitter"]
    held = {(r["time"][11:16], r["name"]): r["slots"] for r in rows}
    assert held[("12:00", "low@d")] == 1.0
    for hhmm in ("12:10", "12:30", "13:00"):  # claim not older than an hour yet
        assert held[(hhmm, "low@d")] == 1.0
        assert held[(hhmm, "good@d")] == 0.0
    for hhmm in ("13:10", "13:30", "14:00"):  # preempted at 13:10; good's claim is young
        assert held[(hhmm, "low@d")] == 0.0
        assert held[(hhmm, "good@d")] == 1.0
    eup = {(r["time"][11:16], r["name"]): r["effective_priority"] for r in rows}
    at_preemption = _cycles(0.5, 1, 7)  # one slot for 70 minutes from 0.5
    assert eup[("13:10", "low@d")] == pytest.approx(10 * at_preemption, rel=1e-12)
    # then no usage: only decay for the 50 minutes to 14:00
    assert eup[("14:00", "low@d")] == pytest.approx(10 * _cycles(at_preemption, 0, 5), rel=1e-12)
    # good ran from 13:10: one slot for 50 minutes from 0.5
    assert eup[("14:00", "good@d")] == pytest.approx(_cycles(0.5, 1, 5), rel=1e-12)


def _cycles(p: float, used: float, n: int) -> float:
    """``n`` accountant updates 600 s apart (half-life one day) from RUP ``p`` with ``used``
    slots held: ``p·β + used·(1 − β)``, each stored with six decimals (``%f``), as
    ``Accountant::UpdateOnePriority`` leaves it (1 - 0.5·β^7 unrounded after 7 from 0.5)."""
    beta = 0.5 ** (600 / 86400)
    for _ in range(n):
        p = round(p * beta + used * (1 - beta), 6)
    return p


def test_committed_cycle_fills_dirac_history(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Jobs started by a committed `fs negotiate` count in DIRAC's running-jobs history."""
    cfg = write_config(CONFIG + "[dirac.groups.lhcb_user]\njob_share = 1000\n")
    state = tmp_path / "s.json"
    state.write_text(
        json.dumps(
            {
                "format": "fairshare-cli state",
                "schema_version": 1,
                "jobs": [
                    {"id": "1.0", "owner": "a", "dirac_group": "lhcb_user"},
                    {"id": "2.0", "owner": "b"},
                ],
            }
        )
    )
    result = run("negotiate", "--config", str(cfg), "--state", str(state), "--now", NOW, "--json")
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)["matches"]) == 2
    doc = json.loads(state.read_text())
    # 2026-11-21T12:00:00Z: one job of (lhcb_user, a) running from then on
    assert doc["dirac"] == {"running_jobs": {"lhcb_user": {"a": [[1795262400.0, 1]]}}}


def test_rm_of_a_running_job_releases_its_slot(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """`fs rm` of a running job: its claim goes, its usage stops, DIRAC sees it end."""
    cfg = write_config(CONFIG + "[dirac.groups.lhcb_user]\njob_share = 1000\n")
    state = tmp_path / "s.json"
    state.write_text(
        json.dumps(
            {
                "format": "fairshare-cli state",
                "schema_version": 1,
                "jobs": [
                    {"id": "1.0", "owner": "a", "dirac_group": "lhcb_user"},
                    {"id": "2.0", "owner": "b"},
                ],
            }
        )
    )
    args = ["--config", str(cfg), "--state", str(state)]
    assert run("negotiate", *args, "--now", NOW).exit_code == 0
    result = run("rm", "1.0", *args, "--now", "2026-11-21T13:00:00Z")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(state.read_text())
    assert [c["job_id"] for c in doc["negotiator"]["claims"].values()] == ["2.0"]
    rows = {
        r["name"]: r
        for r in json.loads(
            run("userprio", "--allusers", *args, "--now", "2026-11-21T13:00:00Z", "--json").stdout
        )
    }
    assert rows["a@d"]["weighted_resources_in_use"] == 0
    assert rows["a@d"]["weighted_accumulated_usage_hours"] == 1.0
    assert rows["b@d"]["weighted_resources_in_use"] == 1
    assert doc["dirac"]["running_jobs"]["lhcb_user"]["a"] == [[1795262400.0, 1], [1795266000.0, -1]]


def test_the_table_sums_each_entity_up(args: list[str], run: Callable[..., Any]) -> None:
    """Three cycles (12:00, 13:00, 14:00): a and b hold 2, 2, 0 slots, so a mean of 4/3
    and a largest of 2; at 14:00 each one's effective priority is that of two slots held
    for two hours from 0.5 under a one-day half-life, 2 - 1.5 * 0.5 ** (2/24)
    (``Accountant::UpdatePriorities``, as in the test above); the pool holds 4, 4, 0."""
    result = run("simulate", *args, "--until", "2:00:00", "--cycle", "3600")
    assert result.exit_code == 0, result.stderr
    lines = [line.split() for line in result.stdout.splitlines()]
    assert result.stdout.splitlines()[0].startswith(
        "3 cycles from 2026-11-21T12:00:00Z to 2026-11-21T14:00:00Z"
    )
    assert lines[1] == [
        "Kind", "Name", "MeanSlots", "MaxSlots", "EndSlots", "EffPrio", "Quota", "FairShare",
        "Pending",
    ]  # fmt: skip
    prio = f"{2 - 1.5 * 0.5 ** (2 / 24):.2f}"
    assert lines[2:] == [
        ["submitter", "a@d", f"{4 / 3:.2f}", "2", "0", prio, "0"],
        ["submitter", "b@d", f"{4 / 3:.2f}", "2", "0", prio, "0"],
        ["pool", "pool", f"{8 / 3:.2f}", "4", "0", "0"],
    ]


SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
ON_SAMPLE = ["--config", str(SAMPLE / "pool.toml"), "--now", NOW]


def test_no_workload_and_an_empty_queue_is_refused_at_once(run: Callable[..., Any]) -> None:
    """``fs simulate`` on the sample pool (claims, no queue) ran a day of cycles; now one
    line, exit 2, before any cycle."""
    result = run("simulate", *ON_SAMPLE)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(
        "fs: error: nothing to simulate: no --workload and the state's queue is empty"
    )
    assert result.stderr.count("\n") == 1


def test_a_plot_that_cannot_be_written_is_refused_before_the_run(
    run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import fairshare_cli.cli.simulate as cli_simulate

    def no_run(*_: object, **__: object) -> None:
        raise AssertionError("the simulation ran")

    monkeypatch.setattr(cli_simulate, "prepared", no_run)
    result = run(
        "simulate", "--workload", str(SAMPLE / "workload.json"),
        "--plot", "/nonexist/x.png", *ON_SAMPLE,
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr == "fs: error: --plot /nonexist/x.png: folder /nonexist does not exist\n"


def test_the_sample_run_prints_a_line_per_entity_and_series_every_cycle(
    run: Callable[..., Any],
) -> None:
    """At the default cycle (60 s) the sample workload printed a row per entity and cycle
    (38,788 lines for a day); the table is now one line per entity, the series with
    --series or --output csv (an hour here, to keep the test short)."""
    line = ["simulate", "--workload", str(SAMPLE / "workload.json"), "--until", "1:00:00"]
    summary = run(*line, *ON_SAMPLE)
    assert summary.exit_code == 0, summary.stderr
    lines = summary.stdout.splitlines()
    entities = len(lines) - 2
    assert lines[0].startswith("61 cycles from 2026-11-21T12:00:00Z to 2026-11-21T13:00:00Z")
    entity_names = [tuple(x.split()[:2]) for x in lines[2:]]
    series = run(*line, "--series", *ON_SAMPLE)
    rows = [tuple(x.split()[1:3]) for x in series.stdout.splitlines()[1:]]
    assert sorted(set(rows)) == sorted(entity_names)  # one line per entity, each once
    assert len(rows) > 50 * entities
    csv_rows = run(*line, "--output", "csv", *ON_SAMPLE)
    assert len(csv_rows.stdout.splitlines()) == 1 + len(rows)


@pytest.mark.parametrize(
    "fmt",
    [
        pytest.param([], id="summary"),
        pytest.param(["--series"], id="series"),
        pytest.param(["--json"], id="json"),
        pytest.param(["--output", "ndjson"], id="ndjson"),
        pytest.param(["--output", "csv"], id="csv"),
    ],
)
def test_rows_written_as_the_cycles_run_are_those_of_the_whole_run(
    fmt: list[str], args: list[str], run: Callable[..., Any], tmp_path: Path
) -> None:
    """Without --plot or --html each view takes the rows a cycle at a time (the summary a
    line per entity, the others written as they come); with --html every row is kept and
    shown after the run. The bytes are the same."""
    line = ["simulate", *args, "--until", "2:00:00", "--cycle", "600", *fmt]
    streamed = run(*line)
    kept = run(*line, "--html", str(tmp_path / "page.html"))
    assert streamed.exit_code == kept.exit_code == 0, streamed.stderr + kept.stderr
    assert streamed.stdout == kept.stdout
    if fmt:  # 13 cycles of a, b and the pool: 39 rows
        assert len(streamed.stdout.splitlines()) >= 39
    else:
        assert streamed.stdout.startswith("13 cycles from 2026-11-21T12:00:00Z")


def test_the_terminal_chart_follows_the_summary(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal the summary is followed by the chart, both from rows that passed once."""
    import sys

    from fairshare_cli.cli.simulate import stream_rows
    from fairshare_cli.core.operations.sim_row import SimRow
    from fairshare_cli.render.sim_chart import spark_chart
    from fairshare_cli.render.sim_summary import summary_table

    cycles = [
        [
            SimRow(1.8e9 + 60 * k, "submitter", "a@d", s, 0.5),
            SimRow(1.8e9 + 60 * k, "pool", "pool", s, capacity=4.0),
        ]
        for k, s in enumerate([0.0, 2.0, 4.0])
    ]
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    stream_rows(iter(cycles), "table", series=False)
    rows = [r for c in cycles for r in c]
    assert capsys.readouterr().out == summary_table(rows) + "\n" + spark_chart(rows)


def test_a_run_past_the_year_9999_is_refused_before_it_starts(
    args: list[str], run: Callable[..., Any]
) -> None:
    """fs simulate --now 9999-12-31T23:59:59Z --until 1:00:00 ends in one line, not in a
    traceback from the summary's last time (the year 10000)."""
    late = ["--now", "9999-12-31T23:59:59Z", "--until", "1:00:00", "--cycle", "1800"]
    result = run("simulate", *args, *late)
    assert result.exit_code == 2, result.stderr
    assert result.stderr == (
        "fs: error: --now 9999-12-31T23:59:59Z with --until 1:00:00 runs past "
        "9999-12-31T23:59:59Z, the last time fs can show; give an earlier --now or a "
        "shorter --until\n"
    )
    assert result.stdout == ""
    result = run("simulate", *args, "--now", "9999-12-31T22:59:59Z", *late[2:])
    assert result.exit_code == 0, result.stderr


def test_a_plot_that_does_not_fit_on_the_disk_keeps_the_old_one(
    args: list[str], run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--plot`` on a full disk: the old PNG byte for byte, no temp file, one line, exit 1
    (matplotlib wrote into the file itself: a full disk left half a new plot, exit 2)."""
    pytest.importorskip("matplotlib")
    png = tmp_path / "out" / "sim.png"
    png.parent.mkdir()
    png.write_bytes(b"\x89PNG the old plot")

    def disk_full(fd: int, *_args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("fairshare_cli.io.atomic.os.fsync", disk_full)
    result = run("simulate", *args, "--until", "1:00:00", "--cycle", "1800", "--plot", str(png))
    assert result.exit_code == 1
    assert result.stderr == f"fs: error: cannot write plot {png}: No space left on device\n"
    assert png.read_bytes() == b"\x89PNG the old plot"
    assert [p.name for p in png.parent.iterdir()] == ["sim.png"]


def test_an_empty_workload_and_an_empty_queue_name_the_workload(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs simulate --workload empty.json`` (``[]``) on the sample pool: the refusal says
    the workload holds no jobs, not that no --workload was given."""
    (tmp_path / "empty.json").write_text("[]\n")
    result = run("simulate", "--workload", str(tmp_path / "empty.json"), *ON_SAMPLE)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: nothing to simulate: --workload {tmp_path / 'empty.json'} holds no jobs "
        "and the state's queue is empty\n"
    )


def test_summary_means_are_over_every_cycle_of_the_run(run: Callable[..., Any]) -> None:
    """``fs simulate --workload sample_configs/workload.json --until 6:00:00 --cycle 1800``:
    ops's jobs come at 14:00, and its 150 slots for one of the 13 cycles are a mean of
    150/13 for the submitter as for the Slurm user (the submitter's was 150/9, over the
    cycles since it was first seen), and the submitters' means add up to the pool's."""
    result = run(
        "simulate", "--workload", str(SAMPLE / "workload.json"), "--until", "6:00:00",
        "--cycle", "1800", *ON_SAMPLE,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("13 cycles from 2026-11-21T12:00:00Z to 2026-11-21T18:00:00Z")
    mean = {(f[0], f[1]): float(f[2]) for f in (line.split() for line in lines[2:])}
    assert mean["submitter", "ops@example.org"] == mean["slurm_user", "ops"] == 11.54
    submitters = sum(v for (kind, _), v in mean.items() if kind == "submitter")
    assert abs(submitters - mean["pool", "pool"]) < 0.01 * len(mean)


def test_a_duration_with_a_unit_says_a_plain_number_is_seconds(
    args: list[str], run: Callable[..., Any]
) -> None:
    """fs simulate --until 1h: the refusal quoted Slurm's grammar (whose bare M is minutes)
    alone; it says too that a plain number is seconds here (``--until 3600`` is an hour)."""
    result = run("simulate", *args, "--until", "1h")
    assert result.exit_code == 2, result.stderr
    assert result.stderr == (
        'fs: error: --until: "1h" has characters other than digits, "-" and ":" (a Slurm '
        "time is M, M:S, H:M:S, D-H, D-H:M or D-H:M:S, or INFINITE); here a plain number "
        "is seconds (for 1h give 01:00:00, or 3600)\n"
    )
    result = run("simulate", *args, "--until", "3600", "--cycle", "1800", "--json")
    assert result.exit_code == 0, result.stderr
    times = sorted({row["time"] for row in json.loads(result.stdout)})
    assert times == ["2026-11-21T12:00:00Z", "2026-11-21T12:30:00Z", "2026-11-21T13:00:00Z"]


def test_a_held_workload_job_never_runs(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs simulate --workload w.json`` started a job of status held (as ``hold = true``
    submits it) at the first cycle, as if idle; HTCondor runs a held job only once it is
    released. Completed and removed workload jobs never run either."""
    config = write_config('[pool]\nuid_domain = "d"\n[[machines]]\nname = "m"\nslots = 4\n')
    work = [
        {"id": "1.0", "owner": "a", "run_time": 600, "status": "held"},
        {"id": "2.0", "owner": "b", "run_time": 600},
        {"id": "3.0", "owner": "c", "run_time": 600, "status": "completed"},
        {"id": "4.0", "owner": "c", "run_time": 600, "status": "removed"},
    ]
    (tmp_path / "w.json").write_text(json.dumps(work))
    result = run(
        "simulate", "--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW,
        "--workload", str(tmp_path / "w.json"), "--until", "0:20:00", "--cycle", "600", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rows = [r for r in json.loads(result.stdout) if r["kind"] == "submitter"]
    assert {r["name"] for r in rows if r["slots"]} == {"b@d"}
    assert result.stderr == (
        "fs: note: 1 held job never starts in this simulation ('fs release' lets a job run)\n"
    )


def test_a_queue_of_held_jobs_is_said_to_wait(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs simulate`` of a state whose queue holds only held jobs ran empty cycles and said
    nothing of them: a new admin saw a pool doing nothing."""
    config = write_config('[pool]\nuid_domain = "d"\n[[machines]]\nname = "m"\nslots = 4\n')
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    held = run("submit", "--owner", "a", "--set", "status=held", "--count", "3", *args)
    assert held.exit_code == 0, held.stderr
    result = run("simulate", "--until", "0:20:00", "--cycle", "600", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        "fs: note: 3 held jobs never start in this simulation ('fs release' lets a job run)\n"
    )


@pytest.mark.parametrize("clusters", [("abc", "-1"), ("a.7", "b")])
def test_a_count_of_any_id_runs_as_a_numeric_one(
    clusters: tuple[str, str],
    tmp_path: Path,
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
) -> None:
    """``fs simulate --workload w.json`` whose ``"count": 4`` objects have ids ``abc`` and
    ``-1`` (jobs ``abc.0`` ... ``abc.3``, as ``fs sprio`` lists them) ended with a
    KeyError traceback ('abc.1') once the first cycle matched a second job of a batch: the
    simulator found each matched job's place in its batch by HTCondor's numeric id and took
    every such job for the first. Now it runs as the workload of ids ``1.0`` and ``2.0``
    does (test_two_users_share_four_slots: two slots each for two hours, then none)."""
    config = ["--config", str(write_config(CONFIG)), "--now", NOW]
    config += ["--until", "2:00:00", "--cycle", "3600", "--json"]
    outputs = []
    for ids in (("1.0", "2.0"), clusters):
        work = tmp_path / "w.json"
        work.write_text(json.dumps([dict(o, id=i) for o, i in zip(WORKLOAD, ids, strict=True)]))
        result = run("simulate", "--workload", str(work), *config)
        assert result.exit_code == 0, result.stderr
        outputs.append(result.stdout)
    assert outputs[1] == outputs[0]
    rows = json.loads(outputs[1])
    assert [r["slots"] for r in rows if r["kind"] == "pool"] == [4.0, 4.0, 0.0]
