"""A streamed JSON array of ads (``fs import condor-q``, ``condor-status``,
``condor-history``) with a long line: an error before it is found without reading it."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.errors import InputError
from fairshare_cli.io.json_stream import CHUNK, iter_json_objects
from tests.cli.conftest import common, write_pool

#: A line far longer than a chunk, after a character no JSON value starts with.
LONG = "[\nA = " + "x" * (24 * CHUNK) + "\n]\n"


class _Counted(io.StringIO):
    """A text stream that counts the characters read from it."""

    taken = 0

    def read(self, size: int | None = -1) -> str:
        text = super().read(size)
        self.taken += len(text)
        return text


def _junk(label: str, line: int) -> InputError:
    return InputError(f"{label}:{line}: junk")


def test_a_syntax_error_reads_no_further() -> None:
    """The reader read chunk after chunk to the end of the file on any error, each time
    copying and scanning all it held: 200 MB after the bad 'A' took five minutes."""
    stream = _Counted(LONG)
    with pytest.raises(InputError, match=r"^q\.json:2: not valid JSON: Expecting value$"):
        list(iter_json_objects(stream, "q.json", _junk))
    assert stream.taken <= CHUNK


def test_a_cut_string_still_reads_on() -> None:
    """A string the chunk cut is read to its end (its error names where it starts), and
    an ad longer than many chunks is read whole."""
    big = '[{"ClusterId": 1, "ProcId": 0, "Big": "' + "y" * (5 * CHUNK) + '"}]'
    ads = list(iter_json_objects(io.StringIO(big), "q.json", _junk))
    assert [len(ad["Big"]) for _, ad in ads] == [5 * CHUNK]


def test_fs_import_condor_q_of_a_long_bad_line(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-q q.json`` with a 24-MB line after '[': one line, exit 2, the
    state as it was."""
    env = write_pool(tmp_path)
    dump = tmp_path / "q.json"
    dump.write_text(LONG, encoding="utf-8")
    before = env["state"].read_bytes()
    result = run("import", "condor-q", str(dump), *common(env))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {dump}:2: not valid JSON: Expecting value\n"
    assert env["state"].read_bytes() == before
