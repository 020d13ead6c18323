"""A number beyond what Python reads in a real tool's dump is one line, exit 2: a whole
number of more than 4,300 digits crashed ``int()`` (a ValueError traceback), one of 400
``float()`` (an OverflowError) (io/importers: classad_dumps, condor_userprio, sshare,
common.json_document)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cli.imports.conftest import HTCONDOR, SLURM, Refuse

SLURM_26 = SLURM.parent / "slurm-26.05" / "ft4_t2_idle"


#: A ClassAd's refusal: HTCondor 25.0's lexer reads an integer beyond 64 bits as 0
#: (``std::from_chars``'s result unchecked, src/classad/lexer.cpp), which no tool prints.
_CLASSAD = " characters): beyond a 64-bit integer, which HTCondor reads as 0"


def _numbers(path: Path, digits: int) -> bytes:
    """``path`` with every number of it a whole number of ``digits`` ones."""
    return re.sub(rb"(?<![\w.])\d+(\.\d+)?(?![\w.])", b"1" * digits, path.read_bytes())


@pytest.mark.parametrize(
    ("kind", "source", "digits", "says"),
    [
        ("condor-status", HTCONDOR / "condor_status.long.txt", 5000, _CLASSAD),
        ("condor-q", HTCONDOR / "condor_q.long.txt", 5000, _CLASSAD),
        ("condor-userprio", HTCONDOR / "condor_userprio.long.txt", 400, _CLASSAD),
        ("condor-userprio", HTCONDOR / "condor_userprio.long.txt", 5000, _CLASSAD),
        ("squeue", SLURM_26 / "squeue_json.txt", 5000, "not valid JSON (a whole number too long)"),
        ("sshare", SLURM_26 / "sshare_json.txt", 5000, "not valid JSON (a whole number too long)"),
        ("sshare", SLURM / "ft1_running" / "sshare_a_l_P.txt", 5000, "within 64 bits, got"),
    ],
)
def test_a_number_beyond_what_python_reads_is_refused(
    refuse_dump: Refuse, kind: str, source: Path, digits: int, says: str
) -> None:
    result = refuse_dump(kind, _numbers(source, digits), says)
    assert len(result.stderr) < 400
