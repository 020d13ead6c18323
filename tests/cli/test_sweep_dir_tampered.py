"""A sweep folder whose files fs did not write as they are (``fs sweep collect DIR``):
the manifest is refused in one line, a point's result that is not one counts as not done
(io/sweep_dir.py). Each crashed the table or the page (ValueError, KeyError,
OverflowError tracebacks)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import CONFIG, WORKLOAD

SPEC = """\
config = "pool.toml"
workload = "work.json"
now = "2026-11-20T00:00:00Z"
until = "0:30:00"
cycle = "600"

[[axis]]
key = "accountant.priority_halflife"
values = [600, 3600]
"""


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-point sweep (and the base) run once: its folder."""
    from click.testing import CliRunner

    from fairshare_cli.cli.main import cli

    folder = tmp_path_factory.mktemp("sweep")
    (folder / "pool.toml").write_text(CONFIG, encoding="utf-8")
    (folder / "work.json").write_text(json.dumps(WORKLOAD), encoding="utf-8")
    (folder / "sweep.toml").write_text(SPEC, encoding="utf-8")
    line = ["sweep", str(folder / "sweep.toml"), "--out", str(folder / "runs"), "--jobs", "1"]
    with pytest.MonkeyPatch.context() as patch:  # (module-wide: tests/conftest.py's per test)
        for var in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            patch.setenv(var, str(folder / var.lower()))
        result = CliRunner().invoke(cli, line)
    assert result.exit_code == 0, result.stderr
    return folder / "runs"


def _copy(swept: Path, tmp_path: Path) -> Path:
    import shutil

    return Path(shutil.copytree(swept, tmp_path / "runs"))


@pytest.mark.parametrize(
    ("change", "says"),
    [
        pytest.param({"base_index": -1}, '"base_index": expected the index of a point, got -1',
                     id="base-index"),
        pytest.param({"points": [{"accountant.priority_halflife": -600}, {}, {}]},
                     '"points": a point sets a key or a value no axis has', id="point-value"),
        pytest.param({"points": [{"nope": 1}, {}, {}]},
                     '"points": a point sets a key or a value no axis has', id="point-key"),
        pytest.param({"points": "x"}, '"points": expected a list of objects', id="points"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("html", [False, True])
def test_a_manifest_fs_did_not_write_is_refused(
    swept: Path,
    tmp_path: Path,
    run: Callable[..., Any],
    change: dict[str, Any],
    says: str,
    html: bool,
) -> None:
    folder = _copy(swept, tmp_path)
    manifest = json.loads((folder / "sweep.json").read_text(encoding="utf-8"))
    (folder / "sweep.json").write_text(json.dumps({**manifest, **change}), encoding="utf-8")
    page = ["--html", str(tmp_path / "x.html")] * html
    result = run("sweep", "collect", str(folder), *page)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {folder / 'sweep.json'}: not an fs sweep manifest ({says})\n"
    )
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"share_error": float("nan")}, id="nan-metric"),
        pytest.param({"jobs_finished": 2.5e3}, id="float-count"),
        pytest.param({"wait_mean": 10**400}, id="huge-metric"),
        pytest.param({"point": {"accountant.priority_halflife": 3600}}, id="another-point"),
        pytest.param({"series": {"time": [1.0], "slots": {"a": [1.0, 2.0]}}}, id="series"),
    ],
)
def test_a_point_result_fs_did_not_write_is_not_done(
    swept: Path, tmp_path: Path, run: Callable[..., Any], change: dict[str, Any]
) -> None:
    folder = _copy(swept, tmp_path)
    path = folder / "points" / "000000.json"
    result_0 = json.loads(path.read_text(encoding="utf-8"))
    text = json.dumps({**result_0, **change})
    path.write_text(text, encoding="utf-8")
    result = run("sweep", "collect", str(folder), "--json", "--html", str(tmp_path / "x.html"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[0] == "1 of 3 points have no result yet"
    assert [p["index"] for p in json.loads(result.stdout)] != [] and all(
        p["index"] != 0 for p in json.loads(result.stdout)
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_named_pipe_in_a_sweep_folder_does_not_block(
    swept: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs sweep collect DIR`` with a point's result (or the manifest) replaced by a named
    pipe waited for ever for a writer. A point's pipe is a point not done; a manifest's is
    refused in one line, exit 2; neither is opened."""
    folder = _copy(swept, tmp_path)
    point = folder / "points" / "000000.json"
    point.unlink()
    os.mkfifo(point)
    result = run("sweep", "collect", str(folder), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[0] == "1 of 3 points have no result yet"
    manifest = folder / "sweep.json"
    manifest.unlink()
    os.mkfifo(manifest)
    result = run("sweep", "collect", str(folder))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: sweep manifest {manifest} is not a regular file (a pipe, a device or a "
        "folder); move it aside\n"
    )


@pytest.mark.parametrize(
    ("change", "says"),
    [
        pytest.param({"until": 0}, '"spec.until": expected a duration string, got 0',
                     id="until-number"),
        pytest.param({"now": "x"}, "\"spec.now\": expected a time in seconds, got 'x'",
                     id="now-text"),
        pytest.param({"cycle": True}, '"spec.cycle": expected a duration string or null, '
                     "got true", id="cycle-bool"),
        pytest.param({"backfill": 1}, '"spec.backfill": expected true or false, got 1',
                     id="backfill-number"),
        pytest.param({"scheduler": "pbs"}, "\"spec.scheduler\": expected htcondor or slurm, "
                     "got 'pbs'", id="scheduler"),
        pytest.param({"config": None}, '"spec.config": expected an absolute path, got null',
                     id="config-null"),
        pytest.param({"state": "x.json"},
                     "\"spec.state\": expected an absolute path, got 'x.json'",
                     id="state-relative"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("command", ["run-point", "collect"])
def test_a_manifest_spec_fs_did_not_write_is_refused(
    swept: Path,
    tmp_path: Path,
    run: Callable[..., Any],
    change: dict[str, Any],
    says: str,
    command: str,
) -> None:
    """``fs sweep run-point DIR 0`` of a manifest whose spec was edited by hand ran the point
    on what it found (``until = 0``: an AttributeError traceback); it is refused in one line,
    exit 2, and nothing in the folder changes."""
    folder = _copy(swept, tmp_path)
    manifest = json.loads((folder / "sweep.json").read_text(encoding="utf-8"))
    manifest["spec"].update(change)
    (folder / "sweep.json").write_text(json.dumps(manifest), encoding="utf-8")
    (folder / "points" / "000000.json").unlink()
    result = run("sweep", command, str(folder), *["0"] * (command == "run-point"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {folder / 'sweep.json'}: not an fs sweep manifest ({says})\n"
    )
    assert sorted(p.name for p in (folder / "points").iterdir()) == [
        "000001.json",
        "000002.json",
    ]


def test_a_point_value_of_another_kind_is_no_axis_value(
    swept: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A point's value is an axis's value of the same JSON kind: ``600.0`` is not the axis's
    ``600`` (``==`` took it, and ``true`` for ``1``)."""
    folder = _copy(swept, tmp_path)
    manifest = json.loads((folder / "sweep.json").read_text(encoding="utf-8"))
    manifest["points"][0] = {"accountant.priority_halflife": 600.0}
    (folder / "sweep.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = run("sweep", "collect", str(folder))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith('("points": a point sets a key or a value no axis has)\n')


@pytest.mark.parametrize("index", [True, 1.0])
def test_a_result_whose_index_is_not_a_whole_number_is_not_done(
    swept: Path, tmp_path: Path, run: Callable[..., Any], index: Any
) -> None:
    """Point 1's result marked ``"index": true`` (or ``1.0``) counted as done: ``true == 1``."""
    folder = _copy(swept, tmp_path)
    path = folder / "points" / "000001.json"
    found = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**found, "index": index}), encoding="utf-8")
    result = run("sweep", "collect", str(folder), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[0] == "1 of 3 points have no result yet"
    assert 1 not in [p["index"] for p in json.loads(result.stdout)]


@pytest.mark.parametrize("code", [True, 2.0])
def test_a_failure_record_whose_exit_code_is_not_a_whole_number_is_not_one(
    swept: Path, tmp_path: Path, run: Callable[..., Any], code: Any
) -> None:
    """A point's ``.error`` record with ``"exit_code": true`` was told as the point's
    failure (``true in (1, 2)``); it is none of fs's, and the point is only not done."""
    folder = _copy(swept, tmp_path)
    manifest = json.loads((folder / "sweep.json").read_text(encoding="utf-8"))
    (folder / "points" / "000001.json").unlink()
    record = {"index": 1, "point": manifest["points"][1], "error": "boom", "exit_code": code}
    (folder / "points" / "000001.error").write_text(json.dumps(record), encoding="utf-8")
    result = run("sweep", "collect", str(folder), "--json")
    assert result.exit_code == 0, result.stderr
    assert "boom" not in result.stderr
    assert result.stderr.splitlines()[0] == "1 of 3 points have no result yet"


def test_a_manifest_of_many_points_is_checked_at_once(
    swept: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Each point's value was looked for along its whole axis: 20,000 points of one axis
    took some 40 s before ``fs sweep collect DIR`` printed anything (10,000, written by
    ``fs sweep run SPEC --engine slurm``, 10 s of its 28); it is one set look-up a point."""
    folder = _copy(swept, tmp_path)
    manifest = json.loads((folder / "sweep.json").read_text(encoding="utf-8"))
    key = manifest["spec"]["axes"][0]["key"]
    manifest["spec"]["axes"][0]["values"] = list(range(60, 20060))
    manifest["points"] = [{key: v} for v in range(60, 20060)] + [{}]
    manifest["base_index"] = 20000
    (folder / "sweep.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = run("sweep", "collect", str(folder), "--json")
    assert (result.exit_code, result.stdout) == (0, "[]\n")
    assert result.stderr == "20001 of 20001 points have no result yet\n"
