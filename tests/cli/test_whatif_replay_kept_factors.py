"""fs whatif says when a factor change does not reach the records that store theirs.

HTCondor's accountant writes a record's priority factor the first time it reads it
(``Accountant::GetPriorityFactor`` in src/condor_negotiator.V6/Accountant.cpp stores the
default when the record has none), so a new ``DEFAULT_PRIO_FACTOR`` reaches only new
submitters. fs reads a ``--set`` of it the same way; but ``fs whatif --set
accountant.default_prio_factor=10 userprio`` on a pool whose submitters have run printed
only "no differences", which reads as: the factor does nothing. Now a note says how many
records keep their stored factor and that ``--rederive-factors`` reads the change as if it
had always been in force.

The pool: one machine of 2 slots; alice and bob each run one job from 12:00. At 13:00 each
has a real priority of 0.5 × b + 1 × (1 − b) with b = 0.5 ** (1/24) (one hour of a one-day
half-life): 0.485766 + 0.028468 = 0.514234, so an effective priority of 514.234 under the
current profile's factor 1000, and 5.14234 under 10.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONFIG = """
[pool]
uid_domain = "example.org"
local_domains = ["example.org"]
defaults = "current"
[[machines]]
name = "exec"
count = 1
slots = 2
attributes = { Cpus = 1, Memory = 4096 }
"""
NOTE = (
    "2 accountant records keep the priority factor stored when first written, as "
    "HTCondor's accountant does, so the changed factor reaches only records that store "
    "none yet; --rederive-factors reads it as if always in force"
)


@pytest.fixture
def pool(tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> Path:
    """alice and bob, each running one job since 12:00 (their factors stored)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fairshare.toml").write_text(CONFIG, encoding="utf-8")
    for owner in ("alice", "bob"):
        assert run("submit", "--owner", owner, "--now", "2026-11-21T12:00:00Z").exit_code == 0
    assert run("negotiate", "--now", "2026-11-21T12:00:00Z").exit_code == 0
    return tmp_path


def test_a_factor_the_records_keep_is_noted(pool: Path, run: Callable[..., Any]) -> None:
    line = "fs whatif --set accountant.default_prio_factor=10 userprio --now 2026-11-21T13:00:00Z"
    result = run(*line.split()[1:], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "fs userprio with accountant.default_prio_factor=10: before -> after: no differences\n"
        f"Note: {NOTE}\n"
    )


def test_the_note_is_in_the_json_too(pool: Path, run: Callable[..., Any]) -> None:
    line = "fs whatif --set accountant.default_prio_factor=10 userprio --json"
    result = run(*line.split()[1:], "--now", "2026-11-21T13:00:00Z")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert (doc["changes"], doc["notes"]) == ([], [NOTE])


def test_rederived_the_change_reaches_them_and_nothing_is_noted(
    pool: Path, run: Callable[..., Any]
) -> None:
    line = "fs whatif --set accountant.default_prio_factor=10 --rederive-factors userprio --json"
    result = run(*line.split()[1:], "--now", "2026-11-21T13:00:00Z")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert "notes" not in doc or doc["notes"] == []
    after = {r["name"]: r["effective_priority"] for r in doc["after"]}
    assert after["alice@example.org"] == pytest.approx(5.14234, abs=1e-5)
    assert after["bob@example.org"] == pytest.approx(5.14234, abs=1e-5)


def test_the_group_record_is_remote_to_the_accountant(pool: Path, run: Callable[..., Any]) -> None:
    """The ``<none>`` group record names no domain, so HTCondor derives the remote factor
    for it (``GetPriorityFactor``: a domain other than ``ACCOUNTANT_LOCAL_DOMAIN``) and a
    new remote factor does not reach it either; alice and bob are local."""
    line = "fs whatif --set accountant.remote_prio_factor=10 userprio --json"
    result = run(*line.split()[1:], "--now", "2026-11-21T13:00:00Z")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["notes"] == [
        NOTE.replace("2 accountant records keep", "1 accountant record keeps")
    ]


def test_a_change_no_stored_factor_is_derived_from_is_not_noted(
    pool: Path, run: Callable[..., Any]
) -> None:
    """No record is a nice user's: a new nice-user factor would reach none anyway."""
    line = "fs whatif --set accountant.nice_user_prio_factor=10 userprio --json"
    result = run(*line.split()[1:], "--now", "2026-11-21T13:00:00Z")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout).get("notes", []) == []
