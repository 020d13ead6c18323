"""``fs userprio -long -modular`` and ``-legacy``, as HTCondor 25.0's ``user_prio.cpp``
prints them.

``-modular`` clears ``LegacyAdFormat``, so ``-long`` goes through ``PrintModularAds``: the
negotiator's numbered ad (``-allusers``) is split by ``ConvertLegacyUserprioAdToAdList`` into
one ad per record (``Name3`` becomes ``Name`` of ad 3, which gets ``SubmittorId = 3``;
``LastUpdate`` and ``NumSubmittors`` have no number and are dropped), and every ad is
printed after an empty line (``fprintf(out, "\\n"); fPrintAd(...)``), where plain ``-long``
prints an empty line after each of the collector's ads. ``-legacy`` is the default shape;
the later of the two wins.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]


def test_allusers_modular_is_the_numbered_ad_split(run: Callable[..., Any]) -> None:
    numbered = run("userprio", "-l", "-allusers", *SAMPLE).stdout.splitlines()
    ads: dict[int, dict[str, str]] = {}
    for line in numbered:
        name, value = line.split(" = ", 1)
        found = re.fullmatch(r"(\D+)(\d+)", name)
        if found:
            ads.setdefault(int(found[2]), {})[found[1]] = value
    total = next(int(v.split(" = ")[1]) for v in numbered if v.startswith("NumSubmittors"))
    assert sorted(ads) == list(range(1, total + 1))  # the sample's records hold every number
    expected = ""
    for number in range(1, total + 1):
        ad = {**ads[number], "SubmittorId": str(number)}
        expected += "\n" + "".join(f"{k} = {ad[k]}\n" for k in sorted(ad, key=str.lower))
    result = run("userprio", "-l", "-allusers", "-modular", *SAMPLE)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == expected
    assert "LastUpdate" not in result.stdout and "NumSubmittors" not in result.stdout


def test_collector_ads_modular_put_the_empty_line_first(run: Callable[..., Any]) -> None:
    plain = run("userprio", "-l", *SAMPLE).stdout
    blocks = plain.split("\n\n")[:-1]  # each ad, then an empty line
    result = run("userprio", "-l", "-modular", *SAMPLE)
    assert result.stdout == "".join("\n" + block + "\n" for block in blocks)


def test_legacy_is_the_default_and_the_later_wins(run: Callable[..., Any]) -> None:
    plain = run("userprio", "-l", *SAMPLE).stdout
    assert run("userprio", "-l", "-legacy", *SAMPLE).stdout == plain
    assert run("userprio", "-l", "-modular", "-legacy", *SAMPLE).stdout == plain
    assert run("userprio", "-l", "-legacy", "-modular", *SAMPLE).stdout != plain
    # without -long the shape changes nothing
    assert run("userprio", "-modular", *SAMPLE).stdout == run("userprio", *SAMPLE).stdout
