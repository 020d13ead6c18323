"""``scontrol show jobs`` records (io/importers/scontrol_jobs.py), 22.05's and 26.05's.

The record layout is ``src/scontrol/info_job.c``'s (``slurm_sprint_job_info``): one
``Key=Value`` line after another, ``JobName=`` last on the first line, ``ReqTRES=`` /
``AllocTRES=`` (23.02 on; ``TRES=`` before), then the node layout (``Socks/Node=``) and
lines of free text (``Command=``, ``SubmitLine=``, ``WorkDir=``, ``Comment=``, ``StdOut=``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.scontrol_jobs import JobDump, read_scontrol
from fairshare_cli.io.importers.squeue import read_jobs
from tests.conftest import FIXTURES

CAPTURE = FIXTURES / "slurm-26.05" / "ft4_t2_idle" / "scontrol_show_jobs.txt"

#: A 26.05 record (job 25 of the capture, pending in two partitions), lines as printed.
RECORD = """JobId=25 JobName=q_u6
   UserId=u6(1007) GroupId=root(0) MCS_label=N/A
   Priority=2150 Nice=0 Account=a QOS=normal
   JobState=PENDING Reason=ReqNodeNotAvail,_May_be_reserved_for_other_job Dependency=(null)
   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0
   RunTime=00:00:00 TimeLimit=UNLIMITED TimeMin=N/A
   SubmitTime=2026-11-28T18:20:32 EligibleTime=2026-11-28T18:20:32
   AccrueTime=2026-11-28T18:20:32
   StartTime=Unknown EndTime=Unknown Deadline=N/A
   Partition=batch,express AllocNode:Sid=localhost:16938
   NumNodes=1 NumCPUs=5 NumTasks=5 CPUs/Task=1 ReqB:S:C:T=0:0:*:*
   ReqTRES=cpu=5,mem=1000M,node=1,billing=5
   AllocTRES=(null)
   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*
   Command=(null)
   SubmitLine=/usr/local/bin/sbatch --uid=u6 -J q_u6 -p batch,express -n 5 --wrap sleep 60
   WorkDir=/tmp
   StdOut=/dev/null
"""


def _read(text: str, tmp_path: Path) -> JobDump:
    path = tmp_path / "jobs.txt"
    path.write_text(text, encoding="utf-8")
    return read_jobs(str(path))


def test_a_26_05_record(tmp_path: Path) -> None:
    (item,) = _read(RECORD, tmp_path).jobs
    job = item.job
    assert (job.id, job.owner, job.account, job.qos) == ("25", "u6", "a", "normal")
    assert job.partitions == ("batch", "express")
    assert (job.request_cpus, job.request_memory, job.site_factor) == (5, 1000, 0)
    # 2026-11-28T18:20:32 UTC: 20785 days * 86400 + 18:20:32
    assert job.submit_time == job.accrue_time == 20785 * 86400 + 18 * 3600 + 20 * 60 + 32
    assert job.time_limit == float("inf")
    assert (item.printed_priority, item.billing) == (2150, 5.0)


def test_free_text_lines_are_not_fields(tmp_path: Path) -> None:
    """A submit line, a comment or a job name holding ``Key=Value`` text changes nothing."""
    text = RECORD.replace("JobName=q_u6", "JobName=a b Account=zz QOS=x").replace(
        "--wrap sleep 60", "--wrap 'Account=zz Partition=none SiteFactor=9 NumCPUs=99'"
    )
    text = text.replace("   WorkDir=/tmp\n", "   WorkDir=/tmp\n   Comment=Nice=19 QOS=x\n")
    (job,) = (i.job for i in _read(text, tmp_path).jobs)
    assert (job.account, job.qos, job.request_cpus) == ("a", "normal", 5)
    assert (job.nice, job.site_factor) == (0, 0)
    assert job.partitions == ("batch", "express")


def test_a_record_read_line_by_line_reads_the_same(tmp_path: Path) -> None:
    """A token that is not Key=Value sends the record to the line-by-line reader: same job."""
    odd = RECORD.replace("Dependency=(null)", "Dependency=(null) stray")
    assert _read(odd, tmp_path).jobs[0].job == _read(RECORD, tmp_path).jobs[0].job


def test_the_dumps_site_factor_is_read(tmp_path: Path) -> None:
    """A record with ``SiteFactor=`` (none of Slurm's dumps prints it; a site's may) keeps
    it; without, the job's site factor is 0."""
    text = RECORD.replace("Nice=0 Account=a", "Nice=0 SiteFactor=-300 Account=a")
    assert _read(text, tmp_path).jobs[0].job.site_factor == -300


def test_a_running_job_is_charged_its_allocated_billing(tmp_path: Path) -> None:
    """26.05: ``AllocTRES`` is what a running job is charged for (``ReqTRES`` what it asked)."""
    text = (
        RECORD.replace("JobState=PENDING", "JobState=RUNNING")
        .replace("StartTime=Unknown", "StartTime=2026-11-28T18:21:00")
        .replace("AllocTRES=(null)", "AllocTRES=cpu=8,node=1,billing=12")
    )
    (item,) = _read(text, tmp_path).jobs
    assert (item.billing, item.job.status, item.job.request_memory) == (12.0, "running", 1000)
    assert item.job.start_time == 20785 * 86400 + 18 * 3600 + 21 * 60


def test_jobs_printing_the_same_tres_read_alike(tmp_path: Path) -> None:
    """A dump's few kinds of TRES are read once and shared: each job still gets its own
    charge. Memory in MB from its unit (``4G`` = 4 * 1024, as ``slurmdb_make_tres_string``
    prints MB in a larger unit); a running job's ``AllocTRES`` over its ``ReqTRES``; 22.05's
    ``TRES=`` is both."""
    pending = RECORD.replace("mem=1000M", "mem=4G")
    running = (
        pending.replace("JobId=25", "JobId=26")
        .replace("JobState=PENDING", "JobState=RUNNING")
        .replace("StartTime=Unknown", "StartTime=2026-11-28T18:21:00")
        .replace("AllocTRES=(null)", "AllocTRES=cpu=8,mem=8G,node=1,billing=12")
    )
    old = (
        pending.replace("JobId=25", "JobId=27")
        .replace("   ReqTRES=cpu=5,mem=4G,node=1,billing=5\n   AllocTRES=(null)\n", "")
        .replace("NumCPUs=5", "NumCPUs=5\n   TRES=cpu=2,mem=2G,node=1,billing=3")
    )
    jobs = _read(pending + running + pending.replace("JobId=25", "JobId=28") + old, tmp_path).jobs
    got = [(i.job.id, i.job.request_memory, i.billing) for i in jobs]
    assert got == [("25", 4096, 5.0), ("26", 8192, 12.0), ("28", 4096, 5.0), ("27", 2048, 3.0)]


def test_the_26_05_capture(tmp_path: Path) -> None:
    """14 records: 9 pending (ids 19-27), 5 finished that ran (their billing is 4 CPUs)."""
    dump = read_jobs(str(CAPTURE))
    assert [i.job.id for i in dump.jobs] == [str(n) for n in range(19, 28)]
    assert sorted(dump.skipped) == ["14", "15", "16", "17", "18"]
    assert {(f.billing, f.end - f.start) for f in dump.finished} >= {(4.0, 360.0)}
    printed = {i.job.id: i.printed_priority for i in dump.jobs}
    assert (printed["19"], printed["25"]) == (5389, 2150)  # sprio_l.txt's first rows


def test_a_bad_value_names_its_line(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"jobs.txt:11: NumCPUs: expected a whole number"):
        _read(RECORD.replace("NumCPUs=5", "NumCPUs=five"), tmp_path)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.sampled_from(["", "$ scontrol show jobs", "   Foo=bar", "   Baz=qux"]),
        max_size=3,
        unique=True,
    )
)
def test_extra_lines_read_alike(extra: list[str]) -> None:
    """Blank lines, command lines and unknown fields (each once) inside a record: the same
    job either way it is read."""
    lines = RECORD.splitlines()
    text = "\n".join([*lines[:3], *extra, *lines[3:]]) + "\n"  # (a whole capture)
    out, plain = JobDump(), JobDump()
    read_scontrol(text, 1, "f", out)
    read_scontrol(RECORD, 1, "f", plain)
    assert out.jobs[0].obj == plain.jobs[0].obj


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(b"\0", "jobs.txt:3: binary data", id="nul"),
        pytest.param(b"\xff\xfe", "jobs.txt:3: not UTF-8 text", id="latin"),
    ],
)
def test_the_dump_is_read_in_pieces_and_checked_line_by_line(
    tmp_path: Path, data: bytes, expected: str
) -> None:
    """The dump is read a piece of records at a time; a NUL byte or bytes that are not
    UTF-8 are named by their line, as a line-by-line read names them."""
    lines = RECORD.encode().split(b"\n")
    path = tmp_path / "jobs.txt"
    path.write_bytes(b"\n".join([*lines[:2], lines[2] + data, *lines[3:]]))
    with pytest.raises(InputError, match=expected):
        read_jobs(str(path))


#: ``RECORD`` as an array's task prints it: three fields before the job name.
ARRAY = RECORD.replace("JobId=25 ", "JobId=25 ArrayJobId=20 ArrayTaskId=5 ")
#: The line that tells a record of another kind (the same number of lines) from these.
REQUEUE = "   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0"

#: What a record may have that a plain record of its kind has not (each sent to the
#: record-by-record reader by the pattern of ``RECORD``'s kind, or matched by it alike).
VARIANTS = {
    "name with blanks": ("JobName=q_u6", "JobName=a b"),
    "name with fields": ("JobName=q_u6", "JobName=x Account=zz QOS=y"),
    "name after a tab": (" JobName=q_u6", "\tJobName=q_u6"),
    "name on line 2": (" JobName=q_u6", "\n   JobName=x Account=zz"),
    "array ids on line 2": (" ArrayJobId=20", "\n   ArrayJobId=20"),
    "task on line 2": (" ArrayTaskId=5 JobName=q_u6", "\n   ArrayTaskId=5 JobName=x Account=zz"),
    "tab indent": ("\n   Priority=", "\n\tPriority="),
    "blanks moved": ("Nice=0 Account=a QOS=normal\n   ", "Nice=0  Account=a QOS=normal\n  "),
    "one line less": ("\n   AccrueTime=", " AccrueTime="),
    "stray token": ("Dependency=(null)", "Dependency=(null) stray"),
    "key twice": ("QOS=normal", "QOS=normal Account=b"),
    "unknown field": ("Nice=0", "Nice=0 Foo=bar"),
    "no nice": ("Nice=0 ", ""),
    "negative nice": ("Nice=0", "Nice=-5"),
    "bad cpus": ("NumCPUs=5", "NumCPUs=five"),
    "bad time": ("SubmitTime=2026-11-28T18:20:32", "SubmitTime=2026-11-28T18:20:61"),
    "leap second": ("SubmitTime=2026-11-28T18:20:32", "SubmitTime=2026-11-28T18:20:60"),
    "comment line": ("   Partition=", "   Comment=Nice=19 QOS=x\n   Partition="),
    "command line": ("   Partition=", "$ scontrol show jobs\n   Partition="),
    "no layout": ("   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*\n", ""),
}


def _outcome(text: str) -> object:
    """The jobs read from ``text`` (each one's object, place, printed priority and charge),
    or the error's words."""
    out = JobDump()
    try:
        read_scontrol(text, 1, "f", out)
    except InputError as exc:
        return str(exc)
    items = [(i.obj, i.where, i.printed_priority, i.billing) for i in out.jobs]
    return items, [vars(f) for f in out.finished], out.skipped


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([RECORD, ARRAY]),
    st.lists(st.sampled_from(sorted(VARIANTS)), max_size=3, unique=True),
)
def test_a_record_reads_alike_after_a_record_of_its_kind(first: str, names: list[str]) -> None:
    """The second record of a dump reads the same whether the first taught its kind's
    pattern or not (a record of another kind): blanks, a job name holding fields, fields
    that wrap the first line, odd tokens and lines, bad values (the same words, the same
    line)."""
    record = first.replace("JobId=25", "JobId=26")
    for name in names:
        old, new = VARIANTS[name]
        record = record.replace(old, new, 1)
    other = first.replace(REQUEUE, "   X=1")
    assert _outcome(first + record) == _outcome(other + record)


def test_records_of_a_kind_are_read_by_its_pattern() -> None:
    """A thousand records of one kind: each job as the record alone reads."""
    records = [RECORD.replace("JobId=25", f"JobId={n}") for n in range(1000)]
    out = JobDump()
    read_scontrol("".join(records), 1, "f", out)
    alone = JobDump()
    read_scontrol(records[-1], 1, "f", alone)
    assert len(out.jobs) == 1000
    assert out.jobs[-1].obj == alone.jobs[0].obj
    assert out.jobs[-1].where == f"f:{999 * RECORD.count(chr(10)) + 1}"


@pytest.mark.parametrize("kinds", [3, 8, 9, 300])
def test_a_dump_of_many_kinds_reads_each_record_as_alone(kinds: int) -> None:
    """Records of a few kinds, of more kinds than are learnt, of as many kinds as records
    (the matching stops): each job as its record alone reads."""
    records = [
        RECORD.replace("JobId=25", f"JobId={n}").replace(REQUEUE, f"{REQUEUE} K{n % kinds}=1")
        for n in range(600)
    ]
    out = JobDump()
    read_scontrol("".join(records), 1, "f", out)
    for n in (0, 7, 8, 9, 299, 599):
        alone = JobDump()
        read_scontrol(records[n], 1, "f", alone)
        assert out.jobs[n].obj == alone.jobs[0].obj


def _json_forms(text: str, tmp_path: Path) -> list[tuple[str, str]]:
    """Each job's object as read and ``job_to_json`` of its job, as the state file prints
    them (so that 1 and 1.0 differ)."""
    from fairshare_cli.core.jobs import job_to_json
    from fairshare_cli.core.jsonstate import dumps_sorted

    jobs = _read(text, tmp_path).jobs
    assert all(item.json_form for item in jobs)
    return [(dumps_sorted(item.obj), dumps_sorted(job_to_json(item.job))) for item in jobs]


#: Values at and off their defaults (a job's object leaves the defaults out).
CHANGES = [
    ("Nice=0", "Nice=0"),
    ("Nice=0", "Nice=7"),
    ("NumCPUs=5", "NumCPUs=1"),
    ("TimeLimit=UNLIMITED", "TimeLimit=1-00:00:00"),
    ("Nice=0", "Nice=0 SiteFactor=0"),
    ("Nice=0", "Nice=0 SiteFactor=12"),
    ("mem=1000M", "mem=0"),
]


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from([RECORD, ARRAY]),
    st.lists(st.sampled_from(sorted(VARIANTS)), max_size=3, unique=True),
    st.sampled_from(["PENDING", "RUNNING", "SUSPENDED"]),
    st.sampled_from(CHANGES),
)
def test_a_jobs_object_is_its_json_form(
    first: str, names: list[str], state: str, change: tuple[str, str]
) -> None:
    """The object a record is read into is the job's JSON form as the state writes it:
    ``job_to_json`` of the job it reads into, to the printed digit (the values at their
    defaults left out: idle, 1 CPU, 1 node, nice 0, no memory, site factor 0); ``fs import
    squeue`` writes the objects themselves."""
    import tempfile

    record = first.replace("JobState=PENDING", f"JobState={state}").replace(*change)
    record = record.replace(
        "StartTime=Unknown",
        "StartTime=2026-11-28T18:21:00" if state != "PENDING" else "StartTime=Unknown",
    )
    second = record.replace("JobId=25", "JobId=26")
    for name in names:
        second = second.replace(*VARIANTS[name], 1)
    with tempfile.TemporaryDirectory() as folder:
        try:
            forms = _json_forms(record + second, Path(folder))
        except InputError:
            return  # (a variant with a bad value: refused, nothing written)
    assert forms
    for read, written in forms:
        assert read == written


def test_a_jobs_object_leaves_its_defaults_out(tmp_path: Path) -> None:
    """Job 25 of the capture: its 5 CPUs, 1000 MB, two partitions and times kept; idle,
    1 node, nice 0 and no site factor left out, as ``job_to_json`` leaves them out."""
    (item,) = _read(RECORD, tmp_path).jobs
    submit = 1795890032.0  # 2026-11-28T18:20:32 UTC: 20,785 days and 66,032 s
    assert item.obj == {
        "id": "25",
        "owner": "u6",
        "submit_time": submit,
        "eligible_time": submit,
        "accrue_time": submit,
        "request_cpus": 5,
        "request_memory": 1000,
        "account": "a",
        "partition": "batch,express",
        "qos": "normal",
        "time_limit": "INFINITE",
    }


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(18, 19), st.integers(0, 59), st.integers(0, 60)),
        min_size=1,
        max_size=12,
    )
)
def test_times_of_an_hour_seen_before_read_as_parse_time_reads_them(
    clocks: list[tuple[int, int, int]],
) -> None:
    """A time of an hour read before is that hour's first second and the seconds into it:
    the same float as :func:`~fairshare_cli.core.epoch.parse_time` of the time in UTC (a
    leap second ``:60`` too), whichever record reads the hour first."""
    from fairshare_cli.core.epoch import parse_time

    texts = [f"2026-11-28T{h:02d}:{m:02d}:{sec:02d}" for h, m, sec in clocks]
    records = [
        RECORD.replace("JobId=25", f"JobId={n}").replace("2026-11-28T18:20:32", text)
        for n, text in enumerate(texts)
    ]
    out = JobDump()
    read_scontrol("".join(records), 1, "f", out)
    assert [i.obj["submit_time"] for i in out.jobs] == [parse_time(t + "Z", "t") for t in texts]
    assert {i.obj["accrue_time"] for i in out.jobs} == {i.obj["submit_time"] for i in out.jobs}


def test_a_leap_second_after_its_hour_was_read() -> None:
    """2026-11-28 is day 20,785 since 1970-01-01; 18:59:60 (a leap second, which
    ``parse_time`` takes) is 18 h 59 min 60 s into it, read from the hour 18:20:32 taught."""
    first = RECORD
    leap = RECORD.replace("JobId=25", "JobId=26").replace("18:20:32", "18:59:60")
    out = JobDump()
    read_scontrol(first + leap, 1, "f", out)
    day = 20785 * 86400
    assert out.jobs[1].obj["submit_time"] == day + 18 * 3600 + 59 * 60 + 60
    assert out.jobs[0].obj["submit_time"] == day + 18 * 3600 + 20 * 60 + 32


def _records(count: int) -> str:
    """``count`` records of ``RECORD``'s kind, ids 1 to ``count``."""
    return "".join(RECORD.replace("JobId=25", f"JobId={n}") for n in range(1, count + 1))


@pytest.mark.parametrize("piece", [64, 700, 1 << 24])
def test_a_dump_read_in_pieces_reads_as_one_piece(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, piece: int
) -> None:
    """The dump is read a piece at a time, each cut before a record (a piece smaller than
    a record grows to hold it): the same jobs, at the same lines, as in one piece."""
    from fairshare_cli.io.importers import common

    text = "$ scontrol show jobs\n\n" + _records(30)
    whole = _read(text, tmp_path)
    monkeypatch.setattr(common, "PIECE", piece)
    pieces = _read(text, tmp_path)
    assert [(i.obj, i.where) for i in pieces.jobs] == [(i.obj, i.where) for i in whole.jobs]
    assert pieces.jobs[-1].where == f"{tmp_path / 'jobs.txt'}:{2 + 29 * 18 + 1}"


def test_binary_data_further_on_is_named_before_a_bad_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bad value in the first piece and a NUL byte in a later one: the NUL byte is named,
    as reading the whole dump first names it."""
    from fairshare_cli.io.importers import common

    monkeypatch.setattr(common, "PIECE", 700)
    bad = RECORD.replace("NumCPUs=5", "NumCPUs=five")
    text = bad + _records(5) + RECORD.replace("WorkDir=/tmp", "WorkDir=/t\0mp")
    line = text[: text.index("\0")].count("\n") + 1
    with pytest.raises(InputError, match=rf"jobs.txt:{line}: binary data"):
        _read(text, tmp_path)
    with pytest.raises(InputError, match=r"jobs.txt:11: NumCPUs: expected a whole number"):
        _read(bad + _records(5), tmp_path)
