"""``fs import scontrol-assoc``: ``scontrol show assoc_mgr`` association records.

An association record starts ``ClusterName=... Account=... UserName=... Partition=...``
and its ``UsageRaw/Norm/Efctv=R/N/E`` line gives the raw usage with two decimals (sshare's
RawUsage is cut to an integer). QOS records (``QOS=name(id)``) give their ``UsageRaw``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fairshare_cli.core.names import check_name
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.common import given_twice, is_prompt, text_lines

_ASSOC = re.compile(r"ClusterName=(\S*) Account=(\S*) UserName=(\S*) Partition=(\S*)")
_USAGE = re.compile(r"\s+UsageRaw/Norm/Efctv=([^/\s]+)/")
_QOS = re.compile(r"QOS=(.+)\((\d+)\)\s*\Z")
_QOS_USAGE = re.compile(r"\s+UsageRaw=(\S+)\s*\Z")
#: The lines a record may hold (anything else is not assoc_mgr output).
_KNOWN = re.compile(
    r"(Current Association Manager state|Association Records|QOS Records|User Records|"
    r"ClusterName=|QOS=|\s+\S+[=/]|\s+(Account|User) Limits|\s+No (Accounts|Users)|"
    r"\s+\S+\s*$|UserName=)"
)


#: A field's key: a token's text before its first ``=`` (``GrpTRES=cpu=N(0)``: ``GrpTRES``).
_KEY = re.compile(r"(?:^|(?<=\s))([\w/]+)=")


class _Fields:
    """The keys of the record being read, each once (``src/scontrol/info_assoc_mgr.c``
    prints each field of a record once); a QOS record's ``Account Limits`` and ``User
    Limits`` repeat theirs per account and user, and are not checked."""

    def __init__(self) -> None:
        self.record: str | None = None
        self.seen: set[str] = set()

    def start(self, record: str | None, line: str, where: str) -> None:
        """A record (None: a heading) starts at ``line``."""
        self.record = record
        self.seen.clear()
        self.add(line, where)

    def add(self, line: str, where: str) -> None:
        """The keys of ``line`` (a ``Comment=``'s free text not read).

        Raises:
            InputError: a key the record gave before, at ``where``.
        """
        if self.record is None:
            return
        if line.strip() in ("Account Limits", "User Limits"):
            self.record = None
            return
        for key in _KEY.findall(line):
            if key in self.seen:
                raise given_twice(where, key, self.record)
            if key == "Comment":
                return
            self.seen.add(key)


@dataclass
class AssocMgr:
    """User association usage (two decimals), account usage, QOS usage."""

    users: dict[tuple[str, str], float] = field(default_factory=dict)
    accounts: dict[str, float] = field(default_factory=dict)
    qos_usage: dict[str, float] = field(default_factory=dict)
    partitions: list[str] = field(default_factory=list)


def _number(text: str, where: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f'{where}: {what}: expected a number, got "{text}"') from None
    if value != value or value in (float("inf"), float("-inf")) or value < 0:
        raise InputError(f'{where}: {what}: expected a finite number >= 0, got "{text}"')
    return value


def read_assoc_mgr(path: str, label: str | None = None) -> AssocMgr:
    """Usage per association and per QOS (``-`` is stdin).

    Raises:
        InputError: a line that is not assoc_mgr output, a record without its usage line,
            or a bad number, naming ``FILE:LINE``.
    """
    label = label or path
    out = AssocMgr()
    current: tuple[str, str, str] | None = None
    current_line = 0
    qos: str | None = None
    fields = _Fields()
    for number, line in text_lines(path, label, "scontrol show assoc_mgr output", whole=True):
        where = f"{label}:{number}"
        if not line.strip() or is_prompt(line):
            continue
        m = _ASSOC.match(line)
        if m:
            _require_usage(current, current_line, label)
            _, account, user, partition = m.groups()
            user = re.sub(r"\(\d+\)\Z", "", user)
            check_name(account, f"{where}: Account")
            if user:
                check_name(user, f"{where}: UserName")
            current = (account, user, partition)
            current_line = number
            qos = None
            fields.start(f"association {'/'.join(filter(None, current))}", line, where)
            continue
        m = _QOS.match(line)
        if m:
            _require_usage(current, current_line, label)
            current, qos = None, m.group(1)
            fields.start(f"QOS {qos}", line, where)
            continue
        if not line[:1].isspace():  # (a heading, or a user record: one line)
            name = line.split()[0][len("UserName=") :] if line.startswith("UserName=") else ""
            fields.start(f"user {name}" if name else None, line, where)
        else:
            fields.add(line, where)
        m = _USAGE.match(line)
        if m and current is not None:
            _store(out, current, _number(m.group(1), where, "UsageRaw"))
            current = None
            continue
        m = _QOS_USAGE.match(line)
        if m and qos is not None:
            out.qos_usage[qos] = _number(m.group(1), where, "UsageRaw")
            continue
        if not _KNOWN.match(line):
            raise InputError(
                f'{where}: expected scontrol show assoc_mgr output, got "{line.strip()[:40]}"'
            )
    _require_usage(current, current_line, label)
    if not out.users and not out.accounts:
        raise InputError(f"{label}: no association records (expected 'scontrol show assoc_mgr')")
    return out


def _require_usage(current: tuple[str, str, str] | None, line: int, label: str) -> None:
    if current is not None:
        raise InputError(f"{label}:{line}: the association record has no UsageRaw line")


def _store(out: AssocMgr, key: tuple[str, str, str], usage: float) -> None:
    account, user, partition = key
    if partition:
        out.partitions.append(f"{account}/{user}/{partition}")
        return
    if user:
        out.users[(account, user)] = usage
    else:
        out.accounts[account] = usage
