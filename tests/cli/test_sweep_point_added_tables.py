"""A sweep axis on a group the config does not have (``groups."group_bb".quota``, a typo of
``group_b``): every point printed fs whatif's warning, '--set groups.group_bb.quota: the
config has no groups.group_bb, so the after side adds it', once per point, in the words of
an option and a side the sweep does not have. Now the spec's check says it once, naming
the axis; the sweep still runs (a new group may be meant)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_sweep import SPEC, spec  # noqa: F401  (the fixture)


def test_an_axis_adding_a_group_is_told_once(
    spec: Path,  # noqa: F811
    tmp_path: Path,
    run: Callable[..., Any],
) -> None:
    """``fs sweep sweep.toml --out runs`` of an axis on ``groups."group_bb".quota``."""
    spec.write_text(SPEC.replace('"group_b"', '"group_bb"'), encoding="utf-8")
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"), "--json")
    assert result.exit_code == 0
    assert result.stderr == (
        f'fs: warning: {spec}: axis 2 (groups."group_bb".quota): the config has no'
        " groups.group_bb, so each point adds it (did you mean 'group_b'?)\n"
    )
