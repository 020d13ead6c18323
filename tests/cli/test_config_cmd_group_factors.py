"""``fs config check`` says what HTCondor makes of a group ``prio_factor`` below 1."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_group_factor_below_1_is_named_on_stderr(
    write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """fs config check refused prio_factor = 0.5 (exit 2: "expected a number at least 1").
    HTCondor takes GROUP_PRIO_FACTOR_<g> as written and clamps only what a record stores
    (Accountant.cpp SetPriorityFactor: below MIN_PRIORITY_FACTOR, 1.0, it logs "invalid
    priority factor" and stores 1.0); 0 is read as no factor. The check is valid (exit 0)
    and says so on stderr, one line per such group; a factor of 1 or more says nothing."""
    config = write_config(
        '[pool]\ndefaults = "current"\n[groups."group_a"]\nprio_factor = 0.5\n'
        '[groups."group_b"]\nprio_factor = 0\n[groups."group_c"]\nprio_factor = 2\n'
    )
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 0, result.stderr
    assert "groups.group_a.prio_factor = 0.5" in result.stdout.splitlines()
    assert result.stderr.splitlines() == [
        'fs: warning: groups."group_a".prio_factor 0.5 is below 1: its records store 1 '
        "(condor_userprio -allusers shows the group's factor as 0.5)",
        'fs: warning: groups."group_b".prio_factor 0 is the same as unset (HTCondor reads a '
        "factor of 0 as none)",
    ]
