"""An import's ``--into`` of a long array (io/toml_values.py ``leaf``): 8,000 DIRAC CPU
segments took 12 s to merge, tomlkit re-indexing the array at each value it appended; the
array is now parsed from its text, and the file is the one the merge wrote before."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

SEGMENTS = list(range(360, 8360))
CFG = (
    "Operations\n{\n  Defaults\n  {\n    JobScheduling\n    {\n"
    f"      taskQueueCPUTimeIntervals = {', '.join(map(str, SEGMENTS))}\n"
    "    }\n  }\n}\n"
)


def test_eight_thousand_segments_merge(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import dirac-cfg big.cfg --into pool.toml``, then again: the segments are the
    config's, on one line as tomlkit writes an array, and the second merge finds them."""
    cfg, config = tmp_path / "big.cfg", tmp_path / "pool.toml"
    cfg.write_text(CFG, encoding="utf-8")
    result = run("import", "dirac-cfg", str(cfg), "--into", str(config))
    assert result.exit_code == 0, result.stderr
    text = config.read_text(encoding="utf-8")
    line = f"cpu_segments = [{', '.join(map(str, SEGMENTS))}]\n"
    assert line in text and f"{line}\n[dirac.groups]\n" in text
    again = run("import", "dirac-cfg", str(cfg), "--into", str(config))
    assert "dirac.cpu_segments, dirac.correction.enabled, dirac.correction.instances unchanged" in (
        again.stderr
    )
    assert config.read_text(encoding="utf-8") == text
