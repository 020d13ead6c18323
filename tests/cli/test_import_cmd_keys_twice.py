"""A job queue dump that gives an attribute twice in one ad is refused, one line naming
the line and the attribute, exit 2: ``fs import condor-q`` kept the last value without a
word (``condor_q -json`` and ``-long`` print each attribute of an ad once)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import common, refused

FLAT = Path(__file__).parents[1] / "fixtures" / "htcondor-25.0" / "flat_users"


def _twice(text: str, attribute: str) -> tuple[str, int]:
    """``text`` with the first line that sets ``attribute`` given again below it; the
    number of the added line."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith(attribute))
    lines.insert(at + 1, lines[at])
    return "\n".join(lines), at + 2


def test_condor_q_json_giving_an_attribute_twice(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs import condor-q q.json --dry-run`` with ``"Owner": "htc"`` twice in an ad."""
    text, _ = _twice((FLAT / "condor_q.json").read_text(), '"Owner"')
    dump = env["dir"] / "q.json"
    dump.write_text(text)
    result = run("import", "condor-q", str(dump), "--dry-run", *common(env))
    refused(result, f'{dump}:2: the key "Owner" is given twice; give each key once')


def test_condor_q_long_giving_an_attribute_twice(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs import condor-q q.txt --dry-run`` with ``Owner = "htc"`` twice in an ad."""
    text, line = _twice((FLAT / "condor_q.long.txt").read_text(), "Owner = ")
    dump = env["dir"] / "q.txt"
    dump.write_text(text)
    result = run("import", "condor-q", str(dump), "--dry-run", *common(env))
    refused(result, f"{dump}:{line}: Owner is given twice in one ad; give it once")
