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
        "for m in pkgutil.walk_packages(c.__path__, 'fairshare_cli.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [n for n in ('click', 'rich', 'platformdirs', 'tomllib', 'tomli') "
        "if n in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert out.stdout.strip() == ""


def test_every_module_imports_on_its_own() -> None:
    """No import cycles: each module of the package imports first, in a fresh interpreter."""
    code = (
        "import sys, pkgutil, importlib, fairshare_cli as f\n"
        "names = [m.name for m in pkgutil.walk_packages(f.__path__, 'fairshare_cli.')]\n"
        "bad = []\n"
        "for name in names:\n"
        "    for k in [k for k in sys.modules if k.startswith('fairshare_cli.')]:\n"
        "        del sys.modules[k]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError as exc:\n"
        "        bad.append(f'{name}: {exc}')\n"
        "print(len(names)); print('\\n'.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    count, *bad = out.stdout.strip().split("\n")
    assert int(count) > 60
    assert not [b for b in bad if b], bad


def _all_commands() -> list[tuple[str, click.Command]]:
    ctx = click.Context(cli)
    out: list[tuple[str, click.Command]] = []
    for name in _COMMANDS:
        cmd = cli.get_command(ctx, name)
        assert cmd is not None, name
        if isinstance(cmd, click.Group):
            sub_ctx = click.Context(cmd, parent=ctx)
            for sub in cmd.list_commands(sub_ctx):
                sub_cmd = cmd.get_command(sub_ctx, sub)
                assert sub_cmd is not None, f"{name} {sub}"
                out.append((f"{name} {sub}", sub_cmd))
        else:
            out.append((name, cmd))
    return out


@pytest.mark.parametrize(("name", "cmd"), _all_commands())
def test_command_has_help_and_readme_entry(name: str, cmd: click.Command) -> None:
    assert cmd.help and cmd.help.strip(), f"fs {name} has no help text"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"fs {name}" in readme, f"fs {name} is not in the README"


def test_readme_sessions_print_what_fs_prints() -> None:
    """Every ```console session in the README runs as written and prints what it shows."""
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import readme_sessions
    finally:
        sys.path.pop(0)
    problems = readme_sessions.check()
    assert not problems, "\n\n".join(problems[:3])
