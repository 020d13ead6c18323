"""``fs userprio -flat`` with accounting groups: which group rows show, as HTCondor 25.0's
``user_prio.cpp`` prints them.

``ProcessInfo`` clears ``HideNoneGroupIfPossible`` as soon as a visible record has a group
id above 0, which every record of a real group gets once some submitter is in one
(``CollectInfo``'s group-id fixup); ``PrintInfo`` then prints the ``<none>`` row wherever
it sorts. ``fs`` dropped ``<none>`` whenever it sorted first among the group rows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
CONFIG = """
[pool]
uid_domain = "example.org"
[groups."group_b"]
quota = 5
"""
# u4 (no group): 3 slots for the last hour; group_b.u3: 1 slot for the last 12 hours.
HISTORY = (
    '{"owner": "u4", "start": "2026-11-21T11:00:00Z", "end": null, "slots": 3}\n'
    '{"owner": "u3", "accounting_group": "group_b.u3", "start": "2026-11-21T00:00:00Z", '
    '"end": null, "slots": 1}\n'
)


def test_the_none_row_shows_first_when_it_sorts_first(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Priorities from 0.5 with the legacy half-life of a day, P = 0.5·β + U·(1 − β):
    u4 (and <none>, whose record holds u4's slots) 0.5·0.5^(1/24) + 3·(1 − 0.5^(1/24))
    = 0.5712; u3 (and group_b) 0.5·0.5^(1/2) + 1·(1 − 0.5^(1/2)) = 0.6464. The flat order
    is by priority: <none> ties u4 (by name, as fs breaks ties: "<" before "u"), then
    group_b, then u3; <none> shows with the Use Surplus "yes" of the root."""
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "h.jsonl").write_text(HISTORY, encoding="utf-8")
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json"),
            "--now", NOW]  # fmt: skip
    assert run("import", "history", str(tmp_path / "h.jsonl"), *args).exit_code == 0
    result = run("userprio", "-flat", *args)
    assert result.exit_code == 0, result.stderr
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert [line.split()[0] for line in lines[4:-2]] == [
        "<none>",
        "u4@example.org",
        "group_b",
        "group_b.u3@example.org",
    ]
    assert lines[4] == (
        # the name column: the longest name (group_b.u3@example.org, 22) over
        # "Number of users: 4" (18: two group ads and two submitters)
        "<none>                      0.00 yes                       1.00      3"
        "         3.00      <now>          0"
    )
    assert lines[5].split()[1] == "0.57" and lines[7].split()[1] == "0.65"
