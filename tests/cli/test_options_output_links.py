"""An output file (``--html``, ``--plot``) given as a symbolic link is written through it,
as the state and ``fs init`` are (cli/options.output_file, io/paths.check_output_file):
a link to a device or a pipe is refused as the device is, a loop of links is refused,
and a link to a file stays a link. The rename that writes the page replaced the link
itself: run as root, ``fs simulate --html /dev/stdout`` (stdout a pipe) replaced the
system's ``/dev/stdout`` link with a regular file holding the page. Here a link to a
named pipe stands for ``/dev/stdout`` (never the real one: a regression would replace it)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
REFUSED = "not a regular file (a device, a pipe or a folder), which fs would replace; name a file"


def _simulate(tmp_path: Path) -> list[str]:
    return [
        "simulate", "--workload", str(SAMPLE / "workload.json"), "--until", "3600",
        "--config", str(SAMPLE / "pool.toml"), "--now", "2026-11-21T12:00:00Z",
        "--state", str(tmp_path / "s.json"),
    ]  # fmt: skip


def _whatif(tmp_path: Path) -> list[str]:
    return ["whatif", "--set", "accountant.priority_halflife=3600", *_simulate(tmp_path)]


LINES = {
    "simulate-html": (_simulate, "--html", "HTML page"),
    "simulate-plot": (_simulate, "--plot", "plot"),
    "whatif-simulate-html": (_whatif, "--html", "HTML page"),
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
@pytest.mark.parametrize("line", sorted(LINES))
def test_an_output_link_to_a_pipe_is_refused_and_kept(
    tmp_path: Path, run: Callable[..., Any], line: str
) -> None:
    """``fs simulate ... --html LINK`` with LINK a link to a named pipe (as ``/dev/stdout``
    links to the pipe fs writes to): exit 2, one line, the link and the pipe kept (the
    link was replaced by a file holding the page, exit 0)."""
    words, option, what = LINES[line]
    os.mkfifo(tmp_path / "pipe")
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "pipe")
    result = run(*words(tmp_path), option, str(link))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: cannot write {what} {link}: {REFUSED}\n"
    assert link.is_symlink() and stat.S_ISFIFO(os.stat(link).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "pipe"]


@pytest.mark.parametrize("line", sorted(LINES))
def test_an_output_loop_of_links_is_refused_and_kept(
    tmp_path: Path, run: Callable[..., Any], line: str
) -> None:
    """``fs simulate ... --html LOOP`` (LOOP -> OTHER -> LOOP): the loop was replaced by the
    page in silence; now exit 2, one line, before the run, both links kept."""
    words, option, _ = LINES[line]
    loop, other = tmp_path / "loop", tmp_path / "other"
    loop.symlink_to(other)
    other.symlink_to(loop)
    result = run(*words(tmp_path), option, str(loop))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {loop} is a loop of symbolic links; remove it or name a file\n"
    )
    assert loop.is_symlink() and other.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop", "other"]


@pytest.mark.parametrize("line", sorted(LINES))
def test_an_output_link_to_a_file_is_written_through(
    tmp_path: Path, run: Callable[..., Any], line: str
) -> None:
    """``fs simulate ... --html LINK`` with LINK -> pages/page.html: the page goes to
    pages/page.html and LINK stays a link (it was replaced by a file, the old page kept)."""
    words, option, _ = LINES[line]
    if option == "--plot":
        pytest.importorskip("matplotlib")
    (tmp_path / "pages").mkdir()
    target = tmp_path / "pages" / "page"
    old = b"\x89PNG old\n" if option == "--plot" else b"<!DOCTYPE html>old\n"
    target.write_bytes(old)  # (a page or a plot there: fs replaces only its own kind)
    link = tmp_path / "out"
    link.symlink_to(target)
    result = run(*words(tmp_path), option, str(link))
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and link.resolve() == target
    start = b"\x89PNG" if option == "--plot" else b"<!DOCTYPE html>"
    assert target.read_bytes().startswith(start)


def test_a_sweep_page_through_a_link_to_a_pipe_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs sweep collect DIR --html LINK`` (LINK -> a named pipe): exit 2, one line."""
    os.mkfifo(tmp_path / "pipe")
    link = tmp_path / "page.html"
    link.symlink_to(tmp_path / "pipe")
    result = run("sweep", "collect", str(tmp_path / "runs"), "--html", str(link))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: cannot write HTML page {link}: {REFUSED}\n"
    assert link.is_symlink()


SIMULATE = ["simulate", "--workload", str(SAMPLE / "workload.json"), "--until", "3600",
            "--config", str(SAMPLE / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]  # fmt: skip


def test_simulate_html_and_plot_write_through_their_links(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "real.html").write_text("<!DOCTYPE html>old", encoding="utf-8")
    (pages / "real.png").write_bytes(b"\x89PNG old")  # (fs replaces only its own kinds)
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
    (tmp_path / "real.html").write_text("<!DOCTYPE html>old", encoding="utf-8")
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


def test_an_html_link_to_a_device_is_refused_naming_the_link(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    link = tmp_path / "null.html"
    link.symlink_to(os.devnull)
    result = run(*SIMULATE, "--html", str(link))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"fs: error: cannot write HTML page {link}: {REFUSED}\n")
    assert link.is_symlink()
