"""``fs import condor-config``: knob values that are ClassAd expressions, read as
HTCondor 25.0's ``param_integer``/``param_double``/``param_boolean`` read them
(core/htcondor/knob_values.py), and what the daemons stop on refused in one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.imports.conftest import Refuse

EXPRESSIONS = """\
NEGOTIATOR_INTERVAL = 5 * 60
PRIORITY_HALFLIFE = 86400 * 7
NEGOTIATOR_CYCLE_DELAY = 5.5
NEGOTIATOR_USE_SLOT_WEIGHTS = 1 == 1
GROUP_NAMES = group_a
GROUP_QUOTA_group_a = 10 / 4
GROUP_QUOTA_MAX_ALLOCATION_ROUNDS = $(ROUNDS) + 1
ROUNDS = 2
DEFAULT_PRIO_FACTOR = 1e3
"""


def test_expressions_are_evaluated_as_htcondor_does(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Before, each of these lines was refused ("expected a number, got '5 * 60'").
    By hand, from condor_config.cpp: ``5 * 60`` = 300 and ``86400 * 7`` = 604800
    (ClassAd integers); ``5.5`` for an integer knob is a real cast toward zero, 5;
    ``1 == 1`` is true; ``10 / 4`` is ClassAd integer division, 2 (strtod stops at
    ``/``, so the whole text is the expression); ``$(ROUNDS) + 1`` is expanded first
    (``param`` expands macros), then evaluated, 3; ``1e3`` is atof's 1000."""
    conf = tmp_path / "condor_config"
    conf.write_text(EXPRESSIONS, encoding="utf-8")
    result = run("import", "condor-config", str(conf))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[pool]\ndefaults = "current"\n\n'
        "[accountant]\npriority_halflife = 604800\ndefault_prio_factor = 1000.0\n\n"
        "[negotiator]\ninterval = 300\ncycle_delay = 5\nuse_slot_weights = true\n"
        "group_quota_max_allocation_rounds = 3\n\n"
        "[groups.group_a]\nquota = 2\n"
    )
    assert result.stderr == f"condor-config {conf}: 8 knobs taken, 1 group; ignored 1: ROUNDS\n"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param(
            "NEGOTIATOR_USE_SLOT_WEIGHTS = yes",
            ":1: NEGOTIATOR_USE_SLOT_WEIGHTS: expected True or False, got 'yes', which "
            "evaluates to undefined: HTCondor stops on it",
            id="yes-was-true",
        ),
        pytest.param(
            "NEGOTIATOR_INTERVAL = 300 # five minutes",
            ":1: NEGOTIATOR_INTERVAL: expected an integer or a ClassAd expression (such as "
            "5 * 60), got '300 # five minutes': HTCondor stops on it",
            id="trailing-comment",
        ),
        pytest.param(
            "NEGOTIATOR_INTERVAL = INTERVAL_MINUTES * 60",
            "which evaluates to undefined: HTCondor stops on it; a name here is no knob "
            "(write $(NAME) for one)",
            id="knob-name-in-expression",
        ),
        pytest.param(
            "DEFAULT_PRIO_FACTOR = 10 * 100",
            ":1: DEFAULT_PRIO_FACTOR: HTCondor reads this knob with atof, which takes "
            "'10 * 100' as 10",
            id="atof-knob",
        ),
        pytest.param(
            "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS = 2000000000",
            "expected 1 to 1,000,000,000, got '2000000000'",
            id="rounds-beyond-param-table-range",
        ),
    ],
)
def test_what_htcondor_stops_on_is_refused(refuse_dump: Refuse, line: str, expected: str) -> None:
    refuse_dump("condor-config", line + "\n", expected, into=True)
