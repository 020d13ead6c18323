"""Typed decoding of usage-history JSON lines (the fast path of ``io.history``)."""

from __future__ import annotations

import msgspec


class _Line(msgspec.Struct, forbid_unknown_fields=True):
    """A record line as most are: names and times as strings, counts as integers."""

    owner: str
    start: str
    end: str | None = None
    accounting_group: str | None = None
    nice_user: bool = False
    account: str | None = None
    partition: str | None = None
    qos: str | None = None
    dirac_group: str | None = None
    slots: int = 1
    cpus: int = 1


decode_line = msgspec.json.Decoder(_Line).decode
