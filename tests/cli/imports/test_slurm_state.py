"""``--last-decay`` (cli/imports/_slurm_state.py): its help says where slurmctld keeps the
time of its last decay pass, which no dump prints (``_write_last_decay_ran`` writes it into
``StateSaveLocation/priority_last_decay_ran`` at every pass, 22.05 and 26.05 alike)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.mark.parametrize("kind", ["sacct", "scontrol-assoc", "sshare", "squeue"])
def test_the_help_names_where_slurmctld_keeps_the_pass(run: Callable[..., Any], kind: str) -> None:
    """fs import squeue --help said only "When slurmctld's last decay pass ran", which a
    new admin has no way to find from the dumps."""
    result = run("import", kind, "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "slurmctld keeps it in StateSaveLocation/priority_last_decay_ran" in text
