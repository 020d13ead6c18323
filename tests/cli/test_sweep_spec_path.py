"""``fs sweep run ''``: an empty SPEC is refused as an empty path.

``fs sweep run ''`` (a spec named by a variable left unset, ``fs sweep "$SPEC"``) ended
in a traceback, ``ValueError: PosixPath('.') has an empty name``, exit 1, as the result
folder's default name was made from it; now it is refused as the empty DIR of
``fs sweep collect`` is, exit 2, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.mark.parametrize(
    ("words", "help_of"),
    [
        pytest.param(("sweep", "run", ""), "cli sweep run", id="run"),
        pytest.param(("sweep", ""), "cli sweep", id="spec-first"),
        pytest.param(("sweep", "run", "", "--out", "runs"), "cli sweep run", id="with-out"),
    ],
)
def test_an_empty_spec_is_refused_before_anything_is_written(
    run: Callable[..., Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    words: tuple[str, ...],
    help_of: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pool.toml").write_text('[pool]\nstate = "state.json"\n', encoding="utf-8")
    before = sorted(tmp_path.iterdir())
    res = run(*words)
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (
        f"fs: error: Invalid value for 'SPEC': an empty path; give a path "
        f"(see '{help_of} --help')\n"
    )
    assert sorted(tmp_path.iterdir()) == before
