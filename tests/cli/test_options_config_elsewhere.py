"""FAIRSHARE_CONFIG left set from another pool hides the ``./fairshare.toml`` of the
folder an admin works in: a note says which config is read, once a command."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import EMPTY_STATE
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
SAMPLE = REPO / "sample_configs" / "pool.toml"
NOTE = (
    f"fs: note: the config is {SAMPLE} (FAIRSHARE_CONFIG), not ./fairshare.toml of this "
    "folder; pass --config fairshare.toml (or unset FAIRSHARE_CONFIG) for that one\n"
)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of its own pool: ./fairshare.toml (a copy of the sample's config)."""
    shutil.copy(SAMPLE, tmp_path / "fairshare.toml")
    (tmp_path / "s.json").write_text(EMPTY_STATE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_variable_hiding_the_folders_config_is_noted(
    here: Path, run: Callable[..., Any]
) -> None:
    """FAIRSHARE_CONFIG=.../pool.toml fs sshare, in a folder with its own fairshare.toml:
    the other pool's config was read without a word."""
    env = {"FAIRSHARE_CONFIG": str(SAMPLE)}
    result = run("sshare", "--state", str(here / "s.json"), "--now", NOW, env=env)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == NOTE
    both = run("whatif", "--set", "priority.fairshare=classic", "sshare", "--state",
               str(here / "s.json"), "--now", NOW, env=env)  # fmt: skip
    assert both.exit_code == 0, both.stderr
    assert both.stderr == NOTE


@pytest.mark.parametrize(
    ("env", "args"),
    [
        pytest.param({"FAIRSHARE_CONFIG": "fairshare.toml"}, [], id="the-same-file"),
        pytest.param({"FAIRSHARE_CONFIG": str(SAMPLE)}, ["--config", str(SAMPLE)], id="option"),
        pytest.param({}, [], id="no-variable"),
    ],
)
def test_no_note_when_nothing_is_hidden(
    here: Path, run: Callable[..., Any], env: dict[str, str], args: list[str]
) -> None:
    result = run("sshare", *args, "--state", str(here / "s.json"), "--now", NOW, env=env)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
