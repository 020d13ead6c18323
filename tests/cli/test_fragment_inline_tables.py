"""``fs import ... --into CONFIG`` where CONFIG writes the table merged into as an inline
table (``dirac = { vo = "lhcb" }``, ``priority = { type = "multifactor" }``): a table the
import adds inside it goes in inline too (cli/fragment.py, io/toml_merge.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.io.toml import loads
from tests.conftest import FIXTURES

DIRAC_CFG = FIXTURES / "dirac-cfg" / "dirac.cfg"
SLURM_CONF = FIXTURES / "slurm-22.05" / "config" / "slurm.conf.fairtree"


@pytest.mark.parametrize(
    ("kind", "dump", "inline", "inside"),
    [
        pytest.param("dirac-cfg", DIRAC_CFG, 'dirac = { vo = "lhcb" }', "groups", id="dirac"),
        pytest.param(
            "slurm-conf", SLURM_CONF, 'priority = { type = "multifactor" }', "weights", id="slurm"
        ),
    ],
)
def test_a_table_added_inside_an_inline_table_is_inline(
    tmp_path: Path, run: Callable[..., Any], kind: str, dump: Path, inline: str, inside: str
) -> None:
    """``fs import dirac-cfg dirac.cfg --into pool.toml`` of a pool.toml that wrote
    ``dirac = { vo = "lhcb" }`` ended in a traceback ("ValueError: Inline tables cannot
    contain a table", exit 1): its ``[dirac.groups...]`` tables went in as tables. They
    go in inline, the file stays valid TOML and a valid config, and a second import
    changes nothing."""
    config = tmp_path / "pool.toml"
    config.write_text(f'{inline}\n[pool]\nname = "x"\ndefaults = "current"\n', encoding="utf-8")
    line = ["import", kind, str(dump), "--into", str(config), "--replace"]
    first = run(*line)
    assert (first.exit_code, first.stdout) == (0, ""), first.stderr
    table = inline.split(" ", 1)[0]
    merged = loads(config.read_text(encoding="utf-8"))
    assert inside in merged[table]
    assert config.read_text(encoding="utf-8").startswith(f"{inline[:-2]}, ")
    assert run("config", "check", "--config", str(config)).exit_code == 0
    after = config.read_bytes()
    again = run(*line)
    assert again.exit_code == 0
    assert "(0 added, 0 replaced, " in again.stderr
    assert config.read_bytes() == after
