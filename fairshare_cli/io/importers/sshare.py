"""``fs import sshare``: ``sshare -a -l -P`` (or ``-p``, or the table; ``-o`` fields too),
or ``sshare -a --json`` (data_parser v0.0.40 to v0.0.45: 23.11 to 26.05).

The Account column is indented one space per level below root, which gives the tree; user
rows have a User. RawUsage is an integer there (sshare truncates it).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from fairshare_cli.core.names import check_name
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.as_config import Origins
from fairshare_cli.io.importers.common import (
    column_spans,
    is_prompt,
    is_underline,
    json_document,
    judged_lines,
    text_lines,
)

#: sshare's fields (``src/sshare/process.c``), lower case.
FIELDS = frozenset(
    (
        "account",
        "cluster",
        "effectvusage",
        "fairshare",
        "grptresmins",
        "grptresraw",
        "id",
        "levelfs",
        "normshares",
        "normusage",
        "partition",
        "rawshares",
        "rawusage",
        "tresrunmins",
        "user",
    )
)


@dataclass
class Shares:
    """The tree (as a config fragment) and user usage of an sshare listing.

    ``exact``: the usage is sshare --json's, each user's share of root's to every bit (a
    scale within root's whole-number ``usage``), not the text's whole numbers.
    """

    accounts: dict[str, dict[str, Any]] = field(default_factory=dict)
    usage: dict[tuple[str, str], float] = field(default_factory=dict)
    exact: bool = False
    #: ``account/user`` of --json users whose ``usage_normalized`` is no share of root's
    #: usage (classic while jobs run): the middle of their whole ``usage`` taken.
    whole: list[str] = field(default_factory=list)
    #: Whether the listing has user rows (``sshare`` without ``-a`` has none).
    users: bool = True
    #: Where each value of ``accounts`` was read (``FILE:LINE: FIELD``).
    origins: Origins = field(default_factory=lambda: Origins("-"))


def read_sshare(path: str, label: str | None = None) -> Shares:
    """Tree and usage of an sshare listing (``-`` is stdin).

    Raises:
        InputError: an unknown field, a wrong field count, missing Account/User/RawUsage
            columns, a bad number or binary data, naming ``FILE:LINE``.
    """
    label = label or path
    read = text_lines(path, label, "sshare output", whole=True)
    lines = judged_lines(read, lambda head: _judge_head(head, label))
    rows = [(n, line) for n, line in lines if line.strip() and not is_prompt(line)]
    if not rows:
        raise InputError(f"{label}: empty; expected the output of 'sshare -a -l -P'")
    header_n, header_line = rows[0]
    if header_line.lstrip().startswith("{"):
        text = "\n" * (header_n - 1) + "\n".join(line for n, line in lines if n >= header_n)
        return _read_json(text, label)
    header, records = _records(rows, label)
    return _checked_tree(header, records, label, header_n)


def _judge_head(head: list[tuple[int, str]], label: str) -> None:
    """Refuse the first lines of a long listing as :func:`read_sshare` refuses the whole:
    no header (a table's without its ---- line), a header with an unknown field.

    Raises:
        InputError: naming the header's line, as for the whole listing.
    """
    rows = [(n, line) for n, line in head if line.strip() and not is_prompt(line)]
    if len(rows) < 2 or rows[0][1].lstrip().startswith("{"):
        return  # (a JSON document: its parser reads it whole)
    header, _ = _records(rows[:2], label)
    _known_fields(header, label, rows[0][0])


def _known_fields(header: list[str], label: str, header_n: int) -> None:
    """Refuse a header naming a field sshare has not, or without a column it needs."""
    names = [h.lower() for h in header]
    for cell, name in zip(header, names, strict=True):
        if name not in FIELDS:
            raise InputError(f'{label}:{header_n}: unknown sshare field "{cell}"')
    for need in ("account", "user", "rawusage"):
        if need not in names:
            raise InputError(
                f"{label}:{header_n}: the listing has no {need.capitalize()} column "
                "(use sshare -a -l -P, or -o with Account,User,RawShares,RawUsage)"
            )


def _records(
    rows: list[tuple[int, str]], label: str
) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header cells and each row's cells of a ``-P``/``-p`` listing or a table.

    Raises:
        InputError: a row with the wrong field count, or no header.
    """
    header_n, header_line = rows[0]
    records: list[tuple[int, list[str]]] = []
    if "|" in header_line:
        header = _cells(header_line)
        for n, line in rows[1:]:
            cells = line.split("|")  # (-P: a last field left empty ends the line in '|')
            if len(cells) == len(header) + 1 and cells[-1] == "":
                cells.pop()
            if len(cells) != len(header):
                raise InputError(
                    f"{label}:{n}: expected {len(header)} fields separated by | "
                    f"({'|'.join(header)}), got {len(cells)}"
                )
            records.append((n, cells))
    else:
        if len(rows) < 2 or not is_underline(rows[1][1]):
            raise InputError(f"{label}:{header_n}: expected sshare's header (with -P, or a table)")
        spans = column_spans(rows[1][1])
        header = [header_line[a:b].strip() for a, b in spans]
        for n, line in rows[2:]:
            cells = [
                line[a : (spans[k + 1][0] if k + 1 < len(spans) else len(line))].rstrip()
                for k, (a, _b) in enumerate(spans)
            ]
            records.append((n, cells))
    return header, records


def _checked_tree(
    header: list[str], records: list[tuple[int, list[str]]], label: str, header_n: int
) -> Shares:
    """The tree of a listing whose fields are sshare's, with the columns it needs.

    Raises:
        InputError: an unknown field, a missing column, no row.
    """
    _known_fields(header, label, header_n)
    names = [h.lower() for h in header]
    if not records:
        raise InputError(
            f"{label}: no rows under the header; expected the output of 'sshare -a -l -P'"
        )
    return _tree(names, records, label)


def _cells(line: str) -> list[str]:
    cells = line.split("|")
    return cells[:-1] if len(cells) > 1 and cells[-1] == "" else cells


def _tree(names: list[str], records: list[tuple[int, list[str]]], label: str) -> Shares:
    out = Shares(origins=Origins(label))
    stack: list[str] = []  # accounts by depth
    for n, cells in records:
        row = dict(zip(names, cells, strict=True))
        where = f"{label}:{n}"
        raw_account = row["account"]
        account = raw_account.strip()
        depth = len(raw_account) - len(raw_account.lstrip(" "))
        check_name(account, f"{where}: Account")
        user = row["user"].strip()
        if user:
            check_name(user, f"{where}: User")
        shares = _shares(row.get("rawshares", "").strip(), where)
        if user:
            entry = out.accounts.setdefault(account, {})
            if shares is not None:
                entry.setdefault("users", {})[user] = shares
                out.origins.add(("accounts", account, "users", user), f"{where}: RawShares")
            usage = row["rawusage"].strip()
            if not re.fullmatch(r"\d+", usage):
                raise InputError(f'{where}: RawUsage: expected a whole number, got "{usage}"')
            out.usage[(account, user)] = float(usage)
            continue
        del stack[depth:]
        if account != "root":
            entry = out.accounts.setdefault(account, {})
            entry["parent"] = stack[-1] if stack else "root"
            out.origins.add(("accounts", account, "parent"), f"{where}: Account")
            if shares is not None:
                entry["shares"] = shares
                out.origins.add(("accounts", account, "shares"), f"{where}: RawShares")
        stack.append(account)
    out.users = bool(out.usage)  # (sshare without -a, or a listing cut short: the tree only)
    return out


def _shares(value: str, where: str) -> int | str | None:
    if not value:
        return None
    if value == "parent":
        return "parent"
    if not re.fullmatch(r"\d+", value):
        raise InputError(f'{where}: RawShares: expected a whole number or "parent", got "{value}"')
    if len(value) > 20:  # (no 64-bit number; 4,301 digits and more crashed int())
        raise InputError(
            f'{where}: RawShares: expected a whole number within 64 bits, got "{value}"'
        )
    return int(value)


# sshare --json ------------------------------------------------------------------------

#: ``SLURMDB_FS_USE_PARENT``: the raw shares that mean "parent".
_FS_USE_PARENT = 0x7FFFFFFF


def _json_number(value: Any, where: str, what: str) -> float | None:
    """A plain number (v0.0.40 ``FLOAT64``) or ``{"set", "infinite", "number"}``; None if
    unset or absent, ``inf`` if infinite.

    Raises:
        InputError: neither.
    """
    if value is None:  # not listed
        return None
    if isinstance(value, dict):
        if value.get("infinite"):
            return math.inf
        if not value.get("set", True):
            return None
        value = value.get("number")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{where}: {what}: expected a number, got {value!r}")
    return value


def _json_usage(value: Any, where: str) -> int:
    """An association's ``usage`` (RawUsage, a ``uint64``): a whole number of 0 to 2**64-1.

    Raises:
        InputError: not a number, or NaN, infinite, negative or beyond 64 bits.
    """
    usage = _json_number(value, where, "usage") or 0
    if not 0 <= usage < 2**64:  # (NaN fails it too)
        raise InputError(f"{where}: usage: expected a whole number of 0 to 2**64-1, got {usage!r}")
    return int(usage)


def _read_json(text: str, label: str) -> Shares:
    """``sshare --json``: ``{"shares": {"shares": [...], "total_shares"}, ...}``, rows in the
    text's order (``SHARES_RESP_MSG``, ``ASSOC_SHARES_OBJ_WRAP`` of
    ``src/plugins/data_parser/v0.0.4x/parsers.c``).

    ``usage`` is whole (``UINT64``, as the text's RawUsage), ``usage_normalized`` each
    association's usage over root's at full precision: a user's usage is that share of
    root's, root's taken at the middle of what every whole ``usage``, users' and accounts',
    allows. Under classic
    fair share a user's ``usage_normalized`` is its usage over root's when the decay pass
    weighed its first pending job, before the jobs after it were charged
    (``_decay_thread``): a share whose whole ``usage`` root's cannot give is such a one,
    and the middle of what the user's whole ``usage`` allows is taken (named in ``whole``).

    Raises:
        InputError: not that document, a row without its fields.
    """
    out = Shares(exact=True, origins=Origins(label))
    users: list[tuple[str, str, int, float | None]] = []
    accounts: list[tuple[int, float | None]] = []  # (their shares of root pin it down too)
    root = 0
    for i, row in enumerate(_json_rows(text, label)):
        where = f"{label}: shares[{i}]"
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            raise InputError(f"{where}: expected an association object with a name")
        kind = row.get("type")
        name, parent = row["name"], row.get("parent") or ""
        check_name(name, f"{where}: name")
        whole = _json_usage(row.get("usage"), where)
        value = _json_shares(row, where)
        if row.get("partition"):
            continue
        if "USER" in kind if isinstance(kind, list) else kind == "USER":
            check_name(parent, f"{where}: parent")
            if value is not None:
                out.accounts.setdefault(parent, {}).setdefault("users", {})[name] = value
                out.origins.add(("accounts", parent, "users", name), f"{where}: shares")
            norm = _json_number(row.get("usage_normalized"), where, "usage_normalized")
            users.append((parent, name, whole, norm))
        elif name == "root" and not parent:
            root = whole
        else:
            accounts.append(
                (whole, _json_number(row.get("usage_normalized"), where, "usage_normalized"))
            )
            entry = out.accounts.setdefault(name, {})
            entry["parent"] = parent or "root"
            out.origins.add(("accounts", name, "parent"), f"{where}: parent")
            if value is not None:
                entry["shares"] = value
                out.origins.add(("accounts", name, "shares"), f"{where}: shares")
    out.users = bool(users)
    scale = _root_usage(root, [(w, n) for _, _, w, n in users], accounts)
    for account, user, whole, norm in users:
        share = float(whole) if norm is None or scale is None else norm * scale
        if math.floor(share) != whole:  # (the middle of what its whole usage allows)
            out.whole.append(f"{account}/{user}")
            share = whole + 0.5
        out.usage[(account, user)] = share
    return out


def _json_rows(text: str, label: str) -> list[Any]:
    """The rows of an sshare --json document.

    Raises:
        InputError: not JSON, or not sshare's document.
    """
    doc = json_document(text, label)
    shares = doc.get("shares") if isinstance(doc, dict) else None
    rows = shares.get("shares") if isinstance(shares, dict) else None
    if not isinstance(rows, list):
        raise InputError(
            f'{label}: expected sshare --json output ({{"shares": {{"shares": [...]}}}})'
        )
    return rows


def _json_shares(row: dict[str, Any], where: str) -> int | str | None:
    """A row's raw shares: a number, ``parent`` (``SLURMDB_FS_USE_PARENT``) or None (root's,
    unset)."""
    raw = _json_number(row.get("shares"), where, "shares")
    if raw is None or raw == math.inf:
        return None
    return "parent" if raw == _FS_USE_PARENT else int(raw)


def _root_usage(
    whole: int, users: list[tuple[int, float | None]], accounts: list[tuple[int, float | None]]
) -> float | None:
    """Root's raw usage: in ``[whole, whole + 1)`` and such that every user's share of it,
    and every account's, truncates to its whole ``usage``; the middle of what is left
    (None: no user's share)."""
    low, high = float(whole), whole + 1.0
    for user_whole, norm in users + accounts:
        # (a share whose whole usage no root's usage within root's whole gives is not one)
        if norm and user_whole / norm < whole + 1.0 and (user_whole + 1) / norm > whole:
            low = max(low, user_whole / norm)
            high = min(high, (user_whole + 1) / norm)
    if whole == 0 or not any(norm for _, norm in users):
        return None
    return (low + high) / 2 if low < high else float(whole)
