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


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--last-decay", "nonsense"], "--last-decay: expected epoch seconds"),
        (["--state", "{bad}"], "is not valid JSON"),
    ],
)
def test_a_refused_state_part_leaves_no_new_config(
    tmp_path: Path, run: Any, extra: list[str], says: str
) -> None:
    """``fs import sshare FILE --into NEW.toml --config NEW.toml`` whose usage part is
    refused left NEW.toml behind (the merge made it, and no config was there to check the
    usage part against first) and said it was merged: now no file, one line."""
    new = tmp_path / "new.toml"
    bad = tmp_path / "bad.json"
    bad.write_text("garbage\n", encoding="utf-8")
    args = ["--config", str(new), "--state", str(tmp_path / "s.json"), "--now", NOW]
    line = [str(_FIXTURE / "sshare_a_l_P.txt"), "--into", str(new), *args]
    result = run("import", "sshare", *line, *[e.format(bad=bad) for e in extra])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("fs: error: ") and says in result.stderr
    assert result.stderr.count("\n") == 1
    assert not new.exists()
    # (a lock file beside the state stays, as every read-modify-write leaves one)
    assert [p.name for p in tmp_path.iterdir() if p.suffix != ".lock"] == ["bad.json"]


def test_a_new_config_and_the_usage_are_both_written(tmp_path: Path, run: Any) -> None:
    """The same line that succeeds writes both, and says so in that order."""
    new, state = tmp_path / "new.toml", tmp_path / "s.json"
    args = ["--config", str(new), "--state", str(state), "--now", NOW]
    result = run("import", "sshare", str(_FIXTURE / "sshare_a_l_P.txt"), "--into", str(new), *args)
    assert result.exit_code == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"merged into {new}: ")
    assert "usage of 5 user associations" in lines[1]
    assert "[accounts" in new.read_text(encoding="utf-8") and state.exists()


def _rows(path: Path) -> list[str]:
    """The rows of a capture file: no command line, header or blank line."""
    return [row for row in path.read_text().splitlines()[2:] if row]


def test_classic_json_users_weighed_at_a_pending_job_keep_their_own_usage(
    tmp_path: Path, run: Any
) -> None:
    """Under classic fair share while jobs run, slurmctld's ``usage_normalized`` of a user is
    its usage over root's when the decay pass weighed its first pending job (a real Slurm
    26.05.3, tests/fixtures/slurm-26.05-local ``cl2_running``: u1 in hep 0.485629, its 827.3
    over root's 3352.26 then 1703.5). Read as a share of root's 3352 at the pass, u1's usage
    was 1628; it is the middle of its whole ``usage``, and every user's RawUsage is sshare's.
    """
    folder = Path(__file__).resolve().parents[2] / "fixtures" / "slurm-26.05-local"
    cfg, capture = tmp_path / "pool.toml", folder / "cl2_running"
    cfg.write_text('[pool]\ndefaults = "current"\n')
    for step in (
        ["slurm-conf", str(folder / "config" / "slurm.conf.classic"), "--replace"],
        ["sacctmgr", str(capture / "sacctmgr_assoc_tree.txt")],
    ):
        assert run("import", *step, "--into", str(cfg)).exit_code == 0, step
    common = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    dump = str(capture / "sshare_a_l_json.txt")
    args = ["--last-decay", "2026-12-02T13:21:36Z", *common, "--now", "2026-12-02T13:21:37Z"]
    res = run("import", "sshare", dump, *args)
    assert res.exit_code == 0, res.stderr
    assert res.stderr.rstrip().endswith(
        "; from whole usage (usage_normalized no share of root's: classic, at a pending job): "
        "chem/u4, hep/u1, hep/u2"
    )
    res = run("sshare", "-a", "-P", "-o", "Account,User,RawUsage", *args[2:])
    theirs = [row.split("|") for row in _rows(capture / "sshare_a_P_fields.txt")]
    users = [row[:2] + row[4:5] for row in theirs if row[1]]
    ours = [row.split("|") for row in res.stdout.splitlines()[1:] if row.split("|")[1]]
    assert ours == users
