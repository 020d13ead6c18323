"""condor_userprio's edits of one record refuse a group name (``user_prio.cpp``, 25.0).

Every edit of one record (``-setprio``, ``-setfactor``, ``-setfloor``, ``-setceiling``,
``-setaccum``, ``-setbegin``, ``-setlast``, ``-resetusage``, ``-delete``) first tests
``strchr(name, '@')`` and, without one, prints "You must specify the full name of the
submittor you wish ..." and exits 1 before it sends anything to the negotiator. A group
record's name (``group_physics``, ``<none>``) has no ``@``: only ``-resetall`` reaches it.
``fs`` refused groups for -setfactor, -setfloor, -setceiling and -delete and edited them for
the others; it now refuses them all (exit 2), writing nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"

POOL = """
[pool]
uid_domain = "example.org"

[[machines]]
name = "exec"
count = 2
slots = 1
attributes = { Cpus = 1, Memory = 4096 }

[groups."group_physics"]
quota = 1
"""


@pytest.mark.parametrize(
    ("edit", "what"),
    [
        (["setprio", "group_physics", "3"], "set the priority"),
        (["setaccum", "group_physics", "3600"], "set the accumulated usage"),
        (["setbegin", "group_physics", NOW], "set the begin usage time"),
        (["setlast", "group_physics", NOW], "set the last usage time"),
        (["resetusage", "group_physics"], "reset the accumulated usage"),
        (["resetusage", "<none>"], "reset the accumulated usage"),
        (["userprio", "-resetusage", "group_physics"], "reset the accumulated usage"),
        (["userprio", "-setprio", "<none>", "2"], "set the priority"),
    ],
)
def test_an_edit_of_a_group_record_is_refused(
    tmp_path: Path,
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
    edit: list[str],
    what: str,
) -> None:
    state = tmp_path / "state.json"
    args = ["--config", str(write_config(POOL)), "--state", str(state), "--now", NOW]
    history = tmp_path / "h.jsonl"
    history.write_text(
        '{"owner": "u", "accounting_group": "group_physics.u", "start": "2026-11-21T11:00:00Z",'
        ' "end": "2026-11-21T11:30:00Z"}\n'
    )
    assert run("import", "history", str(history), *args).exit_code == 0
    before = state.read_bytes()
    result = run(*edit, *args)
    assert result.exit_code == 2
    group = edit[2] if edit[0] == "userprio" else edit[1]
    assert result.stderr == (
        f"fs: error: cannot {what} of group '{group}': condor_userprio requires the full "
        "name of a submitter (user@uid.domain or user@full.host.name)\n"
    )
    assert result.stdout == ""
    assert state.read_bytes() == before


def test_resetall_still_resets_the_group_records(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``-resetall`` (``Accountant::ResetAllUsage``) zeroes every customer record's usage,
    the groups' too, and sets each BeginUsageTime to now."""
    state = tmp_path / "state.json"
    args = ["--config", str(write_config(POOL)), "--state", str(state), "--now", NOW]
    history = tmp_path / "h.jsonl"
    history.write_text(
        '{"owner": "u", "accounting_group": "group_physics.u", "start": "2026-11-21T11:00:00Z",'
        ' "end": "2026-11-21T11:30:00Z"}\n'
    )
    assert run("import", "history", str(history), *args).exit_code == 0
    assert run("resetusage", "--all", *args).exit_code == 0
    group = json.loads(state.read_text())["accountant"]["records"]["group_physics"]
    assert group.get("accumulated_usage", 0.0) == 0.0
    assert group["begin_usage_time"] == 1795262400.0  # 12:00
