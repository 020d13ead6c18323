"""``fs negotiate`` orders submitters of equal priority as HTCondor's Phase 3 sort leaves
them: ``std::sort`` with ``submitterLessThan`` over the submitters in the order they
arrive, which fs takes from the queue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"

ONE_SLOT = """
[pool]
uid_domain = "example.org"
defaults = "current"

[[machines]]
name = "exec"
count = 1
"""

#: 17 owners in a queue order that is neither by name nor its reverse: u00, u05, u10, ...
PERMUTED = [f"u{k * 5 % 17:02d}" for k in range(17)]


def _winner(tmp_path: Path, run: Any, config: str, jobs: list[dict[str, Any]]) -> list[str]:
    jobs_file = tmp_path / "jobs.json"
    jobs_file.write_text(json.dumps(jobs))
    state = tmp_path / "state.json"
    result = run(
        "negotiate", "--dry-run", "--config", str(config), "--state", str(state),
        "--now", NOW, "--jobs-file", str(jobs_file), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return [m["submitter"] for m in json.loads(result.stdout)["matches"]]


@pytest.mark.parametrize(
    ("owners", "winner"),
    [
        pytest.param(["zed", "amy", "max"], "zed", id="up-to-16-keep-the-queue-order"),
        pytest.param(PERMUTED, PERMUTED[8], id="17-the-introsort-moves"),
    ],
)
def test_tied_submitters_go_where_std_sort_leaves_them(
    tmp_path: Path, run: Any, write_config: Any, owners: list[str], winner: str
) -> None:
    """fs negotiate --dry-run --jobs-file jobs.json gave the one slot to the first
    submitter by name (amy; u00); HTCondor 25.0's ``submitterLessThan`` (matchmaker.cpp)
    compares priority, then ``SubmitterStarvation``, then ``LastHeardFrom % 1009``, and no
    name, inside ``std::sort``. Derived by hand: every submitter is new (EUP 0.5 x 1.0, no
    usage: starvation 0 / (0 + limit) = 0, the same schedd's heard time), so all tie and
    the sort's input order decides: the collector's, for which fs takes the queue's. Each
    limit is 1/n of the one slot; ``SubmitterLimitPermits`` lets the first submitter with
    nothing in use take it all. Three tied ads: the insertion sort keeps them, zed first.
    Seventeen (more than libstdc++'s 16): the median of items 1, 8 and 16 (all equal) is
    item 8, swapped with item 0; the partition from item 1 stops on every equal item and
    swaps 1<->16, 2<->15, ..., 8<->9, cutting at 9; the two parts are short and equal, so
    the final insertion sort moves nothing. Item 8 of the queue order leads:
    PERMUTED[8] = u06 (8 x 5 mod 17 = 6).
    """
    config = write_config(ONE_SLOT)
    jobs = [{"id": f"{i + 1}.0", "owner": owner} for i, owner in enumerate(owners)]
    assert _winner(tmp_path, run, config, jobs) == [f"{winner}@example.org"]


def test_tied_submitters_of_a_group_arrive_in_queue_order(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """With groups the negotiator hands each group its submitters in the order they
    arrive (``hgq_prepare_for_matchmaking`` appends each ad to its group's list) and
    sorts that list: zed and amy in group_a, both new and tied (as above), zed queued
    first: zed takes the group's one slot (quota 1)."""
    config = write_config(ONE_SLOT + '\n[groups."group_a"]\nquota = 1\n')
    jobs = [
        {"id": f"{i + 1}.0", "owner": owner, "accounting_group": f"group_a.{owner}"}
        for i, owner in enumerate(["zed", "amy"])
    ]
    assert _winner(tmp_path, run, config, jobs) == ["group_a.zed@example.org"]
