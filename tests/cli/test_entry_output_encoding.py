"""The standard output of ``fs`` under an encoding that lacks a name's characters
(cli/entry.py): the C locale's ASCII, ``PYTHONIOENCODING=ascii``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", NOW]


@pytest.mark.parametrize(
    "encoding",
    [
        pytest.param({"PYTHONIOENCODING": "ascii"}, id="pythonioencoding"),
        pytest.param({"LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}, id="c-locale"),
    ],
)
def test_a_name_the_output_encoding_lacks_is_written_escaped(
    tmp_path: Path, encoding: dict[str, str]
) -> None:
    """``fs negotiate --dry-run`` of a job owned by ``é`` in the C locale (ASCII) ended in
    a UnicodeEncodeError traceback, exit 1, half a table printed; the name is written as
    Python writes the standard error, ``\\xe9``, and nothing is written to the state."""
    state = tmp_path / "state.json"
    submit = ["submit", "--owner", "é", *SAMPLE, "--state", str(state)]
    assert CliRunner().invoke(cli, submit).exit_code == 0
    before = state.read_bytes()
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "120", **encoding}
    done = subprocess.run(
        [sys.executable, "-m", "fairshare_cli", "negotiate", "--dry-run", *SAMPLE,
         "--state", str(state)],
        capture_output=True, env=env, cwd=REPO, timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, b"")
    assert b"\\xe9@example.org | 1   | slot1@exec001" in done.stdout
    assert state.read_bytes() == before
