"""``fs userprio -quotas`` on the imported HTCondor 25.0 pool: the table lists group rows
only, as condor_userprio's does, yet fs noted under it "not listed: 1 submitter with usage
but no job in the queue (zed@other.org), counted in their groups' rows; --allusers lists
them", though no submitter is listed in that table and ``-quotas --allusers`` lists none
either. Now the note comes only under tables that list submitters."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_condor_fixtures import CAPTURE, POOL, import_pool

NOTE = (
    "fs: note: not listed: 1 submitter with usage but no job in the queue (zed@other.org), "
    "counted in their groups' rows; --allusers lists them\n"
)


def test_quotas_alone_lists_no_submitter_and_says_nothing_of_them(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs userprio -quotas --config C --state S --now CAPTURE``: the captured
    ``condor_userprio -quotas`` line for line, nothing on stderr."""
    args = import_pool(tmp_path, run)
    result = run("userprio", "-quotas", *args, "--now", CAPTURE)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (POOL / "condor_userprio.quotas.txt").read_text()


def test_tables_that_list_submitters_keep_the_note(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs userprio`` and ``fs userprio -quotas -priority`` list submitters: the note stays."""
    args = import_pool(tmp_path, run)
    for flags in ([], ["-quotas", "-priority"]):
        result = run("userprio", *flags, *args, "--now", CAPTURE)
        assert (result.exit_code, result.stderr) == (0, NOTE), flags
