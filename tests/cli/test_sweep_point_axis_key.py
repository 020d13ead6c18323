"""A sweep axis whose key the config refuses (cli/sweep_point.py): the refusal named the
base config file, which does not hold the key; it now names the spec's ``[[axis]]``, as
``fs whatif --set`` names ``--set``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import NOW, write_pool


def test_a_mistyped_axis_key_is_blamed_on_the_axis(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs sweep sweep.toml --out runs`` of an axis ``accountant.priority_halflif`` said
    "pool.toml: unknown key 'accountant.priority_halflif'"; now "[[axis]]: unknown key".
    Exit 2, no folder made, the files unchanged."""
    pool = write_pool(tmp_path)
    work = tmp_path / "w.json"
    work.write_text(json.dumps([{"id": "1.0", "owner": "alice", "run_time": 60}]), "utf-8")
    spec = tmp_path / "sweep.toml"
    spec.write_text(
        f'config = "pool.toml"\nstate = "state.json"\nworkload = "w.json"\nnow = "{NOW}"\n'
        'until = "600"\n[[axis]]\nkey = "accountant.priority_halflif"\nvalues = [60]\n',
        encoding="utf-8",
    )
    files = [pool["config"], pool["state"], work, spec]
    before = [f.read_bytes() for f in files]
    result = run("sweep", str(spec), "--out", str(tmp_path / "runs"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {spec}: point 0 (accountant.priority_halflif=60): [[axis]]: unknown key"
        " 'accountant.priority_halflif' (did you mean 'priority_halflife'?); known keys:"
        " priority_halflife, default_prio_factor, nice_user_prio_factor, remote_prio_factor\n"
    )
    assert [f.read_bytes() for f in files] == before
    assert not (tmp_path / "runs").exists()
