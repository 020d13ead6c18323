"""``negotiator.ignore_user_priorities`` (``NEGOTIATOR_IGNORE_USER_PRIORITIES``).

In HTCondor 25.0 the knob does one thing: ``calculateSubmitterLimit`` sets a submitter's
limit to ``DBL_MAX`` instead of its share of the spin's slot weight total less its usage.
The group's quota still caps the part for unclaimed slots (what the group had left as the
spin began). fs refused the knob as one it does not model; every number below follows
from that one rule.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-20T00:00:00Z"

POOL = """\
[pool]
uid_domain = "example.org"
defaults = "current"
[negotiator]
{knob} = {value}
[[machines]]
name = "s"
count = 4
slots = 1
attributes = {{ Cpus = 1, Memory = 1024 }}
"""


def _negotiate(
    tmp_path: Path, run: Callable[..., Any], pool: str, jobs: list[dict[str, Any]]
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``fs negotiate --dry-run --json``'s (job, slot) matches and (job, reason) unmatched."""
    config, jobs_file = tmp_path / "pool.toml", tmp_path / "jobs.json"
    config.write_text(pool, encoding="utf-8")
    jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
    result = run(
        "negotiate", "--dry-run", "--json", "--config", str(config), "--state",
        str(tmp_path / "state.json"), "--jobs-file", str(jobs_file), "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    matches = [(m["job_id"], m["slot"]) for m in doc["matches"]]
    return matches, [(u["job_id"], u["reason"]) for u in doc["unmatched"]]


TWO_USERS = [{"id": "1.0", "owner": "alice", "count": 4}, {"id": "2.0", "owner": "bob", "count": 4}]


@pytest.mark.parametrize(
    ("knob", "value", "alice", "bob"),
    [
        # shares 0.5 and 0.5 of 4 slots: limits 2 and 2
        pytest.param("ignore_user_priorities", "false", 2, 2, id="off"),
        # alice goes first (a tie: the queue's order), limit DBL_MAX: all 4 slots
        pytest.param("ignore_user_priorities", "true", 4, 0, id="on"),
        pytest.param("NEGOTIATOR_IGNORE_USER_PRIORITIES", "true", 4, 0, id="knob-name"),
    ],
)
def test_a_submitter_takes_what_it_can_use_whatever_its_share(
    tmp_path: Path, run: Callable[..., Any], knob: str, value: str, alice: int, bob: int
) -> None:
    """4 slots of weight 1, alice and bob new (effective priority 0.5 each), 4 jobs each.
    Each share is 0.5 / (0.5 * (1 + 1)) = 0.5, a limit of 0.5 x 4 = 2. Ignoring user
    priorities the limit is DBL_MAX: alice, first of the tie (her first job comes first
    in the queue), takes every slot; bob's turn finds none (``pool_exhausted``)."""
    matches, unmatched = _negotiate(tmp_path, run, POOL.format(knob=knob, value=value), TWO_USERS)
    owners = [job.split(".")[0] for job, _ in matches]
    assert (owners.count("1"), owners.count("2")) == (alice, bob)
    if value == "true":
        assert unmatched == [(f"2.{i}", "pool_exhausted") for i in range(4)]


def test_the_group_quota_still_caps_unclaimed_slots_as_the_spin_began(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Group a, quota 3 (no surplus), alice and carol of it with 4 jobs each. Ignoring
    user priorities each limit is DBL_MAX, and the part for unclaimed slots is what the
    group had left as the spin began: 3 - 0 = 3. alice takes 3 slots (her 4th job is
    refused: 3 + 1 > 3, ``group_quota``); carol's limit is computed from the same group
    usage of 0, so she takes the 4th slot (the first spin goes on past the group's quota
    when preemption is considered). Without the knob: limits 0.5 x min(4, 3) = 1.5 each,
    alice 1 (1 + 1 > 1.5), carol 1; the second spin's limits are 0.5 x 3 - 1 = 0.5 each,
    and alice, with nothing taken in it yet, rounds up once: 3, the quota, so carol's
    turn halts (``group_quota``)."""

    def pool(value: str) -> str:
        return POOL.format(knob="ignore_user_priorities", value=value) + "[groups.a]\nquota = 3\n"

    jobs = [
        {"id": "1.0", "owner": "alice", "accounting_group": "a.alice", "count": 4},
        {"id": "2.0", "owner": "carol", "accounting_group": "a.carol", "count": 4},
    ]
    matches, unmatched = _negotiate(tmp_path, run, pool("true"), jobs)
    assert [job for job, _ in matches] == ["1.0", "1.1", "1.2", "2.0"]
    assert unmatched[0] == ("1.3", "group_quota")
    matches, _ = _negotiate(tmp_path, run, pool("false"), jobs)
    assert [job for job, _ in matches] == ["1.0", "2.0", "1.1"]


def test_condor_config_imports_the_knob(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-config``: the knob is taken into ``[negotiator]``, not warned
    about as one fs does not model."""
    conf = tmp_path / "condor_config"
    conf.write_text("NEGOTIATOR_IGNORE_USER_PRIORITIES = True\n", encoding="utf-8")
    result = run("import", "condor-config", str(conf), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "[negotiator]\nignore_user_priorities = true" in result.stdout
    assert "warning" not in result.stderr
