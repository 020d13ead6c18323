"""``fs sshare`` under ``priority.type = "basic"`` (``PriorityType=priority/basic``): the
plugin never normalises shares or usage, so sshare prints NormShares and NormUsage blank,
EffectvUsage and LevelFS 0, and FairShare 1 (classic: basic's factor of 0 usage over
``NO_VAL64`` shares) or, under Fair Tree, 0 for users and blank for accounts. fs printed
the multifactor figures. Held to a real Slurm 22.05.8's output
(tests/fixtures/slurm-22.05-local, ``basic_idle`` and ``basic_fairtree``), byte for byte,
and to a real Slurm 26.05.3's (tests/fixtures/slurm-26.05-local) under the default
``output_compat = "current"``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES

LOCAL = FIXTURES / "slurm-22.05-local"
#: Each capture set, and the ``[priority]`` lines of the pool that reads it.
RELEASES = {
    LOCAL: '[priority]\noutput_compat = "22.05"\n',
    FIXTURES / "slurm-26.05-local": "",
}
FIELDS = "Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS"


def _body(path: Path) -> str:
    """A capture file without its command line and trailing blank lines."""
    return path.read_text().split("\n", 1)[1].rstrip("\n") + "\n"


@pytest.mark.parametrize("folder", list(RELEASES), ids=["22.05", "26.05"])
@pytest.mark.parametrize(
    ("capture", "conf"),
    [("basic_idle", "slurm.conf.basic"), ("basic_fairtree", "slurm.conf.basic_fairtree")],
)
def test_sshare_under_priority_basic_prints_what_sshare_printed(
    tmp_path: Path, run: Callable[..., Any], capture: str, conf: str, folder: Path
) -> None:
    cfg = tmp_path / "pool.toml"
    cfg.write_text('[pool]\ndefaults = "current"\n' + RELEASES[folder])
    for step in (
        ["slurm-conf", str(folder / "config" / conf), "--into", str(cfg), "--replace"],
        ["sacctmgr", str(folder / "basic_idle" / "sacctmgr_assoc_tree.txt"), "--into", str(cfg)],
        ["sacctmgr", str(folder / "basic_idle" / "sacctmgr_qos.txt"), "--into", str(cfg)],
    ):
        assert run("import", *step).exit_code == 0, step
    now = (folder / capture / "date.txt").read_text().splitlines()[4]
    common = ["--config", str(cfg), "--state", str(tmp_path / "state.json"), "--now", now]
    dump = str(folder / capture / "scontrol_assoc_mgr.txt")
    assert run("import", "scontrol-assoc", dump, *common).exit_code == 0
    for args, name in (
        (["-a", "-l"], "sshare_a_l.txt"),
        (["-a", "-l", "-P"], "sshare_a_l_P.txt"),
        (["-a", "-P", "-o", f"{FIELDS},TRESRunMins"], "sshare_a_P_fields.txt"),
    ):
        result = run("sshare", *args, *common)
        assert result.exit_code == 0, result.stderr
        assert result.stdout == _body(folder / capture / name), name
    # no decay pass runs under priority/basic: a day later the usage is the same
    later = [*common[:-1], "2026-12-03T06:00:00Z"]
    result = run("sshare", "-a", "-l", *later)
    assert result.stdout == _body(folder / capture / "sshare_a_l.txt")


def test_todays_sshare_under_priority_basic_prints_the_unset_factor(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Today's sshare prints a user's own ``fs_factor`` and blanks an account's
    (master's ``process.c``, ``PRINT_FSFACTOR``), with no factor of its own: under basic,
    classic flags too, the unset factor, 0. ``basic_idle``'s pool under ``output_compat =
    "current"``: ``fs sshare -a -P -o Account,User,FairShare``."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text('[pool]\ndefaults = "current"\n')
    conf = str(LOCAL / "config" / "slurm.conf.basic")
    assert run("import", "slurm-conf", conf, "--into", str(cfg), "--replace").exit_code == 0
    tree = str(LOCAL / "basic_idle" / "sacctmgr_assoc_tree.txt")
    assert run("import", "sacctmgr", tree, "--into", str(cfg)).exit_code == 0
    now = (LOCAL / "basic_idle" / "date.txt").read_text().splitlines()[4]
    common = ["--config", str(cfg), "--state", str(tmp_path / "state.json"), "--now", now]
    dump = str(LOCAL / "basic_idle" / "scontrol_assoc_mgr.txt")
    assert run("import", "scontrol-assoc", dump, *common).exit_code == 0
    result = run("sshare", "-a", "-P", "-o", "Account,User,FairShare", *common)
    assert result.exit_code == 0, result.stderr
    rows = [line.split("|") for line in result.stdout.splitlines()[1:]]
    assert rows[:4] == [["root", "", ""], [" root", "root", "0.000000"], [" bio", "", ""],
                        ["  bio", "u6", "0.000000"]]  # fmt: skip
    assert {r[2] for r in rows if r[1]} == {"0.000000"}
    assert {r[2] for r in rows if not r[1]} == {""}
