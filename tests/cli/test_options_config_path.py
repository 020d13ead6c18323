"""``--config`` and ``FAIRSHARE_CONFIG`` are read alike by ``fs config check`` and every
view (cli/options.config_option): an empty, blank, missing or folder path, or ``-``, is
refused in the same one line, exit 2. ``fs config check`` had its own option: ``--config
''`` looked for ./fairshare.toml, ``' '`` said "config file   does not exist", and
``FAIRSHARE_CONFIG=-`` read "File '-' does not exist." in a view. A missing file named by
the variable is named by it, in the loader's words."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

#: The value, given as --config or as FAIRSHARE_CONFIG, and the error each gets.
STDIN = (
    "config file - is standard input, not a file: fs reads its config whenever it runs; "
    "save the config to a file and pass that path"
)
REFUSED = [
    ("-", STDIN, STDIN),
    (" ", "Invalid value for '--config': ' ' is only blanks; give a file's path, or leave it out",
     "Invalid value for FAIRSHARE_CONFIG: ' ' is only blanks; give a file's path, or leave it "
     "out"),
    ("nope.toml", "File 'nope.toml' does not exist.",
     "Invalid value for FAIRSHARE_CONFIG: File 'nope.toml' does not exist."),
]  # fmt: skip


@pytest.mark.parametrize("command", [["config", "check"], ["userprio"], ["sshare"]])
@pytest.mark.parametrize(("value", "typed", "from_env"), REFUSED)
def test_a_config_path_is_refused_alike_by_config_check_and_the_views(
    command: list[str],
    value: str,
    typed: str,
    from_env: str,
    run: Callable[..., Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """fs config check --config ' ' / FAIRSHARE_CONFIG=' ' fs config check (and '-',
    a missing file), as fs userprio and fs sshare with the same value."""
    monkeypatch.chdir(tmp_path)
    for result, error in (
        (run(*command, "--config", value), typed),
        (run(*command, env={"FAIRSHARE_CONFIG": value}), from_env),
    ):
        assert result.exit_code == 2, result.output
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"fs: error: {error}"), result.stderr


@pytest.mark.parametrize("command", [["config", "check"], ["userprio"]])
def test_an_empty_config_option_is_refused_by_config_check_too(
    command: list[str], run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fs config check --config '' looked for ./fairshare.toml and the user's config, and
    checked whichever it found: an empty --config ("$UNSET" in a script) is now refused, as
    the views refuse it; an empty FAIRSHARE_CONFIG stands for none, for both."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fairshare.toml").write_text("[pool]\nname = 'here'\n", encoding="utf-8")
    typed = run(*command, "--config", "")
    assert typed.exit_code == 2
    assert "Invalid value for '--config': an empty path" in typed.stderr
    unset = run("config", "check", env={"FAIRSHARE_CONFIG": ""})
    assert unset.exit_code == 0, unset.stderr


def test_the_missing_sample_pool_from_the_variable_says_how_to_get_it(
    run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's line FAIRSHARE_CONFIG=sample_configs/pool.toml
    FAIRSHARE_NOW=2026-11-21T12:00:00Z fs sshare, run outside the checkout, said "Invalid
    value for FAIRSHARE_CONFIG: File 'sample_configs/pool.toml' does not exist.", while
    --config sample_configs/pool.toml says how to get the sample pool: both say it now."""
    monkeypatch.chdir(tmp_path)
    env = {"FAIRSHARE_CONFIG": "sample_configs/pool.toml", "FAIRSHARE_NOW": "2026-11-21T12:00:00Z"}
    result = run("sshare", env=env)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(
        "fs: error: Invalid value for FAIRSHARE_CONFIG: File 'sample_configs/pool.toml' "
        "does not exist. 'fs init --example sample_configs' writes the sample pool there "
    )
    assert result.stderr.count("\n") == 1
    assert run("init", "--example", "sample_configs").exit_code == 0
    result = run("sshare", env=env)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Account ")
