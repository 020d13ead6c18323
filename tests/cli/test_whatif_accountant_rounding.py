"""``fs whatif`` compares the figures of HTCondor's accountant (userprio, negotiate) to the
six decimals the accountant stores (core/operations/whatif.ACCOUNTANT_SAME): a replayed
side holds its priorities so, where the state's side is brought to ``--now`` unrounded,
and ``--set negotiator.use_slot_weights=true`` on the sample pool (whose slots each weigh
what they are charged) listed every row as changed: ``1.99981900092 -> 1.999819``."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.operations.whatif import ACCOUNTANT_SAME, same

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"


@pytest.fixture
def pool(tmp_path: Path) -> list[str]:
    """The sample pool with its state and the usage history kept beside it."""
    shutil.copy(SAMPLE / "sample-state.json", tmp_path / "s.json")
    shutil.copy(SAMPLE / "sample-state.history.sqlite", tmp_path / "s.history.sqlite")
    return ["--config", str(SAMPLE / "pool.toml"), "--state", str(tmp_path / "s.json"),
            "--now", "2026-11-21T12:00:00Z"]  # fmt: skip


@pytest.mark.parametrize("view", [["userprio"], ["negotiate", "--dry-run"]])
def test_the_accountants_rounding_alone_is_no_change(
    view: list[str], pool: list[str], run: Callable[..., Any]
) -> None:
    """fs whatif --set negotiator.use_slot_weights=true userprio (and negotiate --dry-run)
    on the sample: every figure moved by the replay's six decimals alone; now no
    differences."""
    result = run("whatif", "--set", "negotiator.use_slot_weights=true", *view, *pool)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].endswith("before -> after: no differences")


def test_a_change_beyond_the_six_decimals_is_still_one(
    pool: list[str], run: Callable[..., Any]
) -> None:
    """A half-life of 86401 s against the sample's 86400 moves the priorities by some 1e-5
    of themselves: still listed (group_chemistry 16.931448 -> 16.93139)."""
    result = run("whatif", "--set", "accountant.priority_halflife=86401", "userprio", *pool)
    assert result.exit_code == 0, result.stderr
    assert "rows changed" in result.stdout.splitlines()[-1]


def test_the_bound_is_the_six_decimals_of_the_least_priority() -> None:
    """A priority of at least 0.5 stored with six decimals moves by at most 5e-7, 1e-6 of
    it, and two such roundings part by at most 1e-6, 2e-6 of it: those are the same; two
    apart by 3e-6 of the value are not."""
    assert same(0.5, 0.5000005, ACCOUNTANT_SAME)
    assert same(1.99981900092, 1.999819, ACCOUNTANT_SAME)
    assert same(0.500001, 0.5, ACCOUNTANT_SAME)
    assert not same(1.0, 1.000003, ACCOUNTANT_SAME)
    assert not same(1.99981900092, 1.999819)  # (the other views' bound: 1e-12)
