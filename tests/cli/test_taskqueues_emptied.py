"""``fs taskqueues`` once a task queue's last job has left (``fs rm``).

DIRAC 9.1.22's TaskQueueDB keeps the emptied queue until ``cleanOrphanedTaskQueues`` deletes
it (``retrieveTaskQueues`` runs it on meeting an empty queue with a requirement row: bob's
queue names a site, so the first SiteDirector cycle whose CE matches it) and the next
TaskQueuesAgent cycle recalculates the rest (``recalculateTQSharesForAll``: ``GROUP BY Owner``
then finds alice and carol only). By hand: ``lhcb_user`` (1000, no JobSharing) went from
1000/3 = 333.3333 (``%.4f``, read back with six digits: 333.333) a queue to 1000/2 = 500;
``lhcb_prod`` (3000, JobSharing, one queue) stays 3000. With r = 500/3000 = 1/6 for both
user queues, ops' queue comes first in ``ORDER BY RAND() / Priority`` with
``∫_0^1 (1 - t/6)^2 dt = 2 (1 - (5/6)^3) = 91/108``, each user queue with
``(1/6) ∫_0^1 (1 - t/6)(1 - t) dt = (1/6)(1/2 - 1/12 + 1/18) = 17/216``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
CONFIG = """
[dirac.groups.lhcb_user]
job_share = 1000
[dirac.groups.lhcb_prod]
job_share = 3000
job_sharing = true
"""


def test_an_owner_whose_last_job_leaves_no_longer_splits_the_share(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    common = ["--config", str(write_config(CONFIG)), "--state", str(tmp_path / "s.json")]
    common += ["--now", NOW]
    bob_at_cern = ["--set", 'dirac_requirements={"sites": ["LCG.CERN.cern"]}']
    carol_on_el9 = ["--set", 'dirac_requirements={"platform": "x86_64-el9"}']
    submits = [
        ["--id", "1", "--count", "2", "--owner", "alice", "--dirac-group", "lhcb_user"],
        ["--id", "2", "--owner", "bob", "--dirac-group", "lhcb_user", *bob_at_cern],
        ["--id", "3", "--owner", "carol", "--dirac-group", "lhcb_user", *carol_on_el9],
        ["--id", "4", "--count", "3", "--owner", "ops", "--dirac-group", "lhcb_prod"],
    ]
    for submit in submits:
        assert run("submit", *common, *submit).exit_code == 0
    before = json.loads(run("taskqueues", *common, "--json").stdout)
    assert [(r["owner"], r["priority"]) for r in before] == [
        ("alice", 333.333), ("bob", 333.333), ("carol", 333.333), ("ops", 3000.0),
    ]  # fmt: skip

    assert run("rm", *common, "2").exit_code == 0
    result = run("taskqueues", *common, "--json")
    assert result.exit_code == 0, result.stderr
    after = json.loads(result.stdout)
    assert [(r["owner"], r["priority"]) for r in after] == [
        ("alice", 500.0), ("carol", 500.0), ("ops", 3000.0),
    ]  # fmt: skip
    expected = [17 / 216, 17 / 216, 91 / 108]
    for row, chance in zip(after, expected, strict=True):
        assert math.isclose(row["p_first"], chance, rel_tol=1e-12), row
