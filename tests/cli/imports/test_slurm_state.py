"""``--last-decay`` (cli/imports/_slurm_state.py): its help says where slurmctld keeps the
time of its last decay pass, which no dump prints (``_write_last_decay_ran`` writes it into
``StateSaveLocation/priority_last_decay_ran`` at every pass, 22.05 and 26.05 alike)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW
from tests.cli.imports.conftest import SLURM


@pytest.mark.parametrize("kind", ["sacct", "scontrol-assoc", "sshare", "squeue"])
def test_the_help_names_where_slurmctld_keeps_the_pass(run: Callable[..., Any], kind: str) -> None:
    """fs import squeue --help said only "When slurmctld's last decay pass ran", which a
    new admin has no way to find from the dumps."""
    result = run("import", kind, "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "slurmctld keeps it in StateSaveLocation/priority_last_decay_ran" in text


def test_a_fraction_of_a_second_in_the_pass_is_dropped(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import sshare sshare_a_l_P.txt --last-decay 1795258800.9 ...``: the pass was
    stored and printed as 11:00:00.900000, where slurmctld keeps a ``time_t`` and ``--now``
    drops a fraction; it is 11:00:00 now, in the line and in the state."""
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "d"\n', encoding="utf-8")
    state = tmp_path / "s.json"
    dump = SLURM / "ft2_idle" / "sshare_a_l_P.txt"
    result = run(
        *("import", "sshare", str(dump), "--into", str(config), "--config", str(config)),
        *("--state", str(state), "--now", NOW, "--last-decay", "1795258800.9"),
    )
    assert result.exit_code == 0, result.stderr
    assert (
        f"{dump}: usage of 5 user associations as of the decay pass at 2026-11-21T11:00:00Z "
        f"into {state}\n"
    ) in result.output
    assert json.loads(state.read_text(encoding="utf-8"))["slurm"]["last_decay_ran"] == 1795258800
