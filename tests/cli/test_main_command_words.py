"""The words a group's context holds, read the same on every click fs supports.

pyproject.toml takes click 8.1 on. Click 8.2 keeps a group's subcommand name in
``Context._protected_args``; 8.1 kept it in ``Context.protected_args`` (8.2 still has that
name, deprecated). Reading the new name alone, under click 8.1 ``fs import condor-config
dirac.cfg`` lost the kind from its words, and with it the line's end that names the
import the file is for (checked by hand with click 8.1.8).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import click

from fairshare_cli.cli.main import command_words


def test_click_8_2_on_keeps_the_subcommand_in_protected_args() -> None:
    ctx = SimpleNamespace(_protected_args=["condor-config"], args=["dirac.cfg"])
    assert command_words(cast(click.Context, ctx)) == ["condor-config", "dirac.cfg"]


def test_click_8_1_keeps_it_in_the_public_name() -> None:
    ctx = SimpleNamespace(protected_args=["condor-config"], args=["dirac.cfg"])
    assert command_words(cast(click.Context, ctx)) == ["condor-config", "dirac.cfg"]


def test_this_click_gives_the_kind_first(run: Any, tmp_path: Any) -> None:
    """``fs import condor-config dirac.cfg``, on the click installed: the kind was read,
    so the refusal names the import the file is for."""
    cfg = tmp_path / "dirac.cfg"
    cfg.write_text("DIRAC\n{\n  VirtualOrganization = x\n}\n", encoding="utf-8")
    result = run("import", "condor-config", str(cfg))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {cfg}:1: expected NAME = value (a condor_config line), got 'DIRAC'; "
        "it looks like a DIRAC configuration: fs import dirac-cfg reads it\n"
    )
