"""The elements of a big JSON list, decoded a chunk at a time in one reused buffer.

``fs taskqueues`` (``benchmarks/run.py``, row ``taskqueues``) reads a million jobs this
way. The file is read into a ``bytearray`` that is reused for the whole file: each chunk
is read in place (no new buffer per chunk, so no page faults), and the complete elements
at the buffer's start are decoded straight from it, with a ``[`` written over the byte
before them (already read) and a ``]`` over the byte after them (put back afterwards).

Every cut is checked, so a file that is not a JSON list of elements the decoder takes is
refused (:class:`FastPathRefused`) rather than misread: the caller then reads it with
the job parser, for its message.
"""

from __future__ import annotations

from collections.abc import Iterator
from io import BufferedIOBase
from typing import Any

CHUNK = 1 << 17
"""Bytes read at a time (128 KiB: some 500 jobs, whose records stay in the CPU's cache
while they are counted; bigger chunks are slower)."""

MAX_BUFFER = 1 << 26
"""Past 64 MiB without a complete element, the file is read by the job parser."""

_MAX_TRIES = 16
_BLANK = frozenset(b" \t\r\n")
_OPEN, _CLOSE, _COMMA, _BRACE = b"[", b"]", b",", b"}"


class FastPathRefused(Exception):
    """The fast reader cannot decide; read the file with the job parser."""


class _Window:
    """The unread part of a file: ``buf[start:end]``, refilled in place.

    ``buf[0]`` is kept free, so that there is always a byte before ``start`` to write the
    ``[`` of a decode into; ``buf[end]`` exists, for the ``]``.
    """

    def __init__(self, raw: BufferedIOBase, chunk: int, limit: int) -> None:
        self.raw = raw
        self.chunk = chunk
        self.limit = limit
        self.buf = bytearray(2 * chunk + 2)
        self.start = self.end = 1
        self.eof = False

    def fill(self) -> None:
        """Read the next chunk after the unread bytes (moved to the front first).

        Raises:
            FastPathRefused: more than ``limit`` unread bytes.
        """
        buf, start, end = self.buf, self.start, self.end
        if start > 1:  # the same length in place: a view of an old batch never resizes it
            rest = bytes(buf[start:end])
            buf[1 : 1 + len(rest)] = rest
            start, end = 1, 1 + len(rest)
        if len(buf) - end - 1 < self.chunk:
            if end > self.limit:
                raise FastPathRefused("an element too big to stream")
            buf = self.buf = buf + bytes(len(buf))  # a new buffer: old views stay as they were
        n = self.raw.readinto(memoryview(buf)[end : end + self.chunk])
        self.eof = not n
        self.start, self.end = start, end + (n or 0)

    def peek(self) -> int:
        """The next byte that is not a blank (-1 at the end of the file); skips the blanks."""
        while True:
            buf, start, end = self.buf, self.start, self.end
            while start < end and buf[start] in _BLANK:
                start += 1
            self.start = start
            if start < end:
                return buf[start]
            if self.eof:
                return -1
            self.fill()

    def decode_prefix(self, decoders: list[Any], msgspec: Any) -> list[Any] | None:
        """Decode the complete elements at the window's start, or None when none is found.

        An element ends at a ``}`` followed by a ``,`` or a ``]`` (blanks between): others are
        not tried. A cut inside a string or a nested object does not decode: the ``}``
        before it is tried next, up to ``_MAX_TRIES``.

        ``decoders``: the first that takes the elements decodes them; one that refuses them
        (``ValidationError``) is dropped from the list, for the rest of the file.

        Raises:
            FastPathRefused: elements every decoder refuses.
        """
        buf, start, end = self.buf, self.start, self.end
        cut = end
        for _ in range(_MAX_TRIES):
            cut = buf.rfind(_BRACE, start, cut)
            if cut < 0:
                return None
            after = cut + 1
            while after < end and buf[after] in _BLANK:
                after += 1
            if after == end or buf[after] not in b",]":
                continue
            buf[start - 1] = 0x5B  # '['
            kept = buf[cut + 1]
            buf[cut + 1] = 0x5D  # ']'
            try:
                batch = _decode(decoders, memoryview(buf)[start - 1 : cut + 2], msgspec)
            except msgspec.DecodeError:
                continue
            finally:
                buf[cut + 1] = kept
            self.start = cut + 1
            return batch
        return None


def _decode(decoders: list[Any], text: memoryview, msgspec: Any) -> list[Any]:
    """``text`` decoded by the first of ``decoders`` that takes it (the others are dropped).

    Raises:
        msgspec.DecodeError: not JSON; FastPathRefused: every decoder refuses it.
    """
    while True:
        try:
            batch: list[Any] = decoders[0].decode(text)
            return batch
        except msgspec.ValidationError as exc:
            if len(decoders) == 1:
                raise FastPathRefused(str(exc)) from None
            del decoders[0]


def json_list_batches(
    raw: BufferedIOBase, decoders: list[Any], chunk: int = CHUNK, limit: int = MAX_BUFFER
) -> Iterator[list[Any]]:
    """The elements of the JSON list in ``raw`` (binary, at its start), a chunk at a time.

    ``decoders`` decode a JSON list of elements (``msgspec.json.Decoder(list[T])``): each
    batch is decoded by the first that takes it (see :meth:`_Window.decode_prefix`). The
    elements of a batch may hold views of the buffer (``msgspec.Raw``): read them before
    asking for the next batch.

    Raises:
        FastPathRefused: not a JSON list (a missing or extra comma, text after the list, a
            truncated file), or an element the decoder refuses.
    """
    import msgspec

    window = _Window(raw, chunk, limit)
    if window.peek() != _OPEN[0]:
        raise FastPathRefused("not a JSON list")
    window.start += 1
    first: bool | None = True  # True: no element yet; False: after one; None: after a comma
    while True:
        byte = window.peek()
        if byte == _CLOSE[0]:
            window.start += 1
            if first is None or window.peek() != -1:
                raise FastPathRefused("not a JSON list")  # a trailing comma, or more after ]
            return
        if byte == -1:
            raise FastPathRefused("truncated")
        if first is False:
            if byte != _COMMA[0]:
                raise FastPathRefused("expected a comma")
            window.start += 1
            first = None  # an element must follow
            continue
        batch = window.decode_prefix(decoders, msgspec)
        if batch is None:
            if window.eof:
                raise FastPathRefused("truncated")
            window.fill()
            continue
        first = False
        yield batch
