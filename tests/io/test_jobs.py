"""The jobs-file reader (``io/jobs.py``) against the exact parser (``core/jobs.py``).

A file the reader takes gives exactly the jobs :func:`parse_jobs_one_by_one` gives of the
file's objects, field by field and type by type; a file it refuses gives the exact reader's
message. The same holds for :func:`parse_jobs` (the state's queue). Job objects are
drawn from good values and each kind of bad one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.jobs import Job, parse_jobs, parse_jobs_one_by_one
from fairshare_cli.core.slurm.priority_table import JOB_FIELDS
from fairshare_cli.errors import InputError
from fairshare_cli.io import jobs as reader
from fairshare_cli.io.jobs import load_job_batches, load_jobs
from tests.conftest import REPO

names = st.sampled_from(["alice", "hep", "batch", "a@b", "a@b@c", "", "a b", "é", "x,y", "a\x01"])
ints = st.sampled_from([0, 1, -1, 7, 2**63 - 1, 2**63, -(2**63) - 1, True, 1.0, None, "3"])
times = st.sampled_from(
    [1795262400.0, 1795262400, -62135596801.0, 253402300800.0, "2026-11-21T12:00:00Z", None, False]
)
fields: dict[str, Any] = {
    "account": names | st.none(),
    "partition": names | st.none(),
    "qos": names | st.none() | st.just(3),
    "status": st.sampled_from(["idle", "running", "held", "completed", "removed", "bogus", None]),
    "submit_time": times,
    "accrue_time": times,
    "time_limit": st.sampled_from(
        [0, 60, 3600.5, -1, None, True, "1:00", "INFINITE", "UNLIMITED", "1-00:00:00", "x", ""]
    ),
    "num_nodes": ints,
    "request_cpus": ints,
    "user_priority": st.sampled_from([1, 1.0, 2.5, -3, 2**63, None, "1"]),
    "nice_user": st.sampled_from([True, False, None, 0]),
    "count": st.sampled_from([1, 2, 3, 0, 1.0, None]),
    "attributes": st.sampled_from([{"gpus": 1}, {}, None, [1]]),
    "dirac_requirements": st.sampled_from([{"cpu_time": 5}, {}, None]),
    "slot": st.sampled_from(["slot1@node", "slot2@node"]),
    "dirac_grup": st.just("x"),
}
job = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["1", "2", "3", "12.3", "4.0"])
        | st.sampled_from(["x", "", "a b", "1,2", "a@b", 5, None]),
        "owner": st.just("alice") | names,
    },
    optional=fields,
)
docs = st.lists(job, max_size=5) | st.sampled_from([{}, "jobs", [1], [[]]])


#: Every field; sprio's (in the order jobs files usually write them); a few, out of order.
FIELD_SETS = ((), JOB_FIELDS, ("submit_time", "owner", "id", "status", "count"))


def _typed(jobs: list[Job]) -> list[list[tuple[str, type, Any]]]:
    """Each field's name, type and value (``1`` and ``1.0`` compare equal)."""
    return [[(n, type(getattr(j, n)), getattr(j, n)) for n in Job.__struct_fields__] for j in jobs]


def _exact(doc: Any, source: str) -> list[Job] | str:
    try:
        return parse_jobs_one_by_one(doc, source)
    except InputError as exc:
        return str(exc)


@settings(max_examples=400, deadline=None)
@given(docs)
def test_the_reader_gives_what_the_exact_parser_gives(tmp_path_factory: Any, doc: Any) -> None:
    path: Path = tmp_path_factory.mktemp("j") / "jobs.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    want = _exact(doc, str(path)) if isinstance(doc, list) else None
    for only in FIELD_SETS:  # records of only some fields hold what Job would
        try:
            got: list[Job] | str = load_jobs(str(path), fields=only)
        except InputError as exc:
            got = str(exc)
        if isinstance(want, list) and isinstance(got, list):
            assert _typed(got) == _typed(want)
        elif want is not None:
            assert got == want
    try:
        from_state: list[Job] | str = parse_jobs(doc, str(path))
    except InputError as exc:
        from_state = str(exc)
    if isinstance(want, list) and isinstance(from_state, list):
        assert _typed(from_state) == _typed(want)
    else:
        assert from_state == (_exact(doc, str(path)))


def test_pieces_are_read_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file read in many pieces gives the jobs and batches of one read; a duplicate id
    in a later piece gives the exact reader's message."""
    monkeypatch.setattr(reader, "PIECE", 256)
    objs = [
        {"id": f"{c}.{p}", "owner": f"u{c}", "request_memory": p % 2}
        for c in (1, 2)
        for p in range(40)
    ]
    objs.append({"id": "7.0", "owner": "v", "count": 5, "submit_time": "2026-11-21T12:00:00Z"})
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(objs), encoding="utf-8")
    for only in FIELD_SETS:  # (the last pieces have a field sprio's records do not hold)
        assert _typed(load_jobs(str(path), fields=only)) == _typed(
            parse_jobs_one_by_one(objs, str(path))
        )
    batches = load_job_batches(str(path))
    assert [(b.job.id, b.count) for b in batches][-3:] == [("2.38", 1), ("2.39", 1), ("7.0", 5)]
    assert sum(b.count for b in batches) == 85
    objs.append({"id": "1.3", "owner": "u1"})
    path.write_text(json.dumps(objs), encoding="utf-8")
    with pytest.raises(
        InputError, match=r"job 1\.3 is given twice \(job objects 4 and 82, counting from 1\)"
    ):
        load_jobs(str(path))


def test_a_text_holding_the_boundary_between_objects(tmp_path: Path) -> None:
    """A file of several pieces whose texts hold ``},{`` (where the reader may cut it):
    the jobs are the exact parser's, in order."""
    objs = [
        {"id": str(i), "owner": "u", "requirements": f'(Name == "a}},{{b") && {i} > 0'}
        for i in range(3 * reader.PIECE // 40)
    ]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(objs), encoding="utf-8")
    assert path.stat().st_size > 2 * reader.PIECE
    assert _typed(load_jobs(str(path))) == _typed(parse_jobs_one_by_one(objs, str(path)))
    assert sum(b.count for b in load_job_batches(str(path))) == len(objs)


def test_a_piece_that_only_grows_goes_to_the_exact_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``[`` and then text with no boundary between objects (a 300 MB file of zeros after
    its ``[``: ``fs sprio --jobs-file`` ran for minutes) was read into one piece copied and
    searched again on every read; past ``LONGEST_PIECE`` the exact reader reads it, and a
    long object it reads whole gives the same jobs."""
    monkeypatch.setattr(reader, "PIECE", 256)
    monkeypatch.setattr(reader, "LONGEST_PIECE", 1024)
    path = tmp_path / "jobs.json"
    path.write_bytes(b"[" + b"0" * 4096)
    with pytest.raises(reader._Refused):
        list(reader._pieces(str(path)))
    with pytest.raises(InputError, match=r"not valid JSON \(line 1, column 3"):
        load_jobs(str(path))
    objs = [{"id": "1", "owner": "u", "requirements": "(" * 2000 + "true" + ")" * 2000}]
    objs.append({"id": "2", "owner": "u"})
    path.write_text(json.dumps(objs), encoding="utf-8")
    assert _typed(load_jobs(str(path))) == _typed(parse_jobs_one_by_one(objs, str(path)))


def test_identical_jobs_join_a_batch(tmp_path: Path) -> None:
    """The next id of one cluster, the same job otherwise, joins the last batch; a count
    object is one batch of its own."""
    objs: list[dict[str, Any]] = [{"id": f"3.{p}", "owner": "a"} for p in range(4)]
    objs += [{"id": "3.4", "owner": "a", "job_prio": 1}, {"id": "5", "owner": "b", "count": 3}]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(objs), encoding="utf-8")
    got = [(b.job.id, b.job.job_prio, b.count) for b in load_job_batches(str(path))]
    assert got == [("3.0", 0, 4), ("3.4", 1, 1), ("5.0", 0, 3)]


def test_a_name_good_as_an_id_is_still_checked_as_a_submitter(tmp_path: Path) -> None:
    """``a@b@c`` is a good job id (any name) but not a submitter name (at most one '@'):
    once read as an id it must not pass later as a QOS (found by the property above)."""
    first, second = tmp_path / "ids.json", tmp_path / "qos.json"
    first.write_text(json.dumps([{"id": "a@b@c", "owner": "u"}]))
    second.write_text(json.dumps([{"id": "1", "owner": "u", "qos": "a@b@c"}]))
    assert [job.id for job in load_jobs(str(first))] == ["a@b@c"]
    with pytest.raises(InputError, match="at most one '@'"):
        load_jobs(str(second))


@pytest.mark.parametrize("whole", [True, False], ids=["one-piece", "pieces"])
def test_a_job_after_a_count_object_of_its_cluster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole: bool
) -> None:
    """``"count": 2`` on ``1.0`` is the jobs 1.0 and 1.1 (``parse_jobs_one_by_one`` expands it): a job
    ``1.1`` written after it is a duplicate id, as the exact reader words it."""
    if not whole:
        monkeypatch.setattr(reader, "PIECE", 16)
    objs = [{"id": "1.0", "owner": "a", "count": 2}, {"id": "1.1", "owner": "a"}]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(objs), encoding="utf-8")
    with pytest.raises(InputError) as exact:
        parse_jobs_one_by_one(objs, str(path))
    assert (
        str(exact.value)
        == f"{path}: job 1.1 is given twice (job objects 1 and 2, counting from 1); give each job its own id"
    )
    with pytest.raises(InputError) as read:
        load_jobs(str(path))
    assert str(read.value) == str(exact.value)


def test_stdin_is_read_as_a_file_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``fs sprio -l --jobs-file - < jobs.json`` was read by the exact reader alone (1.65 s
    against 0.57 s for the file at 100,000 jobs): stdin is copied, then read as a file is:
    the same listing by the fast path (the exact parser unused), the same refusal of a byte
    that is not UTF-8 (it was 'not valid JSON' on stdin)."""
    from click.testing import CliRunner

    from fairshare_cli.cli.main import cli

    sample = Path(__file__).resolve().parents[2] / "sample_configs"
    line = ["sprio", "-l", "--config", str(sample / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]
    as_file = CliRunner().invoke(cli, [*line, "--jobs-file", str(sample / "jobs.json")])
    assert as_file.exit_code == 0, as_file.stderr

    def exact(*_args: Any) -> Any:
        raise AssertionError("the exact reader read stdin")

    monkeypatch.setattr(reader, "parse_stanza", exact)
    piped = CliRunner().invoke(
        cli, [*line, "--jobs-file", "-"], input=(sample / "jobs.json").read_bytes()
    )
    assert (piped.exit_code, piped.stdout) == (0, as_file.stdout)
    monkeypatch.undo()
    junk = tmp_path / "junk.json"
    junk.write_bytes(b'[{"id": "1", "owner": "x\xff"}]')
    said = CliRunner().invoke(cli, [*line, "--jobs-file", "-"], input=junk.read_bytes())
    from_file = CliRunner().invoke(cli, [*line, "--jobs-file", str(junk)])
    assert said.exit_code == from_file.exit_code == 2
    assert said.stderr == from_file.stderr.replace(str(junk), "-")
    assert said.stderr.startswith("fs: error: -: not UTF-8 text")


def test_a_count_object_running_on_one_slot_is_refused_as_the_exact_parser_does(
    tmp_path: Path,
) -> None:
    """Its ``count`` jobs would all run on the one slot: the fast reader took the object
    (hypothesis found it), the exact parser refuses it, naming the slot."""
    path = tmp_path / "jobs.json"
    job = {"id": "1", "owner": "alice", "slot": "slot1@node", "status": "running", "start_time": 1}
    path.write_text(json.dumps([{**job, "count": 2}]), encoding="utf-8")
    with pytest.raises(InputError) as refused:
        load_jobs(str(path))
    assert str(refused.value) == f"{path}: job 1.1: slot 'slot1@node' already runs another job"
    with pytest.raises(InputError) as exact:
        parse_jobs_one_by_one(json.loads(path.read_text(encoding="utf-8")), str(path))
    assert str(exact.value) == str(refused.value)
    for taken in ([{**job, "count": 1}], [{**job, "count": 2, "slot": None}]):
        path.write_text(json.dumps(taken), encoding="utf-8")
        assert load_jobs(str(path)) == parse_jobs_one_by_one(taken, str(path))


def test_a_workload_job_without_an_id_is_told_what_to_give(tmp_path: Path) -> None:
    """``fs simulate --workload noid.json --until 1:00:00`` of ``[{"owner": "alice"}]``:
    the refusal said only "missing required field 'id'", with no hint that fs submit
    --file takes such a file and numbers it."""
    from click.testing import CliRunner

    from fairshare_cli.cli.main import cli

    work = tmp_path / "noid.json"
    work.write_text('[{"owner": "alice"}]', encoding="utf-8")
    pool = str(REPO / "sample_configs" / "pool.toml")
    line = ["simulate", "--workload", str(work), "--until", "1:00:00", "--config", pool]
    line += ["--state", str(tmp_path / "s.json"), "--now", "2026-11-21T12:00:00Z"]
    result = CliRunner().invoke(cli, line)
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {work}: job object 1 (counting from 1): missing required field 'id' "
        '(give the job an id, "1" or "12.0"; only fs submit --file numbers jobs without one)\n'
    )


@pytest.mark.parametrize(
    "given",
    [
        {"attributes": {"\udcff": 1}},
        {"attributes": {"A": ["x", "\ud800"]}},
        {"dirac_requirements": {"Site": "\udcff"}},
    ],
)
def test_the_states_queue_refuses_a_lone_surrogate_as_the_exact_reader(given: Any) -> None:
    """A state Python's JSON reader decoded may hold a lone surrogate (``"\\udcff"``):
    :func:`parse_jobs` refuses it in a job's mappings in the exact reader's words (classad2
    crashes on one), the jobs before it alike or not."""
    objs = [{"id": "1", "owner": "a"}, {"id": "2", "owner": "a", **given}]
    with pytest.raises(InputError) as exact:
        parse_jobs_one_by_one(objs, "s")
    with pytest.raises(InputError) as fast:
        parse_jobs(objs, "s")
    assert str(fast.value) == str(exact.value)
    assert str(fast.value).startswith("s: job 2: ")
