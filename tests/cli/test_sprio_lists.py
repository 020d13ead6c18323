"""``fs sprio -j/-u/-p`` read as sprio's ``src/sprio/opts.c`` reads its lists (22.05 and
today): items cut with ``strtok_r(",")`` (empty items skipped), job ids checked by
``unfmt_job_id_string`` (today) or ``slurm_xlate_job_id`` (22.05), users by
``uid_from_string``, partitions not checked; a list given filters even when it names
nothing (``filter.c``'s ``_filter_job``; 22.05's slurmctld alike). Every expected line is
worked out by hand from those functions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from fairshare_cli.cli.sprio_lists import job_keys
from fairshare_cli.errors import InputError
from tests.cli.conftest import SPRIO_ACCOUNTS, SPRIO_POOL, sprio_files

NOW_EPOCH = 1795262400
JOBS = [
    {"id": "2", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH - 600},
    {"id": "3", "owner": "bob", "account": "hep", "submit_time": NOW_EPOCH - 600},
    {"id": "5.0", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH - 600},
    {"id": "5.1", "owner": "alice", "account": "hep", "submit_time": NOW_EPOCH - 600},
]
FORMAT = ["-o", "%.5i %9r %.8u"]
HEADER = "JOBID PARTITION     USER"
UNABLE = "Unable to find jobs matching user/id(s) specified\n"


def _rows(*pairs: tuple[str, str]) -> str:
    return "".join(f"{job:>5} batch     {user:>8}\n" for job, user in pairs)


ALL = _rows(("2", "alice"), ("3", "bob"), ("5.0", "alice"), ("5.1", "alice"))


def _options(tmp_path: Path, compat: str | None = None) -> list[str]:
    config = SPRIO_POOL + SPRIO_ACCOUNTS
    if compat is not None:
        config = config.replace("[priority]\n", f'[priority]\noutput_compat = "{compat}"\n')
    return sprio_files(tmp_path, JOBS, config)


@pytest.mark.parametrize(
    ("args", "rows"),
    [
        # strtok_r skips the empty item between the commas
        pytest.param(["-j", "2,,3"], _rows(("2", "alice"), ("3", "bob")), id="jobs-2,,3"),
        # an empty list is a list: filter.c deletes every job not in it
        pytest.param(["-j", ""], "", id="jobs-empty"),
        pytest.param(["-j", ","], "", id="jobs-comma"),
        # a cluster's jobs by its number; one of them by its own id
        pytest.param(["-j", "5"], _rows(("5.0", "alice"), ("5.1", "alice")), id="jobs-cluster"),
        pytest.param(["-j", "5.1"], _rows(("5.1", "alice")), id="jobs-cluster-job"),
        # unfmt_job_id_string: "2.0" is job 2, step 0; "2.batch" job 2, step batch;
        # " 3" is 3 (strtol skips the blank); "2+1" is het job 2's component 1: job 3
        pytest.param(["-j", "2.0"], _rows(("2", "alice")), id="jobs-step"),
        pytest.param(["-j", "2.batch"], _rows(("2", "alice")), id="jobs-step-name"),
        pytest.param(["-j", " 3"], _rows(("3", "bob")), id="jobs-blank-before"),
        pytest.param(["-j", "2+1"], _rows(("3", "bob")), id="jobs-het-offset"),
        # an array task is its array's job (the filter compares job ids alone)
        pytest.param(["-j", "3_7"], _rows(("3", "bob")), id="jobs-array-task"),
        # as getopt leaves it, the last -j wins (opts.c frees the first list); a list is
        # -j's only when attached (getopt's "j::"), a list after a bare -j the argument left
        pytest.param(["-j2", "-j3"], _rows(("3", "bob")), id="jobs-last-wins"),
        pytest.param(["-j2", "-j", "3"], _rows(("3", "bob")), id="jobs-argument-wins"),
        # -j takes an optional list (getopt's "j::"): alone it lists every job, and after
        # a list it keeps it (opts.c sets the list only when optarg is given)
        pytest.param(["-j"], ALL, id="jobs-bare"),
        pytest.param(["-j", "3", "-j"], _rows(("3", "bob")), id="jobs-bare-keeps-the-list"),
        pytest.param(["-u", "alice,,bob"], ALL, id="users-a,,b"),
        pytest.param(["-u", ""], "", id="users-empty"),
        pytest.param(["-p", "nosuch"], "", id="partition-nosuch"),
        pytest.param(["-p", ""], "", id="partition-empty"),
        pytest.param(["-p", "nosuch,,batch"], ALL, id="partition-nosuch,,batch"),
    ],
)
def test_lists_are_cut_and_filter_as_sprio_cuts_them(
    tmp_path: Path, run: Callable[..., Any], args: list[str], rows: str
) -> None:
    result = run("sprio", *FORMAT, *args, *_options(tmp_path))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == f"{HEADER}\n{rows}"


@pytest.mark.parametrize(
    "job_id",
    [
        "x",  # strtol reads 0: ESLURM_INVALID_JOB_ID_ZERO
        "0",
        "-5",  # ESLURM_INVALID_JOB_ID_NEGATIVE
        "2 ",  # a blank after the number: not a step's "."
        "99999999999",  # at least MAX_FED_JOB_ID (0xfffffffd)
        "4294967293",
        "2.x",  # a step neither numbered nor named
        "14_",  # ESLURM_EMPTY_JOB_ARRAY_ID
        "14_[1-3]",  # an array expression: sprio passes max_array_size NO_VAL
        "2+129",  # above MAX_HET_JOB_COMPONENTS
        "sfoo",  # not a SLUID (13 Crockford letters after the s)
    ],
)
def test_a_job_id_sprio_refuses_is_refused_on_one_line(
    tmp_path: Path, run: Callable[..., Any], job_id: str
) -> None:
    """sprio prints ``sprio: error: Invalid job id: x`` and exits 1 before it asks
    slurmctld for anything; fs says the same on one line and exits 2 (bad input)."""
    result = run("sprio", "-j", f"2,{job_id}", *_options(tmp_path))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: Invalid job id: {job_id}\n"


def test_sprio_j_2_x_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs sprio -j 2,x`` listed job 2 and dropped ``x`` unsaid; sprio refuses the list."""
    result = run("sprio", "-j", "2,x", *_options(tmp_path))
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        "fs: error: Invalid job id: x\n",
    )


def test_a_user_unknown_is_named_and_left_out(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``_build_user_list`` prints ``sprio: error: Invalid user: nosuch`` (and a blank
    line: the message ends in its own newline) for a name the system does not know, and
    lists the others; to fs a user is known by an association or a pending job. The
    command goes on, so fs says it as a warning (an ``fs: error:`` line ends a command:
    docs/exit-codes.md)."""
    result = run("sprio", *FORMAT, "-u", "nosuch,bob", *_options(tmp_path))
    assert (result.exit_code, result.stderr) == (0, "fs: warning: Invalid user: nosuch\n")
    assert result.stdout == f"{HEADER}\n" + _rows(("3", "bob"))
    alone = run("sprio", *FORMAT, "-u", "nosuch", *_options(tmp_path))
    assert (alone.exit_code, alone.stdout) == (0, f"{HEADER}\n")  # an empty list: no row


def test_users_given_add_the_user_column_whatever_they_name(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """sprio.c adds ``%.8u`` to its default format when ``-u`` is given (``params.users``
    set, even to ""), and the empty list it makes leaves no row."""
    result = run("sprio", "-u", "", *_options(tmp_path))
    assert (result.exit_code, result.stdout) == (
        0,
        "          JOBID PARTITION     USER   PRIORITY       SITE        AGE\n",
    )


def test_2205_reads_job_ids_as_slurm_xlate_job_id(tmp_path: Path, run: Callable[..., Any]) -> None:
    """22.05's ``slurm_xlate_job_id`` casts strtol's ``long`` to ``uint32_t`` and opts.c
    keeps it in an ``int`` that must be positive: 99999999999 is job 99999999999 -
    23 x 2^32 = 1215752191, none here, and slurmctld's empty answer to ``-j`` is "Unable
    to find"; 4294967292 is -4 as an ``int``, refused; so is "2.batch" (a step)."""
    options = _options(tmp_path, "22.05")
    result = run("sprio", "-j", "99999999999", *options)
    assert (result.exit_code, result.stdout, result.stderr) == (0, UNABLE, "")
    empty = run("sprio", "-j", "", *options)  # an empty list packed: every job filtered
    assert (empty.exit_code, empty.stdout) == (0, UNABLE)
    for job_id in ("4294967292", "2.batch"):
        refused = run("sprio", "-j", job_id, *options)
        assert (refused.exit_code, refused.stderr) == (2, f"fs: error: Invalid job id: {job_id}\n")


@pytest.mark.parametrize(
    ("text", "compat", "keys"),
    [
        pytest.param("2,,3", "current", ["2", "3"], id="empty-item"),
        pytest.param("", "current", [], id="empty"),
        pytest.param("+2", "current", ["2"], id="sign"),
        pytest.param("4294967292", "current", ["4294967292"], id="below-max-fed"),
        pytest.param("2.0+1", "current", ["2.0"], id="step-het-component"),
        # a SLUID: its value (str2sluid: 5 bits a letter, the last the lowest)
        pytest.param("s0123456789ABC", "current", [38390726480144748], id="sluid"),
        pytest.param("s0123456789abc.batch", "current", [38390726480144748], id="sluid-step"),
        pytest.param("99999999999", "22.05", ["1215752191"], id="2205-wraps"),
        pytest.param("2+129", "22.05", ["131"], id="2205-het-unchecked"),
        pytest.param("12+", "22.05", ["12"], id="2205-het-empty-is-0"),
        pytest.param("-4294967291", "22.05", ["5"], id="2205-negative-wraps"),
    ],
)
def test_job_keys(text: str, compat: str, keys: list[str | int]) -> None:
    assert job_keys(text, compat) == keys


def test_job_keys_refuse_2205_step_names() -> None:
    with pytest.raises(InputError, match=r"^Invalid job id: 2\.batch$"):
        job_keys("2.batch", "22.05")


def test_a_bare_j_sets_job_flag_alone(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``sprio -v -j``: ``_print_options`` prints ``job_flag = 1`` and ``jobs = (null)``
    (no list: ``params.jobs`` unset), and with no job pending the header alone, not
    "Unable to find jobs" (sprio.c prints that only when ``params.jobs`` is set)."""
    result = run("sprio", "-v", "-j", *FORMAT, *_options(tmp_path))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:4] == [
        "-" * 29,
        f"format     = {FORMAT[1]}",
        "job_flag   = 1",
        "jobs       = (null)",
    ]
    options = sprio_files(tmp_path, [], SPRIO_POOL + SPRIO_ACCOUNTS)
    empty = run("sprio", "-j", *FORMAT, *options)
    assert (empty.exit_code, empty.stdout) == (0, f"{HEADER}\n")


def test_whatif_names_an_unknown_user_once(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs whatif ... sprio -u`` lists twice (before and after) and says once what sprio
    says once: ``Invalid user: nosuch``."""
    options = _options(tmp_path)
    result = run("whatif", "--set", "priority.weights.age=2000", "sprio", "-u", "nosuch,bob",
                 *options)  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "fs: warning: Invalid user: nosuch\n")


def test_a_job_id_of_thousands_of_digits_is_read_as_strtol_reads_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs sprio -j 2222...`` (4,301 digits, past Python's limit for reading a number)
    ended in a ValueError traceback, exit 1. strtol clamps a number beyond ``long`` to
    LONG_MAX (>= MAX_FED_JOB_ID: refused), and leading zeros are only zeros: 65,535 of them
    before a 2 name job 2 (a 64 KB ``-j``)."""
    big = "2" * 4301
    result = run("sprio", "-j", big, *_options(tmp_path))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: Invalid job id: {big[:80]}...\n"  # (its first 80)
    zeros = run("sprio", *FORMAT, "-j", "0" * 65535 + "2", *_options(tmp_path))
    assert (zeros.exit_code, zeros.stderr) == (0, "")
    assert zeros.stdout == f"{HEADER}\n" + _rows(("2", "alice"))
    # 22.05: LONG_MAX as a uint32_t is 4294967295, -1 as an int: refused
    old = run("sprio", "-j", big, *_options(tmp_path, "22.05"))
    assert (old.exit_code, old.stderr) == (2, f"fs: error: Invalid job id: {big[:80]}...\n")


def test_ids_and_users_are_named_escaped_and_cut(tmp_path: Path) -> None:
    """``fs sprio -j $'\\e[2J'`` and ``-u $'\\e[2J'`` wrote the escape in their one line
    as it came (a terminal clears its screen), and a 10,000-character user whole; fs shows
    names escaped and their first 80 characters, as its other messages do."""
    options = _options(tmp_path)
    job = CliRunner().invoke(cli, ["sprio", "-j", "\x1b[2J", *options], color=True)
    assert (job.exit_code, job.stderr) == (2, "fs: error: Invalid job id: \\x1b[2J\n")
    users = ["sprio", *FORMAT, "-u", f"\x1b[2J,{'u' * 10000}", *options]
    user = CliRunner().invoke(cli, users, color=True)
    assert (user.exit_code, user.stdout) == (0, f"{HEADER}\n")
    assert user.stderr == (
        f"fs: warning: Invalid user: \\x1b[2J\nfs: warning: Invalid user: {'u' * 80}...\n"
    )


def _block(jobs: str, users: str, verbose: int, listed: list[int]) -> list[str]:
    return [
        "-" * 29, f"format     = {FORMAT[1]}", "job_flag   = 1", f"jobs       = {jobs}",
        "partition  = (null)", f"users      = {users}", f"verbose    = {verbose}",
        *(f"job_list[{i}] = {n}" for i, n in enumerate(listed)), "-" * 29, "", "",
    ]  # fmt: skip


# SLUIDs, as str2sluid reads them: 13 letters of 5 bits, the last the lowest. "...AZ" is
# A=10 then Z=31: 10*32 + 31 = 351; a 1 seventh of the 13 sits at bit 5*6 = 30: 2**30 =
# 1073741824; one letter further up, bit 35, out of the low word: 0; thirteen Z's set
# every bit: 4294967295.
SLUIDS = "s00000000000AZ,s0000001000000,s0000010000000,sZZZZZZZZZZZZZ"


@pytest.mark.parametrize(
    ("compat", "jobs", "listed"),
    [
        # Slurm 25.11 on: each item a slurm_step_id_t whose first field is the 64-bit SLUID,
        # which _print_options reads as a uint32_t: its low word, 0 for an id by number
        pytest.param(None, "2,3+1", [0, 0], id="by-number"),
        pytest.param(None, SLUIDS, [351, 1073741824, 0, 4294967295], id="sluids"),
        # 22.05: each item the uint32_t of slurm_xlate_job_id: 99999999999 mod 2**32 =
        # 1215752191; 3+1 is 3 + its component's offset 1
        pytest.param("22.05", "2,99999999999,3+1", [2, 1215752191, 4], id="2205"),
    ],
)
def test_vv_prints_the_job_list_as_print_options_prints_it(
    tmp_path: Path, run: Callable[..., Any], compat: str | None, jobs: str, listed: list[int]
) -> None:
    """``sprio -vv``: ``_print_options`` adds ``job_list[i] = %u`` for each ``-j`` item, and
    ``user_list[i] = %u`` for each uid ``-u`` found in the host's passwd, which fs does not
    read (docs/slurm.md): left out. ``-v`` alone prints no list."""
    options = _options(tmp_path, compat)
    result = run("sprio", "-vv", "-j", jobs, "-u", "alice", *FORMAT, *options)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split("\n")[:-1][: len(listed) + 10] == _block(jobs, "alice", 2, listed)
    once = run("sprio", "-v", "-j", jobs, *FORMAT, *options)
    assert once.stdout.split("\n")[:10] == _block(jobs, "(null)", 1, [])


def test_v_prints_its_block_before_unable_to_find_jobs(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """opts.c prints ``-v``'s block while it reads the options, before sprio asks for the
    jobs: 22.05's "Unable to find jobs" for a ``-j`` naming none comes after it (fs
    printed the line alone), and a bad format field is named before it too."""
    options = _options(tmp_path, "22.05")
    result = run("sprio", "-v", "-j", "7", "-o", "%.5i %z", *options)
    assert result.exit_code == 0, result.stderr
    block = _block("7", "(null)", 1, [])
    block[1] = "format     = %.5i %z"
    assert result.stdout == "\n".join(block) + "\n" + UNABLE
    assert result.stderr == "fs: error: Invalid job format specification: z\n"
