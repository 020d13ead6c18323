"""``fs whatif ... taskqueues`` of jobs in a DIRAC group the config does not list
(cli/taskqueues.py): the warning was printed by both sides, twice."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import common, write_pool

WARNING = (
    "fs: warning: dirac_group 'nosuch' (1 waiting job) is not in [dirac.groups]; DIRAC"
    " gives it the default share 1000\n"
)


def test_an_unlisted_group_is_warned_of_once(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs whatif --set dirac.groups.lhcb_user.job_share=5 taskqueues --jobs-file j.json``
    of a job in group 'nosuch': one warning, as ``fs taskqueues`` alone gives."""
    pool = write_pool(tmp_path)
    jobs = tmp_path / "j.json"
    jobs.write_text(json.dumps([{"id": "5.0", "owner": "zed", "dirac_group": "nosuch"}]))
    alone = run("taskqueues", "--jobs-file", str(jobs), *common(pool))
    assert (alone.exit_code, alone.stderr) == (0, WARNING)
    line = ["whatif", "--set", "dirac.groups.lhcb_user.job_share=5", "taskqueues"]
    result = run(*line, "--jobs-file", str(jobs), *common(pool))
    assert (result.exit_code, result.stderr) == (0, WARNING)
