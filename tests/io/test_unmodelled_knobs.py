"""Which settings of the unmodelled negotiator knobs change nothing (io/unmodelled_knobs.py):
each knob's default in HTCondor 25.0's param_info.in (false, true, 0, or nothing set)."""

from __future__ import annotations

import pytest

from fairshare_cli.io.unmodelled_knobs import UNMODELLED, effect_hint, neutral


@pytest.mark.parametrize(
    ("knob", "text", "expected"),
    [
        pytest.param("NEGOTIATOR_IGNORE_JOB_RANKS", "false", True, id="false"),
        pytest.param("NEGOTIATOR_IGNORE_JOB_RANKS", "TRUE", False, id="true"),
        pytest.param("NEGOTIATOR_IGNORE_JOB_RANKS", "  ", True, id="blank"),
        pytest.param("ALLOW_PSLOT_PREEMPTION", "2 > 1", False, id="true-expression"),
        pytest.param("ALLOW_PSLOT_PREEMPTION", "maybe", False, id="unreadable-counts-as-set"),
        pytest.param("NEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD", "0", True, id="zero"),
        # matchmaker.cpp: a threshold of 0 or less trims nothing
        pytest.param("NEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD", "-5", True, id="negative"),
        pytest.param("NEGOTIATOR_TRIM_SHUTDOWN_THRESHOLD", "60", False, id="a-minute"),
        pytest.param("NEGOTIATOR_MATCH_EXPRS", "true", False, id="any-setting"),
        pytest.param("REMOVE_SIGNIFICANT_ATTRIBUTES", "", True, id="nothing-removed"),
        # param_boolean("PREEMPTION_REQUIREMENTS_STABLE", true) in Matchmaker::reinitialize
        pytest.param("PREEMPTION_REQUIREMENTS_STABLE", "True", True, id="stable"),
        pytest.param("PREEMPTION_REQUIREMENTS_STABLE", "", True, id="stable-blank"),
        pytest.param("PREEMPTION_REQUIREMENTS_STABLE", "false", False, id="unstable"),
        pytest.param("PREEMPTION_RANK_STABLE", "1 == 0", False, id="unstable-expression"),
        pytest.param("PREEMPTION_RANK_STABLE", "TRUE", True, id="rank-stable"),
    ],
)
def test_neutral_settings(knob: str, text: str, expected: bool) -> None:
    assert neutral(knob, text, "f:1") is expected


def test_the_hint_names_the_knob_in_any_case() -> None:
    assert effect_hint("negotiator_ignore_job_ranks") == (
        " (NEGOTIATOR_IGNORE_JOB_RANKS is an HTCondor knob fs does not model: "
        + UNMODELLED["NEGOTIATOR_IGNORE_JOB_RANKS"][1]
        + ")"
    )
    assert effect_hint("PRIORITY_HALFLIFE") is None
