"""``fs submit`` warns of a Slurm job that names no partition where none is the default.

slurmctld refuses such a job (``_get_job_parts`` in ``job_mgr.c``:
``ESLURM_DEFAULT_PARTITION_NOT_SET``), and ``fs sprio`` refuses a queue that holds one
(``core/slurm/partition.py``). ``fs submit`` queues it all the same, since a job naming
no partition may be HTCondor's or DIRAC's, but it used to say nothing: a new admin's
``fs submit --owner alice`` printed "Submitted 1 job" and the next ``fs sprio`` refused
the whole state. It now says so on stderr when it queues the job.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., Any]
NOW = "2026-11-21T12:00:00Z"
#: A Slurm pool whose one partition is not the default; alice has an association.
POOL = """\
[pool]
name = "c"
[priority]
weights = { fairshare = 1000, age = 100 }
[partitions.batch]
priority_job_factor = 1
[accounts.phys]
shares = 1
users = { alice = 1 }
"""
WARNING = (
    "no partition, and no partition (batch) is the default: Slurm refuses such a job, and"
    " fs sprio refuses the queue while it holds it; give {it} a partition (--partition), or"
    " set default = true on one (an HTCondor or DIRAC job may stay as it is)\n"
)

NO_NODE = (
    "fs: note: {job}: no node was tested, as the config has no [[machines]] (sbatch refuses"
    " a job no node of its partitions could ever run); fs import slurm-conf of a slurm.conf"
    " with its NodeName lines brings them\n"
)


def _files(tmp_path: Path, pool: str = POOL) -> list[str]:
    (tmp_path / "pool.toml").write_text(pool, encoding="utf-8")
    return ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "st.json")]


def test_submit_warns_of_a_slurm_job_naming_no_partition_without_a_default(
    tmp_path: Path, run: Run
) -> None:
    files = _files(tmp_path)
    res = run("submit", "--owner", "alice", *files, "--now", NOW)
    assert res.exit_code == 0
    assert res.stdout == "Submitted 1 job as cluster 1\n"
    assert res.stderr == "fs: warning: job 1 names " + WARNING.format(it="it")
    res = run("submit", "--owner", "alice", "--count", "3", *files, "--now", NOW)
    assert res.exit_code == 0
    assert res.stderr == "fs: warning: 3 jobs (2.0 ...) name " + WARNING.format(it="them")
    # what the warning announces: the next view refuses the queue, naming job 1
    res = run("sprio", *files, "--now", NOW)
    assert res.exit_code == 2
    assert "job 1: names no partition" in res.stderr


def test_submit_says_nothing_of_a_job_slurm_takes_or_that_is_not_slurm_s(
    tmp_path: Path, run: Run
) -> None:
    """A job naming its partition, a job of an owner with no association (HTCondor's, to
    fs: ``fs sprio`` leaves it out with a note), and any job once a partition is the
    default are queued without this warning (a Slurm job with the note that the pool,
    which has no ``[[machines]]``, had no node to test)."""
    files = _files(tmp_path)
    for owner, extra, said in (("alice", ["--partition", "batch"], NO_NODE), ("bob", [], "")):
        res = run("submit", "--owner", owner, *extra, *files, "--now", NOW)
        assert (res.exit_code, res.stderr) == (0, said.format(job="job 1" if said else ""))
    files = _files(tmp_path, POOL.replace("priority_job_factor = 1", "default = true"))
    res = run("submit", "--owner", "alice", *files, "--now", NOW)
    assert (res.exit_code, res.stderr) == (0, NO_NODE.format(job="job 3"))
