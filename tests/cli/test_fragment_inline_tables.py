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


def test_a_table_added_below_dotted_keys_keeps_its_name(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import dirac-cfg dirac.cfg --into pool.toml`` of a pool.toml whose ``[dirac]``
    wrote ``groups.lhcb_user.job_share = 1000``: tomlkit wrote the groups the import added
    as ``[groups.lhcb_prod]``, a table of another name, and the merge was refused blaming
    the file for a key it never held (``unknown key 'groups."lhcb_prod".job_share'``,
    exit 2). They go in inline below the dotted key, under their names."""
    config = tmp_path / "pool.toml"
    text = '[pool]\nname = "x"\ndefaults = "current"\n[dirac]\ngroups.lhcb_user.job_share = 5\n'
    config.write_text(text, encoding="utf-8")
    result = run("import", "dirac-cfg", str(DIRAC_CFG), "--into", str(config), "--replace")
    assert (result.exit_code, result.stdout) == (0, ""), result.stderr
    written = config.read_text(encoding="utf-8")
    assert "groups.lhcb_user.job_share = 1000\n" in written
    assert "groups.lhcb_prod = {job_share = 300, job_sharing = true, " in written
    groups = loads(written)["dirac"]["groups"]
    assert set(groups) == {"lhcb_user", "lhcb_prod", "lhcb_mc", "lhcb_data", "lhcb_admin"}
    assert run("config", "check", "--config", str(config)).exit_code == 0
