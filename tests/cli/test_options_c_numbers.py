"""Whole-number options read as the real tools (C's ``strtol``) read them: Python's ``int``
also read ``1_000`` (C: 1) and other scripts' digits (``٣``, ``１``; C: none), so
``fs submit --count ٣`` queued three jobs and ``--nice 1_000`` a nice of 1000, where the
edits, ``fs prio`` and the times already refused such text
(:func:`~fairshare_cli.core.names.c_number_text`). Refused now with click's own words,
exit 2, nothing written; so is ``fs import history --cycle 3_00``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused


@pytest.mark.parametrize(
    ("option", "value", "kind"),
    [
        ("--count", "٣", "integer"),
        ("--count", "1_000", "integer"),
        ("--cpus", "１", "integer"),
        ("--memory", "1_024", "integer"),
        ("--nodes", "٢", "integer"),
        ("--nice", "1_000", "integer"),
        ("--job-prio", "٣", "integer"),
    ],
)
def test_submit_refuses_numbers_c_would_not_read(
    env: dict[str, Path], run: Callable[..., Any], option: str, value: str, kind: str
) -> None:
    """``fs submit --owner alice --count ٣``."""
    before = env["state"].read_bytes()
    refused(
        run("submit", "--owner", "alice", option, value, *common(env)),
        f"Invalid value for '{option}': '{value}' is not a valid {kind}.",
    )
    assert env["state"].read_bytes() == before


def test_plain_numbers_still_read(env: dict[str, Path], run: Callable[..., Any]) -> None:
    """``fs submit --owner alice --count 3 --nice -5 --job-prio +2``: ASCII digits, a sign."""
    res = run("submit", "--owner", "alice", "--count", "3", "--nice", "-5", "--job-prio", "+2",
              "-v", *common(env))  # fmt: skip
    assert res.exit_code == 0, res.stderr
    assert res.stdout.count(".") == 3  # (three job ids listed)


def test_userprio_activefrom_refuses_other_digits(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs userprio -activefrom ٣ 1 2026`` (condor_userprio's atoi reads no such digit)."""
    refused(
        run("userprio", "-activefrom", "٣", "1", "2026", *common(env)),
        "'٣' is not a valid integer.",
    )


@pytest.mark.parametrize("value", ["3_00", "٣00"])
def test_import_history_cycle_refuses_numbers_c_would_not_read(
    env: dict[str, Path], run: Callable[..., Any], tmp_path: Path, value: str
) -> None:
    """``fs import history h.csv --cycle 3_00`` replayed on a 300-second grid."""
    history = tmp_path / "h.csv"
    history.write_text("owner,start,end\nalice,2026-11-21T10:00:00Z,2026-11-21T11:00:00Z\n")
    before = env["state"].read_bytes()
    refused(
        run("import", "history", str(history), "--cycle", value, *common(env)),
        f'--cycle: "{value}" has characters other than digits, "-" and ":" (a Slurm time is '
        "M, M:S, H:M:S, D-H, D-H:M or D-H:M:S, or INFINITE); here a plain number is seconds",
    )
    assert env["state"].read_bytes() == before
