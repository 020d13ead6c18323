"""An import's ``--into`` a config of CRLF lines (written on Windows) keeps them
(io/toml_merge.py): the merge wrote every line with LF, so that the whole file differed
from the one the admin keeps, where it keeps every other line as it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES

QOS = FIXTURES / "slurm-22.05" / "ft2_idle" / "sacctmgr_qos.txt"


def test_crlf_lines_stay_crlf(tmp_path: Path, run: Callable[..., Any]) -> None:
    config = tmp_path / "crlf.toml"
    config.write_bytes(b'[pool]\r\nname = "x"   # the cluster\r\ndefaults = "current"\r\n')
    result = run("import", "sacctmgr", str(QOS), "--into", str(config))
    assert result.exit_code == 0, result.stderr
    data = config.read_bytes()
    assert data.startswith(b'[pool]\r\nname = "x"   # the cluster\r\n')
    assert b"[qos.normal]\r\n" in data and data.count(b"\n") == data.count(b"\r\n")
    again = run("import", "sacctmgr", str(QOS), "--into", str(config))
    assert "(0 added, 0 replaced, 6 unchanged)" in again.stderr
    assert config.read_bytes() == data
    check = run("config", "check", "--config", str(config))
    assert (check.exit_code, check.stderr) == (0, "")


def test_a_byte_order_mark_stays(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import sacctmgr QOS --into bom.toml`` of a config an editor saved with a UTF-8
    byte-order mark: the merge dropped the mark, so that the file differed from the
    admin's in its first bytes. Now it keeps it, and a second merge changes nothing."""
    config = tmp_path / "bom.toml"
    config.write_bytes(b'\xef\xbb\xbf[pool]\nname = "x"\ndefaults = "current"\n')
    result = run("import", "sacctmgr", str(QOS), "--into", str(config))
    assert result.exit_code == 0, result.stderr
    data = config.read_bytes()
    assert data.startswith(b'\xef\xbb\xbf[pool]\nname = "x"\n') and b"[qos.normal]\n" in data
    assert data.count(b"\xef\xbb\xbf") == 1
    again = run("import", "sacctmgr", str(QOS), "--into", str(config))
    assert "(0 added, 0 replaced, 6 unchanged)" in again.stderr
    assert config.read_bytes() == data
    check = run("config", "check", "--config", str(config))
    assert (check.exit_code, check.stderr) == (0, "")
