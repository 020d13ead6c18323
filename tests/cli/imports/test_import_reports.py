"""An import's one-line summary ("Imported 3 jobs ... into STATE") comes once the state is
checked and written: where the write fails (a full disk) the only line is the error, not
a summary of an import that did not happen followed by it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.errors import RuntimeFailure

REPO = Path(__file__).resolve().parents[3]
HTCONDOR = REPO / "tests" / "fixtures" / "htcondor-25.0" / "flat_users"
#: ``sshare -a -l -P`` of the sample pool (its first rows, as ``fs sshare`` prints them): a
#: dump of another cluster's associations is refused, the state's usage kept.
SAMPLE_SSHARE = (
    "Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS"
    "|GrpTRESMins|TRESRunMins\n"
    "root|||0.000000|10543971||1.000000||||cpu=0,mem=0\n"
    " root|ops|10|0.090909|192207|0.018229|0.018229|1.000000|4.987021||cpu=0,mem=0\n"
)


@pytest.mark.parametrize(
    ("kind", "dump"),
    [
        ("condor-userprio", HTCONDOR / "condor_userprio.long_allusers.txt"),
        ("sshare", SAMPLE_SSHARE),
    ],
)
def test_no_summary_when_the_state_cannot_be_written(
    tmp_path: Path,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
    dump: Path | str,
) -> None:
    """``fs import KIND DUMP`` on a full disk: exit 1, one line, no summary before it; the
    same line without the fault prints the summary."""
    import fairshare_cli.io.state as state_io

    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    if isinstance(dump, str):
        (tmp_path / "shares.txt").write_text(dump)
        dump = tmp_path / "shares.txt"
    line = ["import", kind, str(dump), "--config", str(REPO / "sample_configs" / "pool.toml"),
            "--state", str(state), "--now", "2026-11-23T18:25:33Z"]  # fmt: skip
    written = run(*line, "--dry-run")
    assert written.exit_code == 0, written.stderr
    assert written.stderr.startswith("(dry run, nothing written) ")

    def full(path: Path, state: Any, before_rename: Any = None, **_: Any) -> None:
        raise RuntimeFailure(f"cannot write state file {path}: disk full; nothing was written")

    monkeypatch.setattr(state_io, "save_state", full)
    failed = run(*line)
    assert failed.exit_code == 1
    assert failed.stderr == (
        f"fs: error: cannot write state file {state}: disk full; nothing was written\n"
    )
