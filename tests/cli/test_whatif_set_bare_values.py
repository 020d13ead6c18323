"""``fs whatif --set KEY=VALUE`` with a bare ``false``, ``1`` or ``22.05`` on a key that
takes a string only (a ClassAd expression, ``priority.output_compat``): the text, as if
quoted. ``fs whatif --set negotiator.preemption_requirements=false negotiate`` (what the
current profile sets) said "--set: negotiator.preemption_requirements: expected a string,
got boolean false", and ``priority.output_compat=22.05`` "got number 22.05"."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_configs"
VIEW = ("--config", str(SAMPLE / "pool.toml"), "--now", "2026-11-21T12:00:00Z")
JOBS = ("--jobs-file", str(SAMPLE / "jobs.json"))


@pytest.mark.parametrize(
    ("bare", "quoted", "view"),
    [
        pytest.param(
            "negotiator.preemption_requirements=false",
            'negotiator.preemption_requirements="false"',
            ("negotiate", *JOBS),
            id="preemption_requirements",
        ),
        pytest.param(
            "negotiator.slot_weight=1", 'negotiator.slot_weight="1"', ("userprio",), id="slot"
        ),
        pytest.param("pool.start=true", 'pool.start="true"', ("quota", *JOBS), id="start"),
        pytest.param(
            "priority.output_compat=22.05",
            'priority.output_compat="22.05"',
            ("sprio", "-l", *JOBS),
            id="output_compat",
        ),
    ],
)
def test_a_bare_value_on_a_string_key_is_its_text(
    run: Callable[..., Any], bare: str, quoted: str, view: tuple[str, ...]
) -> None:
    result = run("whatif", "--set", bare, *view, *VIEW, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == run("whatif", "--set", quoted, *view, *VIEW, "--json").stdout


def test_the_bare_preemption_requirements_false_stops_preemption(
    run: Callable[..., Any],
) -> None:
    """The legacy sample preempts (an hour's run and 20% better: 9 of its matches here);
    'false' preempts none, so every match the after side makes takes an unclaimed slot."""
    result = run(
        "whatif", "--set", "negotiator.preemption_requirements=false", "negotiate", *JOBS,
        *VIEW, "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert "priority" in {m["reason"] for m in document["before"]["matches"]}
    after = document["after"]
    assert after["matches"]
    assert {m["reason"] for m in after["matches"]} == {"no_preemption"}
    assert {m["preempted_job"] for m in after["matches"]} == {None}


def test_a_bare_text_the_key_refuses_says_what_it_takes(run: Callable[..., Any]) -> None:
    result = run("whatif", "--set", "priority.output_compat=22.06", "sprio", *JOBS, *VIEW)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        'fs: error: --set: priority.output_compat: expected "current" or "22.05", got "22.06"\n'
    )


def test_a_bare_value_on_a_number_key_stays_a_value(run: Callable[..., Any]) -> None:
    """A number key given a bare 'true' is refused as before: its text is no number."""
    result = run("whatif", "--set", "accountant.priority_halflife=true", "userprio", *VIEW)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --set: accountant.priority_halflife: expected a number, got boolean true\n"
    )


def test_a_bare_date_on_a_number_key_is_named_as_toml_names_it(run: Callable[..., Any]) -> None:
    """``--set accountant.priority_halflife=1979-05-27`` was refused as 'got date', Python's
    word for the type; TOML calls it a date."""
    result = run("whatif", "--set", "accountant.priority_halflife=1979-05-27", "userprio", *VIEW)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: --set: accountant.priority_halflife: expected a number, got a date 1979-05-27\n"
    )
