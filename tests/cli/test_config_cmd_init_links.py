"""``fs init LINK`` where LINK is a symbolic link: the rename that writes the starter
config replaced the link with a regular file (a link to nothing yet passed the "already
exists" check). Now the config is written through the link to the file it names, and a
link that leads nowhere writable is refused with one line, exit 2, the link kept."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import refused


def test_init_writes_through_a_link_to_nothing_yet(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs init pool.toml`` with ``pool.toml -> shared/pool.toml`` (not there yet)."""
    (tmp_path / "shared").mkdir()
    link = tmp_path / "pool.toml"
    link.symlink_to(tmp_path / "shared" / "pool.toml")
    result = run("init", str(link))
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and (tmp_path / "shared" / "pool.toml").is_file()
    real = tmp_path / "shared" / "pool.toml"
    assert result.stdout == (
        f"Wrote a starter pool config (current profile) to {link} (through the link to "
        f"{real}); check it with 'fs config check --config {link}'\n"
    )
    assert run("config", "check", "--config", str(link)).exit_code == 0


def test_init_refuses_a_link_to_a_file_and_force_writes_through_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs init LINK`` names the link when its file exists; ``--force`` replaces the
    file, never the link."""
    real = tmp_path / "real.toml"
    real.write_text("# mine\n")
    link = tmp_path / "pool.toml"
    link.symlink_to(real)
    refused(run("init", str(link)), f"{link} already exists; use --force to overwrite it")
    assert real.read_text() == "# mine\n"
    assert run("init", str(link), "--force", "--profile", "legacy").exit_code == 0
    assert link.is_symlink() and 'defaults = "legacy"' in real.read_text()


def test_init_refuses_a_link_into_a_missing_folder(tmp_path: Path, run: Callable[..., Any]) -> None:
    link = tmp_path / "pool.toml"
    link.symlink_to(tmp_path / "nowhere" / "pool.toml")
    refused(
        run("init", str(link)),
        f"{link} is a symbolic link to {tmp_path / 'nowhere' / 'pool.toml'}, whose folder "
        "does not exist; create the folder, or remove the link",
    )
    assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["pool.toml"]


def test_init_refuses_a_loop_of_links(tmp_path: Path, run: Callable[..., Any]) -> None:
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    first.symlink_to(second)
    second.symlink_to(first)
    refused(run("init", str(first)), f"{first} is a loop of symbolic links")
    assert first.is_symlink() and second.is_symlink()


def test_init_example_writes_through_a_link_to_nothing_yet(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs init --example DIR`` with ``DIR/pool.toml -> shared/pool.toml`` (not there yet):
    the sample config goes where the link points, and the link stays; it replaced the link
    with a regular file."""
    (tmp_path / "shared").mkdir()
    folder = tmp_path / "pool"
    folder.mkdir()
    link = folder / "pool.toml"
    link.symlink_to(tmp_path / "shared" / "pool.toml")
    result = run("init", "--example", str(folder))
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and (tmp_path / "shared" / "pool.toml").is_file()
    refused(run("init", "--example", str(folder)), "pool.toml already exists; use --force")


def test_init_force_through_a_link_keeps_the_configs_permissions(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs init --force pool.toml`` (a link to ``shared/pool.toml``, 0600) made the config
    0644, for everyone to read; a new config is 0644 still. The file it replaces keeps its
    permissions (and its owner: tests/io/test_atomic_owners.py)."""
    (tmp_path / "shared").mkdir()
    link = tmp_path / "pool.toml"
    real = tmp_path / "shared" / "pool.toml"
    link.symlink_to(real)
    assert run("init", str(link)).exit_code == 0
    assert real.stat().st_mode & 0o777 == 0o644
    real.chmod(0o600)
    result = run("init", "--force", str(link))
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and real.stat().st_mode & 0o777 == 0o600
