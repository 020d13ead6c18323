"""``fs init --example DIR`` killed partway (kill -9 at a random moment): the folder holds
nothing of the sample pool or the whole of it, and the same command run again writes it.
It wrote the files one by one, ``pool.toml`` first: a kill left a config beside half a
pool (or ``pool.toml`` and ``sample-state.json`` alone, or a hidden temporary file), and
the rerun said "pool.toml already exists; use --force"."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.cli.about import EXAMPLE_FILES

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"
WROTE = "Wrote the sample pool to {}: " + ", ".join(EXAMPLE_FILES) + "\n"


def _shipped(name: str) -> bytes:
    return (REPO / "sample_configs" / name).read_bytes()


def _whole(folder: Path, run: Callable[..., Any]) -> None:
    """Every sample file as shipped, and the pool reads."""
    for name in EXAMPLE_FILES:
        assert (folder / name).read_bytes() == _shipped(name), name
    result = run("userprio", "--config", str(folder / "pool.toml"), "--now", NOW)
    assert result.exit_code == 0, result.stderr


def test_a_folder_killed_before_its_rename_is_nothing_and_the_rerun_writes_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A new folder is written whole beside its place and renamed into it: a kill before
    the rename leaves no ``ex`` at all, only the hidden folder, which the rerun removes."""
    left = tmp_path / ".fs-example.ex.k1ll3d.tmp"
    left.mkdir()
    (left / "pool.toml").write_bytes(_shipped("pool.toml")[:100])
    folder = tmp_path / "ex"
    result = run("init", "--example", str(folder))
    assert (result.exit_code, result.stdout) == (0, WROTE.format(folder))
    _whole(folder, run)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ex"]


def test_a_folder_there_killed_among_its_renames_is_completed_by_the_rerun(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Into a folder that is there, every file is staged first, then renamed into place,
    ``pool.toml`` last: a kill among the renames leaves sample files as shipped beside no
    config (and staged ones). The rerun takes those as they are and puts the rest in
    place; the user's own file stays."""
    folder = tmp_path / "ex"
    folder.mkdir()
    (folder / "mine.txt").write_text("kept")
    for name in ("sample-state.json", "jobs.json"):
        (folder / name).write_bytes(_shipped(name))
    (folder / ".fs-example.history.csv.x1y2.tmp").write_bytes(b"owner,st")
    result = run("init", "--example", str(folder))
    assert (result.exit_code, result.stdout) == (0, WROTE.format(folder))
    _whole(folder, run)
    assert sorted(p.name for p in folder.iterdir()) == sorted([*EXAMPLE_FILES, "mine.txt"])


@pytest.mark.parametrize("pool", [False, True], ids=["no-config", "config-there"])
def test_a_file_not_as_shipped_is_still_refused(
    tmp_path: Path, run: Callable[..., Any], pool: bool
) -> None:
    """A sample file's name holding something else (the user's), or a whole pool there: one
    line, exit 2, nothing written; worded as fs init's own refusal ('fairshare.toml already
    exists; use --force to overwrite it'), which said more than '...; use --force'."""
    folder = tmp_path / "ex"
    folder.mkdir()
    (folder / "jobs.json").write_text("[]\n")
    if pool:
        (folder / "pool.toml").write_bytes(_shipped("pool.toml"))
    result = run("init", "--example", str(folder))
    name = "pool.toml" if pool else "jobs.json"
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: --example {folder}: {name} already exists; use --force to overwrite it\n"
    )
    assert sorted(p.name for p in folder.iterdir()) == sorted({"jobs.json", name})


@pytest.mark.parametrize("existing", [False, True], ids=["new-folder", "folder-there"])
def test_kill_9_at_any_moment_leaves_nothing_or_the_whole_pool(
    tmp_path: Path, run: Callable[..., Any], existing: bool
) -> None:
    """``fs init --example ex`` killed with SIGKILL 0 to 300 ms after it starts, 12 times:
    each time ``ex`` holds no sample file, or all of them as shipped, or (killed among the
    renames into a folder that was there, ``pool.toml`` renamed last) some of them as
    shipped and no ``pool.toml``; and the same command then ends in the whole pool (exit 0,
    or exit 2 "already exists" when it was whole)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    for k in range(12):
        base = tmp_path / str(k)
        folder = base / "ex"
        folder.mkdir(parents=True) if existing else base.mkdir()
        line = [sys.executable, "-m", "fairshare_cli", "init", "--example", str(folder)]
        proc = subprocess.Popen(line, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(k * 0.025)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        there = (
            {p.name for p in folder.iterdir()} & set(EXAMPLE_FILES) if folder.exists() else set()
        )
        whole = there == set(EXAMPLE_FILES)
        if whole:
            _whole(folder, run)
        elif there:  # (killed among the renames, in a folder that was there)
            assert existing and "pool.toml" not in there, there
            assert all((folder / name).read_bytes() == _shipped(name) for name in there)
        again = run("init", "--example", str(folder))
        if whole:
            assert (again.exit_code, again.stdout) == (2, "")
            assert "pool.toml already exists; use --force" in again.stderr
        else:
            assert (again.exit_code, again.stdout) == (0, WROTE.format(folder)), again.stderr
        _whole(folder, run)
        assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []
        assert [p.name for p in base.iterdir()] == ["ex"]


#: ``fs init --example ex`` with the signal sent from inside as the hidden file or folder
#: it stages in is made (mkstemp or mkdtemp returning).
_STOP_AS_STAGED = """
import os, signal, sys, tempfile
from fairshare_cli.cli.entry import main

def stopping(make):
    def made(*args, **kwargs):
        out = make(*args, **kwargs)
        os.kill(os.getpid(), getattr(signal, os.environ["SIGNAL"]))
        return out
    return made

tempfile.mkstemp = stopping(tempfile.mkstemp)
tempfile.mkdtemp = stopping(tempfile.mkdtemp)
sys.argv = ["fs", "init", "--example", "ex"]
main()
"""


@pytest.mark.parametrize("existing", [False, True], ids=["new-folder", "folder-there"])
@pytest.mark.parametrize(
    ("signal_name", "code"), [("SIGINT", 130), ("SIGTERM", 143)], ids=["ctrl-c", "sigterm"]
)
def test_a_stop_as_a_file_is_staged_leaves_no_hidden_file(
    tmp_path: Path, existing: bool, signal_name: str, code: int
) -> None:
    """``fs init --example ex``, Ctrl-C (or SIGTERM) just as its first hidden file (a folder
    there) or hidden folder (a new one) was made: 130 (143), and nothing left, where the
    hidden one stayed until the next ``--example`` (its name was not known yet to remove
    it)."""
    (tmp_path / "driver.py").write_text(_STOP_AS_STAGED, encoding="utf-8")
    if existing:
        (tmp_path / "ex").mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)]),
        "SIGNAL": signal_name,
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "driver"],
        env=env, cwd=tmp_path, capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == code, proc.stderr
    left = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    assert left == (["driver.py", "ex"] if existing else ["driver.py"])
