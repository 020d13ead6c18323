"""A folder given as the config or the state: the error names where the path came from.
``FAIRSHARE_CONFIG=.`` said "Invalid value for '--config'", an option nobody gave."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, refused, write_pool


@pytest.mark.parametrize(("variable", "option"), [("FAIRSHARE_CONFIG", "--config"),
                                                  ("FAIRSHARE_STATE", "--state")])  # fmt: skip
def test_a_folder_from_a_variable_names_the_variable(
    variable: str, option: str, tmp_path: Path, run: Callable[..., Any]
) -> None:
    pool = write_pool(tmp_path)
    given = {"--config": str(pool["config"]), "--state": str(pool["state"])}
    args = [w for k, v in given.items() if k != option for w in (k, v)]
    from_env = run("userprio", *args, "--now", NOW, env={variable: str(tmp_path)})
    refused(from_env, f"Invalid value for {variable}: File '{tmp_path}' is a directory.")
    from_option = run("userprio", *args, option, str(tmp_path), "--now", NOW)
    refused(from_option, f"Invalid value for '{option}': File '{tmp_path}' is a directory.")
