"""``fs simulate --scheduler slurm`` under ``OverTimeLimit`` and ``KillWait``
(``priority.over_time_limit``, ``partitions.<name>.over_time_limit``,
``priority.kill_wait``). fs knew neither (the keys were refused as unknown, the
slurm.conf knobs ignored) and ended every job at its time limit.

What slurmctld does (22.05 and 26.05 alike):

- ``job_time_limit`` (``job_mgr.c``) ends a running job once its end time (start + time
  limit) is ``OverTimeLimit`` minutes behind, the partition's when it sets one, else the
  cluster's; UNLIMITED is a year (``YEAR_SECONDS``); a job of UNLIMITED time limit is
  never ended so;
- backfill plans a job that runs past its end time to end ``KillWait`` + ``OverTimeLimit``
  after it (``_guess_job_end`` in ``select/cons_tres/job_test.c``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_simulate_slurm_planned_ends import NOW, OPEN, PRIORITY, Run, _job

CYCLES = ("12:00", "12:05", "12:10", "12:15", "12:20", "12:25", "12:30", "12:35", "12:40")


def _cpus(
    tmp_path: Path,
    run: Run,
    config: str,
    knobs: str,
    queue: list[Any],
    work: list[Any],
    backfill: bool,
) -> dict[str, float]:
    """``user HH:MM`` -> CPUs held, at each cycle of ``fs simulate`` every 5 minutes
    (``knobs``: ``[priority]`` keys)."""
    text = config + PRIORITY.replace("[priority]\n", "[priority]\n" + knobs)
    (tmp_path / "pool.toml").write_text(text, encoding="utf-8")
    state = {"format": "fairshare-cli state", "schema_version": 1, "jobs": queue}
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    (tmp_path / "work.json").write_text(json.dumps(work), encoding="utf-8")
    res = run("simulate", "--workload", str(tmp_path / "work.json"), "--scheduler", "slurm",
              *(["--backfill"] if backfill else []), "--until", "0:40:00", "--cycle", "300",
              "--json", "--config", str(tmp_path / "pool.toml"),
              "--state", str(tmp_path / "state.json"), "--now", NOW)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    return {
        f"{row['name']} {row['time'][11:16]}": row["slots"]
        for row in json.loads(res.stdout)
        if row["kind"] == "slurm_user"
    }


@pytest.mark.parametrize(
    ("priority", "partition", "last"),
    [
        pytest.param("", "", "12:05", id="none"),
        pytest.param('over_time_limit = "10"\n', "", "12:15", id="ten-minutes"),
        pytest.param("over_time_limit = 600\n", "", "12:15", id="in-seconds"),
        pytest.param(
            'over_time_limit = "10"\n', 'over_time_limit = "0"\n', "12:05", id="partition-wins"
        ),
        pytest.param("", 'over_time_limit = "UNLIMITED"\n', "12:40", id="unlimited"),
    ],
)
def test_a_job_runs_over_its_limit_by_over_time_limit(
    tmp_path: Path, run: Run, priority: str, partition: str, last: str
) -> None:
    """Alice's job (1 CPU, limit 10 minutes, runs 2 hours if let) starts at 12:00: it is
    ended at 12:10 plus OverTimeLimit (UNLIMITED: a year on, not within these 40 minutes),
    so it holds its CPU at the cycles up to ``last``."""
    config = OPEN.replace("[partitions.open]\n", "[partitions.open]\n" + partition)
    work = [_job("1", "alice", 0, 1, time_limit=600, run_time=7200)]
    cpus = _cpus(tmp_path, run, config, priority, [], work, False)
    assert [hhmm for hhmm in CYCLES if cpus[f"alice {hhmm}"]] == [
        hhmm for hhmm in CYCLES if hhmm <= last
    ]


def test_backfill_plans_an_overdue_job_to_end_after_kill_wait_and_over_time_limit(
    tmp_path: Path, run: Run
) -> None:
    """OverTimeLimit 20 minutes, KillWait 120 s, one node of 2 CPUs, a backfill pass every
    5-minute cycle. Job 1 (alice, 1 CPU, limit 10 minutes, runs an hour if let, the
    oldest) starts at 12:00; job 2 (alice, 2 CPUs, 30 minutes) waits for it; job 3 (bob, 1
    CPU, 21 minutes) waits behind.

    At 12:00 and 12:05 backfill plans job 1 to end at its limit: job 2 is reserved the
    node from 12:10, so job 3 cannot start. At 12:10 job 1 runs on, past its end: Slurm
    guesses its end 12:10 + 120 s + 20 minutes = 12:32, job 2's reservation moves there,
    and job 3 fits before it (12:10 to 12:31): backfill starts it. slurmctld ends job 1 at
    12:30 (12:10 + OverTimeLimit); job 2 starts once job 3 is done too, at the 12:35
    cycle. fs, which knew neither key, ended job 1 at 12:10 and started job 2 then: job 3
    waited to 12:40."""
    knobs = 'over_time_limit = "20"\nkill_wait = 120\n'
    work = [
        _job("1", "alice", 900, 1, time_limit=600, run_time=3600),
        _job("2", "alice", 600, 2, time_limit=1800, run_time=1800),
        _job("3", "bob", 300, 1, time_limit=1260, run_time=1260),
    ]
    cpus = _cpus(tmp_path, run, OPEN, knobs, [], work, True)
    assert [cpus[f"bob {hhmm}"] for hhmm in CYCLES] == [0, 0, 1, 1, 1, 1, 1, 0, 0]
    assert [cpus[f"alice {hhmm}"] for hhmm in CYCLES] == [1, 1, 1, 1, 1, 1, 0, 2, 2]
    # KillWait at its default, 30 s: Slurm guesses 12:30:30, too early for job 3
    cpus = _cpus(tmp_path, run, OPEN, 'over_time_limit = "20"\n', [], work, True)
    assert [cpus[f"bob {hhmm}"] for hhmm in CYCLES] == [0] * 9
