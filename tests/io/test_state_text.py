"""The state is UTF-8 text (a byte-order mark allowed, as in a config): a state in another
encoding, or holding a UTF-8-encoded surrogate, is refused when read, exit 2, and left as
it was; one escaped (``"\\udc80"``, valid JSON) in a section the command does not read is
refused before the state is written, exit 2. Before, ``json.loads`` read a UTF-16 state
and a UTF-8-encoded surrogate, and ``fs submit --owner bob`` over either surrogate failed
when it wrote the state (``cannot write state file state.json: 'utf-8' codec can't encode
character '\\udc80' ...: surrogates not allowed``, exit 1)."""

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
            _with_record("alice@example.org").encode().replace(b"lic", b"l\xed\xb2\x80c"),
            " is not UTF-8 text (byte ",
            id="utf8-encoded-surrogate",
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


@pytest.mark.parametrize(
    ("doc", "says"),
    [
        pytest.param(
            {**STATE, "accountant": {"records": {"al\udc80ce@example.org": RECORD}}},
            "accountant.records.al\\udc80ce@example.org: expected a name of Unicode text",
            id="a-record-name",
        ),
        pytest.param(
            {**STATE, "dirac": {"running_jobs": {"g": {"u": [["\udc80", 1]]}}}},
            # (the words of the views' reader of the section, which fs submit now applies to
            # the sections it writes back unread)
            "state section 'dirac': running_jobs.g.u[0] must be [time, delta]",
            id="a-value-in-a-section-submit-does-not-read",
        ),
    ],
)
def test_an_escaped_surrogate_submit_does_not_read_is_refused_before_writing(
    env: dict[str, Path], run: Callable[..., Any], doc: dict[str, Any], says: str
) -> None:
    """``fs submit --owner bob`` over a state holding ``"\\udc80"`` (valid JSON) where it
    does not look: exit 2 (a bad state) naming where, before anything is written."""
    env["state"].write_text(json.dumps(doc))
    before = env["state"].read_bytes()
    refused(
        run("submit", "--owner", "bob", *common(env)),
        f"state file {env['state']}: {says}; fix it or move it aside to start afresh",
    )
    assert env["state"].read_bytes() == before
    assert sorted(p.name for p in env["dir"].iterdir()) == ["pool.toml", "state.json",
                                                            "state.json.lock"]  # fmt: skip


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
