"""``fs sweep``'s note on a point that revalues no recorded usage names the spec's
``history`` key, not ``fs whatif``'s ``--history`` option, which ``fs sweep`` has not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import write_spec


@pytest.mark.parametrize("jobs", ["1", "2"])  # (in process; a pool of two processes)
def test_the_note_names_the_spec_key(tmp_path: Path, run: Callable[..., Any], jobs: str) -> None:
    """fs sweep SPEC --out DIR, of a state with a record and no usage history beside it:
    each half-life point said '... or pass --history FILE', an option fs sweep refuses,
    of "the after side", a word of fs whatif's, and each point said it again (598 times
    for 598 points): now once for the four points."""
    spec = write_spec(tmp_path)
    state = tmp_path / "st.json"
    made = run("setfactor", "alice@example.org", "2", "--create", "--config",
               str(tmp_path / "pool.toml"), "--state", str(state),
               "--now", "2026-11-19T00:00:00Z")  # fmt: skip
    assert made.exit_code == 0, made.stderr
    spec.write_text(f'state = "st.json"\n{spec.read_text(encoding="utf-8")}', encoding="utf-8")
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"), "--jobs", jobs)
    assert result.exit_code == 0, result.stderr
    notes = [line for line in result.stderr.splitlines() if line.startswith("fs: note: point")]
    assert notes == [
        f"fs: note: points 0, 1, 2, 3: no usage history is kept beside {state}, so the point "
        "revalues no recorded usage: keep one with 'fs import history FILE' (or sacct, "
        "condor-history; --rebuild to rebuild the state from it), or name a history in the "
        'spec (history = "FILE")'
    ]
    assert run("sweep", str(spec), "--history", "h.csv").exit_code == 2
