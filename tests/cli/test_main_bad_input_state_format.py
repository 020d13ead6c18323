"""A state whose ``"format"`` mark was edited is refused as no state of fs's (exit 2, one
line, the file as it was), without a guess: its claims' ``"job_id"`` made the refusal add
``it looks like squeue --json output: fs import squeue reads it``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import STATE, common, refused

CLAIM = {"job_id": "1", "submitter": "alice@example.org", "start_time": 1795258800.0}


@pytest.mark.parametrize("mark", ["fairshare-cli stat", 2, None])
def test_an_edited_format_mark_is_refused_as_no_state(
    env: dict[str, Path], run: Callable[..., Any], mark: Any
) -> None:
    """``fs userprio --config pool.toml --state state.json --now ...``."""
    doc = {**STATE, "format": mark, "negotiator": {"claims": {"slot1@exec001": CLAIM}}}
    text = json.dumps(doc, sort_keys=True)
    env["state"].write_text(text, encoding="utf-8")
    result = run("userprio", *common(env))
    refused(result)
    assert result.stderr == (
        f"fs: error: state file {env['state']} is not a fairshare-cli state file (no "
        '"format": "fairshare-cli state"); refusing to use or overwrite it\n'
    )
    assert env["state"].read_text(encoding="utf-8") == text
