"""``fs sprio --json``: the rows' JSON text, built for msgspec (byte-identical to
``emit_rows(json_rows(rows), fields, "json")``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
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
    is the same (magnitudes from 1e-4 to below 1e16, and zeros); None if one is not
    finite."""
    import msgspec

    from fairshare_cli.core.jsontext import LARGE, SMALL
    from fairshare_cli.render.fastjson import plain_floats

    total = sum(values)
    if total - total != 0:
        return None
    texts = msgspec.json.encode(values).decode("ascii")[1:-1].split(",") if values else []
    if not plain_floats(values):
        small, large = SMALL, LARGE
        texts = [
            t if not x or small <= abs(x) < large else repr(x)
            for x, t in zip(values, texts, strict=True)
        ]
    return texts


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


def table_chunks(table: PriorityTable) -> Iterator[str] | None:
    """``--json`` of a :class:`PriorityTable` (its rows' :func:`json_text`), in pieces: the
    texts of each :class:`AssocShare` and :class:`PartShare` made once,
    each row's own values put between them; None when a non-finite age needs the general writer.

    A measured hot loop (``benchmarks/run.py --rows sprio-json``).
    """
    ages = _float_texts(table.ages)
    ages_w = _float_texts(table.ages_w)
    if ages is None or ages_w is None or not table.ids:
        return None
    return _table_pieces(table, ages, ages_w)


def _table_pieces(table: PriorityTable, ages: list[str], ages_w: list[str]) -> Iterator[str]:
    """The pieces of :func:`table_chunks` (``ages``, ``ages_w``: the texts of the rows' age
    factors and weighted age factors). Job ids are plain numbers (``compute_table`` makes
    no table otherwise): they are quoted as they are."""
    from json.encoder import encode_basestring_ascii as quoted  # json.dumps' own, in C

    t = _template()
    uniq = list(dict.fromkeys(table.assocs))
    values = [x for a in uniq for x in (a.f_assoc, a.f_fs, a.b, a.c)]
    texts = _float_texts(values) or list(map(_num, values))
    assoc_text: dict[AssocShare, tuple[str, ...]] = {
        a: (
            f"{t[2]}{quoted(a.user)}{t[3]}{quoted(a.account)}{t[4]}",
            f"{t[9]}{fa}{t[10]}{ff}{t[11]}",
            f"{t[16]}{b}{t[17]}{c}{t[18]}",
        )
        for a, (fa, ff, b, c) in zip(uniq, zip(*[iter(texts)] * 4, strict=True), strict=True)
    }
    part_text: dict[PartShare, tuple[str, ...]] = {
        s: (
            f'"{t[1]}{quoted(s.partition)}',
            f"{quoted(s.qos)}{t[5]}",
            f"{_num(s.f_js)}{t[12]}{_num(s.f_part)}{t[13]}{_num(s.f_qos)}{t[14]}"
            f"{_tres(s.tres_f)}{t[15]}",
            f"{_num(s.d)}{t[19]}{_num(s.e)}{t[20]}{_num(s.g)}{t[21]}{_tres(s.tres_w)}{t[22]}",
        )
        for s in dict.fromkeys(table.parts)
    }
    t0, t6, t7, t8 = ",\n  " + t[0] + '"', t[6], t[7], t[8]
    for start in range(0, len(table.ids), CHUNK_ROWS):
        stop = start + CHUNK_ROWS
        ids, prios, sites, nices, age_t, age_w_t = (
            c[start:stop]
            for c in (table.ids, table.priority_ints, table.sites, table.nices, ages, ages_w)
        )
        ats = list(map(assoc_text.__getitem__, table.assocs[start:stop]))
        pts = list(map(part_text.__getitem__, table.parts[start:stop]))
        # Each row as two texts under 512 bytes (Python's small-object allocator): quicker
        # than one longer text.
        pieces: list[str] = [""] * (2 * len(ids))
        pieces[::2] = [
            f"{t0}{jid}{pa}{aa}{pq}{p}{t6}{site}{t7}{nice}{t8}{age}"
            for jid, (aa, _, _), (pa, pq, _, _), p, site, nice, age
            in zip(ids, ats, pts, prios, sites, nices, age_t, strict=True)
        ]  # fmt: skip
        pieces[1::2] = [
            f"{ab}{pb}{age_w}{ad}{pd}"
            for (_, ab, ad), (_, _, pb, pd), age_w in zip(ats, pts, age_w_t, strict=True)
        ]
        if start == 0:  # the first row follows "[" rather than ","
            pieces[0] = "[" + pieces[0][1:]
        yield "".join(pieces)  # (not copied again to change its first character)
    yield "\n]"


_NONE: Any = object()

JSON_KEYS = (
    "job_id", "partition", "user", "account", "qos", "priority", "site", "nice", "factors",
    "weighted",
)  # fmt: skip
