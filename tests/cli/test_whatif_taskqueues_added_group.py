"""``fs whatif --set dirac.groups.lhcb_nope.job_share=5 taskqueues`` where the waiting jobs
are in ``lhcb_nope``, a group the config does not list: the warning that the after side
adds the group asked "did you mean 'lhcb_user'?", though the jobs name ``lhcb_nope`` and
the admin means it. The suggestion now comes only where no job names the group."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool

BEFORE = (
    "fs: warning: dirac_group 'lhcb_nope' (2 waiting jobs) is not in [dirac.groups] (did you"
    " mean 'lhcb_user'?); DIRAC gives it the default share 1000\n"
)


@pytest.mark.parametrize(
    ("group", "hint"),
    [
        pytest.param("lhcb_nope", "", id="the jobs' group"),
        pytest.param("lhcb_usr", " (did you mean 'lhcb_user'?)", id="a typo"),
    ],
)
def test_the_group_the_jobs_name_is_meant(
    tmp_path: Path, run: Callable[..., Any], group: str, hint: str
) -> None:
    pool = write_pool(tmp_path)
    jobs = tmp_path / "jobs.json"
    objs = [{"id": "1.0", "owner": "alice", "dirac_group": "lhcb_nope", "count": 2}]
    jobs.write_text(json.dumps(objs), encoding="utf-8")
    before = pool["state"].read_bytes()
    key = f"dirac.groups.{group}.job_share"
    result = run("whatif", "--set", f"{key}=5", "taskqueues", "--jobs-file", str(jobs),
                 *common(pool))  # fmt: skip
    assert result.exit_code == 0
    assert result.stderr == (  # (the before side's warning waits for the after side)
        f"fs: warning: --set {key}: the config has no dirac.groups.{group}, so the after side"
        f" adds it{hint}\n" + BEFORE
    )
    assert pool["state"].read_bytes() == before
