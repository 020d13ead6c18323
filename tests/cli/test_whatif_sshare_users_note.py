"""``fs whatif --set KEY=VALUE sshare`` without ``-a`` (cli/whatif.py): sshare's default
lists the accounts and the calling user's own associations, so a change that moves only
users' figures read "no differences" alone."""

from __future__ import annotations

import json
import os
import pwd
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool


def test_no_differences_without_user_rows_names_dash_a(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs whatif --set accounts.hep.users.zoe=1 sshare`` (alice's and bob's NormShares
    move) said only "no differences"; a note now says no user's row is shown and names
    -a. The config and state are unchanged."""
    monkeypatch.setattr(os, "getuid", lambda: 1003)  # (the calling user: no association)
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: SimpleNamespace(pw_name="user3"))
    pool = write_pool(tmp_path)
    before = [pool["config"].read_bytes(), pool["state"].read_bytes()]
    result = run("whatif", "--set", "accounts.hep.users.zoe=1", "sshare", *common(pool))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "fs sshare with accounts.hep.users.zoe=1: before -> after: no differences\n"
        "Note: fs sshare shows no user's row here (without -a or -u, sshare lists the calling"
        " user's alone): add -a to compare every user's\n"
    )
    assert [pool["config"].read_bytes(), pool["state"].read_bytes()] == before
    result = run("whatif", "--set", "accounts.hep.users.zoe=1", "sshare", "-a", *common(pool))
    assert "Note:" not in result.stdout
    assert "hep/zoe" in result.stdout
    doc = run("whatif", "--json", "--set", "accounts.hep.users.zoe=1", "sshare", *common(pool))
    assert json.loads(doc.stdout)["notes"] == [
        "fs sshare shows no user's row here (without -a or -u, sshare lists the calling"
        " user's alone): add -a to compare every user's"
    ]


def test_no_dash_a_note_where_sshare_reads_no_key_set(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs whatif --set accountant.priority_halflife=600 sshare``: the note that sshare
    reads no [accountant] key says it all; no -a note beside it."""
    pool = write_pool(tmp_path)
    result = run("whatif", "--set", "accountant.priority_halflife=600", "sshare", *common(pool))
    assert result.exit_code == 0
    assert "add -a" not in result.stdout
    assert "fs sshare reads no key of [accountant]" in result.stdout
