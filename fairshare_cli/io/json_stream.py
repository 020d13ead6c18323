"""A JSON array of objects read object by object, in chunks, with the line each starts on
(HTCondor's ``-json`` dumps: ``condor_q``, ``condor_status``, ``condor_history``).

Memory stays flat however many objects the array holds. NaN and the infinities are
refused where they stand, as every JSON reader of fs refuses them; a number beyond what
the dump's tool can hold (``1e400``, an integer of 20 digits) is refused at its line by the
number hooks the caller gives, in that tool's words, wherever it stands: in an
attribute fs reads and in one it passes over alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from fairshare_cli.core.names import escapes_surrogate, unicode_only
from fairshare_cli.errors import InputError, decoder_fault
from fairshare_cli.io.json_keys import DuplicateKey, refuse_repeats
from fairshare_cli.io.json_numbers import NonFiniteNumber, RefusedNumber, line_of, refuse_constant

#: The size of each read of a streamed JSON array.
CHUNK = 1 << 20

#: What a dump read with ``errors="surrogateescape"`` holds where it is not text: bytes that
#: are not UTF-8 (lone surrogates) and NULs.
BINARY = re.compile("[\udc80-\udcff\x00]")


class Readable(Protocol):
    """A text stream read by size."""

    def read(self, n: int = -1, /) -> str: ...


class _JsonObjects:
    """A chunked reader of a JSON array of objects, keeping the line it is on."""

    _SPACE = " \t\r\n"

    def __init__(
        self,
        fh: Readable,
        label: str,
        junk_error: Callable[[str, int], InputError],
        numbers: tuple[Callable[[str], Any], Callable[[str], Any]],
    ) -> None:
        self.fh, self.label, self.junk_error = fh, label, junk_error
        self.decoder = json.JSONDecoder(
            object_pairs_hook=refuse_repeats,
            parse_constant=refuse_constant,
            parse_int=numbers[0],
            parse_float=numbers[1],
        )
        self.buf = fh.read(CHUNK)
        self.looked()
        self.pos = 0
        self.line = 1  # the line ``pos`` is on
        self.eof = not self.buf

    def fail(self, what: str, line: int | None = None) -> InputError:
        return InputError(f"{self.label}:{self.line if line is None else line}: {what}")

    def more(self) -> bool:
        """Append a chunk as long as what is held (dropping what was consumed); False at the end."""
        if self.eof:
            return False
        data = self.fh.read(max(CHUNK, len(self.buf) - self.pos))
        if not data:
            self.eof = True
            return False
        self.buf = self.buf[self.pos :] + data
        self.pos = 0
        self.looked()
        return True

    def looked(self) -> None:
        """What a search of the new buffer found, to spare each object a check."""
        self.clean = self.buf.isascii()  # no junk possible: skip the per-ad search
        self.escaped = escapes_surrogate(self.buf)

    def peek(self) -> str:
        """The next character that is not white space ("" at the end), reading on."""
        while True:
            buf, n = self.buf, len(self.buf)
            while self.pos < n and buf[self.pos] in self._SPACE:
                if buf[self.pos] == "\n":
                    self.line += 1
                self.pos += 1
            if self.pos < n:
                return buf[self.pos]
            if not self.more():
                return ""

    def junk_at(self, start: int, stop: int) -> InputError | None:
        junk = BINARY.search(self.buf, start, stop)
        if junk is None:
            return None
        return self.junk_error(self.label, self.line + self.buf.count("\n", start, junk.start()))

    def decode(self) -> tuple[Any, int]:
        """The value at ``pos`` and where it ends, reading more chunks as needed."""
        while True:
            try:
                return self.decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:  # (more text mends only what a chunk cut)
                if (exc.pos >= len(self.buf) - 16 or "Unterminated" in exc.msg) and self.more():
                    continue
                junk = self.junk_at(self.pos, exc.pos + 1)
                if junk is not None:
                    raise junk from None
                bad = self.line + self.buf.count("\n", self.pos, exc.pos)
                what = "truncated JSON" if exc.pos >= len(self.buf) - 1 else "not valid JSON"
                raise self.fail(f"{what}: {exc.msg}", bad) from None
            except DuplicateKey as exc:
                raise self.fail(f"{exc}; give each key once") from None
            except NonFiniteNumber as exc:  # (NaN, Infinity: 1e400 is the ad reader's to word)
                where = line_of(self.buf, exc.text, self.pos, self.line)
                raise self.fail(exc.refusal(), where) from None
            except RefusedNumber as exc:
                raise self.fail(exc.why, line_of(self.buf, exc.text, self.pos, self.line)) from None
            except (ValueError, RecursionError) as exc:
                raise self.fail(f"not valid JSON: {decoder_fault(exc)}") from None

    def ad(self) -> tuple[int, dict[str, Any]]:
        """The object at ``pos``, checked, and its first line; moves past it."""
        obj, end = self.decode()
        if not isinstance(obj, dict):
            raise self.fail("expected an ad (a JSON object)")
        junk = None if self.clean else self.junk_at(self.pos, end)
        if junk is None and self.escaped and not unicode_only(obj):  # "\udcff": no text either
            junk = self.junk_error(self.label, self.line)
        if junk is not None:
            raise junk
        line = self.line
        self.line += self.buf.count("\n", self.pos, end)
        self.pos = end
        return line, obj


def iter_json_objects(
    fh: Readable,
    label: str,
    junk_error: Callable[[str, int], InputError],
    numbers: tuple[Callable[[str], Any], Callable[[str], Any]] = (int, float),
) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(first line, object)`` for each object of a JSON array, read in chunks; a single
    object is read as an array of one, and empty text as none; nothing but blanks follows.
    ``numbers``: the decoder's ``parse_int`` and ``parse_float``, which may refuse a number
    with :class:`RefusedNumber`.

    Raises:
        InputError: ``FILE:LINE: ...`` for text that is not a JSON array of objects (a
            truncated array or text after it too), or a number ``numbers`` refuse;
            ``junk_error(label, line)``: binary data.
    """
    reader = _JsonObjects(fh, label, junk_error, numbers)
    ch = reader.peek()
    if not ch:
        return  # empty output: no ads
    if ch not in "[{":
        raise reader.junk_at(reader.pos, reader.pos + 1) or reader.fail(
            "expected a JSON array of ads ('[')"
        )
    if ch == "{":
        yield reader.ad()
    else:
        reader.pos += 1
        first = True
        while (ch := reader.peek()) != "]":
            if not ch:
                raise reader.fail("truncated JSON: the array of ads has no ']'")
            if not first:
                if ch != ",":
                    raise reader.fail("expected ',' or ']' between ads")
                reader.pos += 1
                reader.peek()
            first = False
            yield reader.ad()
        reader.pos += 1  # (past the ']')
    if reader.peek():  # a second capture, or junk: ads past the first capture went unread
        raise reader.junk_at(reader.pos, reader.pos + 1) or reader.fail(
            "more text after the ads; expected the end of the file (one capture a file)"
        )
