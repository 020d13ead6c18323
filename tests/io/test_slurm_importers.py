"""The Slurm dump readers on small hand-written inputs (each rule from Slurm's source)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.hostlist import compress_machines, expand_hostlist
from fairshare_cli.io.importers.sacctmgr import read_sacctmgr
from fairshare_cli.io.importers.scontrol_assoc import read_assoc_mgr
from fairshare_cli.io.importers.slurm_conf import read_slurm_conf
from fairshare_cli.io.importers.squeue import read_jobs
from fairshare_cli.io.importers.sshare import read_sshare


@pytest.mark.parametrize(
    ("text", "hosts"),
    [
        pytest.param("n[001-003]", ["n001", "n002", "n003"], id="padded"),
        pytest.param("a[1-2,5],b7", ["a1", "a2", "a5", "b7"], id="list"),
        pytest.param("r[1-2]n[1-2]", ["r1n1", "r1n2", "r2n1", "r2n2"], id="two-brackets"),
        pytest.param("localhost", ["localhost"], id="plain"),
    ],
)
def test_hostlist(text: str, hosts: list[str]) -> None:
    assert expand_hostlist(text) == hosts


def test_nodes_named_like_machines_become_one_entry() -> None:
    """[[machines]] name "n" count 3 is n001..n003: the same names slurm.conf gave. Other
    nodes keep their names in ``hosts`` (``name = "gpu1"`` alone names gpu1001), identical
    neighbours in one entry."""
    nodes = [(f"n{i:03d}", 8, 100, ("batch",)) for i in range(1, 4)]
    gpus = [("gpu1", 4, 50, ()), ("gpu2", 4, 50, ()), ("gpu3", 8, 50, ())]
    assert compress_machines([*nodes, *gpus]) == [
        {
            "name": "n",
            "count": 3,
            "attributes": {"Cpus": 8, "Memory": 100},
            "partitions": ["batch"],
        },
        {
            "name": "gpu1",
            "hosts": ["gpu1", "gpu2"],
            "attributes": {"Cpus": 4, "Memory": 50},
            "partitions": [],
        },
        {
            "name": "gpu3",
            "hosts": ["gpu3"],
            "attributes": {"Cpus": 8, "Memory": 50},
            "partitions": [],
        },
    ]


def test_nodes_numbered_otherwise_keep_their_names() -> None:
    """``cn[0001-0500]`` (four digits for 500 nodes: not ``[[machines]]``' numbering) was 500
    entries, each naming its machine ``cn0001001``; one entry with ``hosts`` now."""
    nodes = [(f"cn{i:04d}", 8, 100, ("batch",)) for i in range(1, 501)]
    assert compress_machines(nodes) == [
        {
            "name": "cn0001",
            "hosts": [f"cn{i:04d}" for i in range(1, 501)],
            "attributes": {"Cpus": 8, "Memory": 100},
            "partitions": ["batch"],
        }
    ]


def test_slurm_conf_reads_as_slurm_does(tmp_path: Path) -> None:
    """Comments, ``\\`` continuation, case-insensitive keys, DEFAULT lines, Include (relative
    to the including file, ``%c`` = lower-case cluster name), CPUs from the topology."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "nodes-big.conf").write_text(
        "NodeName=DEFAULT Sockets=2 CoresPerSocket=4 ThreadsPerCore=2 RealMemory=64000\n"
        "NodeName=n[001-004]\n"
    )
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "clustername=BIG  # a comment\n"
        "PriorityWeightAge=1000 PriorityWeightFairshare=\\\n  5000\n"
        "priorityflags=NO_FAIR_TREE,CALCULATE_RUNNING\n"
        "FairShareDampeningFactor=3\n"
        "AccountingStorageEnforce=associations,limits\n"
        "Include sub/nodes-%c.conf\n"
        "PartitionName=DEFAULT MaxTime=1-0 PriorityJobFactor=2\n"
        "PartitionName=batch Nodes=n[001-002] Default=YES\n"
        "PartitionName=all Nodes=ALL MaxTime=UNLIMITED\n"
        "SchedulerType=sched/backfill\n"
    )
    out = read_slurm_conf(str(conf))
    frag = out.fragment
    assert frag["pool"] == {"name": "big"}
    # (the weights it leaves unset are 0, as read_config.c reads them)
    assert frag["priority"]["weights"] == {
        "age": 1000,
        "fairshare": 5000,
        "jobsize": 0,
        "partition": 0,
        "qos": 0,
    }
    assert frag["priority"]["flags"] == ["NO_FAIR_TREE", "CALCULATE_RUNNING"]
    assert frag["priority"]["dampening_factor"] == 3
    assert frag["priority"]["enforce_limits"] is True
    assert frag["machines"] == [
        {
            "name": "n",
            "count": 2,
            "attributes": {"Cpus": 16, "Memory": 64000},
            "partitions": ["batch", "all"],
        },
        {
            "name": "n003",
            "hosts": ["n003", "n004"],  # (not named n003001 and n004001)
            "attributes": {"Cpus": 16, "Memory": 64000},
            "partitions": ["all"],
        },
    ]
    assert frag["partitions"] == {
        "batch": {"priority_job_factor": 2, "default": True, "max_time": "1-0"},
        "all": {"priority_job_factor": 2, "default": False, "max_time": "INFINITE"},
    }
    assert out.ignored == ["SchedulerType"]


def test_slurm_conf_unknown_partition_node(tmp_path: Path) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text("NodeName=a CPUs=1\nPartitionName=p Nodes=b\n")
    with pytest.raises(InputError, match=r"slurm.conf:2: partition \"p\": node \"b\""):
        read_slurm_conf(str(conf))


def test_sacctmgr_dump_file(tmp_path: Path) -> None:
    """``Parent - 'x'`` puts what follows under x; 2147483647 is Fairshare=parent."""
    dump = tmp_path / "dump.cfg"
    dump.write_text(
        "# To edit this file start with a cluster line for the new cluster\n"
        "Cluster - 'oracle':Fairshare=1:QOS='normal'\n"
        "Parent - 'root'\n"
        "User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1\n"
        "Account - 'a':Description='a':Organization='a':Fairshare=40\n"
        "Parent - 'a'\n"
        "Account - 'b':Description='b':Organization='b':Fairshare=2147483647\n"
        "Parent - 'b'\n"
        "User - 'u1':DefaultAccount='b':Fairshare=1\n"
        "User - 'u1':Partition='gpu':DefaultAccount='b':Fairshare=5\n"
    )
    out = read_sacctmgr(str(dump))
    assert out.fragment() == {
        "accounts": {
            "root": {"users": {"root": 1}},
            "a": {"parent": "root", "shares": 40},
            "b": {"parent": "a", "shares": "parent", "users": {"u1": 1}},
        }
    }
    assert out.ignored == ["b/u1/gpu (per partition)"]


def test_sacctmgr_table_with_lft_rgt(tmp_path: Path) -> None:
    """No ParentName column: each account's parent is the narrowest Lft..Rgt around it."""
    table = tmp_path / "assoc.txt"
    table.write_text(
        "   Account       User     Share    LFT    RGT\n"
        "---------- ---------- --------- ------ ------\n"
        "      root                    1      1     10\n"
        "         a                   40      2      9\n"
        "         b                   30      3      6\n"
        "         b         u1    parent      4      5\n"
        "         a         u2         3      7      8\n"
    )
    assert read_sacctmgr(str(table)).fragment() == {
        "accounts": {
            "a": {"parent": "root", "shares": 40, "users": {"u2": 3}},
            "b": {"parent": "a", "shares": 30, "users": {"u1": "parent"}},
        }
    }


def test_sacctmgr_qos_parsable(tmp_path: Path) -> None:
    listing = tmp_path / "qos.txt"
    listing.write_text("Name|Priority|UsageFactor|\nnormal|0|1.000000|\nscavenger|0|0.500000|\n")
    assert read_sacctmgr(str(listing)).fragment() == {
        "qos": {
            "normal": {"priority": 0, "usage_factor": 1},
            "scavenger": {"priority": 0, "usage_factor": 0.5},
        }
    }


def test_assoc_mgr_user_names_lose_their_uid() -> None:
    path = Path(__file__).parents[1] / "fixtures/slurm-22.05/ft2_idle/scontrol_assoc_mgr.txt"
    out = read_assoc_mgr(str(path))
    assert out.users[("b", "u1")] == 2969.92
    assert out.accounts["root"] == 5354.13
    assert out.qos_usage["normal"] == 5354.130208


def test_squeue_json_arrays_and_states(tmp_path: Path) -> None:
    """squeue --json (openapi v0.0.38): jobs keep their job_id, what sprio prints: array
    10's task 3 (job 13, squeue's 10_3), its tasks 4-9 still pending (the array's record,
    job 10, squeue's 10_[4-9]); time_limit is minutes (null: infinite); finished jobs are
    skipped."""
    base = {
        "user_name": "u1",
        "account": "b",
        "qos": "normal",
        "partition": "batch",
        "nice": 0,
        "priority": 100,
        "submit_time": 1795302549,
        "eligible_time": 1795302549,
        "accrue_time": 1795302549,
        "start_time": 0,
        "cpus": 2,
        "node_count": 1,
        "tres_req_str": "cpu=2,mem=1G,node=1,billing=2",
        "time_limit": 30,
        "array_job_id": 0,
        "array_task_id": None,
        "array_task_string": "",
    }
    jobs = [
        {**base, "job_id": 12, "job_state": "PENDING"},
        {
            **base,
            "job_id": 13,
            "array_job_id": 10,
            "array_task_id": 3,
            "job_state": "RUNNING",
            "start_time": 1795302560,
            "time_limit": None,
        },
        {
            **base,
            "job_id": 10,
            "array_job_id": 10,
            "array_task_string": "4-9",
            "job_state": "PENDING",
        },
        {**base, "job_id": 9, "job_state": "COMPLETED"},
    ]
    path = tmp_path / "squeue.json"
    path.write_text(json.dumps({"jobs": jobs}))
    out = read_jobs(str(path))
    assert [j.obj["id"] for j in out.jobs] == ["12", "13", "10"]
    assert out.skipped == ["9"]
    first, running = out.jobs[0].obj, out.jobs[1].obj
    assert first["time_limit"] == 1800.0
    assert first["request_memory"] == 1024
    assert first["accrue_time"] == 1795302549.0
    assert running["status"] == "running"
    assert running["start_time"] == 1795302560.0
    assert running["time_limit"] == "INFINITE"
    assert out.jobs[0].printed_priority == 100


def test_scontrol_jobs_array_task(tmp_path: Path) -> None:
    path = tmp_path / "jobs.txt"
    path.write_text(
        "JobId=11 ArrayJobId=10 ArrayTaskId=1 JobName=x\n"
        "   UserId=u1(1001) GroupId=g(1)\n"
        "   Priority=7 Nice=0 Account=b QOS=normal\n"
        "   JobState=PENDING Reason=Priority\n"
        "   SubmitTime=2026-11-21T23:09:09 EligibleTime=2026-11-21T23:09:09\n"
        "   AccrueTime=Unknown\n"
        "   Partition=batch\n"
        "   NumNodes=1-2 NumCPUs=3 NumTasks=3\n"
        "   TRES=cpu=3,node=1\n"
    )
    (job,) = read_jobs(str(path)).jobs
    assert job.obj["id"] == "11"  # its JobId, as sprio prints it (squeue: 10_1)
    assert job.job.num_nodes is None  # NumNodes=1-2: its first number, 1: left out (at least one)
    assert "num_nodes" not in job.obj
    assert "accrue_time" not in job.obj


def test_large_input_on_a_terminal_shows_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bar only when stderr is a terminal and the file is large; lines come out alike."""
    import io
    import sys

    from fairshare_cli.io.importers import common

    path = tmp_path / "big.txt"
    path.write_text("".join(f"line {i}\n" for i in range(70000)))

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(common, "LARGE_INPUT", 1000)
    monkeypatch.setattr(sys, "stderr", Tty())
    shown = []
    real = common._Bar

    class Spy(real):  # type: ignore[misc, valid-type]
        def advance(self, done: int) -> None:
            shown.append(done)
            super().advance(done)

    monkeypatch.setattr(common, "_Bar", Spy)
    lines = list(common.text_lines(str(path)))
    assert len(lines) == 70000
    assert lines[-1] == (70000, "line 69999")
    assert shown  # the bar moved
    monkeypatch.setattr(common, "LARGE_INPUT", 10**12)
    shown.clear()
    assert list(common.text_lines(str(path))) == lines
    assert not shown


def test_stdin_dump(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from fairshare_cli.cli.main import cli

    qos = Path(__file__).parents[1] / "fixtures/slurm-22.05/ft1_running/sacctmgr_qos.txt"
    res = CliRunner().invoke(cli, ["import", "sacctmgr", "-"], input=qos.read_text())
    assert res.exit_code == 0, res.output
    assert "[qos.high]\npriority = 100\nusage_factor = 1\n" in res.stdout


def test_sacctmgr_several_clusters(tmp_path: Path) -> None:
    listing = tmp_path / "assoc.txt"
    listing.write_text(
        "Cluster|Account|User|Share|ParentName\none|a||5|root\ntwo|a||7|root\ntwo|a|u1|1|\n"
    )
    with pytest.raises(InputError, match=r"2 clusters \(one, two\); pick one with --cluster"):
        read_sacctmgr(str(listing))
    assert read_sacctmgr(str(listing), cluster="two").fragment() == {
        "accounts": {"a": {"parent": "root", "shares": 7, "users": {"u1": 1}}}
    }


def test_sacctmgr_parsable_tree(tmp_path: Path) -> None:
    """``sacctmgr -P show assoc tree format=Account,User,Share``: depth from indentation."""
    listing = tmp_path / "tree.txt"
    listing.write_text(
        "Account|User|Share\nroot||1\n a||40\n  b||30\n   b|u1|1\n  c||10\n d||60\n  d|u9|2\n"
    )
    assert read_sacctmgr(str(listing)).fragment() == {
        "accounts": {
            "a": {"parent": "root", "shares": 40},
            "b": {"parent": "a", "shares": 30, "users": {"u1": 1}},
            "c": {"parent": "a", "shares": 10},
            "d": {"parent": "root", "shares": 60, "users": {"u9": 2}},
        }
    }


def test_sacctmgr_lineage_gives_the_parents(tmp_path: Path) -> None:
    """26.05 lists ``Lineage`` (``/a/b/``: b under a) instead of Lft/Rgt
    (``src/sacctmgr/common.c``); with no ParentName column it gives each account's parent."""
    path = tmp_path / "assoc.txt"
    path.write_text(
        "Cluster|Account|User|Share|Lineage|ID\n"
        "oracle|root||1|/|1\n"
        "oracle|a||40|/a/|3\n"
        "oracle|a|u6|5|/a/0-u6/|14\n"
        "oracle|b||30|/a/b/|5\n"
        "oracle|b|u1|1|/a/b/0-u1/|9\n"
        "oracle|d||60|/d/|4\n"
    )
    accounts = read_sacctmgr(str(path)).accounts
    assert {k: v.get("parent") for k, v in accounts.items() if k != "root"} == {
        "a": "root",
        "b": "a",
        "d": "root",
    }
    assert accounts["b"] == {"parent": "a", "shares": 30, "users": {"u1": 1}}


def test_sacctmgr_26_05_tree_after_a_refused_listing() -> None:
    """The capture asks first for LFT,RGT, which 26.05 refuses (``Unknown field 'lft'``):
    that listing is noted and skipped; the -P listing and the Lineage tree agree."""
    from tests.conftest import FIXTURES

    dump = FIXTURES / "slurm-26.05" / "ft4_t2_idle" / "sacctmgr_assoc_tree.txt"
    listing = read_sacctmgr(str(dump))
    assert listing.ignored == ["line 2: \"Unknown field 'lft'\" (a listing sacctmgr refused)"]
    assert listing.accounts["g"] == {"parent": "d", "shares": 15, "users": {"u3": 7, "u8": 3}}
    assert listing.accounts["e"]["users"] == {"u4": 1, "u7": "parent"}


def test_sacctmgr_an_error_alone_is_no_listing(tmp_path: Path) -> None:
    path = tmp_path / "assoc.txt"
    path.write_text("Unknown field 'lft'\n")
    with pytest.raises(InputError, match="no association or QOS listing found"):
        read_sacctmgr(str(path))


def test_assoc_mgr_26_05_lineage_and_comment(tmp_path: Path) -> None:
    """26.05's records carry ``Lineage=`` and end with ``Comment=`` (free text,
    ``src/scontrol/info_assoc_mgr.c``): the usage is read as before, two decimals."""
    from tests.conftest import FIXTURES

    dump = FIXTURES / "slurm-26.05" / "ft4_t2_idle" / "scontrol_assoc_mgr.txt"
    text = dump.read_text().replace("Comment=(null)", "Comment=moved from b, UsageRaw=9", 1)
    path = tmp_path / "assoc_mgr.txt"
    path.write_text(text)
    out = read_assoc_mgr(str(path))
    assert (out.users[("a", "u6")], out.users[("g", "u8")], out.users[("c", "u3")]) == (
        917.25,
        917.25,
        0.0,
    )
    assert out.accounts["root"] == 4401.51
    assert out.qos_usage["normal"] == 4401.50998


def _shares_doc(rows: list[dict[str, object]]) -> str:
    return json.dumps({"shares": {"shares": rows, "total_shares": 0}, "meta": {}, "errors": []})


def _num(value: float, set_: bool = True, infinite: bool = False) -> dict[str, object]:
    return {"set": set_, "infinite": infinite, "number": value}


@pytest.mark.parametrize(
    "plain",
    [
        pytest.param(True, id="v0.0.40-41"),  # FLOAT64 fairshare/effective_usage, flag array
        pytest.param(False, id="v0.0.42-45"),  # FLOAT64_NO_VAL: {set, infinite, number}
    ],
)
def test_sshare_json_usage_is_the_users_share_of_root(tmp_path: Path, plain: bool) -> None:
    """``usage`` is whole (UINT64), ``usage_normalized`` full precision: root 100 (whole),
    u1 25 of 0.25 (root in [100, 104)), u2 75 of 0.755 (root in [99.34, 100.66)): root is in
    [100, 100.662...), its middle 100.331...; u1 = 0.25 × that, u2 = 0.755 × that."""

    def f(x: float) -> object:
        return x if plain else _num(x)

    rows = [
        {
            "name": "root",
            "parent": "",
            "partition": "",
            "shares": _num(0, set_=False),
            "usage": 100,
            "usage_normalized": _num(0, set_=False),
            "effective_usage": f(1.0),
            "type": ["ASSOCIATION"],
        },
        {
            "name": "a",
            "parent": "root",
            "partition": "",
            "shares": _num(40),
            "usage": 100,
            "usage_normalized": _num(1.0),
            "type": ["ASSOCIATION"],
        },
        {
            "name": "u1",
            "parent": "a",
            "partition": "",
            "shares": _num(1),
            "usage": 25,
            "usage_normalized": _num(0.25),
            "type": ["USER"] if plain else "USER",
        },
        {
            "name": "u2",
            "parent": "a",
            "partition": "",
            "shares": _num(0x7FFFFFFF),
            "usage": 75,
            "usage_normalized": _num(0.755),
            "type": ["USER"],
        },
    ]
    path = tmp_path / "shares.json"
    path.write_text("$ sshare -a --json\n" + _shares_doc(rows))
    out = read_sshare(str(path))
    root = (100 + 76 / 0.755) / 2
    assert out.exact
    assert out.usage == {("a", "u1"): 0.25 * root, ("a", "u2"): 0.755 * root}
    assert int(out.usage[("a", "u1")]) == 25
    assert int(out.usage[("a", "u2")]) == 75
    assert out.accounts == {
        "a": {"parent": "root", "shares": 40, "users": {"u1": 1, "u2": "parent"}}
    }


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        pytest.param('{"jobs": []}', "expected sshare --json output", id="squeue"),
        pytest.param(
            '{"shares": {"shares": [{"name": "u", "parent": "a", "usage": "x", '
            '"type": ["USER"]}]}}',
            "shares[0]: usage: expected a number",
            id="usage",
        ),
        pytest.param('{"shares": ', "f.json:1: not valid JSON", id="truncated"),
    ],
)
def test_sshare_json_refusals(tmp_path: Path, doc: str, expected: str) -> None:
    path = tmp_path / "f.json"
    path.write_text(doc)
    with pytest.raises(InputError, match=re.escape(expected)):
        read_sshare(str(path))


@pytest.mark.parametrize(
    ("fields", "printed", "by_partition", "site"),
    [
        pytest.param({"priority": 7}, 7, {}, 0, id="v0.0.40-plain"),
        pytest.param({"priority": _num(7)}, 7, {}, 0, id="v0.0.41-number"),
        pytest.param(
            {
                "priority": _num(2150),
                "priority_by_partition": [
                    {"partition": "batch", "priority": 2150},
                    {"partition": "express", "priority": 2900},
                ],
            },
            2150,
            {"batch": 2150, "express": 2900},
            0,
            id="v0.0.42-45",
        ),
        pytest.param(
            {
                "priority": _num(0, set_=False),
                "priority_by_partition": [{"partition": "express", "priority": 2900}],
            },
            2900,
            {"express": 2900},
            0,
            id="priority-unset",
        ),
        pytest.param({"priority": 7, "site_factor": -40}, 7, {}, -40, id="site"),
        pytest.param({"priority": 7, "site_factor": _num(40)}, 7, {}, 40, id="site-number"),
    ],
)
def test_squeue_json_priority_shapes(
    tmp_path: Path,
    fields: dict[str, object],
    printed: int,
    by_partition: dict[str, int],
    site: int,
) -> None:
    """``priority`` is ``UINT32_NO_VAL`` (a number, or ``{set, infinite, number}``);
    24.11 on add ``priority_by_partition`` (``PRIORITY_BY_PARTITION``, plain numbers); a
    ``site_factor`` field, where a dump has one, is the job's site factor."""
    job = {
        "job_id": 25,
        "job_state": ["PENDING"],
        "user_name": "u6",
        "account": "a",
        "partition": "batch,express",
        "cpus": _num(5),
        "submit_time": _num(1795890032),
        **fields,
    }
    path = tmp_path / "squeue.json"
    path.write_text(json.dumps({"jobs": [job], "meta": {}}))
    (item,) = read_jobs(str(path)).jobs
    assert (item.printed_priority, item.printed_by_partition) == (printed, by_partition)
    assert (item.job.site_factor, item.job.partitions) == (site, ("batch", "express"))


def test_squeue_json_bad_priority_by_partition(tmp_path: Path) -> None:
    job = {"job_id": 1, "job_state": "PENDING", "user_name": "u", "priority_by_partition": [3]}
    path = tmp_path / "squeue.json"
    path.write_text(json.dumps({"jobs": [job]}))
    with pytest.raises(InputError, match=r"jobs\[0\]: priority_by_partition: expected a list"):
        read_jobs(str(path))
