"""A merge into a config (``--into``) killed between writing its temp file and the rename
left ``.pool.toml.XXXX.tmp`` beside the config for ever: the next merges ran and kept it,
where the next state writer removes a killed one's (docs/state.md). Now every writer of
the config (a merge, ``fs init``) removes them under the folder's lock, as the state's do;
a dry run leaves them (it writes nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import FIXTURES

QOS = FIXTURES / "slurm-22.05" / "ft1_running" / "sacctmgr_qos.txt"


def _left(folder: Path) -> Path:
    """What a killed writer leaves: atomic_write_text's hidden temp file, whole or not."""
    config = folder / "pool.toml"
    config.write_text('[pool]\nuid_domain = "example.org"\n')
    left = folder / ".pool.toml.k1ll3d_x.tmp"
    left.write_text("[pool]\nuid_dom")
    return left


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["import", "sacctmgr", str(QOS), "--into", "{config}"], id="merge"),
        pytest.param(["init", "--force", "{config}"], id="init"),
    ],
)
def test_the_next_writer_removes_a_killed_writers_temp_file(
    tmp_path: Path, args: list[str]
) -> None:
    left = _left(tmp_path)
    config = tmp_path / "pool.toml"
    result = CliRunner().invoke(cli, [a.format(config=config) for a in args])
    assert result.exit_code == 0, result.output
    assert not left.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pool.toml"]


def test_a_dry_run_leaves_it(tmp_path: Path) -> None:
    left = _left(tmp_path)
    config = tmp_path / "pool.toml"
    args = ["import", "sacctmgr", str(QOS), "--into", str(config), "--dry-run"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert left.read_text() == "[pool]\nuid_dom"
