"""sprio's listing of a :class:`~fairshare_cli.core.slurm.priority_table.PriorityTable`
in a parsed format (``-o``, ``-l``, ...): sprio's cells (``src/sprio/print.c``: ``%Ns``
right-justified then cut to N, ``%.Ns`` left, the values as ``%.0f``, ``%.7f`` or
``%16.14f``), with the cells an :class:`AssocShare` or a :class:`PartShare` decides
printed once each.

A format's fields fall in four kinds: the row's own (job id, SLUID, priority, site, nice,
age), its ``AssocShare``'s (user, account, ASSOC, fair share), its ``PartShare``'s
(partition, QOS name, job size, partition, QOS, TRES) and constants (cluster). Neighbouring cells
of one share and the text between them are joined once a share; a line is then one ``%``
of the row's values and those pieces, with a template made once for the format (a row
column of one value is part of it).

A measured hot loop (``benchmarks/run.py --rows sprio``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from itertools import repeat
from typing import Any

from fairshare_cli.core.jsonlayout import key_getter
from fairshare_cli.core.slurm.priority import Weights
from fairshare_cli.core.slurm.priority_table import PartShare, PriorityTable
from fairshare_cli.render.sprio import (
    FACTOR_LETTERS,
    SprioFormat,
    fit_cell,
    head_lines,
    null_string,
)

#: Rows per piece of :func:`listing_chunks` (some 100 KB of text).
CHUNK_ROWS = 1024

_ASSOC_LETTERS = set("uoBbFf")
_PART_LETTERS = set("rnJjPpQqTt")
#: The table column each row letter reads, and the printf conversion its value takes when
#: every value fits its cell (None: printed as text, then cut to the cell).
_ROW_VALUES: dict[str, tuple[str, str | None]] = {
    "i": ("jid", None),
    "s": ("sluid", None),
    "Y": ("pi", "d"),
    "y": ("py", None),
    "S": ("site", ".0f"),
    "N": ("nice", ".0f"),
    "A": ("aw", ".0f"),
    "a": ("an", None),
}
#: The columns whose values the table makes (not the jobs'), of one type each: the weighted
#: ages floats, the priorities floats (whole numbers with an admin-set one among them).
_TYPED = frozenset(("pi", "aw"))
_COLUMNS: dict[str, Callable[[PriorityTable], list[Any]]] = {
    "jid": lambda table: table.job_ids,
    "sluid": lambda table: list(map(table.sluids.get, table.job_ids, repeat(""))),
    "pi": lambda table: _long_long(
        list(table.priority_ints()) if table.admin_rows else table.priorities
    ),
    "py": PriorityTable.priority_fractions,
    "site": lambda table: table.sites,
    "nice": lambda table: table.nices,
    "aw": lambda table: table.weighted_ages,
    "an": lambda table: _admin_as_none(table.weighted_ages, table),
}


#: ``(long long)`` of a double outside its range, on x86-64 (``cvttsd2si``'s "integer
#: indefinite"): what sprio's ``%Y`` prints for a priority of 2^63 and more.
_LLONG_INDEFINITE = -(2**63)


def _long_long(values: list[Any]) -> list[Any]:
    """The PRIORITY column as print.c's ``(long long)`` cast prints it (22.05 and 26.05):
    a sum of 2^63 or more (a weight near 2^32 times a factor of ``NO_NORMAL_QOS``' or
    ``NO_NORMAL_PART``'s raw priority) is ``-9223372036854775808`` on an x86-64 host; the
    values as they are when every one fits."""
    if not values or max(values) < 2**63:
        return values
    indefinite = float(_LLONG_INDEFINITE) if isinstance(values[0], float) else _LLONG_INDEFINITE
    return [v if v < 2**63 else indefinite for v in values]


def _admin_as_none(values: list[Any], table: PriorityTable) -> list[Any]:
    """``values`` with None in the rows of an admin-set priority (the list itself when
    there are none)."""
    if not table.admin_rows:
        return values
    out = list(values)
    for i in table.admin_rows:
        out[i] = None
    return out


def _kind(letter: str, weights: Weights, admin: bool) -> str:
    """Whose value a letter prints: ``row``, ``assoc``, ``part`` or ``const`` (``admin``:
    the table has rows of an admin-set priority)."""
    if letter in _ASSOC_LETTERS:
        return "assoc"
    if letter in _PART_LETTERS:
        return "part"
    if letter == "a" and not weights.get(FACTOR_LETTERS["A"]) and not admin:
        return "const"
    return "row" if letter in _ROW_VALUES else "const"


def _groups(fmt: SprioFormat, weights: Weights, admin: bool) -> list[tuple[str, list[Any]]]:
    """The format as a sequence of row fields and groups (``assoc``, ``part`` or ``const``)
    of neighbouring cells of one kind with the text around them."""
    out: list[tuple[str, list[Any]]] = []
    kind: str = "const"
    items: list[Any] = [fmt.prefix]
    for f in fmt.fields:
        k = _kind(f.letter, weights, admin)
        if k == "row":
            out.append((kind, items))
            out.append(("row", [f]))
            kind, items = "const", []
        elif k == "const" or k == kind or kind == "const":
            kind = kind if k == "const" else k
            items.append(f)
        else:
            out.append((kind, items))
            kind, items = k, [f]
        items.append(f.suffix)
    out.append((kind, items))
    return out


def _cell_spec(f: Any) -> str:
    """The printf conversion that prints a text in a field's cell (``%N.Ns``: cut to N)."""
    side = "" if f.right else "-"
    return f"%{side}{f.width}.{f.width}s" if f.width > 0 else "%s"


#: What a factor letter's cell shows: the weighted factor (a share's, or the row's age;
#: ``an`` for ``-n``'s age: None in an admin-set priority's row).
_WEIGHTED = {
    "A": "aw",
    "a": "an",
    "B": "r.weighted_assoc",
    "F": "r.weighted_fairshare",
    "J": "r.weighted_jobsize",
    "P": "r.weighted_partition",
    "Q": "r.weighted_qos",
}
#: The expression of each other letter's text, over a share ``r`` or a row's columns.
_TEXTS = {
    "i": "jid", "s": "sluid", "r": "r.partition", "u": "r.user", "o": "r.account",
    "n": "r.qos", "c": "cluster", "Y": "'%d' % pi", "y": "'%16.14f' % py",
    "S": "'%.0f' % site", "N": "'%.0f' % nice", "T": "tres_w(r)", "t": "tres_n(r, weights)",
}  # fmt: skip


def _expr(letter: str, weights: Weights) -> str:
    """The expression of a letter's text over a share ``r`` or a row's columns: a
    weighted factor as ``%.0f``, the factor itself (``-n``'s lower-case letters: the
    weighted one over its weight) as ``%.7f``, but ``zero`` in an admin-set priority's rows
    (print.c's ``_print_*_priority_normalized``: ``_print_int(0)``, "0", for a direct
    priority; Slurm 22.05's had no such case and printed its zeroed factor, "0.0000000")."""
    if letter in _WEIGHTED and letter.isupper():
        return f"'%.0f' % {_WEIGHTED[letter]}"
    upper = letter.upper()
    if upper in _WEIGHTED:
        w = weights.get(FACTOR_LETTERS[upper])
        value = _WEIGHTED[letter if letter == "a" else upper]
        norm = f"'%.7f' % ({value} / {float(w)!r})" if w else "'0.0000000'"
        return f"(zero if {'an is None' if letter == 'a' else 'r.admin'} else {norm})"
    return _TEXTS[letter]


def _field_expr(f: Any, weights: Weights) -> str:
    """:func:`_expr` of a field, but for ``%c`` with no cluster name (a cluster in no
    federation, whose slurmctld sends none): what sprio prints for a NULL string, which
    depends on the field's width and side."""
    if f.letter == "c":
        return f"(cluster if cluster is not None else {null_string(f.width, f.right)!r})"
    return _expr(f.letter, weights)


def _tres_weighted_cached() -> Callable[[PartShare], str]:
    """The weighted TRES a share shows (``cpu=12,mem=3``: the non-zero ones), remembered
    per TRES dict (the shares of jobs of one size share one)."""
    seen: dict[int, tuple[Mapping[str, float], str]] = {}

    def text(share: PartShare) -> str:
        items = share.weighted_tres
        hit = seen.get(id(items))
        if hit is None:  # the dict is kept in ``seen`` so its id is not reused
            shown = ",".join([f"{k}={v:.0f}" for k, v in items.items() if v]) if items else ""
            hit = seen[id(items)] = (items, shown)
        return hit[1]

    return text


def _tres_norm(share: PartShare, weights: Weights) -> str:
    """The TRES factors a share shows with ``-n`` (each non-zero weighted one over its
    weight)."""
    parts = []
    for k, v in share.weighted_tres.items():
        if v:
            w = weights.tres.get(k, 0.0)
            parts.append(f"{k}={'%.2f' % (v / w if w else 0.0)}")
    return ",".join(parts)


def _group_texts(groups: list[list[Any]], weights: Weights, namespace: dict[str, Any]) -> Any:
    """A function printing, for each of a list of shares, the text of each of ``groups``
    (cells and the literal text around them), as a tuple (one list comprehension, not a
    call a share)."""
    parts = []
    for items in groups:
        template = "".join(
            i.replace("%", "%%") if isinstance(i, str) else "%s" if _named(i) else _cell_spec(i)
            for i in items
        )
        exprs = "".join(
            f"fit({_field_expr(i, weights)}, {i.width}, {i.right}), "
            if _named(i)
            else f"{_field_expr(i, weights)}, "
            for i in items
            if not isinstance(i, str)
        )
        parts.append(f"{template!r} % ({exprs}), ")
    source = f"lambda shares: [({''.join(parts)}) for r in shares]"
    return eval(compile(source, "<sprio cells>", "eval"), namespace)  # our own pieces only


def _named(f: Any) -> bool:
    """Whether a field prints a name (user, account, partition, QOS) in a cell of a width:
    fitted by :func:`~fairshare_cli.render.sprio.fit_cell`, by its bytes."""
    return f.letter in "uorn" and f.width > 0


def _fits(ends: tuple[Any, Any], conversion: str, width: int) -> bool:
    """Whether every value of a column (all ints, or all finite floats) printed with
    ``conversion`` fits a cell of ``width``, told by its smallest and largest values
    (``ends``): then the numbers go straight into their cells, never cut."""
    return width > 0 and all(len(("%" + conversion) % v) <= width for v in ends)


def _row_column(
    f: Any, table: PriorityTable, weights: Weights, namespace: dict[str, Any]
) -> tuple[str, list[Any], dict[Any, str] | None]:
    """The printf conversion of a row letter's cell, the column of values it prints and
    their cells' texts by value, or None: numbers straight into their cells where they all
    fit, else texts (cut to the cell); a column of few distinct integers (site, nice) by
    the text of each value, made once."""
    name, conversion = _ROW_VALUES[f.letter]
    values: list[Any] = _COLUMNS[name](table)
    side = "" if f.right else "-"
    ends: tuple[Any, ...] = ()
    if not values or (name not in _TYPED and conversion is None):
        kinds: set[type] = set()
    else:
        kinds = {type(values[0])} if name in _TYPED else _kinds(values)
    # Sites and nices take few values: their ends and texts are found among those.
    distinct = set(values) if kinds == {int} and f.letter in "SN" else values
    if conversion is not None:
        if kinds == {int}:
            ends = (min(distinct), max(distinct))
            if conversion == ".0f" and max(map(abs, ends)) <= 2**53:
                conversion = "d"  # whole numbers print the same, quicker
        elif kinds == {float}:
            total = sum(values)
            if total - total != 0:  # an infinity or a NaN (or too large a sum): as text
                conversion = None
            else:
                ends = (min(values), max(values))
        else:  # mixed kinds, or none (an empty column)
            conversion = None
    text: Any = None
    if conversion is not None and _fits(ends, conversion, f.width):
        spec = f"%{side}{f.width}{conversion}"
        cell = spec.__mod__
    else:
        expr = _expr(f.letter, weights)
        if expr == name:  # the job id or SLUID: the text itself
            return _id_column(f, values)
        spec = _cell_spec(f)
        text = eval(compile(f"lambda {name}: {expr}", "<sprio cell>", "eval"), dict(namespace))
        cell = lambda v: spec % text(v)  # noqa: E731  one cell, as the row path prints it
    # Only sites and nices take few values (a priority column has about one a row).
    texts = few_texts(values, cell, distinct) if kinds == {int} and f.letter in "SN" else None
    if kinds == {float} and f.letter in "Aa":  # ages: often one (every job past the max age)
        texts = _few_floats(values, cell)
    if texts is not None:
        return "%s", values, texts
    if text is not None:
        return spec, list(map(text, values)), None
    return spec, values, None


def _id_column(f: Any, values: list[str]) -> tuple[str, list[Any], None]:
    """The job id column's conversion and values: the ids into ``%N.Ns`` cells, or, one
    not ASCII among them, each fitted by its bytes (:func:`fit_cell`)."""
    if f.width > 0 and not "".join(values).isascii():
        return "%s", [fit_cell(v, f.width, f.right) for v in values], None
    return _cell_spec(f), values, None


def _few_floats(values: list[float], cell: Callable[[Any], str]) -> dict[Any, str] | None:
    """:func:`few_texts` of a column of floats, told by its first rows first; None where a
    zero is among them (a set keeps one of 0.0 and -0.0, which print apart)."""
    head = values[:4096]
    if len(set(head)) * 16 > len(head):
        return None
    distinct = set(values)
    return None if 0.0 in distinct else few_texts(values, cell, distinct)


def _kinds(values: list[Any]) -> set[type]:
    """The types of a column's values as ``%d`` and ``%.0f`` tell them apart: ``{int}``
    for integers (bools among them print alike), told by their sum's type (at C speed; a
    float or another number makes it another), else the type of each value (none for no
    value)."""
    try:
        whole = bool(values) and type(sum(values)) is int
    except TypeError:  # not numbers
        whole = False
    return {int} if whole else set(map(type, values))


#: The table column of the shares of each kind.
_SHARES = {"assoc": "assocs", "part": "parts"}


def listing_chunks(
    fmt: SprioFormat,
    table: PriorityTable,
    weights: Weights,
    *,
    header: bool = True,
    weights_only: bool = False,
    cluster: str | None = None,
    compat: str = "current",
) -> Iterator[str]:
    """sprio's listing in pieces of :data:`CHUNK_ROWS` lines (each ending in a newline), to
    be written one by one (a 100,000-job listing is never held as one text): the header
    (``header``), then the weights row (``weights_only``) or the table's rows
    (:func:`filled_chunks`)."""
    first = head_lines(fmt, weights, header=header, weights_only=weights_only)
    if first:
        yield first
    if weights_only or not len(table):
        return
    row, slots = _layout(fmt, table, weights, cluster, compat)
    yield from filled_chunks(row, slots, len(table))


#: A column of values, the text of each value for each conversion of a row it fills (None:
#: the values as they are) and those conversions (counted from 0).
Slot = tuple[list[Any], "tuple[dict[Any, Any], ...] | None", tuple[int, ...]]


def filled_chunks(row: str, slots: list[Slot], rows: int) -> Iterator[str]:
    """The text of ``rows`` rows of the template ``row`` (one ``%`` conversion a slot's
    place), :data:`CHUNK_ROWS` at a time: each chunk is one
    ``%`` of the template repeated a row, the rows' values laid out in one list by slice
    assignment (no Python code a row; a column of several places is looked up once a
    place, in that place's texts, by one ``key_getter`` a chunk)."""
    width = sum(len(places) for _, _, places in slots)
    full = row * CHUNK_ROWS
    for start in range(0, rows, CHUNK_ROWS):
        stop = start + CHUNK_ROWS
        count = min(rows, stop) - start
        values: list[Any] = [None] * (width * count)
        for column, texts, places in slots:
            piece = column[start:stop]
            if texts is None:
                values[places[0] :: width] = piece
                continue
            look_up = key_getter(piece)
            for k, cells in zip(places, texts, strict=True):
                values[k::width] = look_up(cells)
        yield (full if count == CHUNK_ROWS else row * count) % tuple(values)


def few_texts(
    values: list[Any], text: Callable[[Any], str], distinct: Collection[Any] | None = None
) -> dict[Any, str] | None:
    """The text of each value of a column of few distinct ones (at most one in 16 rows:
    sites, nices), made once; None for a column of many. ``distinct``: the values' set,
    when known."""
    distinct = set(values if distinct is None else distinct)
    return {v: text(v) for v in distinct} if len(distinct) * 16 <= len(values) else None


def _layout(
    fmt: SprioFormat, table: PriorityTable, weights: Weights, cluster: str | None, compat: str
) -> tuple[str, list[Slot]]:
    """A row's template and what fills its ``%s`` and numbers: table columns, each with
    the text of each of its values (few integers; the tuple of texts of a share, one a
    place it fills) or None (the values go in as they are)."""
    # ("an": -n's age where it is a constant, of a table with no admin-set priority)
    namespace = {"cluster": cluster, "weights": weights, "tres_w": _tres_weighted_cached(),
                 "tres_n": _tres_norm, "an": 0.0, "fit": fit_cell,
                 "zero": "0.0000000" if compat == "22.05" else "0"}  # fmt: skip
    specs: list[str] = []
    slots: list[Slot] = []
    groups: dict[str, list[list[Any]]] = {kind: [] for kind in _SHARES}
    places: dict[str, list[int]] = {kind: [] for kind in _SHARES}
    conversions = 0
    for kind, items in _groups(fmt, weights, bool(table.admin_rows)):
        if kind == "row":
            spec, values, texts = _row_column(items[0], table, weights, namespace)
            if texts is not None and len(texts) == 1:  # one value: its text is constant
                specs.append(next(iter(texts.values())).replace("%", "%%"))
                continue
            specs.append(spec)
            slots.append((values, None if texts is None else (texts,), (conversions,)))
        elif kind == "const":
            ((text,),) = _group_texts([items], weights, namespace)([None])
            specs.append(text.replace("%", "%%"))
            continue
        else:
            specs.append("%s")
            places[kind].append(conversions)
            groups[kind].append(items)
        conversions += 1
    for kind, column in _SHARES.items():
        if groups[kind]:
            texts = _group_texts(groups[kind], weights, namespace)
            values = getattr(table, column)
            shares = list(set(values))  # (in any order: a text a share)
            by_place = zip(*texts(shares), strict=True)  # each place's texts, a share's each
            cells = tuple(dict(zip(shares, place, strict=True)) for place in by_place)
            slots.append((values, cells, tuple(places[kind])))
    return "".join(specs) + "\n", slots
