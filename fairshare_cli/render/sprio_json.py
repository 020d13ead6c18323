"""``fs sprio --json``: the rows' JSON text, built for msgspec (byte-identical to
``emit_rows(json_rows(rows), fields, "json")``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from fairshare_cli.core.slurm.priority import FACTOR_KEYS, PriorityRow
from fairshare_cli.core.slurm.priority_table import (
    AssocShare,
    PartShare,
    PriorityTable,
)
from fairshare_cli.render.sprio import json_rows


def json_text(rows: Sequence[PriorityRow], fields: Sequence[str]) -> str:
    """``--json`` of sprio rows: the text of ``emit_rows(json_rows(rows), fields, "json")``
    (:func:`json_chunks` joined)."""
    return "".join(json_chunks(rows, fields))


def json_chunks(rows: Sequence[PriorityRow], fields: Sequence[str]) -> Iterator[str]:
    """:func:`json_text` in pieces to write one by one (rows that all carry a ``group``
    are printed some 1,000 at a time, so the text of a 100,000-job queue is never whole).

    A measured hot loop (``benchmarks/run.py --rows sprio-json``): rows are built straight
    for msgspec; a row with a float msgspec would print unlike ``repr`` goes through
    :func:`fastjson.prepared` first. (Printing each row with a ``%`` template is slower:
    ``repr`` of a float costs more than msgspec's whole row.)
    """
    from fairshare_cli.render import fastjson

    if tuple(fields) != JSON_KEYS:
        yield fastjson.dumps_rows(json_rows(rows), fields)
        return
    if rows and all(r.group is not None for r in rows):
        chunks = _grouped_chunks(rows)
        if chunks is not None:
            yield from chunks
            return
    plain = fastjson.plain_floats
    prepared = fastjson.prepared
    checked: dict[int, tuple[Mapping[str, float], bool]] = {}  # TRES dicts are shared
    out = []
    keys = FACTOR_KEYS
    for r in rows:
        tf, tw = r.tres_f, r.tres_w
        hit = checked.get(id(tf))
        if hit is None:  # the dict stays in ``checked`` so its id is not reused
            hit = checked[id(tf)] = (tf, plain(tf.values()))
        ok = hit[1]
        hit = checked.get(id(tw))
        if hit is None:
            hit = checked[id(tw)] = (tw, plain(tw.values()))
        f, wt = r.f, r.wt
        factors: dict[str, Any] = dict(zip(keys, f, strict=True))
        factors["tres"] = tf
        weighted: dict[str, Any] = dict(zip(keys, wt, strict=True))
        weighted["tres"] = tw
        row = {
            "job_id": r.job_id, "partition": r.partition, "user": r.user,
            "account": r.account, "qos": r.qos, "priority": r.priority, "site": r.site,
            "nice": r.nice, "factors": factors, "weighted": weighted,
        }  # fmt: skip
        out.append(row if ok and hit[1] and plain((*f, *wt)) else prepared(row))
    text = fastjson.dumps_ready(out)
    yield text if text is not None else fastjson.dumps_rows(json_rows(rows), fields)


#: The row's values in the order ``json.dumps`` prints them: where each comes from (the
#: row itself, its ``group[0]`` or its ``group[1]``, see :class:`PriorityRow`) and its name.
_SLOTS = (
    ("row", "job_id"), ("part", "partition"), ("who", "user"), ("who", "account"),
    ("who", "qos"), ("row", "priority"), ("row", "site"), ("row", "nice"),
    ("row", "f0"), ("who", "f1"), ("who", "f2"), ("part", "f3"), ("part", "f4"),
    ("who", "f5"), ("part", "tres_f"),
    ("row", "wt0"), ("who", "wt1"), ("who", "wt2"), ("part", "wt3"), ("part", "wt4"),
    ("who", "wt5"), ("part", "tres_w"),
)  # fmt: skip


def _template() -> list[str]:
    """The text ``json.dumps(..., indent=2)`` prints for one row inside the list, split at
    its values (:data:`_SLOTS`): each value stands in it as a string printed ``"\u0000X"``."""
    import json

    marks = ["\x00" + chr(65 + i) for i in range(len(_SLOTS))]
    factors = dict(zip((*FACTOR_KEYS, "tres"), marks[8:15], strict=True))
    weighted = dict(zip((*FACTOR_KEYS, "tres"), marks[15:], strict=True))
    row = {**dict(zip(JSON_KEYS[:8], marks[:8], strict=True)), "factors": factors,
           "weighted": weighted}  # fmt: skip
    pieces = json.dumps([row], indent=2)[4:-2].split('"\\u0000')
    return [pieces[0], *(p[2:] for p in pieces[1:])]


def _num(x: float) -> str:
    """A float as ``json.dumps(jsonable(x))`` prints it."""
    if x - x == 0:
        return repr(x)
    import json

    from fairshare_cli.render.formats import jsonable

    return json.dumps(jsonable(x))


def _tres(tres: Mapping[str, float]) -> str:
    """A TRES mapping as ``json.dumps(..., indent=2)`` prints it three levels deep."""
    import json

    from fairshare_cli.render.formats import jsonable

    return json.dumps(jsonable(tres), indent=2).replace("\n", "\n      ")


def _group_pieces(t: list[str], w: tuple[str, ...], p: tuple[str, ...]) -> tuple[str, ...]:
    """The row text of a group between its rows' own values (job id, priority, site,
    nice, age factor and weighted age factor), from the template (:func:`_template`), the
    texts of the row's ``who`` (user, account, QOS, ASSOC, fair-share and QOS factors and
    their weighted values) and those of its ``part`` (partition, job-size and partition
    factors, TRES factors, their weighted values)."""
    return (
        t[0],
        f"{t[1]}{p[0]}{t[2]}{w[0]}{t[3]}{w[1]}{t[4]}{w[2]}{t[5]}",
        t[6],
        t[7],
        t[8],
        f"{t[9]}{w[3]}{t[10]}{w[4]}{t[11]}{p[1]}{t[12]}{p[2]}{t[13]}{w[5]}{t[14]}{p[3]}{t[15]}",
        f"{t[16]}{w[6]}{t[17]}{w[7]}{t[18]}{p[4]}{t[19]}{p[5]}{t[20]}{w[8]}{t[21]}{p[6]}{t[22]}",
    )


def _float_texts(values: list[float]) -> list[str] | None:
    """``repr`` of each finite float (what ``json.dumps`` prints), msgspec's text where it
    is the same; None if one is not finite.

    msgspec prints the whole list at once, as ``repr`` does from 1e-4 to below 1e16 in
    magnitude, and zeros. Outside, its text has an exponent (``e``: every magnitude of 1e16
    or more, some below 1e-4) or reads ``0.0000...`` (a magnitude below 1e-4 has four
    zero decimals): only the values at such places are printed again, by ``repr``.
    """
    total = sum(values)
    if total - total != 0:
        return None
    return _finite_texts(values)


def _finite_texts(values: list[float]) -> list[str]:
    """:func:`_float_texts` of values known to be finite."""
    import msgspec

    data = msgspec.json.encode(values)
    text = data.decode("ascii")[1:-1]
    texts = text.split(",") if values else []
    if b"e" in data or b"0.0000" in data:
        for i in _places(text, ("e", "0.0000")):
            texts[i] = repr(values[i])
    return texts


def _places(text: str, needles: tuple[str, ...]) -> list[int]:
    """The positions, in the comma-separated list ``text``, of the items holding one of
    ``needles`` (in order, each once)."""
    starts = set()
    for needle in needles:
        at = text.find(needle)
        while at >= 0:
            starts.add(at)
            at = text.find(needle, at + 1)
    places: list[int] = []
    index = previous = 0
    for at in sorted(starts):
        index += text.count(",", previous, at)
        previous = at
        if not places or places[-1] != index:
            places.append(index)
    return places


def _grouped_chunks(rows: Sequence[PriorityRow]) -> Iterator[str] | None:
    """``--json`` of rows that all carry a ``group``, in pieces: the texts of each ``who``,
    each ``part`` and each group made once, each row's own values put in (the age floats'
    texts made in bulk first); None when a non-finite age needs the general writer.

    A measured hot loop (``benchmarks/run.py --rows sprio-json``).
    """
    ages = _float_texts([r.f[0] for r in rows])
    ages_w = _float_texts([r.wt[0] for r in rows])
    if ages is None or ages_w is None:
        return None
    return _grouped_pieces(rows, ages, ages_w)


#: Rows per piece of :func:`_grouped_pieces` (some 700 KB of text).
CHUNK_ROWS = 1024


def _grouped_pieces(
    rows: Sequence[PriorityRow], ages: list[str], ages_w: list[str]
) -> Iterator[str]:
    """The pieces of :func:`_grouped_chunks` (``ages``, ``ages_w``: the texts of the rows'
    age factors and weighted age factors)."""
    from json.encoder import encode_basestring_ascii as quoted  # json.dumps' own, in C

    template = _template()
    whos: dict[int, tuple[str, ...]] = {}
    parts: dict[int, tuple[str, ...]] = {}
    groups: dict[int, tuple[str, ...]] = {}
    out: list[str] = []
    add = out.append
    lead = "[\n  "
    for r, age, age_w in zip(rows, ages, ages_w, strict=True):
        g = groups.get(id(r.group))
        if g is None:
            pair: tuple[object, object] = r.group  # type: ignore[assignment]
            who, part = pair
            w = whos.get(id(who))
            f, wt = r.f, r.wt
            if w is None:
                w = whos[id(who)] = (
                    quoted(r.user), quoted(r.account), quoted(r.qos), _num(f[1]), _num(f[2]),
                    _num(f[5]), _num(wt[1]), _num(wt[2]), _num(wt[5]),
                )  # fmt: skip
            p = parts.get(id(part))
            if p is None:
                p = parts[id(part)] = (
                    quoted(r.partition), _num(f[3]), _num(f[4]), _tres(r.tres_f),
                    _num(wt[3]), _num(wt[4]), _tres(r.tres_w),
                )  # fmt: skip
            g = groups[id(r.group)] = _group_pieces(template, w, p)
        g0, g1, g2, g3, g4, g5, g6 = g
        add(f"{g0}{quoted(r.job_id)}{g1}{r.priority}{g2}{r.site}{g3}{r.nice}{g4}{age}{g5}"
            f"{age_w}{g6}")  # fmt: skip
        if len(out) == CHUNK_ROWS:
            yield lead + ",\n  ".join(out)
            lead = ",\n  "
            out.clear()
    yield (lead + ",\n  ".join(out) if out else "") + "\n]"  # ``rows`` is not empty


def table_chunks(
    table: PriorityTable, opening: bool = True, closing: bool = True
) -> Iterator[str] | None:
    """``--json`` of a :class:`PriorityTable` (its rows' :func:`json_text`), in pieces: the
    texts of each :class:`AssocShare` and :class:`PartShare` made once,
    each row's own values put between them; None when a non-finite age needs the general writer.

    Without ``closing``, the text stops where the next row's job id goes (a table listed
    after this one continues it); without ``opening``, it starts there.

    A measured hot loop (``benchmarks/run.py --rows sprio-json``).
    """
    total = sum(table.ages) + sum(table.ages_w)
    if total - total != 0 or not table.ids:  # (a NaN or infinity: the general writer)
        return None
    return _table_pieces(table, opening, closing)


def _table_pieces(table: PriorityTable, opening: bool, closing: bool) -> Iterator[str]:
    """The pieces of :func:`table_chunks` (the age factors finite), each one join of
    :data:`CHUNK_ROWS` rows' texts laid out column by column (slice assignment: no Python
    code a row); the age factors' texts made a chunk at a time (a whole column's are 13 MB
    at 100,000 rows: ``benchmarks/run.py --rows sprio-json``).

    A row is 12 texts: its job id, priority, site and nice, age factors and the texts its
    shares decide (each share's made once, found once a row and spread over its places by
    ``zip``); each row's last text opens the next row (the last row's is cut back). Job
    ids are plain numbers (``compute_table`` makes no table otherwise): they are quoted as
    they are; priorities are the table's own integers, printed by msgspec as ``str`` does.
    """
    import msgspec

    t = _template()
    head = f',\n  {t[0]}"'
    assoc_text = _assoc_texts(table, t)
    part_text = _part_texts(table, t, head)
    middle = _middle(table, t)
    encode = msgspec.json.encode
    ids, assocs, parts, prios = table.ids, table.assocs, table.parts, table.priority_ints
    ages, ages_w = table.ages, table.ages_w
    rows = len(ids)
    if opening:
        yield f'[\n  {t[0]}"'
    for start in range(0, rows, CHUNK_ROWS):
        stop = start + CHUNK_ROWS
        a0, a1, a2 = zip(*map(assoc_text.__getitem__, assocs[start:stop]), strict=True)
        p0, p1, p2, p3 = zip(*map(part_text.__getitem__, parts[start:stop]), strict=True)
        pieces: list[str] = [""] * (12 * len(a0))
        pieces[::12] = ids[start:stop]
        pieces[1::12] = p0
        pieces[2::12] = a0
        pieces[3::12] = p1
        pieces[4::12] = encode(prios[start:stop]).decode("ascii")[1:-1].split(",")
        pieces[5::12] = middle(start, stop)
        pieces[6::12] = _finite_texts(ages[start:stop])
        pieces[7::12] = a1
        pieces[8::12] = p2
        pieces[9::12] = _finite_texts(ages_w[start:stop])
        pieces[10::12] = a2
        pieces[11::12] = p3
        if stop >= rows and closing:
            pieces[-1] = pieces[-1][: -len(head)]
        yield "".join(pieces)
    if closing:
        yield "\n]"


def _assoc_texts(table: PriorityTable, t: list[str]) -> dict[AssocShare, tuple[str, str, str]]:
    """Each :class:`AssocShare`'s three texts in a row (see :func:`_table_pieces`): after
    the partition, after the age factor and after the weighted one."""
    from json.encoder import encode_basestring_ascii as quoted  # json.dumps' own, in C

    uniq = list(set(table.assocs))  # (in any order: texts a share)
    values = [x for a in uniq for x in (a.f_assoc, a.f_fs, a.b, a.c)]
    texts = _float_texts(values) or list(map(_num, values))
    return {
        a: (
            f"{t[2]}{quoted(a.user)}{t[3]}{quoted(a.account)}{t[4]}",
            f"{t[9]}{fa}{t[10]}{ff}{t[11]}",
            f"{t[16]}{b}{t[17]}{c}{t[18]}",
        )
        for a, (fa, ff, b, c) in zip(uniq, zip(*[iter(texts)] * 4, strict=True), strict=True)
    }


def _part_texts(
    table: PriorityTable, t: list[str], head: str
) -> dict[PartShare, tuple[str, str, str, str]]:
    """Each :class:`PartShare`'s four texts in a row (see :func:`_table_pieces`): after
    the job id, after the user and account, after the age factor and at the row's end
    (with ``head``, the start of the next row)."""
    from json.encoder import encode_basestring_ascii as quoted  # json.dumps' own, in C

    return {
        s: (
            f'"{t[1]}{quoted(s.partition)}',
            f"{quoted(s.qos)}{t[5]}",
            f"{_num(s.f_js)}{t[12]}{_num(s.f_part)}{t[13]}{_num(s.f_qos)}{t[14]}"
            f"{_tres(s.tres_f)}{t[15]}",
            f"{_num(s.d)}{t[19]}{_num(s.e)}{t[20]}{_num(s.g)}{t[21]}{_tres(s.tres_w)}{t[22]}{head}",
        )
        for s in set(table.parts)
    }


def _middle(table: PriorityTable, t: list[str]) -> Callable[[int, int], Iterable[str]]:
    """The texts of rows ``start:stop`` from the priority to the age factor (site and
    nice): where every site is one integer and the nices are integers, made once a nice
    (once a site where the nices are one integer); else a row at a time, as ``f"{x}"``
    prints them (``str``)."""
    sites, nices = table.sites, table.nices
    kinds = {int}
    if set(map(type, sites)) <= kinds and set(map(type, nices)) <= kinds:
        if len(set(sites)) == 1:
            site = sites[0]
            by_nice = {n: f"{t[6]}{site}{t[7]}{n}{t[8]}" for n in set(nices)}
            return lambda start, stop: map(by_nice.__getitem__, nices[start:stop])
        if len(set(nices)) == 1:
            nice = nices[0]
            by_site = {s: f"{t[6]}{s}{t[7]}{nice}{t[8]}" for s in set(sites)}
            return lambda start, stop: map(by_site.__getitem__, sites[start:stop])
    text = f"{t[6]}%s{t[7]}%s{t[8]}".__mod__
    return lambda start, stop: map(text, zip(sites[start:stop], nices[start:stop], strict=True))


_NONE: Any = object()

JSON_KEYS = (
    "job_id", "partition", "user", "account", "qos", "priority", "site", "nice", "factors",
    "weighted",
)  # fmt: skip
