"""``fs import sshare`` of ``sshare -a -P`` (io/importers/sshare.py): its last field,
FairShare, is empty on an account's row, and ``-P`` leaves out the '|' after the last
field only, so the row ends in '|'. The import read that '|' as ``-p``'s ending and refused
the file (``expected 7 fields separated by | (...), got 6``), the default layout included."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import write_pool

CONFIG = """\
[pool]
defaults = "current"

[accounts.lab]
parent = "root"
shares = 1
users = {ann = 1, ben = 1}
"""

#: ``sshare -a -P`` of the two users, as sshare prints it.
LISTING = """\
Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare
root|||0.000000|3600|1.000000|
 lab||1|1.000000|3600|1.000000|
  lab|ann|1|0.500000|2400|0.666667|0.500000
  lab|ben|1|0.500000|1200|0.333333|1.000000
"""

NOW = "2026-11-21T12:00:00Z"


def test_the_default_parsable_listing_is_read(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import sshare sshare.txt`` of ``sshare -a -P``: both users' usage, and
    ``fs sshare -a -P`` prints the listing back."""
    pool = write_pool(tmp_path, config=CONFIG)
    dump = tmp_path / "sshare.txt"
    dump.write_text(LISTING)
    args = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    result = run("import", "sshare", str(dump), *args)
    assert (result.exit_code, result.stderr) == (
        0,
        f"{dump}: usage of 2 user associations as of the decay pass at {NOW} into"
        f" {pool['state']}\n",
    )
    shown = run("sshare", "-a", "-P", *args)
    assert (shown.exit_code, shown.stdout) == (0, LISTING)


def test_a_short_row_is_still_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import sshare sshare.txt`` of a row one field short: exit 2, the state kept."""
    pool = write_pool(tmp_path, config=CONFIG)
    before = pool["state"].read_bytes()
    dump = tmp_path / "sshare.txt"
    dump.write_text(LISTING.replace("|2400|0.666667|", "|2400|"))
    args = ["--config", str(pool["config"]), "--state", str(pool["state"]), "--now", NOW]
    result = run("import", "sshare", str(dump), *args)
    assert (result.exit_code, result.stderr) == (
        2,
        f"fs: error: {dump}:4: expected 7 fields separated by |"
        " (Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare), got 6\n",
    )
    assert pool["state"].read_bytes() == before
