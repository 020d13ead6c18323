"""Read ClassAds as HTCondor's tools print them: ``-json`` arrays and ``-long`` text.

Both forms are streamed ad by ad (memory stays flat however many ads), each ad with the line
it starts on, and every malformed line is an :class:`InputError` naming ``FILE:LINE``.

- ``-json`` (``condor_status -json``, ``condor_q -json``, ``condor_history -json``): a JSON
  array of objects; expressions are strings ``"/Expr(...)/"``.
- ``-long`` (the old ClassAd form): ``Attr = value`` lines, ads separated by blank lines;
  a value is a literal (number, ``true``/``false``, ``undefined``, a quoted string) or an
  expression kept as its text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from fairshare_cli.errors import InputError, UnreadableInput
from fairshare_cli.io.importers.common import cut_capture, refuse_bom
from fairshare_cli.io.inputs import BINARY, Readable, cannot_read, iter_json_objects, refuse_device

#: A parsed ClassAd: attribute name -> literal value or :class:`Expr`.
Ad = dict[str, Any]


@dataclass(frozen=True)
class Expr:
    """A ClassAd expression that is not a literal, kept as its text (``Cpus * 2``)."""

    text: str


def _json_value(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("/Expr(") and value.endswith(")/"):
        return Expr(value[6:-2])
    return value


_ATTR = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)\s*=\s?(.*)$")
_INT = re.compile(r"^-?\d+$")
_REAL = re.compile(r"^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def parse_long_value(text: str) -> Any:
    """A ``-long`` value: int, float, bool, None (``undefined``), str, or :class:`Expr`."""
    t = text.strip()
    if _INT.match(t) and len(t) <= 20:  # (a longer one is no ClassAd integer: a real)
        return int(t)
    if _REAL.match(t):
        return float(t)
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "undefined":
        return None
    if len(t) >= 2 and t[0] == '"' and t[-1] == '"' and _plain_string(t):
        return _unescape(t[1:-1])
    return Expr(t)


def _plain_string(t: str) -> bool:
    """``"..."`` with no unescaped quote inside (so not ``"a" + "b"``)."""
    i = 1
    while i < len(t) - 1:
        if t[i] == "\\":
            i += 2
            continue
        if t[i] == '"':
            return False
        i += 1
    return i == len(t) - 1


def _unescape(body: str) -> str:
    return re.sub(r'\\(["\\])', r"\1", body)


def iter_long_ads(fh: Iterable[str], label: str, wanted: str = "") -> Iterator[tuple[int, Ad]]:
    """``(first line, ad)`` for each ad of ``-long`` output; blank lines separate ads.

    Raises:
        InputError: ``FILE:LINE: expected 'Attr = value'`` for any other line, or a
            last line without its newline (a cut file: ``Priority7 = 860.16`` of
            ``860.165``); in the first ad, naming the output ``wanted`` (a table of the
            tool's: its plain output, as ``condor_q`` prints it without ``-json`` or
            ``-long``).
    """
    ad: Ad = {}
    start = 0
    lineno = 0
    first = True
    cut, line = False, ""
    for raw in fh:
        lineno += 1
        line = raw.rstrip("\r\n")
        if not line.strip():
            if ad:
                yield start, ad
                ad, first = {}, False
            continue
        if line.startswith("-- ") and not ad:  # condor_q/condor_history schedd banners
            continue
        if BINARY.search(line):
            raise junk_error(label, lineno)
        m = _ATTR.match(line)
        if m is None:
            shown = line[:40].encode("unicode_escape").decode("ascii")
            give = f"; give {wanted}" if wanted and first else ""
            raise InputError(f"{label}:{lineno}: expected 'Attr = value', got '{shown}'{give}")
        if not ad:
            start = lineno
        ad[m.group(1)] = parse_long_value(m.group(2))
        cut = not raw.endswith("\n")  # (HTCondor ends each line with one, the last too)
    if ad and cut:
        raise cut_capture(label, lineno, line, wanted or "HTCondor's output")
    if ad:
        yield start, ad


def iter_json_ads(fh: Readable, label: str, convert: bool = True) -> Iterator[tuple[int, Ad]]:
    """``(first line, ad)`` for each object of a ``-json`` array, read in chunks.

    ``convert=False`` leaves expression strings (``"/Expr(...)/"``) as they are (faster,
    for callers that read a few attributes). A single object is read as an array of one.

    Raises:
        InputError: ``FILE:LINE: ...`` for text that is not a JSON array of objects,
            a truncated array included.
    """
    for line, obj in iter_json_objects(fh, label, junk_error):
        yield line, ({k: _json_value(v) for k, v in obj.items()} if convert else obj)


def open_dump(path: str) -> IO[str]:
    """Open a dump (``-`` = stdin) as text; bytes that are not UTF-8 become lone surrogates,
    so the readers can name the line they are on.

    Raises:
        InputError: the file cannot be opened.
    """
    import io
    import sys

    try:
        refuse_device(path)  # (stdin too: redirected from a blank file)
        if path == "-":
            return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogateescape")
        return open(path, encoding="utf-8", errors="surrogateescape", newline=None)
    except OSError as exc:
        raise cannot_read(path, exc) from None


#: The dump an ad of each MyType comes in, and the import that reads it.
_DUMP_OF = {
    "job": "a job ad: condor_q output is read by fs import condor-q, condor_history output "
    "by fs import condor-history",
    "machine": "a slot ad: condor_status output is read by fs import condor-status",
    "accounting": "an accountant's ad: condor_userprio -l output is read by fs import "
    "condor-userprio",
}


def other_dump(ad: Ad, own: str) -> str:
    """``"; this is a slot ad: ... fs import condor-status"`` for an ad whose ``MyType``
    says it belongs to another import than ``own`` (``"job"``, ``"machine"``, ...); else
    ``""``."""
    kind = ad.get("MyType")
    kind = kind.lower() if isinstance(kind, str) else ""
    return f"; this is {_DUMP_OF[kind]}" if kind in _DUMP_OF and kind != own else ""


def junk_error(label: str, line: int) -> InputError:
    """The error for binary junk (bytes that are not UTF-8 text, NULs) on a line."""
    return UnreadableInput(
        f"{label}:{line}: binary data (not UTF-8 text); expected HTCondor's output"
    )


def iter_ads(
    fh: IO[str], label: str, convert: bool = True, wanted: str = ""
) -> Iterator[tuple[int, Ad]]:
    """Ads of either form, told from the first non-blank character (``[``/``{`` = JSON).

    Raises:
        InputError: naming ``FILE:LINE`` of the first malformed line (and, in the first
            ad, the output ``wanted``: ``condor_q -json or -long output``).
    """
    head = fh.read(4096)
    refuse_bom(head, label)
    first = head.lstrip()[:1]
    stream = _Prepend(head, fh)
    if first in ("[", "{"):
        yield from iter_json_ads(stream, label, convert)
    else:
        yield from iter_long_ads(stream, label, wanted)


class _Prepend:
    """A text stream with some already-read text put back in front."""

    def __init__(self, head: str, fh: IO[str]) -> None:
        self.head = head
        self.fh = fh

    def read(self, n: int = -1) -> str:
        if not self.head:
            return self.fh.read(n)
        out, self.head = self.head, ""
        if n < 0 or n > len(out):
            out += self.fh.read(-1 if n < 0 else n - len(out))
        return out

    def __iter__(self) -> Iterator[str]:
        if self.head:
            text, self.head = self.head, ""
            lines = text.splitlines(keepends=True)
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += self.fh.readline()
            yield from lines
        yield from self.fh
