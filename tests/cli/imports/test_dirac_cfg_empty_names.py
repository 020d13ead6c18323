"""``fs import dirac-cfg --setup ''`` (and ``--vo ''``): refused as an empty name.

``--setup ''`` (``--setup "$SETUP"`` with the variable unset) was read as no ``--setup``:
the DIRAC 9 layout, exit 0, the config merged, where every other setup the file has no
section of is warned about; ``--vo ''`` said "has no VO  (no /Operations/)". Both are now
refused, as ``fs submit --account ''`` is, before the file is read; the config is untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import write_pool
from tests.cli.imports.conftest import OTHER_DUMPS

DIRAC_CFG = OTHER_DUMPS["dirac.cfg"]


@pytest.mark.parametrize(
    ("option", "value", "problem"),
    [
        pytest.param("--setup", "", "expected a name, got an empty one", id="setup-empty"),
        pytest.param(
            "--setup",
            " ",
            "expected a name without blanks or control characters, got ' '",
            id="setup-blank",
        ),
        pytest.param("--vo", "", "expected a name, got an empty one", id="vo-empty"),
    ],
)
def test_an_empty_setup_or_vo_is_refused_and_the_config_kept(
    tmp_path: Path, run: Callable[..., Any], option: str, value: str, problem: str
) -> None:
    pool = write_pool(tmp_path)
    before = pool["config"].read_bytes()
    into = ("--into", str(pool["config"]), "--replace")
    result = run("import", "dirac-cfg", str(DIRAC_CFG), option, value, *into)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {option}: {problem}\n"
    assert pool["config"].read_bytes() == before
