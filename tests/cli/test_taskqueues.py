"""``fs taskqueues`` end to end: jobs file or state, correction from imported history."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
WEEK_AGO = "2026-11-14T12:00:00Z"

CONFIG = """
[dirac.groups.lhcb_user]
job_share = 1000
[dirac.groups.lhcb_prod]
job_share = 4000
job_sharing = true
"""

JOBS = [
    {"id": "1.0", "owner": "alice", "dirac_group": "lhcb_user", "user_priority": 1,
     "dirac_requirements": {"cpu_time": 3000, "platform": "x86_64-el9"}},
    {"id": "1.1", "owner": "alice", "dirac_group": "lhcb_user", "user_priority": 3,
     "dirac_requirements": {"cpu_time": 3000, "platform": "x86_64-el9"}},
    {"id": "2.0", "owner": "alice", "dirac_group": "lhcb_user",
     "dirac_requirements": {"cpu_time": 40000, "sites": ["LCG.CERN.cern"]}},
    {"id": "3.0", "owner": "bob", "dirac_group": "lhcb_user", "count": 4,
     "dirac_requirements": {"cpu_time": 600}},
    {"id": "4.0", "owner": "prod1", "dirac_group": "lhcb_prod", "count": 10,
     "dirac_requirements": {"cpu_time": 80000, "job_type": "MCSimulation"}},
    {"id": "5.0", "owner": "prod2", "dirac_group": "lhcb_prod", "count": 3,
     "dirac_requirements": {"cpu_time": 80000, "job_type": "Reconstruction",
                            "sites": ["LCG.CNAF.it", "LCG.CERN.cern"]}},
    {"id": "6.0", "owner": "carol", "dirac_group": "lhcb_user", "status": "running"},
    {"id": "7.0", "owner": "dave", "accounting_group": "group_physics.dave"},
]  # fmt: skip


@pytest.fixture
def files(tmp_path: Path, write_config: Callable[..., Path]) -> Callable[..., list[str]]:
    """Write a config (and jobs) and return the common arguments."""

    def make(config: str = CONFIG, jobs: Any = JOBS) -> list[str]:
        cfg = write_config(config)
        args = ["--config", str(cfg), "--state", str(tmp_path / "state.json"), "--now", NOW]
        if jobs is not None:
            path = tmp_path / "jobs.json"
            path.write_text(json.dumps(jobs), encoding="utf-8")
            args += ["--jobs-file", str(path)]
        return args

    return make


def test_table(run: Callable[..., Any], files: Callable[..., list[str]]) -> None:
    result = run("taskqueues", *files())
    assert result.exit_code == 0, result.stderr
    assert [line.rstrip() for line in result.stdout.splitlines()] == [
        "TQId  Owner  Group      CPUTime  Sites                      BannedSites  Platforms   JobTypes        Tags  Jobs   Priority  Share%  Correction  First%",
        "   1  alice  lhcb_user     3600  -                          -            x86_64-el9  -               -        2   333.3330   6.667      1.0000   5.104",
        "   2  alice  lhcb_user    43200  LCG.CERN.cern              -            -           -               -        1   166.6670   3.333      1.0000   2.500",
        "   3  bob    lhcb_user     1800  -                          -            -           -               -        4   500.0000  10.000      1.0000   7.824",
        "   4  prod1  lhcb_prod    86400  -                          -            -           MCSimulation    -       10  2000.0000  40.000      1.0000  42.286",
        "   5  prod2  lhcb_prod    86400  LCG.CERN.cern,LCG.CNAF.it  -            -           Reconstruction  -        3  2000.0000  40.000      1.0000  42.286",
    ]
    assert result.stderr == ""


def test_json_fields(run: Callable[..., Any], files: Callable[..., list[str]]) -> None:
    result = run("taskqueues", *files(), "--json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert list(rows[0]) == [
        "tq_id", "owner", "group", "requirements", "jobs", "priority", "share", "correction",
        "p_first",
    ]  # fmt: skip
    assert rows[4]["requirements"] == {
        "cpu_time": 86400,
        "sites": ["LCG.CERN.cern", "LCG.CNAF.it"],
        "banned_sites": [],
        "platforms": [],
        "job_types": ["Reconstruction"],
        "tags": [],
        "grid_ces": [],
        "min_ram": 0,
        "max_ram": 0,
    }
    # alice's queues average priorities 2 and 1: 2/3 and 1/3 of her half of 1000; the
    # JobSharing group's two queues split 4000.
    assert [r["priority"] for r in rows] == [333.333, 166.667, 500.0, 2000.0, 2000.0]
    assert [r["jobs"] for r in rows] == [2, 1, 4, 10, 3]
    assert sum(r["p_first"] for r in rows) == pytest.approx(1.0, abs=1e-12)
    # The two equal top queues: 1 - P/(2·2000) summed over the others, checked by symmetry.
    assert rows[3]["p_first"] == rows[4]["p_first"]
    assert rows[2]["share"] == pytest.approx(500 / 5000, rel=1e-12)


@pytest.mark.parametrize("fmt", ["csv", "ndjson"])
def test_other_formats(run: Callable[..., Any], files: Callable[..., list[str]], fmt: str) -> None:
    result = run("taskqueues", *files(), "--output", fmt)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    if fmt == "csv":
        assert lines[0] == "tq_id,owner,group,requirements,jobs,priority,share,correction,p_first"
        assert len(lines) == 6
    else:
        assert [json.loads(line)["tq_id"] for line in lines] == [1, 2, 3, 4, 5]


def test_jobs_come_from_the_state_without_jobs_file(
    run: Callable[..., Any], files: Callable[..., list[str]], tmp_path: Path
) -> None:
    state = {"format": "fairshare-cli state", "schema_version": 1, "jobs": JOBS[:2]}
    (tmp_path / "state.json").write_text(json.dumps(state), encoding="utf-8")
    result = run("taskqueues", *files(jobs=None), "--json")
    assert result.exit_code == 0, result.stderr
    assert [(r["owner"], r["jobs"], r["priority"]) for r in json.loads(result.stdout)] == [
        ("alice", 2, 1000.0)
    ]


def test_no_jobs(run: Callable[..., Any], files: Callable[..., list[str]]) -> None:
    result = run("taskqueues", *files(jobs=None))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] == "(no waiting DIRAC jobs)"


CORRECTED = """
[dirac.groups.A]
job_share = 275
[dirac.groups.B]
job_share = 525
[dirac.groups.C]
job_share = 200
[dirac.correction]
enabled = true
history_report = "average"
{extra}
[[dirac.correction.instances]]
name = "GroupsInstance"
max_global_correction = 3
slices = [ {{ time_span = 604800, weight = 80, max_correction = 2 }},
           {{ time_span = 3600, weight = 20, max_correction = 5 }} ]
"""


def corrected_run(
    run: Callable[..., Any], files: Callable[..., list[str]], tmp_path: Path, extra: str = ""
) -> list[dict[str, Any]]:
    history = tmp_path / "history.csv"
    history.write_text(
        "owner,dirac_group,start,end,slots\n"
        f"a,A,{WEEK_AGO},,33\n"
        f"b,B,{WEEK_AGO},,7\n"
        f"z,B,2026-11-01T00:00:00Z,2026-11-02T00:00:00Z,99\n",  # before the week: ignored
        encoding="utf-8",
    )
    jobs = [{"id": f"{i}.0", "owner": o, "dirac_group": o.upper()} for i, o in enumerate("abc")]
    args = files(CORRECTED.format(extra=extra), jobs)
    imported = run("import", "history", str(history), *args[:6])
    assert imported.exit_code == 0, imported.stderr
    result = run("taskqueues", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_seed_correction_from_imported_history(
    run: Callable[..., Any], files: Callable[..., list[str]], tmp_path: Path
) -> None:
    # A ran 3x its share (factor 0.8·1/2 + 0.2·1/3 = 7/15), B a third of it (0.8·2 + 0.2·3 =
    # 2.2), C not at all (2 + 5 unweighted, clamped to the global 3).
    rows = corrected_run(run, files, tmp_path)
    assert [r["correction"] for r in rows] == pytest.approx([7 / 15, 2.2, 3.0], rel=1e-14)
    assert [r["priority"] for r in rows] == [128.333, 1155.0, 600.0]  # read back with six digits


def test_documented_absent_rule(
    run: Callable[..., Any], files: Callable[..., list[str]], tmp_path: Path
) -> None:
    rows = corrected_run(run, files, tmp_path, extra='absent_entities = "weighted"')
    assert rows[2]["correction"] == pytest.approx(2.6, rel=1e-15)
    assert rows[2]["priority"] == 520.0


def test_documented_sum_weighting(run: Callable[..., Any], files: Callable[..., list[str]]) -> None:
    config = '[dirac]\njob_priority_weighting = "sum"\n' + CONFIG
    result = run("taskqueues", *files(config), "--json")
    rows = json.loads(result.stdout)
    # alice: sums 1 + 3 = 4 and 1 over 5 of her 500.
    assert [r["priority"] for r in rows[:2]] == [400.0, 100.0]


def test_unlisted_group_gets_the_default_share(
    run: Callable[..., Any], files: Callable[..., list[str]]
) -> None:
    """A group /Registry/Groups does not list gets DEFAULT_GROUP_SHARE.

    By hand from ``recalculateTQSharesForEntity``: 'lhcb_usr' is not listed, so its share is
    ``float(DEFAULT_GROUP_SHARE)`` = 1000, split over its one owner (eve, one queue): 1000.
    alice alone in lhcb_user (1000): her queue of priorities 1 and 3 averages RealPriority 2,
    her other queue 1, so T = 3 and they get 1000·2/3 and 1000·1/3. Total 2000.
    """
    jobs = [*JOBS[:3], {"id": "9.0", "owner": "eve", "dirac_group": "lhcb_usr"}]
    result = run("taskqueues", *files(jobs=jobs), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        "fs: warning: dirac_group 'lhcb_usr' (1 waiting job) is not in [dirac.groups] "
        "(did you mean 'lhcb_user'?); DIRAC gives it the default share 1000\n"
    )
    rows = json.loads(result.stdout)
    assert [(r["owner"], r["group"]) for r in rows] == [
        ("alice", "lhcb_user"), ("alice", "lhcb_user"), ("eve", "lhcb_usr")
    ]  # fmt: skip
    assert rows[0]["priority"] == pytest.approx(2000 / 3, abs=5e-4)  # six digits
    assert rows[1]["priority"] == pytest.approx(1000 / 3, abs=5e-4)
    assert rows[2]["priority"] == 1000.0
    assert rows[2]["share"] == pytest.approx(0.5, abs=1e-7)


def test_unlisted_group_is_not_corrected_between_groups(
    run: Callable[..., Any], files: Callable[..., list[str]]
) -> None:
    """``__updateGlobalShares`` corrects only the listed groups; the unlisted one keeps 1000.

    One instance between groups, one slice (Max 2, weight 1), no history at all for the
    slice: DIRAC discards the history and corrects nothing, so every factor is 1. With
    history for lhcb_user only (see the correction tests), the unlisted group would still
    be left out of the corrector's input; here: its factor is 1 and its priority 1000.
    """
    config = CONFIG + (
        '[dirac.correction]\nenabled = true\n[[dirac.correction.instances]]\nname = "g"\n'
        "slices = [{ time_span = 3600, weight = 1, max_correction = 2 }]\n"
    )
    jobs = [JOBS[3], {"id": "9.0", "owner": "eve", "dirac_group": "other"}]
    result = run("taskqueues", *files(config=config, jobs=jobs), "--json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [(r["owner"], r["priority"], r["correction"]) for r in rows] == [
        ("bob", 1000.0, 1.0), ("eve", 1000.0, 1.0)
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("slices", "message"),
    [
        pytest.param(
            "[{ time_span = 3600.5, weight = 80, max_correction = 2 }]",
            "dirac.correction.instances[0].slices[0].time_span: expected a whole number of "
            "seconds (or a time string), got 3600.5",
            id="fractional-time-span",
        ),
        pytest.param(
            '[{ time_span = "-1:00:00", weight = 80, max_correction = 2 }]',
            'slices[0].time_span: "-1:00:00" is not a Slurm time',
            id="negative-time-string",
        ),
        pytest.param(
            "[{ time_span = 3600, weight = 0.8 }]",
            "slices[0].weight: expected a whole number, got number 0.8",
            id="weight-not-integer",
        ),
    ],
)
def test_bad_correction_config(
    run: Callable[..., Any], files: Callable[..., list[str]], slices: str, message: str
) -> None:
    config = CONFIG + f"[[dirac.correction.instances]]\nname = 'g'\nslices = {slices}\n"
    result = run("taskqueues", *files(config))
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("fs: error: ")
    assert message in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param("{", "not valid JSON (line 1, column 2", id="not-json"),
        pytest.param(
            '{"id": "1"}', "expected a JSON list of job objects, got an object", id="not-list"
        ),
        pytest.param('[{"id": "1.0"}]', "job 1.0: missing required field 'owner'", id="no-owner"),
        pytest.param(
            '[{"id": "1.0", "owner": "a", "dirac_group": "lhcb_user", "user_priority": "hi"}]',
            "job 1.0: user_priority: expected a number, got 'hi'",
            id="bad-priority",
        ),
        pytest.param(
            '[{"id": "1.0", "owner": "a", "dirac_group": "lhcb_user"},'
            ' {"id": "1.0", "owner": "b", "dirac_group": "lhcb_user"}]',
            "job 1.0 is given twice (job objects 1 and 2, counting from 1); give each job its own id",
            id="duplicate-id",
        ),
        pytest.param(
            '[{"id": "1.0", "owner": "a", "dirac_group": "lhcb_user",'
            ' "dirac_requirements": {"cpu_tme": 5}}]',
            "job 1.0: unknown dirac_requirements key 'cpu_tme' (did you mean 'cpu_time'?)",
            id="bad-requirement",
        ),
        pytest.param(
            '[{"id": "1.0", "owner": "a", "dirac_group": "lhcb_user",'
            ' "dirac_requirements": {"sites": [1]}}]',
            "job 1.0: dirac_requirements.sites: expected names (strings), got [1]",
            id="bad-sites",
        ),
    ],
)
def test_bad_jobs_file(
    run: Callable[..., Any],
    files: Callable[..., list[str]],
    tmp_path: Path,
    content: str,
    message: str,
) -> None:
    args = files(jobs=None)
    (tmp_path / "bad.json").write_text(content, encoding="utf-8")
    result = run("taskqueues", *args, "--jobs-file", str(tmp_path / "bad.json"))
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert message in result.stderr


def test_missing_jobs_file(
    run: Callable[..., Any], files: Callable[..., list[str]], tmp_path: Path
) -> None:
    result = run("taskqueues", *files(jobs=None), "--jobs-file", str(tmp_path / "nope.json"))
    assert result.exit_code == 2
    assert result.stderr == f"fs: error: File '{tmp_path / 'nope.json'}' does not exist.\n"


def test_help_names_the_command(run: Callable[..., Any]) -> None:
    result = run("taskqueues", "--help")
    assert result.exit_code == 0
    assert "--jobs-file" in result.stdout
    assert "TaskQueueDB" in result.stdout


def test_a_lone_surrogate_in_the_running_history_is_refused(
    run: Callable[..., Any], files: Callable[..., list[str]], tmp_path: Path
) -> None:
    """``fs taskqueues`` with share correction on a state whose DIRAC running history
    holds ``"\\udcff"`` (valid JSON, no Unicode text) as a step's time: one line naming the
    step, exit 2 (was a UnicodeEncodeError traceback from msgspec)."""
    args = files(CORRECTED.format(extra=""), [{"id": "1.0", "owner": "a", "dirac_group": "A"}])
    state = tmp_path / "state.json"
    steps = {"A": {"a": [["\udcff", 1]]}}
    head = {"format": "fairshare-cli state", "schema_version": 1}
    state.write_text(json.dumps({**head, "dirac": {"running_jobs": steps}}), encoding="utf-8")
    before = state.read_bytes()
    result = run("taskqueues", *args)
    assert result.exit_code == 2, result.stderr
    assert result.stderr == (
        f"fs: error: state file {state}: state section 'dirac': running_jobs.A.a[0] must be "
        "[time, delta]\n"
    )
    assert state.read_bytes() == before
