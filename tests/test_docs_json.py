"""docs/json.md against what the commands print: every key of every ``--json`` output on
the sample pool is named in the doc (in backquotes), and docs/jobs.md names every field
of the job reader."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "sample_configs"
NOW = "2026-11-21T12:00:00Z"
ON_SAMPLE = ["--config", str(SAMPLE / "pool.toml"), "--now", NOW]

#: Every command line with --json output on the sample pool.
COMMANDS = {
    "userprio": ["userprio", "--allusers"],
    "sshare": ["sshare", "-a"],
    "sprio": ["sprio", "--jobs-file", str(SAMPLE / "jobs.json")],
    "quota": ["quota", "--jobs-file", str(SAMPLE / "jobs.json")],
    "negotiate": ["negotiate", "--dry-run", "--jobs-file", str(SAMPLE / "jobs.json")],
    "negotiate --explain": [
        "negotiate", "--dry-run", "--jobs-file", str(SAMPLE / "jobs.json"), "--explain", "101.0",
    ],
    "taskqueues": ["taskqueues", "--jobs-file", str(SAMPLE / "dirac-jobs.json")],
    "simulate": [
        "simulate", "--workload", str(SAMPLE / "workload.json"), "--until", "1:00:00",
        "--cycle", "1800",
    ],
    "whatif": ["whatif", "--set", "accountant.priority_halflife=3600", "userprio"],
}  # fmt: skip


#: Keys whose string values are names from a fixed list (a reason, a row kind, an event):
#: each value is documented too.
ENUMS = ("reason", "kind", "event", "policy")


def keys_of(value: Any) -> Iterator[str]:
    """Every object key in a JSON document, at any depth, and the values of :data:`ENUMS`."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            if key in ENUMS and isinstance(inner, str):
                yield inner
            yield from keys_of(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_of(inner)


def _documented(page: str) -> set[str]:
    return set(re.findall(r'`"?([a-z_][a-z0-9_]*)"?`', (REPO / "docs" / page).read_text()))


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_json_key_is_in_docs_json(name: str, run: Callable[..., Any]) -> None:
    line = COMMANDS[name]
    result = run(*line, *ON_SAMPLE, "--json")
    assert result.exit_code == 0, result.stderr
    keys = set(keys_of(json.loads(result.stdout)))
    assert keys, "the command printed no object"
    missing = sorted(keys - _documented("json.md"))
    assert missing == [], f"docs/json.md lacks {missing} of fs {name} --json"


def test_every_job_field_is_in_docs_jobs() -> None:
    """The fields the job reader accepts (core/jobs.Job, and core/dirac/jobs'
    REQUIREMENT_KEYS of ``dirac_requirements``) are each named in docs/jobs.md."""
    from fairshare_cli.core.dirac.requirements import REQUIREMENT_KEYS
    from fairshare_cli.core.jobs import Job

    fields = {*Job.__struct_fields__, *REQUIREMENT_KEYS}
    missing = sorted(fields - _documented("jobs.md"))
    assert missing == [], f"docs/jobs.md lacks {missing}"
