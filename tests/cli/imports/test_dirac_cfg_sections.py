"""``fs import dirac-cfg``: a DIRAC configuration as the ``[dirac]`` sections.

The fixture ``tests/fixtures/dirac-cfg/dirac.cfg`` was written from DIRAC's documentation
(its README says what DIRAC 9.1 reads from it). Expected values follow DIRAC's code paths:
``TaskQueueDB.getGroupShares`` (``JobShare`` typed by the int default 1000),
``Registry.getPropertiesForGroup`` (a list), ``AllowBackgroundTQs`` (a boolean), the
``Operations`` helper (``/Operations/Defaults`` merged with ``/Operations/<VO>``),
``fitCPUTimeToSegments`` and ``SharesCorrector``/``BaseHistoryCorrector``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from tests.cli.conftest import refused
from tests.conftest import FIXTURES

CFG = FIXTURES / "dirac-cfg" / "dirac.cfg"
NOW = "2026-11-21T12:00:00Z"


def toml(text: str) -> dict[str, Any]:
    data: dict[str, Any] = tomlkit.parse(text).unwrap()
    return data


def test_fixture_reads_as_dirac_reads_it(run: Callable[..., Any]) -> None:
    result = run("import", "dirac-cfg", str(CFG))
    assert result.exit_code == 0, result.stderr
    dirac = toml(result.stdout)["dirac"]
    assert dirac["groups"] == {
        "lhcb_user": {"job_share": 1000, "job_sharing": False, "allow_background_tqs": False},
        "lhcb_prod": {"job_share": 300, "job_sharing": True, "allow_background_tqs": False},
        "lhcb_mc": {"job_share": 4000, "job_sharing": True, "allow_background_tqs": True},
        # "40000 # data": int() refuses the text, so getValue gives DEFAULT_GROUP_SHARE.
        "lhcb_data": {"job_share": 1000, "job_sharing": True, "allow_background_tqs": False},
        "lhcb_admin": {"job_share": 1000, "job_sharing": False, "allow_background_tqs": False},
    }
    # /Operations/lhcb (the VO of /DIRAC/VirtualOrganization) overrides Defaults; += appends.
    assert dirac["cpu_segments"] == [360, 3600, 86400, 259200]
    correction = dirac["correction"]
    assert correction["enabled"] is True
    week = {"time_span": 604800, "weight": 80, "max_correction": 2}
    hour = {"time_span": 3600, "weight": 20, "max_correction": 5}
    assert correction["instances"] == [
        {"name": "GroupsInstance", "group": "", "max_global_correction": 3,
         "slices": [week, hour]},
        # MaxGlobalCorrectionFactor (the documented name) is never read: the default 5.
        {"name": "lhcb_userInstance", "group": "lhcb_user", "max_global_correction": 5,
         "slices": [week, hour]},
    ]  # fmt: skip
    # JobDescription/DefaultCPUTime, read through the same Operations helper.
    assert dirac["job_description"] == {"default_cpu_time": 86400}
    lines = result.stderr.splitlines()
    assert lines[0] == (
        f"fs: warning: {CFG}:58: Registry/Groups/lhcb_data/JobShare = '40000 # data' is not an "
        "integer; DIRAC reads the default 1000"
    )
    assert lines[1] == (
        "dirac-cfg: 5 groups, share correction on with 2 instances (4 slices), 4 CPU segments; "
        "ignored 9: Operations/JobScheduling/CheckJobLimits, "
        "Operations/gridpp, Registry/DefaultGroup, Registry/Groups/*/Users, "
        "Registry/Groups/*/VOMSRole, Registry/Users, Resources, "
        "ShareCorrections/*/*/MaxGlobalCorrectionFactor, Systems"
    )


def test_without_a_vo_only_defaults_apply(run: Callable[..., Any], tmp_path: Path) -> None:
    text = CFG.read_text(encoding="utf-8").replace("VirtualOrganization = lhcb", "")
    path = tmp_path / "novo.cfg"
    path.write_text(text, encoding="utf-8")
    result = run("import", "dirac-cfg", str(path))
    assert result.exit_code == 0, result.stderr
    dirac = toml(result.stdout)["dirac"]
    assert dirac["cpu_segments"] == [360, 1800, 3600]
    assert dirac["correction"] == {"enabled": False, "instances": []}
    # --vo picks a VO's section explicitly.
    result = run("import", "dirac-cfg", str(path), "--vo", "gridpp")
    dirac = toml(result.stdout)["dirac"]
    assert dirac["correction"]["enabled"] is False
    assert dirac["cpu_segments"] == [360, 1800, 3600]


def test_dirac8_setup_layout(run: Callable[..., Any], write_config: Callable[..., Path]) -> None:
    """DIRAC 8's Operations merged Defaults, <Setup>, <VO>/Defaults, <VO>/<Setup>, in order."""
    cfg = write_config(
        """
DIRAC
{
  VirtualOrganization = vo
}
Operations
{
  Defaults
  {
    JobScheduling
    {
      taskQueueCPUTimeIntervals = 100, 200
    }
  }
  Prod
  {
    JobScheduling
    {
      EnableSharesCorrection = yes
    }
  }
  vo
  {
    Defaults
    {
      JobScheduling
      {
        taskQueueCPUTimeIntervals = 300, 400
      }
    }
    Prod
    {
      JobScheduling
      {
        taskQueueCPUTimeIntervals = 500, 600
      }
    }
  }
}
""",
        name="d8.cfg",
    )
    result = run("import", "dirac-cfg", str(cfg), "--setup", "Prod")
    assert "--setup" not in result.stderr  # (the file has it: no warning)
    dirac = toml(result.stdout)["dirac"]
    assert dirac["cpu_segments"] == [500, 600]
    assert dirac["correction"]["enabled"] is True
    result = run("import", "dirac-cfg", str(cfg))  # DIRAC 9: Defaults and /Operations/vo
    assert toml(result.stdout)["dirac"]["cpu_segments"] == [100, 200]


def test_a_setup_leaves_the_vos_own_sections_listed_as_ignored(run: Callable[..., Any]) -> None:
    """``fs import dirac-cfg dirac.cfg --setup X`` of a DIRAC 9 file: DIRAC 8's Operations
    read only ``/Operations/lhcb/Defaults`` and ``/Operations/lhcb/X``, so the VO's
    ``JobScheduling`` (correction on, 4 segments) is not read. The summary left it out of
    what was ignored ("ignored 8: ..."), as if all had been read; now it names it. The file
    has no section of setup X: a warning says its defaults apply (a misspelt setup was
    taken without a word)."""
    result = run("import", "dirac-cfg", str(CFG), "--setup", "X")
    assert result.exit_code == 0, result.stderr
    dirac = toml(result.stdout)["dirac"]
    assert (dirac["correction"]["enabled"], dirac["cpu_segments"]) == (False, [360, 1800, 3600])
    assert result.stderr.splitlines()[1] == (
        "fs: warning: --setup X: the file has no /Operations/X or /Operations/lhcb/X; its "
        "defaults apply"
    )
    assert result.stderr.splitlines()[2] == (
        "dirac-cfg: 5 groups, share correction off with 0 instances (0 slices), 3 CPU "
        "segments; ignored 9: Operations/JobScheduling/CheckJobLimits, Operations/gridpp, "
        "Operations/lhcb/JobScheduling, Registry/DefaultGroup, Registry/Groups/*/Users, "
        "Registry/Groups/*/VOMSRole, Registry/Users, Resources, Systems"
    )


MULTI_VO = """
Registry
{
  Groups
  {
    lhcb_user
    {
      VO = lhcb
    }
    biomed_user
    {
      VO = biomed
    }
  }
}
Operations
{
  Defaults
  {
    JobDescription
    {
      DefaultCPUTime = 3600
      MaxPriority = 8
    }
  }
  lhcb
  {
    JobDescription
    {
      DefaultCPUTime = 7200
      MaxPriority = 8
      MinCPUTime = 300
    }
  }
  biomed
  {
    JobDescription
    {
      DefaultCPUTime = 3600
    }
  }
  Prod
  {
  }
}
"""


def test_a_groups_own_vo_job_description_is_named(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    """``fs import dirac-cfg multi.cfg`` of a file without ``/DIRAC/VirtualOrganization``:
    TaskQueueDB and JobManager (``Operations()``, no proxy) read ``/Operations/Defaults``
    only, as fs does; ``JobManifest.check`` reads ``Operations(group=...)``, whose VO is the
    group's ``VO``, so lhcb_user's jobs get DefaultCPUTime 7200 and MinCPUTime 300 there.
    fs said nothing of it; now a warning names them (biomed's section agrees: no warning)."""
    cfg = write_config(MULTI_VO, "multi.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert toml(result.stdout)["dirac"]["job_description"] == {
        "default_cpu_time": 3600,
        "max_priority": 8,
    }
    assert result.stderr.splitlines()[0] == (
        f"fs: warning: {cfg}:8: Registry/Groups/lhcb_user/VO = lhcb: DIRAC's JobDB reads the "
        "JobDescription of lhcb_user's jobs from /Operations/lhcb too (DefaultCPUTime = 7200, "
        "MinCPUTime = 300): the default CPU time and priority, and the bounds it clamps them "
        "to; fs gives every group that of /Operations/Defaults (no /DIRAC/VirtualOrganization; "
        "--vo lhcb if DIRAC's services run with it)"
    )
    assert len(result.stderr.splitlines()) == 2  # and the summary
    # With the VO every service runs with, every group reads /Operations/lhcb: no warning.
    result = run("import", "dirac-cfg", str(cfg), "--vo", "lhcb")
    assert "warning" not in result.stderr
    assert toml(result.stdout)["dirac"]["job_description"]["default_cpu_time"] == 7200
    # DIRAC 8 read a VO's setups (<VO>/Defaults, <VO>/<Setup>), not /Operations/lhcb itself.
    result = run("import", "dirac-cfg", str(cfg), "--setup", "Prod")
    assert "warning" not in result.stderr
    text = MULTI_VO.replace("  lhcb\n  {\n", "  lhcb\n  {\n    Defaults\n    {\n", 1)
    text = text.replace("      MinCPUTime = 300\n    }\n", "      MinCPUTime = 300\n    }\n    }\n")
    cfg8 = write_config(text, "multi8.cfg")
    result = run("import", "dirac-cfg", str(cfg8), "--setup", "Prod")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[0].endswith(
        "fs gives every group that of /Operations/Defaults and /Operations/Prod (no "
        "/DIRAC/VirtualOrganization; --vo lhcb if DIRAC's services run with it)"
    )


GROUPS = """
Registry
{{
  Groups
  {{
    g
    {{
      {body}
    }}
  }}
}}
"""


@pytest.mark.parametrize(
    ("body", "share", "warning"),
    [
        pytest.param(
            "JobShare = -5",
            -5,
            "JobShare = -5: DIRAC floors every task queue of this group at the minimum priority 0.001",
            id="neg",
        ),
        pytest.param("JobShare = 0", 0, "JobShare = 0: DIRAC floors every task queue", id="zero"),
        pytest.param("JobShare = 250.5", 1000, "JobShare = '250.5' is not an integer", id="float"),
        pytest.param("JobShare = lots", 1000, "JobShare = 'lots' is not an integer", id="text"),
        pytest.param("JobShare = 250", 250, None, id="plain"),
    ],
)
def test_job_share_as_dirac_reads_it(
    run: Callable[..., Any],
    write_config: Callable[..., Path],
    body: str,
    share: int,
    warning: str | None,
) -> None:
    cfg = write_config(GROUPS.format(body=body), name="g.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert toml(result.stdout)["dirac"]["groups"]["g"]["job_share"] == share
    if warning is None:
        assert "warning" not in result.stderr
    else:
        assert f"fs: warning: {cfg}:8: Registry/Groups/g/{warning}" in result.stderr


def test_bad_segments_fall_back_as_dirac_does(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    ops = (
        "Operations\n{{\n  Defaults\n  {{\n    JobScheduling\n    {{\n      {}\n    }}\n  }}\n}}\n"
    )
    cfg = write_config(ops.format("taskQueueCPUTimeIntervals = 3600, 360"), name="s.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0
    segments = toml(result.stdout)["dirac"]["cpu_segments"]
    assert segments[0] == 360
    assert segments[-1] == 1080000
    assert "DIRAC uses its default segments" in result.stderr
    cfg = write_config(ops.format("taskQueueCPUTimeIntervals = "), name="e.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"fs: error: {cfg}:7: JobScheduling/taskQueueCPUTimeIntervals")


CORRECTORS = """
Registry
{{
  Groups
  {{
    g
    {{
    }}
  }}
}}
Operations
{{
  Defaults
  {{
    JobScheduling
    {{
      EnableSharesCorrection = true
      ShareCorrections
      {{
        ShareCorrectorsToStart = {start}
        WMSHistory
        {{
{instances}
        }}
      }}
    }}
  }}
}}
"""


def test_corrector_instances_and_their_defaults(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    instances = """
          A
          {
            S1
            {
              Weight = heavy
            }
            S2
            {
              TimeSpan = 86400
            }
          }
          B
          {
            S
            {
            }
          }
          C
          {
            Group = g
          }
          D
          {
            Group = nobody
          }
"""
    cfg = write_config(CORRECTORS.format(start="Foo, WMSHistory", instances=instances), "c.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    found = toml(result.stdout)["dirac"]["correction"]["instances"]
    default = {"time_span": 604800, "weight": 1, "max_correction": 3}
    assert found == [
        {"name": "A", "group": "", "max_global_correction": 5,
         "slices": [default, {**default, "time_span": 86400}]},
        {"name": "C", "group": "g", "max_global_correction": 5, "slices": []},
        {"name": "D", "group": "nobody", "max_global_correction": 5, "slices": []},
    ]  # fmt: skip
    err = result.stderr
    assert "corrector type 'Foo' does not exist; DIRAC starts none" in err
    assert (
        "ShareCorrections/WMSHistory/C has no time slices; DIRAC's instance corrects nothing" in err
    )
    assert (
        "ShareCorrections/WMSHistory/A/S1/Weight = 'heavy' is not an integer; DIRAC reads 1" in err
    )
    assert (
        "ShareCorrections/WMSHistory/B corrects the same groups as ShareCorrections/WMSHistory/A"
        in err
    )
    assert "ShareCorrections/WMSHistory/D corrects group 'nobody', which /Registry/Groups" in err


def test_an_instance_for_a_group_the_registry_does_not_list_is_kept(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    """``SharesCorrector.instantiateRequiredCorrectors`` starts an instance whatever its
    ``Group`` names, and the TaskQueueDB corrects that group's owners (under the default
    share 1000) when its jobs are queued. fs left it out ('left out'); it keeps it with a
    warning, and the pool config it makes loads, with the same warning from fs config
    check."""
    instances = "          D\n          {\n            Group = nobody\n            S\n            {\n            }\n          }\n"
    cfg = write_config(CORRECTORS.format(start="WMSHistory", instances=instances), "c.cfg")
    target = write_config("[pool]\ndefaults = 'current'\n", name="pool.toml")
    result = run("import", "dirac-cfg", str(cfg), "--into", str(target))
    assert result.exit_code == 0, result.stderr
    assert (
        f"fs: warning: {cfg}:24: ShareCorrections/WMSHistory/D corrects group 'nobody', which "
        "/Registry/Groups does not list; kept: DIRAC still corrects its owners (share 1000 "
        "between them)"
    ) in result.stderr
    found = toml(target.read_text(encoding="utf-8"))["dirac"]["correction"]["instances"]
    default = {"time_span": 604800, "weight": 1, "max_correction": 3}
    assert found == [
        {"name": "D", "group": "nobody", "max_global_correction": 5, "slices": [default]}
    ]
    check = run("config", "check", "--config", str(target))
    assert check.exit_code == 0, check.stderr
    assert (
        "dirac.correction.instances[0].group: 'nobody' is not in [dirac.groups] (known: g); "
        "as in DIRAC, its owners still get this correction, under the default share 1000"
    ) in check.stderr


def test_two_corrector_types_for_the_same_groups_are_both_applied_in_dirac(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    """``fs import dirac-cfg c.cfg`` with a ``WMSHistory`` and a ``MonitoringHistory``
    instance between groups: ``SharesCorrector`` refuses a second instance for a key only
    within one type (``self.__shareCorrectors[corrector]``), and ``correctShares`` runs every
    started type in turn. fs kept the first only, with a warning; it keeps both, the second
    marked with its type, and says nothing (``fs taskqueues`` applies both in turn)."""
    instances = """
          A
          {
            S
            {
            }
          }
        }
        MonitoringHistory
        {
          C
          {
            S
            {
            }
          }
"""
    start = "WMSHistory, MonitoringHistory"
    cfg = write_config(CORRECTORS.format(start=start, instances=instances), "c.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    found = toml(result.stdout)["dirac"]["correction"]["instances"]
    assert [(i["name"], i.get("corrector")) for i in found] == [
        ("A", None),
        ("C", "MonitoringHistory"),
    ]
    assert "corrects the same" not in result.stderr


def test_slice_weights_summing_to_zero_are_kept_with_a_warning(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """DIRAC's ``_fillSlices`` divides by the weights' sum when the agent starts the
    instance: that cycle fails, and the type never starts it or its later instances again,
    which fs's config leaves out too (docs/dirac.md). The import refused the file."""
    instances = "          A\n          {\n            S\n            {\n              Weight = 0\n            }\n          }\n"
    cfg = write_config(CORRECTORS.format(start="WMSHistory", instances=instances), "z.cfg")
    target = write_config("[pool]\nname = 'x'\n", name="target.toml")
    result = run("import", "dirac-cfg", str(cfg), "--into", str(target))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith(
        f"fs: warning: {cfg}:24: ShareCorrections/WMSHistory/A: the slice weights sum to zero; "
        "DIRAC's corrector fails to start it (it divides each weight by their sum) and never "
        "starts it or the type's later instances\n"
    )
    assert "slices = [{time_span = 604800, weight = 0, max_correction = 3}]" in (
        target.read_text(encoding="utf-8")
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("A\n{\n", ":2: the file ends inside section 'A'", id="truncated"),
        pytest.param("A\n}\n}\n", ":2: '}' closes a section", id="closes"),
    ],
)
def test_bad_files_exit_2_naming_the_line(
    run: Callable[..., Any], write_config: Callable[..., Path], text: str, message: str
) -> None:
    cfg = write_config(text, name="bad.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 2
    assert result.stderr == f"fs: error: {cfg}{message}" + result.stderr.split(message, 1)[1]
    assert result.stdout == ""


def test_binary_junk_is_refused(run: Callable[..., Any], tmp_path: Path) -> None:
    path = tmp_path / "junk.cfg"
    path.write_bytes(b"A\n{\n\xff\xfe\x00\n}\n")
    result = run("import", "dirac-cfg", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"fs: error: {path}: not UTF-8 text")


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        pytest.param(
            lambda text: b"\xef\xbb\xbf" + text,
            ":1: the file starts with a byte-order mark (U+FEFF)",
            id="byte-order-mark",
        ),
        pytest.param(
            lambda text: text[: len(text) // 2] + b"\0" + text[len(text) // 2 :],
            ": binary data (a NUL byte)",
            id="nul",
        ),
    ],
)
def test_a_file_dirac_would_misread_is_refused(
    run: Callable[..., Any],
    write_config: Callable[..., Path],
    tmp_path: Path,
    damage: Callable[[bytes], bytes],
    says: str,
) -> None:
    """``fs import dirac-cfg dirac.cfg --into pool.toml`` with a byte-order mark before
    ``DIRAC`` (a Windows editor's) read section ``\\ufeffDIRAC``: no VO, so share correction
    "off with 0 instances" and 3 CPU segments instead of on with 2 and 4, exit 0 and the
    config changed; a NUL byte went into a name the same way. Now one line, exit 2, the
    config kept."""
    cfg = tmp_path / "bad.cfg"
    cfg.write_bytes(damage(CFG.read_bytes()))
    target = write_config("[pool]\nname = 'x'\n", name="target.toml")
    before = target.read_bytes()
    result = run("import", "dirac-cfg", str(cfg), "--into", str(target))
    refused(result, f"fs: error: {cfg}:", says)
    assert result.stdout == ""
    assert target.read_bytes() == before


def test_stdin(run: Callable[..., Any]) -> None:
    result = run("import", "dirac-cfg", "-", input=GROUPS.format(body="JobShare = 7"))
    assert result.exit_code == 0, result.stderr
    dirac = toml(result.stdout)["dirac"]
    assert dirac["groups"]["g"]["job_share"] == 7
    # No taskQueueCPUTimeIntervals: DIRAC's defaults, written out so --into resets them.
    assert dirac["cpu_segments"] == [360, 1800, 3600, 21600, 43200, 86400, 172800, 259200,
                                     345600, 518400, 691200, 864000, 1080000]  # fmt: skip
    assert result.stderr.endswith(", default CPU segments\n")


def test_into_then_every_view_reads_it(run: Callable[..., Any], tmp_path: Path) -> None:
    """Merged into the sample pool, the imported values drive ``fs taskqueues``.

    Hand-derived (no history: every corrector slice lacks data, so nothing is corrected):
    alice and bob share lhcb_user's 1000 (500 each, one queue each); lhcb_prod (JobSharing)
    holds 300 in its one queue; lhcb_data's "40000 # data" reads as 1000. CPU times fit the
    imported segments: 3000 s -> 3600, 100000 s -> 259200 (DIRAC's defaults would give 172800).
    Shares are priority over the total 2300.
    """
    pool = Path(__file__).resolve().parents[3] / "sample_configs" / "pool.toml"
    target = tmp_path / "pool.toml"
    target.write_text(pool.read_text(encoding="utf-8"), encoding="utf-8")
    result = run("import", "dirac-cfg", str(CFG), "--into", str(target))
    assert result.exit_code == 2  # the sample pool has other shares: refused without --replace
    assert (
        "dirac.groups.lhcb_prod.job_share is 4000 in the file, the import says 300" in result.stderr
    )
    result = run("import", "dirac-cfg", str(CFG), "--into", str(target), "--replace", "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[-1].startswith(
        f"would merge into {target}: dirac-cfg: 5 groups"
    )
    assert target.read_text(encoding="utf-8") == pool.read_text(encoding="utf-8")
    result = run("import", "dirac-cfg", str(CFG), "--into", str(target), "--replace")
    assert result.exit_code == 0, result.stderr
    jobs = [
        {"id": "1.0", "owner": "alice", "dirac_group": "lhcb_user", "count": 2,
         "dirac_requirements": {"cpu_time": 3000}},
        {"id": "2.0", "owner": "bob", "dirac_group": "lhcb_user",
         "dirac_requirements": {"cpu_time": 3000}},
        {"id": "3.0", "owner": "simbot", "dirac_group": "lhcb_prod",
         "dirac_requirements": {"cpu_time": 100000}},
        {"id": "4.0", "owner": "simbot", "dirac_group": "lhcb_data"},
    ]  # fmt: skip
    jobs_file = tmp_path / "jobs.json"
    jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
    state = tmp_path / "state.json"
    common = ["--config", str(target), "--state", str(state), "--now", NOW]
    result = run("taskqueues", *common, "--jobs-file", str(jobs_file), "--json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [(r["owner"], r["requirements"]["cpu_time"], r["priority"]) for r in rows] == [
        ("alice", 3600, 500.0),
        ("bob", 3600, 500.0),
        ("simbot", 259200, 300.0),
        ("simbot", 86400, 1000.0),
    ]
    assert [r["share"] for r in rows] == [500 / 2300, 500 / 2300, 300 / 2300, 1000 / 2300]
    assert [r["correction"] for r in rows] == [1.0, 1.0, 1.0, 1.0]
    for view in (["config", "check", "--config", str(target)], ["userprio", *common],
                 ["quota", *common], ["sshare", *common], ["sprio", *common],
                 ["taskqueues", *common], ["negotiate", "--dry-run", *common]):  # fmt: skip
        result = run(*view)
        assert result.exit_code == 0, (view, result.stderr)


def test_job_description_as_dirac_reads_it(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    """``JobModel.py`` and ``JobManifest.check`` read ``JobDescription/<option>`` through
    the ``Operations`` helper with an integer default: ``2.5`` is no integer, so DIRAC reads
    its default 1; ``MaxInputData`` is an option ``fs`` does not model."""
    body = "MaxPriority = 20\n      DefaultPriority = 2.5\n      MaxInputData = 3"
    ops = (
        "Operations\n{{\n  Defaults\n  {{\n    JobDescription\n    {{\n      {}\n    }}\n  }}\n}}\n"
    )
    cfg = write_config(ops.format(body), name="jd.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert toml(result.stdout)["dirac"]["job_description"] == {
        "default_priority": 1,
        "max_priority": 20,
    }
    lines = result.stderr.splitlines()
    assert lines[0] == (
        f"fs: warning: {cfg}:8: JobDescription/DefaultPriority = '2.5' is not an integer; "
        "DIRAC reads 1"
    )
    assert lines[1].endswith("ignored 1: Operations/*/JobDescription/MaxInputData")


def test_a_default_outside_its_bounds_is_warned_of(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    """``fs import dirac-cfg jd.cfg`` with ``DefaultCPUTime = 600000`` (MaxCPUTime 500000)
    printed the fragment and its summary alone. DIRAC's JobManager makes its job model with
    DefaultCPUTime 600000 and ``checkCPUTimeBounds`` refuses it before a job's own CPUTime
    is set, so it takes no job: the import says so; MinPriority 5 above DefaultPriority 1
    likewise, named at the line that set the bound."""
    body = "DefaultCPUTime = 600000\n      MinPriority = 5"
    ops = (
        "Operations\n{{\n  Defaults\n  {{\n    JobDescription\n    {{\n      {}\n    }}\n  }}\n}}\n"
    )
    cfg = write_config(ops.format(body), name="jd.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert toml(result.stdout)["dirac"]["job_description"] == {
        "default_cpu_time": 600000,
        "min_priority": 5,
    }
    assert result.stderr.splitlines()[:2] == [
        f"fs: warning: {cfg}:7: JobDescription/DefaultCPUTime = 600000 is outside MinCPUTime "
        "100 to MaxCPUTime 500000; DIRAC's JobManager refuses every job (it validates the "
        "default before a job's own CPUTime)",
        f"fs: warning: {cfg}:8: JobDescription/DefaultPriority = 1 is outside MinPriority 5 "
        "to MaxPriority 10; DIRAC's JobManager refuses every job (it validates the default "
        "before a job's own Priority)",
    ]


def test_a_default_outside_its_bounds_under_a_dirac8_setup(
    run: Callable[..., Any], write_config: Callable[..., Path]
) -> None:
    """``--setup Prod``: DIRAC 8's JobManager validated nothing, and its JobDB clamped the
    default into the bounds (rel-v8r0 ``JobManifest.__checkNumericalVar``: ``max(minVal,
    min(varValue, maxVal))``, set whenever it differs); fs refuses as DIRAC 9 does, and says
    which. The default 86400 is below Prod's MinCPUTime 100000."""
    body = "MinCPUTime = 100000"
    ops = "Operations\n{{\n  Prod\n  {{\n    JobDescription\n    {{\n      {}\n    }}\n  }}\n}}\n"
    cfg = write_config(ops.format(body), name="d8jd.cfg")
    result = run("import", "dirac-cfg", str(cfg), "--setup", "Prod")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        f"fs: warning: {cfg}:7: JobDescription/DefaultCPUTime = 86400 is outside MinCPUTime "
        "100000 to MaxCPUTime 500000; DIRAC 9's JobManager refuses every job (it validates "
        "the default before a job's own CPUTime), as fs does; DIRAC 8 clamped the default "
        "into the bounds"
    )
