"""A folder named as an input file is refused in one wording, click's for the file options
it checks itself (``fs simulate --workload``: ``File 'd' is a directory.``), exit 2, as a
missing file is (io.inputs.is_a_folder beside no_such_file). Before, it was worded three
ways more: ``cannot read d: Is a directory`` (``--jobs-file`` of sprio and taskqueues, the
imports), ``jobs file d cannot be read: Is a directory`` (``fs submit --file``) and
``config file d cannot be read: Is a directory`` (a sweep spec's ``config``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

#: Lines whose reader refuses the folder itself (no option name before the sentence).
READERS = [
    pytest.param(["sprio", "--jobs-file", "{d}"], "", id="sprio"),
    pytest.param(["taskqueues", "--jobs-file", "{d}"], "", id="taskqueues"),
    pytest.param(["submit", "--file", "{d}"], "", id="submit"),
    pytest.param(
        ["import", "history", "{d}"],
        " (fs import history reads a usage history: CSV with a header line, or JSON lines)",
        id="import-history",
    ),
    pytest.param(
        ["import", "sacct", "{d}"], " (fs import sacct reads sacct -P output)", id="import-sacct"
    ),
]


@pytest.mark.parametrize(("line", "then"), READERS)
def test_a_folder_as_an_input_file_is_worded_as_click_words_it(
    env: dict[str, Path], run: Callable[..., Any], line: list[str], then: str
) -> None:
    """``fs sprio --jobs-file d`` said ``cannot read d: Is a directory``, ``fs submit
    --file d`` ``jobs file d cannot be read: Is a directory``; an import still says what
    it reads after the sentence."""
    folder = env["dir"] / "d"
    folder.mkdir()
    before = env["state"].read_bytes()
    result = run(*[str(folder) if word == "{d}" else word for word in line], *common(env))
    refused(result)
    assert result.stderr == f"fs: error: File '{folder}' is a directory.{then}\n"
    assert env["state"].read_bytes() == before


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(["simulate", "--workload"], id="simulate"),
        pytest.param(["negotiate", "--dry-run", "--jobs-file"], id="negotiate"),
    ],
)
def test_the_options_click_checks_say_the_same_sentence(
    env: dict[str, Path], run: Callable[..., Any], line: list[str]
) -> None:
    """``fs simulate --workload d``: click's own check, whose sentence every reader says."""
    folder = env["dir"] / "d"
    folder.mkdir()
    result = run(*line, str(folder), *common(env))
    refused(result, f"Invalid value for '{line[-1]}': File '{folder}' is a directory.")


def test_a_sweep_specs_config_that_is_a_folder_is_worded_the_same(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs sweep spec.toml`` whose ``config`` names a folder said ``config file d cannot
    be read: Is a directory``."""
    folder = tmp_path / "d"
    folder.mkdir()
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'config = "d"\nworkload = "w.json"\nnow = 0\nuntil = 3600\n'
        '[[axis]]\nkey = "accountant.priority_halflife"\nvalues = [3600]\n',
        encoding="utf-8",
    )
    (tmp_path / "w.json").write_text("[]", encoding="utf-8")
    result = run("sweep", str(spec), "--out", str(tmp_path / "out"))
    refused(result)
    assert result.stderr == f"fs: error: File '{folder}' is a directory.\n"
