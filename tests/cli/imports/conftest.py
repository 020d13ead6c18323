"""What the ``fs import KIND`` tests share: a pool (tests/cli/conftest.py's) with the real
captures at hand, and the check that a dump of the wrong kind is refused unwritten."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, refused, write_pool
from tests.conftest import FIXTURES

HTCONDOR = FIXTURES / "htcondor-25.0" / "flat_users"
SLURM = FIXTURES / "slurm-22.05"
#: When the HTCondor captures were taken (condor_status and condor_userprio); a dump is of
#: that time, and an import of it needs a --now no earlier.
CAPTURED = "2026-11-23T18:25:33Z"
#: Another tool's dump of each kind, to hand to the importers that do not read it.
OTHER_DUMPS = {
    "condor_status -json": HTCONDOR / "condor_status.json",
    "condor_q -json": HTCONDOR / "condor_q.json",
    "condor_userprio -l": HTCONDOR / "condor_userprio.long.txt",
    "condor_config": HTCONDOR / "condor_config",
    "slurm.conf": SLURM / "config" / "slurm.conf.classic",
    "sacctmgr": SLURM / "cl1_idle" / "sacctmgr_assoc_tree.txt",
    "sshare": SLURM / "cl1_idle" / "sshare_a_l_P.txt",
    "dirac.cfg": FIXTURES / "dirac-cfg" / "dirac.cfg",
}
#: Text that is no tool's output.
GARBAGE = "hello world\n%garbage$$ \n"

Refuse = Callable[..., Any]


@pytest.fixture
def refuse_dump(tmp_path: Path, run: Callable[..., Any]) -> Refuse:
    """``refuse_dump(kind, content, *expected)``: ``fs import KIND FILE`` with the pool's
    config and state (and ``--into`` the config, ``--replace``, for the kinds that take
    it) refuses FILE holding ``content`` (text, bytes, or a path to copy): exit 2, one
    line naming FILE and each of ``expected``, nothing on stdout; neither the state nor
    the config changes.
    """

    def check(kind: str, content: str | bytes | Path, *expected: str, into: bool = False) -> Any:
        pool = write_pool(tmp_path)
        dump = tmp_path / "dump.txt"
        if isinstance(content, Path):
            dump.write_bytes(content.read_bytes())
        elif isinstance(content, bytes):
            dump.write_bytes(content)
        else:
            dump.write_text(content, encoding="utf-8")
        before = (pool["state"].read_bytes(), pool["config"].read_bytes())
        args = ["import", kind, str(dump)]
        if into:
            args += ["--into", str(pool["config"]), "--replace"]
        if kind in STATE_KINDS:
            args += ["--state", str(pool["state"]), "--now", NOW]
            if not into:
                args += ["--config", str(pool["config"])]
        result = run(*args)
        refused(result, str(dump), *expected)
        assert result.stdout == ""
        assert (pool["state"].read_bytes(), pool["config"].read_bytes()) == before
        return result

    return check


#: The kinds that write the state (the others only make config fragments).
STATE_KINDS = frozenset(
    ("condor-status", "condor-q", "condor-userprio", "scontrol-assoc", "squeue", "sshare")
)
