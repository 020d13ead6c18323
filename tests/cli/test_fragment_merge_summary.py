"""What an import's ``--into`` merge did, said plainly on its summary line
(cli/fragment.py): ``fs import condor-status slots.json --into pool.toml`` said "24 slots
on 2 [[machines]] entries, 18 claimed (1 added, 0 replaced, 0 unchanged)", the 1 being
the config's one ``machines`` key, not a machine."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import FIXTURES

SLOTS = FIXTURES / "htcondor-25.0" / "flat_users" / "condor_status.json"
NOW = "2026-11-23T18:25:33Z"


def _import(tmp_path: Path, *more: str) -> tuple[int, str]:
    """``fs import condor-status slots.json --into pool.toml --now NOW`` (state beside)."""
    args = ["import", "condor-status", str(tmp_path / "slots.json"), "--into"]
    args += [str(tmp_path / "pool.toml"), "--state", str(tmp_path / "state.json"), "--now", NOW]
    result = CliRunner().invoke(cli, [*args, *more])
    return result.exit_code, result.stderr.splitlines()[0]


def test_the_merge_names_the_keys_it_touched(tmp_path: Path) -> None:
    """The capture's 24 slots (on 2 startds, 18 claimed) are one config key, ``machines``
    (an array of 2 tables): added to a new config, unchanged by the same dump again, and
    replaced (``--replace``) by a dump without the capture's last slot ad (23 slots)."""
    ads = json.loads(SLOTS.read_text(encoding="utf-8"))
    (tmp_path / "slots.json").write_text(json.dumps(ads), encoding="utf-8")
    head = f"merged into {tmp_path / 'pool.toml'}: condor-status {tmp_path / 'slots.json'}: "
    ignored = "; ignored 1: SlotWeight (expression)"
    assert _import(tmp_path) == (
        0, f"{head}24 slots on 2 [[machines]] entries, 18 claimed (machines added){ignored}"
    )  # fmt: skip
    assert _import(tmp_path) == (
        0, f"{head}24 slots on 2 [[machines]] entries, 18 claimed (machines unchanged){ignored}"
    )  # fmt: skip
    (tmp_path / "slots.json").write_text(json.dumps(ads[:-1]), encoding="utf-8")
    code, line = _import(tmp_path, "--replace")
    assert code == 0
    assert line.startswith(f"{head}23 slots on 2 [[machines]] entries, ")
    assert line.endswith(f" claimed (machines replaced){ignored}")
