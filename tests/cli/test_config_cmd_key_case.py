"""A config key spelt in other case than fs's (a hand-edited ``[Priority]``) is refused
naming the key as fs spells it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.mark.parametrize(
    ("table", "hint"),
    [
        pytest.param("[Priority]", "(did you mean 'priority'?)", id="Priority"),
        pytest.param("[QOS]", "(did you mean 'qos'?)", id="QOS"),
        pytest.param("[DIRAC]", "(did you mean 'dirac'?)", id="DIRAC"),
        pytest.param("[priority.weights]\nQOS = 1000", "(did you mean 'qos'?)", id="weights.QOS"),
    ],
)
def test_a_key_spelt_in_other_case_names_the_key(
    write_config: Callable[[str], Path], run: Callable[..., Any], table: str, hint: str
) -> None:
    """fs config check --config pool.toml of a hand-written '[Priority]' said "Priority is
    accounts.<name>.priority; write it in [accounts.<name>]" (sacctmgr's field of that
    name), and '[QOS]' or '[DIRAC]' gave no hint at all (difflib counts case against a
    match); the key spelt in other case is the hint."""
    config = write_config(f'[pool]\ndefaults = "current"\n{table}\n')
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert hint in result.stderr
    assert "accounts.<name>" not in result.stderr
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        pytest.param(
            '[group."group_physics"]\nquota = 40\n',
            "unknown key 'group' (did you mean 'groups'? Group is "
            "dirac.correction.instances.group; write it in [dirac.correction.instances])",
            id="group",
        ),
        pytest.param(
            '[pool]\ndefault = "current"\n',
            "unknown key 'pool.default' (did you mean 'defaults'? Default is "
            "partitions.<name>.default; write it in [partitions.<name>])",
            id="pool.default",
        ),
    ],
)
def test_a_key_close_to_one_of_its_table_is_named_before_a_knob_in_other_case(
    write_config: Callable[[str], Path], run: Callable[..., Any], text: str, hint: str
) -> None:
    """fs config check --config pool.toml of a config whose '[groups."group_physics"]' lost
    its s said only "Group is dirac.correction.instances.group; write it in
    [dirac.correction.instances]" (DIRAC's ShareCorrections knob, in lower case): the key
    of the table it nearly is, groups, comes first, and the knob after it."""
    result = run("config", "check", "--config", str(write_config(text)))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert hint in result.stderr
    assert len(result.stderr.splitlines()) == 1
