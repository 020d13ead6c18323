"""``fs userprio --allusers``: rows that tie keep the order of the negotiator's ad.

condor_userprio 25.0 sorts its rows with ``std::sort``, which for 16 elements or fewer is
libstdc++'s insertion sort alone: stable. The negotiator's one ad (``-allusers``) numbers
the groups breadth-first, then the submitters as its accountant's ``HashTable`` iterates
(``core/htcondor/acctlog_order.py``), so in a pool of at most 16 records tied rows come in
that order, not by name.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

POOL = """
[pool]
uid_domain = "d"
[[machines]]
name = "m"
slots = 2
"""


def test_tied_rows_keep_the_accountant_tables_order(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Four submitters made by ``setfactor 1``, never used: each priority 0.5 (the least)
    x 1 = 0.50, a four-way tie. The table holds 4 records + <none> + no match +
    ``Accountant.`` = 6 entries: 6/7 >= 0.8 grew it to 15 buckets. ``hashFunction``
    (``i += (i << 5) + byte``) of ``Customer.<name>`` modulo 15: ann 4, ben 7, dan 1,
    zoe 10, so the ad numbers them dan 2, ann 3, ben 4, zoe 5, and the table keeps that
    order. fs listed them by name: ann, ben, dan, zoe."""
    (tmp_path / "p.toml").write_text(POOL, encoding="utf-8")
    args = ["--config", str(tmp_path / "p.toml"), "--state", str(tmp_path / "s.json")]
    args += ["--now", "2026-11-21T12:00:00Z"]
    for user in ("ann", "ben", "dan", "zoe"):
        assert run("setfactor", f"{user}@d", "1", "--create", *args).exit_code == 0
    result = run("userprio", "-allusers", *args)
    assert result.exit_code == 0, result.stderr
    rows = [line.split()[:2] for line in result.stdout.splitlines()[4:-2]]
    assert rows == [["dan@d", "0.50"], ["ann@d", "0.50"], ["ben@d", "0.50"], ["zoe@d", "0.50"]]
    long = run("userprio", "-l", "-allusers", *args).stdout
    names = [line for line in long.splitlines() if line.startswith("Name")]
    assert names == ['Name1 = "<none>"', 'Name2 = "dan@d"', 'Name3 = "ann@d"',
                     'Name4 = "ben@d"', 'Name5 = "zoe@d"']  # fmt: skip
    # --sort is fs's own: its ties stay by name
    by_name = run("userprio", "-allusers", "--sort", "factor", *args).stdout
    assert [line.split()[0] for line in by_name.splitlines()[4:-2]] == [
        "ann@d",
        "ben@d",
        "dan@d",
        "zoe@d",
    ]


def test_past_16_records_ties_go_by_name(tmp_path: Path, run: Callable[..., Any]) -> None:
    """17 submitters at 0.50, more than 16 rows: libstdc++'s ``std::sort`` then partitions
    before its insertion sort, which moves tied rows, so fs lists the ties by name (and
    reads no claim to size the accountant's table)."""
    (tmp_path / "p.toml").write_text(POOL, encoding="utf-8")
    args = ["--config", str(tmp_path / "p.toml"), "--state", str(tmp_path / "s.json")]
    args += ["--now", "2026-11-21T12:00:00Z"]
    users = [f"u{k:02d}@d" for k in range(17)]
    for user in users:
        assert run("setfactor", user, "1", "--create", *args).exit_code == 0
    result = run("userprio", "-allusers", *args)
    assert result.exit_code == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()[4:-2]] == users
