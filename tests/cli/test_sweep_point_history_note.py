"""``fs sweep``'s note on a point that revalues no recorded usage names the spec's
``history`` key, not ``fs whatif``'s ``--history`` option, which ``fs sweep`` has not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_sweep import write_spec


def test_the_note_names_the_spec_key(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs sweep SPEC --out DIR, of a state with a record and no usage history beside it:
    each half-life point said '... or pass --history FILE', an option fs sweep refuses."""
    spec = write_spec(tmp_path)
    state = tmp_path / "st.json"
    made = run("setfactor", "alice@example.org", "2", "--create", "--config",
               str(tmp_path / "pool.toml"), "--state", str(state),
               "--now", "2026-11-19T00:00:00Z")  # fmt: skip
    assert made.exit_code == 0, made.stderr
    spec.write_text(f'state = "st.json"\n{spec.read_text(encoding="utf-8")}', encoding="utf-8")
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    notes = [line for line in result.stderr.splitlines() if line.startswith("fs: note: point")]
    assert notes and "--history" not in result.stderr
    assert notes[0] == (
        f"fs: note: point 0: no usage history is kept beside {state}, so the after side "
        "revalues no recorded usage: keep one with 'fs import history FILE' (or sacct, "
        "condor-history; --rebuild to rebuild the state from it), or name a history in the "
        'spec (history = "FILE")'
    )
    assert run("sweep", str(spec), "--history", "h.csv").exit_code == 2
