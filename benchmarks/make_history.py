"""Synthetic usage histories for the sample pool and for benchmarks.

    python benchmarks/make_history.py --records 1000000 --out /tmp/history.jsonl

Deterministic (seeded); records are in start-time order, like a real accounting dump.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

USERS = [
    # owner, accounting group (None = plain user), account, dirac group, domain
    ("alice", "group_physics.hep.alice", "hep", "lhcb_user", "example.org"),
    ("bob", "group_physics.hep.bob", "hep", "lhcb_user", "example.org"),
    ("dave", "group_physics.hep.dave", "hep", "lhcb_prod", "example.org"),
    ("erin", "group_physics.astro.erin", "astro", "lhcb_user", "example.org"),
    ("frank", "group_physics.frank", "astro", "lhcb_user", "example.org"),
    ("carol", "group_chemistry.carol", "chemistry", "lhcb_user", "example.org"),
    ("grace", "group_chemistry.lab.grace", "chemistry", "lhcb_user", "example.org"),
    ("heidi", "group_chemistry.lab.heidi", "chemistry", "lhcb_user", "example.org"),
    ("ivan", None, "chemistry", "lhcb_user", "example.org"),
    ("judy", None, "hep", "lhcb_user", "example.org"),
    ("ops", None, "root", "lhcb_prod", "example.org"),
    ("mallory", None, "astro", "lhcb_user", "guest.net"),
]


def iso(t: float) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(t, tz=dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def generate(n: int, end: float, span: float, seed: int, submitters: int = 0):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    start0 = end - span
    users = USERS
    if submitters:
        users = [
            (f"user{i:05d}", None, "hep", "lhcb_user", "example.org") for i in range(submitters)
        ]
    nice_start = end - 10 * 3600
    nice_done = bool(submitters)
    for i in range(n):
        pick = i % len(users) if submitters else rng.randrange(len(users))
        owner, group, account, dgroup, domain = users[pick]
        s = start0 + (span * i) / n
        if not nice_done and s >= nice_start:
            # A nice user soaking up idle slots for eight hours (kept in start order).
            nice_done = True
            yield {
                "owner": "nobody",
                "accounting_group": None,
                "account": "hep",
                "partition": "batch",
                "qos": "normal",
                "dirac_group": "lhcb_user",
                "start": iso(nice_start),
                "end": iso(nice_start + 8 * 3600),
                "slots": 16,
                "cpus": 1,
                "nice_user": True,
            }
        length = rng.choice([600, 1800, 3600, 7200, 14400, 28800])
        e = s + length
        yield {
            "owner": owner if domain == "example.org" else f"{owner}@{domain}",
            "accounting_group": group,
            "account": account,
            "partition": "batch",
            "qos": "normal",
            "dirac_group": dgroup,
            "start": iso(s),
            "end": iso(e) if e <= end else None,
            "slots": rng.choice([1, 1, 2, 4, 8]),
            "cpus": 1,
            "nice_user": False,
        }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--records", type=int, default=400)
    p.add_argument("--end", default="2026-11-21T12:00:00Z")
    p.add_argument("--days", type=float, default=4.0)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument(
        "--submitters",
        type=int,
        default=0,
        help="use N synthetic plain users instead of the sample pool's dozen",
    )
    p.add_argument("--format", choices=("csv", "jsonl"), default="jsonl")
    p.add_argument("--shuffle", action="store_true", help="write the records in random order")
    p.add_argument("--out", default="-")
    a = p.parse_args()
    import datetime as dt

    end = dt.datetime.fromisoformat(a.end.replace("Z", "+00:00")).timestamp()
    out = sys.stdout if a.out == "-" else open(a.out, "w", encoding="utf-8", newline="")  # noqa: SIM115
    from fairshare_cli.core.usage_lines import LINE_FIELDS

    fields = list(LINE_FIELDS)  # (the order the docs give a record's keys in)
    records = generate(a.records, end, a.days * 86400, a.seed, a.submitters)
    if a.shuffle:
        records = list(records)
        random.Random(a.seed).shuffle(records)
    if a.format == "csv":
        import csv

        w = csv.writer(out, lineterminator="\n")
        w.writerow(fields)
        for rec in records:
            w.writerow(
                [
                    ""
                    if rec.get(f) is None
                    else str(rec[f]).lower()
                    if isinstance(rec[f], bool)
                    else rec[f]
                    for f in fields
                ]
            )
    else:
        for rec in records:
            out.write(json.dumps(rec) + "\n")
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
