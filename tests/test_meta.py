"""Meta-tests: the core stays pure, every command has help and appears in the README."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest

from fairshare_cli.cli.main import _COMMANDS, cli

REPO = Path(__file__).resolve().parent.parent


def test_core_imports_nothing_impure() -> None:
    code = (
        "import sys, pkgutil, importlib, fairshare_cli.core as c\n"
        "for m in pkgutil.iter_modules(c.__path__):\n"
        "    importlib.import_module('fairshare_cli.core.' + m.name)\n"
        "bad = [n for n in ('click', 'rich', 'platformdirs', 'tomllib', 'tomli') "
        "if n in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert out.stdout.strip() == ""


def _all_commands() -> list[tuple[str, click.Command]]:
    ctx = click.Context(cli)
    out: list[tuple[str, click.Command]] = []
    for name in _COMMANDS:
        cmd = cli.get_command(ctx, name)
        assert cmd is not None, name
        if isinstance(cmd, click.Group):
            out.extend((f"{name} {sub}", c) for sub, c in cmd.commands.items())
        else:
            out.append((name, cmd))
    return out


@pytest.mark.parametrize(("name", "cmd"), _all_commands())
def test_command_has_help_and_readme_entry(name: str, cmd: click.Command) -> None:
    assert cmd.help and cmd.help.strip(), f"fs {name} has no help text"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"fs {name}" in readme, f"fs {name} is not in the README"


def test_lint_and_types_are_clean() -> None:
    """ruff and mypy --strict (configured in pyproject.toml) pass on the package."""
    pytest.importorskip("mypy")
    for cmd in (
        [sys.executable, "-m", "ruff", "check", "--quiet", "."],
        [sys.executable, "-m", "mypy", "fairshare_cli"],
    ):
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, check=False)
        assert out.returncode == 0, out.stdout + out.stderr


def test_readme_sessions_print_what_fs_prints() -> None:
    """Every ```console session in the README runs as written and prints what it shows."""
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import readme_sessions
    finally:
        sys.path.pop(0)
    problems = readme_sessions.check()
    assert not problems, "\n\n".join(problems[:3])
