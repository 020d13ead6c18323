"""``fs sweep SPEC`` with an axis of ``["60", 60]``: the string is a Slurm time string (60
minutes), the number 60 seconds; the table printed both ``60``, two rows of other figures
under one value. The string is printed quoted, as the spec writes it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_sweep import SPEC, write_spec


def test_a_string_axis_value_that_reads_as_a_number_is_quoted(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    spec = write_spec(tmp_path)
    text = SPEC.split("[[axis]]")[0] + '[[axis]]\nkey = "accountant.priority_halflife"\n'
    spec.write_text(text + 'values = ["60", 60]\n', encoding="utf-8")
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    values = sorted(line.split()[1] for line in result.stdout.splitlines()[1:3])
    assert values == ['"60"', "60"]
