"""What the dump readers share (io/importers/common.py): a dump read in pieces."""

from __future__ import annotations

import io
import itertools
import os
import sys
import threading
from pathlib import Path

import pytest

from fairshare_cli.errors import InputError
from fairshare_cli.io.importers import common

TEXT = "a\nJobId=1\nb\nc\nJobId=2\nJobId=3 and more than sixteen\nx JobId=4\n"


@pytest.mark.parametrize("piece", [4, 16, 64])
def test_pieces_are_cut_before_a_mark(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, piece: int
) -> None:
    """Each piece but the first starts at a line starting with the mark; the pieces are
    the file (a piece with no mark in it grows until it holds one, or to the end)."""
    monkeypatch.setattr(common, "PIECE", piece)
    path = tmp_path / "t.txt"
    path.write_text(TEXT)
    pieces = list(common.text_pieces(str(path), mark=b"\nJobId="))
    assert "".join(pieces) == TEXT
    assert len(pieces) > 1
    for _, after in itertools.pairwise(pieces):
        assert after.startswith("JobId=")


def _pipe_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    """stdin as a pipe holding ``data`` (not seekable: its lines counted as read)."""
    read, write = os.pipe()

    def feed() -> None:
        with os.fdopen(write, "wb") as out:
            out.write(data)

    threading.Thread(target=feed, daemon=True).start()
    stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(read, "rb")))
    monkeypatch.setattr(sys, "stdin", stdin)


@pytest.mark.parametrize("source", ["file", "pipe"])
def test_a_bad_byte_in_a_later_piece_names_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    """Line 9 holds a NUL byte, line 11 a byte that is not UTF-8, both past the first
    pieces: each is named by its line in the whole file, whether the file can be read
    again to count them (a file) or not (a pipe: counted as read)."""
    monkeypatch.setattr(common, "PIECE", 8)
    lines = [f"JobId={n}" for n in range(1, 13)]
    for bad, (number, words) in ((b"\0", (9, "binary data")), (b"\xff", (11, "not UTF-8"))):
        data = "\n".join(lines).encode().replace(f"JobId={number}".encode(), b"JobId=" + bad)
        path = tmp_path / "t.txt"
        path.write_bytes(data)
        if source == "pipe":
            _pipe_stdin(monkeypatch, data)
        name = str(path) if source == "file" else "-"
        with pytest.raises(InputError, match=rf"^{name}:{number}: {words}"):
            list(common.text_pieces(name, name, mark=b"\nJobId="))
        if source == "pipe":
            sys.stdin.close()
