"""``fs whatif`` tables follow the views' rules, and bad ``--set`` keys are named as such.

Each test runs the exact command line of a finding: numbers are never cut (piped: full
width; at 80 columns: wider than the terminal rather than cut), ``--wide`` anywhere on the
line, a bad ``--set`` named as ``--set`` (not as the config file), and the task-queue
what-if in ``fs taskqueues``' columns.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
POOL = str(REPO / "sample_configs" / "pool.toml")
NOW = "2026-11-21T12:00:00Z"
NEGOTIATE = [
    "whatif", "--set", "accountant.default_prio_factor=3", "negotiate",
    "--jobs-file", str(REPO / "sample_configs" / "jobs.json"), "--config", POOL, "--now", NOW,
]  # fmt: skip


def _json_figures(run: Callable[..., Any]) -> dict[str, tuple[float, float]]:
    """frank's share before and after, from the comparison's own --json."""
    doc = json.loads(run(*NEGOTIATE, "--json").stdout)
    return {
        c["field"]: (c["before"], c["after"])
        for c in doc["changes"]
        if c["key"] == "frank@example.org"
    }


@pytest.mark.parametrize("columns", [None, "80"], ids=["piped", "80-columns"])
def test_negotiate_whatif_cuts_no_number(
    columns: str | None, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS")
    else:
        monkeypatch.setenv("COLUMNS", columns)
    result = run(*NEGOTIATE)
    assert result.exit_code == 0, result.stderr
    assert "…" not in result.stdout
    # The submitter column is there, and frank's share reads in full before and after.
    before, after = _json_figures(run)["share"]
    assert "submitter" in result.stdout
    lines = result.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("frank@"))
    # (at 80 columns the submitter is on a line of its own, its figures on the next)
    frank = lines[at] if "->" in lines[at] else lines[at + 1]
    shown = list(re.findall(r"(\S+) -> (\S+)", frank)[1])  # eff. prio, then share
    # Each side is its value rounded, to as many digits as tell the two apart.
    assert len(shown) == 2 and shown[0] != shown[1]
    for text, value in zip(shown, (before, after), strict=True):
        assert float(text) == pytest.approx(value, rel=10 ** -(len(text.strip("0.")) - 1))
    if columns is None:  # to a pipe: one line per row
        body = result.stdout.splitlines()[3:-1]  # after title, heading and rule; before the sum
        assert body and all("│" in line and not line.startswith(" ") for line in body)


@pytest.mark.parametrize("where", ["before-view", "after-view"])
def test_wide_is_taken_anywhere(where: str, run: Callable[..., Any]) -> None:
    line = list(NEGOTIATE)
    line.insert(3 if where == "before-view" else len(line), "--wide")
    result = run(*line, env={"COLUMNS": "40"})
    assert result.exit_code == 0, result.stderr
    assert "frank@example.org" in result.stdout  # at natural width: the name unfolded


def test_wide_after_userprio_is_not_refused(run: Callable[..., Any]) -> None:
    result = run(
        "whatif", "--set", "accountant.default_prio_factor=3", "userprio", "--wide",
        "--config", POOL, "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stderr == "" or "error" not in result.stderr


@pytest.mark.parametrize(
    ("setting", "says"),
    [
        ("accountant.nosuchkey=3", "--set: unknown key 'accountant.nosuchkey'"),
        ("accountant.priority_halflife=abc", '--set: accountant.priority_halflife: "abc"'),
        ("accountant.priority_factor=4", "--set: unknown key 'accountant.priority_factor'"),
        ('pool.name=" "', "--set: pool.name: expected a name without blanks"),
    ],
)
def test_bad_set_is_named_as_set_not_as_the_config(
    setting: str, says: str, run: Callable[..., Any]
) -> None:
    result = run("whatif", "--set", setting, "userprio", "--config", POOL, "--now", NOW)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"fs: error: {says}"), result.stderr
    assert "pool.toml" not in lines[0]
    assert result.stdout == ""


def test_a_bad_config_file_is_still_named_as_the_file(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[accountant]\nnosuch = 1\n", encoding="utf-8")
    result = run(
        "whatif", "--set", "accountant.priority_halflife=3600", "userprio",
        "--config", str(bad), "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr.startswith(f"fs: error: {bad}: unknown key 'accountant.nosuch'")


def test_taskqueues_whatif_uses_the_taskqueues_columns(run: Callable[..., Any]) -> None:
    """The rows are named by TQId, Owner and Group and each figure is printed as ``fs
    taskqueues`` prints its column (shares and chances as percentages to 3 decimals,
    priorities and corrections to 4: they were printed with as few digits as told the
    sides apart, ``7500 -> 2500``, ``6.36883e-06 -> 1.43314e-05``); the title shows the
    setting as it was given."""
    line = [
        "whatif", "--set", "dirac.correction.enabled=false", "taskqueues",
        "--jobs-file", str(REPO / "sample_configs" / "dirac-jobs.json"),
        "--config", POOL, "--now", NOW,
    ]  # fmt: skip
    result = run(*line)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].rstrip() == (
        "fs taskqueues with dirac.correction.enabled=false: before -> after"
    )
    head = lines[1].split()
    assert head[:7] == ["TQId", "┃", "Owner", "┃", "Group", "┃", "rank"]
    assert "Share%" in head and "First%" in head and "False" not in result.stdout
    doc = json.loads(run(*line, "--json").stdout)
    simbot = doc["before"][8], doc["after"][8]
    assert simbot[0]["owner"] == "simbot"
    row = next(x for x in lines if x.split()[:5] == ["9", "│", "simbot", "│", "lhcb_mc"])
    share = f"{100 * simbot[0]['share']:.3f} -> {100 * simbot[1]['share']:.3f}"
    assert share in row
    # by hand: no correction, lhcb_mc's JobShare 2500 alone in its group (DIRAC's
    # calculate_priority); with it, the largest correction 3 (docs/dirac.md): 7500
    cells = [c.strip() for c in row.split("│")]
    assert cells[4:8] == ["7500.0000 -> 2500.0000", "47.766 -> 32.571", "3.0000 -> 1.0000",
                          "55.998 -> 35.877"]  # fmt: skip
    erin = next(x for x in lines if x.split()[:3] == ["5", "│", "erin"])
    assert [c.strip() for c in erin.split("│")][5:8] == ["0.000", "0.4400 -> 1.0000", "0.000"]


@pytest.mark.parametrize("view", ["userprio", "simulate"])
def test_a_bad_view_option_points_at_the_views_help(view: str, run: Callable[..., Any]) -> None:
    """The hint named whatif's usage line with the view after it ('fs whatif {userprio|...}
    [ARGS]... userprio --help'); it names the view's own help."""
    result = run(
        "whatif", "--set", "accountant.default_prio_factor=3", view, "--bogus",
        "--config", POOL, "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr.startswith("fs: error: No such option '--bogus'.")
    # ('fs' is the program's name; under the test runner it is 'cli')
    assert result.stderr.endswith(f" {view} --help')\n") and "whatif {" not in result.stderr


def test_a_negotiation_whose_matches_move_is_not_without_differences(
    run: Callable[..., Any],
) -> None:
    """A preemption rank that picks other claims to preempt changes no submitter's figures
    but fs negotiate's matches (which job each preempts): it said 'no differences'. Each
    match that moved is a change keyed by its job, and the footer counts them."""
    line = [
        *("whatif", "--set", 'negotiator.preemption_rank="- TotalJobRuntime"', "negotiate"),
        *("--jobs-file", str(REPO / "sample_configs" / "jobs.json"), "--config", POOL),
        *("--now", NOW),
    ]
    doc = json.loads(run(*line, "--json").stdout)
    before = {m["job_id"]: m for m in doc["before"]["matches"]}
    after = {m["job_id"]: m for m in doc["after"]["matches"]}
    assert before.keys() == after.keys()  # the same jobs start, on other slots
    moved = [
        {"key": job, "field": field, "before": m[field], "after": after[job][field]}
        for job, m in sorted(before.items(), key=lambda item: [int(p) for p in item[0].split(".")])
        for field in ("slot", "preempted_job")
        if after[job][field] != m[field]
    ]
    jobs = len({c["key"] for c in moved})
    assert jobs and doc["changes"] == moved
    result = run(*line)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        f"0 rows changed, 0 moved, 0 appeared, 0 left, {jobs} matches differ ({len(moved)} changes)"
    )


@pytest.mark.parametrize("columns", [None, "30"], ids=["piped", "30-columns"])
def test_a_title_wider_than_its_table_is_one_line(
    columns: str | None, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """fs whatif --set priority.weights.fairshare=0 sprio --jobs-file ...: the comparison
    is 36 characters wide and its title 59; the title was folded to the table's width,
    over three lines ("fs sprio with" / "priority.weights.fairshare=0:" / "before ->
    after"). It is now one line above the table, piped or in a narrow terminal."""
    if columns is None:
        monkeypatch.delenv("COLUMNS")
    else:
        monkeypatch.setenv("COLUMNS", columns)
    result = run(
        "whatif", "--set", "priority.weights.fairshare=0", "sprio",
        "--jobs-file", str(REPO / "sample_configs" / "jobs.json"), "--config", POOL, "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "fs sprio with priority.weights.fairshare=0: before -> after"
    assert lines[1].split()[:1] == ["sprio"] and "rank" in lines[1]
