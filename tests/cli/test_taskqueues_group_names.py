"""``fs taskqueues`` of DIRAC groups whose names hold a blank, a ``'`` or a ``\\``.

A section of DIRAC's configuration is named by its line up to the ``{``, stripped
(diraccfg's ``loadFromBuffer``), so ``lhcb user`` is a group of ``/Registry/Groups``; DIRAC
9.1's TaskQueueDB and the accounting reports pass group names to MariaDB as query
parameters, so a ``'`` or ``\\`` is held as any other letter. fs refused a group with a
blank ("expected a name without blanks or control characters"). Numbers derived by hand:
the in-group instance's one slice (7200 s, weight 1, max 3; global 5) sees u1 run 3 jobs
for two hours and u2 1 job for the last hour (``history_report = "average"``): averages 3
and 0.5, T 3.5; the group's 1000 split 500 each (0.5 normalised): u1 0.5 / (3/3.5) =
0.583333, u2 0.5 / (0.5/3.5) = 3.5 -> 3; shares 291.6667 (read back 291.667) and 1500. The
JobSharing group is one entity: 3000. Share%: of 4791.667. First% of three queues in
``ORDER BY RAND()/Priority``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, HistoryTaskQueues

CONFIG = """
[dirac.groups.{user}]
job_share = 1000
[dirac.groups.{prod}]
job_share = 3000
job_sharing = true
[dirac.correction]
enabled = true
in_group_history = "user"
history_report = "average"
[[dirac.correction.instances]]
name = "Users"
group = {user}
slices = [ {{ time_span = 7200 }} ]
"""
HEAD = (
    "TQId  Owner  Group       CPUTime  Sites  BannedSites  Platforms  JobTypes  Tags  Jobs"
    "   Priority  Share%  Correction  First%"
)


def jobs(user: str, prod: str) -> list[dict[str, Any]]:
    return [
        {"id": "1.0", "owner": "u1", "dirac_group": user, "user_priority": 1, "count": 2},
        {"id": "2.0", "owner": "u2", "dirac_group": user, "user_priority": 1, "count": 2},
        {"id": "3.0", "owner": "p1", "dirac_group": prod, "user_priority": 1, "count": 2},
    ]


@pytest.mark.parametrize(
    ("user", "prod"),
    [
        pytest.param("lhcb user", "lhcb  prod", id="blanks"),
        pytest.param("o'brien", "back\\slash", id="quote-and-backslash"),
    ],
)
def test_groups_with_blanks_quotes_and_backslashes_are_corrected_and_shown(
    history_taskqueues: Callable[..., HistoryTaskQueues], user: str, prod: str
) -> None:
    config = CONFIG.format(user=json.dumps(user), prod=json.dumps(prod))
    history = f"u1,{user},2026-11-21T10:00:00Z,,3\nu2,{user},2026-11-21T11:00:00Z,,1\n"
    rows, err, table = history_taskqueues(config, history, jobs(user, prod), table=True)
    assert [(r["group"], r["priority"]) for r in rows] == [
        (user, 291.667),
        (user, 1500.0),
        (prod, 3000.0),
    ]
    assert rows[0]["correction"] == pytest.approx(0.5 / (3 / 3.5), rel=1e-15)
    assert [line.rstrip() for line in table.splitlines()] == [
        HEAD,
        f"   1  u1     {user:<10}    86400  -      -            -          -         -        2"
        "   291.6670   6.087      0.5833   4.051",
        f"   2  u2     {user:<10}    86400  -      -            -          -         -        2"
        "  1500.0000  31.304      3.0000  24.190",
        f"   3  p1     {prod:<10}    86400  -      -            -          -         -        2"
        "  3000.0000  62.609      1.0000  71.759",
    ]
    assert err == ""


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        pytest.param(
            ["submit", "--owner", "u1", "--dirac-group", "lhcb user "],
            "--dirac-group: ",
            id="submit",
        ),
        pytest.param(
            ["taskqueues", "--jobs-file", "JOBS"], "JOBS: job 1.0: dirac_group: ", id="file"
        ),
    ],
)
def test_a_group_with_a_blank_at_an_end_is_refused(
    run: Callable[..., Any],
    write_config: Callable[..., Path],
    tmp_path: Path,
    argv: list[str],
    said: str,
) -> None:
    """No DIRAC group has one (the configuration strips a section's name), and MariaDB's
    PAD SPACE collation would take ``lhcb user `` for ``lhcb user``."""
    config = write_config(CONFIG.format(user='"lhcb user"', prod='"p"'))
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps([{"id": "1.0", "owner": "u1", "dirac_group": "lhcb user "}]))
    state = tmp_path / "s.json"
    common = ["--config", str(config), "--state", str(state), "--now", NOW]
    made = run("submit", "--owner", "u0", "--dirac-group", "lhcb user", *common)
    assert made.exit_code == 0, made.stderr
    before = state.read_bytes()
    argv = [str(path) if a == "JOBS" else a for a in argv]
    result = run(*argv, *common)
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {said.replace('JOBS', str(path))}expected a DIRAC group name without a "
        "blank at either end (DIRAC's configuration strips a section's name), got 'lhcb user '\n"
    )
    assert state.read_bytes() == before


def test_config_check_quotes_a_group_with_a_blank(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    """The effective values name each key as ``--set`` takes it."""
    config = write_config(CONFIG.format(user='"lhcb user"', prod='"p"'))
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 0, result.stderr
    assert 'dirac.groups."lhcb user".job_share = 1000\n' in result.stdout
