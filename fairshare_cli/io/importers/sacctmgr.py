"""``fs import sacctmgr``: association and QOS listings, and ``sacctmgr dump`` files.

The kind of listing is told from its header: ``-P`` listings have ``|``-separated field
names, tables a header over a ``---- ----`` underline (names cut to the column width), a
dump file ``Cluster - '...'`` / ``Parent - '...'`` / ``Account - '...'`` lines. A
transcript may hold several listings, each after its ``$ command`` line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn

from fairshare_cli.core.names import check_name
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.as_config import Origins
from fairshare_cli.io.importers.common import (
    column_spans,
    cut,
    is_prompt,
    is_underline,
    judged_lines,
    text_lines,
)

#: Every column name sacctmgr prints (``src/sacctmgr/common.c``), lower case, no blanks.
KNOWN_FIELDS = frozenset(
    """
    Account ActionRaw Action Actor Admin %Allowed Assocs TRES Class ClusterNodes Cluster
    CoordAccounts ControlHost ControlPort Count #Allowed #Used CPUCnt DefAcct DefQOS
    DefWCKey Descr Duration EventRaw Event Features Federation FedState FedStateRaw
    Flags GraceTime GrpCPUs GrpCPUMins GrpCPURunMins GrpTRES GrpTRESMins GrpTRESRunMins
    GrpJobs GrpJobsAccrue GrpMem GrpNodes GrpSubmit GrpWall ID Info LFT ServerType
    MaxCPUMins MaxCPURunMinsPU MaxCPUs MaxCPUsPU MaxTRES MaxTRESPerNode MaxTRESMins
    MaxTRESRunMinsPA MaxTRESRunMinsPU MaxTRESPA MaxTRESPU MaxJobs MaxJobsAccrue
    MaxJobsAccruePA MaxJobsAccruePU MaxJobsPA MaxJobsPU MaxNodes MaxNodesPU MinPrioThres
    MaxSubmit MaxSubmitPA MaxSubmitPU MaxWall MinCPUs MinTRES Name NodeCount NodeInx
    NodeName Org ParentID ParentName ParName Partition PluginIDSelect PreemptMode
    Preempt PreemptExemptTime Priority Problem QOS QOS_RAW Reason RGT RPC Server Share
    StateRaw State Time TimeEligible TimeEnd TimeStart TimeSubmit Type UnusedWall
    UsageFactor UsageThres UsageThreshold LimitFactor %Allocated User WCKeys Where
    Lineage
    """.lower().split()
)

#: ``SLURMDB_FS_USE_PARENT``: the raw shares that mean "parent".
FS_USE_PARENT = 0x7FFFFFFF


@dataclass
class Listing:
    """What the file held: accounts, QOS, and what was left out."""

    accounts: dict[str, dict[str, Any]] = field(default_factory=dict)
    qos: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Where each value of :meth:`fragment` was read (``FILE:LINE: FIELD``).
    origins: Origins = field(default_factory=lambda: Origins("-"))
    seen: set[tuple[str, str]] = field(default_factory=set)
    #: Only this cluster's associations (None: the file must hold one cluster).
    cluster: str | None = None
    clusters: set[str] = field(default_factory=set)

    def wanted(self, cluster: str) -> bool:
        """Note ``cluster`` and say whether its associations are kept."""
        if cluster:
            self.clusters.add(cluster)
        return self.cluster is None or not cluster or cluster == self.cluster

    ignored: list[str] = field(default_factory=list)

    def fragment(self) -> dict[str, Any]:
        """The config fragment: ``[accounts]`` and ``[qos]``."""
        out: dict[str, Any] = {}
        accounts = {name: spec for name, spec in self.accounts.items() if spec}
        if accounts:
            out["accounts"] = accounts
        if self.qos:
            out["qos"] = self.qos
        return out


def _field_name(header: str, table: bool) -> str | None:
    """The known field a header cell names (a table may cut it to the column width)."""
    key = header.lower().replace(" ", "")
    if key in KNOWN_FIELDS:
        return "parentname" if key == "parname" else key
    if table and key:
        matches = sorted(f for f in KNOWN_FIELDS if f.startswith(key))
        if matches:
            return matches[0]
    return None


def _shares(value: str, where: str) -> int | str:
    if value.lower() == "parent":
        return "parent"
    if not re.fullmatch(r"\d+", value):
        raise InputError(f'{where}: Share: expected a whole number or "parent", got "{value}"')
    number = int(value)
    return "parent" if number == FS_USE_PARENT else number


def read_sacctmgr(path: str, label: str | None = None, cluster: str | None = None) -> Listing:
    """Accounts and QOS from a sacctmgr listing or dump (``-`` is stdin).

    Raises:
        InputError: an unknown header field, a row with the wrong number of fields, a bad
            value or binary data, naming ``FILE:LINE``.
    """
    label = label or path
    out = Listing(cluster=cluster, origins=Origins(label))
    read = text_lines(path, label, "sacctmgr output", whole=True)
    lines = judged_lines(read, lambda head: _judge_head(head, label))
    for block in _blocks(lines):
        _read_block(block, label, out)
    if cluster is None and len(out.clusters) > 1:
        raise InputError(
            f"{label}: associations of {len(out.clusters)} clusters "
            f"({', '.join(sorted(out.clusters))}); pick one with --cluster"
        )
    if not out.accounts and not out.qos and not out.seen:
        raise InputError(
            f"{label}: no association or QOS listing found; expected the output of "
            "'sacctmgr -P show assoc', 'sacctmgr show qos' or 'sacctmgr dump'"
        )
    return out


def _blocks(lines: list[tuple[int, str]]) -> Iterator[list[tuple[int, str]]]:
    """Listings separated by ``$ command`` lines."""
    block: list[tuple[int, str]] = []
    for number, line in lines:
        if is_prompt(line):
            if block:
                yield block
            block = []
            continue
        block.append((number, line))
    if block:
        yield block


def _judge_head(head: list[tuple[int, str]], label: str) -> None:
    """Refuse the first lines of a long dump as :func:`_read_block` refuses its first
    listing: no header (field names over a ---- line, or separated by |).

    Raises:
        InputError: naming the first line, as for the whole dump.
    """
    block = next(_blocks(head), [])
    rows = [(n, line) for n, line in block if line.strip()][:2]
    if len(rows) < 2 or _FAILED.match(rows[0][1]):
        return
    if "|" in rows[0][1]:
        header = rows[0][1].split("|")
        _names(header[:-1] if header[-1] == "" else header, label, rows[0][0], False)
        return
    if not re.match(_DUMP, rows[0][1]) and not is_underline(rows[1][1]):
        _no_header(rows[0], label)


def _no_header(first: tuple[int, str], label: str) -> NoReturn:
    """Refuse line ``first`` (its number and text) as a listing's header that is none."""
    raise InputError(
        f"{label}:{first[0]}: expected a sacctmgr header (field names over a ---- line, "
        f'or separated by |), got "{first[1].strip()[:40]}"'
    )


#: The first line of a ``sacctmgr dump`` listing.
_DUMP = r"\s*(#|Cluster - |Parent - |Account - |User - )"


def _read_block(block: list[tuple[int, str]], label: str, out: Listing) -> None:
    rows = [(n, line) for n, line in block if line.strip()]
    if not rows:
        return
    first_n, first = rows[0]
    if all(_FAILED.match(line) for _, line in rows):  # a listing sacctmgr refused to print
        out.ignored.append(f"line {first_n}: {first.strip()!r} (a listing sacctmgr refused)")
        return
    if re.match(_DUMP, first):
        _read_dump(rows, label, out)
        return
    if "|" in first:
        header = first.split("|")
        if header and header[-1] == "":
            header = header[:-1]
        records = []
        for n, line in rows[1:]:
            cells = line.split("|")
            if len(cells) == len(header) + 1 and cells[-1] == "":
                cells = cells[:-1]
            if len(cells) != len(header):
                raise InputError(
                    f"{label}:{n}: expected {len(header)} fields separated by | "
                    f"({'|'.join(header)}), got {len(cells)}"
                )
            records.append((n, cells))
        _read_rows(header, records, label, first_n, False, out)
        return
    if len(rows) < 2 or not is_underline(rows[1][1]):
        _no_header(rows[0], label)
    spans = column_spans(rows[1][1])
    header = cut(first, spans)
    records = []
    for n, line in rows[2:]:
        if len(line.rstrip()) > spans[-1][1] + 1 and line[spans[-1][1] :].strip():
            raise InputError(f"{label}:{n}: the row is wider than the table's header")
        records.append((n, cut(line, spans)))
    _read_rows(header, records, label, first_n, True, out)


def _names(header: list[str], label: str, header_line: int, table: bool) -> list[str]:
    """The field names of a listing's ``header`` (InputError: a field sacctmgr has not)."""
    names: list[str] = []
    for cell in header:
        name = _field_name(cell, table)
        if name is None:
            raise InputError(f'{label}:{header_line}: unknown sacctmgr field "{cell}"')
        names.append(name)
    return names


#: What sacctmgr prints instead of a listing for a field it does not know (26.05: LFT, RGT).
_FAILED = re.compile(r"\s*Unknown field '[^']*'\s*\Z")


def _read_rows(
    header: list[str],
    records: list[tuple[int, list[str]]],
    label: str,
    header_line: int,
    table: bool,
    out: Listing,
) -> None:
    names = _names(header, label, header_line, table)
    if "account" in names:
        _associations(names, records, label, header_line, out)
    elif "name" in names:
        _qos_rows(names, records, label, out)
    else:
        raise InputError(
            f"{label}:{header_line}: expected an association listing (with Account) "
            "or a QOS listing (with Name)"
        )


def _qos_rows(
    names: list[str], records: list[tuple[int, list[str]]], label: str, out: Listing
) -> None:
    for n, cells in records:
        row = dict(zip(names, cells, strict=True))
        name = row["name"]
        spec: dict[str, Any] = {}
        if row.get("priority"):
            if not re.fullmatch(r"\d+", row["priority"]):
                raise InputError(
                    f'{label}:{n}: Priority: expected a whole number, got "{row["priority"]}"'
                )
            spec["priority"] = int(row["priority"])
            out.origins.add(("qos", name, "priority"), f"{label}:{n}: Priority")
        if row.get("usagefactor"):
            try:
                factor = float(row["usagefactor"])
            except ValueError:
                raise InputError(
                    f'{label}:{n}: UsageFactor: expected a number, got "{row["usagefactor"]}"'
                ) from None
            spec["usage_factor"] = int(factor) if factor.is_integer() else factor
            out.origins.add(("qos", name, "usage_factor"), f"{label}:{n}: UsageFactor")
        out.qos[name] = spec
    out.ignored.extend(
        f"QOS column {n}" for n in names if n not in ("name", "priority", "usagefactor")
    )


def _associations(
    names: list[str],
    records: list[tuple[int, list[str]]],
    label: str,
    header_line: int,
    out: Listing,
) -> None:
    has_parent, has_lftrgt, tree = _parent_columns(names, records, f"{label}:{header_line}")
    spans: list[tuple[int, int, str]] = []
    stack: list[str] = []
    for n, cells in records:
        row = dict(zip(names, cells, strict=True))
        where = f"{label}:{n}"
        if not out.wanted(row.get("cluster", "")):
            continue
        raw, user = row["account"], row.get("user", "").strip()
        account = raw.strip()
        if "lineage" in row and "parentname" not in row:
            row["parentname"] = _lineage_parent(row["lineage"])
        if tree and not user:
            depth = len(raw) - len(raw.lstrip(" "))
            del stack[depth:]
            if account != "root":
                row["parentname"] = stack[-1] if stack else "root"
            stack.append(account)
            has_parent = True
        _check_names(account, user, where)
        if row.get("partition"):
            out.ignored.append(f"{account}/{user or '-'}/{row['partition']} (per partition)")
            continue
        out.seen.add((account, user))
        shares = _shares(row.get("share") or "1", where)
        entry = out.accounts.setdefault(account, {})
        if user:
            entry.setdefault("users", {})[user] = shares
            _priority(row, where, entry, user)
            _association_origins(out, where, account, user, "Share")
            continue
        if has_lftrgt:
            spans.append((_int(row["lft"], "Lft", where), _int(row["rgt"], "Rgt", where), account))
        if account == "root":
            continue
        entry["shares"] = shares
        _priority(row, where, entry, None)
        if has_parent and row["parentname"]:
            entry["parent"] = row["parentname"]
        parent = "ParentName" if has_parent else "Lft"
        _association_origins(out, where, account, None, "Share", parent)
    if not has_parent:
        _parents_from_lft(spans, out)
    _order(out)


def _check_names(account: str, user: str, where: str) -> None:
    """An association's account (never empty) and user (empty: the account's own) are names.

    Raises:
        InputError: naming ``where`` and the column.
    """
    if not account:
        raise InputError(f"{where}: expected an account name")
    check_name(account, f"{where}: Account")
    if user:
        check_name(user, f"{where}: User")


def _parent_columns(
    names: list[str], records: list[tuple[int, list[str]]], where: str
) -> tuple[bool, bool, bool]:
    """How the listing gives parents: a ParentName column, Lft/Rgt, or tree indentation.

    Raises:
        InputError: none of the three, naming the header line.
    """
    has_parent = "parentname" in names or "lineage" in names
    has_lftrgt = "lft" in names and "rgt" in names
    # ``sacctmgr -P show assoc tree``: one leading space per level below root.
    tree = not has_parent and not has_lftrgt and _indented(names, records)
    if not has_parent and not has_lftrgt and not tree:
        raise InputError(
            f"{where}: the listing does not say each account's parent; "
            "list it with format=...,ParentName (or Lineage, or Lft,Rgt, or -P ... tree), or use "
            "'sacctmgr dump'"
        )
    return has_parent, has_lftrgt, tree


def _lineage_parent(lineage: str) -> str:
    """An account's parent from its ``Lineage`` (26.05: ``/a/b/`` is b under a; ``/a/`` is
    under root; a user's own ``/a/0-u1/``, read only for its account column)."""
    parts = [p for p in lineage.split("/") if p]
    return parts[-2] if len(parts) > 1 else ("root" if parts else "")


def _indented(names: list[str], records: list[tuple[int, list[str]]]) -> bool:
    column = names.index("account")
    return any(cells[column].startswith(" ") for _, cells in records)


def _int(value: str, key: str, where: str) -> int:
    if not re.fullmatch(r"\d+", value):
        raise InputError(f'{where}: {key}: expected a whole number, got "{value}"')
    return int(value)


def _priority(row: dict[str, str], where: str, entry: dict[str, Any], user: str | None) -> None:
    """An association's own ``Priority`` (blank: none), on the account or per user."""
    value = row.get("priority", "")
    if not value:
        return
    number = _int(value, "Priority", where)
    if user is None:
        entry["priority"] = number
    else:
        entry.setdefault("user_priority", {})[user] = number


def _association_origins(
    out: Listing, where: str, account: str, user: str | None, shares: str, parent: str = ""
) -> None:
    """The values an association's line gives (``shares``, ``parent``: the fields that
    give its shares and its parent) came from ``where``."""
    at: tuple[str, ...] = ("accounts", account)
    if user is not None:
        out.origins.add((*at, "users", user), f"{where}: {shares}")
        out.origins.add((*at, "user_priority", user), f"{where}: Priority")
        return
    out.origins.add((*at, "shares"), f"{where}: {shares}")
    out.origins.add((*at, "priority"), f"{where}: Priority")
    out.origins.add((*at, "parent"), f"{where}: {parent}")


def _parents_from_lft(spans: list[tuple[int, int, str]], out: Listing) -> None:
    """Each account's parent: the narrowest other account whose Lft..Rgt holds its own."""
    for lft, rgt, account in spans:
        if account == "root":
            continue
        holders = [(r - l_, a) for l_, r, a in spans if l_ < lft and rgt < r]
        if holders:
            out.accounts[account]["parent"] = min(holders)[1]


def _order(out: Listing) -> None:
    """Key order inside each account: parent, shares, priority, users (as the docs show)."""
    keys = ("parent", "shares", "priority", "users", "user_priority")
    for name, entry in out.accounts.items():
        out.accounts[name] = {k: entry[k] for k in keys if k in entry}


_DUMP_LINE = re.compile(r"\s*(Cluster|Parent|Account|User|Coordinator|QOS) - '([^']*)'(.*)\Z")
_DUMP_OPT = re.compile(r":(\w+)=(?:'([^']*)'|([^:]*))")


def _read_dump(rows: list[tuple[int, str]], label: str, out: Listing) -> None:
    """``sacctmgr dump``: ``Parent - 'a'`` sets where the next accounts and users go."""
    parent = "root"
    keep = True
    for n, line in rows:
        if line.lstrip().startswith("#"):
            continue
        m = _DUMP_LINE.match(line)
        where = f"{label}:{n}"
        if m is None:
            raise InputError(
                f"{where}: expected a dump line like \"Account - 'name':...\" (sacctmgr dump)"
            )
        kind, name, rest = m.groups()
        if kind == "Cluster":
            keep = out.wanted(name)
            continue
        if not keep:
            continue
        opts = {
            o.group(1).lower(): o.group(2) if o.group(2) is not None else o.group(3)
            for o in _DUMP_OPT.finditer(rest)
        }
        if kind == "Parent":
            parent = name
            continue
        if kind not in ("Account", "User"):
            continue
        if opts.get("partition"):
            out.ignored.append(f"{parent}/{name}/{opts['partition']} (per partition)")
            continue
        out.seen.add((parent, name) if kind == "User" else (name, ""))
        shares = _shares(opts.get("fairshare", "1"), where)
        row = {"priority": opts.get("priority", "")}
        if kind == "User":
            entry = out.accounts.setdefault(parent, {})
            entry.setdefault("users", {})[name] = shares
            _priority(row, where, entry, name)
            _association_origins(out, where, parent, name, "Fairshare")
        else:
            entry = out.accounts.setdefault(name, {})
            entry["shares"] = shares
            entry["parent"] = parent
            _priority(row, where, entry, None)
            _association_origins(out, where, name, None, "Fairshare", "Parent")
    _order(out)
