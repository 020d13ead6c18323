"""A reader that leaves early (``fs VIEW ... | head -1``) ends every view with exit 0 and
nothing on stderr.

Before, a view ended with 1 when its output outgrew what the pipe took before the reader
left, and with 0 when it fitted: on the sample pool, 20 runs each into ``head -1`` gave 0
every time for ``fs userprio``, ``fs quota``, ``fs sshare -a -l`` and ``fs taskqueues``,
1 every time for ``fs sprio -l``, and 1 or 0 from run to run for ``fs negotiate
--dry-run`` (8 of 20 runs: 1), ``fs whatif ... userprio`` (7), ``fs userprio --json`` (7),
``fs sshare --json`` (4) and ``fs taskqueues --json`` (12). Which one a run gets is a race with the reader, so 1 could
not be made every run's code; 0 can. A command that changes the state and is stopped by the
closed pipe before its change is written still ends with 1: nothing was changed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
SAMPLE = "--config sample_configs/pool.toml --now " + NOW
VIEWS = [
    "userprio",
    "userprio --json",
    "negotiate --dry-run --jobs-file sample_configs/jobs.json",
    "sprio -l --jobs-file sample_configs/jobs.json",
    "sshare -a -l",
    "whatif --set accountant.priority_halflife=3600 userprio",
]


@pytest.mark.parametrize("view", VIEWS)
def test_a_view_piped_into_head_ends_with_0(view: str, tmp_path: Path) -> None:
    """The exact line, three times: ``fs VIEW ... | head -1``; ``${PIPESTATUS[0]}`` is 0
    and stderr is empty each time (the sample state copied: a view reads it only)."""
    state = tmp_path / "state.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    history = REPO / "sample_configs" / "sample-state.history.sqlite"
    (tmp_path / "state.history.sqlite").write_bytes(history.read_bytes())
    line = f"{sys.executable} -m fairshare_cli {view} {SAMPLE} --state {state}"
    script = f"for i in 1 2 3; do {line} 2>>{tmp_path}/err | head -1; echo ${{PIPESTATUS[0]}}; done"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("COLUMNS", None)
    done = subprocess.run(
        ["bash", "-c", script], env=env, cwd=REPO, capture_output=True, timeout=300, check=True
    )
    codes = done.stdout.decode().splitlines()[1::2]
    assert codes == ["0", "0", "0"], done.stdout
    assert (tmp_path / "err").read_bytes() == b""


def test_an_edit_stopped_by_a_closed_pipe_before_its_write_ends_with_1(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs setfactor`` meeting a closed output before the state is written (forced here: no
    edit prints before its save): the change is not made, so 1, and the state is as it
    was."""
    pool = write_pool(tmp_path)
    before = pool["state"].read_bytes()

    def closed(*_args: Any, **_kwargs: Any) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("fairshare_cli.io.state.save_state", closed)
    result = run("setfactor", "alice@example.org", "3", "--create", *common(pool))
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", "")
    assert pool["state"].read_bytes() == before


def test_a_dry_run_stopped_by_a_closed_pipe_ends_with_0(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs setfactor --dry-run ... | head -1``: a dry run changes nothing, as a view; its
    output meeting a closed pipe ends it with 0."""
    pool = write_pool(tmp_path)

    def closed(*_args: Any, **_kwargs: Any) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("click.echo", closed)
    result = run("setfactor", "alice@example.org", "3", "--create", "--dry-run", *common(pool))
    assert (result.exit_code, result.stderr) == (0, "")
