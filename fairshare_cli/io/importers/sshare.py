"""``fs import sshare``: ``sshare -a -l -P`` (or ``-p``, or the table; ``-o`` fields too).

The Account column is indented one space per level below root, which gives the tree; user
rows have a User. RawUsage is an integer there (sshare truncates it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from fairshare_cli.core.names import check_name
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.common import column_spans, is_prompt, is_underline, text_lines

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
    """The tree (as a config fragment) and user usage of an sshare listing."""

    accounts: dict[str, dict[str, Any]] = field(default_factory=dict)
    usage: dict[tuple[str, str], float] = field(default_factory=dict)


def read_sshare(path: str, label: str | None = None) -> Shares:
    """Tree and usage of an sshare listing (``-`` is stdin).

    Raises:
        InputError: an unknown field, a wrong field count, missing Account/User/RawUsage
            columns, a bad number or binary data, naming ``FILE:LINE``.
    """
    label = label or path
    rows = [
        (n, line)
        for n, line in text_lines(path, label, "sshare output")
        if line.strip() and not is_prompt(line)
    ]
    if not rows:
        raise InputError(f"{label}: empty; expected the output of 'sshare -a -l -P'")
    header_n, header_line = rows[0]
    records: list[tuple[int, list[str]]] = []
    if "|" in header_line:
        header = _cells(header_line)
        for n, line in rows[1:]:
            cells = _cells(line)
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
    if not records:
        raise InputError(
            f"{label}: no rows under the header; expected the output of 'sshare -a -l -P'"
        )
    return _tree(names, records, label)


def _cells(line: str) -> list[str]:
    cells = line.split("|")
    return cells[:-1] if len(cells) > 1 and cells[-1] == "" else cells


def _tree(names: list[str], records: list[tuple[int, list[str]]], label: str) -> Shares:
    out = Shares()
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
            usage = row["rawusage"].strip()
            if not re.fullmatch(r"\d+", usage):
                raise InputError(f'{where}: RawUsage: expected a whole number, got "{usage}"')
            out.usage[(account, user)] = float(usage)
            continue
        del stack[depth:]
        if account != "root":
            entry = out.accounts.setdefault(account, {})
            entry["parent"] = stack[-1] if stack else "root"
            if shares is not None:
                entry["shares"] = shares
        stack.append(account)
    return out


def _shares(value: str, where: str) -> int | str | None:
    if not value:
        return None
    if value == "parent":
        return "parent"
    if not re.fullmatch(r"\d+", value):
        raise InputError(f'{where}: RawShares: expected a whole number or "parent", got "{value}"')
    return int(value)
