"""Usage inputs that hold no usage: an empty file (a capture that failed), a header cut
short, an sshare listing without user rows. An empty file was imported as "0 usage
records", exit 0 (with ``--rebuild``, every recorded usage forgotten); a header cut short
was imported so; an sshare listing without user rows set the usage of no association,
which forgot all of it. Each is now refused in one line, exit 2, the state and its usage
history byte for byte as they were. A quiet hour's export has its header line (or
condor_history -json's '[' and ']'), and imports as no records."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused
from tests.conftest import FIXTURES, REPO

HISTORY = "owner,account,start,end\nalice,hep,2026-11-21T08:00:00Z,2026-11-21T10:00:00Z\n"

#: (the import, the file's name, its text, what the error with --rebuild says)
EMPTY_CASES = [
    ("history", "h.csv", "", "h.csv: empty; expected a usage history (CSV with a header"),
    ("history", "h.jsonl", "", "h.jsonl: empty; expected a usage history"),
    ("history", "h.jsonl", "\n \n", "h.jsonl: empty; expected a usage history"),
    ("history", "h", "", "h: empty; expected a usage history"),
    ("sacct", "s.txt", "", "s.txt: empty; expected sacct -P output"),
    ("sacct", "s.txt", "$ sacct -a -P\n", "s.txt: empty; expected sacct -P output"),
    ("condor-history", "c.json", "", "c.json: no job ads; expected condor_history -json or"),
    ("condor-history", "c.txt", "\n\n", "c.txt: no job ads"),
]

#: (the file's name, its text, what the error says): refused with or without --rebuild
HEADER_CASES = [
    ("h.csv", "\nowner,start\n", "h.csv:1: blank; expected the header line"),
    # blanks only: it said "unknown usage history field '   '"
    ("h.csv", "   \n\n \t \n", "h.csv:1: blank; expected the header line"),
    # a header cut short (no row could be read under it)
    ("h.csv", "owner,account", "h.csv:1: no 'start' column"),
    ("h.csv", "start,end\n", "h.csv:1: no 'owner' column"),
]


@pytest.fixture
def charged(env: dict[str, Path], run: Callable[..., Any]) -> dict[str, Path]:
    """The pool with alice's two hours charged (a state and its usage history)."""
    history = env["dir"] / "charged.csv"
    history.write_text(HISTORY)
    assert run("import", "history", str(history), *common(env)).exit_code == 0
    return env


def _files(env: dict[str, Path]) -> tuple[bytes, bytes]:
    return env["state"].read_bytes(), (env["dir"] / "state.history.sqlite").read_bytes()


@pytest.mark.parametrize("rebuild", [[], ["--rebuild"]])
@pytest.mark.parametrize(("kind", "name", "text", "key"), EMPTY_CASES)
def test_an_empty_usage_file_is_refused(
    kind: str,
    name: str,
    text: str,
    key: str,
    rebuild: list[str],
    charged: dict[str, Path],
    run: Callable[..., Any],
) -> None:
    path = charged["dir"] / name
    path.write_text(text)
    before = _files(charged)
    refused(run("import", kind, str(path), *rebuild, *common(charged)), key)
    assert _files(charged) == before


@pytest.mark.parametrize("rebuild", [[], ["--rebuild"]])
@pytest.mark.parametrize(("name", "text", "key"), HEADER_CASES)
def test_a_history_header_no_record_could_follow_is_refused(
    name: str,
    text: str,
    key: str,
    rebuild: list[str],
    charged: dict[str, Path],
    run: Callable[..., Any],
) -> None:
    path = charged["dir"] / name
    path.write_text(text)
    before = _files(charged)
    refused(run("import", "history", str(path), *rebuild, *common(charged)), key)
    assert _files(charged) == before


def test_a_history_of_a_header_alone_imports_nothing(
    charged: dict[str, Path], run: Callable[..., Any]
) -> None:
    """A header with no row is a history of no work (sacct prints one when no job ran)."""
    path = charged["dir"] / "h.csv"
    path.write_text("owner,start,end\n")
    result = run("import", "history", str(path), *common(charged))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Imported 0 usage records")


SSHARE_TREE_ONLY = (
    "Account|User|RawShares|NormShares|RawUsage|EffectvUsage\n"
    "root|||0.000000|7200|1.000000\n"
    " hep||1|1.000000|7200|1.000000\n"
)


def test_sshare_without_user_rows_is_refused_and_keeps_the_usage(
    charged: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``sshare -l -P`` without ``-a`` (or a listing cut after the accounts) set the usage
    of no association: every user's raw usage was dropped, exit 0."""
    dump = charged["dir"] / "sshare.txt"
    dump.write_text(SSHARE_TREE_ONLY)
    before = charged["state"].read_bytes()
    refused(
        run("import", "sshare", str(dump), *common(charged)),
        f"{dump}: no user associations (sshare -l -P without -a lists accounts only); "
        "give --into CONFIG for the tree, or import 'sshare -a -l -P' for the usage",
    )
    assert charged["state"].read_bytes() == before


def test_sshare_without_user_rows_merges_the_tree_with_into(
    charged: dict[str, Path], run: Callable[..., Any]
) -> None:
    dump = charged["dir"] / "sshare.txt"
    dump.write_text(SSHARE_TREE_ONLY)
    before = charged["state"].read_bytes()
    result = run("import", "sshare", str(dump), "--into", str(charged["config"]), *common(charged))
    assert result.exit_code == 0, result.stderr
    assert "merged into" in result.stderr
    assert charged["state"].read_bytes() == before


@pytest.mark.parametrize(
    ("dump", "line", "then"),
    [
        (
            FIXTURES / "htcondor-25.0" / "flat_users" / "condor_status.json",
            2,
            "; this is a slot ad: condor_status output is read by fs import condor-status",
        ),
        (
            FIXTURES / "htcondor-25.0" / "flat_users" / "condor_userprio.long.txt",
            1,
            "; this is an accountant's ad: condor_userprio -l output is read by fs import "
            "condor-userprio",
        ),
        (REPO / "sample_configs" / "jobs.json", 2, "; is this"),
        (REPO / "sample_configs" / "sample-state.json", 1, "; is this"),
    ],
)
@pytest.mark.parametrize("rebuild", [[], ["--rebuild"]])
def test_condor_history_of_another_file_is_refused(
    dump: Path,
    line: int,
    then: str,
    rebuild: list[str],
    charged: dict[str, Path],
    run: Callable[..., Any],
) -> None:
    """Slot ads, accountant ads, job objects or a state were ads of jobs that never ran:
    'Imported 0 usage records', exit 0 (with --rebuild, every recorded usage forgotten).
    An ad whose MyType names its tool says which import reads it."""
    before = _files(charged)
    result = run("import", "condor-history", str(dump), *rebuild, *common(charged))
    refused(result, f"{dump}:{line}: expected a job ad (with Owner or User){then}")
    assert _files(charged) == before


@pytest.mark.parametrize("rebuild", [[], ["--rebuild"]])
def test_condor_history_json_of_no_job_imports_nothing(
    rebuild: list[str], charged: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``condor_history -json`` prints '[' and ']' round its ads even when no job matched
    (history.cpp's printHeader and printFooter): a quiet hour, as a CSV header alone is.
    It was refused as 'no job ads', exit 2, as an empty file (a capture that failed) is."""
    path = charged["dir"] / "c.json"
    path.write_text("[\n]\n")
    result = run("import", "condor-history", str(path), *rebuild, *common(charged))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Imported 0 usage records from ")
    result = run("import", "condor-history", "-", *common(charged), input="[\n]\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Imported 0 usage records from -")
