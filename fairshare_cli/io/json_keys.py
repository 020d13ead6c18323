"""JSON objects that give a key twice: found by the exact readers (:class:`RepeatedKeys`, as
:func:`json.loads` reads), ruled out cheaply after msgspec, and located for the message.

Python's :func:`json.loads` and msgspec both keep the last value of a key given twice
(``{"schema_version": 2, "schema_version": 1}`` reads as 1), without a word. fs never
writes such an object; in a file it reads, it is a hand edit or another tool's output gone
wrong, and either value may be the one meant, so it is refused.
"""

from __future__ import annotations

import json
from typing import Any


class DuplicateKey(ValueError):
    """An object of the document gives ``key`` twice; ``where`` is the path of that object
    in the document (:func:`path_text`; ``""``: the document itself), ``path`` its keys
    and indices and ``doc`` the document, when the reader has them (:meth:`in_job`)."""

    def __init__(
        self, key: str, where: str, path: list[Any] | None = None, doc: Any = None
    ) -> None:
        super().__init__(f"the key {json.dumps(key, ensure_ascii=False)} is given twice")
        self.key = key
        self.where = where
        self.path = path or []
        self.doc = doc

    def place(self) -> str:
        """Where the object is, as a message says it: ``at the top level`` or ``in a.b.3``."""
        return f"in {self.where}" if self.where else "at the top level"

    def in_job(self, source: str) -> str:
        """The refusal as a jobs file ``source`` words it (the document a list of job
        objects, or one), the job named as every job refusal names it (:func:`job_label`):
        ``jobs.json: job 12.0: the key "a" is given twice (in attributes); give each key
        once`` (a job whose ``id`` is the key given twice: by its place in the list)."""
        from fairshare_cli.core.job_fields import job_label  # (not on a state's path: msgspec)

        path, doc = self.path, self.doc
        if isinstance(doc, list) and path:  # (a list: the first step is the job's place)
            index, inside = path[0], path[1:]
            job = doc[index] if not (self.key == "id" and not inside) else None
            head = f"{job_label(source, job, index)}: "
        else:  # (one object: the document itself)
            inside = path
            head = f"{source}: "
        where = path_text(inside)
        return f"{head}{self}{f' (in {where})' if where else ''}; give each key once"


class RepeatedKeys:
    """An ``object_pairs_hook`` for :func:`json.loads` that notes the first object giving
    a key twice (the objects as the parser closes them); :meth:`refuse` then raises."""

    def __init__(self) -> None:
        self.found: tuple[str, dict[str, Any]] | None = None

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs) and self.found is None:
            seen: set[str] = set()
            key = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
            self.found = (key, obj)
        return obj

    def refuse(self, doc: Any) -> None:
        """Refuse ``doc``, the document read, if an object of it gave a key twice.

        Raises:
            DuplicateKey: naming the key and the path of its object.
        """
        if self.found is not None:
            key, obj = self.found
            path = _path_to(doc, obj) or []
            raise DuplicateKey(key, path_text(path), path, doc)


def refuse_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An ``object_pairs_hook`` refusing at once an object that gives a key twice (where:
    the reader's own place, such as the line of an ad).

    Raises:
        DuplicateKey: naming the key.
    """
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        raise DuplicateKey(next(k for k, _ in pairs if k in seen or seen.add(k)), "")  # type: ignore[func-returns-value]
    return obj


def _path_to(doc: Any, target: Any) -> list[Any] | None:
    """The keys and indices that lead from ``doc`` to the object ``target`` (by identity)."""
    stack: list[tuple[Any, list[Any]]] = [(doc, [])]
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        stack.extend((value, [*path, key]) for key, value in items)
    return None


def path_text(path: list[Any]) -> str:
    """``accountant.submitters.alice@example.org`` or ``jobs.3``: keys and list indices."""
    return ".".join(map(str, path))


def surely_distinct(data: bytes | str, doc: Any) -> bool:
    """Whether ``doc``, msgspec's reading of the JSON text ``data``, surely came from text
    whose every object gives each key once (False: it may not; :class:`RepeatedKeys` tells).

    Every string of a JSON text (a key or a value) is written between two quotes, and a
    quote inside one as ``\\"`` (or ``\\u0022``). msgspec writes ``doc`` back with each
    key and string once, a quote inside as ``\\"``; so when ``data`` has no ``\\u0022``,
    its quotes are at least as many as the text written back has, and more when an object
    gave a key twice (the key dropped is one more string). Equal counts rule a repeat out.
    Costs a write and two counts (some 2 ms for the 850 KB state of
    ``benchmarks/run.py``'s negotiation rows, against 3.5 ms to decode it).
    """
    import msgspec

    text = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    if b"u0022" in text:
        return False
    try:
        again = msgspec.json.encode(doc)
    except (TypeError, ValueError, OverflowError):
        return False
    return text.count(b'"') == again.count(b'"')
