"""A real tool's dump saved with a byte-order mark (a Windows editor's), given to ``fs
import KIND`` (io/importers/common.py's ``refuse_bom``, for every dump reader): the mark
was read as part of the first word, so each kind refused the file with a message about
text that looked right (``expected 'Attr = value', got '\\ufeff['``, ``expected Key=Value,
got "\\ufeff"``). Now the one line says what is wrong, as ``fs import history`` does; exit
2, the state and the config unchanged."""

from __future__ import annotations

import pytest

from tests.cli.imports.conftest import HTCONDOR, SLURM, Refuse
from tests.conftest import FIXTURES

DUMPS = {
    "condor-config": HTCONDOR / "condor_config",
    "condor-status": HTCONDOR / "condor_status.json",
    "condor-q": HTCONDOR / "condor_q.long.txt",
    "condor-userprio": HTCONDOR / "condor_userprio.long.txt",
    "slurm-conf": SLURM / "config" / "slurm.conf.fairtree",
    "sacctmgr": SLURM / "ft1_running" / "sacctmgr_assoc_tree.txt",
    "sshare": SLURM / "ft1_running" / "sshare_a_l_P.txt",
    "scontrol-assoc": SLURM / "ft1_running" / "scontrol_assoc_mgr.txt",
    "squeue": FIXTURES / "slurm-26.05" / "ft4_t2_idle" / "squeue_json.txt",
    "sacct": SLURM / "sacct_jobs_1_13.txt",
}
#: The kinds that make config fragments, merged here ``--into`` the pool's config.
FRAGMENTS = ("condor-config", "slurm-conf", "sacctmgr")


@pytest.mark.parametrize("kind", sorted(DUMPS))
def test_a_dump_with_a_byte_order_mark_is_refused_saying_so(refuse_dump: Refuse, kind: str) -> None:
    text = b"\xef\xbb\xbf" + DUMPS[kind].read_bytes()
    refuse_dump(
        kind,
        text,
        ":1: the file starts with a byte-order mark (U+FEFF); save it as UTF-8 without one",
        into=kind in FRAGMENTS,
    )
