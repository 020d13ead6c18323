"""``$SPRIO_FORMAT`` as sprio reads it (``src/sprio/opts.c``, ``parse_command_line``, 22.05
and today alike): ``-o`` and ``-l`` each set ``override_format_env``, and the variable is
read only when neither did, so it sets the format whatever ``-n`` or ``-w`` ask (sprio.c
builds its own layout only when no format is set) but not under ``-l``, whose layout stays
(``-v`` then shows ``format = (null)``); ``-v`` shows it as the format, and set but empty it
is an empty format (no field); ``-o`` wins over it, and ``-o`` with ``-l`` is refused,
``-o ''`` too (an empty format is still set). fs listed ``$SPRIO_FORMAT``'s layout under
``-l``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = [
    *("--config", str(REPO / "sample_configs" / "pool.toml")),
    *("--jobs-file", str(REPO / "sample_configs" / "jobs.json")),
    *("--now", "2026-11-21T12:00:00Z"),
]
FORMAT = "%.15i %.8u %.10Y"
Run = Callable[..., Any]


@pytest.mark.parametrize("flags", [["-n"], ["-w"], []], ids=" ".join)
def test_sprio_format_sets_the_layout_without_l(run: Run, flags: list[str]) -> None:
    given = run("sprio", *flags, "-o", FORMAT, *SAMPLE)
    assert given.exit_code == 0, given.stderr
    res = run("sprio", *flags, *SAMPLE, env={"SPRIO_FORMAT": FORMAT})
    assert res.exit_code == 0, res.stderr
    assert res.stdout == given.stdout
    assert res.stdout.splitlines()[0] == "          JOBID     USER   PRIORITY"


@pytest.mark.parametrize("flags", [["-l"], ["-n", "-l"]], ids=" ".join)
def test_l_keeps_its_layout_under_sprio_format(run: Run, flags: list[str]) -> None:
    """opts.c's ``case 'l'`` sets ``override_format_env``: the variable is not read, and
    sprio.c builds -l's layout (``%.15i %9r %.8u %.8o %.10Y ...``: JOBID, PARTITION, USER,
    ACCOUNT first)."""
    res = run("sprio", *flags, *SAMPLE, env={"SPRIO_FORMAT": FORMAT})
    assert res.exit_code == 0, res.stderr
    assert res.stdout == run("sprio", *flags, *SAMPLE).stdout
    assert res.stdout.split()[:4] == ["JOBID", "PARTITION", "USER", "ACCOUNT"]


@pytest.mark.parametrize(
    ("flags", "shown"), [([], FORMAT), (["-l"], "(null)")], ids=["plain", "long"]
)
def test_sprio_format_is_the_format_v_shows(run: Run, flags: list[str], shown: str) -> None:
    res = run("sprio", "-v", *flags, *SAMPLE, env={"SPRIO_FORMAT": FORMAT})
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines()[1] == f"format     = {shown}"


def test_an_empty_sprio_format_is_an_empty_format(run: Run) -> None:
    """No field: an empty header line and an empty line a row, as ``-o ''`` prints."""
    res = run("sprio", *SAMPLE, env={"SPRIO_FORMAT": ""})
    assert res.exit_code == 0, res.stderr
    assert res.stdout == run("sprio", "-o", "", *SAMPLE).stdout
    assert set(res.stdout.splitlines()) == {""}


def test_o_wins_over_sprio_format(run: Run) -> None:
    res = run("sprio", "-o", "%.15i", *SAMPLE, env={"SPRIO_FORMAT": FORMAT})
    assert res.exit_code == 0, res.stderr
    assert res.stdout.splitlines()[0] == "          JOBID"


@pytest.mark.parametrize("spec", [FORMAT, ""])
def test_o_with_l_is_refused(run: Run, spec: str) -> None:
    res = run("sprio", "-l", "-o", spec, *SAMPLE)
    assert (res.exit_code, res.stdout) == (2, "")
    assert "Options -o(--format) and -l(--long) are mutually exclusive" in res.stderr
