"""``fs init``'s starter, then a real pool's knobs merged into it by hand's next step.

The starter's ``uid_domain`` line said ``# bare owners become owner@example.org``; after
``fs import condor-config FILE --into fairshare.toml --replace`` put the pool's own
``UID_DOMAIN`` there, the line read ``uid_domain = "htc.test"  # bare owners become
owner@example.org``: a comment that contradicts its value. The comment names the key now.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

DUMP = (
    Path(__file__).resolve().parents[1]
    / "fixtures"
    / "htcondor-25.0"
    / "flat_users"
    / "condor_config_val.dump.txt"
)


def test_a_replaced_uid_domain_keeps_no_comment_naming_the_old_one(
    run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("init").exit_code == 0
    result = run("import", "condor-config", str(DUMP), "--into", "fairshare.toml", "--replace")
    assert result.exit_code == 0, result.stderr
    lines = (tmp_path / "fairshare.toml").read_text(encoding="utf-8").splitlines()
    [line] = [line for line in lines if line.startswith("uid_domain")]
    assert (
        line == 'uid_domain = "htc.test"        # bare owners become owner@uid_domain  [UID_DOMAIN]'
    )
    assert not any("example.org" in line and "htc.test" in line for line in lines)
