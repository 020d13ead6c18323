"""The pool a state was written for: each write stores the config's ``[pool] name``, and a
config naming another pool reads the state with one warning (the state's records were
charged under the other pool's config). An unnamed config neither compares nor stores."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import CONFIG, NOW, STATE, refused

WARNING = (
    "fs: warning: state file {state} was written for pool 'demo', and the config {config} "
    "names pool 'other' ([pool] name): its records are read under a config they were not "
    "charged under (a write stores the config's name)\n"
)


def _pool(folder: Path, name: str | None) -> Path:
    path = folder / f"{name or 'unnamed'}.toml"
    named = CONFIG.replace("[pool]\n", f'[pool]\nname = "{name}"\n') if name else CONFIG
    path.write_text(named)
    return path


def test_a_write_stores_the_pool_and_another_pool_reads_it_with_one_warning(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs setfactor alice 2 --create`` under pool demo, then ``fs userprio`` and ``fs
    whatif`` (two loads, one warning) under pool other; ``fs setfactor`` under other
    stores its name, and the warning is not given again."""
    demo, other = _pool(tmp_path, "demo"), _pool(tmp_path, "other")
    state = tmp_path / "state.json"
    state.write_text(json.dumps(STATE))
    at = ["--state", str(state), "--now", NOW]
    made = run("setfactor", "alice", "2", "--create", "--config", str(demo), *at)
    assert made.exit_code == 0, made.stderr
    assert json.loads(state.read_text())["pool"] == {"name": "demo"}
    warning = WARNING.format(state=state, config=other)
    view = run("userprio", "--config", str(other), *at)
    assert view.exit_code == 0 and view.stderr == warning
    whatif = ["whatif", "--set", "accountant.priority_halflife=3600", "userprio"]
    compared = run(*whatif, "--config", str(other), *at)
    assert compared.exit_code == 0 and compared.stderr.count("fs: warning: state file") == 1
    moved = run("setfactor", "alice", "3", "--config", str(other), *at)
    assert moved.exit_code == 0 and moved.stderr == warning
    assert json.loads(state.read_text())["pool"] == {"name": "other"}
    again = run("userprio", "--config", str(other), *at)
    assert again.exit_code == 0 and again.stderr == ""


def test_an_unnamed_pool_stores_no_name_and_keeps_one(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The hostile-input pool names no pool: its writes leave no ``pool`` section, and a
    state of pool demo written by it keeps that name, without a warning."""
    unnamed = _pool(tmp_path, None)
    state = tmp_path / "state.json"
    state.write_text(json.dumps(STATE))
    at = ["--config", str(unnamed), "--state", str(state), "--now", NOW]
    assert run("rm", "1", *at).exit_code == 0
    assert "pool" not in json.loads(state.read_text())
    state.write_text(json.dumps({**STATE, "pool": {"name": "demo"}}))
    result = run("rm", "1", *at)
    assert result.exit_code == 0 and "warning" not in result.stderr
    assert json.loads(state.read_text())["pool"] == {"name": "demo"}


def test_a_malformed_pool_section_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``"pool": {"name": 5}``: a view and an edit refuse it, the file as it was."""
    other = _pool(tmp_path, "other")
    state = tmp_path / "state.json"
    text = json.dumps({**STATE, "pool": {"name": 5}})
    state.write_text(text)
    for line in (["userprio"], ["rm", "1"]):
        result = run(*line, "--config", str(other), "--state", str(state), "--now", NOW)
        refused(result, f'state file {state}: pool: expected {{"name": TEXT}}')
        assert state.read_text() == text


def test_the_sample_state_is_the_sample_pools(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``FAIRSHARE_STATE=sample_configs/sample-state.json fs userprio --config mine.toml``
    (a config of ``fs init``, pool ``mypool``) read the shipped sample pool's records
    without a word: the sample state did not name its pool."""
    from tests.conftest import REPO

    mine = tmp_path / "mine.toml"
    assert run("init", str(mine)).exit_code == 0
    sample = REPO / "sample_configs" / "sample-state.json"
    view = run("userprio", "--config", str(mine), "--now", NOW,
               env={"FAIRSHARE_STATE": str(sample)})  # fmt: skip
    assert view.exit_code == 0, view.stderr
    assert view.stderr == WARNING.format(state=sample, config=mine).replace("other", "mypool")
