"""``fs submit --id``: the ids a scheduler hands out, and one cluster per submission
(cli/jobs_cmd.py, core/operations/queue.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import REPO

NOW = "2026-11-21T12:00:00Z"
FORMS = (
    "expected a whole number from 1 (a Slurm or DIRAC job id, or an HTCondor cluster) or"
    " CLUSTER.PROC (HTCondor's 12.0), in digits without leading zeros"
)


def _run(tmp_path: Path, line: str) -> tuple[int, str, str]:
    state = tmp_path / "state.json"
    common = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    result = CliRunner().invoke(cli, [*line.split(), *common, "--now", NOW])
    return result.exit_code, result.stdout, result.stderr


def _ids(tmp_path: Path) -> list[str]:
    state = tmp_path / "state.json"
    return [job["id"] for job in json.loads(state.read_text(encoding="utf-8"))["jobs"]]


def test_a_proc_beside_a_queued_slurm_job_is_refused(tmp_path: Path) -> None:
    """``fs submit --id 8.3`` beside a job ``8``: condor_submit gives each submission a
    cluster of its own (and Slurm each job a number of its own), so no submission joins
    cluster 8; taken, ``fs rm 8`` removed both. Refused, nothing written; the next free
    cluster is 8 + 1 = 9."""
    assert _run(tmp_path, "submit --id 8 --owner alice")[:2] == (
        0,
        "Submitted 1 job as cluster 8\n",
    )
    state = tmp_path / "state.json"
    before = state.read_bytes()
    code, out, err = _run(tmp_path, "submit --id 8.3 --owner bob")
    assert (code, out) == (2, "")
    assert err == (
        f"fs: error: fs submit: job 8.3: cluster 8 is already in the queue of {state} (job 8),"
        " and fs rm 8 or fs prio 8 would act on both; a submission is a cluster of its own:"
        " give another id (the next free is 9)\n"
    )
    assert state.read_bytes() == before
    assert _run(tmp_path, "rm 8")[:2] == (0, "Removed 1 job: 8\n")


def test_a_cluster_beside_its_procs_is_refused(tmp_path: Path) -> None:
    """``fs submit --id 12`` beside ``12.0 12.1`` (``--count 2``): the same cluster; the
    next free is 12 + 1 = 13."""
    assert _run(tmp_path, "submit --id 12 --count 2 --owner alice")[0] == 0
    code, _, err = _run(tmp_path, "submit --id 12 --owner bob --account hep")
    assert code == 2
    assert "fs submit: job 12: cluster 12 is already in the queue" in err
    assert err.endswith("(job 12.0), and fs rm 12 or fs prio 12 would act on both; a submission"
                        " is a cluster of its own: give another id (the next free is 13)\n")  # fmt: skip
    assert _ids(tmp_path) == ["12.0", "12.1"]


@pytest.mark.parametrize(
    "given",
    [
        pytest.param("abc", id="letters"),
        pytest.param("8.x", id="proc-letters"),
        pytest.param("0", id="cluster-zero"),
        pytest.param("08", id="leading-zero"),
        pytest.param("8.03", id="proc-leading-zero"),
        pytest.param("8.3.1", id="two-dots"),
        pytest.param("-1", id="negative"),
        pytest.param("8.", id="empty-proc"),
        pytest.param("\N{SUPERSCRIPT TWO}", id="non-ascii-digit"),
    ],
)
def test_an_id_no_scheduler_hands_out_is_refused(tmp_path: Path, given: str) -> None:
    """HTCondor ids are CLUSTER.PROC (cluster from 1, proc from 0), Slurm's and DIRAC's
    one whole number from 1: ``fs submit --id abc`` is refused in one line, exit 2."""
    code, out, err = _run(tmp_path, f"submit --owner alice --id={given}")
    assert (code, out) == (2, "")
    assert err == f'fs: error: fs submit: job id "{given}": {FORMS}\n'
    assert not (tmp_path / "state.json").exists()


def test_a_set_id_follows_the_same_rule(tmp_path: Path) -> None:
    """``fs submit --set id=abc`` is the id option by another name."""
    code, _, err = _run(tmp_path, "submit --owner alice --set id=abc")
    assert (code, err) == (2, f'fs: error: fs submit: job id "abc": {FORMS}\n')


def test_a_proc_with_count_is_refused(tmp_path: Path) -> None:
    """``--id 12.3 --count 2`` made 12.0 and 12.1, the .3 dropped: a cluster's jobs are
    numbered from 0, so the id must be the cluster."""
    code, _, err = _run(tmp_path, "submit --id 12.3 --count 2 --owner alice")
    assert code == 2
    assert err == (
        "fs: error: fs submit: job id 12.3 with --count 2: the 2 jobs are numbered 12.0 ..."
        " 12.1, as condor_submit numbers a cluster's; give the cluster alone (--id 12)\n"
    )


def test_ids_schedulers_hand_out_are_taken(tmp_path: Path) -> None:
    """A Slurm/DIRAC number, an HTCondor cluster.proc in another cluster, proc 0."""
    for line in ("--id 7 --account hep", "--id 8.3", "--id 9.0", "--id 10 --count 2"):
        assert _run(tmp_path, f"submit --owner alice {line}")[0] == 0
    assert _ids(tmp_path) == ["7", "8.3", "9.0", "10.0", "10.1"]


@pytest.mark.parametrize(
    "given",
    [
        pytest.param("abc", id="letters"),
        pytest.param("08", id="leading-zero"),
        pytest.param("8.03", id="proc-leading-zero"),
        pytest.param("0", id="cluster-zero"),
        pytest.param("8.3.1", id="two-dots"),
    ],
)
def test_a_file_id_no_scheduler_hands_out_is_refused(tmp_path: Path, given: str) -> None:
    """``fs submit --file jobs.json`` holds its ids to ``--id``'s forms: a job ``08``
    queued beside none is one ``fs rm 8`` never finds. The second object is named by its
    place (counting from 1, as the jobs reader names an object); nothing is written."""
    jobs = tmp_path / "jobs.json"
    objects = [{"id": "5", "owner": "alice"}, {"id": given, "owner": "bob"}]
    jobs.write_text(json.dumps(objects), encoding="utf-8")
    code, out, err = _run(tmp_path, f"submit --file {jobs}")
    assert (code, out) == (2, "")
    assert err == f'fs: error: {jobs}: job object 2 (counting from 1): job id "{given}": {FORMS}\n'
    assert not (tmp_path / "state.json").exists()


def test_a_file_cluster_with_count_is_taken(tmp_path: Path) -> None:
    """A jobs file's ``"id": "101.0", "count": 2`` is cluster 101's jobs 101.0 and 101.1
    (docs/jobs.md; the sample jobs file's form), a proc id the form check takes."""
    jobs = tmp_path / "jobs.json"
    objects = [{"id": "101.0", "owner": "alice", "count": 2}, {"id": "7", "owner": "bob"}]
    jobs.write_text(json.dumps(objects), encoding="utf-8")
    assert _run(tmp_path, f"submit --file {jobs}")[0] == 0
    assert _ids(tmp_path) == ["101.0", "101.1", "7"]


def test_cluster_dot_zero_of_a_job_submitted_alone_names_its_id(tmp_path: Path) -> None:
    """fs submit --owner dan, then fs rm 1.0 (condor_q's name for cluster 1's one job):
    said only 'no job "1.0" in the queue'; it names the id the job has. fs prio too."""
    assert _run(tmp_path, "submit --owner dan")[:2] == (0, "Submitted 1 job as cluster 1\n")
    before = (tmp_path / "state.json").read_bytes()
    for line in ("rm 1.0", "prio 1.0 3"):
        code, out, err = _run(tmp_path, line)
        assert (code, out) == (2, "")
        assert err == 'fs: error: no job "1.0" in the queue; the queue has job 1: give 1\n'
    assert _run(tmp_path, "rm 1.1")[2] == 'fs: error: no job "1.1" in the queue\n'
    assert (tmp_path / "state.json").read_bytes() == before


#: How the jobs reader refuses an id written as a number with a dot.
DOT = (
    'expected a string or a whole number, got {}: write an id with a dot as text ("12.0"); '
    "as a number it loses digits (5.10 reads 5.1)"
)


@pytest.mark.parametrize(
    ("written", "shown"), [("NaN", "nan"), ("1e308", "1e+308"), ("5.10", "5.1"), ("12.0", "12.0")]
)
def test_a_file_id_of_a_number_with_a_dot_is_refused(
    tmp_path: Path, written: str, shown: str
) -> None:
    """``fs submit --file jobs.json`` of ``{"id": NaN}`` submitted cluster ``nan``, of
    ``1e308`` cluster ``1e+308``, and of ``5.10`` job ``5.1`` (job 1 of cluster 5, where
    the file meant job 10)."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(f'[{{"id": {written}, "owner": "alice"}}]', encoding="utf-8")
    code, out, err = _run(tmp_path, f"submit --file {jobs}")
    assert (code, out) == (2, "")
    assert err == f"fs: error: {jobs}: job object 1 (counting from 1): id: {DOT.format(shown)}\n"
    assert not (tmp_path / "state.json").exists()


def test_a_workload_id_of_a_number_with_a_dot_is_refused(tmp_path: Path) -> None:
    """``fs simulate --workload`` of ``{"id": NaN}`` simulated a job ``nan``."""
    jobs = tmp_path / "work.json"
    jobs.write_text('[{"id": NaN, "owner": "alice"}]', encoding="utf-8")
    code, out, err = _run(tmp_path, f"simulate --workload {jobs} --until 1:00:00")
    assert (code, out) == (2, "")
    assert err == f"fs: error: {jobs}: job object 1 (counting from 1): id: {DOT.format('nan')}\n"


@pytest.mark.parametrize(
    ("objects", "said"),
    [
        pytest.param([{"id": "5"}, {"id": "5.0"}], "jobs 5 and 5.0", id="job-then-proc"),
        pytest.param([{"id": "5.1"}, {"id": "5"}], "jobs 5.1 and 5", id="proc-then-job"),
        pytest.param([{"id": "5", "count": 2}, {"id": "5"}], "jobs 5.0 and 5", id="count"),
    ],
)
def test_a_file_job_beside_a_proc_of_its_cluster_is_refused(
    tmp_path: Path, objects: list[dict[str, object]], said: str
) -> None:
    """``fs submit --file jobs.json`` of a job ``5`` and a job ``5.0`` (or ``5.1``, or
    ``5`` with ``count``) queued both, and ``fs rm 5`` removed both: the pair the queue
    refuses (``--id 5.0`` beside a queued ``5``) came in by one file. Refused, naming both
    objects; nothing written."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([{**o, "owner": "alice"} for o in objects]), encoding="utf-8")
    code, out, err = _run(tmp_path, f"submit --file {jobs}")
    assert (code, out) == (2, "")
    assert err == (
        f"fs: error: {jobs}: job objects 1 and 2 (counting from 1) give {said} of one cluster"
        " 5, and fs rm 5 or fs prio 5 would act on both; give each job its own cluster, or"
        " each its proc (5.0, 5.1, ...)\n"
    )
    assert not (tmp_path / "state.json").exists()


def test_a_file_of_one_clusters_procs_is_taken(tmp_path: Path) -> None:
    """Jobs ``5.0`` and ``5.1`` in one file are one cluster's jobs, as condor_q lists them."""
    jobs = tmp_path / "jobs.json"
    objects = [{"id": "5.0", "owner": "alice"}, {"id": "5.1", "owner": "alice"}]
    jobs.write_text(json.dumps(objects), encoding="utf-8")
    assert _run(tmp_path, f"submit --file {jobs}")[:2] == (0, "Submitted 2 jobs as cluster 5\n")
    assert _ids(tmp_path) == ["5.0", "5.1"]


@pytest.mark.parametrize("given", ["0.5", "1e3", "2.00"])
def test_a_set_id_written_as_a_number_is_held_to_the_id_forms(tmp_path: Path, given: str) -> None:
    """``fs submit --owner alice --set id=0.5`` queued job 0.5 (cluster 0, which ``--id
    0.5`` refuses: the JSON number skipped the check), and ``--set id=1e3`` job 1000.0:
    the id is the text as written, held to ``--id``'s forms. Nothing is written."""
    code, out, err = _run(tmp_path, f"submit --owner alice --set id={given}")
    assert (code, out) == (2, "")
    assert err == f'fs: error: fs submit: job id "{given}": {FORMS}\n'
    assert not (tmp_path / "state.json").exists()


def test_a_set_id_keeps_its_proc_as_written(tmp_path: Path) -> None:
    """``fs submit --set id=5.10`` queued job 5.1 (the JSON number 5.1): proc 10 of cluster
    5 is job 5.10, as ``--id 5.10`` queues it."""
    assert _run(tmp_path, "submit --owner alice --set id=5.10")[0] == 0
    assert _ids(tmp_path) == ["5.10"]


def test_an_id_beside_a_file_is_held_to_the_id_forms(tmp_path: Path) -> None:
    """``fs submit --file one.json --id abc`` (one job object, no id) queued job ``abc``,
    which ``--id abc`` alone and an id in the file are refused for. Nothing is written."""
    jobs = tmp_path / "one.json"
    jobs.write_text('[{"owner": "alice"}]', encoding="utf-8")
    code, out, err = _run(tmp_path, f"submit --file {jobs} --id abc")
    assert (code, out) == (2, "")
    assert err == f'fs: error: fs submit: job id "abc": {FORMS}\n'
    assert not (tmp_path / "state.json").exists()


def test_an_id_a_file_would_ignore_is_refused(tmp_path: Path) -> None:
    """``fs submit --file jobs.json --id 5`` of two job objects (or one with an id)
    submitted them as clusters 1 and 2, the --id dropped without a word."""
    jobs = tmp_path / "two.json"
    jobs.write_text('[{"owner": "alice"}, {"owner": "bob"}]', encoding="utf-8")
    code, out, err = _run(tmp_path, f"submit --file {jobs} --id 5")
    assert (code, out) == (2, "")
    assert err == (
        "fs: error: --id is ignored with --file unless the file lists one job object without"
        " an id; put the ids in the file, or drop --id (see 'cli submit --help')\n"
    )
    assert not (tmp_path / "state.json").exists()
