"""A whole number of more than 4,300 digits, or a nesting deeper than the decoder goes, in
a jobs file, a config, a history line or a dump: one line in our words, exit 2. Python's
own message leaked before: ``not valid JSON (Exceeds the limit (4300 digits) for integer
string conversion: value has 5000 digits; use sys.set_int_max_str_digits() to increase the
limit)`` and ``maximum recursion depth exceeded while decoding a JSON array from a unicode
string``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused

HUGE = "9" * 5000
DEEP = "[" * 100_000 + "1" + "]" * 100_000


@pytest.mark.parametrize(
    ("name", "text", "line", "said"),
    [
        pytest.param("jobs.json", f'[\n{{"id": "1.0", "owner": "a", "nice": {HUGE}}}]',
                     ["sprio", "--jobs-file"],
                     "jobs.json: not valid JSON (a whole number too long at line 2); expected "
                     "a list of job objects", id="jobs-file-huge"),
        pytest.param("jobs.json", f'[{{"id": "1.0", "owner": "a", "attributes": {DEEP}}}]',
                     ["sprio", "--jobs-file"],
                     "jobs.json: not valid JSON (nested too deep); expected a list", id="jobs-file-deep"),
        pytest.param("job.json", f'{{"id": "1.0",\n"owner": "a", "nice": {HUGE}}}',
                     ["submit", "--file"],
                     "{path}: not valid JSON (a whole number too long at line 2); expected a "
                     "list of job objects",
                     id="submit-file-huge"),
        pytest.param("h.jsonl", f'{{"owner": "a", "slots": {HUGE}}}\n', ["import", "history"],
                     "h.jsonl:1: not valid JSON: a whole number too long", id="history-huge"),
        pytest.param("q.json", f'[{{"ClusterId": 1, "ProcId": {DEEP}}}]', ["import", "condor-q"],
                     "q.json:1: not valid JSON: nested too deep", id="condor-q-deep"),
    ],
)  # fmt: skip
def test_a_number_too_long_or_a_nesting_too_deep_is_worded(
    env: dict[str, Path],
    run: Callable[..., Any],
    name: str,
    text: str,
    line: list[str],
    said: str,
) -> None:
    """``fs sprio --jobs-file jobs.json``, ``fs submit --file job.json``, ``fs import history
    h.jsonl``, ``fs import condor-q q.json`` with the files above."""
    path = env["dir"] / name
    path.write_text(text)
    result = run(*line, str(path), *common(env))
    refused(result, said.format(path=path))
    assert "sys.set_int" not in result.stderr and "recursion" not in result.stderr


def test_a_config_with_a_number_too_long_is_worded(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs config check --config pool.toml`` with a 5000-digit quota on line 3."""
    config = env["dir"] / "big.toml"
    config.write_text(f'[pool]\nname = "x"\n[groups.g]\nquota = {HUGE}\n')
    result = run("config", "check", "--config", str(config))
    refused(result, f"config file {config} is not valid TOML: a whole number too long at line 4")
