"""An HTCondor dump of a time after ``--now`` is refused by every import that reads one:
``fs import condor-userprio`` refused a LastUpdate after it, while ``fs import condor-q``
and ``condor-status`` stored jobs submitted and claims started after ``--now`` without a
word (a wait or a use of less than nothing for every command at that time)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, NOW_EPOCH, common, refused
from tests.cli.imports.conftest import CAPTURED, HTCONDOR

#: An hour after NOW (2026-11-21T12:00:00Z = 1,795,262,400 s): 1,795,266,000 s.
LATER = int(NOW_EPOCH) + 3600
LATER_TEXT = "2026-11-21T13:00:00Z"
RUNNING = (
    f'ClusterId = 7\nProcId = 0\nOwner = "alice"\nJobStatus = 2\nQDate = {LATER - 7200}\n'
    f'JobCurrentStartDate = {LATER}\nRemoteHost = "slot1@exec001"\n\n'
)
IDLE = f'ClusterId = 8\nProcId = 0\nOwner = "bob"\nJobStatus = 1\nQDate = {LATER}\n\n'
CLAIMED = (
    'Name = "slot1@exec001"\nMachine = "exec001"\nCpus = 1\nMemory = 4096\n'
    'State = "Claimed"\nRemoteUser = "alice@example.org"\nJobId = "7.0"\n'
    f"JobStart = {LATER}\n\n"
)


@pytest.mark.parametrize(
    ("kind", "text", "what"),
    [
        pytest.param("condor-q", RUNNING, "q.txt:1: job 7.0's start time", id="q-start"),
        pytest.param("condor-q", IDLE, "q.txt:1: job 8.0's QDate", id="q-submitted"),
        pytest.param("condor-status", CLAIMED, "q.txt:1: slot1@exec001's claim start", id="status"),
    ],
)
def test_a_dump_after_now_is_refused_naming_its_time_and_now(
    kind: str, text: str, what: str, env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs import condor-q q.txt --now 2026-11-21T12:00:00Z`` of a job started (or
    submitted) at 13:00; ``fs import condor-status`` of a slot claimed at 13:00."""
    dump = env["dir"] / "q.txt"
    dump.write_text(text)
    before = env["state"].read_bytes()
    for dry in ([], ["--dry-run"]):
        result = run("import", kind, str(dump), *common(env), *dry)
        refused(
            result,
            f"{env['dir']}/{what} {LATER_TEXT} is after --now {NOW}: the dump is of a later "
            f"time; give {LATER_TEXT} or a later time",
        )
        assert env["state"].read_bytes() == before


def test_the_time_comes_from_the_environment_it_is_named(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """With FAIRSHARE_NOW, not --now, the line names it and says to give --now."""
    dump = env["dir"] / "q.txt"
    dump.write_text(IDLE)
    args = ["--config", str(env["config"]), "--state", str(env["state"])]
    result = run("import", "condor-q", str(dump), *args, env={"FAIRSHARE_NOW": NOW})
    refused(result, f"is after FAIRSHARE_NOW {NOW}", f"give --now {LATER_TEXT} or a later time")


def test_the_same_dump_at_its_time_is_imported(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """At --now 13:00 the running job and its claim come in (start time 13:00)."""
    dump = env["dir"] / "q.txt"
    dump.write_text(RUNNING)
    args = ["--config", str(env["config"]), "--state", str(env["state"]), "--now", LATER_TEXT]
    result = run("import", "condor-q", str(dump), *args)
    assert result.exit_code == 0, result.stderr
    job = json.loads(env["state"].read_text())["jobs"][-1]
    assert (job["id"], job["start_time"]) == ("7.0", LATER)


def test_the_captures_import_at_their_own_time(tmp_path: Path, run: Callable[..., Any]) -> None:
    """The flat_users pool's condor_status and condor_q captures, at the capture time."""
    cfg, state = tmp_path / "c.toml", tmp_path / "s.json"
    cfg.write_text('[pool]\nuid_domain = "htc.test"\n')
    at = ["--state", str(state), "--now", CAPTURED]
    status = run(
        "import", "condor-status", str(HTCONDOR / "condor_status.json"), "--into", str(cfg), *at
    )
    assert status.exit_code == 0, status.stderr
    queue = run("import", "condor-q", str(HTCONDOR / "condor_q.json"), "--config", str(cfg), *at)
    assert queue.exit_code == 0, queue.stderr
