"""``fs import sshare`` takes only an sshare listing with rows (io/importers/sshare.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW
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


_FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "slurm-22.05" / "ft2_idle"


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--last-decay", "2030-01-01T00:00:00Z"], "--last-decay 2030-01-01T00:00:00Z is after"),
        (["--state", "{bad}"], "is not a fairshare-cli state file"),
    ],
)
def test_a_refused_state_part_leaves_the_config_unmerged(
    tmp_path: Path, run: Any, extra: list[str], says: str
) -> None:
    """``fs import sshare sshare_a_l_P.txt --into CONFIG`` whose usage part is refused (a
    --last-decay after --now, a state not ours): exit 2 with its one line, CONFIG as it
    was (the account tree was merged into it first, then the usage refused)."""
    config = tmp_path / "pool.toml"
    config.write_text('[pool]\nuid_domain = "d"\n', encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": 1}\n', encoding="utf-8")
    before = config.read_bytes()
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    line = [str(_FIXTURE / "sshare_a_l_P.txt"), "--into", str(config), *args]
    result = run("import", "sshare", *line, *[e.format(bad=bad) for e in extra])
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("fs: error: ") and says in result.stderr
    assert result.stderr.count("\n") == 1
    assert config.read_bytes() == before
    assert not (tmp_path / "s.json").exists()
