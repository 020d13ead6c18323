"""``fs userprio --long``: each record as ``condor_userprio -long`` prints its accounting ad;
``--getreslist``: a submitter's resources as ``condor_userprio -getreslist`` lists them."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from fairshare_cli.core.htcondor.accounting_ads import AdValue


def classad_real(value: float) -> str:
    """A real as an old-syntax ClassAd prints it (``ClassAdUnParser::UnparseReal``):
    ``%.1f`` of a zero (its sign kept), ``real("NaN")``, ``real("INF")`` / ``real("-INF")``,
    else ``%.16G`` with ".0" added where that has no '.', 'E' or 'e'."""
    if value == 0.0:
        return "%.1f" % value  # noqa: UP031  (C's format)
    if math.isnan(value):
        return 'real("NaN")'
    if math.isinf(value):
        return 'real("INF")' if value > 0 else 'real("-INF")'
    text = "%.16G" % value  # noqa: UP031  (C's format)
    return text if any(c in text for c in ".Ee") else text + ".0"


def classad_value(value: AdValue) -> str:
    """One value as ``fPrintAd`` prints it: text quoted, ``true``/``false``, an integer,
    or a real (:func:`classad_real`). Old-syntax text (``UnparseString`` with
    ``oldClassAd``) escapes only its quote: a backslash is printed as is."""
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return classad_real(value)


def print_ad(ad: Mapping[str, AdValue]) -> str:
    """An ad as ``fPrintAd`` prints it: ``attr = value`` lines in the order of its names
    without regard to case (``sPrintAd`` walks a case-blind sorted set of names)."""
    return "".join(f"{k} = {classad_value(ad[k])}\n" for k in sorted(ad, key=str.lower))


def render_long(ads: Sequence[Mapping[str, AdValue]]) -> str:
    """``-long``: each ad followed by an empty line, as condor_userprio prints the list of
    Accounting ads it queried (the negotiator's one numbered ad is :func:`print_ad` alone)."""
    return "".join(print_ad(ad) + "\n" for ad in ads)


def render_modular(ads: Sequence[Mapping[str, AdValue]]) -> str:
    """``-long -modular``: each ad after an empty line (``PrintModularAds``)."""
    return "".join("\n" + print_ad(ad) for ad in ads)


def modular_ads(numbered: Mapping[str, AdValue]) -> list[dict[str, AdValue]]:
    """The negotiator's numbered ad split into one ad per record, as
    ``ConvertLegacyUserprioAdToAdList`` splits it: an attribute whose name ends in a
    number N above 0 (its first run of digits that reaches the end) goes, without it, to
    ad N, which gets ``SubmittorId = N``; the others (``LastUpdate``, ``NumSubmittors``)
    are dropped, and a number no attribute has stays an empty ad."""
    import re

    ads: list[dict[str, AdValue]] = []
    for name, value in numbered.items():
        found = re.fullmatch(r"(.+?)(\d+)", name)
        if found is None or int(found[2]) <= 0:
            continue
        number = int(found[2])
        while len(ads) < number:
            ads.append({})
        ads[number - 1][found[1]] = value
        ads[number - 1]["SubmittorId"] = number
    return ads


def render_reslist(resources: Sequence[tuple[str, float]], now: float) -> str:
    """``-getreslist``'s table (``PrintResList``): each resource (its slot, when it was
    matched) with the time since, between dashed lines, and the count."""
    from fairshare_cli.render.userprio_columns import format_date, format_time

    def line(name: str, start: str, since: str) -> str:
        return f"{name:<30} {start:>12} {since:>12}\n"

    rows = [line(slot, format_date(t), format_time(now - int(t))) for slot, t in resources]
    return "".join(
        [
            line("Resource Name", " Start Time", " Match Time"),
            line("-------------", " ----------", " ----------"),
            *rows,
            line("-------------", " ------------", " ------------"),
            f"Number of Resources Used: {len(rows)}\n",
        ]
    )
