"""fs import condor-history of a large file on a terminal reads it with a progress bar."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click.testing
import pytest

from fairshare_cli.cli import import_cmd
from tests.cli.conftest import common

AD = (
    'ClusterId = {n}\nProcId = 0\nOwner = "alice"\nJobStatus = 4\nRequestCpus = 1\n'
    "JobCurrentStartDate = 1795250000\nCompletionDate = 1795253600\n\n"
)


def test_condor_history_long_output_with_the_progress_bar(
    env: dict[str, Path], run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``condor_history -long`` output above the size that shows a bar, on a terminal: the
    bar's counting reader had no ``readline``, which the line reader calls on the line its
    first 4096 characters cut, and the import ended in an AttributeError traceback."""
    path = env["dir"] / "history.long.txt"
    path.write_text("".join(AD.format(n=n) for n in range(1, 201)))
    assert path.stat().st_size > 4096
    monkeypatch.setattr(import_cmd, "LARGE_INPUT", 1000)
    monkeypatch.setattr(click.testing._NamedTextIOWrapper, "isatty", lambda self: True)
    result = run("import", "condor-history", str(path), *common(env))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"Imported 200 usage records from {path}")
