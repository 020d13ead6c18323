"""``fs import sacct --last-decay WHEN``: the jobs charged on slurmctld's own grid of
passes, the one through WHEN, as ``fs import sshare``, ``scontrol-assoc`` and ``squeue``
take the pass (docs/slurm.md, "Reading a real Slurm cluster"; DESIGN.md section 7).

By hand, from ``priority_multifactor.c`` (``_decay_thread``, ``_apply_new_usage``): a pass
every PriorityCalcPeriod (300 s) multiplies usage by ``d^Δ`` (``d = 1 − 0.693/3600``) and
charges a running job ``Δ·d^Δ·rate`` for the seconds since the last pass (its start at its
first); a job ending between passes is charged up to the pass before its end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_import_cmd_sacct_time import CONFIG  # (the same pool)

Run = Callable[..., Any]
SACCT = """JobID|User|Account|Partition|QOS|AllocCPUS|AllocTRES|State|Start|End
1|u1|a|batch|normal|2|billing=2,cpu=2,node=1|COMPLETED|2026-11-21T10:00:00|2026-11-21T10:20:00
2|u2|a|batch|half|4|billing=4,cpu=4,node=1|COMPLETED|2026-11-21T10:02:30|2026-11-21T10:12:30
"""
D = 1 - 0.693 / 3600
NOW = "2026-11-21T10:30:00Z"


def _args(tmp_path: Path) -> list[str]:
    (tmp_path / "pool.toml").write_text(CONFIG)
    (tmp_path / "sacct.txt").write_text(SACCT)
    state = str(tmp_path / "state.json")
    return ["--config", str(tmp_path / "pool.toml"), "--state", state, "--now", NOW]


def _usage(run: Run, args: list[str]) -> dict[str, float]:
    res = run("sshare", "-a", "--json", *args)
    assert res.exit_code == 0, res.stderr
    return {row["user"]: row["raw_usage"] for row in json.loads(res.stdout) if row["user"]}


def test_the_jobs_are_charged_on_the_grid_through_the_pass(tmp_path: Path, run: Run) -> None:
    """``fs import sacct sacct.txt --last-decay 2026-11-21T10:28:20Z``: passes fall at
    10:03:20, 10:08:20, ... (200 s past each 300 s multiple from 10:00), not at the epoch
    multiples of 300 s the import took before (it had no such option). In seconds after
    10:00, usage at the pass at 1700: u1 (rate 2, 0 to 1200) is charged at 200 (200 s),
    500, 800, 1100 (300 s each), its last 100 s uncharged; u2 (4 CPUs at UsageFactor 0.5,
    rate 2, 150 to 750) at 200 (50 s) and 500 (300 s), its last 250 s uncharged."""
    args = _args(tmp_path)
    sacct = str(tmp_path / "sacct.txt")
    res = run("import", "sacct", sacct, *args, "--last-decay", "2026-11-21T10:28:20Z")
    assert res.exit_code == 0, res.stderr
    assert res.stdout == f"Imported 2 usage records from {sacct} into {args[3]}\n"
    u1 = 2 * 200 * D**200 * D**1500 + sum(
        2 * 300 * D**300 * D ** (1700 - p) for p in (500, 800, 1100)
    )
    u2 = 2 * 50 * D**50 * D**1500 + 2 * 300 * D**300 * D**1200
    assert _usage(run, args) == pytest.approx({"u1": u1, "u2": u2}, rel=1e-12)
    assert round(u1, 3) == 1718.641  # (1854.569 on the grid of the epoch multiples)
    state = json.loads(Path(args[3]).read_text())
    assert state["slurm"]["last_decay_ran"] == 1795256900.0  # 2026-11-21T10:28:20Z


@pytest.mark.parametrize(
    ("value", "message"),
    [
        pytest.param(
            "2030-01-01T00:00:00Z",
            f"--last-decay 2030-01-01T00:00:00Z is after --now {NOW}; the pass must have run "
            "already",
            id="after-now",
        ),
        pytest.param(
            "nonsense",
            "--last-decay: expected epoch seconds or an ISO-8601 time like "
            '2026-11-21T12:00:00Z, got "nonsense"',
            id="not-a-time",
        ),
        pytest.param(
            "",
            "--last-decay: expected epoch seconds or an ISO-8601 time like "
            '2026-11-21T12:00:00Z, got ""',
            id="empty",
        ),
    ],
)
def test_a_bad_last_decay_is_refused_as_the_other_imports_refuse_it(
    tmp_path: Path, run: Run, value: str, message: str
) -> None:
    """The words of ``fs import squeue``/``sshare``/``scontrol-assoc`` (one helper), exit 2,
    nothing written."""
    args = _args(tmp_path)
    res = run("import", "sacct", str(tmp_path / "sacct.txt"), *args, "--last-decay", value)
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == f"fs: error: {message}\n"
    assert not Path(args[3]).exists()


def test_a_pass_before_the_states_needs_rebuild(tmp_path: Path, run: Run) -> None:
    """After an import at the 10:28:20 pass, one at 10:20:00 would take usage back: refused
    (as ``fs import squeue`` refuses it), the state untouched; with ``--rebuild`` (usage
    forgotten) the jobs are charged again on the grid through 10:20, here the epoch
    multiples of 300 s: u1 at 300, 600, 900, 1200 (300 s each), u2 at 300 (150 s) and 600
    (300 s), decayed to the 10:30 pass (1800)."""
    args = _args(tmp_path)
    sacct = str(tmp_path / "sacct.txt")
    assert (
        run("import", "sacct", sacct, *args, "--last-decay", "2026-11-21T10:28:20Z").exit_code == 0
    )
    before = Path(args[3]).read_bytes()
    res = run("import", "sacct", sacct, *args, "--last-decay", "2026-11-21T10:20:00Z")
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (
        "fs: error: --last-decay 2026-11-21T10:20:00Z is before the state's last decay pass "
        "(2026-11-21T10:28:20Z); usage cannot go back\n"
    )
    assert Path(args[3]).read_bytes() == before
    res = run("import", "sacct", sacct, *args, "--last-decay", "2026-11-21T10:20:00Z", "--rebuild")
    assert res.exit_code == 0, res.stderr
    u1 = sum(2 * 300 * D**300 * D ** (1800 - p) for p in (300, 600, 900, 1200))
    u2 = 2 * (150 * D**150 * D**1500 + 300 * D**300 * D**1200)
    assert _usage(run, args) == pytest.approx({"u1": u1, "u2": u2}, rel=1e-12)


LIMITED = """
[pool]
name = "c"
defaults = "current"
[priority]
calc_period = 300
decay_halflife = "1:00:00"
[[machines]]
name = "n"
slots = 16
attributes = { Cpus = 1 }
[partitions.batch]
default = true
[accounts.a]
shares = 1
users = { u1 = 1, u2 = 1 }
"""


def test_a_running_job_of_the_queue_is_charged_up_to_its_limit(tmp_path: Path, run: Run) -> None:
    """u1's job (1 CPU, ``fs submit --time-limit 62``, running from 11:00; OverTimeLimit 0)
    is ended by slurmctld at 12:02 (``job_time_limit``). Moved to the pass at 12:02:30 (a
    restart's first pass, ``--last-decay``), its usage is that of the passes 11:05 ...
    12:00 on the state's grid (300 s each; 3750 − 300k s before 12:02:30), none for the
    150 s up to 12:02:30 (the job had ended), and its charge is gone. u2's sacct job (1 CPU,
    11:00 to 11:30) is charged on the grid through 12:02:30: 150 s at 11:02:30, 300 s at
    11:07:30 ... 11:27:30, its last 150 s uncharged."""
    config = tmp_path / "pool.toml"
    config.write_text(LIMITED)
    sacct = tmp_path / "sacct.txt"
    sacct.write_text(
        "JobID|User|Account|Partition|QOS|AllocCPUS|State|Start|End\n"
        "5|u2|a|batch|normal|1|COMPLETED|2026-11-21T11:00:00|2026-11-21T11:30:00\n"
    )
    common = ["--config", str(config), "--state", str(tmp_path / "state.json")]
    start = ["--set", "status=running", "--set", "start_time=2026-11-21T11:00:00Z"]
    res = run(
        "submit", "--owner", "u1", "--time-limit", "62", *start, "--account", "a", *common,
        "--now", "2026-11-21T11:00:00Z",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    now = ["--now", "2026-11-21T12:03:00Z"]
    res = run("import", "sacct", str(sacct), *common, *now, "--last-decay", "2026-11-21T12:02:30Z")
    assert res.exit_code == 0, res.stderr
    u1 = sum(300 * D**300 * D ** (3750 - 300 * k) for k in range(1, 13))
    u2 = 150 * D**150 * D**3600 + sum(300 * D**300 * D ** (3600 - 300 * k) for k in range(1, 6))
    assert _usage(run, [*common, *now]) == pytest.approx({"u1": u1, "u2": u2}, rel=1e-12)
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["slurm"]["running"] == []
