"""``fs userprio NAME`` of a name condor_userprio refuses (cli/userprio_options.py
``check_names``): ``user_prio.cpp``'s ``main`` takes an argument that is no option as a
name only when it starts with a letter (C's ``isalpha``) or is ``<none>``, and prints its
usage otherwise. fs listed no record and noted ``no record @example.org``, exit 0."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import REPO

SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]


@pytest.mark.parametrize("name", ["", " ", "1abc", "_x", "@example.org", "élise"])
def test_a_name_that_starts_with_no_letter_is_refused(run: Callable[..., Any], name: str) -> None:
    result = run("userprio", name, *SAMPLE)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: NAME {name!r}: condor_userprio reads a name that starts with a letter (a"
        " user, user@domain or an accounting group), or <none>\n"
    )


@pytest.mark.parametrize("name", ["alice", "<none>", "group_physics", "Zed@guest.net"])
def test_a_name_condor_userprio_reads_is_read(run: Callable[..., Any], name: str) -> None:
    result = run("userprio", name, *SAMPLE)
    assert result.exit_code == 0, result.stderr
