"""ClassAd expression text read as tokens, without the evaluator: an expression's size
checked before ``classad2`` sees it, its top-level ``&&`` operands, and its one relational
comparison (what ``PREEMPTION_REQUIREMENTS``' reading splits out)."""

from __future__ import annotations

import re

from fairshare_cli.errors import FairshareError, InputError

#: Strings, numbers, (dotted) identifiers, anything else one character at a time.
TOKEN = re.compile(
    r'(?P<str>"(?:[^"\\]|\\.)*")'
    r"|(?P<quoted>'(?:[^'\\]|\\.)*')"
    r"|(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)"
    r"|(?P<other>\S)",
)


#: The most operators and brackets an expression may hold. classad2 evaluates an expression
#: recursively and gives up past about 400 nested operators (165 nested brackets); 150 of
#: either keeps every accepted expression evaluable, and is far above what real pools write.
MAX_EXPRESSION_OPERATORS = 150
#: The longest expression text accepted.
MAX_EXPRESSION_LENGTH = 20_000


def check_expression_size(text: str, where: str, error: type[FairshareError] = InputError) -> None:
    """Refuse an expression too long or too deeply built for the evaluator (one line).

    Raises:
        FairshareError: (of class ``error``) naming ``where`` and the limit.
    """
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise error(
            f"{where}: expression of {len(text):,} characters; at most "
            f"{MAX_EXPRESSION_LENGTH:,} are allowed"
        )
    ops = sum(1 for m in TOKEN.finditer(text) if m.lastgroup == "other" and m[0] not in ")]},")
    if ops > MAX_EXPRESSION_OPERATORS:
        raise error(
            f"{where}: expression with {ops:,} operators and brackets; at most "
            f"{MAX_EXPRESSION_OPERATORS} are allowed"
        )


def split_conjuncts(text: str) -> list[str]:
    """The top-level ``&&`` operands of an expression, or ``[text]`` when it is not a plain
    conjunction (a top-level ``||`` or ``?:`` binds looser than ``&&``)."""
    parts: list[str] = []
    depth = 0
    start = 0
    prev_amp = -2
    tokens = list(TOKEN.finditer(text))
    for i, m in enumerate(tokens):
        tok = m.group(0)
        if m.lastgroup != "other":
            continue
        if tok in "([{":
            depth += 1
        elif tok in ")]}":
            depth -= 1
        elif depth == 0 and tok in "?|":
            return [text]
        elif depth == 0 and tok == "&":
            if prev_amp == i - 1 and tokens[i - 1].end() == m.start():
                parts.append(text[start : tokens[i - 1].start()])
                start = m.end()
                prev_amp = -2
                continue
            prev_amp = i
    parts.append(text[start:])
    parts = [p.strip() for p in parts]
    return parts if len(parts) > 1 and all(parts) else [text]


#: Operators that bind looser than a relational comparison, or are one themselves.
_LOOSER = frozenset({"||", "&&", "?", ":", "==", "!=", "=?=", "=!="})
_RELATIONAL = frozenset({"<", "<=", ">", ">="})


def split_comparison(text: str) -> tuple[str, str, str] | None:
    """``(left, op, right)`` when ``text`` is one relational comparison at top level
    (``a > b``, ``a <= b``, …) of two operands with no looser operator, else None.

    ``is``/``isnt`` and the equality operators are not relational; a text with one of them
    (or ``&&``, ``||``, ``?:``) at top level is left alone.
    """
    tokens = list(TOKEN.finditer(text))
    depth = 0
    ops: list[tuple[str, int, int]] = []
    i = 0
    while i < len(tokens):
        m = tokens[i]
        tok = m.group(0)
        if m.lastgroup == "ident" and tok.lower() in ("is", "isnt") and depth == 0:
            return None
        if m.lastgroup != "other":
            i += 1
            continue
        if tok in "([{":
            depth += 1
        elif tok in ")]}":
            depth -= 1
        elif depth == 0 and tok in "<>=!&|?:":
            # glue adjacent operator characters: >=, <=, ==, !=, =?=, =!=, &&, ||
            start, end = m.start(), m.end()
            j = i + 1
            while (
                j < len(tokens)
                and tokens[j].lastgroup == "other"
                and tokens[j].start() == end
                and tokens[j].group(0) in "<>=!&|?"
            ):
                end = tokens[j].end()
                j += 1
            op = text[start:end]
            if op == "!":  # logical not of the next operand
                i = j
                continue
            ops.append((op, start, end))
            i = j
            continue
        i += 1
    if len(ops) != 1 or ops[0][0] in _LOOSER or ops[0][0] not in _RELATIONAL:
        return None
    op, start, end = ops[0]
    left, right = text[:start].strip(), text[end:].strip()
    if not left or not right:
        return None
    return left, op, right
