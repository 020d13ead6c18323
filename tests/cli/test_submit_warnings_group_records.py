"""``fs submit --owner alice`` into the sample pool, where alice's usage is in the record
``group_physics.hep.alice@example.org``: the job's submitter, ``alice@example.org``, is new
to the accountant and was made in silence (as condor_submit makes it), so the job was
not charged where alice's usage is. The job is still taken; a one-line note on stderr now
names the record and the accounting group that charges it there."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

NOTE = (
    "fs: note: {which}: submitter alice@example.org has no accountant record, while alice's"
    " usage is under group_physics.hep.alice@example.org: to charge {it} there, give"
    " accounting_group group_physics.hep.alice (--accounting-group)\n"
)


def _args(tmp_path: Path) -> list[str]:
    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    config = str(REPO / "sample_configs" / "pool.toml")
    return ["--config", config, "--state", str(state), "--now", "2026-11-21T12:00:00Z"]


def test_a_new_submitter_with_a_group_record_is_noted(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    args = _args(tmp_path)
    result = run("submit", "--owner", "alice", *args)
    assert (result.exit_code, result.stdout) == (0, "Submitted 1 job as cluster 1\n")
    assert result.stderr == NOTE.format(which="job 1", it="it")
    result = run("submit", "--owner", "alice", "--count", "2", *args)
    assert (result.exit_code, result.stdout) == (0, "Submitted 2 jobs as cluster 2\n")
    assert result.stderr == NOTE.format(which="2 jobs (2.0 ...)", it="them")


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param(["--accounting-group", "group_physics.hep.alice"], id="in her group"),
        pytest.param(["--account", "hep"], id="a Slurm job"),
        pytest.param(["--dirac-group", "lhcb_user"], id="a DIRAC job"),
        pytest.param(["--owner", "ivan"], id="a submitter with a record"),
        pytest.param(["--owner", "zed"], id="a user of no record"),
    ],
)
def test_no_note(tmp_path: Path, run: Callable[..., Any], extra: list[str]) -> None:
    result = run("submit", "--owner", "alice", *extra, *_args(tmp_path))
    assert (result.exit_code, result.stdout) == (0, "Submitted 1 job as cluster 1\n")
    assert result.stderr == ""
