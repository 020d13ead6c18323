"""SLUIDs (Slurm 25.11 on) in ``fs sprio``: the job field ``sluid``, filled by ``fs import
squeue`` from ``squeue --json`` (each job's ``step_id.sluid``) and ``scontrol -d show job``
(``SLUID=``), printed by ``-o %s`` and matched by ``-j s...``.

Every expected line is worked out by hand from Slurm's source: ``_print_job_sluid``
(src/sprio/print.c: header ``SLUID``, a blank weights row, ``""`` for a job of none, each
through ``_print_str`` as the job id is), ``unfmt_job_id_string``'s SLUID branch (a
lower-case ``s`` first, 14 characters or a ``.`` and a step after them, ``str2sluid``
non-zero), ``str2sluid`` (src/common/sluid.c: any case, ``O`` read as 0, ``I`` and ``L`` as
1, 5 bits a letter with the first letter's top bit shifted out of the 64) and
``_list_find_job_id`` (src/sprio/filter.c: a SLUID matches the job of that SLUID; a job
with none only by job id, which a SLUID's filter holds as ``NO_VAL``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW, SPRIO_ACCOUNTS, SPRIO_POOL, sprio_files
from tests.conftest import FIXTURES

Run = Callable[..., Any]

NOW_EPOCH = 1795262400
SLUID_2 = "s805M8HP6BJP00"
JOBS = [
    {"id": "2", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH - 600,
     "sluid": SLUID_2},
    {"id": "3", "owner": "bob", "account": "hep", "submit_time": NOW_EPOCH - 600},
]  # fmt: skip


def _options(tmp_path: Path, compat: str | None = None) -> list[str]:
    config = SPRIO_POOL + SPRIO_ACCOUNTS
    if compat is not None:
        config = config.replace("[priority]\n", f'[priority]\noutput_compat = "{compat}"\n')
    return sprio_files(tmp_path, JOBS, config)


def test_percent_s_prints_each_job_s_sluid_and_blank_for_none(tmp_path: Path, run: Run) -> None:
    """``%s`` (width 0: the text as it is), ``%.20s`` (right), ``%20s`` (left, padded),
    ``%5s`` (cut to 5); job 3 has no SLUID: an empty text in each cell."""
    result = run("sprio", "-o", "%.5i|%s|%.20s|%20s|%5s|%u", *_options(tmp_path))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "JOBID|SLUID|               SLUID|SLUID               |SLUID|USER\n"
        "    2|s805M8HP6BJP00|      s805M8HP6BJP00|s805M8HP6BJP00      |s805M|alice\n"
        "    3||                    |                    |     |bob\n"
    )


def test_the_weights_row_leaves_the_sluid_blank(tmp_path: Path, run: Run) -> None:
    result = run("sprio", "-w", "-o", "%.7i|%.14s|", *_options(tmp_path))
    assert (result.exit_code, result.stdout) == (
        0,
        "  JOBID|         SLUID|\nWeights|              |\n",
    )


@pytest.mark.parametrize(
    ("jobs", "rows"),
    [
        pytest.param(SLUID_2, "2", id="sluid"),
        pytest.param("s805m8hp6bjpoo", "2", id="lower-case-and-O-as-0"),
        # R is 24: its top bit is shifted out of the 64, leaving 8 (the printed first letter)
        pytest.param("sR05M8HP6BJP00", "2", id="first-letter-overflows"),
        pytest.param(f"{SLUID_2}.0", "2", id="with-a-step"),
        pytest.param(f"{SLUID_2}.batch", "2", id="with-a-step-name"),
        pytest.param("s805M8HP6BJP01", "", id="another-sluid"),
        # job 3 has no SLUID, and a SLUID's filter holds job id NO_VAL: no match
        pytest.param(f"3,{SLUID_2}", "2,3", id="by-number-and-sluid"),
        # a job id matches its job whatever its SLUID
        pytest.param("2", "2", id="by-number"),
    ],
)
def test_j_matches_a_sluid_as_sprio_does(tmp_path: Path, run: Run, jobs: str, rows: str) -> None:
    result = run("sprio", "-o", "%.5i %s", "-j", jobs, *_options(tmp_path))
    assert (result.exit_code, result.stderr) == (0, "")
    lines = {"2": f"    2 {SLUID_2}\n", "3": "    3 \n"}
    expected = "".join(lines[job] for job in rows.split(",") if job)
    # (sprio filters what slurmctld sent: no row left is the header alone, not "Unable to")
    assert result.stdout == "JOBID SLUID\n" + expected


@pytest.mark.parametrize(
    "job_id",
    [
        "sG000000000000",  # str2sluid: G (16) << 60 is shifted out: the SLUID 0
        "s0000000000000",  # the SLUID 0
        "S805M8HP6BJP00",  # unfmt_job_id_string takes a lower-case s only; strtol reads none
        "s805M8HP6BJP0",  # 13 characters
        "s805M8HP6BJP00x",  # a 15th character that is not "."
        "s805M8HP6BJP00.",  # an empty step: ESLURM_EMPTY_STEP_ID
        "s805M8HP6BJPU0",  # U is not in Crockford's Base32
    ],
)
def test_j_refuses_what_unfmt_job_id_string_refuses(tmp_path: Path, run: Run, job_id: str) -> None:
    """``fs sprio -j sG000000000000`` listed no job where sprio says ``Invalid job id``
    (str2sluid gives 0, the SLUID of none); each of these is refused on one line."""
    options = _options(tmp_path)
    state = (tmp_path / "state.json").read_bytes()
    result = run("sprio", "-j", job_id, *options)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: Invalid job id: {job_id}\n"
    assert (tmp_path / "state.json").read_bytes() == state


def test_2205_has_no_sluid(tmp_path: Path, run: Run) -> None:
    """22.05's sprio has no ``%s`` (``Invalid job format specification: s``, the field
    skipped) and reads ``-j s...`` with ``slurm_xlate_job_id``: no number, refused."""
    options = _options(tmp_path, "22.05")
    listed = run("sprio", "-o", "%.5i %s|%u", *options)
    assert (listed.exit_code, listed.stdout) == (0, "JOBID USER\n    2 alice\n    3 bob\n")
    assert listed.stderr == "fs: error: Invalid job format specification: s\n"
    refused = run("sprio", "-j", SLUID_2, *options)
    assert (refused.exit_code, refused.stderr) == (2, f"fs: error: Invalid job id: {SLUID_2}\n")


@pytest.mark.parametrize(
    "sluid",
    ["s805m8hp6bjp00", "sG05M8HP6BJP00", "s0000000000000", "s805M8HP6BJP0", 12],
)
def test_a_jobs_file_s_sluid_not_as_slurm_prints_one_is_refused(
    tmp_path: Path, run: Run, sluid: Any
) -> None:
    options = _options(tmp_path)
    jobs = [{**JOBS[0], "sluid": sluid}]
    (tmp_path / "jobs.json").write_text(json.dumps(jobs), encoding="utf-8")
    result = run("sprio", *options)
    assert (result.exit_code, result.stdout) == (2, "")
    if isinstance(sluid, str):
        assert result.stderr == (
            f"fs: error: {tmp_path / 'jobs.json'}: job 2: sluid: expected a SLUID as Slurm "
            "prints it (s and 13 of 0-9 and A-Z but I, L, O and U, the first 0 to F, not all "
            f"0: \"s805M8HP6BJP00\"), got '{sluid}'\n"
        )
    else:
        assert result.stderr == (
            f"fs: error: {tmp_path / 'jobs.json'}: job 2: sluid: expected a string, got 12\n"
        )


def test_submit_keeps_a_sluid_and_leaves_it_out_when_unset(
    tmp_path: Path, run: Run, write_config: Callable[..., Path]
) -> None:
    """A job given no SLUID is written as before (no ``sluid`` key); one given one keeps it."""
    config = write_config(SPRIO_POOL + SPRIO_ACCOUNTS)
    common = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    first = run("submit", "--owner", "alice", "--account", "hep", *common)
    second = run("submit", "--owner", "bob", "--account", "hep", "--set", f"sluid={SLUID_2}",
                 *common)  # fmt: skip
    assert (first.exit_code, second.exit_code) == (0, 0), (first.stderr, second.stderr)
    jobs = json.loads((tmp_path / "s.json").read_text())["jobs"]
    assert ["sluid" in job for job in jobs] == [False, True]
    assert jobs[1]["sluid"] == SLUID_2
    listed = run("sprio", "-o", "%.5i %s %u", *common)
    assert listed.stdout == f"JOBID SLUID USER\n    1  alice\n    2 {SLUID_2} bob\n"


# The Slurm 26.05.3 capture: its squeue --json gives each job's SLUID in step_id.sluid.
SLURM = FIXTURES / "slurm-26.05"
CAPTURE = SLURM / "ft4_t2_idle"
CAPTURE_NOW = "2026-11-28T18:28:39Z"  # date.txt
CAPTURE_PASS = "2026-11-28T18:28:30Z"
#: Each pending job's SLUID as the capture's squeue --json prints it (job 25 pends in two
#: partitions: two rows).
SLUIDS = {"19": "s805M8HP6BJP00", "20": "s805M8HP6BJX00", "21": "s805M8HP6BK300",
          "22": "s805M8HP6BK800", "23": "s805M8HP6BKE00", "24": "s805M8HP6BKK00",
          "25": "s805M8HP6BKS00", "26": "s805M8HP6BKZ00", "27": "s805M8HP6BM400"}  # fmt: skip
USERS = {"19": "u1", "20": "u2", "21": "u3", "22": "u3", "23": "u4", "24": "u5", "25": "u6",
         "26": "u7", "27": "u8"}  # fmt: skip


def _capture(tmp_path: Path, run: Run, jobs: Path) -> list[str]:
    """The capture's config and usage (docs/slurm.md's steps), then ``jobs`` imported."""
    cfg = tmp_path / "pool.toml"
    cfg.write_text('[pool]\ndefaults = "current"\n')
    common = ["--config", str(cfg), "--state", str(tmp_path / "state.json"), "--now", CAPTURE_NOW]
    for step in (
        ["slurm-conf", str(SLURM / "config" / "slurm.conf.fairtree"), "--into", str(cfg)],
        ["sacctmgr", str(CAPTURE / "sacctmgr_assoc_tree.txt"), "--into", str(cfg)],
        ["sacctmgr", str(CAPTURE / "sacctmgr_qos.txt"), "--into", str(cfg)],
        ["sshare", str(CAPTURE / "sshare_a_l_json.txt"), *common, "--last-decay", CAPTURE_PASS],
        ["squeue", str(jobs), *common, "--last-decay", CAPTURE_PASS],
    ):
        res = run("import", *step)
        assert res.exit_code == 0, (step, res.stderr)
    return common


def _rows(*ids: str, sluids: dict[str, str] = SLUIDS) -> str:
    """``%.15i %s %u`` rows of these jobs (25 twice: two partitions)."""
    return "".join(
        f"{job:>15} {sluids.get(job, '')} {USERS[job]}\n" * (2 if job == "25" else 1) for job in ids
    )


def test_the_26_05_capture_s_sluids_from_squeue_json(tmp_path: Path, run: Run) -> None:
    common = _capture(tmp_path, run, CAPTURE / "squeue_json.txt")
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert {job["id"]: job["sluid"] for job in jobs} == SLUIDS
    result = run("sprio", "-o", "%.15i %s %u", *common)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "          JOBID SLUID USER\n" + _rows(*SLUIDS)
    picked = run("sprio", "-o", "%.15i %s %u", "-j", "s805m8hp6bkso0,21", *common)
    assert picked.stdout == "          JOBID SLUID USER\n" + _rows("21", "25")


def _scontrol_d(tmp_path: Path, one_line: bool) -> Path:
    """The capture's ``scontrol show jobs`` as ``scontrol -d`` prints it for jobs 19 and 20
    (a ``SLUID=`` line after the ``JobName=`` line, ``info_job.c``), the others with none;
    ``one_line``: as ``scontrol -o -d`` prints it (the fields of a record on one line)."""
    text = (CAPTURE / "scontrol_show_jobs.txt").read_text().split("\n", 1)[1]
    for job in ("19", "20"):
        text = re.sub(rf"(?m)^(JobId={job} JobName=.*)$", rf"\1\n   SLUID={SLUIDS[job]}", text)
    if one_line:
        records = [r for r in text.split("\n\n") if r.strip()]
        text = "".join(" ".join(r.split("\n")).replace("    ", " ") + "\n" for r in records)
        text = re.sub(r" +", " ", text).replace(" \n", "\n")
    path = tmp_path / "scontrol_d.txt"
    path.write_text(text)
    return path


@pytest.mark.parametrize("one_line", [False, True], ids=["records", "one-line"])
def test_the_26_05_capture_s_sluids_from_scontrol_d(
    tmp_path: Path, run: Run, one_line: bool
) -> None:
    common = _capture(tmp_path, run, _scontrol_d(tmp_path, one_line))
    jobs = json.loads((tmp_path / "state.json").read_text())["jobs"]
    assert {job["id"]: job.get("sluid") for job in jobs if "sluid" in job} == {
        "19": SLUIDS["19"],
        "20": SLUIDS["20"],
    }
    result = run("sprio", "-o", "%.15i %s %u", *common)
    assert (result.exit_code, result.stderr) == (0, "")
    mine = {"19": SLUIDS["19"], "20": SLUIDS["20"]}
    assert result.stdout == "          JOBID SLUID USER\n" + _rows(*SLUIDS, sluids=mine)
