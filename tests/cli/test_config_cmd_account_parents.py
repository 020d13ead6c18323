"""An account's parent is a name, never empty: ``parent = ""`` was read as the root (the
tree's ``spec.parent or "root"``), so a config that lost its parent's name (a bad edit, a
template left unfilled) moved the account under the root without a word. Now refused
naming the key, exit 2, by fs config check and by a command that would write the state
(which stays as it was)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import CONFIG, NOW, refused, write_pool

#: The pool's config with an account under another, its parent's name emptied.
EMPTY_PARENT = CONFIG + '[accounts.sub]\nparent = ""\nusers = { carol = 1 }\n'


def test_an_empty_parent_is_refused_by_config_check(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    pool = write_pool(tmp_path, EMPTY_PARENT)
    result = run("config", "check", "--config", str(pool["config"]))
    refused(result, "accounts.sub.parent: expected a name, got an empty one")


def test_an_empty_parent_leaves_the_state_as_it_was(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    pool = write_pool(tmp_path, EMPTY_PARENT)
    before = pool["state"].read_bytes()
    args = ["submit", "--owner", "carol", "--account", "sub"]
    result = run(
        *args, "--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW
    )
    refused(result, "accounts.sub.parent: expected a name, got an empty one")
    assert pool["state"].read_bytes() == before


def test_a_named_parent_is_read(tmp_path: Path, run: Callable[..., Any]) -> None:
    pool = write_pool(tmp_path, EMPTY_PARENT.replace('parent = ""', 'parent = "hep"'))
    result = run("config", "check", "--config", str(pool["config"]))
    assert result.exit_code == 0, result.stderr
    assert 'accounts.sub.parent = "hep"' in result.stdout


def test_a_parent_with_a_blank_is_named_as_a_bad_name(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``parent = "a b"`` on an account of the usual shape was read by the accounts' fast
    path without the name check, and the tree then said ``unknown account "a b"; add
    [accounts.a b]``, a name it would refuse; now the name is refused as the general
    reader refuses it."""
    pool = write_pool(tmp_path, CONFIG + '[accounts.sub]\nparent = "a b"\n')
    result = run("config", "check", "--config", str(pool["config"]))
    refused(
        result, "accounts.sub.parent: expected a name without blanks or control characters, "
        "got 'a b'",
    )  # fmt: skip
