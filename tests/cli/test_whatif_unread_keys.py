"""``fs whatif --set KEY=VALUE VIEW`` where every key set is another scheduler's (cli/whatif.py,
``core/operations/whatif.unread_note``): the view never reads it, so its "no differences"
is no finding, and the comparison says so and names the views that read it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fairshare_cli.core.operations.whatif import unread_note
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
SAMPLE = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", NOW]


def test_a_slurm_key_under_userprio_is_named(run: Callable[..., Any]) -> None:
    """``fs whatif --set priority.decay_halflife=2-0 userprio``: it printed "no
    differences" alone, as if a two-day half-life changed nothing; userprio reads no
    Slurm key."""
    result = run("whatif", "--set", "priority.decay_halflife=2-0", "userprio", *SAMPLE)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "fs userprio with priority.decay_halflife=2-0: before -> after: no differences\n"
        "Note: fs userprio reads no key of [priority] (Slurm's), so nothing can differ;"
        " fs sshare and fs sprio do\n"
    )


def test_an_htcondor_key_under_sshare_is_named_in_json(run: Callable[..., Any]) -> None:
    """``fs whatif --set accountant.priority_halflife=3600 sshare -a --json``: the note
    is one of the document's notes."""
    result = run(
        "whatif", "--set", "accountant.priority_halflife=3600", "sshare", "-a", "--json", *SAMPLE
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(
        '  "notes": [\n'
        "    \"fs sshare reads no key of [accountant] (HTCondor's), so nothing can differ;"
        ' fs userprio, fs quota and fs negotiate do"\n'
        "  ]\n}\n"
    )


def test_a_key_the_view_reads_gets_no_note(run: Callable[..., Any]) -> None:
    """``fs whatif --set accountant.priority_halflife=3600 quota``: quota reads the
    accountant's table; that nothing moved is a finding, and no note follows."""
    result = run("whatif", "--set", "accountant.priority_halflife=3600", "quota", *SAMPLE)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith("no differences\n") and "Note:" not in result.stdout


@pytest.mark.parametrize(
    ("view", "tables", "said"),
    [
        (
            "sprio",
            ["dirac"],
            "fs sprio reads no key of [dirac] (DIRAC's), so nothing can differ; fs taskqueues does",
        ),
        (
            "taskqueues",
            ["qos", "groups", "qos"],
            "fs taskqueues reads no key of [qos] "
            "(Slurm's) or [groups] (HTCondor's), so nothing can differ; fs sshare and fs sprio do",
        ),
        ("userprio", ["priority", "accountant"], None),  # (one it reads)
        ("negotiate", ["dirac"], None),  # (reads every scheduler's tables)
        ("simulate", ["priority"], None),
        ("sshare", ["pool"], None),  # (no scheduler's)
        ("sshare", [], None),
    ],
)
def test_unread_note(view: str, tables: list[str], said: str | None) -> None:
    assert unread_note(view, tables) == said
