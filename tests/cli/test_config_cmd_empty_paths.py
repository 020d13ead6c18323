"""An empty path for a config fs writes (``fs init ''``, ``--into ''``; ``--html ''`` and
``--plot ''`` alike) is refused naming the option: ``Path("")`` is the current folder, and
the messages named it (``cannot write config file .: not a regular file ...``, ``. is a
directory``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES

SLURM_CONF = FIXTURES / "slurm-22.05" / "config" / "slurm.conf.fairtree"


def test_init_of_an_empty_path_is_refused(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("init", "")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: fs init: an empty path; give the path of the config file to write\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_init_of_a_path_of_blanks_is_refused(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs init ' '`` (``"$CONFIG "`` with the variable unset) wrote a starter config
    named ' ' in the current folder, exit 0."""
    monkeypatch.chdir(tmp_path)
    result = run("init", " ")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: fs init: ' ' is only blanks; give the path of the config file to write\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_into_an_empty_path_is_refused(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("import", "slurm-conf", str(SLURM_CONF), "--into", "")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --into: an empty path; give the path of the config file to write\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("path", ["new.toml/", "sub/"])
def test_init_of_a_path_ending_in_a_slash_is_refused(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """fs init new.toml/ wrote new.toml (the path normalised), where the system says
    that new.toml/ is no folder; fs init sub/ of a folder said it is a directory."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    result = run("init", path)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: fs init {path}: it ends in '/', so it names a folder; give the path of "
        "the config file to write\n"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["sub"]
    assert list((tmp_path / "sub").iterdir()) == []
