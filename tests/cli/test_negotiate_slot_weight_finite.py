"""A ``slot_weight`` that evaluates to NaN or an infinity is refused in one line: it ended
in a traceback (``ValueError: cannot convert float NaN to integer`` as the group quotas were
rounded, ``OverflowError`` in a submitter's demand), or blamed the state file
(``accountant.records.<none>.priority: expected a finite number``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import CONFIG, common, write_pool

Run = Callable[..., Any]


def message(value: str) -> str:
    return (
        f"fs: error: [negotiator] slot_weight evaluates to {value} on a slot's ad; expected a "
        "finite number (what a slot weighs in charges, shares and quotas)\n"
    )


@pytest.mark.parametrize(
    ("expr", "shown"),
    [
        pytest.param('real("nan")', "nan", id="nan"),
        pytest.param('real("inf")', "inf", id="inf"),
        pytest.param('-real("inf")', "-inf", id="minus-inf"),
    ],
)
def test_negotiate_refuses_and_writes_nothing(
    tmp_path: Path, run: Run, expr: str, shown: str
) -> None:
    knobs = f"\n[negotiator]\nuse_slot_weights = true\nslot_weight = {expr!r}\n"
    config = CONFIG.replace("[pool]\n", '[pool]\ndefaults = "legacy"\n') + knobs
    env = write_pool(tmp_path, config)
    before = env["state"].read_bytes()
    for args in (["negotiate"], ["userprio"], ["config", "check"]):
        given = common(env) if args != ["config", "check"] else ["--config", str(env["config"])]
        result = run(*args, *given)
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", message(shown))
    assert env["state"].read_bytes() == before
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["pool.toml", "state.json", "state.json.lock"]  # (the lock stays)


def test_whatif_of_a_running_jobs_demand(tmp_path: Path, run: Run) -> None:
    """Slot weights off: the schedd still weighs a running job by its slot's SlotWeight
    (``OverflowError: cannot convert float infinity to integer`` before)."""
    env = write_pool(tmp_path)
    assert run("negotiate", *common(env)).exit_code == 0
    before = env["state"].read_bytes()
    result = run("whatif", "--set", 'negotiator.slot_weight=-real("inf")', "quota", *common(env))
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message("-inf"))
    assert env["state"].read_bytes() == before
