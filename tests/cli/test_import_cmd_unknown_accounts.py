"""fs import sacct (and history) of records whose account the config does not have: the
usage is kept for the account, counts towards root, and the import says so on stderr."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOW = "2026-11-21T13:00:00Z"
# No decay (a monthly reset instead), passes every 300 s on the epoch grid: an hour's job
# from 12:00 to 13:00 is charged whole by the pass at 13:00.
CONFIG = """
[pool]
defaults = "current"
[[machines]]
name = "node"
attributes = { Cpus = 4 }
[priority]
decay_halflife = 0
usage_reset_period = "MONTHLY"
[accounts.physics]
users = { alice = 1 }
"""
SACCT = (
    "JobID|User|Account|AllocCPUS|State|Start|End\n"
    "1|u1|b|2|COMPLETED|2026-11-21T12:00:00|2026-11-21T13:00:00\n"
    "2|alice|physics|1|COMPLETED|2026-11-21T12:00:00|2026-11-21T13:00:00\n"
    "3|u2|e|1|COMPLETED|2026-11-21T12:00:00|2026-11-21T13:00:00\n"
)


def test_sacct_of_accounts_the_config_lacks_is_noted(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """fs import sacct s.txt on a config without accounts b and e: it printed only
    'Imported 3 usage records', and sshare showed root with usage no account had.

    By hand: u1 holds 2 CPUs for 3600 s (7200), alice 1 (3600), u2 1 (3600); root 14400,
    so physics' effective usage is 3600/14400 = 0.25."""
    config = write_config(CONFIG)
    dump = tmp_path / "s.txt"
    dump.write_text(SACCT, encoding="utf-8")
    common = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    result = run("import", "sacct", str(dump), *common)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        "fs: warning: Slurm: the config has no account b, e: their usage counts towards root alone "
        "(as a deleted account's does) until [accounts] names them (fs import sacctmgr)"
    )
    rows = json.loads(run("sshare", "-a", "--json", *common).stdout)
    usage = {(r["account"], r["user"]): (r["raw_usage"], r["effective_usage"]) for r in rows}
    assert usage == {
        ("root", None): (14400.0, 1.0),
        ("physics", None): (3600.0, 0.25),
        ("physics", "alice"): (3600.0, 1.0),
    }
    # once the config names the account, the usage kept for it shows under it
    config.write_text(CONFIG + "[accounts.b]\nusers = { u1 = 1 }\n", encoding="utf-8")
    rows = json.loads(run("sshare", "-a", "--json", *common).stdout)
    assert {(r["account"], r["user"]): r["raw_usage"] for r in rows if r["account"] == "b"} == {
        ("b", None): 7200.0,
        ("b", "u1"): 7200.0,
    }


def test_history_of_one_account_the_config_lacks_is_noted_in_the_singular(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    history = tmp_path / "h.csv"
    history.write_text(
        "owner,account,start,end,cpus\nu1,b,2026-11-21T12:00:00Z,2026-11-21T13:00:00Z,1\n",
        encoding="utf-8",
    )
    common = ["--config", str(write_config(CONFIG)), "--state", str(tmp_path / "s.json")]
    result = run("import", "history", str(history), *common, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        "fs: warning: Slurm: the config has no account b: its usage counts towards root alone (as a "
        "deleted account's does) until [accounts] names it (fs import sacctmgr)\n"
    )


def test_many_users_with_no_association_are_one_short_warning(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs import history h.csv`` of 2,000 users the config's [accounts] lacks named every
    one on one line of some 12,000 characters, which began ``Slurm:``, not ``fs: warning:``
    as every other warning. It is a warning now, naming the first 12 and how many more."""
    history = tmp_path / "h.csv"
    lines = [f"user{k:04d},,2026-11-21T12:00:00Z,2026-11-21T13:00:00Z,1" for k in range(2000)]
    history.write_text("owner,account,start,end,cpus\n" + "\n".join(lines) + "\n")
    common = ["--config", str(write_config(CONFIG)), "--state", str(tmp_path / "s.json")]
    result = run("import", "history", str(history), *common, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    first = ", ".join(f"user{k:04d}" for k in range(12))
    assert result.stderr == (
        "fs: warning: Slurm: ignored the usage of 2000 users with no association: "
        f"{first} (+1988 more)\n"
    )


def test_sacct_of_a_qos_the_config_lacks_is_one_line(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """fs import sacct s.txt whose job names a QOS the config has no [qos] for: the import ended in
    a TypeError traceback (its refusal, re-raised with the import's words, could not be
    made again), not the model's one line; nothing was written."""
    config = write_config(CONFIG)
    dump = tmp_path / "s.txt"
    dump.write_text(
        "JobID|User|Account|QOS|AllocCPUS|State|Start|End\n"
        "1|alice|physics|high|1|COMPLETED|2026-11-21T12:00:00|2026-11-21T13:00:00\n",
        encoding="utf-8",
    )
    state = tmp_path / "s.json"
    result = run(
        "import", "sacct", str(dump), "--config", str(config), "--state", str(state), "--now", NOW
    )
    assert result.exit_code == 2
    assert result.stderr == f'fs: error: {dump}:2: unknown QOS "high"\n'
    assert not state.exists()


def test_sacct_names_a_refused_job_by_its_line(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """fs import sacct s.txt, the unknown QOS on line 4 (a blank line before it, a job that
    started earlier after it): named 's.txt: record 2' (its place in start order), where
    every other error of the dump names its line."""
    config = write_config(CONFIG.replace("[accounts.physics]", "[qos.normal]\n[accounts.physics]"))
    dump = tmp_path / "s.txt"
    dump.write_text(
        "JobID|User|Account|QOS|AllocCPUS|State|Start|End\n"
        "1|alice|physics|normal|1|COMPLETED|2026-11-21T10:00:00|2026-11-21T11:00:00\n"
        "\n"
        "2|alice|physics|high|1|COMPLETED|2026-11-21T10:30:00|2026-11-21T11:00:00\n"
        "3|alice|physics|normal|1|COMPLETED|2026-11-21T09:00:00|2026-11-21T11:00:00\n",
        encoding="utf-8",
    )
    state = tmp_path / "s.json"
    result = run(
        "import", "sacct", str(dump), "--config", str(config), "--state", str(state), "--now", NOW
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f'fs: error: {dump}:4: unknown QOS "high"\n'
    assert not state.exists()
