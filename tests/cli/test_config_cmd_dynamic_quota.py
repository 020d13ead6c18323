"""A group's ``dynamic_quota`` written as a percentage, and dynamic quotas summing above 1.

``dynamic_quota = 60`` (or ``"60%"``) for 60 % of the parent's quota was refused as
'expected a number at most 1, got 60' ('expected a number, got string "60%"'), with no word
that it is a fraction; now the refusal names the fraction to write. Dynamic quotas of one
parent's subgroups that sum above 1 were taken in silence, where the negotiator rescales
each by the sum and logs a warning (``GroupEntry::hgq_assign_quotas``); ``fs config check``
now warns so too, and of a group setting both quotas."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, write_pool

POOL = """
[pool]
defaults = "current"
[[machines]]
name = "node"
count = 3
slots = 4
attributes = {{ Cpus = 1 }}
[groups."group_cms"]
dynamic_quota = {cms}
[groups."group_atlas"]
dynamic_quota = 0.4
"""


@pytest.mark.parametrize(
    ("cms", "why"),
    [
        pytest.param("60", "got 60; for 60% give 0.6", id="percent"),
        pytest.param('"60%"', 'got "60%"; for 60% give 0.6', id="percent text"),
        pytest.param("1.5", "got 1.5", id="above 1"),
    ],
)
def test_a_percentage_is_refused_naming_the_fraction(
    tmp_path: Path, run: Callable[..., Any], cms: str, why: str
) -> None:
    """``fs quota`` of a pool whose ``group_cms`` sets ``dynamic_quota = 60``: exit 2, one
    line naming 0.6; the state untouched."""
    pool = write_pool(tmp_path, POOL.format(cms=cms))
    before = pool["state"].read_bytes()
    result = run("quota", *common(pool))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f'fs: error: {pool["config"]}: groups."group_cms".dynamic_quota: a fraction of the'
        f" parent's quota, from 0 to 1, {why}\n"
    )
    assert pool["state"].read_bytes() == before


def test_config_check_warns_of_dynamic_quotas_above_1(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs config check`` of 0.8 and 0.4 under ``<none>``: valid (exit 0), one warning
    with what the negotiator makes of them; none for 0.6 and 0.4."""
    pool = write_pool(tmp_path, POOL.format(cms="0.8"))
    result = run("config", "check", "--config", str(pool["config"]))
    assert result.exit_code == 0
    assert result.stderr == (
        "fs: warning: the dynamic_quota of <none>'s subgroups sum to 1.2 (group_cms 0.8,"
        " group_atlas 0.4), above 1: the negotiator rescales each to group_cms 0.6667,"
        " group_atlas 0.3333\n"
    )
    pool = write_pool(tmp_path, POOL.format(cms="0.6"))
    result = run("config", "check", "--config", str(pool["config"]))
    assert (result.exit_code, result.stderr) == (0, "")


def test_config_check_warns_of_both_quotas(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs config check`` of a group setting ``quota = 5`` and ``dynamic_quota = 0.6``:
    the negotiator reads ``GROUP_QUOTA_group_cms`` and never the dynamic one
    (``GroupEntry::hgq_construct_tree``); it was valid without a word."""
    pool = write_pool(tmp_path, POOL.format(cms="0.6\nquota = 5"))
    result = run("config", "check", "--config", str(pool["config"]))
    assert result.exit_code == 0
    assert result.stderr == (
        'fs: warning: groups."group_cms" sets quota 5 and dynamic_quota 0.6: the negotiator'
        " reads GROUP_QUOTA first and never the dynamic one; drop one of them\n"
    )
