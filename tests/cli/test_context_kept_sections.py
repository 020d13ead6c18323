"""A command that writes the state refuses a section it writes back unchanged when a view
would refuse it: it does not read that section, but it must not pass on what every later
reader refuses (exit 2, one line, the file left byte for byte)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.cli.conftest import STATE, common, refused

#: Year 1 to 9999 is what a record's times may be: -62,135,596,800 s is 0001-01-01 (719,162
#: days before 1970 x 86,400 s); -99,999,999,999,999,999,999 s is far before it.
FAR_PAST = -99999999999999999999


def _write(env: dict[str, Any], **sections: Any) -> str:
    text = json.dumps({**STATE, **sections})
    env["state"].write_text(text)
    return text


def test_fs_rm_refuses_an_accountant_record_fs_userprio_refuses(
    env: dict[str, Any], run: Callable[..., Any]
) -> None:
    """``fs rm 1`` changes only the queue; the accountant record it writes back has a
    ``begin_usage_time`` before year 1, which ``fs userprio`` refuses."""
    record = {"alice@example.org": {"begin_usage_time": FAR_PAST}}
    text = _write(env, accountant={"records": record})
    where = "accountant.records.alice@example.org.begin_usage_time"
    refused(run("userprio", *common(env)), where)
    for line in (["rm", "1"], ["rm", "1", "--dry-run"]):
        result = run(*line, *common(env))
        refused(result, f"state file {env['state']}: {where}", "; fix it or move it aside")
        assert env["state"].read_text() == text


def test_fs_setfactor_refuses_a_queue_it_writes_back_unread(
    env: dict[str, Any], run: Callable[..., Any]
) -> None:
    """``fs setfactor alice 2`` of an existing record does not read the queue; a job with
    a ``submit_time`` of ``"x"`` (neither epoch seconds nor ISO-8601) is refused by
    ``fs sprio`` and now by the edit too."""
    jobs = [{"id": "1", "owner": "alice", "account": "hep", "submit_time": "x"}]
    record = {"alice@example.org": {"priority": 1.0}}
    text = _write(env, jobs=jobs, accountant={"records": record})
    refused(run("sprio", *common(env)), "job 1: submit_time")
    result = run("setfactor", "alice", "2", *common(env))
    refused(result, f"state file {env['state']}: jobs: job 1: submit_time", '"x"')
    assert env["state"].read_text() == text


def test_an_edit_refuses_usage_history_marks_it_writes_back(
    env: dict[str, Any], run: Callable[..., Any]
) -> None:
    """``fs setfactor bob 2 --create`` with ``usage_history`` marks that count a row -1:
    a row id is 0 or more, so the store's reader refuses them."""
    text = _write(env, usage_history={"records": -1, "ends": 0})
    result = run("setfactor", "bob", "2", "--create", *common(env))
    refused(result, f'state file {env["state"]}: state section "usage_history"', "move it aside")
    assert env["state"].read_text() == text


def test_sections_that_views_read_pass_an_edit_as_before(
    env: dict[str, Any], run: Callable[..., Any]
) -> None:
    """A well-formed accountant record written back by ``fs rm 1`` as it was."""
    record = {"alice@example.org": {"priority": 0.5, "begin_usage_time": 1795258800.0}}
    _write(env, accountant={"records": record})
    result = run("rm", "1", *common(env))
    assert result.exit_code == 0, result.stderr
    written = json.loads(env["state"].read_text())
    assert written["accountant"] == {"records": record}
    assert written["jobs"] == []
