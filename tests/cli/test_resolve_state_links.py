"""A state or config reached through a symbolic link (``resolve_state_path``,
``io.atomic.through_link``): fs reads and writes the file the link names, and the link
stays a link. Every write replaced the link with a regular file, leaving the shared file
behind unchanged, and two links to one state took two locks (one beside each link)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, refused, write_pool
from tests.conftest import FIXTURES


def _linked_pool(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The pool in ``tmp_path/shared``; ``tmp_path/state.json`` links to its state.
    (config, link, the state file)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    pool = write_pool(shared)
    link = tmp_path / "state.json"
    link.symlink_to(pool["state"])
    return pool["config"], link, pool["state"]


def test_an_edit_writes_the_state_through_its_link(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs setfactor alice@example.org 5 --state LINK``: the shared state gets the factor,
    the link stays, and the lock is the shared state's own (``state.json.lock`` beside it)."""
    config, link, real = _linked_pool(tmp_path)
    line = ["setfactor", "alice@example.org", "5", "--create", "--config", str(config)]
    result = run(*line, "--state", str(link), "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and link.resolve() == real
    assert (
        json.loads(real.read_text())["accountant"]["records"]["alice@example.org"][
            "priority_factor"
        ]
        == 5.0
    )
    assert (real.parent / "state.json.lock").exists()
    assert not (tmp_path / "state.json.lock").exists()
    shown = run(
        "userprio", "--allusers", "--config", str(config), "--state", str(real), "--now", NOW
    )
    assert "alice@example.org" in shown.stdout and "5.00" in shown.stdout


def test_a_link_to_a_state_not_made_yet_is_written_through(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs setfactor ... --state LINK`` with LINK naming a file not there yet: the file is
    made where the link points."""
    shared = tmp_path / "shared"
    shared.mkdir()
    pool = write_pool(shared)
    pool["state"].unlink()
    link = tmp_path / "state.json"
    link.symlink_to(pool["state"])
    line = ["setfactor", "alice@example.org", "5", "--create", "--config", str(pool["config"])]
    result = run(*line, "--state", str(link), "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and pool["state"].is_file()


def test_a_state_link_into_a_missing_folder_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    pool = write_pool(tmp_path)
    link = tmp_path / "state-link.json"
    target = tmp_path / "nowhere" / "state.json"
    link.symlink_to(target)
    line = ["setfactor", "alice@example.org", "5", "--create", "--config", str(pool["config"])]
    refused(
        run(*line, "--state", str(link), "--now", NOW),
        f"{link} is a symbolic link to {target}, whose folder does not exist; create the "
        "folder, or remove the link",
    )
    assert link.is_symlink() and not target.parent.exists()


def test_an_import_into_a_linked_config_merges_into_its_file(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import sshare DUMP --into LINK``: the config the link names gets the accounts;
    the link stays a link."""
    shared = tmp_path / "shared"
    shared.mkdir()
    real = shared / "pool.toml"
    real.write_text('[pool]\nuid_domain = "example.org"\n', encoding="utf-8")
    link = tmp_path / "pool.toml"
    link.symlink_to(real)
    dump = FIXTURES / "slurm-22.05" / "ft1_running" / "sshare_a_l_P.txt"
    line = ["import", "sshare", str(dump), "--into", str(link), "--config", str(link)]
    result = run(*line, "--state", str(tmp_path / "state.json"), "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and "[accounts." in real.read_text(encoding="utf-8")


def test_a_config_link_s_relative_state_is_beside_the_file_it_names(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs submit --config LINK`` where LINK names a shared config whose ``[pool] state``
    is relative: the state beside the shared config is the one read and written (it was
    made beside the link, a new, empty state each user's link got its own of)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    pool = write_pool(shared, config='[pool]\nstate = "pool-state.json"\n' + _machines())
    home = tmp_path / "home"
    home.mkdir()
    link = home / "fairshare.toml"
    link.symlink_to(pool["config"])
    result = run("submit", "--owner", "alice", "--config", str(link), "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert (shared / "pool-state.json").is_file()
    assert sorted(p.name for p in home.iterdir()) == ["fairshare.toml"]


def _machines() -> str:
    return '[[machines]]\nname = "exec"\ncount = 1\nslots = 2\n'
