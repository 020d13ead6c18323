"""``fs config check`` says when DIRAC groups are listed and no VO is named: DIRAC's
matcher then refuses a generic pilot, and so does ``fs taskqueues --pilot``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NO_VO = (
    "fs: warning: [dirac] names no VO ([dirac] vo and every group's vo unset): DIRAC's "
    "matcher refuses a pilot that gives no OwnerGroup ('No VO requested'), and so does fs "
    "taskqueues --pilot; set [dirac] vo to the services' VO"
)


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ("", [NO_VO]),
        ('[dirac]\nvo = "lhcb"\n', []),
        ('[dirac.groups.lhcb_prod]\nvo = "lhcb"\n', []),
    ],
    ids=["no-vo", "services-vo", "group-vo"],
)
def test_dirac_groups_without_a_vo_are_named(
    extra: str, said: list[str], write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """A config listing lhcb_user and naming no VO: 'fs taskqueues --pilot Site=...'
    (no OwnerGroup) is refused, exit 2, where DIRAC's Matcher answers 'No VO requested';
    the check (exit 0) warns of it once. A VO set for the services or for a group: no word."""
    config = write_config(
        '[pool]\ndefaults = "current"\n[dirac.groups.lhcb_user]\njob_share = 1000\n' + extra
    )
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == said
