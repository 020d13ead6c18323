"""``fs import condor-status --into`` keeps each claimed slot's CPUs in the usage history
(cli/imports/condor_status.py): the history records the slots as the dump brings them, not
as the config knew them before the merge."""

from __future__ import annotations

import json
import shlex
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONFIG = """\
UID_DOMAIN = mysite.org
PRIORITY_HALFLIFE = 86400
DEFAULT_PRIO_FACTOR = 100
NEGOTIATOR_USE_SLOT_WEIGHTS = True
SLOT_WEIGHT = Cpus
"""

#: Two 2-CPU static slots, one claimed by pat for job 10.0.
STATUS = """\
Cpus = 2
Machine = "wn01.mysite.org"
Memory = 4096
MyType = "Machine"
Name = "slot1@wn01.mysite.org"
RemoteUser = "pat@mysite.org"
JobId = "10.0"
JobStart = 1795500000
SlotType = "Static"
State = "Claimed"

Cpus = 2
Machine = "wn01.mysite.org"
Memory = 4096
MyType = "Machine"
Name = "slot2@wn01.mysite.org"
SlotType = "Static"
State = "Unclaimed"
"""


def test_a_claimed_slot_imported_into_a_new_config_is_kept_with_its_cpus(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After ``fs import condor-config condor_config --into f.toml`` (no machines yet),
    ``fs import condor-status condor_status.long --into f.toml --state s.json --now
    1795500300`` kept pat's claim of a 2-CPU slot in the usage history as 1 CPU (the
    config before the merge had no such slot), so ``fs whatif --set
    accountant.priority_halflife=3600 userprio`` replayed it at weight 1: in use
    ``2 -> 1`` and a real priority of 0.554551 where the slot's weight gives 0.663652.
    Now the history holds 2 CPUs.

    By hand, 600 s after the import (a new record: priority 0.5, weight 2 since then):
    ``P = 0.5·β + 2·(1 − β)`` (``Accountant::UpdatePriorities``); half-life 86400:
    β = 0.5^(600/86400) = 0.995198, P = 0.507203; half-life 3600: β = 0.5^(1/6) =
    0.890899, P = 0.5 + 1.5 × 0.109101 = 0.663652.
    """
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text(CONFIG)
    Path("condor_status.long").write_text(STATUS)
    assert run("import", "condor-config", "condor_config", "--into", "f.toml").exit_code == 0
    result = run(
        *shlex.split("import condor-status condor_status.long --into f.toml --state s.json"),
        *("--now", "1795500300"),
    )
    assert result.exit_code == 0, result.stderr
    with sqlite3.connect("s.history.sqlite") as conn:
        rows = conn.execute("SELECT owner, slots, cpus, job FROM records").fetchall()
    assert rows == [("pat@mysite.org", 1, 2, "10.0 slot1@wn01.mysite.org 1795500000.0")]

    result = run(
        *shlex.split("whatif --set accountant.priority_halflife=3600 userprio --allusers --json"),
        *("--config", "f.toml", "--state", "s.json", "--now", "1795500900"),
    )
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    (before,) = [r for r in out["before"] if r["name"] == "pat@mysite.org"]
    (after,) = [r for r in out["after"] if r["name"] == "pat@mysite.org"]
    assert before["weighted_resources_in_use"] == after["weighted_resources_in_use"] == 2.0
    assert round(before["real_priority"], 6) == 0.507203
    assert round(after["real_priority"], 6) == 0.663652
