"""fs quota and fs negotiate end to end: JSON fields, tables, commit, explain, bad input."""

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
defaults = "{profile}"

[[machines]]
name = "exec"
count = {count}
slots = 1
attributes = {{ Cpus = 1, Memory = 4096 }}
"""

PHYSICS = """
[groups."group_physics"]
quota = 100
[groups."group_physics.experiment1"]
quota = 20
[groups."group_physics.experiment2"]
quota = 70
"""


@pytest.fixture
def files(tmp_path: Path, write_config: Callable[..., Path]) -> Callable[..., list[str]]:
    """Write a pool (``count`` slots, extra TOML) and a jobs file; return the CLI args."""

    def make(
        jobs: list[dict[str, Any]],
        count: int = 10,
        extra: str = "",
        profile: str = "legacy",
    ) -> list[str]:
        cfg = write_config(POOL.format(profile=profile, count=count) + extra)
        jobs_file = tmp_path / "jobs.json"
        jobs_file.write_text(json.dumps(jobs))
        return [
            "--config",
            str(cfg),
            "--state",
            str(tmp_path / "state.json"),
            "--now",
            NOW,
            "--jobs-file",
            str(jobs_file),
        ]

    return make


def test_quota_json_physics_legacy(files: Callable[..., list[str]], run: Any) -> None:
    jobs = [
        {"id": f"{i}.0", "owner": "u", "accounting_group": f"{g}.u", "count": 200}
        for i, g in enumerate(
            ["group_physics", "group_physics.experiment1", "group_physics.experiment2"], 1
        )
    ]
    args = files(jobs, count=100, extra=PHYSICS)
    result = run("quota", *args, "--json")
    assert result.exit_code == 0, result.stderr
    rows = {r["group"]: r for r in json.loads(result.stdout)}
    assert list(rows["group_physics"]) == [
        "group",
        "parent",
        "static_quota",
        "dynamic_quota",
        "subtree_quota",
        "quota",
        "limit",
        "accept_surplus",
        "in_use",
        "demand",
    ]
    assert rows["group_physics"]["quota"] == 10
    assert rows["group_physics"]["subtree_quota"] == 100
    assert rows["group_physics.experiment2"]["limit"] == 70
    assert rows["group_physics.experiment1"]["parent"] == "group_physics"
    assert rows["<none>"]["parent"] is None
    assert rows["group_physics"]["demand"] == 200


def test_quota_table_lists_groups_under_their_parent(
    files: Callable[..., list[str]], run: Any
) -> None:
    result = run("quota", *files([], count=100, extra=PHYSICS))
    assert result.exit_code == 0, result.stderr
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    names = [line.split("│")[0].rstrip() for line in lines if "│" in line]
    assert names == [
        "<none>",
        "  group_physics",
        "    group_physics.experiment1",
        "    group_physics.experiment2",
    ]


def _prio_state(path: Path, prios: dict[str, float]) -> None:
    records = {name: {"priority": p, "last_update": 1795262400.0} for name, p in prios.items()}
    path.write_text(
        json.dumps(
            {
                "format": "fairshare-cli state",
                "schema_version": 1,
                "accountant": {"records": records},
            }
        )
    )


def test_negotiate_dry_run_json_eup_ratio(
    tmp_path: Path, files: Callable[..., list[str]], run: Any
) -> None:
    jobs = [{"id": f"{i}.0", "owner": o, "count": 100} for i, o in enumerate("abc", 1)]
    args = files(jobs, count=70)
    _prio_state(
        tmp_path / "state.json",
        {"a@example.org": 5.0, "b@example.org": 10.0, "c@example.org": 20.0},
    )
    result = run("negotiate", "--dry-run", *args, "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert list(doc) == ["matches", "submitters", "unmatched"]
    matched = {s["name"]: s["matched"] for s in doc["submitters"]}
    assert matched == {"a@example.org": 40, "b@example.org": 20, "c@example.org": 10}
    first = doc["matches"][0]
    assert first == {
        "job_id": "1.0",
        "submitter": "a@example.org",
        "slot": "slot1@exec001",
        "reason": "no_preemption",
        "preempted_job": None,
        "charge": 1.0,
    }
    assert doc["submitters"][0]["share"] == pytest.approx(4 / 7)
    assert len(doc["unmatched"]) == 230
    assert doc["unmatched"][0].keys() == {"job_id", "submitter", "reason"}
    assert not (tmp_path / "state.json").read_text().count('"negotiator"')


def test_negotiate_table_and_explain(files: Callable[..., list[str]], run: Any) -> None:
    args = files([{"id": "1.0", "owner": "a", "count": 3}], count=2)
    table = run("negotiate", "--dry-run", *args)
    assert table.exit_code == 0, table.stderr
    assert "slot1@exec001" in table.stdout
    assert "2 matches in 1 pie spin(s)" in table.stdout
    story = run("negotiate", "--dry-run", *args, "--explain", "1.2")
    assert story.exit_code == 0, story.stderr
    assert story.stdout.splitlines()[0] == "Job 1.2:"
    assert "left idle: no slot was left" in story.stdout


def test_negotiate_commit_charges_the_accountant(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    cfg = write_config(POOL.format(profile="legacy", count=3))
    state = tmp_path / "state.json"
    state.write_text(
        json.dumps(
            {
                "format": "fairshare-cli state",
                "schema_version": 1,
                "jobs": [{"id": f"1.{i}", "owner": "alice"} for i in range(5)],
            }
        )
    )
    args = ["--config", str(cfg), "--state", str(state), "--now", NOW]
    result = run("negotiate", *args, "--json")
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)["matches"]) == 3
    # (stdout is the JSON alone; what was written is said on stderr, as the table says it)
    assert result.stderr == f"Committed 3 match(es) to {state}.\n"
    doc = json.loads(state.read_text())
    running = [j for j in doc["jobs"] if j.get("status") == "running"]
    assert [(j["id"], j["slot"]) for j in running] == [
        ("1.0", "slot1@exec001"),
        ("1.1", "slot1@exec002"),
        ("1.2", "slot1@exec003"),
    ]
    assert set(doc["negotiator"]["claims"]) == {"slot1@exec001", "slot1@exec002", "slot1@exec003"}
    prio = run("userprio", *args, "--json", "--allusers")
    rows = {r["name"]: r for r in json.loads(prio.stdout)}
    assert rows["alice@example.org"]["weighted_resources_in_use"] == 3
    again = run("negotiate", *args, "--json")
    assert json.loads(again.stdout)["matches"] == []  # every slot is claimed by alice


@pytest.mark.parametrize(
    ("jobs", "extra", "message"),
    [
        pytest.param(
            [{"id": "1.0", "owner": "a", "requirements": "Memory >"}],
            "",
            "job 1.0 requirements: cannot parse ClassAd expression 'Memory >'",
            id="bad-job-expression",
        ),
        pytest.param(
            [{"id": "1.0", "owner": "a", "accounting_group": "group_bio.a"}],
            PHYSICS,
            'accounting_group "group_bio.a" has no configured parent group "group_bio"',
            id="unknown-parent-group",
        ),
        pytest.param(
            [],
            '[groups."g"]\nquota = -1\n',
            "quota",
            id="negative-quota",
        ),
        pytest.param(
            [],
            '[groups."g"]\ndynamic_quota = 1.5\n',
            "dynamic_quota",
            id="dynamic-above-one",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(
    jobs: list[dict[str, Any]],
    extra: str,
    message: str,
    files: Callable[..., list[str]],
    run: Any,
) -> None:
    args = files(jobs, extra=extra)
    for command in (["negotiate", "--dry-run"], ["quota"]):
        result = run(*command, *args)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert len(result.stderr.strip().splitlines()) == 1
        assert message in result.stderr


def test_bad_machine_expression_names_machine(files: Callable[..., list[str]], run: Any) -> None:
    args = files([{"id": "1.0", "owner": "a"}])
    cfg = Path(args[1])
    cfg.write_text(cfg.read_text().replace('name = "exec"', 'name = "exec"\nstart = "Owner =="'))
    result = run("negotiate", "--dry-run", *args)
    assert result.exit_code == 2
    assert "machine exec start: cannot parse ClassAd expression 'Owner =='" in result.stderr


def test_jobs_file_needs_dry_run_and_explain_needs_an_idle_job(
    files: Callable[..., list[str]], run: Any
) -> None:
    args = files([{"id": "1.0", "owner": "a"}])
    result = run("negotiate", *args)
    assert result.exit_code == 2
    assert "--jobs-file only works with --dry-run" in result.stderr
    result = run("negotiate", "--dry-run", *args, "--explain", "9.9")
    assert result.exit_code == 2
    assert "--explain 9.9: no idle job with that id" in result.stderr


@pytest.mark.parametrize(
    ("jobs", "named"),
    [
        pytest.param([], "it holds no idle job (only an idle job is negotiated for)", id="none"),
        pytest.param([{"id": "1", "owner": "a"}], "idle job: 1", id="one"),
        pytest.param(
            [{"id": "1", "owner": "a", "count": 3}, {"id": "2", "owner": "b", "count": 4}],
            "idle jobs: 1.0, 1.1, 1.2, 2.0, 2.1 and 2 more",
            id="seven",
        ),
    ],
)
def test_explain_of_a_job_not_in_the_queue_names_the_idle_ones(
    jobs: list[dict[str, Any]], named: str, files: Callable[..., list[str]], run: Any
) -> None:
    """fs submit, then fs negotiate --dry-run --explain 9 (a mistyped id): the error said
    only "no idle job with that id in state file ...: jobs", not which ids to give."""
    args = files([])[:-2]  # the pool; the queue in the state
    for job in jobs:
        line = ["--id", job["id"], "--owner", job["owner"], "--count", str(job.get("count", 1))]
        assert run("submit", *line, *args).exit_code == 0
    result = run("negotiate", "--dry-run", "--explain", "9", *args)
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: --explain 9: no idle job with that id in state file {args[3]}: jobs; {named}\n"
    )


def test_explain_of_a_job_that_is_not_idle_says_what_it_is(
    files: Callable[..., list[str]], run: Any
) -> None:
    """fs negotiate --dry-run --explain 1.0 of a held (or running) job said "no idle job with
    that id", as for an id the queue lacks; it is there, and not idle."""
    args = files([{"id": "1.0", "owner": "a", "status": "held"}, {"id": "2.0", "owner": "b"}])
    result = run("negotiate", "--dry-run", "--explain", "1.0", *args)
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: --explain 1.0: job 1.0 is held, not idle, in jobs file {args[-1]} (only "
        "an idle job is negotiated for); idle job: 2.0\n"
    )


def test_a_bad_job_is_named_as_every_reader_of_a_jobs_file_names_it(
    files: Callable[..., list[str]], run: Any
) -> None:
    """fs negotiate --dry-run --jobs-file FILE with a job fs refuses said "jobs file FILE:
    job 0...", where fs sprio, fs taskqueues and its own JSON errors say "FILE: ..."."""
    args = files([{"id": "1.0", "owner": "a", "request_cpus": -1}])
    for command in (["negotiate", "--dry-run"], ["sprio"], ["taskqueues"]):
        result = run(*command, *args)
        assert (result.exit_code, result.stderr) == (
            2, f"fs: error: {args[-1]}: job 1.0: request_cpus: expected 0 or more, got -1\n"
        ), command  # fmt: skip


def test_negotiate_ndjson_csv_and_explain_json(files: Callable[..., list[str]], run: Any) -> None:
    args = files([{"id": "1.0", "owner": "a", "count": 3}], count=2)
    nd = run("negotiate", "--dry-run", *args, "--output", "ndjson")
    lines = [json.loads(line) for line in nd.stdout.splitlines()]
    assert [line["kind"] for line in lines] == ["match", "match", "submitter", "unmatched"]
    assert lines[3] == {
        "kind": "unmatched",
        "job_id": "1.2",
        "submitter": "a@example.org",
        "reason": "pool_exhausted",
    }
    csv_out = run("negotiate", "--dry-run", *args, "--output", "csv")
    assert csv_out.stdout.splitlines() == [
        "job_id,submitter,slot,reason,preempted_job,charge",
        "1.0,a@example.org,slot1@exec001,no_preemption,,1.0",
        "1.1,a@example.org,slot1@exec002,no_preemption,,1.0",
    ]
    story = run("negotiate", "--dry-run", *args, "--explain", "1.0", "--json")
    doc = json.loads(story.stdout)
    assert doc["job_id"] == "1.0"
    assert doc["events"][-1]["event"] == "matched"
    assert doc["events"][-1]["slot"] == "slot1@exec001"


def test_quota_csv_has_the_json_columns(files: Callable[..., list[str]], run: Any) -> None:
    result = run("quota", *files([], count=100, extra=PHYSICS), "--output", "csv")
    header, *rows = result.stdout.splitlines()
    assert header == (
        "group,parent,static_quota,dynamic_quota,subtree_quota,quota,limit,"
        "accept_surplus,in_use,demand"
    )
    assert rows[1].startswith("group_physics,<none>,100.0,,100.0,10.0,0,false,")


def test_negotiate_concurrency_limits_and_no_preemption(
    files: Callable[..., list[str]], run: Any
) -> None:
    """``LICENSE_LIMIT = 2`` ("License" in the job, any case): of 3 ``license`` jobs in a
    pool of 10, two match and the third is refused for the limit; ``consider_preemption``
    is accepted alongside."""
    jobs = [{"id": "1.0", "owner": "a", "count": 3, "concurrency_limits": "License"}]
    extra = "[negotiator]\nconcurrency_limits = { LICENSE = 2 }\nconsider_preemption = false\n"
    args = files(jobs, extra=extra)
    result = run("negotiate", "--dry-run", *args, "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [m["job_id"] for m in doc["matches"]] == ["1.0", "1.1"]
    assert doc["unmatched"] == [
        {"job_id": "1.2", "submitter": "a@example.org", "reason": "concurrency_limit"}
    ]
    story = run("negotiate", "--dry-run", *args, "--explain", "1.2")
    assert story.exit_code == 0, story.stderr
    assert "a concurrency limit it needs was reached" in story.stdout


def test_negotiate_requirements_that_evaluate_to_an_ad_match_nothing(
    files: Callable[..., list[str]], run: Any
) -> None:
    """``Requirements = MY`` is a ClassAd, not a boolean: the job matches no slot (no crash),
    and a job of another cluster still matches."""
    args = files(
        [
            {"id": "1.0", "owner": "a", "requirements": "MY"},
            {"id": "2.0", "owner": "a"},
        ]
    )
    result = run("negotiate", *args, "--dry-run", "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert [m["job_id"] for m in out["matches"]] == ["2.0"]
    assert out["unmatched"] == [
        {"job_id": "1.0", "submitter": "a@example.org", "reason": "no_matching_slot"}
    ]
