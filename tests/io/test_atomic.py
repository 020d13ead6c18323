"""Atomic replacement refuses a path that is no regular file: the rename would replace it.

Run as root, ``fs simulate --html /dev/null`` (or ``fs init /dev/null --force``, an import's
``--into /dev/null``) replaced the system's ``/dev/null`` with the page. A FIFO stands in for
the device here: the rename replaced it alike, and any user may make one.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.errors import InputError
from fairshare_cli.io.atomic import atomic_write_text

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_configs"
NOW = "2026-11-21T12:00:00Z"
REFUSED = "not a regular file (a device, a pipe or a folder), which fs would replace; name a file"


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "null"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(["init", "{fifo}", "--force"], id="init-force"),
        pytest.param(
            [
                "simulate",
                "--workload",
                str(SAMPLE / "workload.json"),
                "--until",
                "1:00:00",
                "--cycle",
                "1800",
                "--config",
                str(SAMPLE / "pool.toml"),
                "--now",
                NOW,
                "--html",
                "{fifo}",
            ],
            id="simulate-html",
        ),
        pytest.param(
            [
                "import",
                "slurm-conf",
                str(REPO / "tests/fixtures/slurm-22.05/config/slurm.conf.fairtree"),
                "--into",
                "{fifo}",
            ],
            id="import-into",
        ),
    ],
)
def test_a_device_or_pipe_is_refused_and_kept(
    line: list[str], fifo: Path, run: Callable[..., Any]
) -> None:
    result = run(*(arg.replace("{fifo}", str(fifo)) for arg in line))
    assert result.exit_code == 2
    assert result.stderr.endswith(f"{fifo}: {REFUSED}\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_regular_file_and_a_symbolic_link_are_replaced(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("old", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "elsewhere.txt")
    for path in (plain, link, tmp_path / "new.txt"):
        atomic_write_text(path, "new", "test file")
        assert path.read_text(encoding="utf-8") == "new" and not path.is_symlink()


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a regular file"):
        atomic_write_text(tmp_path, "x", "test file")


def test_a_failed_write_leaves_no_folder_it_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs sweep sweep.toml --out DIR`` on a full disk left an empty ``DIR/runs/`` (made
    for a file whose write then failed): the folders a failed write made are removed again,
    the ones that were there kept."""
    import errno

    from fairshare_cli.errors import RuntimeFailure
    from fairshare_cli.io import atomic

    def full(fd: int, _text: Any) -> None:
        os.close(fd)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "_write", full)
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "runs" / "a" / "run.json"
    with pytest.raises(RuntimeFailure, match="No space left on device"):
        atomic_write_text(target, "{}", "run file")
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    assert list((tmp_path / "out").iterdir()) == []
    monkeypatch.undo()
    atomic_write_text(target, "{}", "run file")
    assert target.read_text(encoding="utf-8") == "{}"


@pytest.mark.parametrize(
    ("kind", "line"),
    [
        *[pytest.param(k, ["init", "{blocker}/pool.toml"], id=f"init-{k}")
          for k in ("file", "loop", "dangling")],
        *[pytest.param(k, ["init", "--example", "{blocker}"], id=f"init-example-{k}")
          for k in ("loop", "dangling")],  # (a file: "is a file; give a folder", exit 2)
    ],
)  # fmt: skip
def test_a_path_below_what_is_no_folder_names_it(
    tmp_path: Path, run: Callable[..., Any], kind: str, line: list[str]
) -> None:
    """A file to write below a file, a loop of links or a link to nothing said 'File
    exists' (mkdir's word for the link): it names what is no folder, a bad path (exit 2,
    as a file or a pipe for the file itself is; it was 1, a failure to write)."""
    blocker = tmp_path / "blocker"
    if kind == "file":
        blocker.write_text("x")
    elif kind == "loop":
        blocker.symlink_to(tmp_path / "other")
        (tmp_path / "other").symlink_to(blocker)
    else:
        blocker.symlink_to(tmp_path / "nowhere" / "x")
    result = run(*[w.format(blocker=blocker) for w in line])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("fs: error: cannot write ")
    assert result.stderr.endswith(f": {blocker} is not a folder\n")
