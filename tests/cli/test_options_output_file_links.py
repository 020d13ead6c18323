"""An ``--html`` or ``--plot`` file given as a symbolic link is written through it, as the
state, ``fs init`` and ``--into`` are: the file the link names gets the page or the plot
and the link stays a link (the page's rename replaced the link itself, leaving the file it
named as it was). A link that cannot be written through is refused before the simulation
(cli/options.output_file, io/atomic.check_output_file and through_link)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
SIMULATE = ["simulate", "--workload", str(SAMPLE / "workload.json"), "--until", "3600",
            "--config", str(SAMPLE / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]  # fmt: skip


def test_simulate_html_and_plot_write_through_their_links(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    for name in ("real.html", "real.png"):
        (pages / name).write_text("old", encoding="utf-8")
    (tmp_path / "link.html").symlink_to(Path("pages") / "real.html")
    (tmp_path / "link.png").symlink_to(Path("pages") / "real.png")
    result = run(
        *SIMULATE, "--html", str(tmp_path / "link.html"), "--plot", str(tmp_path / "link.png")
    )
    assert result.exit_code == 0, result.stderr
    assert os.readlink(tmp_path / "link.html") == os.path.join("pages", "real.html")
    assert os.readlink(tmp_path / "link.png") == os.path.join("pages", "real.png")
    assert (pages / "real.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert (pages / "real.png").read_bytes().startswith(b"\x89PNG")
    made = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("xdg"))
    assert made == ["link.html", "link.png", "pages"]
    assert sorted(p.name for p in pages.iterdir()) == ["real.html", "real.png"]


def test_whatif_simulate_html_writes_through_its_link(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    (tmp_path / "real.html").write_text("old", encoding="utf-8")
    (tmp_path / "link.html").symlink_to(tmp_path / "real.html")
    result = run(
        "whatif", "--set", "accountant.priority_halflife=3600", *SIMULATE,
        "--html", str(tmp_path / "link.html"),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "link.html").is_symlink()
    assert (tmp_path / "real.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_plot_link_into_a_missing_folder_is_refused_before_the_simulation(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    link = tmp_path / "link.png"
    link.symlink_to(tmp_path / "nowhere" / "x.png")
    result = run(*SIMULATE, "--plot", str(link))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {link} is a symbolic link to {tmp_path / 'nowhere' / 'x.png'}, whose "
        "folder does not exist; create the folder, or remove the link\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("xdg")) == [
        "link.png"
    ]


def test_an_html_link_to_a_device_is_refused_as_the_device_is(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    link = tmp_path / "null.html"
    link.symlink_to(os.devnull)
    result = run(*SIMULATE, "--html", str(link))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: cannot write HTML page {os.devnull}: not a regular file (a device, a "
        "pipe or a folder), which fs would replace; name a file\n"
    )
    assert link.is_symlink()
