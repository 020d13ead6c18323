"""``-`` as a file fs writes (``fs init -``, ``--into -``, ``--html -``, ``--plot -``) is
refused, exit 2, one line, nothing written. ``fs init -`` wrote a config file named ``-``
and said "check it with 'fs config check --config -'", which refuses ``-`` as standard
input (so does every ``--config``, ``./-`` too): a config no command could read.
``--into -`` merged into such a file, ``--html -`` and ``--plot -`` wrote one, where the
user looked for standard output (io/paths.refuse_dash)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
SLURM = Path(__file__).resolve().parents[1] / "fixtures" / "slurm-22.05"
SIMULATE = ("simulate", "--workload", str(SAMPLE / "workload.json"), "--until", "3600",
            "--config", str(SAMPLE / "pool.toml"), "--now", "2026-11-21T12:00:00Z")  # fmt: skip
INTO = "leave --into out to print the fragment"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        pytest.param(
            ("init", "-"),
            "fs init -: '-' names no file here (fs writes the config file to a file, never to "
            "standard output); give its path",
            id="init",
        ),
        pytest.param(
            ("init", "./-"),
            "fs init ./-: '-' names no file here (fs writes the config file to a file, never "
            "to standard output); give its path",
            id="init-dot",
        ),
        pytest.param(
            ("import", "slurm-conf", str(SLURM / "config" / "slurm.conf.classic"), "--into", "-"),
            "--into -: '-' names no file here (fs writes the config file to a file, never to "
            f"standard output); {INTO}",
            id="slurm-conf-into",
        ),
        pytest.param(
            ("import", "sshare", str(SLURM / "cl1_idle" / "sshare_a_l_P.txt"), "--into", "-"),
            "--into -: '-' names no file here (fs writes the config file to a file, never to "
            f"standard output); {INTO}",
            id="sshare-into",
        ),
        pytest.param(
            (*SIMULATE, "--html", "-"),
            "--html -: '-' names no file here (fs writes the HTML page to a file, never to "
            "standard output); give its path",
            id="simulate-html",
        ),
        pytest.param(
            (*SIMULATE, "--plot", "-"),
            "--plot -: '-' names no file here (fs writes the plot to a file, never to "
            "standard output); give its path",
            id="simulate-plot",
        ),
    ],
)
def test_dash_as_a_file_fs_writes_is_refused(
    run: Callable[..., Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    line: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"fs: error: {line}\n"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("xdg")) == []


def test_an_import_without_into_prints_the_fragment(
    run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``--into -`` was looking for."""
    monkeypatch.chdir(tmp_path)
    result = run("import", "slurm-conf", str(SLURM / "config" / "slurm.conf.classic"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith('[pool]\nname = "oracle"\n')
