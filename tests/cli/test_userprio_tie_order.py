"""``fs userprio --allusers``: rows that tie keep the order of the negotiator's ad.

condor_userprio 25.0 sorts its rows with ``std::sort``, which for 16 elements or fewer is
libstdc++'s insertion sort alone: stable. The negotiator's one ad (``-allusers``) numbers
the groups breadth-first, then the submitters as its accountant's ``HashTable`` iterates
(``core/htcondor/acctlog_order.py``), so in a pool of at most 16 records tied rows come in
that order, not by name; above 16 the introsort's partitions move them from there, up to
``AD_ORDER_MAX`` records (past it, by name).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fairshare_cli.core.config import Config
from fairshare_cli.core.cpp_sort import cpp_sort
from fairshare_cli.core.htcondor import accountant as acct
from fairshare_cli.core.htcondor.acctlog_order import table_order
from fairshare_cli.core.htcondor.userprio import AD_ORDER_MAX, userprio_view
from fairshare_cli.core.htcondor.userprio_query import UserprioQuery

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


def test_past_16_records_ties_follow_the_sorts_partitions(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """17 submitters a..q made by ``setfactor 1``, each at 0.50; the ad holds <none> too,
    also 0.5: 18 tied rows, which ``user_prio.cpp`` sorts all (the hidden <none> among
    them). 17 records + <none> + ``Accountant.`` = 19 entries grew the table to 31 buckets;
    ``-l -allusers`` numbers them <none>, l e m f n g o h p a i q b j c k d (idx 0..17).
    libstdc++'s ``std::sort`` of 18 > 16: ``__move_median_to_first`` of idx 1, 9, 16 (all
    tie: the last branch) swaps idx 0 and 9 (p first, <none> at 9); the unguarded
    partition around p never stops early, so it swaps (1,17) (2,16) ... (8,10) and cuts at
    9: p d k c j b q i a <none> h o g n f m e l. Both halves are at most 16 and the final
    insertion sort moves no tie. Without <none>: p d k c j b q i a h o g n f m e l.
    fs listed them by name."""
    (tmp_path / "p.toml").write_text(POOL, encoding="utf-8")
    args = ["--config", str(tmp_path / "p.toml"), "--state", str(tmp_path / "s.json")]
    args += ["--now", "2026-11-21T12:00:00Z"]
    for user in "abcdefghijklmnopq":
        assert run("setfactor", f"{user}@d", "1", "--create", *args).exit_code == 0
    long = run("userprio", "-l", "-allusers", *args).stdout
    named = {int(k[4:]): v.strip('"') for k, _, v in (ln.partition(" = ") for ln in
             long.splitlines()) if k.startswith("Name")}  # fmt: skip
    assert [named[k] for k in sorted(named)] == ["<none>", *(f"{u}@d" for u in "lemfngohpaiqbjckd")]
    result = run("userprio", "-allusers", *args)
    assert result.exit_code == 0, result.stderr
    rows = [line.split()[0] for line in result.stdout.splitlines()[4:-2]]
    assert rows == [f"{u}@d" for u in "pdkcjbqiahognfmel"]


def test_past_16_records_hierarchical_ties_follow_the_sorts_partitions(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Group g (quota 1) with 17 submitters g.u01..g.u17 made by ``setfactor 1``, each at
    0.50. The ad numbers <none> (1), g (2), then the users u1..u17 as the accountant's
    table iterates them (Name3..Name19): 19 ads, which ``user_prio.cpp`` sorts with
    ``SortHierByDisplayOrder``: g's block before <none>'s (display order g's priority,
    <none>'s ``FLT_MAX``), a group row before its users, users by priority (all tie).
    ``__move_median_to_first`` of idx 1 (g), 9 (u8), 18 (u17): g < u8, not u8 < u17,
    g < u17, so idx 0 (<none>) and 18 swap: pivot u17. The unguarded partition passes g
    (less than the pivot), stops at u1 and, from the end, passes <none> (greater) to u16:
    it swaps (2,17) (3,16) ... (9,10) and cuts at 10: u17 g u16 u15 ... u1 <none>. The
    final insertion sort moves g to the front and no tie: g, u17 down to u1, <none>. fs
    listed the users by name."""
    pool = POOL + "[groups.g]\nquota = 1\n"
    (tmp_path / "p.toml").write_text(pool, encoding="utf-8")
    args = ["--config", str(tmp_path / "p.toml"), "--state", str(tmp_path / "s.json")]
    args += ["--now", "2026-11-21T12:00:00Z"]
    for k in range(1, 18):
        assert run("setfactor", f"g.u{k:02d}@d", "1", "--create", *args).exit_code == 0
    long = run("userprio", "-l", "-allusers", *args).stdout
    named = {int(k[4:]): v.strip('"') for k, _, v in (ln.partition(" = ") for ln in
             long.splitlines()) if k.startswith("Name")}  # fmt: skip
    ad_users = [named[k] for k in range(3, 20)]
    result = run("userprio", "-allusers", *args)
    assert result.exit_code == 0, result.stderr
    rows = [line.split()[0] for line in result.stdout.splitlines()[4:-2]]
    assert rows == ["g", *(u.removeprefix("g.") for u in reversed(ad_users)), "<none>"]


def _tied_view(users: int) -> list[str]:
    """The flat table's names of ``users`` fresh submitters (each 0.5 x 1: all tie), with
    the accountant table's entries given (every record and ``Accountant.``)."""
    records = {
        f"u{i:04d}@d": acct.CustomerRecord(name=f"u{i:04d}@d", last_update=0.0)
        for i in range(users)
    }
    query = UserprioQuery(all_users=True)
    view = userprio_view(records, Config(), 10.0, query, table_entries=users + 2)
    return [row.name for row in view.rows]


def test_ties_follow_the_sort_up_to_the_limit_and_go_by_name_past_it() -> None:
    """Past AD_ORDER_MAX records the replay of ``std::sort`` is not made (with the hashing
    of every name, some 0.05 s of CPU at 20,000 submitters)."""
    # AD_ORDER_MAX records with <none>: the sort's partitions move the tied rows away from
    # their names' order; one more, and they are listed by name.
    at_limit = _tied_view(AD_ORDER_MAX - 1)
    assert sorted(at_limit) == [f"u{i:04d}@d" for i in range(AD_ORDER_MAX - 1)]
    assert at_limit != sorted(at_limit)
    past = _tied_view(AD_ORDER_MAX)
    assert past == sorted(past)
    assert len(past) == AD_ORDER_MAX


def test_ties_of_thousands_of_records_follow_the_plain_replay() -> None:
    """3,000 submitters u0000..u2999 with priority 0.5 + (i % 7), so seven runs of some
    430 ties each (<none>, fresh, at the 0.5 floor with the first run): the flat table
    is the order ``std::sort``, replayed step by step (``core/cpp_sort.py``), leaves the ad's order in: <none>, then the
    submitters as the accountant's table of 3,002 entries iterates them."""
    users = [f"u{i:04d}@d" for i in range(3000)]
    records = {
        name: acct.CustomerRecord(name=name, priority=0.5 + i % 7, last_update=10.0)
        for i, name in enumerate(users)
    }
    query = UserprioQuery(all_users=True)
    view = userprio_view(records, Config(), 10.0, query, table_entries=len(users) + 2)
    run_of = {name: i % 7 for i, name in enumerate(users)} | {acct.ROOT_GROUP: 0}
    ad = [acct.ROOT_GROUP, *table_order(users, len(users) + 2)]
    cpp_sort(ad, run_of.__getitem__)
    shown = [row.name for row in view.rows]
    assert shown == [name for name in ad if name != acct.ROOT_GROUP]
    assert shown != sorted(shown, key=lambda name: (run_of[name], name))
