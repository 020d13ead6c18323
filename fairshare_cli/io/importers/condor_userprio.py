"""``condor_userprio -l [-allusers]`` output: accounting records.

``-allusers`` prints the negotiator's one ad whose attributes are numbered per record
(``Name1``, ``Priority1``, ... and one ``LastUpdate``), and the accountant's concurrency
limits (``ConcurrencyLimit_<name>``, ``Accountant::ReportLimits``: a ``.`` in a name printed
``_``); plain ``-l`` prints one ``Accounting`` ad per record (leaving out some, e.g.
remote-domain and never-used ones in 25.0).
"""

from __future__ import annotations

import math
import re
from typing import IO, Any, NamedTuple

from fairshare_cli.core.htcondor.snapshot import AccountingAd
from fairshare_cli.core.limits import INT32_MAX
from fairshare_cli.core.names import check_name
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.classad_dumps import Ad, Expr, iter_ads

_NUMBERED = re.compile(r"^Name(\d+)$")
_LIMIT = "concurrencylimit_"


class UserprioDump(NamedTuple):
    """What a ``condor_userprio -l [-allusers]`` dump holds.

    Attributes:
        records: the accounting records, in the dump's order.
        last_update: the accountant's ``LastUpdate``.
        limits: the ``ConcurrencyLimit_<name>`` attributes' ``<name>`` as printed (a
            ``.`` of the limit's name is a ``_`` there), in the dump's order.
    """

    records: list[AccountingAd]
    last_update: float
    limits: list[str]


def _number(ad: Ad, key: str, where: str, default: float | None = 0.0) -> Any:
    value = ad.get(key)
    if value is None:
        if default is None:
            return None
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or isinstance(value, Expr):
        raise InputError(f"{where}: {key} = {value!r}; expected a number")
    if isinstance(value, float) and not math.isfinite(value):  # (400 digits: a real, inf)
        raise InputError(f"{where}: {key} = {value!r}; expected a finite number")
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        raise InputError(f"{where}: {key}: expected a whole number within 64 bits")
    return value


def _record(ad: Ad, suffix: str, where: str) -> AccountingAd:
    name = ad.get(f"Name{suffix}")
    if not isinstance(name, str) or not name:
        raise InputError(f"{where}: Name{suffix} missing; expected the record's name")
    check_name(name, f"{where}: Name{suffix}", submitter=True)

    def num(key: str, default: float | None = 0.0) -> Any:
        return _number(ad, key + suffix, where, default)

    is_group = ad.get(f"IsAccountingGroup{suffix}", False)
    if not isinstance(is_group, bool):
        raise InputError(f"{where}: IsAccountingGroup{suffix}: expected true or false")
    return AccountingAd(
        name=name,
        is_group=is_group,
        priority=float(num("Priority")),
        priority_factor=float(num("PriorityFactor")),
        resources_used=int(num("ResourcesUsed")),
        weighted_resources_used=float(num("WeightedResourcesUsed", num("ResourcesUsed"))),
        hier_weighted_resources_used=num("HierWeightedResourcesUsed", None),
        accumulated_usage=float(num("AccumulatedUsage")),
        weighted_accumulated_usage=float(num("WeightedAccumulatedUsage")),
        begin_usage_time=float(num("BeginUsageTime")),
        last_usage_time=float(num("LastUsageTime")),
        effective_quota=num("EffectiveQuota", None),
        subtree_quota=num("SubtreeQuota", None),
        sort_key=num("GroupSortKey", None),
        floor=_c_int(num("Floor"), 0, f"{where}: Floor{suffix}"),
        ceiling=_c_int(num("Ceiling", -1), -1, f"{where}: Ceiling{suffix}"),
    )


def _c_int(value: float, least: int, what: str) -> int:
    """``Floor``/``Ceiling``: a whole number, ``least`` or more (as ``GetFloor`` and
    ``GetCeiling`` read it), at most ``INT_MAX``.

    Raises:
        InputError: not a whole number in range.
    """
    if value != int(value) or not least <= value <= INT32_MAX:
        raise InputError(f"{what} = {value!r}; expected a whole number from {least} to {INT32_MAX}")
    return int(value)


def read_userprio(fh: IO[str], label: str) -> UserprioDump:
    """The records of a ``condor_userprio -l`` dump, the accountant's ``LastUpdate`` and
    the concurrency limits the negotiator's ad reports (``-allusers``).

    Raises:
        InputError: ``FILE:LINE`` of a malformed line or ad, or no ``LastUpdate``.
    """
    records: list[AccountingAd] = []
    limits: list[str] = []
    last: float | None = None
    for line, ad in iter_ads(fh, label, wanted="condor_userprio -l or -l -allusers output"):
        where = f"{label}:{line}"
        update = _number(ad, "LastUpdate", where, None)
        numbered = sorted(
            (int(m.group(1)) for k in ad if (m := _NUMBERED.match(k))),
        )
        if numbered:
            records.extend(_record(ad, str(i), where) for i in numbered)
            for key in ad:
                if key.lower().startswith(_LIMIT) and len(key) > len(_LIMIT):
                    _number(ad, key, where)  # (a count: refused when it is none)
                    limits.append(key[len(_LIMIT) :])
        elif ad.get("MyType", "Accounting") == "Accounting" and "Name" in ad:
            records.append(_record(ad, "", where))
        else:
            continue
        if update is not None:
            last = float(update) if last is None else max(last, float(update))
    if last is None:
        raise InputError(
            f"{label}: no LastUpdate; expected condor_userprio -l or -l -allusers output"
        )
    return UserprioDump(records, last, limits)
