"""sprio's output: default formats, the ``-o`` format grammar, the header and weights
rows, the rows asked for (``-j``, ``-u``, ``-p``) in the order asked for (``-S``), and the
rows as plain values for ``--json``, ndjson and csv.

Mirrors ``src/sprio/opts.c`` (formats, ``%[.][width]letter`` parsing, ``-S`` keys) and
``src/sprio/print.c`` (``%Ns`` right-justified then cut to N, ``%.Ns`` left, the value
formats ``%.0f`` / ``%.7f`` / ``%16.14f``).
"""

# ruff: noqa: UP031  (printf formats mirror the C code on purpose)
from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from fairshare_cli.core.job_fields import sluid_text
from fairshare_cli.core.jsonlayout import Shared
from fairshare_cli.core.names import ascii_digits, job_sort_key
from fairshare_cli.core.slurm.priority import FACTOR_KEYS, Weights
from fairshare_cli.core.slurm.priority_table import PriorityTable
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


#: Letters Slurm 22.05's sprio did not know (``%n`` QOSNAME and ``%o`` ACCOUNT came in
#: 24.05, ``%s`` SLUID in 26.05): invalid fields with ``output_compat = "22.05"``.
NOT_IN_22_05 = frozenset("nos")


def parse_format(spec: str, compat: str = "current") -> tuple[SprioFormat, list[str]]:
    """Parse a format string; returns it and a warning per unknown letter (field skipped).

    The fields are split at each ``%`` as ``parse_format`` splits them with
    ``strtok_r``, which skips empty ones (``%%i`` is ``%i``; a ``%`` at the end adds
    nothing); a field of no letter (``%.``, ``%5`` before a ``%`` or the end) is an
    invalid one alone, the field after it read as its own (``%.%i`` is ``%i``). Unknown
    letters give ``Invalid job format specification: %c`` as sprio does.

    Raises:
        InputError: a field width above ``MAX_FIELD_WIDTH``.
    """
    warnings: list[str] = []
    first = spec.find("%")
    if first < 0:
        return SprioFormat(spec, ()), warnings
    prefix = spec[:first]
    fields: list[FormatField] = []
    for token in spec[first:].split("%"):
        if not token:
            continue  # (strtok_r skips an empty field: '%%i' is '%i', a last '%' nothing)
        right = token[0] == "."
        pos = 1 if right else 0
        digits = ""
        while pos < len(token) and ascii_digits(token[pos]):
            digits += token[pos]
            pos += 1
        letter = token[pos : pos + 1]
        suffix = token[pos + 1 :]
        if letter not in HEADERS or (compat == "22.05" and letter in NOT_IN_22_05):
            shown = letter or "'%' without a field letter"
            warnings.append(f"Invalid job format specification: {shown}")
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
    weights: Weights,
    *,
    long: bool,
    norm: bool,
    show_user: bool,
    compat: str = "current",
    cluster: bool = False,
) -> str:
    """sprio's format when neither ``-o`` nor ``SPRIO_FORMAT`` is given.

    ``compat = "22.05"`` gives Slurm 22.05's long formats (no ACCOUNT or QOSNAME column);
    ``cluster`` adds the short format's CLUSTER column (sprio.c: ``--sibling`` without
    ``--local`` or ``-M``).
    """
    if long:
        return _LONG_FORMATS[(norm, compat == "22.05")]
    out = "%.15i %9r"
    if cluster:
        out += " %.8c"
    if show_user:
        out += " %.8u"
    shown = [letter for letter, key in _FACTOR_COLUMNS if weights.get(key)]
    tres = tres_weights_text(weights) is not None  # sprio.c: the string is set
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
    *,
    job_flag: bool | None = None,
    job_list: Sequence[int] = (),
) -> str:
    """What ``sprio -v`` prints before the listing: the options in effect (``job_flag``:
    whether ``-j`` was given, with or without a list; by default, whether ``jobs`` has
    one), and from ``-vv`` on a line for each number of ``job_list`` (``-j``'s items as
    ``_print_options`` prints them). The uids of ``-u``'s users that sprio prints then
    (``user_list[i]``) come from the host's passwd, which fs does not read: left out."""

    def text(values: Sequence[str]) -> str:
        return ",".join(values) if values else "(null)"

    dashes = "-" * 29
    return (
        f"{dashes}\n"
        f"format     = {fmt_spec if fmt_spec is not None else '(null)'}\n"
        f"job_flag   = {1 if (jobs if job_flag is None else job_flag) else 0}\n"
        f"jobs       = {text(jobs)}\n"
        f"partition  = {text(partitions)}\n"
        f"users      = {text(users)}\n"
        f"verbose    = {verbose}\n"
        + "".join(f"job_list[{i}] = {number}\n" for i, number in enumerate(job_list) if verbose > 1)
        + f"{dashes}\n\n\n"
    )


def _cell(text: str, width: int, right: bool) -> str:
    if width <= 0:
        return text
    return fit_cell(text, width, right)


def fit_cell(text: Any, width: int, right: bool) -> str:
    """A text in a cell of ``width`` as print.c's ``_print_str`` fits it, counting bytes
    as printf does: right-justified (``%Ns``) then cut to its first ``width`` bytes, or cut
    to ``width`` bytes (``%.Ns``) then padded; a name of UTF-8 letters takes its bytes'
    room, and a cut in a letter keeps the bytes before the cut (printed as they are)."""
    shown = str(text)
    if shown.isascii():
        return shown.rjust(width)[:width] if right else shown[:width].ljust(width)
    raw = shown.encode("utf-8", "surrogateescape")
    raw = raw.rjust(width)[:width] if right else raw[:width].ljust(width)
    return raw.decode("utf-8", "surrogateescape")


def tres_weights_text(weights: Weights) -> str | None:
    """The ``PriorityWeightTRES`` string the weights row shows: as the config wrote it,
    else rebuilt from its table; None when there is none (sprio.c's ``weight_tres`` is
    then NULL)."""
    if weights.tres_text is not None:
        return weights.tres_text
    if not weights.tres:
        return None
    parts = []
    for name, value in weights.tres.items():
        text = "%d" % value if float(value).is_integer() else "%g" % value
        parts.append(f"{name}={text}")
    return ",".join(parts)


def null_string(width: int, right: bool) -> str:
    """What sprio's ``_print_str`` prints for a NULL string: glibc's ``%s`` prints
    ``(null)`` unless a precision under 6 is given (``%.Ns``: a left-justified field
    narrower than 6), which prints nothing."""
    return "" if not right and 0 < width < 6 else "(null)"


def weights_value(field: FormatField, weights: Weights) -> str:
    """The text the ``-w`` weights row shows for one format field (print.c: the weight,
    ``1`` for SITE, the TRES string under ``%T``, nothing under ``%t`` and the others)."""
    letter = field.letter
    if letter == "i":
        return "Weights"
    if letter == "S":
        return "1"
    upper = letter.upper()
    if upper in FACTOR_LETTERS:
        return "%d" % weights.get(FACTOR_LETTERS[upper])
    if letter == "T":
        text = tres_weights_text(weights)
        return null_string(field.width, field.right) if text is None else text
    return ""


WEIGHT_FIELDS = ("site", "age", "assoc", "fairshare", "jobsize", "partition", "qos", "tres")


def weights_row(weights: Weights) -> Mapping[str, Any]:
    """``sprio -w`` as data: ``PriorityWeight*`` by factor (SITE's weight is 1, as sprio
    prints it)."""
    return {
        "site": 1,
        "age": weights.age,
        "assoc": weights.assoc,
        "fairshare": weights.fairshare,
        "jobsize": weights.jobsize,
        "partition": weights.partition,
        "qos": weights.qos,
        "tres": dict(weights.tres),
    }


def head_lines(fmt: SprioFormat, weights: Weights, *, header: bool, weights_only: bool) -> str:
    """The lines before the job lines: the header (``header``), and the weights row
    instead of any job line (``weights_only``); each ends in a newline."""

    def line(values: Callable[[FormatField], str]) -> str:
        parts = [fmt.prefix]
        for f in fmt.fields:
            parts.append(_cell(values(f), f.width, f.right))
            parts.append(f.suffix)
        return "".join(parts) + "\n"

    first = line(lambda f: HEADERS[f.letter]) if header else ""
    if weights_only:
        return first + line(lambda f: weights_value(f, weights))
    return first


def selected_rows(
    table: PriorityTable,
    jobs: Sequence[str | int] | None,
    users: Sequence[str] | None,
    partitions: Sequence[str] | None,
) -> list[int]:
    """The rows of the jobs, users and partitions asked for (``-j``, ``-u``, ``-p``), in
    the table's order. A list given is a filter even when empty (sprio's ``_filter_job``):
    it then leaves no row. A job is named by its id, or the id before its ``.`` (a
    cluster's jobs); ``N.M`` names job ``N`` too (Slurm's job ``N``, step ``M``); an int
    is a SLUID's value, which names the job of that SLUID (``_list_find_job_id``: a job
    with none has no job id a SLUID's filter holds, ``NO_VAL``)."""
    rows: list[int] = list(range(len(table)))
    if jobs is not None:
        job_ids = {key for key in jobs if type(key) is str}
        sluids = {sluid_text(key) for key in jobs if type(key) is int}
        steps_of = {key.split(".")[0] for key in job_ids if "." in key}
        ids, by_id = table.job_ids, table.sluids
        rows = [
            i
            for i in rows
            if ids[i] in job_ids
            or ids[i].split(".")[0] in job_ids
            or ids[i] in steps_of
            or (sluids and by_id.get(ids[i]) in sluids)
        ]
    if users is not None:
        user_set = set(users)
        assocs = table.assocs
        rows = [i for i in rows if assocs[i].user in user_set]
    if partitions is not None:
        part_set = set(partitions)
        parts = table.parts
        rows = [i for i in rows if parts[i].partition in part_set]
    return rows


def _sort_values(letter: str, table: PriorityTable, compat: str) -> list[Any]:
    """Each row's ``-S`` key for a letter (weighted factors for the factor letters)."""
    assocs, parts = table.assocs, table.parts
    upper = letter.upper()
    if letter == "i":
        return list(map(job_sort_key, table.job_ids))
    if letter == "c":
        return [""] * len(table)
    if letter == "N":  # sort.c compares an int of NICE_OFFSET + nice (a uint32): 0 and up
        if compat == "22.05":  # first, where 22.05's compared the uint32s: the nices' order
            nices = list(table.nices)
            for i in table.admin_rows:  # (its object of an admin-set priority: 0, the least)
                nices[i] = -_NICE_OFFSET
            return nices
        return [n - _NICE_OFFSET if n >= 0 else n + _NICE_OFFSET for n in table.nices]
    if letter in _SHARE_KEYS:
        shares = assocs if letter in "ou" else parts
        return list(map(operator.attrgetter(_SHARE_KEYS[letter]), shares))
    if upper == "Y":  # get_priority_from_factors(): the double, before sprio's truncation
        return list(table.priorities)
    if upper == "T":
        return [float(sum(p.weighted_tres.values())) for p in parts]
    if upper == "A":
        return list(map(float, table.weighted_ages))
    shares = assocs if upper == "F" else parts
    return [float(getattr(s, _WEIGHTED[upper])) for s in shares]


#: Slurm's NICE_OFFSET: a job's nice is stored as this plus the nice.
_NICE_OFFSET = 0x80000000
#: The ``-S`` letters whose key is a share's attribute, and the weighted factors'.
_SHARE_KEYS = {"n": "qos", "o": "account", "r": "partition", "u": "user"}
_WEIGHTED = {"F": "weighted_fairshare", "J": "weighted_jobsize", "P": "weighted_partition",
             "Q": "weighted_qos"}  # fmt: skip


def sort_keys(spec: str, compat: str = "current") -> list[tuple[str, bool]]:
    """The ``-S`` keys in the order they are applied, as ``sort_job_list`` reads them:
    from the last character to the first, every character but ``,``, ``-`` and ``+`` a
    key letter, descending when the character before it is ``-`` (``compat`` ``"22.05"``:
    22.05's letters, without ``n`` and ``o``).

    Raises:
        InputError: ``Invalid sort specification: %c`` (the last bad character).
    """
    keys: list[tuple[str, bool]] = []
    for i in range(len(spec) - 1, -1, -1):
        letter = spec[i]
        if letter in ",-+":
            continue
        if letter not in SORT_LETTERS or (compat == "22.05" and letter in "no"):
            raise InputError(f"Invalid sort specification: {letter}")
        keys.append((letter, i > 0 and spec[i - 1] == "-"))
    return keys


def sort_order(
    table: PriorityTable, rows: list[int], spec: str, compat: str = "current"
) -> list[int]:
    """``rows`` sorted as ``-S`` asks: keys applied last to first with a stable sort
    (:func:`sort_keys`); floating keys compare equal within 1e-5.

    Raises:
        InputError: ``Invalid sort specification: %c``.
    """
    out = list(rows)
    for letter, desc in sort_keys(spec, compat):
        values = _sort_values(letter, table, compat)
        if letter in "YyAaFfJjPpQqTt":

            def cmp(x: int, y: int, values: list[float] = values) -> int:
                a, b = values[x], values[y]
                if abs(a - b) < 1e-5:
                    return 0
                return -1 if a < b else 1

            out.sort(key=functools.cmp_to_key(cmp), reverse=desc)
        else:
            out.sort(key=values.__getitem__, reverse=desc)
    return out


def json_columns(table: PriorityTable) -> dict[str, Any]:
    """The rows as columns of plain values for the JSON writer (``--json``, ndjson, csv:
    docs/json.md sprio fields), full precision: what the rows of one association or one
    partition share as :class:`~fairshare_cli.core.jsonlayout.Shared` columns (their texts
    made once: ``benchmarks/run.py --rows sprio-json``)."""
    assocs, parts = table.assocs, table.parts
    of_assoc, of_part = list(set(assocs)), list(set(parts))

    def assoc(name: str) -> Shared:
        return Shared(assocs, of_assoc, list(map(operator.attrgetter(name), of_assoc)))

    def part(name: str) -> Shared:
        return Shared(parts, of_part, list(map(operator.attrgetter(name), of_part)))

    def factors(ages: list[float], names: tuple[str, ...]) -> dict[str, Any]:
        shared = [assoc(names[0]), assoc(names[1]), *map(part, names[2:])]
        return dict(zip((*FACTOR_KEYS, "tres"), (ages, *shared), strict=True))

    return {
        "job_id": table.job_ids, "partition": part("partition"), "user": assoc("user"),
        "account": assoc("account"), "qos": part("qos"), "priority": table.priority_ints(),
        "site": table.sites, "nice": table.nices,
        "factors": factors(table.age_factors, ("assoc_factor", "fairshare_factor",
            "jobsize_factor", "partition_factor", "qos_factor", "tres_factors")),
        "weighted": factors(table.weighted_ages, ("weighted_assoc", "weighted_fairshare",
            "weighted_jobsize", "weighted_partition", "weighted_qos", "weighted_tres")),
    }  # fmt: skip
