"""``fs submit --owner ann --accounting-group group_cmss`` (a typo of the configured
``group_cms``): taken in silence, though the negotiator charges it in ``<none>`` as a
submitter named ``group_cmss`` (a name with no dot is no group's). A dotted typo
(``group_cmss.ann``) is refused, naming its parent; now the undotted one is warned of,
naming the group and the accounting group to write. The job is still taken, as
condor_submit takes it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW

CONFIG = """
[pool]
uid_domain = "lab.org"
[groups."group_cms"]
dynamic_quota = 0.6
[groups."group_atlas"]
dynamic_quota = 0.4
"""


def _args(tmp_path: Path) -> list[str]:
    (tmp_path / "pool.toml").write_text(CONFIG, encoding="utf-8")
    return ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json"),
            "--now", NOW]  # fmt: skip


def test_a_group_misspelt_without_a_user_is_warned_of(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    result = run("submit", "--owner", "ann", "--accounting-group", "group_cmss", *_args(tmp_path))
    assert (result.exit_code, result.stdout) == (0, "Submitted 1 job as cluster 1\n")
    assert result.stderr == (
        "fs: warning: job 1: accounting group group_cmss is no configured group (did you mean"
        " 'group_cms'?), so HTCondor charges submitter group_cmss@lab.org in <none>, as a user"
        " of that name: make it group_cms.ann\n"
    )


@pytest.mark.parametrize("group", ["ann", "group_cms.ann"])
def test_no_warning(tmp_path: Path, run: Callable[..., Any], group: str) -> None:
    """A name close to no group (a user's), and a group with its user: nothing said."""
    result = run("submit", "--owner", "ann", "--accounting-group", group, *_args(tmp_path))
    assert (result.exit_code, result.stderr) == (0, "")
