"""fs negotiate under the legacy profile: a job kept off claimed slots by HTCondor 7.x's
hard-coded priority margin waits for ``insufficient_priority``, as the 7.x negotiator names
it ("insufficient priority", ``rejPreemptForPrio``): the margin is tested before
``PREEMPTION_REQUIREMENTS``, which is not evaluated then. fs said ``PREEMPTION_REQUIREMENTS
is false`` even where the config set it to ``true``. A slot whose user passes the margin
and that ``PREEMPTION_REQUIREMENTS`` refuses still names ``preemption_requirements``, first."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

#: the legacy profile (no [pool] defaults); two slots
POOL = """[pool]
uid_domain = "example.org"
[negotiator]
preemption_requirements = "{preq}"
[[machines]]
name = "exec"
count = 1
slots = 2
"""
#: alice has run 2 slots since {since} (08:00 unless a test says) and still runs them
HISTORY = "owner,start,end,slots\nalice,{since},,2\n"
NOW = "2026-11-21T12:00:00Z"


def _pool(
    tmp_path: Path, run: Callable[..., Any], preq: str, since: str = "2026-11-21T08:00:00Z"
) -> list[str]:
    (tmp_path / "pool.toml").write_text(POOL.format(preq=preq), encoding="utf-8")
    (tmp_path / "history.csv").write_text(HISTORY.format(since=since), encoding="utf-8")
    files = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json")]
    for line in (
        ["import", "history", str(tmp_path / "history.csv")],
        ["submit", "--owner", "bob"],
    ):
        result = run(*line, *files, "--now", NOW)
        assert result.exit_code == 0, result.stderr
    return files


@pytest.mark.parametrize("preq", ["true", "TotalJobRuntime > 3600"])
def test_a_claim_less_than_half_a_point_worse_is_insufficient_priority(
    run: Callable[..., Any], tmp_path: Path, preq: str
) -> None:
    # alice's priority at 12:00, from 0.5 with 2 slots in use for 4 h (half-life 1 day):
    # 0.5 * b + 2 * (1 - b), b = 0.5 ** (14400 / 86400) = 0.890899, is 0.663652; bob, new,
    # is at 0.5. 0.663652 < 0.5 + 0.5: 7.x does not preempt her for priority, and names it
    files = _pool(tmp_path, run, preq)
    result = run("negotiate", "--dry-run", "--explain", "1", *files, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        "  left idle: the users of the claimed slots it matches have priorities less than 0.5"
        " worse than its submitter's (the legacy profile's HTCondor 7.x margin)"
    )
    result = run("negotiate", "--dry-run", "--json", *files, "--now", NOW)
    assert json.loads(result.stdout)["unmatched"] == [
        {"job_id": "1", "submitter": "bob@example.org", "reason": "insufficient_priority"}
    ]


def test_a_claim_past_the_margin_is_preemption_requirements(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    # since 2026-11-20T00:00 (36 h): b = 0.5 ** 1.5 = 0.353553, alice is at
    # 0.5 * b + 2 * (1 - b) = 1.469670, past 0.5 + 0.5: PREEMPTION_REQUIREMENTS decides
    files = _pool(tmp_path, run, "false", since="2026-11-20T00:00:00Z")
    result = run("negotiate", "--dry-run", "--json", *files, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert [s["effective_priority"] for s in document["submitters"]] == [0.5, 1.46967]
    assert [u["reason"] for u in document["unmatched"]] == ["preemption_requirements"]
