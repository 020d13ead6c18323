"""``fs whatif --set`` of a key to the value the config already gives it.

The sample pool's half-life is 86400 s. ``--set accountant.priority_halflife=86400`` (a
key that revalues the past) replayed the usage history for the after side and printed
"19 rows changed" (``16.9314479855 -> 16.931448``: the replay's six-decimal rounding, and
the sample state's own history differences), which reads as a policy change. A config
that the settings leave as it is is now no change: no replay, "no differences", and a note
saying why.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
VIEW = ("--config", str(SAMPLE / "pool.toml"), "--now", "2026-11-21T12:00:00Z")
NOTE = "every --set value is the config's own: the after side is the config as it is"


@pytest.mark.parametrize(
    "setting",
    [
        pytest.param("accountant.priority_halflife=86400", id="seconds"),
        pytest.param('accountant.PRIORITY_HALFLIFE="1-0"', id="knob-name-slurm-time"),
    ],
)
def test_the_config_s_own_half_life_is_no_difference_and_says_so(
    run: Callable[..., Any], setting: str
) -> None:
    result = run("whatif", "--set", setting, "userprio", *VIEW)
    assert (result.exit_code, result.stderr) == (0, "")
    title = f"fs userprio with {setting}: before -> after: no differences"
    assert [line.rstrip() for line in result.stdout.splitlines()] == [title, f"Note: {NOTE}"]


def test_the_note_is_in_the_json_and_a_real_change_has_none(run: Callable[..., Any]) -> None:
    same = run("whatif", "--set", "accountant.priority_halflife=86400", "userprio", *VIEW, "--json")
    assert same.exit_code == 0
    document = json.loads(same.stdout)
    assert (document["changes"], document["notes"]) == ([], [NOTE])
    assert document["before"] == document["after"]
    changed = run("whatif", "--set", "accountant.priority_halflife=3600", "userprio", *VIEW)
    assert changed.exit_code == 0
    assert NOTE not in changed.stdout
    assert changed.stdout.rstrip().endswith(
        "19 rows changed, 3 moved, 0 appeared, 0 left (41 changes)"
    )


def test_a_history_named_is_replayed_under_the_unchanged_config(
    run: Callable[..., Any],
) -> None:
    """--history FILE asks for that history replayed (a sweep's points too): it still is."""
    history = str(SAMPLE / "history.csv")
    setting = "accountant.priority_halflife=86400"
    result = run("whatif", "--set", setting, "--history", history, "userprio", *VIEW, "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert NOTE not in document["notes"]
    # the replay ran: its priorities are the accountant's six decimals (16.931447985 ->
    # 16.931448), which are no change (they differ by less than 1e-6 of the priority)
    before = {row["name"]: row["real_priority"] for row in document["before"]}
    after = {row["name"]: row["real_priority"] for row in document["after"]}
    assert any(before[name] != after[name] for name in before)
    assert all(after[name] == round(after[name], 6) for name in after)
    assert document["changes"] == []
