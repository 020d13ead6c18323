"""``fs negotiate --dry-run`` and ``fs quota`` of a jobs file whose job's accounting group
is a configured group with no user (``group_cms``, as a submit file's ``accounting_group``
is written): the negotiator charges it in ``<none>`` as a submitter named after the group,
and the views showed that in silence, where ``fs submit`` of the same job warns. Now the
views warn in ``fs submit``'s words (once under ``fs whatif``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool

CONFIG = """
[pool]
uid_domain = "lab.org"
[[machines]]
name = "node"
count = 2
slots = 2
attributes = { Cpus = 1 }
[groups."group_cms"]
dynamic_quota = 0.6
"""
WARNING = (
    "fs: warning: job 1.0: accounting group group_cms is a group with no user, so HTCondor"
    " charges submitter group_cms@lab.org in <none>; an AccountingGroup is GROUP.USER (a"
    " submit file's accounting_group = group_cms makes group_cms.ann): make it group_cms.ann\n"
)


@pytest.mark.parametrize(
    "view",
    [
        pytest.param(["negotiate", "--dry-run"], id="negotiate"),
        pytest.param(["quota"], id="quota"),
        pytest.param(["whatif", "--set", "negotiator.use_slot_weights=true", "quota"], id="whatif"),
    ],
)
def test_a_group_with_no_user_is_warned_of(
    tmp_path: Path, run: Callable[..., Any], view: list[str]
) -> None:
    pool = write_pool(tmp_path, CONFIG)
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([{"id": "1.0", "owner": "ann", "accounting_group": "group_cms"}]))
    before = pool["state"].read_bytes()
    result = run(*view, "--jobs-file", str(jobs), *common(pool))
    assert result.exit_code == 0
    assert result.stderr == WARNING
    assert pool["state"].read_bytes() == before


@pytest.mark.parametrize(
    "view",
    [
        pytest.param(["negotiate", "--dry-run"], id="negotiate"),
        pytest.param(["quota"], id="quota"),
    ],
)
def test_a_count_object_is_warned_of_as_its_jobs(
    tmp_path: Path, run: Callable[..., Any], view: list[str]
) -> None:
    """``fs negotiate --dry-run --jobs-file J`` of one object of ``"count": 4``: the warning
    named ``job 1.0`` (the batch's first job, as if alone), where ``fs submit --count 4``
    of the same job says ``4 jobs (1.0 ...)``; now the view counts its four jobs too."""
    pool = write_pool(tmp_path, CONFIG)
    jobs = tmp_path / "jobs.json"
    job = {"id": "1.0", "owner": "ann", "accounting_group": "group_cms", "count": 4}
    jobs.write_text(json.dumps([job]))
    before = pool["state"].read_bytes()
    result = run(*view, "--jobs-file", str(jobs), *common(pool))
    assert result.exit_code == 0
    assert result.stderr == WARNING.replace("job 1.0:", "4 jobs (1.0 ...):")
    assert pool["state"].read_bytes() == before
