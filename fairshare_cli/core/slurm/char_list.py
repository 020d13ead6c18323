"""Name lists as Slurm's clients read them: ``slurm_addto_char_list`` and the hostlists
it expands.

Mirrors ``slurm_addto_char_list_with_case`` (``src/common/slurm_protocol_defs.c``) and
the bracketed hostlist parser it calls on each ``name[...]`` (``hostlist_create`` and
``hostlist_shift``, ``src/common/hostlist.c``), 22.05 and today (26.05) alike but where
a docstring says otherwise. Pure: the caller prints what Slurm's ``error()`` would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fairshare_cli.errors import InputError

#: ``ULONG_MAX`` + 1: unsigned long arithmetic wraps at it.
_WRAP = 2**64
#: ``MAX_RANGE`` (``MAX_SLURM_NODES``): the most hosts one range may name.
MAX_RANGE = 65536
#: ``MAX_PREFIX_CNT``: the most prefixes a range before the last bracket may make.
MAX_PREFIX_CNT = 64 * 1024
#: ``MAX_RANGES``: the most ranges one bracket may hold (more is ``fatal``).
MAX_RANGES = 256 * 1024
_SPACE = " \t\n\v\f\r"
_STRTOUL = re.compile(r"[ \t\n\v\f\r]*([+-]?)([0-9]+)")


def _lower(name: str) -> str:
    """``xstrtolower``: ASCII letters alone (``tolower`` in the C locale)."""
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in name)


def addto_char_list(names: list[str], text: str, compat: str, errors: list[str]) -> None:
    """Add the names of ``text`` to ``names`` as ``slurm_addto_char_list`` does: each in
    lower case and (Slurm 25.05 on, not 22.05) trimmed of white space; of equal ones the
    last kept; empty ones skipped, but for a last one when the call added no name (an
    empty list, ``''``, is the name ``''``); a comma at the end ignored. A list that opens
    with a quote ends at the next one, and any other quote becomes a backquote. A ``[``
    keeps commas from cutting up to the next ``]``, and the name up to there is expanded
    as a hostlist (:func:`hostlist_names`; ``hep[1-2]`` is ``hep1``, ``hep2``); what
    follows the ``]`` up to the next comma is dropped, a last such piece kept as a name.
    A hostlist Slurm refuses leaves the text in place, read on with what follows."""
    trim = compat != "22.05"
    chars = list(text)
    quote = chars[0] if chars and chars[0] in "\"'" else None
    i = start = 1 if quote else 0
    count = len(names)
    brack_not = first_brack = False
    while i < len(chars):
        char = chars[i]
        if char == quote:
            break
        if char in "\"'":
            chars[i] = "`"
        elif char == "[":
            first_brack = True
        elif char == "," and not first_brack:
            if brack_not:
                brack_not = False
            elif i + 1 == len(chars):
                break
            elif i != start:
                _add(names, "".join(chars[start:i]), trim)
            start = i + 1
        elif char == "]":
            brack_not, first_brack = True, False
            hosts = hostlist_names("".join(chars[start : i + 1]), compat, errors)
            for host in hosts or ():
                _add(names, host, trim)
            start = i + 1 if hosts else start
        i += 1
    if count == len(names) or i > start:
        _add(names, "".join(chars[start:i]), trim)


def _add(names: list[str], name: str, trim: bool) -> None:
    """``_add_to_list``: ``name`` trimmed (``trim``) and in lower case, last of its equals."""
    name = _lower(name.strip(_SPACE) if trim else name)
    if name in names:
        names.remove(name)
    names.append(name)


def char_list(texts: tuple[str, ...] | list[str], compat: str, errors: list[str]) -> list[str]:
    """The list ``slurm_addto_char_list`` makes of each of ``texts`` in turn."""
    names: list[str] = []
    for text in texts:
        addto_char_list(names, text, compat, errors)
    return names


def _tokens(text: str, sep: str) -> list[str]:
    """``_next_tok``: ``text`` cut at runs of ``sep``, but not inside ``[...]``."""
    out: list[str] = []
    pos, end = 0, len(text)
    while True:
        while pos < end and text[pos] in sep:
            pos += 1
        if pos >= end:
            return out
        tok = parse = pos
        moved = True
        while moved:
            while pos < end and text[pos] not in sep:
                pos += 1
            moved = False
            while True:
                open_at = text.find("[", parse)
                close_at = text.find("]", parse)
                if open_at < 0 or open_at > pos or close_at < open_at:
                    break
                if close_at >= pos:
                    pos, moved = close_at, True
                    break
                parse = close_at + 1
        out.append(text[tok:pos])


def _strtoul(text: str) -> tuple[int, str] | None:
    """C's ``strtoul(text, &end, 10)``: the value and what follows; None with no digit."""
    match = _STRTOUL.match(text)
    if match is None:
        return None
    value = int(match.group(2))
    if value >= _WRAP:
        value = _WRAP - 1  # (ERANGE: ULONG_MAX, whatever the sign)
    elif match.group(1) == "-":
        value = -value % _WRAP
    return value, text[match.end() :]


@dataclass
class _Range:
    """A ``hostrange_t``: a prefix, and a numbered range or a single host."""

    prefix: str
    lo: int = 0
    hi: int = 0
    width: int = 0
    single: bool = False

    def count(self) -> int:
        return 1 if self.single else (self.hi - self.lo + 1) % _WRAP

    def empty(self) -> bool:
        return self.hi < self.lo or self.hi == _WRAP - 1


def _pad(num: int, width: int) -> str:
    return str(num).rjust(width, "0")


def _pads(num: int, width: int) -> int:
    return max(width - len(str(num)), 0)


@dataclass
class _Hostlist:
    """A ``hostlist_t``: its ranges and host count, pushed and shifted as hostlist.c does."""

    ranges: list[_Range] = field(default_factory=list)
    hosts: int = 0

    def push(self, new: _Range) -> None:
        """``hostlist_push_range``: joined to the last range where it follows on."""
        tail = self.ranges[-1] if self.ranges else None
        if (
            tail is not None
            and tail.hi == (new.lo - 1) % _WRAP
            and _same_prefix(tail, new)
            and _width_equiv(tail, new)
        ):
            tail.hi = new.hi
        else:
            self.ranges.append(_Range(new.prefix, new.lo, new.hi, new.width, new.single))
        self.hosts += new.count()

    def push_host(self, name: str) -> None:
        """``hostlist_push_host``: a trailing number is a range of one."""
        digits = len(name) - len(name.rstrip("0123456789"))
        if not digits:
            self.push(_Range(name, single=True))
            return
        number = min(int(name[-digits:]), _WRAP - 1)
        self.push(_Range(name[:-digits], number, number, digits))

    def shift_all(self) -> list[str]:
        """``hostlist_shift`` until it gives no host."""
        out: list[str] = []
        while self.hosts > 0 and self.ranges:
            first = self.ranges[0]
            if first.single:
                first.lo += 1
                out.append(first.prefix)
            elif first.count() > 0:
                out.append(first.prefix + _pad(first.lo, first.width))
                first.lo = (first.lo + 1) % _WRAP
            else:
                return out
            self.hosts -= 1
            if first.empty():
                self.ranges.pop(0)
        return out


def _same_prefix(a: _Range, b: _Range) -> bool:
    """``hostrange_prefix_cmp`` is 0: ``strnatcmp`` skips white space."""
    squeeze = str.maketrans("", "", _SPACE)
    return a.single == b.single and a.prefix.translate(squeeze) == b.prefix.translate(squeeze)


def _width_equiv(a: _Range, b: _Range) -> bool:
    """``_width_equiv``: whether two widths pad the ranges' first numbers alike (one width
    then taken for both)."""
    if a.width == b.width:
        return True
    if _pads(a.lo, a.width) != _pads(a.lo, b.width):
        if _pads(b.lo, b.width) != _pads(b.lo, a.width):
            return False
        b.width = a.width
    else:
        a.width = b.width
    return True


def _single_range(text: str, errors: list[str]) -> tuple[int, int, int] | None:
    """``_parse_single_range``: ``lo[-hi]`` as (lo, hi, width), or None (an error said).
    The width is the length of the text before the ``-``, which ``strtoul`` reads (white
    space and a sign first; what follows its digits is not checked when a ``hi`` is)."""
    head, dash, tail = text.partition("-")
    lo = _strtoul(head)
    if "x" in text or tail[:1] == "-" or lo is None:
        errors.append(f"Invalid range: `{text}'")
        return None
    if dash and tail:
        hi = _strtoul(tail)
        bad = hi is None or hi[1] != ""
    else:
        hi, bad = lo, lo[1] != ""
    if bad or hi is None or lo[0] > hi[0]:
        errors.append(f"Invalid range: `{text}'")
        return None
    if (hi[0] - lo[0] + 1) % _WRAP > MAX_RANGE:
        errors.append(f"Too many hosts in range `{text}'")
        return None
    return lo[0], hi[0], len(head)


def _range_list(text: str, errors: list[str]) -> list[tuple[int, int, int]] | None:
    """``_parse_range_list``: the comma list inside a bracket, or None."""
    pieces = text.split(",")
    if len(pieces) > MAX_RANGES:
        raise InputError("Too many ranges, can't process entire list (a fatal error in Slurm)")
    ranges = []
    for piece in pieces:
        one = _single_range(piece, errors)
        if one is None:
            return None
        ranges.append(one)
    return ranges


def _numbers(lo: int, hi: int) -> range:
    """lo to hi, refusing the one C loops forever on (``j <= hi`` with hi ULONG_MAX)."""
    if hi == _WRAP - 1:
        raise InputError(
            f"the range {lo}-{hi} ends at the largest unsigned long, where Slurm's hostlist "
            "loop never ends; give a smaller number"
        )
    return range(lo, hi + 1)


def _push_ranges(
    hosts: _Hostlist,
    prefix: str,
    suffix: str | None,
    ranges: list[tuple[int, int, int]],
    errors: list[str],
) -> bool:
    """``_push_range_list``: a prefix holding ``[...]`` expanded (a failure below the
    first level ignored, as ``MAX(rc, rc1)`` ignores it); False when it fails."""
    opened = prefix.rfind("[")
    closed = prefix.rfind("]", opened) if opened >= 0 else -1
    if closed < 0:
        for one in ranges:
            _push_plain(hosts, prefix, suffix, one)
        return True
    head, tail = prefix[:opened], prefix[closed + 1 :]
    outer = _range_list(prefix[opened + 1 : closed], errors)
    if outer is None:
        return False
    made = 0
    for lo, hi, width in outer:
        made = (made + hi - lo + 1) % _WRAP
        if made > MAX_PREFIX_CNT:
            return False
        for num in _numbers(lo, hi):
            new_prefix = head + _pad(num, width) + tail
            if "[" in head:
                _push_ranges(hosts, new_prefix, suffix, ranges, errors)
                continue
            for one in ranges:
                _push_plain(hosts, new_prefix, suffix, one)
    return True


def _push_plain(
    hosts: _Hostlist, prefix: str, suffix: str | None, one: tuple[int, int, int]
) -> None:
    """``hostlist_push_hr``: one range under one prefix (with a suffix, host by host)."""
    lo, hi, width = one
    if suffix is None:
        hosts.push(_Range(prefix, lo, hi, width))
        return
    for num in _numbers(lo, hi):
        hosts.push(_Range(prefix + _pad(num, width) + suffix, single=True))


def hostlist_names(text: str, compat: str, errors: list[str]) -> list[str] | None:
    """The hosts ``hostlist_create(text)`` then ``hostlist_shift`` give, or None where it
    fails (errors said by ``_parse_single_range`` added to ``errors``).

    Cut at spaces, tabs, commas (and from Slurm 23.02 on newlines) outside brackets; in a
    token the last ``[`` opens the range list (``1-3``, ``1,3``, ``01-03`` keeping the
    width of the first number), which its first ``]`` closes; a ``[...]`` before it
    multiplies the prefix. Today text after that ``]`` is a suffix of each name (22.05:
    the hostlist fails), and a ``[`` with no ``]`` fails (22.05: the name is the prefix
    and a ``]``, or with no prefix the text after the ``[``).
    """
    old = compat == "22.05"
    hosts = _Hostlist()
    for token in _tokens(text, "\t, " if old else "\t, \n"):
        opened = token.rfind("[")
        if opened < 0:
            hosts.push_host(token)
            continue
        prefix, rest = token[:opened], token[opened + 1 :]
        closed = rest.find("]")
        if closed < 0:
            if not old:
                return None
            hosts.push_host(prefix + "]" if prefix else rest)
            continue
        after = rest[closed + 1 :]
        suffix = after if after[:1] not in (",", "") else None
        if suffix is not None and old:
            return None
        ranges = _range_list(rest[:closed], errors)
        if ranges is None or not _push_ranges(hosts, prefix, suffix, ranges, errors):
            return None
    return hosts.shift_all()
