"""``fs sprio --json``: a :class:`PriorityTable`'s rows as the text
``jsontext.dumps_rows(json_rows(table), JSON_FIELDS)`` prints, made column by column with
each share's texts made once (the general writer builds 100,000 rows' dicts:
``benchmarks/run.py --rows sprio-json``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

from fairshare_cli.core.slurm.priority import FACTOR_KEYS
from fairshare_cli.core.slurm.priority_table import AssocShare, PartShare, PriorityTable
from fairshare_cli.render.sprio import JSON_FIELDS


def _template() -> list[str]:
    """The text ``json.dumps(..., indent=2)`` prints for one row inside the list, split at
    its 22 values (job id, partition, user, account, QOS, priority, site, nice, then the
    factors and the weighted factors: six each and the TRES): each value stands in it as
    a string printed ``"\u0000X"``."""
    import json

    marks = ["\x00" + chr(65 + i) for i in range(22)]
    factors = dict(zip((*FACTOR_KEYS, "tres"), marks[8:15], strict=True))
    weighted = dict(zip((*FACTOR_KEYS, "tres"), marks[15:], strict=True))
    row = {**dict(zip(JSON_FIELDS[:8], marks[:8], strict=True)), "factors": factors,
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


#: Rows per piece of :func:`table_chunks` (some 700 KB of text).
CHUNK_ROWS = 1024


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
    total = sum(table.age_factors) + sum(table.weighted_ages)
    if total - total != 0 or not table.job_ids:  # (a NaN or infinity: the general writer)
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
    ids go between quotes as ``json.dumps`` prints them (:func:`_id_texts`); priorities
    are the table's own integers, printed by msgspec as ``str`` does.
    """
    import msgspec

    t = _template()
    head = f',\n  {t[0]}"'
    assoc_text = _assoc_texts(table, t)
    part_text = _part_texts(table, t, head)
    middle = _middle(table, t)
    encode = msgspec.json.encode
    ids, assocs, parts, prios = (
        _id_texts(table.job_ids),
        table.assocs,
        table.parts,
        table.priority_ints,
    )
    ages, ages_w = table.age_factors, table.weighted_ages
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
    values = [
        x
        for a in uniq
        for x in (a.assoc_factor, a.fairshare_factor, a.weighted_assoc, a.weighted_fairshare)
    ]
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
            f"{_num(s.jobsize_factor)}{t[12]}{_num(s.partition_factor)}{t[13]}"
            f"{_num(s.qos_factor)}{t[14]}{_tres(s.tres_factors)}{t[15]}",
            f"{_num(s.weighted_jobsize)}{t[19]}{_num(s.weighted_partition)}{t[20]}"
            f"{_num(s.weighted_qos)}{t[21]}{_tres(s.weighted_tres)}{t[22]}{head}",
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


def _id_texts(ids: list[str]) -> list[str]:
    """The job ids as ``json.dumps`` prints them, without their quotes: as they are when
    all are printable ASCII without a quote or a backslash (plain numbers, ``12.3``,
    ``12_3``), else each escaped."""
    joined = "".join(ids)
    if joined.isascii() and joined.isprintable() and '"' not in joined and "\\" not in joined:
        return ids
    from json.encoder import encode_basestring_ascii as quoted  # json.dumps' own, in C

    return [quoted(i)[1:-1] for i in ids]
