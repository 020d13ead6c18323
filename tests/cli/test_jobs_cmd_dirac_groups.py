"""``fs submit --dirac-group`` of a group ``[dirac.groups]`` does not list: the job is
queued (DIRAC gives such a group its default share, 1000) with the warning ``fs
taskqueues`` prints, naming the group a misspelling is near. fs took it without a word."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.cli.test_main_help_examples import REPO


def test_a_group_the_config_does_not_list_is_warned_of(tmp_path: Path, run: Any) -> None:
    cfg = REPO / "sample_configs" / "pool.toml"
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    result = run(
        "submit", "--owner", "erin", "--dirac-group", "lhcb_usr", "--count", "3", *args
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "Submitted 3 jobs as cluster 1\n"
    assert result.stderr == (
        "fs: warning: dirac_group 'lhcb_usr' (3 jobs submitted) is not in [dirac.groups] "
        "(did you mean 'lhcb_user'?); DIRAC gives it the default share 1000\n"
    )
    listed = run("submit", "--owner", "erin", "--dirac-group", "lhcb_user", *args)
    assert listed.exit_code == 0, listed.stderr
    assert listed.stderr == ""
