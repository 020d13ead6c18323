"""Read ClassAds as HTCondor's tools print them: ``-json`` arrays and ``-long`` text.

Both forms are streamed ad by ad (memory stays flat however many ads), each ad with the line
it starts on, and every malformed line is an :class:`InputError` naming ``FILE:LINE``.

- ``-json`` (``condor_status -json``, ``condor_q -json``, ``condor_history -json``): a JSON
  array of objects; expressions are strings ``"/Expr(...)/"``.
- ``-long`` (the old ClassAd form): ``Attr = value`` lines, ads separated by blank lines;
  a value is a literal (number, ``true``/``false``, ``undefined``, a quoted string) or an
  expression kept as its text. Strings are read in the old syntax, as
  ``classad2.parseAds(text, ParserType.Old)`` reads them: a backslash escapes only a quote.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from fairshare_cli.errors import InputError, UnreadableInput
from fairshare_cli.io.importers.common import cut_capture, refuse_bom
from fairshare_cli.io.inputs import cannot_read, line_blocks, open_bytes
from fairshare_cli.io.json_numbers import RefusedNumber, shown_number
from fairshare_cli.io.json_stream import BINARY, Readable, iter_json_objects

#: A parsed ClassAd: attribute name -> literal value or :class:`Expr`.
Ad = dict[str, Any]


@dataclass(frozen=True, repr=False)
class Expr:
    """A ClassAd expression that is not a literal, kept as its text (``Cpus * 2``)."""

    text: str

    def __repr__(self) -> str:
        """Its text, as a message shows the value (``Priority = nan; expected a number``)."""
        return self.text


def _json_value(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("/Expr(") and value.endswith(")/"):
        return Expr(value[6:-2])
    return value


#: How HTCondor writes a real that is not finite, in ``-json`` and ``-long`` alike
#: (``ClassAdUnParser::UnparseReal``, src/classad/sink.cpp; src/classad/jsonSink.cpp): as a
#: call of ``real`` on a string, which evaluates to that real (``strtod`` reads the string:
#: ``convertValueToRealValue``, src/classad/value.cpp).
_NONFINITE = re.compile(r'^\s*real\s*\(\s*"\s*[-+]?(?:nan|inf|infinity)\s*"\s*\)\s*$', re.I)


def nonfinite(value: Any) -> str | None:
    """The text of ``value`` if it is HTCondor's ``real("NaN")``, ``real("INF")`` or
    ``real("-INF")`` (an :class:`Expr`, or a ``-json`` expression string left as it is),
    else None."""
    if isinstance(value, Expr):
        text = value.text
    elif isinstance(value, str) and value.startswith("/Expr(") and value.endswith(")/"):
        text = value[6:-2]
    else:
        return None
    return text.strip() if _NONFINITE.match(text) else None


def refuse_nonfinite(where: str, what: str, key: str, value: Any) -> None:
    """Refuse ``value`` of ``key`` in the ad ``what`` (``job 12.0``) at ``where``
    (``FILE:LINE``) if it is a non-finite real (:func:`nonfinite`): HTCondor evaluates it
    to NaN or an infinity, no count or time a scheduler can use.

    Raises:
        InputError: it is one.
    """
    if (text := nonfinite(value)) is not None:
        raise InputError(
            f"{where}: {what}: {key} = {text}, a real that is not finite (NaN or an "
            "infinity); expected a finite number"
        )


_ATTR = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)\s*=\s?(.*)$")
_INT = re.compile(r"^-?\d+$")
_REAL = re.compile(r"^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def parse_long_value(text: str) -> Any:
    """A ``-long`` value: int, float, bool, None (``undefined``), str, or :class:`Expr`.

    Strings are read in HTCondor's old ClassAd syntax (:func:`old_string`); an expression's
    text comes back in the new syntax that ``classad2`` evaluates (:func:`new_syntax`).

    Raises:
        UnclosedString: a string literal with no closing quote; BeyondRange: a number no
            ClassAd holds.
    """
    t = text.strip()
    if _INT.match(t):  # (HTCondor prints int64 values: %lld)
        if len(t) > 20 or not -(2**63) <= int(t) < 2**63:
            raise BeyondRange(
                f"{shown_number(t)}: beyond a 64-bit integer, which HTCondor reads as 0"
            )
        return int(t)
    if _REAL.match(t):  # (HTCondor prints a finite double's 16 digits, else real("INF"))
        if (real := float(t)) in (_INF, -_INF):
            raise BeyondRange(
                f"{shown_number(t)}: beyond a double, which HTCondor reads as infinite"
            )
        return real
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "undefined":
        return None
    if "\\" not in t:  # (no backslash: both syntaxes read the text alike)
        if len(t) >= 2 and t[0] == '"' and t[-1] == '"' and '"' not in t[1:-1]:
            return t[1:-1]
        if '"' in t or "'" in t:
            new_syntax(t)  # (the same text: this checks each string is closed)
        return Expr(t)
    t = text.lstrip()  # (a blank after a closing \\" continues the string)
    if t[0] == '"':
        value, end = old_string(t, 0)
        if not t[end:].strip():
            return value
    return Expr(new_syntax(t))


class UnclosedString(ValueError):
    """A ``-long`` value holding a string literal with no closing quote."""


class BeyondRange(ValueError):
    """A ``-long`` number no ClassAd holds: an integer beyond 64 bits, which the ClassAd
    lexer reads as 0 (``std::from_chars``'s result unchecked, ``src/classad/lexer.cpp``), or
    a real beyond a double, which it reads as infinite (``strtod``)."""


_INF = float("inf")


def old_string(text: str, start: int) -> tuple[str, int]:
    """The string literal opening at ``text[start]`` (a ``"`` or ``'``) read as HTCondor's
    old ClassAd syntax reads it, and the index after it (``Lexer::tokenizeStringOld``).

    A backslash is itself (``\\\\`` is two, ``\\n`` is a backslash and an ``n``), except
    before the quote: ``\\"`` followed by more text is a quote inside the string, and at
    the end of the text it closes the string, which then ends in the backslash. The
    text is one line (``-long`` output has one attribute a line, its newline cut off).

    Raises:
        UnclosedString: no closing quote.
    """
    delim = text[start]
    parts = []
    segment = start + 1  # (where the lexer's last character before the quote is reset)
    while True:
        close = text.find(delim, segment)
        if close < 0:
            raise UnclosedString(text)
        if close == segment or text[close - 1] != "\\" or close + 1 == len(text):
            parts.append(text[segment:close])
            return "".join(parts), close + 1
        parts.append(text[segment : close - 1] + delim)
        segment = close + 1


def new_syntax(text: str) -> str:
    """An old-syntax expression's text with each string literal written in the new syntax
    (``classad2``'s): ``regexp("a\\\\.b", X)`` of ``condor_q -long`` holds a two-backslash
    pattern, written ``"a\\\\\\\\.b"``. Text without a backslash is returned as it is.

    Raises:
        UnclosedString: a string literal with no closing quote.
    """
    out = []
    done = i = 0
    while True:
        quotes = [q for q in (text.find('"', i), text.find("'", i)) if q >= 0]
        if not quotes:
            break
        i = min(quotes)
        value, end = old_string(text, i)
        delim = text[i]
        out.append(text[done:i])
        out.append(delim + value.replace("\\", "\\\\").replace(delim, "\\" + delim) + delim)
        done = i = end
    out.append(text[done:])
    return "".join(out)


def _take(ad: Ad, m: re.Match[str], raw: str, label: str, lineno: int, wanted: str) -> None:
    """The attribute of the line ``raw`` (``m``: its name and value) into ``ad``.

    Raises:
        InputError: named twice in the ad (HTCondor prints each once: either value may be
            meant), a number beyond range, or a string with no closing quote (a cut capture,
            on the last line).
    """
    name = m.group(1)
    if name in ad:
        raise InputError(f"{label}:{lineno}: {name} is given twice in one ad; give it once")
    try:
        ad[name] = parse_long_value(m.group(2))
    except BeyondRange as exc:  # (no HTCondor tool prints one: an edited or damaged dump)
        raise InputError(
            f"{label}:{lineno}: {name} = {exc}; expected a number HTCondor prints"
        ) from None
    except UnclosedString:
        line = raw.rstrip("\r\n")
        if not raw.endswith("\n"):
            raise cut_capture(label, lineno, line, wanted or "HTCondor's output") from None
        raise InputError(
            f"{label}:{lineno}: {name}: a string with no closing quote "
            "(HTCondor's old ClassAd syntax: a backslash escapes only a quote)"
        ) from None


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
        _take(ad, m, raw, label, lineno, wanted)
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
    numbers = (_Numbers(_json_int).__getitem__, _Numbers(_json_real).__getitem__)
    for line, obj in iter_json_objects(fh, label, junk_error, numbers):
        yield line, ({k: _json_value(v) for k, v in obj.items()} if convert else obj)


def _json_int(text: str) -> int:
    """A ``-json`` integer (the decoder's ``parse_int``), refused beyond 64 bits as a
    ``-long`` one is: HTCondor's ClassAd lexer reads both (``src/classad/lexer.cpp``), so
    such a number is refused wherever it stands, in an attribute fs reads or in one it
    passes over (as NaN is).

    Raises:
        RefusedNumber: it is beyond 64 bits.
    """
    if len(text) < 19:  # (every integer of 18 digits fits)
        return int(text)
    try:
        return parse_long_value(text)  # type: ignore[no-any-return]
    except BeyondRange as exc:
        raise RefusedNumber(text, f"{exc}; expected a number HTCondor prints") from None


def _json_real(text: str) -> float:
    """A ``-json`` real (the decoder's ``parse_float``), refused beyond a double as
    :func:`_json_int` refuses an integer beyond 64 bits.

    Raises:
        RefusedNumber: it is beyond a double (``1e400``).
    """
    if (real := float(text)) in (_INF, -_INF):
        raise RefusedNumber(
            text,
            f"{shown_number(text)}: beyond a double, which HTCondor reads as infinite; "
            "expected a number HTCondor prints",
        )
    return real


class _Numbers(dict[str, Any]):
    """A ``-json`` reader's numbers by their text, each read once by ``read``
    (:func:`_json_int`, :func:`_json_real`): its lookup is the decoder's hook, so that a
    number seen before (most of a dump's: 0, 1, 0.0, 1024, the same dates) costs a lookup
    in C rather than a call of Python code. The checks as hooks cost 23 % more CPU reading
    224 MB of ``condor_q -json`` (3.08 -> 3.76 s, median of 5) and 33 % more reading 200 MB
    of ``condor_history -json`` (1.95 -> 2.59 s); with the lookup, 4 % (3.21 s) and 19 %
    (2.33 s). Cleared when it holds :data:`_NUMBERS_HELD` numbers: memory stays flat."""

    def __init__(self, read: Callable[[str], Any]) -> None:
        super().__init__()
        self.read = read

    def __missing__(self, text: str) -> Any:
        if len(self) >= _NUMBERS_HELD:
            self.clear()
        value = self[text] = self.read(text)
        return value


#: How many numbers a :class:`_Numbers` holds at most (a few MB).
_NUMBERS_HELD = 1 << 16


def open_dump(path: str) -> IO[str]:
    """Open a dump (``-`` = stdin) as text; bytes that are not UTF-8 become lone surrogates,
    so the readers can name the line they are on.

    Raises:
        InputError: the file cannot be opened.
    """
    import io

    try:
        fh = open_bytes(path)  # (stdin and a named pipe judged: a blank pipe refused)
        return io.TextIOWrapper(fh, encoding="utf-8", errors="surrogateescape", newline=None)
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
    says it belongs to another import than ``own`` (``"job"``, ``"machine"``, ...), or
    that is the negotiator's one ad of ``condor_userprio -l -allusers`` (no ``MyType``;
    ``Name1``, ``Priority1``, ... and ``LastUpdate``); else ``""``."""
    kind = ad.get("MyType")
    kind = kind.lower() if isinstance(kind, str) else ""
    if not kind and "LastUpdate" in ad and "Name1" in ad:
        return (
            "; this is the negotiator's ad: condor_userprio -l -allusers output is read by "
            "fs import condor-userprio"
        )
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
    stream = _Prepend(head, fh, label, wanted)
    if first in ("[", "{"):
        yield from iter_json_ads(stream, label, convert)
    else:
        yield from iter_long_ads(stream, label, wanted)


class _Prepend:
    """A text stream with some already-read text put back in front."""

    def __init__(self, head: str, fh: IO[str], label: str = "", wanted: str = "") -> None:
        self.head = head
        self.fh = fh
        self.label, self.wanted = label, wanted or "HTCondor's output"

    def read(self, n: int = -1) -> str:
        if not self.head:
            return self.fh.read(n)
        out, self.head = self.head, ""
        if n < 0 or n > len(out):
            out += self.fh.read(-1 if n < 0 else n - len(out))
        return out

    def __iter__(self) -> Iterator[str]:
        head, self.head = self.head, ""

        def read(n: int) -> str:
            nonlocal head
            if not n or not head:
                return self.fh.read(n) if n else ""
            out, head = head + self.fh.read(n), ""
            return out

        for block in line_blocks(read, self.label, self.wanted):  # (a line without end refused)
            yield from block
