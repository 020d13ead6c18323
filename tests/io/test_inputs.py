"""The one JSON reader behind jobs files and condor_history dumps, and how each words errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fairshare_cli.errors import InputError, UnreadableInput
from fairshare_cli.io.condor_history import read_condor_history
from fairshare_cli.io.inputs import JSONFault, read_json, refuse_device
from fairshare_cli.io.jobs import load_job_objects


def _write(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "in.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def test_read_json_parses_a_document(tmp_path: Path) -> None:
    assert read_json(_write(tmp_path, '[{"id": "1.0"}]')) == [{"id": "1.0"}]


def test_read_json_reports_where_the_syntax_breaks(tmp_path: Path) -> None:
    with pytest.raises(JSONFault) as info:
        read_json(_write(tmp_path, '[\n  {"id": }\n]'))
    assert (info.value.line, info.value.column) == (2, 10)  # the "}" where a value belongs
    assert info.value.reason == "Expecting value"


def test_read_json_refuses_non_utf8_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"in.json: not UTF-8 text \(byte 1 of a read\)"):
        read_json(_write(tmp_path, b"[\xff]"))
    with pytest.raises(InputError, match=r"File '.*nope.json' does not exist\."):
        read_json(str(tmp_path / "nope.json"))
    with pytest.raises(UnreadableInput, match=r"^File '.*' is a directory\.$"):
        read_json(str(tmp_path))  # (unreadable: an import adds what it reads)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "[1,",
            ": not valid JSON (line 1, column 4: Expecting value); expected a list of job objects",
            id="syntax",
        ),
        pytest.param("{}", ": expected a JSON list of job objects, got an object", id="not-a-list"),
    ],
)
def test_jobs_file_errors(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(InputError) as info:
        load_job_objects(path)
    assert str(info.value) == path + message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # FILE:LINE, as every HTCondor dump reader names bad input
        pytest.param(
            '[{"Owner": "a", "JobStatus": 4},', ":1: truncated JSON: Expecting value", id="syntax"
        ),
        pytest.param(
            '[{"Owner": "alice", "RequestCpus": 1}]',  # (no status, no time: no job's)
            ":1: expected a job ad (with JobStatus, JobCurrentStartDate, CompletionDate or "
            "EnteredCurrentStatus); is this condor_history -json or -long output?",
            id="no-status-nor-time",
        ),
        # an ad of no job (a slot ad, a job object of a jobs file): was skipped, as a job
        # that never ran, and the file imported as 0 records
        pytest.param(
            '[{"Name": "slot1@m", "Cpus": 1}]',
            ":1: expected a job ad (with Owner or User); is this condor_history -json or -long "
            "output?",
            id="slot-ad",
        ),
        pytest.param(
            '"x"',
            ":1: expected 'Attr = value', got '\"x\"'; give condor_history -json or -long output",
            id="not-json-nor-long",
        ),
        pytest.param("[1]", ":1: expected an ad (a JSON object)", id="not-an-ad"),
    ],
)
def test_condor_history_errors(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(InputError) as info:
        list(read_condor_history(path, "dump"))
    assert str(info.value) == "dump" + message


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_refuse_device_refuses_endless_devices_only(tmp_path: Path) -> None:
    """/dev/zero and /dev/urandom are refused (an OSError the readers word as their read
    error); /dev/null, a file and a missing path (which the open then names) pass."""
    for device in ("/dev/zero", "/dev/urandom"):
        with pytest.raises(OSError, match="a device, not a file") as caught:
            refuse_device(device)
        assert caught.value.strerror == "a device, not a file"
    plain = tmp_path / "jobs.json"
    plain.write_text("[]")
    for path in ("/dev/null", plain, tmp_path / "missing.json"):
        refuse_device(path)


_PUT_BACK = """
import sys
from fairshare_cli.io.inputs import refuse_blank_stdin
try:
    refuse_blank_stdin()
except OSError as exc:
    sys.exit(f"refused: {exc.strerror}")
first = sys.stdin.buffer
refuse_blank_stdin()  # (judged once: what was put back is not read again)
assert sys.stdin.buffer is first
data = sys.stdin.buffer.read()
print(len(data), data.count(b"\\n"), data.lstrip()[:4].decode())
"""


@pytest.mark.parametrize(
    ("writer", "out"),
    [
        ("yes '' | head -c 3000000; echo data", f"{3000005} {3000001} data\n"),
        ("yes '' | head -c 3000000", f"{3000000} {3000000} \n"),
        ("printf 'a,b\\n1,2\\n'", "8 2 a,b\n\n"),
    ],
)
def test_a_piped_stdin_is_judged_and_put_back_whole(writer: str, out: str) -> None:
    """A pipe's blank start read to judge it is read again, then the rest, byte for byte."""
    proc = subprocess.run(
        f"({writer}) | {sys.executable} -c '{_PUT_BACK}'", shell=True, capture_output=True,
        text=True, timeout=120, check=False,
    )  # fmt: skip
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, out, "")


def test_a_piped_stdin_of_the_blank_limit_is_refused() -> None:
    """16 MB of blank bytes, piped: refused as a file of them is, the rest never read."""
    proc = subprocess.run(
        f"yes ' ' | {sys.executable} -c '{_PUT_BACK}'", shell=True, capture_output=True,
        text=True, timeout=120, check=False,
    )  # fmt: skip
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == (
        "refused: it starts with 16 MB of whitespace only (no JSON value or record)\n"
    )
