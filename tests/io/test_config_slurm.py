"""``[partitions]`` and the partitions ``[[machines]]`` name (io/config/slurm.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import refused
from tests.conftest import REPO


def test_a_machine_naming_an_unknown_partition_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The sample pool with a typo in a machine's partitions (``"expres"``):
    ``fs config check --config my.toml`` said it was valid, and express, with no node,
    had 0 CPUs: ``fs submit --partition express`` queued a job that would never start.
    slurmctld will not start on a partition naming a node it has no NodeName line for
    (``_build_part_bitmaps``: "Invalid node names in partition"), the mirror of this."""
    text = (REPO / "sample_configs" / "pool.toml").read_text()
    assert text.count('partitions = ["batch", "express"]') == 1
    config = tmp_path / "my.toml"
    config.write_text(text.replace('["batch", "express"]', '["batch", "expres"]'))
    refused(
        run("config", "check", "--config", str(config)),
        f"fs: error: {config}: machines[1] (bigmem).partitions: unknown partition "
        "\"expres\" (did you mean 'express'?); add [partitions.expres] or name one of the "
        "[partitions]: batch, express",
    )
    state = tmp_path / "state.json"
    submit = ("submit", "--owner", "heidi", "--account", "chemistry", "--partition", "express")
    refused(run(*submit, "--config", str(config), "--state", str(state)), "machines[1] (bigmem)")
    assert not state.exists()
