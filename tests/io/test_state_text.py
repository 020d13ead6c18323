"""The state is UTF-8 text (a byte-order mark allowed, as in a config): a state in another
encoding, or holding a surrogate (UTF-8-encoded, or escaped as ``\\udc80``), is refused
when read, exit 2, and left as it was. Before, ``json.loads`` read a UTF-16 state, and a
surrogate went through the commands that do not read the record holding it: ``fs submit
--owner bob`` then failed when it wrote the state (``cannot write state file state.json:
'utf-8' codec can't encode character '\\udc80' ...: surrogates not allowed``, exit 1) and
``fs sprio`` printed its table."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, STATE, common, refused, write_pool

RECORD = {"priority": 0.5, "last_update": 1795258800.0}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Path]:
    """The hostile-input tests' pool (tests/cli/conftest.py) in ``tmp_path``."""
    return write_pool(tmp_path)


def _with_record(name: str) -> str:
    """The pool's state with an accountant record of this name (as JSON text)."""
    return json.dumps({**STATE, "accountant": {"records": {name: RECORD}}})


@pytest.mark.parametrize(
    ("data", "says"),
    [
        pytest.param(
            _with_record("al\udc80ce@example.org").encode("ascii"),
            ": accountant.records.al\\udc80ce@example.org: expected a name of Unicode text",
            id="escaped",
        ),
        pytest.param(
            json.dumps({**STATE, "dirac": {"running_jobs": {"g": {"al\udc80ce": []}}}}).encode(),
            ": dirac.running_jobs.g.al\\udc80ce: expected a name of Unicode text",
            id="escaped-in-a-section-no-view-reads",
        ),
        pytest.param(
            _with_record("alice@example.org").encode().replace(b"lic", b"l\xed\xb2\x80c"),
            " is not UTF-8 text (byte ",
            id="utf8-encoded",
        ),
        pytest.param(
            _with_record("alice@example.org").encode("utf-16"),
            " is not UTF-8 text (byte 0)",
            id="utf-16",
        ),
    ],
)
@pytest.mark.parametrize(
    "line",
    [["submit", "--owner", "bob"], ["sprio"], ["taskqueues"], ["userprio"]],
    ids=lambda line: line[0],
)
def test_a_state_that_is_not_utf8_text_is_refused_and_kept(
    env: dict[str, Path], run: Callable[..., Any], line: list[str], data: bytes, says: str
) -> None:
    """``fs submit --owner bob --state state.json`` (and the views)."""
    env["state"].write_bytes(data)
    refused(run(*line, *common(env)), f"state file {env['state']}{says}")
    assert env["state"].read_bytes() == data


def test_a_state_with_a_byte_order_mark_reads_and_is_written_without(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs submit --owner bob`` over a state an editor saved with a mark."""
    env["state"].write_bytes(b"\xef\xbb\xbf" + _with_record("alice@example.org").encode())
    res = run("submit", "--owner", "bob", "--config", str(env["config"]), "--state",
              str(env["state"]), "--now", NOW)  # fmt: skip
    assert res.exit_code == 0, res.stderr
    data = env["state"].read_bytes()
    assert (
        data.startswith(b"{") and "alice@example.org" in json.loads(data)["accountant"]["records"]
    )


def test_an_escaped_surrogate_pair_is_text(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """``\\ud83d\\ude00`` (an emoji, escaped) is Unicode text: read as any name."""
    env["state"].write_text(_with_record("\U0001f600@example.org"))  # (json escapes it)
    assert "\\ud83d\\ude00" in env["state"].read_text()
    res = run("submit", "--owner", "bob", *common(env))
    assert res.exit_code == 0, res.stderr
