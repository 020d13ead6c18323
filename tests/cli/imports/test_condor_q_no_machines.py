"""``fs import condor-q`` before ``fs import condor-status`` (the docs' imports in another
order): the running jobs find no slot to hold, and the summary says why and what brings the
slots, instead of '0 new claim(s)' alone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES

POOL, AT = FIXTURES / "htcondor-25.0" / "flat_users", "2026-11-23T18:25:33Z"


def test_running_jobs_without_machines_are_named(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs import condor-config ... --into htc.toml, then fs import condor-q condor_q.json
    said '(38 idle, 15 running, 0 held) into htc.json; 0 new claim(s)': fs userprio then
    showed nobody in use and fs negotiate --dry-run a pool of size 0, with no word why;
    now the summary says the 15 running jobs hold no slot and that condor-status brings
    them. Imported after it, the claims come as the docs' order gives them."""
    cfg, state = tmp_path / "htc.toml", tmp_path / "htc.json"
    common = ["--config", str(cfg), "--state", str(state), "--now", AT]
    dump = str(POOL / "condor_config_val.dump.txt")
    assert run("import", "condor-config", dump, "--into", str(cfg)).exit_code == 0
    queue = str(POOL / "condor_q.json")
    result = run("import", "condor-q", queue, *common)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == (
        f"Imported 53 jobs from {queue} (38 idle, 15 running, 0 held) into {state}; "
        "0 new claim(s); 15 running jobs hold no slot: the config has no [[machines]] (fs "
        "import condor-status --into CONFIG brings the slots and the claims on them)\n"
    )
    status = str(POOL / "condor_status.json")
    slots = run("import", "condor-status", status, "--into", str(cfg), "--state", str(state),
                "--now", AT)  # fmt: skip
    assert slots.exit_code == 0, slots.stderr
    again = run("import", "condor-q", queue, *common)
    assert again.exit_code == 0, again.stderr
    assert "hold no slot" not in again.stderr
