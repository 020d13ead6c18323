"""DIRAC's configuration syntax (``.cfg``), read as DIRAC's ``diraccfg.CFG`` reads it.

The facts mirrored here (from ``CFG.loadFromBuffer``, ``CFG.getOption``, ``CFG.mergeWith``
and ``ConfigurationClient.getOption``), written anew:

- Lines are stripped; blank lines are skipped; a line whose first character is ``#`` is a
  comment. A ``#`` later in a line is *not* a comment: it belongs to the value.
- Characters are scanned left to right: ``{`` opens a section named by the text gathered
  since the last statement (the name may sit on the line before the brace), ``}`` closes
  one; the first ``=`` makes the whole line an option, named by everything before the first
  ``=`` of the line, valued by everything after it; ``+=`` appends ``", value"`` to an option
  declared before. An option set twice keeps its last value.
- A section opened twice at one level, an empty name, a ``+=`` to an undeclared option and
  unbalanced braces make DIRAC refuse the file.
- An option named by a ``/`` path whose parent section DIRAC does not find is dropped
  (``setOption`` returns an error that ``loadFromBuffer`` ignores).
- Typed reads convert the text to the type of the default: ``int(text)`` (anything Python's
  ``int`` refuses gives the default), booleans true only for ``y``, ``yes``, ``true``, ``1``
  (any case), lists split on commas with blanks dropped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from fairshare_cli.core.names import shown
from fairshare_cli.errors import InputError

T = TypeVar("T")


@dataclass
class CfgSection:
    """One section: options (text) and sub-sections, in file order, with their line numbers."""

    entries: dict[str, str | CfgSection] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    line: int = 0
    """Where the section was opened (0 for the root)."""
    dropped: list[str] = field(default_factory=list)
    """(the root's) ``SOURCE:LINE: ...`` of each option DIRAC drops unseen (:func:`_set`)."""

    def section(self, path: str) -> CfgSection | None:
        """The sub-section at a ``/``-separated path, or None."""
        node: CfgSection = self
        for part in _parts(path):
            child = node.entries.get(part)
            if not isinstance(child, CfgSection):
                return None
            node = child
        return node

    def sections(self) -> list[str]:
        """Names of the sub-sections, in order."""
        return [k for k, v in self.entries.items() if isinstance(v, CfgSection)]

    def options(self) -> list[str]:
        """Names of the options, in order."""
        return [k for k, v in self.entries.items() if isinstance(v, str)]

    def text(self, path: str) -> str | None:
        """The raw text of the option at ``path``, None when absent or a section."""
        *head, name = _parts(path) or [""]
        node = self.section("/".join(head)) if head else self
        value = node.entries.get(name) if node is not None else None
        return value if isinstance(value, str) else None

    def line_of(self, path: str) -> int:
        """The line that last set the entry at ``path`` (0 when unknown)."""
        *head, name = _parts(path) or [""]
        node = self.section("/".join(head)) if head else self
        return node.lines.get(name, 0) if node is not None else 0


def _parts(path: str) -> list[str]:
    return [p.strip() for p in path.split("/") if p.strip()]


def cfg_int(text: str | None, default: int) -> int:
    """An option read with an ``int`` default (``getValue(path, 1000)``)."""
    value = cfg_int_or_none(text)
    return default if value is None else value


def cfg_int_or_none(text: str | None) -> int | None:
    """``int(text)``, or None where DIRAC's typed read would fall back to its default."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return None


def cfg_bool(text: str | None, default: bool) -> bool:
    """An option read with a ``bool`` default."""
    if text is None:
        return default
    return text.lower() in ("y", "yes", "true", "1")


def cfg_list(text: str | None, default: list[str]) -> list[str]:
    """An option read with a list default: comma-separated, blanks dropped."""
    if text is None:
        return default
    return [item.strip() for item in text.split(",") if item.strip()]


def parse_cfg(lines: Iterable[str], source: str) -> CfgSection:
    """Parse DIRAC ``.cfg`` text (an iterable of lines, e.g. an open file).

    Raises:
        InputError: ``SOURCE:LINE: ...`` for what DIRAC refuses: unbalanced braces, a section
            opened twice, an empty name, ``+=`` to an option not declared before; and for
            what DIRAC would take into a name unseen (:func:`_refuse_unseen`).
    """
    root = CfgSection()
    stack: list[CfgSection] = []
    current = root
    pending = ""
    number = since = 0  # (since: the line the text gathered in pending started on)
    for number, raw in enumerate(lines, 1):
        _refuse_unseen(raw, source, number)
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        since = since if pending else number
        if number - since >= GATHER_LINES:
            raise _gathered_too_long(source, since)
        for index, char in enumerate(line):
            if char == "{":
                name = pending.strip()
                pending = ""
                stack.append(current)
                current = _open(current, name, source, number)
                if len(stack) > MAX_DEPTH:
                    raise _nested_too_deep(source, number, name)
            elif char == "}":
                if not stack:
                    raise InputError(
                        f"{source}:{number}: '}}' closes a section that was never opened"
                    )
                current = stack.pop()
            elif char == "=":
                name, _, value = line.partition("=")
                _set(current, name.strip(), value.strip(), (source, number), root.dropped)
                pending = ""
                break
            elif line.startswith("+=", index):
                name, _, value = line.partition("+=")
                _append(current, name.strip(), value.strip(), source, number)
                pending = ""
                break
            else:
                pending += char
    if stack:
        raise InputError(
            f"{source}:{number}: the file ends inside section '{_name_of(stack[-1], current)}' "
            f"(opened on line {current.line}); expected a closing '}}'"
        )
    return root


#: How many lines a name may be gathered from (text with no ``=`` or ``{``, which DIRAC
#: joins into the name of the next section): far more than any configuration's, and a
#: pipe of text that is no configuration (``yes | fs import dirac-cfg -``) ends there.
GATHER_LINES = 1 << 16
#: How deep sections may nest. DIRAC copies and merges a configuration one call per level
#: (``CFG.clone``, ``CFG.mergeWith``, each behind a locking wrapper: two frames a level), so
#: it fails near 500 levels on Python's recursion limit; so did :func:`merge_cfg` (a
#: traceback). Real configurations nest a few levels.
MAX_DEPTH = 200
#: What the text should be, in refusals.
CFG_TEXT = "DIRAC's .cfg text"


def _gathered_too_long(source: str, since: int) -> InputError:
    """The refusal of text gathered into one name from :data:`GATHER_LINES` lines on."""
    return InputError(
        f"{source}:{since}: {GATHER_LINES:,} lines with no '=' or '{{' from here on (DIRAC "
        "would join them into one name); expected DIRAC's .cfg text ('Name = value' and "
        "'Section {' lines)"
    )


def _nested_too_deep(source: str, number: int, name: str) -> InputError:
    """The refusal of a section opened :data:`MAX_DEPTH` levels deep."""
    return InputError(
        f"{source}:{number}: section '{shown(name, 40)}' is nested more than {MAX_DEPTH} "
        "levels deep; DIRAC merges a configuration one call per level (CFG.mergeWith) and "
        f"fails near 500; expected {CFG_TEXT} nesting a few levels"
    )


def _refuse_unseen(raw: str, source: str, number: int) -> None:
    """Refuse a byte-order mark starting the file and a NUL byte: DIRAC's ``str.strip``
    keeps both, so they become part of a name (``\ufeffDIRAC``: no ``/DIRAC`` section, no
    VO, and the VO's Operations unread), and the import went on, exit 0, reading less.

    Raises:
        InputError: naming ``SOURCE:LINE``.
    """
    if number == 1 and raw.startswith("\ufeff"):
        raise InputError(
            f"{source}:1: the file starts with a byte-order mark (U+FEFF), which DIRAC reads "
            "as part of the first name; save it as UTF-8 without one"
        )
    if "\0" in raw:
        raise InputError(f"{source}:{number}: binary data (a NUL byte); expected {CFG_TEXT}")


def _name_of(parent: CfgSection, child: CfgSection) -> str:
    return next((k for k, v in parent.entries.items() if v is child), "?")


def _parent(node: CfgSection, name: str, source: str, number: int) -> tuple[CfgSection, str]:
    """Resolve a name that may be a ``/`` path into (its parent section, its last part)."""
    if not name:
        raise InputError(
            f"{source}:{number}: expected a name before '{{' or '=' "
            "(DIRAC's .cfg text: 'Name = value' and 'Section {' lines)"
        )
    if "/" not in name:
        return node, name
    parts = _parts(name)
    parent = node.section("/".join(parts[:-1])) if len(parts) > 1 else node
    if parent is None or not parts:
        raise InputError(
            f"{source}:{number}: '{shown(name, 40)}' names a section path whose parent "
            f"does not exist; expected {CFG_TEXT}"
        )
    return parent, parts[-1]


def _open(node: CfgSection, name: str, source: str, number: int) -> CfgSection:
    parent, last = _parent(node, name, source, number)
    if last in parent.entries:
        raise InputError(
            f"{source}:{number}: section '{shown(name, 40)}' is opened again (first on line "
            f"{parent.lines.get(last, '?')}); DIRAC refuses a file that repeats a section"
        )
    child = CfgSection(line=number)
    parent.entries[last] = child
    parent.lines[last] = number
    return child


def _set(node: CfgSection, name: str, value: str, at: tuple[str, int], dropped: list[str]) -> None:
    """Set an option at ``at`` (source, line), or, where DIRAC drops it unseen, say so in
    ``dropped``: ``setOption`` of a ``/`` path whose parent ``getRecursive`` does not find
    returns an error that ``loadFromBuffer`` ignores."""
    source, number = at
    if "/" in name and _unfound_parent(node, _parts(name)):
        dropped.append(
            f"{source}:{number}: '{shown(name, 40)}' names a path whose parent section does "
            "not exist; DIRAC drops the option unseen"
        )
        return
    parent, last = _parent(node, name, source, number)
    parent.entries[last] = value
    parent.lines[last] = number


def _unfound_parent(node: CfgSection, parts: list[str]) -> bool:
    """Whether ``getRecursive(path, -1)`` finds no parent (``CFG.__recurse``): no name at
    all, a name missing on the way, or an option before the parent's last name (an option
    as that last name makes ``setOption`` raise, as :func:`_parent` refuses)."""
    if not parts:
        return True
    for k, part in enumerate(parts[:-1]):
        entry = node.entries.get(part)
        if entry is None or (isinstance(entry, str) and k < len(parts) - 2):
            return True
        if isinstance(entry, str):
            return False
        node = entry
    return False


def _append(node: CfgSection, name: str, value: str, source: str, number: int) -> None:
    parent, last = _parent(node, name, source, number)
    old = parent.entries.get(last)
    if not isinstance(old, str):
        raise InputError(
            f"{source}:{number}: '{name} += ...' appends to an option not declared before; "
            f"expected '{name} = ...' first"
        )
    parent.entries[last] = f"{old}, {value}"
    parent.lines[last] = number


def merge_cfg(base: CfgSection, over: CfgSection, _where: str = "") -> CfgSection:
    """``base.mergeWith(over)``: options of ``over`` win; sections merge recursively.

    Raises:
        CfgClash: a name that is an option on one side and a section on the other, where
            ``mergeWith`` fails ("key already exists").
    """
    for name, later in over.entries.items():
        held = base.entries.get(name)
        if held is not None and isinstance(held, CfgSection) != isinstance(later, CfgSection):
            raise CfgClash(f"{_where}{name}", over.lines.get(name, 0), isinstance(later, str))
    out = CfgSection(line=over.line or base.line)
    for source in (base, over):
        for name in source.options():
            out.entries[name] = source.entries[name]
            out.lines[name] = source.lines.get(name, 0)
    for name in base.sections():
        mine = base.entries[name]
        theirs = over.entries.get(name)
        assert isinstance(mine, CfgSection)
        if isinstance(theirs, CfgSection):
            out.entries[name] = merge_cfg(mine, theirs, f"{_where}{name}/")
            out.lines[name] = over.lines.get(name, 0)
        elif name not in out.entries:
            out.entries[name] = mine
            out.lines[name] = base.lines.get(name, 0)
    for name in over.sections():
        if name not in out.entries:
            out.entries[name] = over.entries[name]
            out.lines[name] = over.lines.get(name, 0)
    return out


class CfgClash(Exception):
    """A name :func:`merge_cfg` meets as an option on one side and a section on the other:
    its path below the merged sections, the line of the later one, and whether that one is
    the option."""

    def __init__(self, path: str, line: int, option_later: bool) -> None:
        super().__init__(path)
        self.path, self.line, self.option_later = path, line, option_later


def merge_paths(root: CfgSection, paths: Iterable[str], source: str, top: str) -> CfgSection:
    """The sections at ``paths`` (below ``/top``) merged in order, as DIRAC's ``Operations``
    helper merges its search paths (``__getCache``: ``mergeWith`` each in turn, later ones
    winning); a path the file lacks, or holds as an empty option, is skipped.

    Raises:
        InputError: ``source:LINE``, where the helper fails, and with it every value read
            through it: a path that is a non-empty option (``mergeWith`` of a text), or a name
            that is an option in one path and a section in another ("key already exists").
    """
    merged = CfgSection()
    done: list[str] = []
    for path in paths:
        if root.text(path):
            raise InputError(
                f"{source}:{root.line_of(path)}: /{top}/{path} is an option, not a section: "
                f"DIRAC's {top} helper cannot merge it (CFG.mergeWith of a text) {_FAILS}; "
                "make it a section"
            )
        part = root.section(path)
        if part is None:
            continue
        try:
            merged = merge_cfg(merged, part)
        except CfgClash as clash:
            first = next(p for p in done if _entry(root, f"{p}/{clash.path}"))
            kinds = ("a section", "an option")
            raise InputError(
                f"{source}:{clash.line}: /{top}/{path}/{clash.path} is "
                f"{kinds[clash.option_later]} but /{top}/{first}/{clash.path} "
                f"{kinds[not clash.option_later]}: DIRAC's {top} helper cannot merge them "
                f"(CFG.mergeWith: '{clash.path.rsplit('/', 1)[-1]} key already exists') "
                f"{_FAILS}; make both options or both sections"
            ) from None
        done.append(path)
    return merged


_FAILS = "and fails on every value it reads (CPU segments, share correction, JobDescription)"


def refuse_read_through(section: CfgSection, paths: Iterable[str], source: str, top: str) -> None:
    """Refuse an option where DIRAC reads values below it: ``CFG.getOption`` walks a path
    part by part and asserts a section at each (``assert isinstance(dataD, CFG)``), so every
    such read fails (an ``AssertionError``), whatever the option's text, an empty one too.

    Raises:
        InputError: ``source:LINE`` naming the first such option.
    """
    for path in paths:
        if section.text(path) is not None:
            raise InputError(
                f"{source}:{section.line_of(path)}: {path} in /{top} is an option, not a "
                f"section: DIRAC reads {path}/... through it (CFG.getOption asserts a section "
                "there) and fails on every such value; make it a section"
            )


def _entry(root: CfgSection, path: str) -> bool:
    return root.section(path) is not None or root.text(path) is not None
