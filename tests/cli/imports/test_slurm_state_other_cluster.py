"""A usage dump none of whose user associations the config has (another cluster's, or one
whose account tree was not imported first) is refused: one line, exit 2, the state as it
was. ``fs import scontrol-assoc`` and ``fs import sshare`` of such a dump into the sample
pool said ``usage of 0 user associations ... into STATE; ignored 5: b/u1, ...`` and exit 0,
and every association's usage was gone (``fs sshare`` showed RawUsage 0 everywhere): the
dump's usage replaces the state's, and none of it was kept."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, REPO

CAPTURES = FIXTURES / "slurm-22.05" / "ft2_idle"
SAMPLE = REPO / "sample_configs"


@pytest.mark.parametrize(
    ("kind", "dump"),
    [
        ("scontrol-assoc", "scontrol_assoc_mgr.txt"),
        ("sshare", "sshare_a_l_P.txt"),
    ],
)
def test_a_dump_of_another_clusters_associations_is_refused(
    tmp_path: Path, run: Callable[..., Any], kind: str, dump: str
) -> None:
    state = tmp_path / "state.json"
    shutil.copy(SAMPLE / "sample-state.json", state)
    before = state.read_bytes()
    # cli import KIND DUMP --config sample_configs/pool.toml --state state.json --now ...
    line = ["import", kind, str(CAPTURES / dump), "--config", str(SAMPLE / "pool.toml"),
            "--state", str(state), "--now", "2026-11-23T00:00:00Z"]  # fmt: skip
    result = run(*line)
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("fs: error: "), result.stderr
    assert f"{dump}: the config has none of its 5 user associations (b/u1, c/u2" in lines[0]
    assert "would forget all the state's Slurm usage" in lines[0]
    assert state.read_bytes() == before


def test_a_dump_the_config_knows_part_of_is_imported(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """One association the config has is enough: its usage comes in, the others are named
    as ignored (as before)."""
    config = tmp_path / "pool.toml"
    config.write_text(
        '[pool]\ndefaults = "current"\n[accounts.b]\nshares = 1\nusers = { u1 = 1 }\n'
    )
    state = tmp_path / "state.json"
    line = ["import", "sshare", str(CAPTURES / "sshare_a_l_P.txt"), "--config", str(config),
            "--state", str(state), "--now", "2026-11-23T00:00:00Z"]  # fmt: skip
    result = run(*line)
    assert result.exit_code == 0, result.stderr
    assert "usage of 1 user association as of" in result.stderr
    assert "; ignored 4: c/u2, c/u3, e/u4, f/u5" in result.stderr
