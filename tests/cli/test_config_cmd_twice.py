"""A config that declares a table or sets a key twice (errors.py ``decoder_fault``):
tomli's words spoke of a Python tuple (``Cannot declare ('accountant',) twice``) or of "a
value" without naming it (``Cannot overwrite a value``); the message now names the table
or key as the file writes it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., Any]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        pytest.param(
            '[pool]\ndefaults = "current"\n[accountant]\npriority_halflife = 60\n'
            "[accountant]\ndefault_prio_factor = 2\n",
            "the table [accountant] is declared twice (at line 5, column 12); give each table once",
            id="table",
        ),
        pytest.param(
            '[pool]\ndefaults = "current"\n[groups."a.b"]\nquota = 1\n[groups."a.b"]\nquota = 2\n',
            'the table [groups."a.b"] is declared twice (at line 5, column 14); give each table'
            " once",
            id="dotted-group",
        ),
        pytest.param(
            '[pool]\ndefaults = "current"\n[accountant]\npriority_halflife = 60\n'
            "priority_halflife = 3600\n",
            "the key priority_halflife is given twice in its table (at line 5, column 25); give"
            " each key once",
            id="key",
        ),
    ],
)
def test_a_table_or_key_given_twice_is_named(
    tmp_path: Path, run: Run, text: str, says: str
) -> None:
    """``fs config check --config t.toml``: exit 2, one line naming what is given twice and
    where; the file unchanged."""
    config = tmp_path / "t.toml"
    config.write_text(text, encoding="utf-8")
    result = run("config", "check", "--config", str(config))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: config file {config} is not valid TOML: {says}\n"
    assert config.read_text(encoding="utf-8") == text
