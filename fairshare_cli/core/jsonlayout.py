"""The JSON writer's rows laid out from columns with shared values: part of
:mod:`fairshare_cli.core.jsontext` (the one JSON writer), which hands :func:`layout_text`
the columns :func:`~fairshare_cli.core.jsontext.columns_text` takes and the text of a
single value (its own ``dumps_indented``).

The text is ``json.dumps([row, ...], indent=2)`` of rows whose values are given a column
at a time, where a column may also be

- a :class:`Shared` column: row ``i`` holds the value of its key (the factors that the
  jobs of one association share, say): the text of each key's value is made once;
- a mapping of columns: row ``i`` holds an object of each of their ``i``-th values.

One row's text is laid out once as pieces (its keys, indentation and separators as
``json.dumps`` prints them, and a slot a value); the rows are then made :data:`CHUNK` at a
time by one join of those pieces repeated, each slot's texts laid out by slice assignment
(no Python code a row). Neighbouring shared columns of one key list are one slot, with
the text between them and around them in each of its texts (made once a key); a column of
one value is text; plain ASCII text goes in as it is, between quotes
(``benchmarks/run.py --rows sprio-json``).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from functools import partial
from itertools import repeat
from json.encoder import encode_basestring_ascii as _quoted  # json.dumps' own, in C
from operator import itemgetter
from typing import Any

import msgspec

#: Rows made at a time (some 700 KB of text at ``fs sprio --json``'s rows).
CHUNK = 1024
#: The rows that tell whether a column holds few distinct values (at most one in 16 rows).
_SAMPLE = 4096
#: What separates two rows in the list: ``json.dumps``' item separator and indent.
_BETWEEN = ",\n  "


class Shared:
    """A column whose row ``i`` holds the value of its key ``column[i]``: ``values[k]``
    that of ``keys[k]`` (each key once, the two lists in step); the text of each value is
    made once. Shared columns of one ``column`` (the same object) and one ``keys`` list
    next to each other are printed together."""

    __slots__ = ("column", "keys", "values")

    def __init__(self, column: Sequence[Hashable], keys: list[Any], values: list[Any]) -> None:
        self.column = column
        self.keys = keys
        self.values = values

    def rows(self) -> list[Any]:
        """The column's value in each row."""
        by_key = dict(zip(self.keys, self.values, strict=True))
        return list(map(by_key.__getitem__, self.column))


def column_values(column: Any) -> list[Any]:
    """A column's value in each row: a :class:`Shared` column's looked up, a mapping of
    columns' objects made (each row's a dict of theirs)."""
    if isinstance(column, Shared):
        return column.rows()
    if isinstance(column, Mapping):
        keys = list(column)
        inner = [column_values(c) for c in column.values()]
        return [dict(zip(keys, row, strict=True)) for row in zip(*inner, strict=True)]
    return list(column)


#: A value slot of a row: the column it reads and the text of each of its values by
#: value or key (None: the values are their texts; a function: makes each value's text).
_Slot = tuple[Sequence[Any], "dict[Any, str] | Callable[[Any], str] | None"]


def layout_text(
    columns: Mapping[str, Any],
    count: int,
    text_of: Callable[[Any], str],
    floats: Callable[[list[float]], list[str]],
) -> Iterator[str]:
    """The text of ``count`` rows given as ``columns`` (see the module docstring), in
    pieces to write one after another; ``text_of(value)`` is one value's ``--json``
    text, ``json.dumps(jsonable(value), indent=2)``, and ``floats(values)`` that of each
    of a list of finite floats (made at once).

    Raises:
        ValueError: a column that does not hold ``count`` values.
    """
    if not count:
        yield "[]"
        return
    items: list[Any] = []
    _lay_out(columns, 1, items, count, (text_of, floats))
    head, row = _row(items)
    width = len(row)
    slots = _grouped(row)
    base = [None if type(item) is tuple else item for item in row]
    del items, row  # (the columns' texts before they were joined: megabytes, not kept)
    yield "[\n  " + head
    for start in range(0, count, CHUNK):
        stop = min(count, start + CHUNK)
        pieces = base * (stop - start)
        for places, column, make in slots:
            piece = column[start:stop]
            if type(make) is tuple:  # (shared: each place's texts looked up by key, in C)
                look_up = key_getter(piece)
                for k, texts in zip(places, make, strict=True):
                    pieces[k::width] = look_up(texts)
            else:
                pieces[places[0] :: width] = piece if make is None else make(piece)
        text = "".join(pieces)  # type: ignore[arg-type]
        yield text if stop < count else text[: -len(_BETWEEN + head)]
    yield "\n]"


def _grouped(row: list[Any]) -> list[tuple[tuple[int, ...], Sequence[Any], Any]]:
    """The row's slots as (places in the row, column, what makes a piece's texts): the
    slots of texts by key of one key list together, with a tuple of each place's texts by
    key; another slot's function of the piece, or None (the values are their texts)."""
    out: list[tuple[tuple[int, ...], Sequence[Any], Any]] = []
    shared: dict[int, list[tuple[int, dict[Any, str]]]] = {}
    columns: dict[int, Sequence[Any]] = {}
    for k, item in enumerate(row):
        if _shared(item):
            shared.setdefault(id(item[0]), []).append((k, item[1]))
            columns[id(item[0])] = item[0]
        elif type(item) is tuple:
            out.append(((k,), item[0], item[1]))
    for key, slots in shared.items():
        places = tuple(k for k, _ in slots)
        out.append((places, columns[key], tuple(texts for _, texts in slots)))
    return out


def key_getter(keys: Sequence[Hashable]) -> Callable[[Mapping[Any, Any]], Sequence[Any]]:
    """What looks up each of ``keys`` in a mapping at once, in C (``itemgetter(*keys)``; a
    tuple for one key too): a chunk's texts of a shared column, by the table's writer too."""
    if len(keys) == 1:
        key = keys[0]
        return lambda texts: (texts[key],)
    return itemgetter(*keys)


def _strs(piece: Sequence[str]) -> list[str]:
    return list(map(_quoted, piece))


def _lay_out(
    columns: Mapping[str, Any], depth: int, out: list[Any], count: int, text_of: Any
) -> None:
    """Append to ``out`` the pieces of one row's object at ``depth``: its texts (keys,
    separators, indentation) and a slot for each leaf column."""
    if not columns:
        out.append("{}")
        return
    pad = "\n" + "  " * (depth + 1)
    for n, (key, column) in enumerate(columns.items()):
        out.append(("{" if not n else ",") + pad + _quoted(key) + ": ")
        if isinstance(column, Mapping):
            _lay_out(column, depth + 1, out, count, text_of)
        else:
            out.extend(_slot(column, depth + 1, count, text_of))
    out.append("\n" + "  " * depth + "}")


def _slot(column: Any, depth: int, count: int, text_of: Any) -> list[Any]:
    """A leaf column's slot (with the texts around it): a shared column's texts a key; a
    column of few distinct values (one type; no float zero, whose sign a set forgets) the
    text of each; plain ASCII text between quotes; ints, other text and finite floats made
    text a chunk at a time (a whole column's texts: 20 MB at ``fs sprio --json``'s
    240,000 ages); else a text a row."""
    if isinstance(column, Shared):
        if len(column.column) != count or len(column.keys) != len(column.values):
            raise ValueError("columns of different lengths")
        return [Shared(column.column, column.keys, _texts(column.values, depth, text_of))]
    if isinstance(column, array):  # machine numbers: made ints or floats a chunk at a time
        if len(column) != count:
            raise ValueError("columns of different lengths")
        return [(column, partial(_array_texts, depth, text_of))]
    values = column if isinstance(column, list) else list(column)
    if len(values) != count:
        raise ValueError("columns of different lengths")
    first = type(values[0])
    if first is str and _plain_text(values):  # (its text between quotes)
        return ['"', (values, None), '"']
    # (few: told by the first rows first, which a column of many has many of; of one type,
    # or all ints, so that equal values print alike)
    sample = _few(values[:_SAMPLE], min(count, _SAMPLE)) if first in _PLAIN else None
    if sample is not None and (
        _all_ints(values) if first is int else set(map(type, values)) == {first}
    ):
        distinct = _distinct(values, sample)
        if len(distinct) * 16 <= count and not (first is float and 0.0 in distinct):
            keys = list(distinct)
            return [Shared(values, keys, _texts(keys, depth, text_of))]
    if first is int or first is float:  # (checked a chunk at a time, as it is made text)
        return [(values, partial(_number_texts, depth, text_of))]
    if first is str and set(map(type, values)) == {str}:
        return [(values, _strs)]
    return [(_texts(values, depth, text_of), None)]


#: The types whose values a set tells apart as JSON does (one type a column).
_PLAIN = frozenset((int, float, str, bool, type(None)))


def _few(values: Any, count: int) -> set[Any] | None:
    """The distinct ``values`` if they are at most one in 16 of ``count`` (else None, and
    for a value a set refuses)."""
    try:
        distinct = set(values)
    except TypeError:  # (unhashable)
        return None
    return distinct if len(distinct) * 16 <= count else None


def _distinct(values: list[Any], sample: set[Any]) -> set[Any]:
    """The distinct ``values``, ``sample`` those of its first rows: those few (at most
    four) where their counts add up to every row, each count a pass in C (mostly the same
    object: a site or nice of 0, an age factor of 1), else a set of the whole column
    (``fs sprio --json``'s 120,000 sites, nices and ages)."""
    if len(sample) <= 4 and sum(map(values.count, sample)) == len(values):
        return sample
    return set(values)


def _all_ints(values: list[Any]) -> bool:
    """Whether every value is an int (an int subclass too, not a bool: each prints as
    its number), told by msgspec in C."""
    try:
        msgspec.convert(values, list[int], strict=True)
    except msgspec.ValidationError:
        return False
    return True


def _number_texts(depth: int, text_of: Any, piece: list[Any]) -> list[str]:
    """The texts of a chunk of a column of numbers: ints and finite floats (no bool, no
    float subclass such as ``Time``: msgspec checks each in C) made text at once by
    ``text_of[1]``, which prints both as ``json.dumps`` does; any other chunk a value at a
    time (:func:`_texts`). A chunk is checked as it is made text, while in the CPU's cache
    (``fs sprio --json``'s ages: 240,000 floats). A chunk of ints only is told first: no
    float is made of each (``fs sprio --json``'s priorities)."""
    if _all_ints(piece):
        return text_of[1](piece)  # type: ignore[no-any-return]
    try:
        msgspec.convert(piece, list[float], strict=True)  # (ints and floats)
        total = sum(piece)
    except (msgspec.ValidationError, OverflowError):  # (ints beyond a float's range)
        return _texts(piece, depth, text_of)
    if total - total == 0:  # (no NaN nor infinity: those print as jsonable says)
        return text_of[1](piece)  # type: ignore[no-any-return]
    return _texts(piece, depth, text_of)


def _array_texts(depth: int, text_of: Any, piece: array[Any]) -> list[str]:
    """The texts of a chunk of an ``array.array`` column (:func:`_number_texts` of its
    values as Python numbers, made for the chunk only)."""
    return _number_texts(depth, text_of, piece.tolist())


def _plain_text(values: list[Any]) -> bool:
    """Whether every value is text (joined: anything else refuses to join) that JSON
    prints as it is: printable ASCII (space to ``~``) without a quote or a backslash, each
    told by a pass in C over the joined text (no copy of it: 120,000 job ids at
    ``fs sprio --json``)."""
    try:
        joined = "".join(values)
    except TypeError:
        return False
    return joined.isascii() and joined.isprintable() and '"' not in joined and "\\" not in joined


def _texts(values: list[Any], depth: int, text_of: Any) -> list[str]:
    """Each value's text in a row at ``depth``: finite floats by ``text_of[1]`` (the
    list at once), ints and text as ``json.dumps`` prints them (``int.__repr__``, its ASCII
    escape), anything else by ``text_of[0]``, indented to ``depth``."""
    kinds = set(map(type, values))
    if kinds == {float}:
        total = sum(values)
        if total - total == 0:  # (no NaN nor infinity: those print as jsonable says)
            return text_of[1](values)  # type: ignore[no-any-return]
    elif kinds == {int}:
        return list(map(int.__repr__, values))
    elif kinds == {str}:
        return list(map(_quoted, values))
    pad = "\n" + "  " * depth
    return [text_of[0](v).replace("\n", pad) for v in values]


def _row(items: list[Any]) -> tuple[str, list[Any]]:
    """The text before the first slot of a row (``head``) and a row's pieces after it: its
    slots and texts, the last text the row's end, the separator and the next row's head.

    A slot of one text is text; neighbouring shared slots of one key list, with the text
    between, are one slot; a text next to a shared slot is part of each of its texts
    (:func:`_texts_by_key`: each such slot's texts made once, from its parts)."""
    merged: list[Any] = []  # (a shared slot as a list: its column and its texts' parts)
    for item in [*items, _BETWEEN]:
        if type(item) is Shared:  # (a slot's: its values are their texts)
            if len(item.keys) == 1:
                item = item.values[0]  # one value: its text is constant
            elif len(merged) > 1 and type(merged[-1]) is str and _joins(merged[-2], item):
                group: list[Any] = merged[-2]
                group[1] += (merged.pop(), item)  # (the text between, the slot's texts)
                continue
            else:
                item = [item.column, [item]]
        if type(item) is str and merged and type(merged[-1]) is str:
            merged[-1] += item
            continue
        merged.append(item)
    head = merged.pop(0) if len(merged) > 1 and type(merged[0]) is str else ""
    if type(merged[-1]) is str:
        merged[-1] += head
    else:
        merged.append(head)
    row: list[Any] = []
    for item in merged:
        if type(item) is str and row and type(row[-1]) is list:
            row[-1][1].append(item)
            continue
        if type(item) is list and row and type(row[-1]) is str:
            item[1].insert(0, row.pop())
        row.append(item)
    return head, [(item[0], _texts_by_key(item[1])) if type(item) is list else item for item in row]


def _texts_by_key(parts: list[Any]) -> dict[Any, str]:
    """A shared slot's text of each key: its parts (texts, and :class:`Shared` texts of
    one key list) joined, made in C (thousands of keys a slot at ``fs sprio --json``)."""
    keys = next(part for part in parts if type(part) is Shared).keys
    pieces = [repeat(part) if type(part) is str else part.values for part in parts]
    texts = map("".join, zip(*pieces, strict=False))  # (the repeats are endless)
    return dict(zip(keys, texts, strict=True))


def _shared(item: Any) -> bool:
    """Whether a piece is a slot of texts by value or key."""
    return type(item) is tuple and isinstance(item[1], dict)


def _joins(before: Any, item: Shared) -> bool:
    """Whether a shared slot being made (a list: column and parts) and the shared slot
    after it are texts of one column by one key list, in one order (printed as one)."""
    return type(before) is list and before[0] is item.column and before[1][0].keys == item.keys
