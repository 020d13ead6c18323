"""``fs whatif --set accountant.PRIORITY_HALFLIFE=...`` on a pool read from a real
HTCondor's captures (docs/htcondor.md): the records come from ``condor_userprio -l``,
without their history, and the history kept beside the state holds only the claims that
start at the capture. The replay rebuilt the accountant from that history alone: every
submitter at 0.5 with no usage, all eight rows "gone", even with the half-life unchanged.
Now the after side revalues no recorded usage and says why, as with no history kept."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

FIX = Path(__file__).resolve().parents[2] / "tests/fixtures/htcondor-25.0/flat_users"
NOW = "2026-11-23T18:25:33Z"


@pytest.mark.parametrize("halflife", ["3600", "86400"])
def test_a_state_imported_from_condor_userprio_is_not_replayed_from_later_claims(
    tmp_path: Path, run: Callable[..., Any], halflife: str
) -> None:
    cfg, state = str(tmp_path / "htc.toml"), str(tmp_path / "htc.json")
    assert run("import", "condor-config", str(FIX / "condor_config_val.dump.txt"),
               "--into", cfg).exit_code == 0  # fmt: skip
    for args in (
        ("condor-status", str(FIX / "condor_status.json"), "--into", cfg, "--state", state),
        ("condor-q", str(FIX / "condor_q.json"), "--config", cfg, "--state", state),
        ("condor-userprio", str(FIX / "condor_userprio.long_allusers.txt"),
         "--config", cfg, "--state", state),
    ):  # fmt: skip
        assert run("import", *args, "--now", NOW).exit_code == 0
    result = run(
        "whatif", "--set", f"accountant.PRIORITY_HALFLIFE={halflife}", "userprio",
        "--config", cfg, "--state", state, "--now", NOW,
    )  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        f"fs userprio with accountant.PRIORITY_HALFLIFE={halflife}: before -> after: no "
        f"differences\nNote: the usage history {tmp_path / 'htc.history.sqlite'} starts at "
        "2026-11-23T18:25:33Z, after the last recorded use (2026-11-23T18:25:23Z: usage "
        "that came without its history, as from 'fs import condor-userprio'), so the "
        "after side revalues no recorded usage: pass --history FILE of that usage\n"
    )
