"""``fs rm``, ``fs prio`` and ``fs release`` name at most twelve job ids on their summary
line (cli/jobs_cmd.py): ``fs rm 1`` of a cluster of a million jobs printed one line of
10 MB."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
FIRST = "3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6, 3.7, 3.8, 3.9, 3.10, 3.11"


def _run(tmp_path: Path, line: str) -> tuple[int, str]:
    common = ["--config", str(REPO / "sample_configs" / "pool.toml")]
    common += ["--state", str(tmp_path / "s.json"), "--now", NOW]
    result = CliRunner().invoke(cli, [*line.split(), *common])
    assert result.stderr == ""
    return result.exit_code, result.stdout


def test_a_cluster_of_twenty_is_named_by_its_first_twelve(tmp_path: Path) -> None:
    assert _run(tmp_path, "submit --id 3 --count 20 --owner alice")[0] == 0
    assert _run(tmp_path, "prio 3 4") == (0, f"Set JobPrio of {FIRST} (+8 more) to 4\n")
    assert _run(tmp_path, "rm 3 --dry-run") == (
        0,
        f"(dry run, nothing written) Removed 20 jobs: {FIRST} (+8 more)\n",
    )
    assert _run(tmp_path, "rm 3.0 3.1") == (0, "Removed 2 jobs: 3.0, 3.1\n")
