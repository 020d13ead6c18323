"""``fs sprio`` (``cli/sprio.py``): a queue in any order lists as the same queue in id
order, the state's queue as the same jobs in a file, a jobs file as the same jobs on
stdin, whole through a pipe or into a file; a reader that goes away ends it with exit 1
and nothing on stderr."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import bench_pool

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark's pool (``slurm_bench.make_pool``) at 300 jobs, a shuffled queue (one
    site factor at Slurm's most, 2147483645) and that queue in id order."""
    folder = bench_pool(tmp_path_factory.mktemp("sprio-pool"), 200, 300)
    jobs = json.loads((folder / "jobs.json").read_text())
    random.Random(3).shuffle(jobs)
    jobs[5]["site_factor"] = 2147483645
    (folder / "shuffled.json").write_text(json.dumps(jobs))
    (folder / "sorted.json").write_text(json.dumps(sorted(jobs, key=lambda j: int(j["id"]))))
    return folder


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark's pool at 4,000 jobs: a listing longer than a pipe holds."""
    return bench_pool(tmp_path_factory.mktemp("sprio-big"), 200, 4_000)


def _args(pool: Path, jobs_file: Path | str, options: list[str]) -> list[str]:
    return ["sprio", *options, "--config", str(pool / "pool.toml"), "--state",
            str(pool / "state.json"), "--jobs-file", str(jobs_file), "--now", NOW]  # fmt: skip


LISTINGS = [
    ["-l"],
    ["-l", "--json"],
    ["--json"],
    ["-l", "-n"],
    [],
    ["-l", "-h", "-v", "-S", "i"],
    ["-o", "%i|%.4Y %5A%%%c %.3a %20t %y %u %.30f %N"],
    ["-l", "-u", "u0_0_1,u1_2_3"],
    ["-l", "-p", "express"],
    ["--format", "no fields"],
    ["--output", "csv"],
    ["--output", "ndjson", "-l"],
]


@pytest.mark.parametrize("options", LISTINGS)
def test_a_queue_in_any_order_lists_as_in_id_order(
    pool: Path, options: list[str], run: Callable[..., Any]
) -> None:
    """sprio lists by job id (``-S i``): a shuffled queue prints the bytes of the same
    queue in id order."""
    common = ["--config", str(pool / "pool.toml"), "--state", str(pool / "state.json"),
              "--now", NOW]  # fmt: skip
    shuffled = run("sprio", *options, *common, "--jobs-file", str(pool / "shuffled.json"))
    ordered = run("sprio", *options, *common, "--jobs-file", str(pool / "sorted.json"))
    assert shuffled.exit_code == ordered.exit_code == 0, shuffled.stderr
    assert (shuffled.stdout, shuffled.stderr) == (ordered.stdout, ordered.stderr)
    assert shuffled.stdout.count("\n") > 1


def test_listing_pieces_are_written_as_click_echo_writes_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """ASCII pieces without an escape go straight to stdout; any other piece through
    ``click.echo`` (which strips ANSI codes off a terminal), in the order given."""
    from fairshare_cli.cli.sprio_format import write_lines

    write_lines(["a\n", "\x1b[1mb\x1b[0m\n", "c\n", "é\n", "d"], sys.stdout)
    assert capsys.readouterr().out == "a\nb\nc\né\nd"


@pytest.mark.parametrize("options", [["-l"], ["-l", "--json"], ["-l", "-S", "-Y"]])
def test_the_states_queue_prints_as_the_same_jobs_file(
    pool: Path, tmp_path: Path, options: list[str], run: Callable[..., Any]
) -> None:
    """The queue ``fs submit`` stores (read by the typed queue reader) prints the bytes the
    same jobs print from ``--jobs-file``."""
    state = tmp_path / "state.json"
    state.write_bytes((pool / "state.json").read_bytes())
    queue = pool / "shuffled.json"
    common = ["--config", str(pool / "pool.toml"), "--state", str(state), "--now", NOW]
    submitted = run("submit", "--file", str(queue), *common)
    assert submitted.exit_code == 0, submitted.stderr
    from_state = run("sprio", *options, *common)
    from_file = run("sprio", *options, *common, "--jobs-file", str(queue))
    assert from_state.exit_code == from_file.exit_code == 0, from_state.stderr
    assert from_state.stdout == from_file.stdout
    assert from_state.stdout.count("\n") > 2


@pytest.mark.parametrize("options", [["-l"], ["-l", "--json"]])
def test_fields_sprio_does_not_read_and_times_as_text_change_nothing(
    pool: Path, tmp_path: Path, options: list[str], run: Callable[..., Any]
) -> None:
    """The jobs reader hands sprio records of the fields it reads; a file with another
    field (an HTCondor ``requirements``, an ``eligible_time``) or a time written as text
    is read as whole job records instead, and prints the bytes of the same jobs without."""
    jobs = json.loads((pool / "sorted.json").read_text())
    jobs[1]["submit_time"] = 1795000000.0  # 2026-11-18T11:06:40Z
    variants = {"plain": jobs, "extra": [dict(job) for job in jobs],
                "text": [dict(job) for job in jobs]}  # fmt: skip
    variants["extra"][-1]["requirements"] = "true"
    variants["extra"][0]["eligible_time"] = variants["extra"][0]["submit_time"]
    variants["text"][1]["submit_time"] = "2026-11-18T11:06:40Z"
    outputs = set()
    for name, queue in variants.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(queue))
        done = run(*_args(pool, path, options))
        assert done.exit_code == 0, done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert outputs.pop().count("\n") > 2


def test_an_id_given_twice_is_named(pool: Path, tmp_path: Path, run: Any) -> None:
    jobs = json.loads((pool / "jobs.json").read_text())
    jobs[-1]["id"] = jobs[0]["id"]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs))
    done = run(*_args(pool, path, ["-l"]))
    assert done.exit_code == 2
    assert jobs[0]["id"] in done.stderr
    assert done.stdout == ""


def _long_queue(pool: Path, count: int) -> list[dict[str, Any]]:
    """The pool's queue repeated to ``count`` jobs (ids 1 ...): a file of several pieces
    for the jobs reader."""
    jobs = json.loads((pool / "sorted.json").read_text())
    return [{**jobs[i % len(jobs)], "id": str(i + 1)} for i in range(count)]


def test_a_fault_of_the_file_comes_before_a_job_the_tree_cannot_place(
    pool: Path, tmp_path: Path, run: Any
) -> None:
    """The rows are made as the file is read, a piece at a time: a job in its first piece
    that names an unknown account is named only once the whole file is read and found
    well formed; a malformed job further on is named instead, as the exact parser words
    it."""
    jobs = _long_queue(pool, 3000)
    jobs[0]["account"] = "nosuch"
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs))
    assert path.stat().st_size > 3 * 2**17  # (more than three pieces)
    unknown = run(*_args(pool, path, ["-l"]))
    assert (unknown.exit_code, unknown.stdout) == (2, "")
    assert unknown.stderr == f'fs: error: {path}: job 1: unknown account "nosuch"\n'
    jobs[2990]["nice"] = "x"
    path.write_text(json.dumps(jobs))
    malformed = run(*_args(pool, path, ["-l"]))
    assert (malformed.exit_code, malformed.stdout) == (2, "")
    want = f"fs: error: {path}: job 2991: nice: expected a whole number, got 'x'\n"
    assert malformed.stderr == want


def test_a_fault_of_the_file_comes_before_one_of_the_state(
    pool: Path, tmp_path: Path, run: Any
) -> None:
    """The jobs file is read before the state's Slurm usage is: with both at fault, the
    file is named; with the file sound, the state."""
    state = json.loads((pool / "state.json").read_text())
    state["slurm"]["usage"] = {"g0a0": {"u0_0_0": -1}}
    bad_state = tmp_path / "state.json"
    bad_state.write_text(json.dumps(state))
    jobs = _long_queue(pool, 10)
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs))
    args = ["sprio", "-l", "--config", str(pool / "pool.toml"), "--state", str(bad_state),
            "--jobs-file", str(path), "--now", NOW]  # fmt: skip
    state_fault = run(*args)
    assert state_fault.exit_code == 2
    assert f"{bad_state}: " in state_fault.stderr and "slurm.usage" in state_fault.stderr
    jobs[3]["nice"] = "x"
    path.write_text(json.dumps(jobs))
    file_fault = run(*args)
    assert file_fault.exit_code == 2
    assert (
        file_fault.stderr == f"fs: error: {path}: job 4: nice: expected a whole number, got 'x'\n"
    )


def _fs(*args: str, stdin: Any = None, stdout: Any = subprocess.PIPE) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "fairshare_cli", *args],
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        check=False,
        cwd=REPO,
    )


@pytest.mark.parametrize("options", [["-l"], ["-l", "--json"]])
def test_the_program_prints_a_files_listing_as_from_stdin(big: Path, options: list[str]) -> None:
    """End to end, through a pipe: the file and the same jobs on stdin print the same
    bytes, and nothing on stderr."""
    args = _args(big, big / "jobs.json", options)
    whole = _fs(*args)
    with (big / "jobs.json").open("rb") as fh:
        piped = _fs(*_args(big, "-", options), stdin=fh)
    assert whole.returncode == piped.returncode == 0, whole.stderr
    assert whole.stdout == piped.stdout
    assert whole.stderr == piped.stderr == b""
    assert whole.stdout.count(b"\n") > 4_000


def test_a_reader_that_goes_away_ends_it_quietly(big: Path) -> None:
    """``fs sprio -l ... | head -1``: exit 0 (the view's code: it was 1 when the listing
    outgrew the pipe before the reader left, 0 when it fitted), nothing on stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "fairshare_cli", *_args(big, big / "jobs.json", ["-l"])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert err == b""


def test_output_to_a_file_is_the_whole_listing(big: Path, tmp_path: Path) -> None:
    args = _args(big, big / "jobs.json", ["-l"])
    target = tmp_path / "listing.txt"
    with target.open("wb") as fh:
        done = _fs(*args, stdout=fh)
    assert done.returncode == 0, done.stderr
    assert target.read_bytes() == _fs(*args).stdout


def test_format_without_a_valid_field_is_refused(tmp_path: Path) -> None:
    """``fs sprio -o '%Z'`` on the sample pool: exit 2, one line, nothing on stdout."""
    import shutil

    from click.testing import CliRunner

    from fairshare_cli.cli.main import cli

    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    args = ["sprio", "-o", "%Z", "--config", str(REPO / "sample_configs" / "pool.toml")]
    result = CliRunner().invoke(cli, [*args, "--state", str(state), "--now", NOW])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "fs: error: Invalid job format specification: Z (-o has no valid field)\n"
    )


def test_jobs_that_are_not_slurm_jobs_are_named_under_the_listing(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs init, fs submit --owner dave (no association, no account, partition nor QOS:
    an HTCondor job to fs), then fs sprio: the job was left out in silence, as if the
    submission had been lost. A note on stderr now names it; stdout is sprio's."""
    config = tmp_path / "fairshare.toml"
    assert run("init", str(config)).exit_code == 0
    line = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    for owner in ("alice", "dave"):
        assert run("submit", "--owner", owner, *line).exit_code == 0
    result = run("sprio", *line)
    assert result.exit_code == 0, result.stderr
    assert [row.split()[0] for row in result.stdout.splitlines()] == ["JOBID", "1"]
    assert result.stderr == (
        "fs: note: not listed: job 2, not a Slurm job: its owner has no association and it "
        "names no account, partition or QOS ('fs negotiate --dry-run' shows it)\n"
    )
    assert run("sprio", *line, "--json").stderr == ""  # (scripts read stdout alone)
    for asked in (["-w"], ["-u", "alice"], ["-j", "1"], ["-p", "batch"]):  # (not asked for)
        assert run("sprio", *asked, *line).stderr == "", asked


def test_format_fields_split_as_strtok_splits_them(tmp_path: Path, run: Callable[..., Any]) -> None:
    """sprio's ``parse_format`` splits ``-o`` at each ``%`` with ``strtok_r``, which skips
    empty fields (22.05 and today alike): ``%%.5i%%%.6u%`` is ``%.5i%.6u`` (JOBID right in
    5, USER right in 6), and ``-o %`` names no field: an empty line for the header and
    each job. fs took the second ``%`` of ``%%`` for a field letter and a last ``%`` for a
    field without one: ``Invalid job format specification`` on stderr, and ``-o %`` was
    refused (exit 2)."""
    import shutil

    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    common = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    res = run("submit", "--owner", "alice", "--account", "hep", *common, "--now", NOW)
    assert res.exit_code == 0, res.stderr
    res = run("sprio", "-o", "%%.5i%%%.6u%", *common, "--now", NOW)
    assert (res.exit_code, res.stderr) == (0, "")
    assert res.stdout == "JOBID  USER\n    1 alice\n"
    res = run("sprio", "-o", "%", *common, "--now", NOW)
    assert (res.exit_code, res.stdout, res.stderr) == (0, "\n\n", "")


def test_letters_sprio_22_05_did_not_know(tmp_path: Path, run: Callable[..., Any]) -> None:
    """Slurm 22.05's sprio had no ``%n`` (QOSNAME) or ``%o`` (ACCOUNT), which came in
    24.05, nor ``%s`` (SLUID, 26.05): with ``output_compat = "22.05"`` each is an invalid
    field, named on stderr and left out with what follows it up to the next ``%`` (opts.c
    keeps a field's suffix with it), as 22.05's ``parse_format`` does. Before: listed as
    today's sprio lists them."""
    import shutil

    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    text = (REPO / "sample_configs" / "pool.toml").read_text()
    old = tmp_path / "pool22.toml"
    old.write_text(text.replace("[priority]\n", '[priority]\noutput_compat = "22.05"\n', 1))
    common = ["--state", str(state), "--now", NOW]
    res = run("submit", "--owner", "alice", "--account", "hep", "--config", str(old), *common)
    assert res.exit_code == 0, res.stderr
    spec = "%i|%n|%o|%s|%c"
    res = run("sprio", "-o", spec, "--config", str(old), *common)
    assert (res.exit_code, res.stdout) == (0, "JOBID|CLUSTER\n1|(null)\n")
    assert res.stderr.splitlines() == [
        f"fs: error: Invalid job format specification: {letter}" for letter in "nos"
    ]
    res = run("sprio", "-o", spec, "--config", str(REPO / "sample_configs" / "pool.toml"), *common)
    assert (res.exit_code, res.stderr) == (0, "")
    assert res.stdout == "JOBID|QOSNAME|ACCOUNT|SLUID|CLUSTER\n1|normal|hep||(null)\n"


def test_sort_letters_sprio_22_05_did_not_know(tmp_path: Path, run: Callable[..., Any]) -> None:
    """22.05's ``sort_job_list`` had no ``n`` (QOS name) or ``o`` (account) key: with
    ``output_compat = "22.05"`` ``-S n`` is ``Invalid sort specification: n`` (exit 2,
    fs's code for bad input; sprio exits 1). Today's sorts by them: heidi's jobs (QOS
    high) before alice's (normal). Before: 22.05 sorted by them too."""
    import shutil

    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    pool = REPO / "sample_configs" / "pool.toml"
    old = tmp_path / "pool22.toml"
    old.write_text(
        pool.read_text().replace("[priority]\n", '[priority]\noutput_compat = "22.05"\n', 1)
    )
    common = ["--state", str(state), "--now", NOW]
    for owner, more in (("alice", []), ("heidi", ["--qos", "high"])):
        res = run("submit", "--owner", owner, "--account", "hep" if owner == "alice" else "chemistry",
                  *more, "--config", str(pool), *common)  # fmt: skip
        assert res.exit_code == 0, res.stderr
    for letter in "no":
        res = run("sprio", "-S", letter, "--config", str(old), *common)
        # (the header first: print_jobs_array prints it before sort_job_list reads -S)
        header = run("sprio", "--config", str(old), *common).stdout.splitlines(True)[0]
        assert (res.exit_code, res.stdout) == (2, header)
        assert res.stderr == f"fs: error: Invalid sort specification: {letter}\n"
    res = run("sprio", "-S", "n", "-o", "%i %n", "--config", str(pool), *common)
    assert (res.exit_code, res.stdout) == (0, "JOBID QOSNAME\n2 high\n1 normal\n")
