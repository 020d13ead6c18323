"""``fs import squeue`` of a dump whose job names an account, or a user in an account, that
the config's ``[accounts]`` (which holds other accounts) lacks: refused, as before, but now
naming ``fs import sacctmgr``, which brings the associations (it said only 'user "u3" has no
association in account "c"', with no word of what to type)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

CAPTURE = REPO / "tests" / "fixtures" / "slurm-22.05"
DUMP = str(CAPTURE / "ft1_running" / "scontrol_show_jobs.txt")


def _cluster(tmp_path: Path, run: Callable[..., Any], edit: tuple[str, str]) -> Path:
    """The capture's config (slurm.conf, sacctmgr's associations and QOS), edited."""
    config = tmp_path / "c.toml"
    conf = str(CAPTURE / "config" / "slurm.conf.fairtree")
    assert run("import", "slurm-conf", conf, "--into", str(config)).exit_code == 0
    for dump in ("sacctmgr_assoc_tree.txt", "sacctmgr_qos.txt"):
        listing = str(CAPTURE / "ft1_running" / dump)
        assert run("import", "sacctmgr", listing, "--into", str(config)).exit_code == 0
    text = config.read_text(encoding="utf-8")
    assert edit[0] in text
    config.write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
    return config


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        pytest.param(
            ("users = {u2 = 1, u3 = 1}", "users = {u2 = 1}"),
            'job 8: user "u3" has no association in account "c" ([accounts.c] lists no user'
            " u3: fs import sacctmgr of sacctmgr show assoc brings the associations)",
            id="user",
        ),
        pytest.param(
            ("[accounts.c]", "[accounts.cc]"),
            'job 3: unknown account "c" (the config has no [accounts.c]: fs import sacctmgr'
            " of sacctmgr show assoc brings it)",
            id="account",
        ),
    ],
)
def test_a_missing_association_names_fs_import_sacctmgr(
    tmp_path: Path, run: Callable[..., Any], edit: tuple[str, str], why: str
) -> None:
    """``fs import squeue scontrol_show_jobs.txt`` where the config lacks u3 in account c
    (or account c): exit 2, one line naming the import that brings it; nothing written."""
    config, state = _cluster(tmp_path, run, edit), tmp_path / "c.json"
    before = config.read_bytes()
    result = run(
        "import", "squeue", DUMP, "--last-decay", "2026-11-21T23:13:20Z", "--config",
        str(config), "--state", str(state), "--now", "2026-11-21T23:14:06Z",
    )  # fmt: skip
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {DUMP}: {why}\n"
    assert not state.exists()
    assert config.read_bytes() == before
