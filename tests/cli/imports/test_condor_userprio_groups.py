"""``fs import condor-userprio`` of a dump whose groups the config lacks (imported before
``fs import condor-config``): the records are kept, and the summary names the groups and
the import that brings them: till then fs userprio lists their users outside any group."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES

POOL, AT = FIXTURES / "htcondor-25.0" / "flat_users", "2026-11-23T18:25:33Z"
DUMP = str(POOL / "condor_userprio.long_allusers.txt")


def test_groups_the_config_lacks_are_named(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs import condor-userprio condor_userprio.long_allusers.txt into a config of no
    [groups] said only 'Imported 9 accountant records (2 groups) ...', and fs userprio
    --allusers then listed group_ops.ops@htc.test flat with no group row, no word why;
    now the summary names group_ops and fs import condor-config. Once the config has it,
    the summary says no more."""
    cfg, state = tmp_path / "htc.toml", tmp_path / "htc.json"
    cfg.write_text('[pool]\ndefaults = "current"\n')
    common = ["--config", str(cfg), "--state", str(state), "--now", AT]
    result = run("import", "condor-userprio", DUMP, *common)
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == (
        f"Imported 9 accountant records (2 groups) from {DUMP} into {state}; 1 group the "
        "config does not have: group_ops (fs import condor-config of the pool's GROUP_NAMES "
        "brings it; till then fs userprio lists its users outside any group)\n"
    )
    dump = str(POOL / "condor_config_val.dump.txt")
    assert run("import", "condor-config", dump, "--into", str(cfg)).exit_code == 0
    again = run("import", "condor-userprio", DUMP, *common)
    assert again.exit_code == 0, again.stderr
    assert again.stderr == f"Imported 9 accountant records (2 groups) from {DUMP} into {state}\n"
