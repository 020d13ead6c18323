"""ClassAd evaluation for the negotiator: a thin, cached layer over HTCondor's ``classad2``.

HTCondor evaluates an expression with two ads in scope: ``MY`` (the ad the expression belongs
to) and ``TARGET`` (the other side of the match). An attribute written without a scope is
looked up in ``MY`` first and, when ``MY`` has no such attribute, in ``TARGET`` (so a job's
``Requirements = Memory >= RequestMemory`` reads the slot's ``Memory``). ``classad2``'s
``ExprTree.eval(scope, target)`` does not fall through to the target, so each expression is
*compiled* for the attribute names of its ``MY`` ad: unscoped names that ad does not define
are rewritten to ``TARGET.<name>`` before parsing. The result is then exact ClassAd
semantics, evaluated by HTCondor's own library.

Compilation also records which attributes of each side an expression reads. An evaluation's
result depends only on those values, so results are cached by
``(expression, values read from MY, values read from TARGET)``: identical slots that differ
only in attributes the expression never reads (``Name``, ``SlotID``, ...) share one
evaluation, and so do jobs of one autocluster. This is how a negotiation cycle evaluates
once per (autocluster, slot class) pair instead of once per (job, slot) pair. ``classad2``
is imported lazily; everything else here is stdlib.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping
from typing import Any

from fairshare_cli.core.htcondor.classad_quick import QuickForm, quick_form
from fairshare_cli.core.htcondor.classad_text import TOKEN, check_expression_size
from fairshare_cli.errors import ConfigError, FairshareError, InputError

#: Words that are not attribute references.
_KEYWORDS = frozenset(
    {"true", "false", "undefined", "error", "is", "isnt", "my", "target", "parent"}
)
_CALL = re.compile(r"\s*\(")

_uids = itertools.count()


class Compiled:
    """An expression compiled for one ``MY`` attribute set.

    Attributes:
        text: the expression as the user wrote it.
        tree: the parsed ``classad2.ExprTree`` (of the rewritten text).
        my_refs: lower-case attribute names read from ``MY``.
        target_refs: lower-case attribute names read from ``TARGET``.
        uid: a small integer identifying this compiled expression in cache keys.
    """

    __slots__ = ("my_refs", "quick", "target_refs", "text", "tree", "uid")

    def __init__(
        self,
        text: str,
        tree: Any,
        my_refs: tuple[str, ...],
        target_refs: tuple[str, ...],
        quick: QuickForm | None = None,
    ) -> None:
        self.text, self.tree, self.my_refs, self.target_refs = text, tree, my_refs, target_refs
        self.uid = next(_uids)
        #: a conjunction of numeric comparisons, evaluated without classad2 when it can be
        self.quick = quick


def rewrite_scopes(text: str, my_names: frozenset[str]) -> tuple[str, set[str], set[str]]:
    """Rewrite unscoped references that ``MY`` cannot resolve to ``TARGET.<name>``.

    Mirrors HTCondor's match-time lookup: an unscoped attribute is looked up in ``MY`` and,
    failing that, in ``TARGET``.

    Args:
        text: a ClassAd expression.
        my_names: lower-case attribute names of the ``MY`` ad.

    Returns:
        The rewritten text, the lower-case names read from ``MY`` and from ``TARGET``.
    """
    out: list[str] = []
    my_refs: set[str] = set()
    target_refs: set[str] = set()
    pos = 0
    for m in TOKEN.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        token = m.group(0)
        if m.lastgroup != "ident":
            out.append(token)
            continue
        if _CALL.match(text, m.end()):  # a function name
            out.append(token)
            continue
        parts = [p.strip() for p in token.split(".")]
        head = parts[0].lower()
        if len(parts) >= 2 and head in ("my", "target"):
            (my_refs if head == "my" else target_refs).add(parts[1].lower())
            out.append(token)
        elif head in _KEYWORDS:
            out.append(token)
        elif head in my_names:
            my_refs.add(head)
            out.append(token)
        else:
            target_refs.add(head)
            out.append("TARGET." + token)
    out.append(text[pos:])
    return "".join(out), my_refs, target_refs


def typed(value: object) -> tuple[type, object]:
    """``value`` with its type, for cache keys: Python holds ``1 == 1.0 == True`` (and
    classad2's ``Undefined``, an IntEnum, equal to 2), where ClassAd results differ."""
    return (type(value), value)


class Ad:
    """One side of a match: literal attributes and compiled expression attributes.

    Args:
        values: attribute name -> literal value (bool, int, float, str).
        exprs: attribute name -> expression text; compiled for this ad's own names.
        evaluator: the evaluator that compiles and caches.
        where: names the ad in error messages ("machine exec", "job 12.0").
        error: the error class raised for an expression that does not parse.
    """

    __slots__ = ("_classad", "_proj", "exprs", "names", "values")

    def __init__(
        self,
        values: Mapping[str, object],
        exprs: Mapping[str, str],
        evaluator: Evaluator,
        where: str,
        error: type[FairshareError] = InputError,
    ) -> None:
        self.values: dict[str, tuple[str, object]] = {k.lower(): (k, v) for k, v in values.items()}
        self.names = frozenset(self.values) | frozenset(k.lower() for k in exprs)
        self.exprs: dict[str, tuple[str, Compiled]] = {
            k.lower(): (k, evaluator.compile(t, self.names, f"{where} {k}", error))
            for k, t in exprs.items()
        }
        self._classad: Any = None
        self._proj: dict[tuple[int, int], tuple[object, ...] | None] = {}

    def extended(
        self, values: Mapping[str, object], ev: Evaluator, where: str, error: type[FairshareError]
    ) -> Ad:
        """This ad with more (or new) literal ``values`` (the ``Ad`` of the old values so
        updated, same expression texts), the old values not lowered again."""
        ad = Ad.__new__(Ad)
        ad.values = dict(self.values)
        ad.values.update({k.lower(): (k, v) for k, v in values.items()})
        ad.names = self.names | frozenset(ad.values)
        ad.exprs, ad._classad, ad._proj = self.exprs, None, {}
        if ad.names != self.names:
            ad.exprs = {
                low: (k, ev.compile(c.text, ad.names, f"{where} {k}", error))
                for low, (k, c) in self.exprs.items()
            }
        return ad

    def like(self, values: Mapping[str, object]) -> Ad | None:
        """The ad ``Ad(values, this ad's expression texts, ...)`` would be (through this
        ad's evaluator: the same compiled expressions), when ``values`` has this ad's names,
        spelt and ordered alike (else None), made without lowering the names again."""
        if list(values) != (keys := [k for k, _ in self.values.values()]):
            return None
        ad = Ad.__new__(Ad)
        ad.values = dict(zip(self.values, zip(keys, values.values(), strict=True), strict=True))
        ad.names, ad.exprs, ad._classad, ad._proj = self.names, self.exprs, None, {}
        return ad

    def projection(self, expr: Compiled, side: int) -> tuple[object, ...] | None:
        """The values ``expr`` reads from this ad (side 0: as MY, 1: as TARGET), cached,
        each with its type (:func:`typed`): a cache key that tells ``1``, ``1.0`` and ``true``
        apart, whose results can differ (``Memory / 3``).

        None when it reads an expression attribute that itself reads attributes: the
        result then depends on both ads and the caller computes a full key.
        """
        key = (expr.uid, side)
        try:
            return self._proj[key]
        except KeyError:
            pass
        out: list[object] = []
        result: tuple[object, ...] | None
        for ref in expr.target_refs if side else expr.my_refs:
            inner = self.exprs.get(ref)
            if inner is None:
                item = self.values.get(ref)
                out.append(typed(None if item is None else item[1]))
            elif inner[1].my_refs or inner[1].target_refs:
                out = []
                break
            else:
                out.append(("expr", inner[1].uid))
        else:
            result = tuple(out)
            self._proj[key] = result
            return result
        self._proj[key] = None
        return None

    def get(self, name: str) -> object:
        """Return a literal attribute's value (``None`` when absent or an expression)."""
        item = self.values.get(name)
        return None if item is None else item[1]

    @property
    def classad(self) -> Any:
        """The ``classad2.ClassAd`` for this ad, built on first use."""
        if self._classad is None:
            from classad2 import ClassAd

            ad = ClassAd({k: v for k, v in self.values.values()})
            for k, compiled in self.exprs.values():
                ad[k] = compiled.tree
            self._classad = ad
        return self._classad


class Evaluator:
    """Compiles (a cache evaluators may share) and evaluates, caching by the values read."""

    def __init__(self, compiled: dict[tuple[str, frozenset[str]], Compiled] | None = None) -> None:
        self._compiled = {} if compiled is None else compiled
        self._results: dict[tuple[object, ...], object] = {}
        self.evaluations = 0

    def compile(
        self,
        text: str,
        my_names: frozenset[str],
        where: str,
        error: type[FairshareError] = InputError,
    ) -> Compiled:
        """Compile ``text`` for a ``MY`` ad with attribute names ``my_names``.

        Raises:
            FairshareError: (of class ``error``) naming ``where`` and the text, when the
                expression does not parse.
        """
        key = (text, my_names)
        found = self._compiled.get(key)
        if found is not None:
            return found
        from classad2 import ExprTree

        check_expression_size(text, where, error)

        rewritten, my_refs, target_refs = rewrite_scopes(text, my_names)
        try:
            tree = ExprTree(rewritten)
        except Exception as exc:  # classad2 raises its own ClassAdException
            raise error(f"{where}: cannot parse ClassAd expression {text!r}") from exc
        quick = quick_form(rewritten, my_names)
        compiled = Compiled(text, tree, tuple(sorted(my_refs)), tuple(sorted(target_refs)), quick)
        self._compiled[key] = compiled
        return compiled

    def _key(self, expr: Compiled, my: Ad, target: Ad, depth: int = 0) -> tuple[object, ...]:
        parts: list[object] = [expr.uid]
        for side, other, refs in ((my, target, expr.my_refs), (target, my, expr.target_refs)):
            for ref in refs:
                inner = side.exprs.get(ref)
                if inner is None:
                    parts.append(typed(side.get(ref)))
                elif depth < 4:
                    parts.append(self._key(inner[1], side, other, depth + 1))
                else:  # self-referencing expressions: give up sharing
                    parts.append((id(side), id(other)))
        return tuple(parts)

    def evaluate(self, expr: Compiled, my: Ad, target: Ad, cached: bool = True) -> object:
        """Evaluate ``expr`` with ``MY = my`` and ``TARGET = target``.

        ``cached=False`` evaluates without looking up or storing the result, for pairs that
        will not come back (the caller keeps its own decision).

        Returns:
            A Python value (bool, int, float, str) or a ``classad2.Value`` (Undefined,
            Error). Test booleans with ``is True``: ``Value`` members are truthy.
        """
        if not cached:
            self.evaluations += 1
            return expr.tree.eval(scope=my.classad, target=target.classad)
        mine = my.projection(expr, 0)
        theirs = target.projection(expr, 1)
        if mine is None or theirs is None:
            key: tuple[object, ...] = self._key(expr, my, target)
        else:
            key = ("p", expr.uid, mine, theirs)
        try:
            return self._results[key]
        except KeyError:
            pass
        self.evaluations += 1
        quick = expr.quick
        result = None if quick is None else quick.evaluate(my, target)
        if result is None:
            result = expr.tree.eval(scope=my.classad, target=target.classad)
        self._results[key] = result
        return result

    def is_true(self, expr: Compiled, my: Ad, target: Ad, cached: bool = True) -> bool:
        """True only when ``expr`` evaluates to the boolean ``true`` (or a non-zero number)."""
        value = self.evaluate(expr, my, target, cached)
        if value is True:
            return True
        return type(value) in (int, float) and value != 0

    def number(self, expr: Compiled, my: Ad, target: Ad, default: float) -> float:
        """Evaluate to a float (booleans count as 0/1); ``default`` when not a number."""
        value = self.evaluate(expr, my, target)
        if value is True:
            return 1.0
        if value is False:
            return 0.0
        if type(value) in (int, float):
            return float(value)  # type: ignore[arg-type]
        return default


def slot_weight(value: object) -> float:
    """What one slot weighs, given its ``SLOT_WEIGHT`` evaluation (``Accountant::GetSlotWeight``).

    HTCondor reads the expression with ``EvalFloat`` (a number; a boolean counts 0 or 1)
    and falls back to 1.0 when that fails or the weight is negative. A ClassAd
    ``Undefined`` or ``Error`` is refused here although ``classad2`` hands it over as an
    ``IntEnum`` (``Undefined`` == 2): it is not a number, and the slot weighs 1.0.
    """
    if value is True:
        return 1.0
    if value is False:
        return 0.0
    if type(value) in (int, float):
        weight = finite_weight(float(value))  # type: ignore[arg-type]
        return 1.0 if weight < 0 else weight
    return 1.0


def finite_weight(weight: float) -> float:
    """``weight``, a slot's ``SLOT_WEIGHT``, when it is finite.

    Raises:
        ConfigError: it is NaN or infinite (``real("nan")``): HTCondor charges and counts
            it as it is, and every share, limit and quota computed from it is meaningless
            (fs ended in a traceback).
    """
    if not math.isfinite(weight):
        raise ConfigError(
            f"[negotiator] slot_weight evaluates to {weight} on a slot's ad; expected a "
            "finite number (what a slot weighs in charges, shares and quotas)"
        )
    return weight


def is_slot_weight(value: object) -> bool:
    """Whether a ``SLOT_WEIGHT`` evaluation is a usable weight (else 1.0 is charged).

    Raises:
        ConfigError: it is NaN or infinite (:func:`finite_weight`).
    """
    if value is True or value is False:
        return True
    if type(value) not in (int, float):
        return False
    return not finite_weight(float(value)) < 0  # type: ignore[arg-type]


def evaluate_slot_weight(text: str, values: Mapping[str, object], where: str) -> float:
    """The weight of a slot whose ad holds ``values``: ``SLOT_WEIGHT`` via :func:`slot_weight`.

    Raises:
        InputError: naming ``where`` when the expression does not parse.
    """
    return slot_weight(evaluate_alone(text, values, where))


def evaluate_alone(
    text: str, values: Mapping[str, object], where: str, cache: dict[Any, Compiled] | None = None
) -> object:
    """Evaluate ``text`` against one ad built from ``values`` (no target), for
    ``GROUP_SORT_EXPR`` and the like; ``cache``: compiled expressions kept across calls.
    Raises InputError naming ``where`` when the expression does not parse."""
    evaluator = Evaluator(cache)
    ad = Ad(values, {}, evaluator, where)
    empty = Ad({}, {}, evaluator, where)
    compiled = evaluator.compile(text, ad.names, where)
    return evaluator.evaluate(compiled, ad, empty)


def check_expression(text: str, where: str, error: type[FairshareError] = InputError) -> None:
    """Raise ``error`` naming ``where`` and the text when ``text`` is not a ClassAd expression."""
    Evaluator().compile(text, frozenset(), where, error)
