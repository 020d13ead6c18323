"""A sweep spec's run window and options checked with the rest of the spec, before a
folder is made: ``until`` over 100,000 cycles, a run past the year 9999 and ``backfill``
without ``scheduler = "slurm"`` were refused only when point 0 ran, after ``sweep.json``
was written, naming ``--until``, ``--cycle`` or ``--backfill``, options the spec does not
have. Now one line naming the spec and its keys, exit 2, and no folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import SPEC, spec  # noqa: F401  (the fixture)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        pytest.param(
            ('cycle = "600"', 'cycle = "1"\nuntil = "1000000000"'),
            "until 1000000000 / cycle 1 is over 100,000 cycles; use a longer cycle",
            id="cycles",
        ),
        pytest.param(
            ('cycle = "600"', 'cycle = "100000000"\nuntil = "99999999-0"'),
            "now 2026-11-20T00:00:00Z with until 99999999-0 runs past 9999-12-31T23:59:59Z, "
            "the last time fs can show; give an earlier now or a shorter until",
            id="past-9999",
        ),
        pytest.param(
            ('until = "2:00:00"', 'until = "2026-11-20T02:00:00Z"'),
            'until: "2026-11-20T02:00:00Z" is a point in time, not a duration; it is 02:00:00'
            ' after now 2026-11-20T00:00:00Z: give until = "02:00:00"',
            id="until-a-time",
        ),
        pytest.param(
            ('cycle = "600"', 'cycle = "600"\nbackfill = true'),
            'backfill needs scheduler = "slurm"',
            id="backfill",
        ),
    ],
)
def test_a_spec_that_cannot_run_is_refused_before_its_folder(
    spec: Path,  # noqa: F811
    tmp_path: Path,
    run: Callable[..., Any],
    change: tuple[str, str],
    says: str,
) -> None:
    """``fs sweep run SPEC --out DIR`` with the spec's ``CHANGE``."""
    text = SPEC.replace(*change)
    if "until" in change[1] and "until" not in change[0]:
        text = text.replace('until = "2:00:00"\n', "")
    spec.write_text(text, encoding="utf-8")
    result = run("sweep", "run", str(spec), "--out", str(tmp_path / "runs"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {spec}: {says}\n"
    assert not (tmp_path / "runs").exists()


def test_simulate_keeps_its_option_names(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs simulate --workload W --until 1000000000 --cycle 1``: as before."""
    from tests.cli.conftest import common, write_pool

    pool = write_pool(tmp_path)
    work = tmp_path / "work.json"
    work.write_text("[]")
    line = ["simulate", "--workload", str(work), "--until", "1000000000", "--cycle", "1"]
    result = run(*line, *common(pool))
    assert (result.exit_code, result.stderr) == (
        2,
        "fs: error: --until 1000000000 / --cycle 1 is over 100,000 cycles; use a longer --cycle\n",
    )
