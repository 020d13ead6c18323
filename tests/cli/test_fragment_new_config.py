"""A config an import's ``--into`` creates names today's profile (``[pool] defaults =
"current"``, what ``fs init`` writes), whichever importer made it, so that
``fs config check`` on it is quiet. ``fs import slurm-conf slurm.conf --into new.toml``
wrote no ``defaults``: the file read as ``legacy`` (priority weights 1 where slurm.conf
leaves them out, Slurm's default being 0) and ``fs config check`` warned about it. The
importers that also write the state (``condor-status``, ``sshare``) read it against the
config they create, a dry run's too: ``fs import condor-status slots.json --into new.toml``
said "config file new.toml does not exist", and ``fs import sshare shares.txt --into
new.toml`` (its help's example) looked for ./fairshare.toml."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES

HTCONDOR = FIXTURES / "htcondor-25.0" / "flat_users"
SLURM = FIXTURES / "slurm-22.05"
NOW = "2026-11-23T18:25:33Z"

#: Every importer that takes --into: its kind, dump, and what else its line needs.
IMPORTS = [
    pytest.param("slurm-conf", SLURM / "config" / "slurm.conf.fairtree", [], id="slurm-conf"),
    pytest.param("sacctmgr", SLURM / "ft2_idle" / "sacctmgr_assoc_tree.txt", [], id="assoc"),
    pytest.param("sacctmgr", SLURM / "ft2_idle" / "sacctmgr_qos.txt", [], id="qos"),
    pytest.param("dirac-cfg", FIXTURES / "dirac-cfg" / "dirac.cfg", [], id="dirac-cfg"),
    pytest.param("condor-config", HTCONDOR / "condor_config_val.dump.txt", [], id="condor-config"),
    pytest.param(
        "condor-status",
        HTCONDOR / "condor_status.json",
        ["--state", "state.json", "--now", NOW],
        id="condor-status",
    ),
    pytest.param(
        "sshare",
        SLURM / "ft2_idle" / "sshare_a_l_P.txt",
        ["--state", "state.json", "--now", NOW],
        id="sshare",
    ),
]


@pytest.fixture
def folder(tmp_path: Path) -> Any:
    """A fresh folder (no ./fairshare.toml) as the current one."""
    work = tmp_path / "fresh"
    work.mkdir()
    here = Path.cwd()
    os.chdir(work)
    yield work
    os.chdir(here)


@pytest.mark.parametrize(("kind", "dump", "extra"), IMPORTS)
def test_a_new_config_names_the_current_profile_and_checks_quietly(
    folder: Path, run: Callable[..., Any], kind: str, dump: Path, extra: list[str]
) -> None:
    result = run("import", kind, str(dump), "--into", "new.toml", *extra)
    assert result.exit_code == 0, result.stderr
    assert "merged into new.toml" in result.stderr
    text = (folder / "new.toml").read_text(encoding="utf-8")
    assert text.startswith('[pool]\ndefaults = "current"\n')
    check = run("config", "check", "--config", "new.toml")
    assert check.exit_code == 0, check.stderr
    assert check.stderr == ""
    assert 'pool.defaults = "current"' in check.stdout


def test_slurm_conf_into_a_new_config_takes_slurms_defaults_not_legacys(
    folder: Path, run: Callable[..., Any]
) -> None:
    # A slurm.conf without PriorityWeightAge: Slurm's default is 0 (slurm.conf.5,
    # PriorityWeightAge: "The default value is 0."), where the legacy profile (Slurm 2.0's
    # documentation) gives 1; without PriorityFlags=NO_FAIR_TREE the tree is fair_tree.
    conf = "ClusterName=c\nPriorityType=priority/multifactor\nPriorityWeightFairshare=10000\n"
    result = run("import", "slurm-conf", "-", "--into", "new.toml", input=conf)
    assert result.exit_code == 0, result.stderr
    check = run("config", "check", "--config", "new.toml")
    assert check.exit_code == 0, check.stderr
    assert "priority.weights.age = 0\n" in check.stdout
    assert "priority.weights.fairshare = 10000\n" in check.stdout
    assert 'priority.fairshare = "fair_tree"\n' in check.stdout


def test_the_summary_counts_the_imports_keys_not_the_profile(
    folder: Path, run: Callable[..., Any]
) -> None:
    line = ["import", "slurm-conf", str(SLURM / "config" / "slurm.conf.fairtree")]
    first = run(*line, "--into", "new.toml")
    assert "(21 added, 0 replaced, 0 unchanged)" in first.stderr  # as printed, 21 keys
    again = run(*line, "--into", "new.toml")
    assert "(0 added, 0 replaced, 21 unchanged)" in again.stderr


def test_an_existing_config_gets_no_profile(folder: Path, run: Callable[..., Any]) -> None:
    (folder / "old.toml").write_text('[pool]\nname = "old"\n', encoding="utf-8")
    result = run(
        "import", "sacctmgr", str(SLURM / "ft2_idle" / "sacctmgr_qos.txt"), "--into", "old.toml"
    )
    assert result.exit_code == 0, result.stderr
    assert "defaults" not in (folder / "old.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("kind", "dump", "extra"), IMPORTS[-2:])
def test_a_dry_run_into_a_new_config_writes_nothing(
    folder: Path, run: Callable[..., Any], kind: str, dump: Path, extra: list[str]
) -> None:
    result = run("import", kind, str(dump), "--into", "new.toml", *extra, "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "would merge into new.toml" in result.stderr
    assert "(dry run, nothing written)" in result.stderr
    assert sorted(p.name for p in folder.iterdir()) == []


def test_condor_status_claims_go_to_the_state_the_new_config_reads(
    folder: Path, run: Callable[..., Any]
) -> None:
    result = run(
        "import", "condor-status", str(HTCONDOR / "condor_status.json"),
        "--into", "new.toml", "--state", "state.json", "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stderr.endswith("18 claim(s) into state.json\n")
    prio = run("userprio", "--config", "new.toml", "--state", "state.json", "--now", NOW, "--json")
    assert prio.exit_code == 0, prio.stderr


@pytest.mark.parametrize(("kind", "dump", "extra"), IMPORTS[-2:])
def test_a_missing_config_given_beside_a_new_into_is_still_refused(
    folder: Path, run: Callable[..., Any], kind: str, dump: Path, extra: list[str]
) -> None:
    result = run(
        "import", kind, str(dump), "--into", "new.toml", "--config", "missing.toml", *extra
    )
    assert result.exit_code == 2
    assert result.stderr == "fs: error: File 'missing.toml' does not exist.\n"
    assert sorted(p.name for p in folder.iterdir()) == []


@pytest.mark.parametrize(("kind", "dump", "extra"), IMPORTS)
def test_a_blank_config_is_made_a_new_one(
    folder: Path, run: Callable[..., Any], kind: str, dump: Path, extra: list[str]
) -> None:
    """``touch new.toml && fs import slurm-conf slurm.conf --into new.toml`` wrote no
    ``defaults``: the file read as ``legacy`` and ``fs config check`` warned so, where the
    same line without the ``touch`` makes a config of today's profile."""
    (folder / "new.toml").write_text(" \n", encoding="utf-8")
    result = run("import", kind, str(dump), "--into", "new.toml", *extra)
    assert result.exit_code == 0, result.stderr
    text = (folder / "new.toml").read_text(encoding="utf-8")
    assert text.startswith('[pool]\ndefaults = "current"\n')
    check = run("config", "check", "--config", "new.toml")
    assert (check.exit_code, check.stderr) == (0, "")
