"""NaN, the infinities, ``-0`` and numbers beyond a double or 64 bits in the real tools'
dumps (io/json_numbers.py, io/importers/classad_dumps.py): one line naming the file and the
line, exit 2, nothing written; or read as the tool would print it.

No tool's JSON holds NaN, ``Infinity`` or a number beyond a double: Slurm's serializer
writes an infinite or NaN float as a number (``src/plugins/serializer/json/
serializer_json.c``, ``INFINITE64``/``NO_VAL64``) and its data parser as ``{"infinite":
true}`` / ``{"set": false}``; HTCondor's ``-json`` and ``-long`` write such a real as
``real("NaN")`` / ``real("INF")`` (``src/classad/jsonSink.cpp``, ``sink.cpp``). A ``-long``
number beyond range is read by HTCondor 25.0's ClassAd lexer as 0 (an integer:
``std::from_chars``'s result is not checked) or infinite (a real: ``strtod``), in
``src/classad/lexer.cpp``; HTCondor never prints one, so fs refuses it rather than read 0.
HTCondor prints a negative zero real as ``-0.0`` (``"%.1f"``): read as zero.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, write_pool
from tests.cli.imports.conftest import CAPTURED, HTCONDOR, SLURM, Refuse

SLURM_26 = SLURM.parent / "slurm-26.05" / "ft4_t2_idle"
#: What the JSON readers say after ``FILE:LINE: NUMBER``.
NOT_JSON = ": expected a finite number (NaN, the infinities and numbers beyond a double"


def _edited(path: Path, old: str, new: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_sshare_json_shares_not_finite(refuse_dump: Refuse, number: str) -> None:
    """``fs import sshare DUMP`` with u6's raw shares NaN or -Infinity was a ValueError
    traceback (``int(nan)``), Infinity and 1e400 read as unset shares; line 441 holds it."""
    dump = _edited(SLURM_26 / "sshare_a_l_json.txt", '"number": 5\n', f'"number": {number}\n')
    refuse_dump("sshare", dump, f":441: {number}{NOT_JSON}")


@pytest.mark.parametrize("number", ["NaN", "-Infinity"])
def test_squeue_json_time_not_finite(refuse_dump: Refuse, number: str) -> None:
    """``fs import squeue DUMP`` took a NaN or -Infinity ``accrue_time`` (line 9) without a
    word."""
    dump = _edited(SLURM_26 / "squeue_json.txt", '"number": 1795890032', f'"number": {number}')
    refuse_dump("squeue", dump, f":9: {number}{NOT_JSON}")


def test_condor_q_json_nan_in_an_attribute_not_read(refuse_dump: Refuse) -> None:
    """``fs import condor-q DUMP``: a NaN anywhere in an ad is refused at its line (an
    attribute fs does not read passed before)."""
    dump = _edited(HTCONDOR / "condor_q.json", '"Cmd"', '"Foo": NaN, "Cmd"')
    refuse_dump("condor-q", dump, f":9: NaN{NOT_JSON}")


@pytest.mark.parametrize(
    ("number", "says"),
    [
        pytest.param(
            "9" * 5000,
            "Priority = 999999999999... (5000 characters): beyond a 64-bit integer, which "
            "HTCondor reads as 0; expected a number HTCondor prints",
            id="5000-digits",
        ),
        pytest.param(
            "99999999999999999999",
            "Priority = 99999999999999999999: beyond a 64-bit integer",
            id="20-digits",
        ),
        pytest.param(
            "1e400",
            "Priority = 1e400: beyond a double, which HTCondor reads as infinite",
            id="1e400",
        ),
    ],
)
def test_condor_userprio_number_beyond_range(refuse_dump: Refuse, number: str, says: str) -> None:
    """``fs import condor-userprio DUMP`` with a 5000-digit Priority said ``Priority = inf``
    at the ad's first line (1); HTCondor's lexer reads such an integer as 0. Now: its own
    line (17), as written, and what HTCondor reads."""
    dump = _edited(
        HTCONDOR / "condor_userprio.long.txt", "Priority = 860.165", f"Priority = {number}"
    )
    refuse_dump("condor-userprio", dump, f":17: {says}")


def test_condor_userprio_negative_zero_is_read(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``Priority = -0.0`` is what HTCondor prints for a negative zero: read."""
    pool = write_pool(tmp_path)
    dump = tmp_path / "up.txt"
    source = HTCONDOR / "condor_userprio.long.txt"
    dump.write_text(_edited(source, "Priority = 860.165", "Priority = -0.0"), encoding="utf-8")
    # (--now the capture's time: its records are valid at LastUpdate 2026-11-23T18:25:23Z)
    args = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", CAPTURED]
    result = run("import", "condor-userprio", str(dump), *args, "--dry-run")
    assert result.exit_code == 0, result.stderr


#: What the ``-json`` reader says of a number beyond range (after ``FILE:LINE: NUMBER``),
#: in the words of ``-long``'s, whose lexer HTCondor's JSON parser shares.
BEYOND_DOUBLE = (
    ": beyond a double, which HTCondor reads as infinite; expected a number HTCondor prints"
)
BEYOND_64 = (
    ": beyond a 64-bit integer, which HTCondor reads as 0; expected a number HTCondor prints"
)


@pytest.mark.parametrize(
    ("number", "says"),
    [
        pytest.param("1e400", BEYOND_DOUBLE, id="1e400"),
        pytest.param("-1E+400", BEYOND_DOUBLE, id="-1E+400"),
        pytest.param("9223372036854775808", BEYOND_64, id="2**63"),
    ],
)
def test_condor_q_json_beyond_range_in_an_attribute_not_read(
    refuse_dump: Refuse, number: str, says: str
) -> None:
    """``fs import condor-q DUMP`` with job 1.0's ``ImageSize`` (line 31), an attribute fs
    does not read, 1e400 or 2**63: imported without a word, where ``-long``'s
    ``ImageSize = 1e400`` and a NaN anywhere were refused. HTCondor reads such a JSON
    number with the ClassAd lexer that reads ``-long`` (``src/classad/lexer.cpp``):
    infinite, or 0."""
    dump = _edited(HTCONDOR / "condor_q.json", '"ImageSize": 45', f'"ImageSize": {number}')
    refuse_dump("condor-q", dump, f":31: {number}{says}")


def test_condor_q_json_largest_integer_is_read(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``ImageSize = 9223372036854775807`` (2**63 - 1, a ClassAd integer) and ``-0`` pass."""
    pool = write_pool(tmp_path)
    dump = tmp_path / "q.json"
    text = _edited(
        HTCONDOR / "condor_q.json", '"ImageSize": 45', '"ImageSize": 9223372036854775807'
    )
    dump.write_text(text.replace('"NumCkpts": 0', '"NumCkpts": -0', 1), encoding="utf-8")
    args = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    result = run("import", "condor-q", str(dump), *args, "--dry-run")
    assert "beyond" not in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("old", "new", "line", "number", "says"),
    [
        # UpdatesLost of slot1@x01 (line 38): an attribute the import drops
        pytest.param('"UpdatesLost": 0', '"UpdatesLost": 1e400', 38, "1e400", BEYOND_DOUBLE, id="ignored"),
        # DetectedCpus of slot1@y01 (line 702), kept in [[machines]] attributes: it said
        # "machines[1].attributes.DetectedCpus: expected a finite number, got inf"
        pytest.param('"DetectedCpus": 2', '"DetectedCpus": 1e400', 702, "1e400", BEYOND_DOUBLE, id="kept"),
        pytest.param(
            '"DetectedCpus": 2', '"DetectedCpus": -99999999999999999999', 702,
            "-99999999999999999999", BEYOND_64, id="kept-64",
        ),
    ],
)  # fmt: skip
def test_condor_status_json_beyond_range(
    refuse_dump: Refuse, old: str, new: str, line: int, number: str, says: str
) -> None:
    """``fs import condor-status DUMP``: a number beyond range is refused at its line in the
    same words, whether the import drops the attribute or keeps it for ClassAd
    evaluation."""
    dump = _edited(HTCONDOR / "condor_status.json", old, new)
    refuse_dump("condor-status", dump, f":{line}: {number}{says}")


def test_condor_history_json_beyond_range(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-history DUMP`` (the condor_q capture's ads) refuses 1e400 in
    ``ImageSize`` (line 31) before it reads the ad; the state is not written."""
    pool = write_pool(tmp_path)
    dump = tmp_path / "h.json"
    text = _edited(HTCONDOR / "condor_q.json", '"ImageSize": 45', '"ImageSize": 1e400')
    dump.write_text(text, encoding="utf-8")
    before = pool["state"].read_bytes()
    args = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    result = run("import", "condor-history", str(dump), *args)
    assert result.exit_code == 2, result.stderr
    assert result.stderr == f"fs: error: {dump}:31: 1e400{BEYOND_DOUBLE}\n"
    assert pool["state"].read_bytes() == before
