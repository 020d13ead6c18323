"""``fs sprio -u`` with a uid, and with ``nobody``, as sprio's ``_build_user_list`` reads
them through ``uid_from_string`` (``src/common/uid.c``).

Before, ``fs sprio -u 0`` said ``fs: warning: Invalid user: 0`` and left root out, and
``fs sprio -u nobody`` listed nobody's jobs. ``uid_from_string`` takes a name the passwd
file knows (to fs: a user with an association or a job), else a uid: ``strtol`` of the
whole item (white space and a sign first), 0 to ``UINT32_MAX`` (22.05: ``INT_MAX``), that
the passwd file has; sprio then lists that uid's jobs (here: the jobs of its passwd
name). From Slurm 25.11 on (d340683180) it refuses ``nobody`` first
(``SLURM_AUTH_NOBODY``), so sprio says ``Invalid user: nobody`` and leaves it out.
"""

from __future__ import annotations

import pwd
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import SPRIO_POOL, sprio_files

NOW_EPOCH = 1795262400
ACCOUNTS = """
[accounts.hep]
shares = 1
users = { alice = 1, bob = 1, root = 1, nobody = 1 }
"""
JOBS = [
    {"id": str(number), "owner": owner, "account": "hep", "submit_time": NOW_EPOCH - 600}
    for number, owner in ((2, "alice"), (3, "bob"), (4, "root"), (5, "nobody"))
]
FORMAT = ["-o", "%.5i %.8u"]


def _rows(*pairs: tuple[int, str]) -> str:
    return "JOBID     USER\n" + "".join(f"{job:>5} {user:>8}\n" for job, user in pairs)


@pytest.mark.skipif(pwd.getpwuid(0).pw_name != "root", reason="uid 0 is not root here")
@pytest.mark.parametrize("uid", ["0", " +0", "-0"])
def test_sprio_u_takes_a_uid(uid: str, tmp_path: Path, run: Callable[..., Any]) -> None:
    options = sprio_files(tmp_path, JOBS, SPRIO_POOL + ACCOUNTS)
    before = (tmp_path / "state.json").read_bytes()
    result = run("sprio", *FORMAT, "-u", f"{uid},bob", *options)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == _rows((3, "bob"), (4, "root"))
    assert (tmp_path / "state.json").read_bytes() == before


@pytest.mark.parametrize("uid", ["4294967296", "0x", "1e3"])
def test_sprio_u_refuses_what_strtol_does_not_take(
    uid: str, tmp_path: Path, run: Callable[..., Any]
) -> None:
    result = run(
        "sprio", *FORMAT, "-u", f"{uid},bob", *sprio_files(tmp_path, JOBS, SPRIO_POOL + ACCOUNTS)
    )
    assert (result.exit_code, result.stderr) == (0, f"fs: warning: Invalid user: {uid}\n")
    assert result.stdout == _rows((3, "bob"))


def test_sprio_u_nobody_is_refused_from_25_11(tmp_path: Path, run: Callable[..., Any]) -> None:
    options = sprio_files(tmp_path, JOBS, SPRIO_POOL + ACCOUNTS)
    result = run("sprio", *FORMAT, "-u", "nobody,bob", *options)
    assert (result.exit_code, result.stderr) == (0, "fs: warning: Invalid user: nobody\n")
    assert result.stdout == _rows((3, "bob"))


def test_sprio_u_nobody_in_2205(tmp_path: Path, run: Callable[..., Any]) -> None:
    config = SPRIO_POOL.replace("[priority]\n", '[priority]\noutput_compat = "22.05"\n')
    options = sprio_files(tmp_path, JOBS, config + ACCOUNTS)
    result = run("sprio", *FORMAT, "-u", "nobody,bob", *options)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == _rows((3, "bob"), (5, "nobody"))


def test_sprio_u_a_name_the_host_knows_is_no_invalid_user(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs sprio -u daemon,bob``: ``uid_from_string`` finds daemon in the host's passwd
    file, so sprio lists its jobs (none) and says nothing; fs said ``Invalid user:
    daemon``, as it knew only the pool's users."""
    if "daemon" not in {entry.pw_name for entry in pwd.getpwall()}:
        pytest.skip("no user daemon on this host")
    options = sprio_files(tmp_path, JOBS, SPRIO_POOL + ACCOUNTS)
    result = run("sprio", *FORMAT, "-u", "daemon,bob", *options)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == _rows((3, "bob"))
