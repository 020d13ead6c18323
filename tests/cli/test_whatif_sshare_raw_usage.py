"""``fs whatif ... sshare``: raw usage as ``fs sshare`` prints ``RawUsage``, on each side.

sshare prints ``RawUsage`` with ``print_fields_uint64`` (``src/sshare/process.c``): the
``uint64_t`` of the double, its whole part. The comparison printed ``%g`` (six digits):
``8.80563e+06 -> 9.60882e+06`` beside sshare's ``8805629``, and carol's ``611253`` where
sshare prints ``611252`` (611252.7... rounded, not truncated).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fairshare_cli.core.operations.whatif import Compared
from fairshare_cli.render.whatif import cell, raw_usage_text

Run = Callable[..., Any]
REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"
HALF_LIFE = 'priority.decay_halflife="14-0"'


def test_each_side_prints_what_sshare_prints(tmp_path: Path, run: Run) -> None:
    """Before: the sample pool's ``fs sshare -a -P`` RawUsage, row by row; after: the
    whole part of each row's raw usage in the replayed view (``--json``'s ``after``)."""
    shutil.copy(REPO / "sample_configs" / "pool.toml", tmp_path / "pool.toml")
    shutil.copy(REPO / "sample_configs" / "sample-state.json", tmp_path / "sample-state.json")
    shutil.copy(
        REPO / "sample_configs" / "sample-state.history.sqlite",
        tmp_path / "sample-state.history.sqlite",
    )
    args = ["--config", str(tmp_path / "pool.toml"), "--now", NOW]
    table = run("whatif", "--set", HALF_LIFE, "sshare", "-a", *args, env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.stderr
    shown = {}
    for line in table.stdout.splitlines()[3:-1]:
        name, _, usage, _ = (part.strip() for part in line.split("│"))
        shown[name] = usage.split(" -> ")
    sshare = run("sshare", "-a", "-P", "-o", "Account,User,RawUsage", *args).stdout.splitlines()
    printed = {}
    for line in sshare[1:]:
        account, user, raw = line.split("|")
        printed[f"{account.strip()}/{user}" if user else account.strip()] = raw
    assert printed["root"] == "8805629"
    assert shown["root"] == ["8805629", "9608821"]
    assert shown["chemistry/carol"][0] == printed["chemistry/carol"] == "611252"
    assert {name: before for name, (before, _) in shown.items()} == printed
    after = json.loads(run("whatif", "--set", HALF_LIFE, "sshare", "-a", *args, "--json").stdout)
    whole = {
        f"{r['account']}/{r['user']}" if r["user"] else r["account"]: str(int(r["raw_usage"]))
        for r in after["after"]
    }
    assert {name: after for name, (_, after) in shown.items()} == whole


def test_sides_that_print_alike_show_one_value() -> None:
    """611252.2 and 611252.9 differ as doubles (the row changed) but sshare prints 611252
    for both: the cell is that one value; 611252.9 and 611253.0 print two."""
    assert raw_usage_text(611252.9) == "611252"
    row = Compared(
        "c", 1, 1, {"raw_usage": 611252.2}, {"raw_usage": 611252.9}, frozenset({"raw_usage"})
    )
    assert cell(row, "raw_usage", text=raw_usage_text) == "611252"
    moved = Compared(
        "c", 1, 1, {"raw_usage": 611252.9}, {"raw_usage": 611253.0}, frozenset({"raw_usage"})
    )
    assert cell(moved, "raw_usage", text=raw_usage_text) == "611252 -> 611253"
