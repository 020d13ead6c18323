"""``fs import condor-status DUMP --into CONFIG`` on a disk that stays full (or failing)
once the state or the usage history is being written: the config was merged first and put
back by writing its old bytes anew, which the same disk refused, so it stayed merged (its
machines without their claims); and a commit of the history that failed, its rollback too,
left ``S.history.sqlite-journal``, which made every ``fs whatif`` exit 1 until the next
writer rolled it back. Now the config is put back by renaming a hard link to the old file
(no new space), and ``fs whatif`` rolls a hot journal back as SQLite's next opener does.

The faults are real: ``tests/fixtures/fault_shim.c`` (``LD_PRELOAD``) fails every
``write``/``fsync`` of a regular file from the Nth on, with ENOSPC or EIO.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, needs_linux_cc

FLAT = FIXTURES / "htcondor-25.0" / "flat_users"
AT, LATER = "2026-11-23T18:25:33Z", "2026-11-23T18:26:00Z"
WHATIF = ["whatif", "--set", "accountant.priority_halflife=3600", "userprio"]

pytestmark = needs_linux_cc


def _half_free(dump: Path) -> None:
    """The capture with every other claimed slot unclaimed (its claim released: an end
    row for the history) and one machine more (a change for the merge)."""
    ads = json.loads((FLAT / "condor_status.json").read_text(encoding="utf-8"))
    claimed = [ad for ad in ads if ad.get("State") == "Claimed"]
    for ad in claimed[::2]:
        ad.update(State="Unclaimed", Activity="Idle")
        for key in ("RemoteUser", "RemoteOwner", "JobId", "AccountingGroup", "JobStart"):
            ad.pop(key, None)
    extra = {**ads[0], "Name": "slot1@new.example", "Machine": "new.example"}
    dump.write_text(json.dumps([*ads, extra]), encoding="utf-8")


@pytest.mark.parametrize(
    ("errno", "afters"), [(28, (2, 6, 18)), (5, (4, 12, 20))], ids=["ENOSPC", "EIO"]
)
def test_a_lasting_disk_failure_leaves_both_files_and_whatif_works(
    fault_shim: Path, tmp_path: Path, run: Callable[..., Any], errno: int, afters: tuple[int, ...]
) -> None:
    """``fs import condor-status free.json --into htc.toml --replace --state s.json`` with
    the Nth write or fsync on failing for good (N among the state's, the config's and the
    history's writes): a run that fails exits 1 with one line, leaves htc.toml and s.json
    byte for byte and no file of its own beside them but SQLite's journal, and
    ``fs whatif ... userprio`` then prints what it printed before (exit 0)."""
    for after in afters:
        folder = tmp_path / f"after-{after}"
        folder.mkdir()
        cfg, state = folder / "htc.toml", folder / "s.json"
        assert run("import", "condor-config", str(FLAT / "condor_config"), "--into", str(cfg))
        first = run("import", "condor-status", str(FLAT / "condor_status.json"), "--into",
                    str(cfg), "--state", str(state), "--now", AT)  # fmt: skip
        assert first.exit_code == 0, first.stderr
        _half_free(folder / "free.json")
        views = [*WHATIF, "--config", str(cfg), "--state", str(state), "--now", LATER]
        shown = run(*views)
        assert shown.exit_code == 0, shown.stderr
        before = cfg.read_bytes(), state.read_bytes()
        names = sorted(p.name for p in folder.iterdir())
        env = {**os.environ, "LD_PRELOAD": str(fault_shim), "FAULT_OP": "write,fsync",
               "FAULT_ERRNO": str(errno), "FAULT_AFTER": str(after),
               "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
        result = subprocess.run(
            [sys.executable, "-m", "fairshare_cli", "import", "condor-status",
             str(folder / "free.json"), "--into", str(cfg), "--replace", "--state",
             str(state), "--now", LATER],
            env=env, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        if result.returncode == 0:
            continue
        assert result.returncode == 1, (after, result.stderr)
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("fs: error: cannot write "), lines
        assert (cfg.read_bytes(), state.read_bytes()) == before, after
        left = sorted(p.name for p in folder.iterdir() if p.name != "s.history.sqlite-journal")
        assert left == names, after
        again = run(*views)
        assert (again.exit_code, again.stdout) == (0, shown.stdout), (after, again.stderr)
        assert not (folder / "s.history.sqlite-journal").exists()
