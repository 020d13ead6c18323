"""An output file named by blanks alone (``--into ' '``, ``--html ' '``, ``--plot ' '``).

``fs import slurm-conf slurm.conf --into ' '`` (``--into "$CONFIG "`` with the variable
unset) merged into a new config file named ``' '`` in the current folder, exit 0, as
``--state ' '`` once made a state named so; ``--html`` and ``--plot`` wrote a page or a
plot named so. Now each is refused before any work, as ``--config ' '`` is, exit 2,
nothing written (io/paths.check_output_file).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, write_pool
from tests.conftest import FIXTURES

SLURM_CONF = FIXTURES / "slurm-22.05-local" / "config" / "slurm.conf.fairtree"


@pytest.mark.parametrize(
    ("words", "said"),
    [
        pytest.param(
            ("import", "slurm-conf", str(SLURM_CONF), "--into", " "),
            "--into: ' ' is only blanks; give the path of the config file to write",
            id="into",
        ),
        pytest.param(
            ("simulate", "--until", "600", "--html", " "),
            "--html: ' ' is only blanks; give the path of the HTML page to write",
            id="html",
        ),
        pytest.param(
            ("simulate", "--until", "600", "--plot", "  "),
            "--plot: '  ' is only blanks; give the path of the plot to write",
            id="plot",
        ),
    ],
)
def test_a_blank_output_file_is_refused_and_nothing_written(
    run: Callable[..., Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    words: tuple[str, ...],
    said: str,
) -> None:
    pool = write_pool(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = {path: path.read_bytes() for path in tmp_path.iterdir()}
    common = ("--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW)
    res = run(*words, *(common if words[0] == "simulate" else ()))
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == f"fs: error: {said}\n"
    assert {path: path.read_bytes() for path in tmp_path.iterdir()} == before
