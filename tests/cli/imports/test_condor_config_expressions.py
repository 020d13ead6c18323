"""``fs import condor-config`` reads a number knob written as an expression as HTCondor does
(io/importers/condor_knobs.py): ``param_double`` and ``param_integer``
(``condor_config.cpp``, ``string_is_double_param``/``string_is_long_param``) take a plain
number, else evaluate the text as a ClassAd expression in an empty ad and keep its number
(``EvaluateAttrNumber``: a boolean counts 1 or 0, a real read as an integer is truncated)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CONFIG = """\
DAY = 86400
PRIORITY_HALFLIFE = $(DAY) * 2
GROUP_NAMES = group_a, group_b
GROUP_QUOTA_group_a = 2 * 5
GROUP_QUOTA_DYNAMIC_group_b = 1.0 / 4
NEGOTIATOR_INTERVAL = 60 * 5
NEGOTIATOR_CYCLE_DELAY = 10 / 4
DEFAULT_PRIO_FACTOR = true
"""


def test_number_knobs_written_as_expressions_are_evaluated(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import condor-config condor_config`` refused ``PRIORITY_HALFLIFE = $(DAY) * 2``
    ("expected a number, got '86400 * 2'"), which the accountant reads as 172800. By hand:
    86400 × 2 = 172800; 2 × 5 = 10; 1.0 / 4 = 0.25; 60 × 5 = 300; 10 / 4 is ClassAd
    integer division, 2; ``true`` is 1."""
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text(CONFIG)
    result = run("import", "condor-config", "condor_config")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        '[pool]\ndefaults = "current"\n\n'
        "[accountant]\npriority_halflife = 172800\ndefault_prio_factor = 1.0\n\n"
        "[negotiator]\ninterval = 300\ncycle_delay = 2\n\n"
        "[groups.group_a]\nquota = 10\n\n"
        "[groups.group_b]\ndynamic_quota = 0.25\n"
    )


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("Cpus * 2", id="attribute"),  # undefined in an empty ad
        pytest.param('"ten"', id="string"),
        pytest.param("1 +", id="no-expression"),
        pytest.param("10 / 0", id="error"),
        pytest.param("1_000", id="underscore"),  # strtod stops at '_': no number, no expression
    ],
)
def test_an_expression_that_gives_no_number_is_refused(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text(f"PRIORITY_HALFLIFE = {value}\n")
    result = run("import", "condor-config", "condor_config")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: condor_config:1: PRIORITY_HALFLIFE: expected a number, got '{value}'\n"
    )


def test_an_expression_giving_part_seconds_is_refused(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a plain ``90.5`` is: ``param_integer`` would cut either to 90; fs takes whole
    seconds only, rather than guess."""
    monkeypatch.chdir(tmp_path)
    Path("condor_config").write_text("NEGOTIATOR_INTERVAL = 60 * 1.51\n")
    result = run("import", "condor-config", "condor_config")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: condor_config:1: NEGOTIATOR_INTERVAL: expected a whole number, "
        "got '60 * 1.51'\n"
    )
