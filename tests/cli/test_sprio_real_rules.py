"""``fs sprio`` against rules read in Slurm's ``src/sprio/`` (sort.c, print.c) that no
capture exercises: ``-S`` on the priority before it is truncated, ``-S`` letters read one
character at a time, the nice key compared as sprio's ``int``, an admin-set priority's
``-n`` columns, and ``-j`` naming no pending job (sprio.c, filter.c). Every expected line is
worked out by hand from those functions."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import SPRIO_ACCOUNTS, SPRIO_POOL, sprio_files
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
NOW_EPOCH = 1795262400
CONFIG = SPRIO_POOL + SPRIO_ACCOUNTS


def _pool(tmp_path: Path, jobs: list[dict[str, Any]]) -> list[str]:
    return sprio_files(tmp_path, jobs, CONFIG)


def _job(job_id: str, owner: str, age: int, **extra: Any) -> dict[str, Any]:
    return {"id": job_id, "owner": owner, "account": "hep", "submit_time": NOW_EPOCH - age,
            **extra}  # fmt: skip


# Job 1 waited 60,900 s, job 2 60,700 s: with PriorityWeightAge 1000 over a 604,800 s
# maximum their AGE is 100.694... and 100.363..., both PRIORITY 100 once truncated.
TWO_JOBS = [_job("1", "alice", 60900), _job("2", "bob", 60700)]


@pytest.mark.parametrize(
    ("sort", "order"),
    [
        # _sort_by_job_prio compares get_priority_from_factors(), the double before
        # sprio's (long long) cast: 100.363 < 100.694, job 2 first.
        pytest.param("Y", ["2", "1"], id="ascending"),
        pytest.param("-Y", ["1", "2"], id="descending"),
        pytest.param("y", ["2", "1"], id="normalised-letter"),
    ],
)
def test_sort_by_priority_compares_the_priority_before_truncation(
    tmp_path: Path, run: Callable[..., Any], sort: str, order: list[str]
) -> None:
    result = run("sprio", "-o", "%.5i %.10Y %.10A", "-S", sort, *_pool(tmp_path, TWO_JOBS))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "JOBID   PRIORITY        AGE"
    rows = {"1": "    1        100        101", "2": "    2        100        100"}
    assert lines[1:] == [rows[i] for i in order]


@pytest.mark.parametrize(
    ("sort", "order"),
    [
        # sort_job_list reads the list from its last character to its first, each letter a
        # key whatever separates it, descending when the character before it is '-'. "Yu":
        # by user (alice 2, 3; bob 1), then by PRIORITY (2: 100.363; 3 and 1: 100.694).
        pytest.param("Yu", ["2", "3", "1"], id="two-letters-one-item"),
        # "-Yu": the same by user, then PRIORITY descending (ties keep their order).
        pytest.param("-Yu", ["3", "1", "2"], id="minus-binds-to-the-next-letter"),
    ],
)
def test_sort_letters_are_read_one_character_at_a_time(
    tmp_path: Path, run: Callable[..., Any], sort: str, order: list[str]
) -> None:
    jobs = [_job("1", "bob", 60900), _job("2", "alice", 60700), _job("3", "alice", 60900)]
    result = run("sprio", "-o", "%.5i %.8u", "-S", sort, *_pool(tmp_path, jobs))
    assert result.exit_code == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()[1:]] == order


@pytest.mark.parametrize(
    ("sort", "order"),
    [
        # sort_job_list: a NULL spec (no -S) becomes "i"; opts.c's xstrdup("") is an empty
        # spec, not NULL, and the loop over its characters sorts nothing: the rows stay in
        # the order slurmctld sent them, its job list's (jobs as submitted: the queue's).
        pytest.param("", ["3", "1", "2"], id="empty"),
        # ',' '+' and '-' are skipped, so a spec of them alone sorts nothing either.
        pytest.param(",+-", ["3", "1", "2"], id="separators-alone"),
        pytest.param(None, ["1", "2", "3"], id="not-given"),
    ],
)
def test_an_empty_sort_list_leaves_the_queues_order(
    tmp_path: Path, run: Callable[..., Any], sort: str | None, order: list[str]
) -> None:
    jobs = [_job("3", "bob", 600), _job("1", "alice", 60900), _job("2", "alice", 700)]
    options = [] if sort is None else ["-S", sort]
    result = run("sprio", "-o", "%.5i %.8u", *options, *_pool(tmp_path, jobs))
    assert result.exit_code == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()[1:]] == order


def test_a_space_in_the_sort_list_is_an_invalid_letter(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    # sort_job_list: ' ' is none of ',', '-', '+' nor a key letter.
    result = run("sprio", "-S", "Y, i", *_pool(tmp_path, TWO_JOBS))
    assert result.exit_code == 2
    # (print_jobs_array prints the header before sort_job_list reads the keys)
    header = run("sprio", *_pool(tmp_path, TWO_JOBS)).stdout.splitlines(keepends=True)[0]
    assert result.stdout == header
    assert result.stderr == "fs: error: Invalid sort specification:  \n"


def test_sort_by_nice_compares_it_as_sprios_int(tmp_path: Path, run: Callable[..., Any]) -> None:
    """_sort_by_nice_level compares ``int`` copies of the factors' nice, a uint32 that
    holds NICE_OFFSET (2^31) + nice: a nice of 0 or more becomes nice - 2^31 (negative), a
    negative nice 2^31 + nice (positive). So ascending: nice 0, nice 100, nice -5."""
    jobs = [
        _job("1", "alice", 60900, nice=-5),
        _job("2", "bob", 60700, nice=100),
        _job("3", "alice", 60700),
    ]
    result = run("sprio", "-o", "%.5i %.6N", "-S", "N", *_pool(tmp_path, jobs))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == ["    3      0", "    2    100", "    1     -5"]
    descending = run("sprio", "-o", "%.5i", "-S", "-N", *_pool(tmp_path, jobs))
    assert descending.stdout.split()[1:] == ["1", "2", "3"]


def test_2205_sorts_by_nice_as_the_uint32_it_held(tmp_path: Path, run: Callable[..., Any]) -> None:
    """22.05's _sort_by_nice_level compared the factors' nice itself (``CMP_INT`` of two
    uint32, NICE_OFFSET + nice): the nices' own order, -5, 0, 100, where today's ``int``
    copies put -5 last. fs sorted 22.05's as today's."""
    jobs = [
        _job("1", "alice", 60900, nice=-5),
        _job("2", "bob", 60700, nice=100),
        _job("3", "alice", 60700),
    ]
    config = CONFIG.replace("[priority]\n", '[priority]\noutput_compat = "22.05"\n', 1)
    files = sprio_files(tmp_path, jobs, config)
    result = run("sprio", "-o", "%.5i %.6N", "-S", "N", *files)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == ["    1     -5", "    3      0", "    2    100"]
    descending = run("sprio", "-o", "%.5i", "-S", "-N", *files)
    assert descending.stdout.split()[1:] == ["2", "3", "1"]
    # 22.05's object of a job with an admin-set priority is zeroed: its nice 0, below
    # NICE_OFFSET - 5, so it sorts first (NICE printed 0, from its direct priority).
    jobs.append(_job("4", "bob", 700, admin_priority=50))
    files = sprio_files(tmp_path, jobs, config)
    result = run("sprio", "-o", "%.5i %.6N", "-S", "N", *files)
    assert result.stdout.split()[2::2] == ["4", "1", "3", "2"]


def test_a_field_of_no_letter_leaves_the_next_field_its_own(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """opts.c's parse_format cuts the format at every '%' (``strtok_r``) and reads each
    piece alone: in ``%.%i|%.5N`` the piece "." has no letter (an invalid field, on
    stderr), and "i|" is JOBID with "|" after it; ``%5%.5i|`` is "5" (invalid) and
    ``.5i|``. fs read the '%' after "." or "5" as the letter and the next piece as its
    text: it lost the JOBID column of the first and refused the second."""
    files = _pool(tmp_path, TWO_JOBS)
    result = run("sprio", "-o", "%.%i|%.5N", *files)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["JOBID| NICE", "1|    0", "2|    0"]
    assert result.stderr.startswith("fs: error: Invalid job format specification")
    result = run("sprio", "-o", "%5%.5i|", *files)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["JOBID|", "    1|", "    2|"]


def test_an_admin_set_priority_prints_0_in_normalised_factor_columns(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """print.c's ``_print_*_priority_normalized``: a job with a direct priority prints
    ``_print_int(0)``, "0", not ``%.7f``; its ``%y`` is ``%16.14f`` of the priority itself,
    its ``%t`` blank. A job without one prints ``%.7f`` of the factor (0.0000000 where the
    weight is 0)."""
    jobs = [_job("1", "alice", 60900), _job("2", "bob", 60700, admin_priority=5)]
    result = run("sprio", "-n", "-l", *_pool(tmp_path, jobs))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "          JOBID PARTITION     USER  ACCOUNT PRIORITY   AGE        ASSOC      "
        "FAIRSHARE  JOBSIZE    PARTITION  QOSNAME    QOS        TRES                ",
        "              1 batch        alice      hep 0.00000002 0.1006944  0.0000000  "
        "0.0000000  0.0000000  0.0000000  normal     0.0000000                      ",
        "              2 batch          bob      hep 5.00000000 0          0          "
        "0          0          0          normal     0                              ",
    ]


def test_tres_factors_are_listed_in_slurms_tres_order(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """print.c's ``_print_tres_weighted`` / ``_normalized`` walk the job's TRES array, in
    the controller's TRES order (cpu, mem, energy, node, billing, fs/disk, vmem, pages,
    then the others), whatever order PriorityWeightTRES names them in. 2 of the pool's 4
    CPUs weigh 0.5 x 1000; 2048 of its 16384 MB 0.125 x 2000."""
    config = CONFIG.replace("age = 1000\n", "age = 1000\ntres = { mem = 2000, cpu = 1000 }\n")
    args = _pool(tmp_path, [_job("1", "alice", 60900, request_cpus=2, request_memory=2048)])
    (tmp_path / "pool.toml").write_text(config, encoding="utf-8")
    weighted = run("sprio", "-o", "%.5i %.10Y %20T", *args)
    assert weighted.exit_code == 0, weighted.stderr
    assert weighted.stdout.splitlines()[1] == "    1        850 cpu=500,mem=250     "
    normalised = run("sprio", "-o", "%.5i %20t", *args)
    assert normalised.stdout.splitlines()[1] == "    1 cpu=0.50,mem=0.12   "


def test_small_relative_to_time_divides_by_whole_minutes_and_an_unlimited_max_time(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """set_priority_factors with SMALL_RELATIVE_TO_TIME: size = min_nodes x cluster_cpus /
    node_count (1 x 4 / 2 = 2 CPUs), divided by the job's time limit in whole minutes
    (``--time=1:30`` is 2 minutes: time_str2mins rounds up), else by the partition's
    MaxTime, which unset is UNLIMITED (INFINITE, 4294967295 minutes), then by the 4 CPUs:
    2 / 2 / 4 = 0.25, and 2 / 4294967295 / 4 (about 1.2e-10) for no limit at all."""
    config = CONFIG.replace(
        'max_age = "7-0"\n', 'max_age = "7-0"\nflags = ["SMALL_RELATIVE_TO_TIME"]\n'
    ).replace("age = 1000\n", "age = 1000\njobsize = 1000\n")
    jobs = [
        _job("1", "alice", 600),
        _job("2", "alice", 600, time_limit="1:30"),
        _job("3", "alice", 600, time_limit=90),
    ]
    args = _pool(tmp_path, jobs)
    (tmp_path / "pool.toml").write_text(config, encoding="utf-8")
    result = run("sprio", "-o", "%.5i %.10J %10j", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == [
        "    1          0 0.0000000 ",
        "    2        250 0.2500000 ",
        "    3        250 0.2500000 ",
    ]


SAMPLE = REPO / "sample_configs"
HEADER = (
    "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE  "
    "PARTITION        QOS\n"
)
UNABLE = "Unable to find jobs matching user/id(s) specified\n"


def test_jobs_naming_no_pending_job_print_the_header_alone(run: Callable[..., Any]) -> None:
    """sprio.c (Slurm 23.02 on) asks slurmctld for every pending job and picks ``-j``'s
    rows itself (filter.c's ``filter_job_list``): a job id that matches none of them leaves
    the header alone. "Unable to find jobs matching user/id(s) specified" is printed only
    when ``-j`` is given and no job is pending at all."""
    listing = ["--config", str(SAMPLE / "pool.toml"), "--now", NOW]
    with_jobs = [*listing, "--jobs-file", str(SAMPLE / "jobs.json")]
    result = run("sprio", "-j", "9", *with_jobs)
    assert (result.exit_code, result.stdout, result.stderr) == (0, HEADER, "")
    assert run("sprio", "-j", "9,101.0", *with_jobs).stdout.splitlines()[1].split()[0] == "101.0"
    empty_queue = run("sprio", "-j", "9", *listing)  # the sample state queues no Slurm job
    assert (empty_queue.exit_code, empty_queue.stdout) == (0, UNABLE)


def test_jobs_naming_no_pending_job_are_not_found_as_2205_said(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Slurm 22.05's sprio.c passed ``-j``, ``-u`` and ``-p`` to ``slurm_load_job_prio``;
    slurmctld answered with the matching jobs only, and an empty answer to ``-j`` was
    "Unable to find jobs matching user/id(s) specified"."""
    config = tmp_path / "pool.toml"
    text = (SAMPLE / "pool.toml").read_text(encoding="utf-8")
    config.write_text(text.replace("[priority]\n", '[priority]\noutput_compat = "22.05"\n'))
    state = tmp_path / "state.json"
    state.write_text('{"format": "fairshare-cli state", "schema_version": 1}')
    result = run("sprio", "-j", "9", "--jobs-file", str(SAMPLE / "jobs.json"), "--config",
                 str(config), "--state", str(state), "--now", NOW)  # fmt: skip
    assert (result.exit_code, result.stdout, result.stderr) == (0, UNABLE, "")


def test_a_priority_past_long_long_prints_as_the_x86_64_cast_gives_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """print.c prints PRIORITY as ``(long long)`` of the factors' double sum (22.05 and
    26.05). With ``NO_NORMAL_QOS`` and ``NO_NORMAL_PART`` the factors are the raw
    priorities times the weights: job 1's QOS 4294967293 x 4294967295 =
    18446744056529682435, past 2^63, which x86-64's cast turns into -9223372036854775808;
    job 2's PARTITION 65533 x 4294967295 = 281462091743235 plus AGE 62400 / 604800 x 1000
    = 103.17: 281462091743338. fs printed job 1's exact sum, 18447025518621...; ``-l``'s
    10-wide cells keep the first ten characters of each."""
    config = (
        SPRIO_POOL.replace(
            "[partitions.batch]\n", "[partitions.batch]\npriority_job_factor = 65533\n"
        )
        .replace("[qos.normal]\n", "[qos.high]\npriority = 4294967293\n[qos.normal]\n")
        .replace(
            'max_age = "7-0"\n', 'max_age = "7-0"\nflags = ["NO_NORMAL_QOS", "NO_NORMAL_PART"]\n'
        )
        .replace("age = 1000\n", "age = 1000\nqos = 4294967295\npartition = 4294967295\n")
    ) + SPRIO_ACCOUNTS
    jobs = [_job("1", "alice", 3600, qos="high"), _job("2", "bob", 62400)]
    files = sprio_files(tmp_path, jobs, config)
    result = run("sprio", "-o", "%.5i %.20Y", *files)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "JOBID             PRIORITY",
        "    1 -9223372036854775808",
        "    2      281462091743338",
    ]
    result = run("sprio", "-l", *files)
    assert [line.split()[4] for line in result.stdout.splitlines()[1:]] == [
        "-922337203",
        "2814620917",
    ]


def test_a_cell_counts_the_bytes_of_a_utf_8_name(tmp_path: Path, run: Callable[..., Any]) -> None:
    """print.c's ``_print_str`` fits a name with printf's ``%Ns`` (right-justified, then
    cut to N bytes) and ``%.Ns`` (cut to N bytes, then padded), counting bytes: "josé" (5
    bytes) in ``%.8u`` has 3 spaces before it, in ``%8u`` 3 after; "ééééé" (10 bytes) in
    ``%.8u`` keeps its first 8 bytes (four é), in ``%5u`` 5 (two é and a lone byte,
    written as it is). fs counted letters (4 spaces; "éééé" ... padded)."""
    config = CONFIG.replace("users = { alice = 1, bob = 1 }", 'users = { "josé" = 1, "ééééé" = 1 }')
    jobs = [_job("1", "josé", 600), _job("2", "ééééé", 700)]
    files = sprio_files(tmp_path, jobs, config)
    result = run("sprio", "-o", "%.1i|%.8u|%8u|", "-j", "1", *files)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[1] == "1|   josé|josé   |"
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"}
    line = [sys.executable, "-m", "fairshare_cli", "sprio", "-o", "%.1i|%.8u|%5u|", "-j", "2"]
    done = subprocess.run(
        [*line, *files], capture_output=True, env=env, cwd=REPO, timeout=60, check=False
    )
    e = "é".encode()
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.splitlines()[1] == b"2|" + e * 4 + b"|" + e * 2 + e[:1] + b"|"


def test_w_with_j_finding_nothing_prints_unable_to_find_jobs(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """sprio.c tests ``params.jobs`` against an empty answer before it prints anything,
    the weights row of ``-w`` too (print_jobs_array prints that row): with no job
    pending, ``sprio -w -j 5`` prints "Unable to find jobs matching user/id(s)
    specified" alone; under 22.05, whose slurmctld picked ``-j``'s jobs, so does ``-w -j
    99`` beside pending jobs. fs printed the header and the weights row."""
    result = run("sprio", "-w", "-j", "5", *_pool(tmp_path, []))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "Unable to find jobs matching user/id(s) specified\n"
    config = CONFIG.replace("[priority]\n", '[priority]\noutput_compat = "22.05"\n', 1)
    files = sprio_files(tmp_path, TWO_JOBS, config)
    result = run("sprio", "-w", "-j", "99", *files)
    assert result.stdout == "Unable to find jobs matching user/id(s) specified\n"
    assert (
        run("sprio", "-w", "-j", "1", *files).stdout.splitlines()[1].startswith("        Weights")
    )
