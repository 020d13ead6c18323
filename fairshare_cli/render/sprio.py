"""sprio's output: default formats, the ``-o`` format grammar, the weights row, sorting.

Mirrors ``src/sprio/opts.c`` (formats, ``%[.][width]letter`` parsing, ``-S`` keys) and
``src/sprio/print.c`` (``%Ns`` right-justified then cut to N, ``%.Ns`` left, the value
formats ``%.0f`` / ``%.7f`` / ``%16.14f``).
"""

# ruff: noqa: UP031  (printf formats mirror the C code on purpose)
from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import msgspec

from fairshare_cli.core.names import ascii_digits
from fairshare_cli.core.slurm.priority import PriorityRow, Weights
from fairshare_cli.errors import InputError

HEADERS = {
    "i": "JOBID",
    "s": "SLUID",
    "r": "PARTITION",
    "u": "USER",
    "o": "ACCOUNT",
    "n": "QOSNAME",
    "c": "CLUSTER",
    "Y": "PRIORITY",
    "y": "PRIORITY",
    "S": "SITE",
    "A": "AGE",
    "a": "AGE",
    "B": "ASSOC",
    "b": "ASSOC",
    "F": "FAIRSHARE",
    "f": "FAIRSHARE",
    "J": "JOBSIZE",
    "j": "JOBSIZE",
    "P": "PARTITION",
    "p": "PARTITION",
    "Q": "QOS",
    "q": "QOS",
    "N": "NICE",
    "T": "TRES",
    "t": "TRES",
}
FACTOR_LETTERS = {
    "A": "age",
    "B": "assoc",
    "F": "fairshare",
    "J": "jobsize",
    "P": "partition",
    "Q": "qos",
}
#: Index of each factor letter in ``PriorityRow.f`` / ``PriorityRow.wt``.
FACTOR_INDEX = {"A": 0, "B": 1, "F": 2, "J": 3, "P": 4, "Q": 5}
SORT_LETTERS = set("ciNnoruAaFfJjPpQqTtYy")


class FormatField(msgspec.Struct, frozen=True):
    """One ``%[.][width]letter`` of a format, with the text that follows it."""

    letter: str
    width: int
    right: bool
    suffix: str


class SprioFormat(msgspec.Struct, frozen=True):
    """A parsed format: leading text and fields."""

    prefix: str
    fields: tuple[FormatField, ...]


#: The widest a ``%N`` field may be (wider ones would only exhaust memory).
MAX_FIELD_WIDTH = 100_000


def parse_format(spec: str) -> tuple[SprioFormat, list[str]]:
    """Parse a format string; returns it and a warning per unknown letter (field skipped).

    Unknown letters give ``Invalid job format specification: %c`` as sprio does.

    Raises:
        InputError: a field width above ``MAX_FIELD_WIDTH``.
    """
    warnings: list[str] = []
    first = spec.find("%")
    if first < 0:
        return SprioFormat(spec, ()), warnings
    prefix = spec[:first]
    fields: list[FormatField] = []
    pos = first
    while pos < len(spec):
        assert spec[pos] == "%"
        pos += 1
        right = False
        if pos < len(spec) and spec[pos] == ".":
            right = True
            pos += 1
        digits = ""
        while pos < len(spec) and ascii_digits(spec[pos]):
            digits += spec[pos]
            pos += 1
        letter = spec[pos] if pos < len(spec) else ""
        pos += 1
        nxt = spec.find("%", pos)
        if nxt < 0:
            nxt = len(spec)
        suffix = spec[pos:nxt]
        pos = nxt
        if letter not in HEADERS:
            warnings.append(f"Invalid job format specification: {letter}")
            continue
        width = int(digits) if digits else 0
        if width > MAX_FIELD_WIDTH:
            raise InputError(
                f"-o: the width {width} of %{letter} is too large (at most {MAX_FIELD_WIDTH})"
            )
        fields.append(FormatField(letter, width, right, suffix))
    return SprioFormat(prefix, tuple(fields)), warnings


#: ``sprio -l`` formats by (normalised ``-n``, Slurm 22.05 output): 22.05 has no ACCOUNT
#: (``%o``) or QOSNAME (``%n``) column.
_LONG_FORMATS = {
    (False, True): "%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T",
    (False, False): (
        "%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10n %.10Q %.11N %.20T"
    ),
    (True, True): "%.15i %9r %.8u %10y %10a %10b %10f %10j %10p %10q %20t",
    (True, False): "%.15i %9r %.8u %.8o %10y %10a %10b %10f %10j %10p %10n %10q %20t",
}
#: The factor columns of the short format, shown when their weight is not zero.
_FACTOR_COLUMNS = (
    ("A", "age"),
    ("B", "assoc"),
    ("F", "fairshare"),
    ("J", "jobsize"),
    ("P", "partition"),
    ("Q", "qos"),
)


def default_format(
    weights: Weights, *, long: bool, norm: bool, show_user: bool, compat: str = "current"
) -> str:
    """sprio's format when neither ``-o`` nor ``SPRIO_FORMAT`` is given.

    ``compat = "22.05"`` gives Slurm 22.05's long formats (no ACCOUNT or QOSNAME column).
    """
    if long:
        return _LONG_FORMATS[(norm, compat == "22.05")]
    out = "%.15i %9r"
    if show_user:
        out += " %.8u"
    shown = [letter for letter, key in _FACTOR_COLUMNS if weights.get(key)]
    tres = any(weights.tres.values())
    if norm:
        out += " %10y" + "".join(f" %10{letter.lower()}" for letter in shown)
        return out + (" %20t" if tres else "")
    out += " %.10Y %.10S" + "".join(f" %.10{letter}" for letter in shown)
    return out + (" %.20T" if tres else "")


def verbose_block(
    fmt_spec: str | None,
    jobs: Sequence[str],
    partitions: Sequence[str],
    users: Sequence[str],
    verbose: int,
) -> str:
    """What ``sprio -v`` prints before the listing: the options in effect."""

    def text(values: Sequence[str]) -> str:
        return ",".join(values) if values else "(null)"

    dashes = "-" * 29
    return (
        f"{dashes}\n"
        f"format     = {fmt_spec if fmt_spec is not None else '(null)'}\n"
        f"job_flag   = {1 if jobs else 0}\n"
        f"jobs       = {text(jobs)}\n"
        f"partition  = {text(partitions)}\n"
        f"users      = {text(users)}\n"
        f"verbose    = {verbose}\n"
        f"{dashes}\n\n\n"
    )


def _cell(text: str, width: int, right: bool) -> str:
    if right:
        if width > 0:
            return text.rjust(width)[:width]
        return text
    if width > 0:
        return text[:width].ljust(width)
    return text


def _num(value: float) -> str:
    return "%.0f" % value


def tres_weights_text(weights: Weights) -> str:
    """The ``PriorityWeightTRES`` string the weights row shows."""
    parts = []
    for name, value in weights.tres.items():
        text = "%d" % value if float(value).is_integer() else "%g" % value
        parts.append(f"{name}={text}")
    return ",".join(parts)


def _tres_weighted(row: PriorityRow) -> str:
    items = row.tres_w
    if not items:
        return ""
    return ",".join([f"{k}={v:.0f}" for k, v in items.items() if v])


def _tres_weighted_cached() -> Callable[[PriorityRow], str]:
    """:func:`_tres_weighted` remembered per TRES dict (jobs of one size share one)."""
    seen: dict[int, tuple[Mapping[str, float], str]] = {}

    def text(row: PriorityRow) -> str:
        hit = seen.get(id(row.tres_w))
        if hit is None:  # the dict is kept in ``seen`` so its id is not reused
            hit = seen[id(row.tres_w)] = (row.tres_w, _tres_weighted(row))
        return hit[1]

    return text


def _tres_norm(row: PriorityRow, weights: Weights) -> str:
    parts = []
    for k, v in row.tres_w.items():
        if v:
            w = weights.tres.get(k, 0.0)
            parts.append(f"{k}={'%.2f' % (v / w if w else 0.0)}")
    return ",".join(parts)


def _value_expr(letter: str, weights: Weights) -> str:
    """A Python expression (over row ``r``) for the text a job row shows for a letter."""
    if letter in FACTOR_INDEX:
        return f"'%.0f' % r.wt[{FACTOR_INDEX[letter]}]"
    upper = letter.upper()
    if upper in FACTOR_INDEX:
        w = weights.get(FACTOR_LETTERS[upper])
        if not w:
            return "'%.7f' % 0.0"
        return f"'%.7f' % (r.wt[{FACTOR_INDEX[upper]}] / {float(w)!r})"
    return {
        "i": "r.job_id",
        "s": "''",
        "r": "r.partition",
        "u": "r.user",
        "o": "r.account",
        "n": "r.qos",
        "c": "cluster",
        "Y": "'%d' % r.priority",
        "y": "'%16.14f' % (r.priority_value if r.admin else r.priority_value / 4294967295.0)",
        "S": "'%.0f' % r.site",
        "N": "'%.0f' % r.nice",
        "T": "tres_w(r)",
        "t": "tres_n(r, weights)",
    }[letter]


def _numeric(letter: str, weights: Weights) -> tuple[str, str] | None:
    """(printf conversion, value expression) for letters printed straight from a number."""
    if letter in FACTOR_INDEX:
        return ".0f", f"r.wt[{FACTOR_INDEX[letter]}]"
    upper = letter.upper()
    if upper in FACTOR_INDEX:
        w = weights.get(FACTOR_LETTERS[upper])
        return ".7f", (f"r.wt[{FACTOR_INDEX[upper]}] / {float(w)!r}" if w else "0.0")
    return {"S": (".0f", "r.site"), "N": (".0f", "r.nice"), "Y": ("d", "r.priority")}.get(letter)


def _tuple(exprs: list[str]) -> str:
    """Source of a tuple of ``exprs`` (``()`` when a format has no valid field)."""
    return "(" + "".join(f"{e}, " for e in exprs) + ")"


def compile_row(fmt: SprioFormat, weights: Weights, cluster: str) -> Callable[[PriorityRow], str]:
    """A function printing one job row of ``fmt`` (compiled once, for 100,000-job queues).

    Cells are printed as sprio prints them: right-justified means ``printf("%Ns")`` cut to
    N characters, i.e. ``%N.Ns``; left-justified ``%-N.Ns``. When every field has a
    width, numbers are formatted straight into their cells (``%10.0f``); a number too
    wide for its cell makes the line longer than the format's fixed width, and that row
    is printed again the exact (cut) way.
    """
    template = fmt.prefix.replace("%", "%%")
    fast = template
    exprs = []
    fast_exprs = []
    fixed = all(f.width > 0 for f in fmt.fields)
    length = len(fmt.prefix)
    for f in fmt.fields:
        expr = _value_expr(f.letter, weights)
        num = _numeric(f.letter, weights)
        side = "" if f.right else "-"
        if f.width > 0:
            template += f"%{side}{f.width}.{f.width}s"
        else:
            template += "%s"
        if num is not None and f.width > 0:
            fast += f"%{side}{f.width}{num[0]}"
            fast_exprs.append(num[1])
        else:
            fast += f"%{side}{f.width}.{f.width}s" if f.width > 0 else "%s"
            fast_exprs.append(expr)
        suffix = f.suffix.replace("%", "%%")
        template += suffix
        fast += suffix
        length += f.width + len(f.suffix)
        exprs.append(expr)
    source = f"def _exact(r):\n    return {template!r} % {_tuple(exprs)}\n"
    if fixed:
        source += (
            "def _row(r):\n"
            f"    line = {fast!r} % {_tuple(fast_exprs)}\n"
            f"    return line if len(line) == {length} else _exact(r)\n"
        )
    else:
        source += "_row = _exact\n"
    namespace: dict[str, Any] = {
        "cluster": cluster,
        "weights": weights,
        "tres_w": _tres_weighted_cached(),
        "tres_n": _tres_norm,
    }
    exec(compile(source, "<sprio format>", "exec"), namespace)  # built from our own pieces only
    func: Callable[[PriorityRow], str] = namespace["_row"]
    return func


def weights_value(letter: str, weights: Weights) -> str:
    """The text the ``-w`` weights row shows for one format letter."""
    if letter == "i":
        return "Weights"
    if letter == "S":
        return "1"
    upper = letter.upper()
    if upper in FACTOR_LETTERS:
        return "%d" % weights.get(FACTOR_LETTERS[upper])
    if upper == "T":
        return tres_weights_text(weights)
    return ""


def render(
    fmt: SprioFormat,
    rows: Sequence[PriorityRow],
    weights: Weights,
    *,
    header: bool = True,
    weights_only: bool = False,
    cluster: str = "",
) -> str:
    """The whole sprio output for a parsed format (:func:`render_chunks` joined)."""
    return "".join(
        render_chunks(fmt, rows, weights, header=header, weights_only=weights_only, cluster=cluster)
    )


#: Rows per piece of :func:`render_chunks` (some 100 KB of text).
CHUNK_ROWS = 1024


def render_chunks(
    fmt: SprioFormat,
    rows: Sequence[PriorityRow],
    weights: Weights,
    *,
    header: bool = True,
    weights_only: bool = False,
    cluster: str = "",
) -> Iterator[str]:
    """The sprio output for a parsed format in pieces of :data:`CHUNK_ROWS` lines (each
    ending in a newline), to be written one by one: a 100,000-job listing is never held
    as one text."""

    def line(values: Callable[[FormatField], str]) -> str:
        parts = [fmt.prefix]
        for f in fmt.fields:
            parts.append(_cell(values(f), f.width, f.right))
            parts.append(f.suffix)
        return "".join(parts)

    first: list[str] = []
    if header:
        first.append(line(lambda f: HEADERS[f.letter]))
    if weights_only:
        first.append(line(lambda f: weights_value(f.letter, weights)))
        yield "".join(text + "\n" for text in first)
        return
    if first:
        yield first[0] + "\n"
    row_text = compile_row(fmt, weights, cluster)
    for start in range(0, len(rows), CHUNK_ROWS):
        yield "\n".join(map(row_text, rows[start : start + CHUNK_ROWS])) + "\n"


def _sort_value(letter: str, row: PriorityRow) -> Any:
    if letter == "i":
        return row.sort_key
    if letter == "c":
        return ""
    if letter == "N":
        return row.nice
    if letter == "n":
        return row.qos
    if letter == "o":
        return row.account
    if letter == "r":
        return row.partition
    if letter == "u":
        return row.user
    if letter in "Yy":
        return float(row.priority)
    if letter in "Tt":
        return float(sum(row.tres_w.values()))
    return float(row.wt[FACTOR_INDEX[letter.upper()]])


def sort_rows(rows: list[PriorityRow], spec: str) -> list[PriorityRow]:
    """Sort as ``-S`` asks: keys applied last to first with a stable sort.

    Each letter may be preceded by ``-`` (descending) or ``+``; floating keys compare
    equal within 1e-5.

    Raises:
        InputError: ``Invalid sort specification: %c``.
    """
    keys: list[tuple[str, bool]] = []
    for item in (s.strip() for s in spec.split(",") if s.strip()):
        desc = item.startswith("-")
        letter = item.lstrip("+-")[:1]
        if letter not in SORT_LETTERS:
            raise InputError(f"Invalid sort specification: {letter or item}")
        keys.append((letter, desc))
    out = list(rows)
    for letter, desc in reversed(keys):
        if letter in "YyAaFfJjPpQqTt":

            def cmp(x: PriorityRow, y: PriorityRow, letter: str = letter) -> int:
                a, b = _sort_value(letter, x), _sort_value(letter, y)
                if abs(a - b) < 1e-5:
                    return 0
                return -1 if a < b else 1

            out.sort(key=functools.cmp_to_key(cmp), reverse=desc)
        elif letter in _ATTR_KEYS:  # a plain attribute: no Python call a row
            out.sort(key=operator.attrgetter(_ATTR_KEYS[letter]), reverse=desc)
        else:
            out.sort(key=functools.partial(_sort_value, letter), reverse=desc)
    return out


#: The ``-S`` letters whose key (:func:`_sort_value`) is a row attribute.
_ATTR_KEYS = {
    "i": "sort_key",
    "N": "nice",
    "n": "qos",
    "o": "account",
    "r": "partition",
    "u": "user",
}


def json_rows(rows: Sequence[PriorityRow]) -> list[Mapping[str, Any]]:
    """The ``--json`` objects (docs/json.md sprio fields), full precision."""
    return [
        {
            "job_id": r.job_id,
            "partition": r.partition,
            "user": r.user,
            "account": r.account,
            "qos": r.qos,
            "priority": r.priority,
            "site": r.site,
            "nice": r.nice,
            "factors": r.factors,
            "weighted": r.weighted,
        }
        for r in rows
    ]
