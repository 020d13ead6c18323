"""sshare's fields: their table (names, widths, kinds, row keys), the ``-o`` grammar and
the default lists, and one cell as ``print_fields`` prints it.

Mirrors ``src/sshare/process.c`` (fields, widths, default lists, prefix matching of
``-o``) and ``src/common/print_fields.c`` (``%*.*s`` strings cut with ``+``, ``%*f``
doubles falling back to ``%*.*e``, blank NO_VAL).
"""

# ruff: noqa: UP031  (printf formats mirror the C code on purpose)
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fairshare_cli.core.names import ascii_digits
from fairshare_cli.core.slurm.char_list import char_list
from fairshare_cli.errors import InputError

FIELDS: tuple[tuple[str, int, str], ...] = (
    ("Account", -20, "str"),
    ("Cluster", 10, "str"),
    ("EffectvUsage", 13, "double"),
    ("FairShare", 10, "double"),
    ("GrpTRESMins", 30, "tres"),
    ("GrpTRESRaw", 30, "tres"),
    ("ID", 6, "uint"),
    ("LevelFS", 10, "double"),
    ("NormShares", 11, "double"),
    ("NormUsage", 11, "double"),
    ("Partition", 12, "str"),
    ("RawShares", 10, "uint"),
    ("RawUsage", 11, "uint"),
    ("TRESRunMins", 30, "tres"),
    ("User", 10, "str"),
)

#: The row key each field prints.
FIELD_KEYS = {
    "Account": "account_display",
    "Cluster": "cluster",
    "EffectvUsage": "effective_usage",
    "FairShare": "fairshare",
    "GrpTRESMins": "grp_tres_mins",
    "GrpTRESRaw": "grp_tres_raw",
    "ID": "id",
    "LevelFS": "level_fs",
    "NormShares": "norm_shares",
    "NormUsage": "norm_usage",
    "Partition": "partition",
    "RawShares": "raw_shares",
    "RawUsage": "raw_usage",
    "TRESRunMins": "tres_run_mins",
    "User": "user",
}

DEFAULT_FORMAT = "Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare"
LONG_CLASSIC = (
    "Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,"
    "GrpTRESMins,TRESRunMins"
)
LONG_FAIR_TREE = (
    "Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,"
    "FairShare,LevelFS,GrpTRESMins,TRESRunMins"
)

#: Slurm's NO_VAL / INFINITE as doubles (32- and 64-bit): printed blank.
BLANK_DOUBLES = {4294967294.0, 4294967295.0, 18446744073709551614.0}


def account_fairshare_printed(algorithm: str, output_compat: str) -> bool:
    """sshare prints an account's FairShare: Slurm 2.0 (linear) and 22.05 do; 26.05 prints
    it only on a user's row (``process.c``, ``PRINT_FSFACTOR``: ``NO_VAL64``, a blank, on
    an account's)."""
    return algorithm == "linear" or output_compat == "22.05"


@dataclass(frozen=True)
class Field:
    """A chosen output field: its name, signed width and kind."""

    name: str
    width: int
    kind: str

    @property
    def key(self) -> str:
        """The row key the field prints."""
        return FIELD_KEYS[self.name]


def default_format(long: bool, fair_tree: bool, partitions: bool = False) -> str:
    """sshare's field list without ``-o`` (``partitions``: ``-m``, Partition after User)."""
    spec = DEFAULT_FORMAT if not long else LONG_FAIR_TREE if fair_tree else LONG_CLASSIC
    return spec.replace("User,", "User,Partition,", 1) if partitions else spec


#: The widest a ``Name%N`` field may be (wider ones would only exhaust memory).
MAX_FIELD_WIDTH = 100_000


def parse_format(
    spec: str, compat: str = "current", errors: list[str] | None = None
) -> list[Field]:
    """Fields from a comma list (:func:`format_names`, ``compat`` and ``errors`` as
    there); each name matches the first field it prefixes (any case).

    ``Name%N`` sets the width to N (``atoi``: a negative N left-justifies). As process.c
    sets it on the one record of the field, every mention of a field prints the last
    width given to it.

    Raises:
        InputError: ``Invalid field requested: "x"``, or a width above ``MAX_FIELD_WIDTH``.
    """
    chosen: list[tuple[str, int, str]] = []
    widths: dict[str, int] = {}
    for item in format_names(spec, compat, errors):
        name, pct, width_text = item.partition("%")
        width = _atoi(width_text) if pct else 0
        if abs(width) > MAX_FIELD_WIDTH:
            raise InputError(
                f'-o: the width {width} of "{name}" is too large (at most {MAX_FIELD_WIDTH})'
            )
        for fname, fwidth, kind in FIELDS:
            if fname.lower().startswith(name):
                chosen.append((fname, fwidth, kind))
                if width:
                    widths[fname] = width
                break
        else:
            raise InputError(f'Invalid field requested: "{name}"')
    return [Field(fname, widths.get(fname, fwidth), kind) for fname, fwidth, kind in chosen]


def format_names(spec: str, compat: str = "current", errors: list[str] | None = None) -> list[str]:
    """The names of a comma list as ``slurm_addto_char_list`` keeps them
    (:func:`~fairshare_cli.core.slurm.char_list.addto_char_list`: trimmed from Slurm 25.05
    on, in lower case, of equal ones the last, quotes, ``name[1-3]`` expanded);
    ``errors``: what its hostlist parser says of a bracket it refuses."""
    return char_list([spec], compat, [] if errors is None else errors)


def _atoi(text: str) -> int:
    text = text.strip()
    sign = 1
    if text[:1] in "+-" and text:
        sign = -1 if text[0] == "-" else 1
        text = text[1:]
    digits = ""
    for ch in text:
        if not ascii_digits(ch):
            break
        digits += ch
    return sign * int(digits) if digits else 0


def _fmt_double_table(value: float, width: int) -> str:
    """print_fields_double's table cell: ``%*f`` (``%-*f`` for a negative width); where
    that is wider than the field, ``%*.*e`` at the field's width as width and precision,
    both cut by as much as that is still too wide. A width cut below 0 is printf's: a
    left-justified width and the default precision (Python's ``%`` takes it as 0)."""
    a = abs(width)
    left = "-" if width < 0 else ""
    text = "%*f" % (a, value)
    if len(text) <= a:
        return ("%" + left + "*f") % (a, value)
    w = a
    text = "%*.*e" % (w, w, value)
    if len(text) > a:
        w -= len(text) - a
    if w < 0:
        return "%-*e" % (-w, value)
    return ("%" + left + "*.*e") % (w, w, value)


def format_value(field: Field, value: Any, parsable: bool) -> str:
    """One cell as ``print_fields`` prints it (without the trailing separator)."""
    a = abs(field.width)
    if field.kind == "double":
        if value is None or (isinstance(value, float) and value in BLANK_DOUBLES):
            text = ""
        elif parsable:
            return "inf" if math.isinf(value) else "%f" % value
        else:
            text = _fmt_double_table(float(value), field.width)
    elif field.kind == "uint":
        if value is None:
            text = ""
        elif isinstance(value, str):
            text = value
            if not parsable and len(text) > a:
                text = text[: a - 1] + "+"
        else:
            text = "%d" % int(value)
        if parsable:
            return text
    else:
        text = "" if value is None else str(value)
        return text if parsable else text_cell(text, field.width)
    if parsable:
        return text
    return text.rjust(a) if field.width > 0 else text.ljust(a)


def text_cell(text: str, width: int) -> str:
    """A string cell as ``print_fields_str`` makes it, counting bytes as printf and
    ``strlen`` do: longer than the width, cut to its first width bytes with a ``+`` for
    the last (a UTF-8 letter cut keeps the bytes before the cut, printed as they are),
    then padded to the width (``%*.*s``; right-justified for a positive width)."""
    a = abs(width)
    if text.isascii():
        if len(text) > a:
            text = text[: a - 1] + "+"
        return text.rjust(a) if width > 0 else text.ljust(a)
    raw = text.encode("utf-8", "surrogateescape")
    if len(raw) > a:
        raw = raw[: a - 1] + b"+"
    raw = raw.rjust(a) if width > 0 else raw.ljust(a)
    return raw.decode("utf-8", "surrogateescape")


def tree_names(
    account: Sequence[str], depth: Sequence[int], is_user: Sequence[bool], picked: Sequence[int]
) -> list[str]:
    """The Account cells of the rows ``picked`` (of all rows' accounts, depths and kinds,
    in lineage order), as ``slurmdb_tree_name_get`` indents them (22.05 and 26.05 alike):
    a row one space deeper than its parent's *printed* row, none when that row is not
    printed (``-A`` leaving it out, ``-U`` every account row: sshare skips those before
    it names them). With every row printed, a space a level."""
    parents: list[str | None] = []
    last_at: dict[int, str] = {}
    for name, d, user in zip(account, depth, is_user, strict=True):
        if user:
            parents.append(name)
            continue
        parents.append(last_at.get(d - 1) if d else None)
        last_at[d] = name
    spaces: dict[str, str] = {}
    out = []
    for i in picked:
        name, parent = account[i], parents[i]
        if is_user[i]:
            out.append((" " + spaces[name] if name in spaces else "") + name)
            continue
        if parent is None or name not in spaces:
            indent = " " + spaces[parent] if parent is not None and parent in spaces else ""
            spaces.setdefault(name, indent)
        out.append(spaces[name] + name)
    return out
