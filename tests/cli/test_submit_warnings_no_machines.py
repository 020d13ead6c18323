"""``fs submit`` of a Slurm job in a config with no ``[[machines]]`` (after ``fs import
slurm-conf`` of partitions alone): the job is taken, as before, with no test of the nodes
sbatch runs (a 400-CPU job was taken in silence); now a one-line note on stderr says no
node was tested and what brings the nodes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW

CONFIG = """
[partitions.batch]
default = true
[accounts.hep]
shares = 1
users = { alice = 1 }
"""
NOTE = (
    "no node was tested, as the config has no [[machines]] (sbatch refuses a job no node"
    " of its partitions could ever run); fs import slurm-conf of a slurm.conf with its"
    " NodeName lines brings them\n"
)


def _pool(tmp_path: Path, config: str = CONFIG) -> list[str]:
    (tmp_path / "c.toml").write_text(config, encoding="utf-8")
    return ["--config", str(tmp_path / "c.toml"), "--state", str(tmp_path / "s.json")]


def test_a_slurm_job_is_taken_with_a_note(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs submit --owner alice --account hep --cpus 400``: taken, and the note."""
    args = _pool(tmp_path)
    result = run("submit", "--owner", "alice", "--account", "hep", "--cpus", "400",
                 *args, "--now", NOW)  # fmt: skip
    assert (result.exit_code, result.stdout) == (0, "Submitted 1 job as cluster 1\n")
    assert result.stderr == f"fs: note: job 1: {NOTE}"
    result = run("submit", "--owner", "alice", "--count", "3", "--cpus", "400",
                 *args, "--now", NOW)  # fmt: skip
    assert (result.exit_code, result.stdout) == (0, "Submitted 3 jobs as cluster 2\n")
    assert result.stderr == f"fs: note: 3 jobs (2.0 ...): {NOTE}"


def test_no_note_for_a_job_that_is_not_slurm_s(tmp_path: Path, run: Callable[..., Any]) -> None:
    """An HTCondor job (its user has no association, and it names no Slurm name) is not a
    job sbatch tests: no note."""
    result = run("submit", "--owner", "bob", "--cpus", "400", *_pool(tmp_path), "--now", NOW)
    assert (result.exit_code, result.stderr) == (0, "")


def test_no_note_without_partitions(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A config of associations alone (``fs sprio`` and ``fs sshare`` of a queue) has no
    partition whose nodes sbatch would test: no note."""
    args = _pool(tmp_path, CONFIG.replace("[partitions.batch]\ndefault = true\n", ""))
    result = run("submit", "--owner", "alice", "--account", "hep", *args, "--now", NOW)
    assert (result.exit_code, result.stderr) == (0, "")
