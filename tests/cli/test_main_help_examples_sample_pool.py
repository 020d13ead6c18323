"""The help's examples, run where the sample pool is not, say how to get it.

``fs --help``, the README and docs/ give ``--config sample_configs/pool.toml``; an admin who
installed fs (not the checkout) and runs ``fs userprio --config sample_configs/pool.toml``
in their own folder was told only ``config file sample_configs/pool.toml does not exist``.
Now the line (exit 2) adds that ``fs init --example sample_configs`` writes the sample pool
there; and running that, the same line works. Another missing config is refused as before.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import refused

NOW = "2026-11-21T12:00:00Z"


def test_the_missing_sample_pool_is_named_with_the_command_that_writes_it(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    line = "fs userprio --config sample_configs/pool.toml --now 2026-11-21T12:00:00Z"
    result = run(*line.split()[1:])
    refused(result)
    assert result.stderr == (
        "fs: error: File 'sample_configs/pool.toml' does not exist. 'fs init --example "
        "sample_configs' writes the sample pool there\n"
    )
    assert run("init", "--example", "sample_configs").exit_code == 0
    result = run(*line.split()[1:])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Last Priority Update: 11/21")


def test_another_missing_config_is_refused_as_before(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("sshare", "--config", "pool.toml", "--now", NOW)
    refused(result)
    assert result.stderr == "fs: error: File 'pool.toml' does not exist.\n"
