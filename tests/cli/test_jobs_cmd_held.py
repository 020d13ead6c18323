"""``fs prio --slurm`` sets no priority but 0 on a held Slurm job.

Read in Slurm's ``job_mgr.c``: ``_update_job`` refuses a priority other than 0 for a held
job ("ignore priority reset request on held", ``ESLURM_JOB_HELD``: "Job is in held state,
pending scheduler release"; scontrol exits 1), and takes 0 again (the current value).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, SPRIO_ACCOUNTS, SPRIO_POOL, sprio_files

CONFIG = SPRIO_POOL + SPRIO_ACCOUNTS
Run = Callable[..., Any]


def _queue(tmp_path: Path, run: Run) -> list[str]:
    args = [*sprio_files(tmp_path, [], CONFIG)[:4], "--now", NOW]
    res = run("submit", "--owner", "alice", "--account", "hep", *args)
    assert res.exit_code == 0, res.stderr
    return args


def test_prio_slurm_on_a_held_job_is_refused(tmp_path: Path, run: Run) -> None:
    """``fs prio 1 500 --slurm`` on a job ``fs prio 1 0 --slurm`` held printed "Set admin
    priority of 1 to 500" and left it held, out of every listing; scontrol refuses it and
    exits 1, the state unchanged. Priority 0 again is taken (the current value)."""
    args = _queue(tmp_path, run)
    assert run("prio", "1", "0", "--slurm", *args).exit_code == 0
    before = (tmp_path / "state.json").read_bytes()
    res = run("prio", "1", "500", "--slurm", *args)
    assert res.exit_code == 1
    assert res.stdout == ""
    assert res.stderr == (
        "fs: error: job 1: Job is in held state, pending scheduler release (scontrol update "
        "sets no priority but 0 on a held job; fs release releases it)\n"
    )
    assert (tmp_path / "state.json").read_bytes() == before
    again = run("prio", "1", "0", "--slurm", *args)
    assert again.exit_code == 0, again.stderr
    assert again.stdout == "Set admin priority of 1 to 0\n"


def test_prio_refuses_a_number_strtol_cannot_read(tmp_path: Path, run: Run) -> None:
    """``fs prio 1 1_000 --slurm`` set the admin priority to 1000 (Python reads 1_000 so,
    and ``٣`` as 3); scontrol refuses it ("Invalid Priority value", ``parse_uint32``)."""
    args = _queue(tmp_path, run)
    before = (tmp_path / "state.json").read_bytes()
    for text in ("1_000", "\u0663"):
        res = run("prio", "1", text, "--slurm", *args)
        assert res.exit_code == 2
        assert res.stderr == f'fs: error: priority "{text}": expected a whole number\n'
    assert (tmp_path / "state.json").read_bytes() == before
