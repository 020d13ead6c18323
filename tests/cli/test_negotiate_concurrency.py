"""Concurrency limits end to end: the scoped-default knob, expression-valued limits at the
door, and ``fs import condor-q`` of ``ConcurrencyLimits``.

``Accountant::GetLimitMax`` (25.0): ``<name>_LIMIT``, else for ``scope.name``
``CONCURRENCY_LIMIT_DEFAULT_<scope>``, else ``CONCURRENCY_LIMIT_DEFAULT``.
``matchmakingAlgorithm``: a job's ``ConcurrencyLimits`` that is a string (evaluated alone)
is checked before any candidate; otherwise it is evaluated with each candidate.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
POOL = """
[pool]
uid_domain = "example.org"
defaults = "current"

[[machines]]
name = "exec"
count = 4
slots = 1
attributes = {{ Cpus = 1, Memory = 4096, Site = "east" }}

[negotiator]
{negotiator}
"""


def _args(tmp_path: Path, write_config: Callable[..., Path], negotiator: str) -> list[str]:
    cfg = write_config(POOL.format(negotiator=negotiator))
    return ["--config", str(cfg), "--state", str(tmp_path / "state.json"), "--now", NOW]


def _jobs(tmp_path: Path, jobs: list[dict[str, Any]]) -> list[str]:
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs))
    return ["--jobs-file", str(path)]


@pytest.mark.parametrize(
    "negotiator",
    [
        "CONCURRENCY_LIMIT_DEFAULT_License = 2",
        "concurrency_limit_scope_defaults = { license = 2 }",
    ],
)
def test_the_scoped_default_caps_a_sub_limit(
    tmp_path: Path, write_config: Callable[..., Path], run: Any, negotiator: str
) -> None:
    """4 free slots, 4 jobs asking ``license.matlab`` with the license scope's default 2
    (the knob's own name or the key): 2 match, 2 wait for the concurrency limit; a job
    asking ``license`` (no dot: no scope) is under the global default."""
    args = _args(tmp_path, write_config, negotiator)
    jobs = [
        {"id": "1.0", "owner": "a", "count": 4, "concurrency_limits": "license.matlab"},
        {"id": "2.0", "owner": "a", "concurrency_limits": "license"},
    ]
    result = run("negotiate", "--dry-run", "--json", *args, *_jobs(tmp_path, jobs))
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [m["job_id"] for m in doc["matches"]] == ["1.0", "1.1", "2.0"]
    assert {(u["job_id"], u["reason"]) for u in doc["unmatched"]} == {
        ("1.2", "concurrency_limit"),
        ("1.3", "concurrency_limit"),
    }


def test_the_scoped_default_set_twice_is_refused(
    tmp_path: Path, write_config: Callable[..., Path], run: Any
) -> None:
    args = _args(
        tmp_path,
        write_config,
        "concurrency_limit_scope_defaults = { license = 2 }\nCONCURRENCY_LIMIT_DEFAULT_x = 1",
    )
    result = run("config", "check", *args[:2])
    assert result.exit_code == 2
    assert "concurrency_limit_scope_defaults is set twice" in result.stderr
    bad = _args(tmp_path, write_config, "concurrency_limit_scope_defaults = { 'a.b' = 2 }")
    refused = run("config", "check", *bad[:2])
    assert refused.exit_code == 2
    assert "expected a scope name" in refused.stderr


def test_an_expression_limit_is_evaluated_per_slot(
    tmp_path: Path, write_config: Callable[..., Path], run: Any
) -> None:
    """``strcat("site.", TARGET.Site)`` with site.east_LIMIT 1: the first job builds the
    match list of the four east slots (the limit not yet taken) and takes one; the second
    pops the other three, each refused for the limit, which the list's diagnostics do not
    count: "no match found" for it and the third (``match_list_used_up``)."""
    args = _args(tmp_path, write_config, "concurrency_limits = { 'site.east' = 1 }")
    jobs = [
        {
            "id": "1.0",
            "owner": "a",
            "count": 3,
            "concurrency_limits_expr": 'strcat("site.", TARGET.Site)',
        }
    ]
    result = run("negotiate", "--dry-run", "--json", *args, *_jobs(tmp_path, jobs))
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [m["job_id"] for m in doc["matches"]] == ["1.0"]
    assert {u["reason"] for u in doc["unmatched"]} == {"match_list_used_up"}


@pytest.mark.parametrize(
    ("job", "message"),
    [
        ({"concurrency_limits_expr": "strcat("}, "cannot parse ClassAd expression"),
        ({"concurrency_limits_expr": "1 + " * 200 + "1"}, "at most 150 are allowed"),
        (
            {"concurrency_limits_expr": '"a"', "concurrency_limits": "a"},
            "concurrency_limits and concurrency_limits_expr are both set",
        ),
        ({"concurrency_limits_expr": 5}, "concurrency_limits_expr"),
    ],
)
def test_bad_expression_limits_are_refused_at_the_door(
    tmp_path: Path, write_config: Callable[..., Path], run: Any, job: dict[str, Any], message: str
) -> None:
    args = _args(tmp_path, write_config, "")
    jobs = _jobs(tmp_path, [{"id": "1.0", "owner": "a", **job}])
    result = run("submit", "--file", jobs[1], *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "state.json").exists()


def test_condor_q_import_keeps_a_string_and_an_expression(
    tmp_path: Path, write_config: Callable[..., Path], run: Any
) -> None:
    """A job ad's ``ConcurrencyLimits = "sw"`` is the string field, an expression
    (``strcat(...)``) the expression field; every view then reads the state."""
    args = _args(tmp_path, write_config, "")
    dump = (
        'ClusterId = 1\nProcId = 0\nOwner = "a"\nJobStatus = 1\nConcurrencyLimits = "sw"\n\n'
        'ClusterId = 2\nProcId = 0\nOwner = "a"\nJobStatus = 1\n'
        'ConcurrencyLimits = strcat("site.", TARGET.Site)\n'
    )
    result = run("import", "condor-q", "-", *args, input=dump)
    assert result.exit_code == 0, result.stderr
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert jobs[0]["concurrency_limits"] == "sw"
    assert jobs[1]["concurrency_limits_expr"] == 'strcat("site.", TARGET.Site)'
    assert "attributes" not in jobs[1] or "ConcurrencyLimits" not in jobs[1]["attributes"]
    for view in (["userprio"], ["quota"], ["negotiate", "--dry-run"]):
        assert run(*view, *args).exit_code == 0, view


def test_a_hexadecimal_count_is_read_as_strtod_reads_it(
    tmp_path: Path, write_config: Callable[..., Path], run: Any
) -> None:
    """``ParseConcurrencyLimit`` reads the count after ``:`` with C's ``strtod``, which
    takes C99's hexadecimal form: ``db:0x1p-1`` is 1 x 2^-1 = 0.5 of ``DB_LIMIT = 1`` (``concurrency_limits``).
    Four slots, three such jobs: 0.5, then 0.5 + 0.5 = 1.0 (not over 1), then 1.5 over:
    two match, the third waits for the limit. fs read the ``0`` before the ``x`` alone,
    a count of 0, which counts 1: one match."""
    args = _args(tmp_path, write_config, "concurrency_limits = { db = 1 }")
    jobs = _jobs(tmp_path, [{"id": "1.0", "owner": "a", "count": 3,
                             "concurrency_limits": "db:0x1p-1"}])  # fmt: skip
    result = run("negotiate", "--dry-run", "--json", *args, *jobs)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [m["job_id"] for m in doc["matches"]] == ["1.0", "1.1"]
    assert [(u["job_id"], u["reason"]) for u in doc["unmatched"]] == [("1.2", "concurrency_limit")]


def test_a_nan_count_leaves_its_limit_unlimited(
    tmp_path: Path, write_config: Callable[..., Path], run: Any
) -> None:
    """``ParseConcurrencyLimit`` resets an increment only when ``increment <= 0``, which
    NaN is not: ``db:nan`` (``strtod`` reads ``nan``) stays NaN. With ``DB_LIMIT = 1`` and
    four slots: 1.0 (``db``) makes the count 1; 2.0 (``db:nan``): ``1 + nan > 1`` is false,
    so it matches and the count is ``1 + nan = nan``; 3.0 and 3.1 (``db``): ``nan < 0``
    and ``nan + 1 > 1`` are both false, so both match: 4 matches, none refused. fs read
    ``nan`` as 1: 2.0 was refused (1 + 1 > 1) and so were 3.0 and 3.1. Committed, the
    negotiator's ad holds the NaN sum of the four claims' limits."""
    args = _args(tmp_path, write_config, "concurrency_limits = { db = 1 }")
    jobs = [
        {"id": "1.0", "owner": "a", "concurrency_limits": "db"},
        {"id": "2.0", "owner": "a", "concurrency_limits": "db:nan"},
        {"id": "3.0", "owner": "a", "count": 2, "concurrency_limits": "db"},
    ]
    result = run("negotiate", "--dry-run", "--json", *args, *_jobs(tmp_path, jobs))
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [m["job_id"] for m in doc["matches"]] == ["1.0", "2.0", "3.0", "3.1"]
    assert doc["unmatched"] == []
    assert run("submit", "--file", str(tmp_path / "jobs.json"), *args).exit_code == 0
    assert run("negotiate", *args).exit_code == 0
    ads = run("userprio", "-l", "-allusers", *args)
    assert ads.exit_code == 0, ads.stderr
    assert 'ConcurrencyLimit_db = real("NaN")' in ads.stdout.splitlines()
