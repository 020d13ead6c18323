"""``fs submit``, ``fs prio``, ``fs rm`` (cli/jobs_cmd.py)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import REPO


def test_submit_dirac_group_count(tmp_path: Path) -> None:
    """New jobs of a DIRAC group are checked once they have their ids."""
    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    before = json.loads(state.read_text()).get("jobs", [])
    args = ["submit", "--owner", "erin", "--dirac-group", "lhcb_user", "--count", "3"]
    args += ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    result = CliRunner().invoke(cli, [*args, "--now", "2026-11-21T12:00:00Z"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "Submitted 3 jobs as cluster 1\n"
    after = json.loads(state.read_text())["jobs"]
    assert after[: len(before)] == before
    assert after[len(before) :] == [
        {"dirac_group": "lhcb_user", "id": f"1.{i}", "owner": "erin", "submit_time": 1795262400.0}
        for i in range(3)
    ]


def _sample(tmp_path: Path) -> list[str]:
    """The sample pool's options, on a copy of its state."""
    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    return ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state),
            "--now", "2026-11-21T12:00:00Z"]  # fmt: skip


def test_prio_takes_a_negative_value(tmp_path: Path) -> None:
    """``fs prio 1 -3`` sets JobPrio -3 (as condor_prio -p -3 does); the range checks hold
    and an unknown option is still refused as one."""
    common = _sample(tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli, ["submit", "--owner", "alice", *common]).exit_code == 0
    result = runner.invoke(cli, ["prio", "1", "-3", *common])
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "Set JobPrio of 1 to -3\n",
        "",
    )
    jobs = json.loads(Path(common[3]).read_text())["jobs"]
    assert [job.get("job_prio") for job in jobs] == [-3]
    slurm = runner.invoke(cli, ["prio", "1", "-3", "--slurm", *common])
    assert (slurm.exit_code, slurm.stdout) == (2, "")
    assert slurm.stderr == "fs: error: priority -3: expected 0 to 4294967293 for a Slurm job\n"
    bogus = runner.invoke(cli, ["prio", "1", "-3", "--bogus", *common])
    assert (bogus.exit_code, bogus.stdout) == (2, "")
    assert bogus.stderr.startswith("fs: error: No such option '--bogus'. (see '")
    assert len(bogus.stderr.splitlines()) == 1


def test_submit_refuses_an_empty_owner(tmp_path: Path) -> None:
    """``fs submit --owner ''`` is refused with the job parser's words for a bad owner (it
    was taken for $USER), and the state is left as it was."""
    common = _sample(tmp_path)
    before = Path(common[3]).read_text()
    result = CliRunner().invoke(cli, ["submit", "--owner", "", *common])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "fs: error: --owner: expected a name, got an empty one\n"
    assert Path(common[3]).read_text() == before


def test_submit_file_refuses_the_options_it_ignores(tmp_path: Path) -> None:
    """``fs submit --file jobs.json --owner bob`` is refused, naming --owner (it was
    ignored); nothing is written. --id, -v and --dry-run still go with --file."""
    common = _sample(tmp_path)
    before = Path(common[3]).read_text()
    jobs = tmp_path / "jobs.json"
    jobs.write_text('[{"owner": "ivan"}]')  # (ivan@example.org has a record: no note)
    runner = CliRunner()
    result = runner.invoke(cli, ["submit", "--file", str(jobs), "--owner", "bob", *common])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(
        "fs: error: --owner is ignored with --file (its job objects give every field); "
        "put it in the file, or drop --file (see '"
    )
    assert len(result.stderr.splitlines()) == 1
    many = runner.invoke(
        cli, ["submit", "--file", str(jobs), "--cpus", "2", "--set", "qos=x", *common]
    )
    assert (many.exit_code, many.stdout) == (2, "")
    assert many.stderr.startswith("fs: error: --cpus, --set are ignored with --file")
    assert Path(common[3]).read_text() == before
    taken = runner.invoke(cli, ["submit", "--file", str(jobs), "--id", "7", "-v", *common])
    assert (taken.exit_code, taken.stdout, taken.stderr) == (
        0,
        "Submitted 1 job as cluster 7: 7\n",
        "",
    )
    assert json.loads(Path(common[3]).read_text())["jobs"][0]["owner"] == "ivan"


def test_submit_refuses_no_cpus(tmp_path: Path) -> None:
    """``fs submit --cpus 0`` is refused (exit 2, one line, state unchanged): a job asking
    for no CPU adds nothing to its group's weighted demand, so it would sit idle with the
    reason "submitter_limit"; ``--cpus 1`` on the same pool matches."""
    common = _sample(tmp_path)
    before = Path(common[3]).read_text()
    runner = CliRunner()
    zero = runner.invoke(
        cli, ["submit", "--owner", "alice", "--count", "2", "--cpus", "0", *common]
    )
    assert (zero.exit_code, zero.stdout) == (2, "")
    assert "'--cpus'" in zero.stderr and len(zero.stderr.splitlines()) == 1
    assert Path(common[3]).read_text() == before
    one = runner.invoke(cli, ["submit", "--owner", "alice", "--count", "2", "--cpus", "1", *common])
    assert one.exit_code == 0, one.stderr
    dry = runner.invoke(cli, ["negotiate", "--dry-run", "--json", *common])
    assert dry.exit_code == 0, dry.stderr
    assert [m["job_id"] for m in json.loads(dry.stdout)["matches"]] == ["1.0", "1.1"]


def test_submit_file_dash_reads_stdin(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs submit --file - < sample_configs/jobs.json said 'jobs file - does not exist',
    where every other input file (--jobs-file, the imports) takes - for stdin."""
    jobs = Path(__file__).resolve().parents[2] / "sample_configs" / "jobs.json"
    pool = str(jobs.parent / "pool.toml")
    args = ["--config", pool, "--state", str(tmp_path / "s.json"), "--now", "2026-11-21T12:00:00Z"]
    result = run("submit", "--file", "-", *args, input=jobs.read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "Submitted 641 jobs as 6 clusters (101 ... 106)\n"


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("status=bogus", '--set status: expected one of idle, running, held, completed, '
                         'removed, got "bogus"'),
        ("request_cpus=-3", "--set request_cpus: expected 0 or more, got -3"),
        ("request_cpus=abc", "--set request_cpus: expected a whole number, got 'abc'"),
    ],
)  # fmt: skip
def test_submit_names_the_set_a_value_came_from(tmp_path: Path, value: str, said: str) -> None:
    """``fs submit --owner alice --set status=bogus`` named 'fs submit: job 0.status', a
    position in a list the admin never wrote, not the ``--set`` to fix."""
    common = _sample(tmp_path)
    before = Path(common[3]).read_text()
    result = CliRunner().invoke(cli, ["submit", "--owner", "alice", "--set", value, *common])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {said}\n"
    assert Path(common[3]).read_text() == before


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--time-limit", "forever"], '--time-limit: "forever" has characters other than '
         'digits, "-" and ":" (a Slurm time is M, M:S, H:M:S, D-H, D-H:M or D-H:M:S, or '
         "INFINITE)"),
        # (sbatch --time=" 5" is refused: _is_valid_timespec in parse_time.c takes digits,
        # '-' and ':' alone; fs had read it as 5 minutes)
        (["--time-limit", " 5"], '--time-limit: " 5" has characters other than '
         'digits, "-" and ":" (a Slurm time is M, M:S, H:M:S, D-H, D-H:M or D-H:M:S, or '
         "INFINITE)"),
        # (a plain number is minutes here, as sbatch --time reads it: the hint said "or the
        # number 3600", which --time-limit reads as 2-12:00:00)
        (["--time-limit", "1h"], '--time-limit: "1h" has characters other than digits, "-" '
         'and ":" (a Slurm time is M, M:S, H:M:S, D-H, D-H:M or D-H:M:S, or INFINITE) (for 1h '
         "give 01:00:00, or 60)"),
        (["--time-limit", "90s"], '--time-limit: "90s" has characters other than digits, "-" '
         'and ":" (a Slurm time is M, M:S, H:M:S, D-H, D-H:M or D-H:M:S, or INFINITE) (for 90s '
         "give 00:01:30)"),
        (["--account", ""], "--account: expected a name, got an empty one"),
        (["--partition", "batch,,express"], "--partition: expected a name, got an empty one"),
        (["--accounting-group", "group physics"], "--accounting-group: expected a name "
         "without blanks or control characters, got 'group physics'"),
        (["--job-prio", str(2**64)], "--job-prio: expected a whole number that fits in 64 "
         f"bits, got {2**64}"),
    ],
)  # fmt: skip
def test_submit_names_the_option_a_value_came_from(
    tmp_path: Path, option: list[str], said: str
) -> None:
    """``fs submit --owner alice --time-limit forever`` said 'fs submit: job 0.time_limit',
    a field of an object the admin never wrote, not the option to fix."""
    common = _sample(tmp_path)
    before = Path(common[3]).read_text()
    result = CliRunner().invoke(cli, ["submit", "--owner", "alice", *option, *common])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {said}\n"
    assert Path(common[3]).read_text() == before


def test_submit_time_limit_is_minutes_as_sbatch_reads_it(tmp_path: Path) -> None:
    """``fs submit --owner alice --account hep --time-limit 60`` is 60 minutes, as
    ``sbatch --time=60``; its help said 'seconds or a Slurm time'."""
    common = _sample(tmp_path)
    line = ["submit", "--owner", "alice", "--account", "hep", "--time-limit", "60", "--id", "9"]
    result = CliRunner().invoke(cli, [*line, *common])
    assert result.exit_code == 0, result.stderr
    job = next(j for j in json.loads(Path(common[3]).read_text())["jobs"] if j["id"] == "9")
    assert job["time_limit"] == 3600.0
    help_text = " ".join(CliRunner().invoke(cli, ["submit", "--help"]).stdout.split())
    assert "--time-limit TIME Time limit as sbatch --time reads it: minutes," in help_text


def _disk_full(*_args: Any) -> None:
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize(
    "args", [["submit", "--owner", "alice", "--count", "3"], ["prio", "1", "5"], ["rm", "1"]]
)
def test_a_failed_write_says_nothing_was_done(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state cannot be written (a full disk at the rename): one error line, exit 1, the
    file byte for byte, no temp file, and no "Submitted ..." / "Set ..." / "Removed ..."
    on stdout (it was printed before the write failed)."""
    common = _sample(tmp_path)
    assert CliRunner().invoke(cli, ["submit", "--owner", "bob", *common]).exit_code == 0
    state = Path(common[3])
    before = state.read_bytes()
    monkeypatch.setattr("fairshare_cli.io.atomic.os.replace", _disk_full)
    result = CliRunner().invoke(cli, [*args, *common])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"fs: error: cannot write state file {state}: No space left on device\n"
    )
    assert state.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json", "state.json.lock"]


@pytest.mark.parametrize("text", ["[]", "[]\n"])
def test_submit_of_an_empty_jobs_file_is_refused_and_writes_nothing(
    tmp_path: Path, text: str
) -> None:
    """``fs submit --file empty.json`` (a list of no jobs): one line, exit 2, the state as it
    was (it used to write an empty queue and then fail with a traceback)."""
    common = _sample(tmp_path)
    state = Path(common[3])
    before = state.read_bytes()
    (tmp_path / "empty.json").write_text(text)
    result = CliRunner().invoke(cli, ["submit", "--file", str(tmp_path / "empty.json"), *common])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {tmp_path / 'empty.json'}: no job objects in the list; nothing to submit\n"
    )
    assert state.read_bytes() == before
    piped = CliRunner().invoke(cli, ["submit", "--file", "-", *common], input=text)
    assert (piped.exit_code, piped.stderr) == (
        2,
        "fs: error: -: no job objects in the list; nothing to submit\n",
    )
    assert state.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(["rm", "7" * 100_000], 'no job "' + "7" * 80 + '..."', id="rm"),
        pytest.param(["prio", "7" * 100_000, "5"], 'no job "' + "7" * 80 + '..."', id="prio"),
        pytest.param(
            ["prio", "1", "x" + "7" * 100_000],
            'priority "x' + "7" * 79 + '...": expected a whole number',
            id="prio-value",
        ),
        pytest.param(
            ["prio", "1", "7" * 4000],
            "priority " + "7" * 80 + "...: expected a whole number that fits in 64 bits",
            id="prio-digits",
        ),
        pytest.param(
            ["negotiate", "--dry-run", "--explain", "7" * 100_000],
            "--explain " + "7" * 80 + "...: no idle job with that id",
            id="negotiate-explain",
        ),
        pytest.param(
            ["delete", "x" * 100_000],
            "NAME '" + "x" * 80 + "...': give the full name",
            id="delete-no-domain",
        ),
        pytest.param(
            ["delete", "x" * 1000 + "@example.org"],
            "cannot delete '" + "x" * 80 + "...': the accountant has no record",
            id="delete",
        ),
    ],
)
def test_a_long_job_id_or_name_is_echoed_shortened(
    tmp_path: Path, args: list[str], said: str
) -> None:
    """``fs rm <100 kB id>`` echoed the whole id in its one line (a megabyte id, a
    megabyte of stderr); its first 80 characters now, and the state is untouched."""
    common = _sample(tmp_path)
    before = Path(common[3]).read_bytes()
    result = CliRunner().invoke(cli, [*args, *common])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"fs: error: {said}")
    assert len(result.stderr) < 400
    assert Path(common[3]).read_bytes() == before


def test_userprio_notes_a_long_name_shortened(tmp_path: Path) -> None:
    """``fs userprio <100 kB name>`` noted 'no record' with the whole name."""
    result = CliRunner().invoke(cli, ["userprio", "x" * 100_000, *_sample(tmp_path)])
    assert result.exit_code == 0
    assert result.stderr == f"fs: note: no record {'x' * 80}...\n"


def test_admin_priority_is_held_to_what_scontrol_takes(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs submit --file neg.json`` with ``"admin_priority": -5`` was queued, and ``fs
    sprio --jobs-file neg.json`` printed a PRIORITY of -5; ``fs prio 7 4294967295 --slurm``
    set that priority. scontrol reads ``priority=`` with parse_uint32
    (src/common/proc_args.c), which refuses a value below 0 and one of NO_VAL
    (0xfffffffe = 4294967294) or more: 4294967293 is the largest. Each is refused now,
    exit 2, naming the file, job and field or the value."""
    args = _sample(tmp_path)
    neg = tmp_path / "neg.json"
    neg.write_text('[{"id": "2.0", "owner": "alice", "admin_priority": -5, "account": "hep"}]')
    before = (tmp_path / "state.json").read_bytes()
    message = f"fs: error: {neg}: job 2.0: admin_priority: expected 0 or more, got -5\n"
    for command in (["submit", "--file", str(neg)], ["sprio", "--jobs-file", str(neg)]):
        result = run(*command, *args)
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", message)
    big = run("submit", "--owner", "alice", "--account", "hep", "--set",
              "admin_priority=4294967294", *args)  # fmt: skip
    assert big.exit_code == 2
    assert big.stderr == (
        "fs: error: --set admin_priority: expected 0 to 4294967293 "
        "(scontrol update job priority=), got 4294967294\n"
    )
    assert (tmp_path / "state.json").read_bytes() == before
    assert run("submit", "--id", "7", "--owner", "bob", "--account", "hep", *args).exit_code == 0
    for value in ("4294967294", "4294967295"):
        prio = run("prio", "7", value, "--slurm", *args)
        assert prio.exit_code == 2
        assert (
            prio.stderr
            == f"fs: error: priority {value}: expected 0 to 4294967293 for a Slurm job\n"
        )
    top = run("prio", "7", "4294967293", "--slurm", *args)
    assert (top.exit_code, top.stdout) == (0, "Set admin priority of 7 to 4294967293\n")


@pytest.mark.parametrize(
    ("group", "count", "said"),
    [
        # GroupEntry::GetAssignedGroup: "group_chemistry@example.org" loses "@example.org";
        # "group_chemistry" has no "." so the submitter is no group's: <none>
        pytest.param("group_chemistry", "1", "job 1: accounting group group_chemistry is a group "
                     "with no user, so HTCondor charges submitter group_chemistry@example.org in "
                     "<none>; an AccountingGroup is GROUP.USER (a submit file's accounting_group "
                     "= group_chemistry makes group_chemistry.carol): make it "
                     "group_chemistry.carol", id="top-level"),
        # "group_physics.hep": the text before the last "." is the group: group_physics
        pytest.param("group_physics.hep", "2", "2 jobs (1.0 ...): accounting group "
                     "group_physics.hep is a group with no user, so HTCondor charges submitter "
                     "group_physics.hep@example.org in group_physics; an AccountingGroup is "
                     "GROUP.USER (a submit file's accounting_group = group_physics.hep makes "
                     "group_physics.hep.carol): make it group_physics.hep.carol", id="subgroup"),
    ],
)  # fmt: skip
def test_a_group_with_no_user_is_warned_of(
    tmp_path: Path, group: str, count: str, said: str
) -> None:
    """``fs submit --owner carol --accounting-group group_chemistry``, written as a submit
    file's ``accounting_group``: the job was queued without a word and its submitter
    negotiated in <none> (or, for a subgroup, in its parent as a user named after it). It is
    still queued, as HTCondor would take such an AccountingGroup, with a warning."""
    line = ["submit", "--owner", "carol", "--accounting-group", group, "--count", count]
    result = CliRunner().invoke(cli, [*line, *_sample(tmp_path)])
    assert result.exit_code == 0
    assert result.stderr == f"fs: warning: {said}\n"


def test_a_group_and_user_is_not_warned_of(tmp_path: Path) -> None:
    """``--accounting-group group_chemistry.carol`` (and a user of a subgroup) says nothing."""
    for group in ("group_chemistry.carol", "group_chemistry.lab.carol"):
        line = ["submit", "--owner", "carol", "--accounting-group", group]
        result = CliRunner().invoke(cli, [*line, *_sample(tmp_path)])
        assert (result.exit_code, result.stderr) == (0, "")
