"""A jobs file's pieces checked for an object giving a key twice, for the jobs reader.

msgspec keeps the last value of a key given twice, without a word; the jobs reader
(:mod:`fairshare_cli.io.jobs`) hands each piece it decoded here. Most pieces are certified
by one count of colons or commas: a piece is decoded with a *shape* record, the reader's
record with the ``F`` keys of one object (the last one checked) made required. Each object
then gives each of those keys at least once, so a piece of ``n`` objects has at least
``n * F`` colons outside strings (one after each key) and ``n * F - 1`` commas (between
objects, between keys). Exactly that many colons (or commas) in the whole text means no
object gives a key more than once, nor any other key, and none is inside a string or a
nested value (a time as text has colons, a list of partitions commas: one count of the
two is enough). Any other piece is decoded as it is and counted by
:func:`~fairshare_cli.io.json_keys.surely_distinct`; where a repeat may be, the exact
reader reads the file and names the key. The count costs ``fs sprio -l`` of 100,000 jobs
some 9 ms of its 600 (``benchmarks/run.py`` row ``sprio``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import attrgetter
from typing import Any

import msgspec

from fairshare_cli.io.json_keys import surely_distinct


class Shapes:
    """The shape record of the objects read so far, and its decoder.

    A record holding raw JSON text (:func:`~fairshare_cli.io.job_records.raw_job_record`) is
    certified against its sink: each piece's commas beyond ``n * F - 1`` are owed to the
    raw texts (a nested object's, a list's), and a sink that counts the commas of the raw
    texts of every record it took (``raw_commas``) settles the debt at the end
    (:meth:`settled`). Its shape record refuses any other key, and commas anywhere else
    (another text field's, a key given twice) leave a debt the raw texts cannot settle:
    the exact reader reads the file. (``fs taskqueues``: some 55 ms of 1.8 s for 500,000
    jobs, row ``taskqueues``.)
    """

    def __init__(
        self,
        sink: Any,
        decoder_of: Callable[[type], Any],
        objects: Callable[[bytes], Any],
    ) -> None:
        """For the jobs reader's ``sink``; ``decoder_of`` makes the decoder of a list of
        records, ``objects`` decodes a piece as it is (the reader's decoders)."""
        self.decoder_of = decoder_of
        self.objects = objects
        self.record: type | None = None
        self.decoder: Any = None
        self.keys = 0  # the fields of the shape
        self.certified = False  # the last piece decoded
        self.sink = sink if hasattr(sink, "raw_commas") else None
        self.owed = 0  # commas of the raw texts, by the count of the pieces
        self.raw = False  # the shape holds raw texts the sink counts

    def decode(self, piece: bytes) -> list[Any] | None:
        """The piece's records by the shape record (None: it refuses them; the caller
        decodes them with its own record); :attr:`certified`: free of repeated keys, else
        the caller calls :meth:`check`."""
        self.certified = False
        if self.decoder is None:
            return None
        try:
            jobs: list[Any] = self.decoder.decode(piece)
        except msgspec.ValidationError:  # another key set: checked the slow way
            return None
        keys = len(jobs) * self.keys
        if self.raw:
            self.owed += piece.count(b",") - (keys - 1)
            self.certified = True
        else:
            self.certified = piece.count(b":") == keys or piece.count(b",") == keys - 1
        return jobs

    def settled(self) -> bool:
        """Whether the raw texts the sink kept hold the commas owed to them."""
        return self.sink is None or self.sink.raw_commas() == self.owed

    def check(self, piece: bytes, record: type, jobs: list[Any]) -> bool:
        """Whether the piece surely gives each key of each object once (False: the exact
        reader tells); ``jobs``: its records, of type ``record``. The shape of its last
        object becomes the next pieces' shape."""
        try:
            objs = self.objects(piece)
        except (ValueError, RecursionError):  # (the reader decoded it: never)
            return False
        if not surely_distinct(piece, objs):
            return False
        held: tuple[str, ...] = getattr(record, "raw_fields", ())
        for field in held if self.sink is not None else ():  # (what the sink will count)
            self.owed += b"".join(map(attrgetter(field), jobs)).count(b",")
        last = objs[-1] if objs and type(objs) is list else None
        keys = tuple(last) if type(last) is dict else ()
        if keys and set(keys) <= set(record.__struct_fields__):  # type: ignore[attr-defined]
            raw = set(held).intersection(keys)
            self.raw = bool(raw) and self.sink is not None
            self.record = shape_record(record, keys, self.raw)
            self.decoder = self.decoder_of(self.record)
            self.keys = len(keys)
        return True


@cache
def shape_record(record: type, keys: tuple[str, ...], alone: bool = False) -> type:
    """``record`` (a msgspec struct) with the fields ``keys`` required, its fields in its
    order (a sink may key records by their fields, in order). Its other fields keep their
    defaults; ``alone``: they are the class's, not the record's, and an object giving one
    is refused (only the ``keys`` are read from the text, in the order of ``record``)."""
    spec: list[Any] = []
    defaults: dict[str, Any] = {}
    for field in msgspec.structs.fields(record):
        if field.name in keys:
            spec.append((field.name, field.type))
        elif field.default_factory is not msgspec.NODEFAULT:
            made = msgspec.field(default_factory=field.default_factory)
            spec.append((field.name, field.type, made))
            defaults[field.name] = field.default_factory()
        elif field.default is not msgspec.NODEFAULT:
            spec.append((field.name, field.type, field.default))
            defaults[field.name] = field.default
        else:
            spec.append((field.name, field.type))
    config = record.__struct_config__  # type: ignore[attr-defined]
    options: dict[str, Any] = dict(
        kw_only=True,
        frozen=config.frozen,
        forbid_unknown_fields=config.forbid_unknown_fields,
        gc=config.gc,
    )
    if not alone:
        return msgspec.defstruct(f"{record.__name__}_shape", spec, bases=(record,), **options)
    held = [item for item in spec if item[0] in keys]
    namespace = {  # the class's own (its properties, its defaults of the fields not held)
        name: value
        for cls in reversed(record.__mro__)
        for name, value in vars(cls).items()
        if not name.startswith("__") and name not in record.__struct_fields__  # type: ignore[attr-defined]
    }
    namespace.update(defaults)
    shaped = msgspec.defstruct(f"{record.__name__}_alone", held, namespace=namespace, **options)
    for name in ("raw_fields", "usual"):
        if hasattr(record, name):
            setattr(shaped, name, getattr(record, name))
    return shaped
