"""``fs userprio --help`` says what its two on/off option pairs do when neither is given.

``--hierarchical/--flat`` defaults to condor_userprio's choice (grouped when a user inside
a group is shown) and ``--modular/--legacy`` to ``--legacy``; the help named neither.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def test_the_help_names_both_defaults(run: Callable[..., Any]) -> None:
    res = run("userprio", "--help", env={"COLUMNS": "200"})
    assert res.exit_code == 0
    text = " ".join(res.stdout.split())
    assert "[default: grouped when a user inside a group is shown, as condor_userprio does]" in text
    assert "or as is (-legacy). [default: legacy]" in text
