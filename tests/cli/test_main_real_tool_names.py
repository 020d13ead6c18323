"""A real tool's name typed as an fs command: close matches alone said ``fs squeue``:
"Did you mean 'taskqueues'?" (DIRAC's), ``fs sacct`` and ``fs sacctmgr``: "Did you mean
'setaccum'?" (an accountant edit), ``fs sbatch`` and ``fs condor_q`` nothing. Each now
names what fs does in its place, in one line, exit 2."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fairshare_cli.cli.import_cmd import ImportGroup
from fairshare_cli.cli.main import REAL_TOOLS
from tests.cli.conftest import refused


@pytest.mark.parametrize(
    ("tool", "said"),
    [
        ("squeue", "fs import squeue reads squeue --json output; fs sprio shows the queue"),
        ("sacct", "fs import sacct reads its output"),
        ("sacctmgr", "fs import sacctmgr reads its show assoc or show qos output"),
        ("sbatch", "fs submit queues a job"),
        ("condor_q", "fs import condor-q reads its -json or -long output"),
    ],
)
def test_a_real_tools_name_says_what_fs_does_instead(
    run: Callable[..., Any], tool: str, said: str
) -> None:
    res = run(tool, "x.txt")
    refused(res)
    assert res.stderr == f"fs: error: No such command '{tool}': {said} (see 'cli --help')\n"


def test_fs_import_sprio_says_where_sprio_comes_from(run: Callable[..., Any]) -> None:
    """``fs import sprio p.txt`` said "No such command 'sprio'." and no more."""
    res = run("import", "sprio", "p.txt")
    refused(res)
    assert res.stderr == (
        "fs: error: No such command 'sprio': fs sprio computes it from the queue fs import "
        "squeue reads (squeue --json or scontrol show jobs output) (see 'cli import --help')\n"
    )


def test_every_command_a_real_tool_is_sent_to_exists(run: Callable[..., Any]) -> None:
    """Each ``fs WORD`` and ``fs import WORD`` the table names is a command."""
    import re

    texts = [*REAL_TOOLS.values(), *ImportGroup.instead.values()]
    named = {m for text in texts for m in re.findall(r"fs (import \S+|\w+)", text)}
    for words in sorted(named):
        res = run(*words.rstrip(",").split(), "--help")
        assert res.exit_code == 0, (words, res.stderr)
