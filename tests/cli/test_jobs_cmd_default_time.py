"""``fs submit`` stores the time limit a Slurm job takes from its partition's ``DefaultTime``.

slurmctld fixes a job's limit when it takes the job (``src/slurmctld/job_mgr.c``, 22.05.9
and 26.05.3 alike): ``_valid_job_part`` sets ``job_desc->time_limit`` to the primary
partition's ``default_time`` (the first it names: ``get_part_list``'s ``prim_part_ptr``)
when the job gives none, and ``_copy_job_desc_to_job_record`` copies it into the job
record. From then on ``scontrol show job`` prints it as ``TimeLimit`` (``mins2time_str``;
a job still of no limit prints its partition's ``MaxTime``: ``pack_job`` packs
``part_ptr->max_time`` for ``NO_VAL``), and a later change of ``DefaultTime`` leaves it:
nothing re-reads the partition's. fs applied ``default_time`` whenever it read the job, so
a job queued under ``default_time = "20"`` took the new value after the config changed.

The limits that refuse a job under ``EnforcePartLimits`` are tested before it takes the
``DefaultTime`` (``_part_access_check`` runs first in ``_valid_job_part``, on the job's
``NO_VAL``), so they never refuse a job for the limit it is given.

A state written before keeps its jobs of no limit, read as they always were.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, sprio_files
from tests.cli.test_sprio_default_time import NOW_EPOCH, POOL

Run = Callable[..., Any]
#: batch's DefaultTime raised from 20 minutes to an hour.
LATER = POOL.replace('default_time = "20"', 'default_time = "1:00:00"')
SPRIO = ("sprio", "-o", "%.5i %9r %.10J")


def _files(tmp_path: Path) -> list[str]:
    return [*sprio_files(tmp_path, [], POOL)[:4], "--now", NOW]


def _jobs(tmp_path: Path) -> list[dict[str, Any]]:
    return json.loads((tmp_path / "state.json").read_text(encoding="utf-8"))["jobs"]  # type: ignore[no-any-return]


def test_submit_stores_the_default_time_and_keeps_it_when_it_changes(
    tmp_path: Path, run: Run
) -> None:
    """By hand (``_set_priority_factors``, SMALL_RELATIVE_TO_TIME): a 1-CPU job of one node
    on 2 nodes of 2 CPUs counts max(1 × 4 / 2, 1) = 2 CPUs, / its limit in minutes / the
    cluster's 4 CPUs × 1000 = 500 / minutes.

    - job 1 (no partition: batch, DefaultTime 20 minutes) is stored with 1200 s: JOBSIZE
      25, under the config it was submitted with and under the raised DefaultTime alike
      (fs: 500 / 60 = 8.3, shown 8, after the change);
    - job 2 (short: no DefaultTime) is stored without a limit: its MaxTime's 50 minutes,
      10;
    - job 3 (batch,short: its first, batch, gives it 20 minutes) 25 in both rows;
    - job 4 (its own 30 minutes) keeps them: 500 / 30 = 16.7, shown rounded: 17.
    """
    files = _files(tmp_path)
    for extra in ([], ["--partition", "short"], ["--partition", "batch,short"],
                  ["--time-limit", "30"]):  # fmt: skip
        res = run("submit", "--owner", "alice", "--account", "hep", *extra, *files)
        assert (res.exit_code, res.stderr) == (0, ""), res.stderr
    assert [job.get("time_limit") for job in _jobs(tmp_path)] == [1200.0, None, 1200.0, 1800.0]
    expected = [
        "JOBID PARTITION    JOBSIZE",
        "    1 batch             25",
        "    2 short             10",
        "    3 batch             25",
        "    3 short             25",
        "    4 batch             17",
    ]
    assert run(*SPRIO, *files).stdout.splitlines() == expected
    (tmp_path / "pool.toml").write_text(LATER, encoding="utf-8")
    res = run(*SPRIO, *files)
    assert (res.exit_code, res.stdout.splitlines()) == (0, expected)


def test_a_job_of_the_dump_or_an_older_state_still_takes_default_time_when_read(
    tmp_path: Path, run: Run
) -> None:
    """A job of no limit in a state written before (or in a jobs file) is read as today:
    the DefaultTime of the config read, an hour: 500 / 60 = 8.3, JOBSIZE 8."""
    files = _files(tmp_path)
    state = {"format": "fairshare-cli state", "schema_version": 1,
             "jobs": [{"id": "1", "owner": "alice", "account": "hep",
                       "submit_time": NOW_EPOCH}]}  # fmt: skip
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    (tmp_path / "pool.toml").write_text(LATER, encoding="utf-8")
    res = run(*SPRIO, *files)
    assert res.stdout.splitlines() == ["JOBID PARTITION    JOBSIZE", "    1 batch              8"]


def test_enforce_part_limits_tests_the_job_before_its_default_time(
    tmp_path: Path, run: Run
) -> None:
    """batch's DefaultTime of an hour is above short's MaxTime (50 minutes). With
    ``EnforcePartLimits=ALL`` a job of batch,short of no limit is taken (its limit is
    NO_VAL when each partition is tested) and stored with 3600 s, where one asking an hour
    itself is refused on short's MaxTime. It runs in batch; short holds it back
    (``PartitionTimeLimit``), so fs submit warns of nothing."""
    config = LATER.replace("[priority]\n", '[priority]\nenforce_part_limits = "ALL"\n')
    files = _files(tmp_path)
    (tmp_path / "pool.toml").write_text(config, encoding="utf-8")
    submit = ("submit", "--owner", "alice", "--account", "hep", "--partition", "batch,short")
    res = run(*submit, *files)
    assert (res.exit_code, res.stderr) == (0, "")
    assert [job.get("time_limit") for job in _jobs(tmp_path)] == [3600.0]
    res = run(*submit, "--time-limit", "1:00:00", *files)
    assert res.exit_code == 2
    assert res.stderr == (
        'fs: error: fs submit: job 2: PartitionTimeLimit (partition "short": MaxTime 00:50:00,'
        ' the job asks for 01:00:00): refused, EnforcePartLimits=ALL (sbatch: "Requested'
        ' time limit is invalid (missing or exceeds some limit)")\n'
    )


def test_an_htcondor_job_takes_no_slurm_time_limit(tmp_path: Path, run: Run) -> None:
    """A job naming no account, partition or QOS whose user has no association is
    HTCondor's (or DIRAC's): slurmctld never sees it, and no limit is stored."""
    res = run("submit", "--owner", "carol", *_files(tmp_path))
    assert res.exit_code == 0, res.stderr
    assert [job.get("time_limit") for job in _jobs(tmp_path)] == [None]
