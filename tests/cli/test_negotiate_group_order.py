"""``fs negotiate`` runs more than 16 tied groups in the order GCC's ``std::sort`` leaves
them, as HTCondor's negotiator does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"

POOL = """
[pool]
uid_domain = "example.org"
defaults = "legacy"

[[machines]]
name = "exec"
count = 17
attributes = { Cpus = 1, Memory = 1024 }

[[machines]]
name = "big"
count = 1
attributes = { Cpus = 1, Memory = 4096 }
""" + "".join(f'\n[groups."group_{g:02d}"]\nquota = 1\n' for g in range(1, 18))


def test_the_first_group_the_sort_leaves_takes_the_one_slot_all_want(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """Derived by hand from ``GroupEntry::hgq_negotiate_with_all_groups`` (HTCondor 25.0):
    the groups, breadth-first (``<none>``, group_01 ... group_17: 18 items), are
    ``std::sort``-ed by ``group_order``, ``sort_key < sort_key``. With the default
    ``GROUP_SORT_EXPR`` every group uses 0 of its quota of 1 (key 0) and ``<none>`` has
    3.4e38. libstdc++'s introsort (18 > 16 items): the median of items 1, 9, 17 (all 0)
    is item 9, swapped to the front with ``<none>``; the partition stops on every equal
    item, swaps 1↔17, 2↔16, ..., 8↔10, then passes ``<none>`` (now at place 9, greater
    than the pivot) and cuts at 9; the final insertion sort moves ``<none>`` past the
    eight groups after it, to the end. Order:
    group_09, group_17, group_16, ..., group_10, group_08, ..., group_01, ``<none>``.
    Every group's one job needs 2048 MB, which only big001 has: group_09 takes it (fs
    kept ties in order: group_01)."""
    jobs = [
        {
            "id": f"{g}.0",
            "owner": "u",
            "accounting_group": f"group_{g:02d}.u",
            "request_memory": 2048,
        }
        for g in range(1, 18)
    ]
    jobs_file = tmp_path / "jobs.json"
    jobs_file.write_text(json.dumps(jobs))
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "state.json")]
    result = run(
        "negotiate", "--dry-run", *args, "--now", NOW, "--jobs-file", str(jobs_file), "--json"
    )
    assert result.exit_code == 0, result.stderr
    matches = [(m["submitter"], m["slot"]) for m in json.loads(result.stdout)["matches"]]
    assert matches == [("group_09.u@example.org", "slot1@big001")]
