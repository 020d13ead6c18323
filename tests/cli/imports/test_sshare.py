"""``fs import sshare`` takes only an sshare listing with rows (io/importers/sshare.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse

HEADER = "Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|\n"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("", "empty; expected the output of 'sshare -a -l -P'", id="empty"),
        pytest.param(
            HEADER, "no rows under the header; expected the output of 'sshare", id="header-only"
        ),
        pytest.param(GARBAGE, ":1: expected sshare's header", id="garbage"),
        pytest.param(OTHER_DUMPS["sacctmgr"], ':2: unknown sshare field "Share"', id="sacctmgr"),
        pytest.param(OTHER_DUMPS["slurm.conf"], ":1: expected sshare's header", id="slurm.conf"),
        pytest.param(
            HEADER + "hep|al\x1bice|1|0.5|10|0.1|0.1|0.5|\n",
            ":2: User: expected a name without blanks or control characters",
            id="escape-in-user",
        ),
    ],
)
def test_what_is_not_an_sshare_listing_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("sshare", content, expected)
