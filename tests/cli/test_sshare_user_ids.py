"""``fs sshare -u 99``: from Slurm 25.11 on sshare names uid 99 ``nobody``
(``uid_to_string_or_null`` returns ``SLURM_AUTH_NOBODY_NAME`` for ``SLURM_AUTH_NOBODY``,
whatever the passwd file says), as it names uid 0 ``root`` from 23.11 on.

Before, ``fs sshare -u 99`` asked the passwd file, and where it has no uid 99 (Debian's
nobody is 65534) refused it: ``fs: error: Invalid user id: 99 (-u 99: no passwd entry has
it; name the user)``. 22.05 asked the passwd file (``getpwuid``), as fs still does for it.
"""

from __future__ import annotations

import pwd
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW

CONFIG = """
[pool]
name = "pool"
[[machines]]
name = "exec"
count = 1
slots = 2
attributes = { Cpus = 1, Memory = 4096 }
partitions = ["batch"]
[partitions.batch]
default = true
[accounts.hep]
shares = 1
users = { alice = 1, nobody = 1 }
"""


def _options(folder: Path, extra: str = "") -> list[str]:
    (folder / "pool.toml").write_text(CONFIG + extra, encoding="utf-8")
    (folder / "state.json").write_text(
        '{"format": "fairshare-cli state", "schema_version": 1}', encoding="utf-8"
    )
    return ["--config", str(folder / "pool.toml"), "--state", str(folder / "state.json"),
            "--now", NOW]  # fmt: skip


def _has_uid_99() -> bool:
    try:
        pwd.getpwuid(99)
    except KeyError:
        return False
    return True


def test_sshare_u_99_is_nobody(tmp_path: Path, run: Callable[..., Any]) -> None:
    options = _options(tmp_path)
    before = (tmp_path / "state.json").read_bytes()
    result = run("sshare", "-P", "-u", "99", "-o", "Account,User", *options)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "Account|User\nroot|\n hep|\n  hep|nobody\n"
    assert (tmp_path / "state.json").read_bytes() == before


@pytest.mark.skipif(_has_uid_99(), reason="this host's passwd file has uid 99")
def test_sshare_u_99_in_2205_asks_the_passwd_file(tmp_path: Path, run: Callable[..., Any]) -> None:
    options = _options(tmp_path, '[priority]\noutput_compat = "22.05"\n')
    before = (tmp_path / "state.json").read_bytes()
    result = run("sshare", "-P", "-u", "99", *options)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: Invalid user id: 99 (-u 99: no passwd entry has it; name the user)\n"
    )
    assert (tmp_path / "state.json").read_bytes() == before
