"""``text_lines`` (io/importers/common.py) checks and decodes a block of lines at once,
and line by line only where the block holds a fault: what it yields, and where it stops
with which error, is what the line-by-line reading gave (:func:`reference`), for any
bytes; and a fault is named at its line after the lines before it were yielded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.errors import InputError
from fairshare_cli.io import inputs
from fairshare_cli.io.importers import common


def reference(data: bytes, name: str, expected: str, whole: bool) -> Iterator[tuple[int, str]]:
    """The line-by-line reading: each line checked for a NUL byte and UTF-8, the first
    for a byte-order mark, and (``whole``) a last line without its newline refused."""
    first = None
    raws = data.split(b"\n")
    raws = [raw + b"\n" for raw in raws[:-1]] + ([raws[-1]] if raws[-1] else [])
    for number, raw in enumerate(raws, 1):
        if b"\0" in raw:
            raise InputError(f"{name}:{number}: binary data; expected {expected}")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{name}:{number}: not UTF-8 text; expected {expected}") from None
        if number == 1:
            common.refuse_bom(text, name)
        if first is None and text.strip() and not common.is_prompt(text):
            first = text.lstrip()[:1]
        yield number, text.rstrip("\r\n")
        if whole and first not in ("{", "[") and not raw.endswith(b"\n") and text.strip():
            raise common.cut_capture(name, number, text, expected)


def outcome(lines: Iterator[tuple[int, str]]) -> tuple[list[tuple[int, str]], str | None]:
    """The lines yielded, and the error that ended them (None: none)."""
    got: list[tuple[int, str]] = []
    try:
        for line in lines:
            got.append(line)
    except InputError as exc:
        return got, str(exc)
    return got, None


PIECES = st.sampled_from(
    [b"a", b"b c", b"\n", b"\n", b"\r", b"\0", b"\xff", b"\xc3\xa9", b"\xc3", b"\xef\xbb\xbf",
     b" ", b"$ sshare", b"{", b"[", b"x|y|1.5"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(PIECES, max_size=40), whole=st.booleans(), block=st.sampled_from([8, 64]))
def test_text_lines_reads_as_line_by_line(
    pieces: list[bytes], whole: bool, block: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Any bytes, in blocks of 8 or 64 bytes (several blocks a file): the same lines and
    the same error, after the same lines."""
    data = b"".join(pieces)
    if data.lstrip()[:1] in (b"[", b"{") or (data and not data.strip(b"\0")):
        data = b"x" + data  # (a JSON document is read whole; zeros only are no text, at open)
    path = tmp_path_factory.mktemp("t") / "dump.txt"
    path.write_bytes(data)
    original = inputs.BLOCK
    inputs.BLOCK = block
    try:
        got = outcome(common.text_lines(str(path), "d.txt", "a dump", whole))
    finally:
        inputs.BLOCK = original
    assert got == outcome(reference(data, "d.txt", "a dump", whole))


def test_a_fault_is_named_after_the_lines_before_it(tmp_path: Path) -> None:
    """A NUL byte on line 3 of a block: lines 1 and 2 are yielded first (a reader may
    refuse the header on line 1 before it), then line 3 is named."""
    path = tmp_path / "d.txt"
    path.write_bytes(b"head\nrow\nbad\0row\nmore\n")
    assert outcome(common.text_lines(str(path), None, "a dump")) == (
        [(1, "head"), (2, "row")],
        f"{path}:3: binary data; expected a dump",
    )


def test_a_cut_last_line_is_refused_in_a_whole_dump(tmp_path: Path) -> None:
    """The last line without its newline, in a tool's output (``whole``)."""
    path = tmp_path / "d.txt"
    path.write_bytes(b"Account|User\nroot||34")
    lines, error = outcome(common.text_lines(str(path), "d.txt", "sshare output", whole=True))
    assert lines == [(1, "Account|User"), (2, "root||34")]
    assert error is not None and error.startswith("d.txt:2: the file ends inside a line")
