"""An option that names a file fs writes (``--html``, ``--plot``, ``--into``) is refused
before any work when its folder is missing: exit 2, one line naming the folder, and
nothing made (cli/options.output_file, io/paths.check_output_file)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
SLURM = Path(__file__).resolve().parents[1] / "fixtures" / "slurm-22.05" / "ft1_running"
ON_SAMPLE = ["--config", str(SAMPLE / "pool.toml"), "--now", "2026-11-21T12:00:00Z", "--state",
             "{state}"]  # fmt: skip
SIMULATE = ["--workload", str(SAMPLE / "workload.json"), "--until", "3600", *ON_SAMPLE]


@pytest.mark.parametrize(
    ("args", "option"),
    [
        pytest.param(["simulate", *SIMULATE, "--html", "{new}/x.html"], "--html", id="simulate"),
        pytest.param(
            [
                "whatif",
                "--set",
                "accountant.priority_halflife=3600",
                "simulate",
                *SIMULATE,
                "--html",
                "{new}/x.html",
            ],
            "--html",
            id="whatif-simulate-html",
        ),
        pytest.param(
            [
                "whatif",
                "--set",
                "accountant.priority_halflife=3600",
                "simulate",
                *SIMULATE,
                "--plot",
                "{new}/x.png",
            ],
            "--plot",
            id="whatif-simulate-plot",
        ),
        pytest.param(
            ["sweep", "run", "{spec}", "--out", "{tmp}/runs", "--html", "{new}/x.html"],
            "--html",
            id="sweep-run",
        ),
        pytest.param(
            ["sweep", "collect", "{tmp}", "--html", "{new}/x.html"], "--html", id="collect"
        ),
        pytest.param(
            [
                "import",
                "sshare",
                str(SLURM / "sshare_a_l_P.txt"),
                "--into",
                "{new}/pool.toml",
                *ON_SAMPLE,
            ],
            "--into",
            id="import-sshare",
        ),
        pytest.param(
            [
                "import",
                "sacctmgr",
                str(SLURM / "sacctmgr_assoc_tree.txt"),
                "--into",
                "{new}/pool.toml",
                "--dry-run",
            ],
            "--into",
            id="import-sacctmgr",
        ),
    ],
)
def test_an_output_file_in_a_missing_folder_is_refused_and_nothing_made(
    tmp_path: Path, run: Callable[..., Any], args: list[str], option: str
) -> None:
    """``fs whatif ... simulate --html DIR/x.html`` made the missing DIR (``--plot`` refused
    one): every output-file option now refuses it, naming it, before the work."""
    spec = tmp_path / "sweep.toml"
    for name in ("sweep.toml", "pool.toml", "workload.json", "history.csv"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    state = tmp_path / "s.json"
    shutil.copy(SAMPLE / "sample-state.json", state)
    new = tmp_path / "new" / "deeper"
    words = [w.format(new=new, tmp=tmp_path, spec=spec, state=state) for w in args]
    before = sorted(p.name for p in tmp_path.iterdir())
    result = run(*words)
    path = next(w for w in words if w.startswith(str(new)))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {option} {path}: folder {new} does not exist\n"
    assert not (tmp_path / "new").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_an_html_page_on_a_device_is_refused_before_the_run(
    run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs simulate --html /dev/null`` ran the whole simulation, then refused the page."""
    import fairshare_cli.cli.simulate as cli_simulate

    def no_run(*_: object, **__: object) -> None:
        raise AssertionError("the simulation ran")

    monkeypatch.setattr(cli_simulate, "simulation", no_run)
    here = [w.format(state=tmp_path / "s.json") for w in SIMULATE]
    result = run("simulate", *here, "--html", "/dev/null")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("fs: error: cannot write HTML page /dev/null: not a regular")


def test_an_html_page_in_a_folder_that_exists_is_written(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """The check refuses no page fs can write (the folder of a bare name is the current)."""
    page = tmp_path / "x.html"
    here = [w.format(state=tmp_path / "s.json") for w in SIMULATE]
    result = run("simulate", *here, "--html", str(page))
    assert result.exit_code == 0, result.stderr
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_an_output_file_under_a_file_names_it_a_file(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs sweep run SPEC --out DIR --html FILE/x.html``, where FILE is a file: it said
    "folder FILE does not exist", though FILE is there; now it says it is not a folder."""
    for name in ("sweep.toml", "pool.toml", "workload.json", "history.csv"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    blocker = tmp_path / "afile"
    blocker.write_text("x\n", encoding="utf-8")
    html = f"{blocker}/x.html"
    result = run(
        "sweep",
        "run",
        str(tmp_path / "sweep.toml"),
        "--out",
        str(tmp_path / "runs"),
        "--html",
        html,
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: --html {html}: {blocker} is not a folder\n"
    assert not (tmp_path / "runs").exists()


def test_an_html_page_named_too_long_is_refused_before_the_run(
    run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs simulate ... --html xxx...`` (300 characters, past the file system's 255): the
    simulation ran, then the rename failed (exit 1, the name echoed whole); now one short
    line, exit 2, before the run, as ``fs init xxx...`` says it."""
    import fairshare_cli.cli.simulate as cli_simulate

    def no_run(*_: object, **__: object) -> None:
        raise AssertionError("the simulation ran")

    monkeypatch.setattr(cli_simulate, "simulation", no_run)
    monkeypatch.chdir(tmp_path)
    here = [w.format(state=tmp_path / "s.json") for w in SIMULATE]
    result = run("simulate", *here, "--html", "x" * 300)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {'x' * 80}...: File name too long; give a shorter path\n"
    assert list(tmp_path.iterdir()) == []


def _odd_paths(tmp_path: Path) -> dict[str, str]:
    """A named pipe, a loop of symbolic links, a link to nothing and a file in ``tmp_path``."""
    import os

    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "loop").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "afile").write_text("x\n", encoding="utf-8")
    return {name: str(tmp_path / name) for name in ("fifo", "loop", "dangling", "afile")}


@pytest.mark.parametrize(
    ("line", "path", "said"),
    [
        pytest.param(["init", "--example", "{p}"], "fifo", "--example {p}: is not a folder; "
                     "give a folder", id="example-fifo"),
        pytest.param(["init", "--example", "{p}"], "loop", "cannot write sample file "
                     "{p}/pool.toml: {p} is not a folder", id="example-loop"),
        pytest.param(["init", "--example", "{p}"], "dangling", "cannot write sample file "
                     "{p}/pool.toml: {p} is not a folder", id="example-dangling"),
        pytest.param(["init", "--example", "{p}/sub"], "fifo", "cannot write sample file "
                     "{p}/sub/pool.toml: {p} is not a folder", id="example-below-fifo"),
        pytest.param(["init", "{p}/x.toml"], "fifo", "cannot write config file {p}/x.toml: "
                     "{p} is not a folder", id="init-below-fifo"),
        pytest.param(["sweep", "{spec}", "--out", "{p}"], "fifo", "cannot write sweep "
                     "manifest {p}/sweep.json: {p} is not a folder", id="out-fifo"),
        pytest.param(["sweep", "{spec}", "--out", "{p}"], "loop", "cannot write sweep "
                     "manifest {p}/sweep.json: {p} is not a folder", id="out-loop"),
        pytest.param(["sweep", "{spec}", "--out", "{p}/sub"], "afile", "cannot write sweep "
                     "manifest {p}/sub/sweep.json: {p} is not a folder", id="out-below-file"),
        pytest.param(["simulate", *SIMULATE, "--html", "{p}/x.html"], "loop",
                     "--html {p}/x.html: {p} is not a folder", id="html-below-loop"),
    ],
)  # fmt: skip
def test_an_output_path_through_what_is_no_folder_is_bad_input(
    tmp_path: Path, run: Callable[..., Any], line: list[str], path: str, said: str
) -> None:
    """``fs init --example FIFO``, ``--example LOOP``, ``fs sweep SPEC --out FIFO`` and the
    like: a path through a named pipe, a loop of links, a link to nothing or a file is a
    bad path, exit 2 as a regular bad path is (they ended with exit 1, a failure to write;
    ``--example FIFO`` said it was a file; ``--html LOOP/x.html`` said folder LOOP does not
    exist); one line, nothing written."""
    paths = _odd_paths(tmp_path)
    for name in ("sweep.toml", "pool.toml", "workload.json", "history.csv"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    state = tmp_path / "state.json"
    shutil.copy(SAMPLE / "sample-state.json", state)
    before = sorted(p.name for p in tmp_path.iterdir())
    words = {"p": paths[path], "spec": str(tmp_path / "sweep.toml"), "state": str(state)}
    result = run(*[w.format(**words) for w in line])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {said.format(**words)}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize(
    ("option", "name", "starts"),
    [
        pytest.param("--html", "pool.toml", "# A realistic sample", id="html-over-the-config"),
        pytest.param("--html", "state.json", "{", id="html-over-the-state"),
        pytest.param("--plot", "workload.json", "[", id="plot-over-the-workload"),
    ],
)
def test_a_page_or_plot_over_another_file_is_refused(
    tmp_path: Path, run: Callable[..., Any], option: str, name: str, starts: str
) -> None:
    """``fs simulate --config pool.toml ... --html pool.toml`` replaced the config it read
    with the page (the next command: "config file pool.toml is not valid TOML"); a file
    there that is no HTML page (no PNG for ``--plot``) is refused before the run, exit 2,
    and left as it was. A page or a plot fs wrote is replaced, as before."""
    pytest.importorskip("matplotlib") if option == "--plot" else None
    for sample in ("pool.toml", "workload.json"):
        shutil.copy(SAMPLE / sample, tmp_path / sample)
    shutil.copy(SAMPLE / "sample-state.json", tmp_path / "state.json")
    target = tmp_path / name
    before = target.read_bytes()
    words = {"state": str(tmp_path / "state.json")}
    line = [w.format(**words) for w in SIMULATE]
    line[line.index("--workload") + 1] = str(tmp_path / "workload.json")
    line[line.index("--config") + 1] = str(tmp_path / "pool.toml")
    result = run("simulate", *line, option, str(target))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {option} {target}: the file there is no "
        f"{'HTML page' if option == '--html' else 'plot'} (it starts '{starts}'); name a new "
        "file, or remove that one first\n"
    )
    assert target.read_bytes() == before
    page = tmp_path / "page.html"
    for _ in range(2):  # (a page fs wrote is replaced)
        again = run("simulate", *line, "--html", str(page))
        assert again.exit_code == 0, again.stderr
