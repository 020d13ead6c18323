"""``fs negotiate --jobs-file ''`` (and ``fs quota --jobs-file ''``): refused as an empty path.

An empty ``--jobs-file`` (``--jobs-file "$JOBS"`` with the variable unset) was taken for
no option: ``fs negotiate --jobs-file ''`` committed a cycle of the state's own queue
(exit 0, the state rewritten), where a named jobs file is refused without ``--dry-run``;
with ``--dry-run``, and in ``fs quota``, the state's queue was shown in place of the
file's. Now each is refused before anything is read, as an empty ``--workload`` is; so
are ``fs sprio`` and ``fs taskqueues``, which said ``File '' does not exist.``, click's
words for a missing file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common


@pytest.mark.parametrize(
    "words",
    [
        pytest.param(("negotiate",), id="negotiate-commit"),
        pytest.param(("negotiate", "--dry-run"), id="negotiate-dry-run"),
        pytest.param(("quota",), id="quota"),
        pytest.param(("sprio",), id="sprio"),
        pytest.param(("taskqueues",), id="taskqueues"),
    ],
)
def test_an_empty_jobs_file_is_refused_and_the_state_kept(
    run: Callable[..., Any], env: dict[str, Path], words: tuple[str, ...]
) -> None:
    before = env["state"].read_bytes()
    res = run(*words, "--jobs-file", "", *common(env))
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (
        "fs: error: Invalid value for '--jobs-file': an empty path; give a path, or leave it "
        f"out (see 'cli {words[0]} --help')\n"
    )
    assert env["state"].read_bytes() == before
