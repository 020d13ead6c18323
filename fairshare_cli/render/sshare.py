"""sshare's output: its field table, ``-o`` grammar and ``print_fields`` rendering.

Mirrors ``src/sshare/process.c`` (fields, widths, default lists, prefix matching of
``-o``) and ``src/common/print_fields.c`` (``%*.*s`` strings cut with ``+``, ``%*f``
doubles falling back to ``%*.*e``, blank NO_VAL, ``|``-separated parsable modes).
"""

# ruff: noqa: UP031  (printf formats mirror the C code on purpose)
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import is_, itemgetter
from typing import Any

from fairshare_cli.core.names import ascii_digits
from fairshare_cli.errors import InputError

#: (name, default width, kind) in sshare's table order; negative width = left-justified.
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
_BLANK_DOUBLES = {4294967294.0, 4294967295.0, 18446744073709551614.0}


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


def parse_format(spec: str, trim: bool = True) -> list[Field]:
    """Fields from a comma list (:func:`format_names`, ``trim`` as there); each name
    matches the first field it prefixes (any case).

    ``Name%N`` sets the width to N (``atoi``: a negative N left-justifies). As process.c
    sets it on the one record of the field, every mention of a field prints the last
    width given to it.

    Raises:
        InputError: ``Invalid field requested: "x"``, or a width above ``MAX_FIELD_WIDTH``.
    """
    chosen: list[tuple[str, int, str]] = []
    widths: dict[str, int] = {}
    for item in format_names(spec, trim):
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


def format_names(spec: str, trim: bool = True) -> list[str]:
    """The names of a comma list as ``slurm_addto_char_list`` keeps them: each trimmed of
    white space (from Slurm 25.05 on; 22.05 trims nothing: ``trim`` false) and in lower
    case; of equal ones, the last; empty ones skipped, but for a
    last one when no name came before it (sshare's ``-o ""`` asks for the first field); a
    comma at the end ignored. A list that opens with a quote (``"`` or ``'``) ends at the
    next one (what follows it is dropped), and any other quote becomes a backquote.
    (A ``[`` keeps commas from cutting up to the next ``]``, whose hostlist is expanded:
    not modelled; no field's name holds one, so either way the name is refused.)"""
    chars = list(spec)
    quote = chars[0] if chars and chars[0] in "\"'" else None
    i = start = 1 if quote else 0
    names: list[str] = []

    def add(name: str) -> None:
        name = (name.strip(" \t\n\v\f\r") if trim else name).lower()
        if name in names:
            names.remove(name)
        names.append(name)

    while i < len(chars):
        char = chars[i]
        if char == quote:
            break
        if char in "\"'":
            chars[i] = "`"
        elif char == ",":
            if i + 1 == len(chars):
                break
            if i != start:
                add("".join(chars[start:i]))
            start = i + 1
        i += 1
    if not names or i > start:
        add("".join(chars[start:i]))
    return names


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
        if value is None or (isinstance(value, float) and value in _BLANK_DOUBLES):
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
        if parsable:
            return text
        if len(text) > a:
            text = text[: a - 1] + "+"
    if parsable:
        return text
    return text.rjust(a) if field.width > 0 else text.ljust(a)


def render(
    fields: Sequence[Field],
    rows: Sequence[Mapping[str, Any]],
    *,
    mode: str = "table",
    header: bool = True,
) -> str:
    """The whole sshare output: header, dash line (table mode) and rows.

    ``mode`` is ``table``, ``parsable`` (``-p``: ``|`` after every field) or ``parsable2``
    (``-P``: no ``|`` after the last).
    """
    keys = [f.key for f in fields]
    columns = dict(zip(keys, _values(rows, keys), strict=True))
    return render_columns(fields, columns, len(rows), mode=mode, header=header)


def render_columns(
    fields: Sequence[Field],
    columns: Mapping[str, Sequence[Any]],
    count: int,
    *,
    mode: str = "table",
    header: bool = True,
) -> str:
    """:func:`render` of ``count`` rows given as columns (each row key's values in row
    order; a key not in ``columns`` is blank in every row)."""
    lines: list[str] = []
    parsable = mode != "table"
    sep = " " if mode == "table" else "|"
    tail = "" if mode == "parsable2" or not fields else sep

    if header:
        if parsable:
            lines.append(sep.join(f.name for f in fields) + tail)
        else:
            cells = []
            for f in fields:
                a = abs(f.width)
                name = f.name[:a]
                cells.append(name.rjust(a) if f.width > 0 else name.ljust(a))
            lines.append(sep.join(cells) + tail)
            lines.append(sep.join("-" * abs(f.width) for f in fields) + tail)
    if not fields:
        lines.extend("" for _ in range(count))
    values = _run_mins_again([columns.get(f.key, _Blank(count)) for f in fields], fields)
    memos: list[dict[Any, str]] = [{} for _ in fields]
    if not parsable and fields and count and all(f.width for f in fields):
        head = "".join(line + "\n" for line in lines)
        body = [
            _table_block(fields, [v[start : start + _TABLE_BLOCK] for v in values], memos)
            for start in range(0, count, _TABLE_BLOCK)
        ]
        return head + "".join(body)
    # Column by column, a block of rows at a time: each field's cells in one comprehension
    # (benchmarks/run.py --rows sshare: a third of the cost of a call per cell), then the
    # block's rows joined; blocks keep the cells of only a few rows in memory at once.
    for start in range(0, count, _BLOCK):
        cells_by_field = [
            _column(f, v[start : start + _BLOCK], parsable, memo)
            for f, v, memo in zip(fields, values, memos, strict=True)
        ]
        lines.extend(sep.join(cells) + tail for cells in zip(*cells_by_field, strict=True))
    return "".join(line + "\n" for line in lines)


def _run_mins_again(values: list[Any], fields: Sequence[Field]) -> list[Any]:
    """The columns with each TRESRunMins after the first a further 60 times smaller: sshare
    turns a row's run seconds into minutes in place as it prints the field (``process.c``,
    ``PRINT_RUNMINS``: ``tres_run_secs[i] /= 60``, 22.05 and 26.05 alike), so ``-o
    TRESRunMins,tres`` prints minutes, then hours (integer division each time)."""
    seen = 0
    for k, f in enumerate(fields):
        if f.name != "TRESRunMins":
            continue
        if seen:
            values[k] = [_divided(cell, 60**seen) for cell in values[k][:]]
        seen += 1
    return values


def _divided(cell: Any, by: int) -> Any:
    """A TRES cell (``cpu=120,mem=0``) with each count divided by ``by``, integer division;
    a blank (None), or a cell that is no such list, as it is."""
    if not isinstance(cell, str) or not cell:
        return cell
    pairs = [item.partition("=") for item in cell.split(",")]
    if not all(eq and count.isascii() and count.isdigit() for _, eq, count in pairs):
        return cell
    return ",".join(f"{name}={int(count) // by}" for name, _, count in pairs)


class _Blank:
    """``count`` Nones: the column of a key the rows do not have (sliced as a list)."""

    def __init__(self, count: int) -> None:
        self.count = count

    def __getitem__(self, part: slice) -> list[None]:
        return [None] * len(range(self.count)[part])


def _values(block: Sequence[Mapping[str, Any]], keys: list[str]) -> list[Sequence[Any]]:
    """Each key's values in ``block`` (None where a row lacks the key): one ``itemgetter``
    call a row when every row has every key, as sshare's rows do."""
    if len(keys) > 1:
        try:
            return list(zip(*map(itemgetter(*keys), block), strict=True))
        except KeyError:
            pass
    return [[row.get(key) for row in block] for key in keys]


#: Rows rendered together by :func:`render`.
_BLOCK = 512
#: The most uncommon cells one column remembers.
_MEMO_SIZE = 64


_INF = float("inf")


def _column(field: Field, values: Sequence[Any], parsable: bool, memo: dict[Any, str]) -> list[str]:
    """``[format_value(field, v, parsable) for v in values]``, with the table's common
    table cells (a finite float or an int, a string that fits) made without the general
    checks, and a few others remembered in ``memo`` by type and value (blanks, and the
    TRES column's one text cut to its width)."""

    if parsable:
        return [format_value(field, v, True) for v in values]

    def slow(value: Any) -> str:
        if type(value) is float and value == 0.0:  # one key for 0.0 and -0.0, two cells
            return format_value(field, value, False)
        key = (type(value), value)
        text = memo.get(key)
        if text is None:
            text = format_value(field, value, False)
            if len(memo) < _MEMO_SIZE:
                memo[key] = text
        return text

    a = abs(field.width)
    if field.kind == "double":
        fmt = f"%{'-' if field.width < 0 else ''}{a}f"
        return [
            t
            if type(v) is float and v not in _BLANK_DOUBLES and len(t := fmt % v) <= a
            else slow(v)
            for v in values
        ]
    if field.kind == "uint":
        fmt = f"%{a}d" if field.width > 0 else f"%-{a}d"
        return [
            fmt % v if type(v) is int or (type(v) is float and -_INF < v < _INF) else slow(v)
            for v in values
        ]
    pad = str.rjust if field.width > 0 else str.ljust
    return [pad(v, a) if type(v) is str and len(v) <= a else slow(v) for v in values]


#: Rows a table-mode block of :func:`_table_block` formats at once.
_TABLE_BLOCK = 2048
#: A number column with at most one ``None`` in this many rows goes into the row format
#: (its rows with a ``None`` are made cell by cell); with more, ``_column`` makes its cells.
_SPARSE = 32
#: The value types a number column may hold to go into the row format as ``%f`` or ``%d``.
_NUMBERS = frozenset((int, float, bool, type(None)))


def _table_block(
    fields: Sequence[Field], columns: list[Sequence[Any]], memos: list[dict[Any, str]]
) -> str:
    """Table-mode lines of a block of rows given as ``columns`` (each line with its
    newline), one ``%`` a row.

    A column holding one object in every row is printed once into the row format; a text
    column goes in as ``%Ns`` (``None`` as ""), a column of plain numbers as ``%Nf`` or
    ``%Nd`` (the rows of its few ``None`` made apart; with many, its cells made so, blank
    for ``None``), any other as the cells ``_column`` makes. Every cell is at least its
    width, so in a line of the full width every cell is its width, as ``format_value``
    makes a cell that fits; a longer line is made cell by cell with ``format_value``. A
    row the format refuses (a text in a number column) sends the block to the column
    path, which prints or refuses it (benchmarks/run.py --rows sshare: a third of the
    column path's cost).
    """
    parts: list[str] = []
    used: list[Sequence[Any]] = []
    odd: set[int] = set()
    for field, values, memo in zip(fields, columns, memos, strict=True):
        first = values[0]
        if all(map(is_, values, repeat(first))):
            parts.append(format_value(field, first, False).replace("%", "%%"))
        else:
            spec, cells = _row_format_column(field, values, memo, odd)
            parts.append(spec)
            used.append(cells)
    fmt = " ".join(parts) + " \n"
    if not used:
        return (fmt % ()) * len(columns[0])
    try:
        lines = [fmt % args for args in zip(*used, strict=True)]
    except (TypeError, ValueError, OverflowError):
        return _column_lines(fields, columns, memos)
    width = sum(abs(f.width) + 1 for f in fields) + 1
    if sum(map(len, lines)) != width * len(lines):
        odd.update(i for i, line in enumerate(lines) if len(line) != width)
    for i in odd:
        cells = [
            format_value(f, values[i], False) for f, values in zip(fields, columns, strict=True)
        ]
        lines[i] = " ".join(cells) + " \n"
    return "".join(lines)


def _row_format_column(
    field: Field, values: Sequence[Any], memo: dict[Any, str], odd: set[int]
) -> tuple[str, Sequence[Any]]:
    """A column's part of the row format and the values it takes (see :func:`_table_block`);
    the rows of a number column's ``None`` are added to ``odd``, their values stand-ins."""
    a = abs(field.width)
    left = "-" if field.width < 0 else ""
    types = set(map(type, values))
    if field.kind in ("str", "tres"):
        if type(None) in types:
            values = ["" if v is None else v for v in values]
        return f"%{left}{a}s", values
    if types <= _NUMBERS:
        if field.kind == "uint":
            spec = f"%{left}{a}d"
            if float in types:  # "%d" of a float is int() of it, at twice the cost
                values = [v if v is None else int(v) for v in values]
        elif _BLANK_DOUBLES.isdisjoint(values):
            spec = f"%{left}{a}f"
        else:
            spec = ""
        if spec and type(None) not in types:
            return spec, values
        if spec and values.count(None) * _SPARSE <= len(values):
            values = list(values)
            i = values.index(None)
            while True:
                odd.add(i)
                values[i] = 0
                try:
                    i = values.index(None, i + 1)
                except ValueError:
                    return spec, values
        if spec:  # blanks common: the cells, a number's too wide making its line too long
            blank = " " * a
            return "%s", [blank if v is None else spec % v for v in values]
    return "%s", _column(field, values, False, memo)


def _column_lines(
    fields: Sequence[Field], columns: list[Sequence[Any]], memos: list[dict[Any, str]]
) -> str:
    """Table-mode lines made column by column (each cell as ``_column`` makes it)."""
    cells_by_field = [
        _column(f, values, False, memo)
        for f, values, memo in zip(fields, columns, memos, strict=True)
    ]
    return "".join(" ".join(cells) + " \n" for cells in zip(*cells_by_field, strict=True))
