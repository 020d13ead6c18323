"""``fs import dirac-cfg`` takes only a DIRAC configuration and a VO it has
(io/importers/dirac_cfg.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from tests.cli.conftest import refused, write_pool
from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse

DIRAC_CFG = OTHER_DUMPS["dirac.cfg"]
NOT_DIRAC = "no /Registry/Groups or /Operations section; expected a DIRAC configuration (.cfg)"


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("", id="empty"),
        pytest.param(GARBAGE, id="garbage"),
        pytest.param(OTHER_DUMPS["condor_config"], id="condor_config"),
        pytest.param(OTHER_DUMPS["slurm.conf"], id="slurm.conf"),
        pytest.param(OTHER_DUMPS["sacctmgr"], id="sacctmgr"),
        pytest.param("DIRAC\n{\n  VirtualOrganization = lhcb\n}\n", id="no-groups"),
    ],
)
def test_what_is_not_a_dirac_configuration_is_refused(
    refuse_dump: Refuse, content: str | Path
) -> None:
    """An empty file, garbage or another tool's file once printed a default ``[dirac]``."""
    refuse_dump("dirac-cfg", content, NOT_DIRAC, into=True)


def test_an_unknown_vo_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``--vo nosuchvo`` once read /Operations/Defaults only, silently turning share
    correction off; it names the VOs the file has."""
    pool = write_pool(tmp_path)
    before = pool["config"].read_bytes()
    result = run(
        "import", "dirac-cfg", str(DIRAC_CFG), "--vo", "nosuchvo", "--into", str(pool["config"])
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: --vo nosuchvo: {DIRAC_CFG} has no VO nosuchvo (no /Operations/nosuchvo); "
        "its VOs: gridpp, lhcb\n"
    )
    assert pool["config"].read_bytes() == before


def test_a_vo_of_the_file_is_taken(run: Callable[..., Any]) -> None:
    result = run("import", "dirac-cfg", str(DIRAC_CFG), "--vo", "lhcb")
    assert result.exit_code == 0, result.stderr
    assert "share correction on with 2 instances" in result.stderr


def test_a_file_without_vos_says_so(tmp_path: Path, run: Callable[..., Any]) -> None:
    cfg = tmp_path / "dirac.cfg"
    cfg.write_text("Registry\n{\n  Groups\n  {\n    g\n    {\n    }\n  }\n}\n")
    refused(run("import", "dirac-cfg", str(cfg), "--vo", "lhcb"), "it names no VO")


def test_a_group_name_is_a_name(refuse_dump: Refuse) -> None:
    """A group name with a terminal escape would reach the config; refused where read."""
    text = "Registry\n{\n  Groups\n  {\n    lhcb\x1b[2J\n    {\n    }\n  }\n}\n"
    refuse_dump(
        "dirac-cfg",
        text,
        ":6: a group name in Registry/Groups: expected a name without blanks or control",
        into=True,
    )


@pytest.mark.parametrize(
    ("dump", "expected"),
    [
        pytest.param("condor_status -json", ':138: section \'"State"', id="condor_status"),
        pytest.param("condor_q -json", ':153: section \'"ServerTime"', id="condor_q"),
    ],
)
def test_a_json_dump_is_refused_in_a_short_line(
    refuse_dump: Refuse, dump: str, expected: str
) -> None:
    """JSON read as a .cfg makes names of whole lines: the error shows their start (then
    the import the dump is for)."""
    result = refuse_dump("dirac-cfg", OTHER_DUMPS[dump], expected, into=True)
    shown, _, hint = result.stderr.partition("; it looks like ")
    assert len(shown) < 300
    assert f"fs import {dump.split()[0].replace('_', '-')}" in hint


CLASH = """DIRAC
{
  VirtualOrganization = vo
}
Registry
{
  Groups
  {
    g
    {
      VO = vo
    }
  }
}
Operations
{
  Defaults
  {
    JobScheduling
    {
      taskQueueCPUTimeIntervals = 100, 200
    }
    JobDescription
    {
      MaxCPUTime = 1000
    }
  }
  vo
  {
    JobDescription = none
  }
}
"""
CLASH_FAILS = (
    ":30: /Operations/vo/JobDescription is an option but /Operations/Defaults/JobDescription "
    "a section: DIRAC's Operations helper cannot merge them (CFG.mergeWith: 'JobDescription "
    "key already exists') and fails on every value it reads (CPU segments, share correction, "
    "JobDescription); make both options or both sections"
)


def test_an_option_and_a_section_of_one_name_in_two_operations_paths_are_refused(
    refuse_dump: Refuse,
) -> None:
    """DIRAC's ``Operations`` helper merges /Operations/Defaults with /Operations/<VO>
    (``CFG.mergeWith``), which raises ``KeyError`` on a name that is a section in one and an
    option in the other, on every value read through it: TaskQueueDB's CPU segments,
    JobManager's bounds. fs once imported the file, exit 0, the option winning silently
    (MaxCPUTime 1000 gone, the CPU segments 100, 200 taken)."""
    result = refuse_dump("dirac-cfg", CLASH, CLASH_FAILS, into=True)
    assert result.stderr.endswith(f"dump.txt{CLASH_FAILS}\n")


def test_such_a_clash_in_a_groups_own_vo_is_a_warning(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Without /DIRAC/VirtualOrganization TaskQueueDB reads /Operations/Defaults alone; only
    JobManager's checks of the group's jobs merge its VO's section, and fail."""
    cfg = tmp_path / "dirac.cfg"
    cfg.write_text(CLASH.replace("  VirtualOrganization = vo\n", ""), encoding="utf-8")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert (
        f"fs: warning: {cfg}{CLASH_FAILS.replace(':30:', ':29:')} (read for group g's jobs: "
        "its VO is vo)\n"
    ) in result.stderr
    assert "cpu_segments = [100, 200]" in result.stdout


READ_THROUGH = """Registry
{
  Groups
  {
    g
    {
    }
  }
}
Operations
{
  Defaults
  {
    JobScheduling
    {
      EnableSharesCorrection = true
      ShareCorrections =
    }
  }
}
"""


@pytest.mark.parametrize(
    ("text", "name", "line"),
    [
        pytest.param(READ_THROUGH, "JobScheduling/ShareCorrections", 17, id="share-corrections"),
        pytest.param(
            READ_THROUGH.replace(
                "    JobScheduling\n    {\n", "    JobScheduling = off\n    Ex\n    {\n"
            ),
            "JobScheduling",
            14,
            id="job-scheduling",
        ),
        pytest.param(
            READ_THROUGH.replace(
                "    JobScheduling\n", "    JobDescription = none\n    JobScheduling\n"
            ),
            "JobDescription",
            14,
            id="job-description",
        ),
    ],
)
def test_an_option_where_dirac_reads_a_section_is_refused(
    refuse_dump: Refuse, text: str, name: str, line: int
) -> None:
    """``Operations.getValue("JobScheduling/ShareCorrections/ShareCorrectorsToStart")`` walks
    through ``ShareCorrections`` and asserts a section there (``CFG.getOption``): with
    correction on, every TaskQueuesAgent cycle fails; ``JobScheduling`` as an option fails
    every ``insertJob`` (its CPU segments), ``JobDescription`` every job submission. fs once
    imported such a file, exit 0, reading the option as no section at all."""
    refuse_dump(
        "dirac-cfg",
        text,
        f"dump.txt:{line}: {name} in /Operations is an option, not a section: DIRAC reads "
        f"{name}/... through it (CFG.getOption asserts a section there) and fails on every "
        "such value; make it a section",
        into=True,
    )


def test_share_corrections_as_an_option_is_unread_with_correction_off(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``SharesCorrector.update`` runs only when ``EnableSharesCorrection`` is on."""
    cfg = tmp_path / "dirac.cfg"
    cfg.write_text(READ_THROUGH.replace("= true", "= false"), encoding="utf-8")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert "share correction off with 0 instances" in result.stderr


def test_an_option_whose_path_dirac_does_not_find_is_dropped(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``Gruops/g/JobShare = 5`` (a misspelt path): DIRAC's ``CFG.setOption`` finds no
    parent, returns an error ``loadFromBuffer`` ignores, and reads the rest; g keeps the
    JobShare its own section gives. fs refused the whole file (exit 2)."""
    cfg = tmp_path / "dirac.cfg"
    cfg.write_text(
        "Registry\n{\n  Groups\n  {\n    g\n    {\n      JobShare = 700\n    }\n  }\n"
        "  Gruops/g/JobShare = 5\n  Groups/g/AllowBackgroundTQs = yes\n}\n",
        encoding="utf-8",
    )
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith(
        f"fs: warning: {cfg}:10: 'Gruops/g/JobShare' names a path whose parent section does "
        "not exist; DIRAC drops the option unseen\n"
    )
    groups = tomlkit.loads(result.stdout).unwrap()["dirac"]["groups"]
    assert groups == {"g": {"job_share": 700, "job_sharing": False, "allow_background_tqs": True}}


TWO_VOS = """Registry
{
  Groups
  {
    lhcb_user
    {
      JobShare = 1000
      VO = lhcb
    }
    biomed_user
    {
      JobShare = 500
      VO = biomed
    }
  }
}
Operations
{
  lhcb
  {
  }
}
"""


def test_the_vos_come_over_for_the_generic_pilots_groups(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """``/Registry/Groups/<g>/VO`` is each group's ``vo``, and the services' VO
    (``/DIRAC/VirtualOrganization``, here none, or ``--vo``) ``[dirac] vo``: without it
    DIRAC's matcher gives a generic biomed pilot biomed_user alone (``getGroupsForVO``), so
    it takes carl's queue (biomed_user's 500) and not alice's (lhcb_user's 1000); with
    ``--vo lhcb`` every group, both queues. fs read the VOs as unknown options (ignored)."""
    cfg = tmp_path / "dirac.cfg"
    cfg.write_text(TWO_VOS, encoding="utf-8")
    jobs = tmp_path / "jobs.json"
    jobs.write_text(
        '[{"id": "1.0", "owner": "alice", "dirac_group": "lhcb_user"},'
        ' {"id": "2.0", "owner": "carl", "dirac_group": "biomed_user"}]',
        encoding="utf-8",
    )
    pilot = ["--pilot", "CPUTime=86400", "--pilot", "Site=LCG.X.org"]
    pilot += ["--pilot", "DIRACVersion=v9", "--pilot", "VirtualOrganization=biomed"]
    for vo, expected in (([], [(2, 500.0)]), (["--vo", "lhcb"], [(1, 1000.0), (2, 500.0)])):
        result = run("import", "dirac-cfg", str(cfg), *vo)
        assert result.exit_code == 0, result.stderr
        assert "Registry/Groups/*/VO" not in result.stderr
        assert ('vo = "lhcb"\n' in result.stdout.split("[dirac.groups")[0]) == bool(vo)
        assert 'vo = "biomed"' in result.stdout.split("[dirac.groups.biomed_user]")[1]
        config = tmp_path / "pool.toml"
        config.write_text(result.stdout, encoding="utf-8")
        result = run(
            "taskqueues", "--config", str(config), "--state", str(tmp_path / "s.json"),
            "--now", "2026-11-21T12:00:00Z", "--jobs-file", str(jobs), *pilot, "--json",
        )  # fmt: skip
        assert result.exit_code == 0, result.stderr
        rows = [(row["tq_id"], row["priority"]) for row in json.loads(result.stdout)]
        assert rows == expected


def test_a_misspelt_job_share_is_named(tmp_path: Path, run: Callable[..., Any]) -> None:
    """fs import dirac-cfg d.cfg of a group whose share is spelt JobShares: DIRAC reads no
    such option, so the group keeps the default share (1000), where the admin meant 4000;
    it was only counted among the ignored options. Now a warning names the line and
    JobShare; the group's other options (Users, VOMSRole) get none."""
    cfg = tmp_path / "d.cfg"
    cfg.write_text(
        "Registry\n{\n  Groups\n  {\n    lhcb_user\n    {\n      Users = alice\n"
        "      JobShares = 4000\n      VOMSRole = /lhcb\n    }\n  }\n}\n",
        encoding="utf-8",
    )
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert "job_share = 1000" in result.stdout
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warnings == [
        f"fs: warning: {cfg}:8: Registry/Groups/lhcb_user/JobShares: DIRAC reads no such "
        "option (did you mean 'JobShare'?)"
    ]


def test_sections_nested_too_deep_are_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    """/Operations/Defaults and /Operations/<VO> nested 5000 levels deep ended in a
    RecursionError traceback (exit 1) as fs merged them, where DIRAC's CFG.mergeWith fails
    too; now one line naming where, the config untouched."""
    pool = write_pool(tmp_path)
    deep = "".join(f"S{i}\n{{\n" for i in range(5000)) + "X = 1\n" + "}\n" * 5000
    cfg = tmp_path / "deep.cfg"
    cfg.write_text(
        "DIRAC\n{\nVirtualOrganization = lhcb\n}\nOperations\n{\nDefaults\n{\n"
        f"{deep}}}\nlhcb\n{{\n{deep}}}\n}}\n",
        encoding="utf-8",
    )
    before = pool["config"].read_bytes()
    result = run("import", "dirac-cfg", str(cfg), "--into", str(pool["config"]))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {cfg}:406: section 'S198' is nested more than 200 levels deep; DIRAC "
        "merges a configuration one call per level (CFG.mergeWith) and fails near 500; "
        "expected DIRAC's .cfg text nesting a few levels\n"
    )
    assert pool["config"].read_bytes() == before


def test_sections_nested_200_deep_merge(tmp_path: Path, run: Callable[..., Any]) -> None:
    deep = "".join(f"S{i}\n{{\n" for i in range(198)) + "X = 1\n" + "}\n" * 198
    cfg = tmp_path / "deep.cfg"
    cfg.write_text(
        "DIRAC\n{\nVirtualOrganization = lhcb\n}\nOperations\n{\nDefaults\n{\n"
        f"{deep}}}\nlhcb\n{{\n{deep}}}\n}}\nRegistry\n{{\nGroups\n{{\nu\n{{\n}}\n}}\n}}\n",
        encoding="utf-8",
    )
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert "ignored 1: Operations/*/S0" in result.stderr
