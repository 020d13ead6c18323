"""``fs import condor-config`` of a group's knob whose group ``GROUP_NAMES`` does not list
(``GROUP_QUOTA_group_lhcb``): the negotiator reads the knobs of the listed groups only
(``hgq_construct_tree``), so the group has no quota. It was counted among the ignored
knobs without a word; a warning names it and what to do."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

CONFIG = """\
UID_DOMAIN = cs.wisc.edu
GROUP_NAMES = group_cms, group_cms.prod
GROUP_QUOTA_group_cms = 60
GROUP_QUOTA_GROUP_CMS.PROD = 20
GROUP_QUOTA_group_lhcb = 5
GROUP_PRIO_FACTOR_group_atlas = 2.0
GROUP_QUOTA_ROUND_ROBIN_RATE = 4
"""


def test_a_group_knob_of_an_unlisted_group_is_warned_about(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs import condor-config condor_config.local: the listed groups' knobs (in any
    case) are taken, the two unlisted ones warned about, one line each."""
    conf = tmp_path / "condor_config.local"
    conf.write_text(CONFIG, encoding="utf-8")
    result = run("import", "condor-config", str(conf))
    assert result.exit_code == 0, result.stderr
    assert '[groups."group_cms.prod"]\nquota = 20' in result.stdout
    assert "lhcb" not in result.stdout and "atlas" not in result.stdout
    assert result.stderr.splitlines() == [
        f"condor-config {conf}: 5 knobs taken, 2 groups; ignored 2: GROUP_PRIO_FACTOR_group_atlas, "
        "GROUP_QUOTA_group_lhcb",
        "fs: warning: GROUP_QUOTA_group_lhcb: group_lhcb is not in GROUP_NAMES, so the "
        "negotiator never reads it (ignored); add group_lhcb to GROUP_NAMES",
        "fs: warning: GROUP_PRIO_FACTOR_group_atlas: group_atlas is not in GROUP_NAMES, so the "
        "negotiator never reads it (ignored); add group_atlas to GROUP_NAMES",
    ]
