"""The simplest ClassAd expressions evaluated in Python: ``&&`` of numeric comparisons.

Most expressions a negotiation evaluates per (autocluster, slot class) are conjunctions of
comparisons between attributes and numbers: a job's ``TARGET.Memory >= MY.RequestMemory``,
the startd's ``MY.Cpus > 0 && TARGET.RequestCpus <= MY.Cpus``. When every attribute such an
expression reads is a literal number in its ad, its value follows from ClassAd's rules for
numbers alone (``Operation::doComparison`` in ``src/classad/operators.cpp``: two integers
compare as 64-bit integers, an integer and a real as two reals; a conjunction of booleans
is their logical and), and ``classad2`` need not bind the two ads in a ``MatchClassAd`` for
each evaluation (about 10 µs; benchmarks row negotiate-batches: 2,000 autoclusters × 10
slot classes).

Anything else is left to ``classad2``: :func:`quick_form` gives None for any other
operator, literal or function, and :meth:`QuickForm.evaluate` gives None when a value read
is not an integer of 64 bits or a finite real (a boolean, a string, an expression, a
missing attribute).
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Mapping
from typing import Protocol

from fairshare_cli.core.limits import INT64_MAX, INT64_MIN

#: Tokens of the grammar taken here: numbers, (scoped) attribute names, operators, brackets.
_TOKEN = re.compile(
    r"\s*(?:(?P<int>0|[1-9]\d{0,17})(?![\w.])|(?P<real>\d{1,15}\.\d{1,15})(?![\w.])"
    r"|(?P<name>[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)?)|(?P<op>&&|<=|>=|==|!=|<|>)"
    r"|(?P<open>\()|(?P<close>\)))"
)
_OPS = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}
_RESERVED = frozenset({"true", "false", "undefined", "error", "is", "isnt", "parent"})

#: An operand: a number, or (0 for MY / 1 for TARGET, lower-case attribute name).
Operand = tuple[int, str] | int | float


class QuickForm:
    """A conjunction of comparisons, each ``(left, operator, right)``."""

    __slots__ = ("atoms",)

    def __init__(self, atoms: list[tuple[Operand, str, Operand]]) -> None:
        self.atoms = [(a, _OPS[op], b) for a, op, b in atoms]

    def evaluate(self, my: QuickAd, target: QuickAd) -> bool | None:
        """The expression's value with these ads (``MY``, ``TARGET``), or None when it is
        not decided here."""
        sides = (my, target)
        result = True
        for left, test, right in self.atoms:
            a = _number(left, sides)
            b = _number(right, sides)
            if a is None or b is None:
                return None
            if type(a) is not type(b):  # an integer with a real: compared as two reals
                a, b = float(a), float(b)
            result = test(a, b) and result
        return result


class QuickAd(Protocol):
    """What :meth:`QuickForm.evaluate` reads of an ad (:class:`~.classads.Ad`)."""

    @property
    def values(self) -> Mapping[str, tuple[str, object]]:
        """Lower-case name -> (name, literal value)."""

    @property
    def exprs(self) -> Mapping[str, object]:
        """Lower-case name -> expression (an attribute that is one is not a literal)."""


def _number(operand: Operand, sides: tuple[QuickAd, QuickAd]) -> int | float | None:
    if type(operand) is not tuple:
        return operand  # type: ignore[return-value]
    ad = sides[operand[0]]
    item = ad.values.get(operand[1])
    if item is None or operand[1] in ad.exprs:
        return None
    value = item[1]
    if type(value) is int:
        return value if INT64_MIN <= value <= INT64_MAX else None
    if type(value) is float and math.isfinite(value):
        return value
    return None


def quick_form(text: str, my_names: frozenset[str]) -> QuickForm | None:
    """The quick form of a rewritten expression (:func:`~.classads.rewrite_scopes`: an
    unscoped name is one ``MY`` defines), or None when it is not a conjunction of numeric
    comparisons (and ``true``s) between numbers and attribute references."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            return None
        kind = m.lastgroup
        assert kind is not None
        tokens.append((kind, m.group(kind)))
        pos = m.end()
    atoms: list[tuple[Operand, str, Operand]] = []
    depth = 0
    i = 0
    expect_term = True
    while i < len(tokens):
        kind, tok = tokens[i]
        if expect_term and kind == "open":
            depth += 1
            i += 1
        elif expect_term and kind == "name" and tok.lower() == "true":
            expect_term = False
            i += 1
        elif expect_term:
            atom = _comparison(tokens[i : i + 3], my_names)
            if atom is None:
                return None
            atoms.append(atom)
            expect_term = False
            i += 3
        elif kind == "close" and depth > 0:
            depth -= 1
            i += 1
        elif kind == "op" and tok == "&&":
            expect_term = True
            i += 1
        else:
            return None
    if expect_term or depth != 0 or not atoms:
        return None
    return QuickForm(atoms)


def _comparison(
    tokens: list[tuple[str, str]], my_names: frozenset[str]
) -> tuple[Operand, str, Operand] | None:
    """``operand op operand`` from three tokens, or None."""
    if len(tokens) != 3 or tokens[1][0] != "op" or tokens[1][1] == "&&":
        return None
    left = _operand(tokens[0], my_names)
    right = _operand(tokens[2], my_names)
    if left is None or right is None:
        return None
    return left, tokens[1][1], right


def _operand(token: tuple[str, str], my_names: frozenset[str]) -> Operand | None:
    kind, tok = token
    if kind == "int":
        return int(tok)
    if kind == "real":
        return float(tok)
    if kind != "name":
        return None
    parts = [p.strip().lower() for p in tok.split(".")]
    if len(parts) == 2 and parts[0] in ("my", "target") and parts[1] not in _RESERVED:
        return (0 if parts[0] == "my" else 1), parts[1]
    if len(parts) == 1 and parts[0] in my_names and parts[0] not in _RESERVED:
        return 0, parts[0]
    return None
